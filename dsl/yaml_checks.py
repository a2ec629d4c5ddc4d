"""Checks on a YAML text before and after it is composed, for every YAML file a user hands us
(component data, scenarios): numbers too long to read, nesting too deep for the composer,
alias bombs, keys that are not names or are given twice, half surrogate pairs; and YAML's
own syntax errors in the language's words. Each problem is a Diagnostic at its place.
"""
from __future__ import annotations

import re

import yaml

from .errors import Diagnostic, Span
from .schema_words import mark_span as _mark_span

_FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
MAX_NUMBER_DIGITS = 1000        # digits of a number (or digit run) in a data file
_LONG_NUMBER = re.compile(r"[0-9_]{%d,}" % (MAX_NUMBER_DIGITS + 1))


def long_number_problem(name: str, text: str) -> Diagnostic | None:
    """A run of more than MAX_NUMBER_DIGITS digits: YAML would build the integer (and past
    4,300 digits crash), so it is refused at its place before YAML reads the text."""
    long_number = _LONG_NUMBER.search(text)
    if long_number is None:
        return None
    line = text.count("\n", 0, long_number.start()) + 1
    column = long_number.start() - (text.rfind("\n", 0, long_number.start()) + 1) + 1
    return Diagnostic(Span(name, line, column, line, column + len(long_number.group())),
                      f"a number of {len(long_number.group()):,} digits: at most {MAX_NUMBER_DIGITS} "
                      "(docs/security.md)")


def untrusted_yaml_problem(name: str, text: str) -> Diagnostic | None:
    """What makes a YAML text unsafe to load: a huge number, deep nesting, an alias bomb."""
    problem = long_number_problem(name, text) or _nesting_problem(name, text, yaml.SafeLoader)
    if problem is None:
        root = yaml.compose(text, Loader=_FAST_LOADER)
        problem = _alias_problem(name, root) if root is not None else None
    return problem


def _by_position(diagnostics: list) -> list:
    return sorted(diagnostics, key=lambda d: (d.span.line, d.span.column))


def reader_error_place(text: str, exc: yaml.YAMLError) -> tuple[int, int, str] | None:
    """A character the YAML reader refuses, at its line and column (from 1) in the text, with
    the reader's reason (not its internal name for the text), or None for other errors."""
    if not (isinstance(exc, yaml.reader.ReaderError) and isinstance(exc.character, int)):
        return None
    start = text.rfind("\n", 0, exc.position) + 1
    return (text.count("\n", 0, exc.position) + 1, exc.position - start + 1,
            f"unacceptable character #x{exc.character:04x}: {exc.reason}")


def _yaml_diagnostic(name: str, text: str, exc: yaml.YAMLError) -> Diagnostic:
    refused = reader_error_place(text, exc)
    if refused is not None:
        line, col, problem = refused
        return Diagnostic(Span(name, line, col, line, col + 1), f"invalid YAML: {problem}")
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    lines = text.splitlines() or [""]
    if line > len(lines):           # the end of the stream: point after the last character
        line, col = len(lines), len(lines[-1]) + 1
    problem = getattr(exc, "problem", None) or str(exc)
    context, context_mark = getattr(exc, "context", None), getattr(exc, "context_mark", None)
    hint = ""
    if context and problem.startswith("but "):     # "expected a single document..., but found another"
        problem = f"{context}, {problem}"
    elif context and context_mark is not None and context_mark is not mark:
        hint = f"{context} at line {context_mark.line + 1}, column {context_mark.column + 1}"
    return Diagnostic(Span(name, line, col, line, col + 1), f"invalid YAML: {problem}", hint)


_STR_TAG, _MERGE_TAG = "tag:yaml.org,2002:str", "tag:yaml.org,2002:merge"


MAX_YAML_DEPTH = 100            # deeper YAML would exhaust the stack of the YAML composer
MAX_YAML_VALUES = 1_000_000     # aliases may repeat a list inside a list... ("billion laughs")


def _nesting_problem(name: str, text: str, loader) -> Diagnostic | None:
    """Lists and mappings nested more than MAX_YAML_DEPTH deep (read from the event stream)."""
    depth = 0
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            depth += 1
            if depth > MAX_YAML_DEPTH:
                return Diagnostic(_mark_span(name, event), f"the YAML nests more than {MAX_YAML_DEPTH} levels deep")
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            depth -= 1
    return None


def _children(node) -> list:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def _alias_problem(name: str, root) -> Diagnostic | None:
    """An alias inside the node it names (a cycle), or aliases that repeat values past
    MAX_YAML_VALUES. Composed aliases are shared nodes, so this walks each node once."""
    size: dict = {}
    open_nodes: set = set()
    stack = [(root, False)]
    while stack:
        node, leaving = stack.pop()
        if leaving:
            open_nodes.discard(id(node))
            size[id(node)] = 1 + sum(size[id(child)] for child in _children(node))
            if size[id(node)] > MAX_YAML_VALUES:
                return Diagnostic(_mark_span(name, node), f"aliases repeat this value into more than "
                                  f"{MAX_YAML_VALUES} values", "write the values out, or use 'copies'")
        elif id(node) in open_nodes:
            return Diagnostic(_mark_span(name, node), "an alias is used inside the value it names",
                              "a value cannot contain itself")
        elif id(node) not in size:
            open_nodes.add(id(node))
            stack.append((node, True))
            stack.extend((child, False) for child in _children(node))
    return None


def _every_node(root):
    """Each node of a composed YAML document once (aliases share nodes)."""
    done, stack = set(), [root]
    while stack:
        node = stack.pop()
        if id(node) not in done:
            done.add(id(node))
            stack.extend(_children(node))
            yield node


def _key_problems(name: str, root) -> list:
    """Keys that are not names (`1:`, `yes:`) and keys given twice in one mapping."""
    problems = []
    for node in _every_node(root):
        if not isinstance(node, yaml.MappingNode):
            continue
        seen: dict = {}
        for key, _ in node.value:
            if isinstance(key, yaml.ScalarNode) and key.tag not in (_STR_TAG, _MERGE_TAG):
                problems.append(Diagnostic(_mark_span(name, key), f"the key {key.value!r} is not a name",
                                           "quote it to make it a name" if key.value else ""))
            elif isinstance(key, yaml.ScalarNode) and key.value in seen:
                problems.append(Diagnostic(_mark_span(name, key), f"the key '{key.value}' is given twice",
                                           f"first given at line {seen[key.value].start_mark.line + 1}"))
            elif isinstance(key, yaml.ScalarNode):
                seen[key.value] = key
    return _by_position(problems)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _surrogate_problems(name: str, root) -> list:
    """Texts holding a UTF-16 surrogate (`"\\ud835"`, which YAML reads as half a character): no
    terminal or file can show one, so it is refused where it is written."""
    problems = []
    for node in _every_node(root):
        if isinstance(node, yaml.ScalarNode) and isinstance(node.value, str):
            found = _SURROGATE.search(node.value)
            if found:
                problems.append(Diagnostic(_mark_span(name, node), f"'\\u{ord(found.group()):04x}' is half of a "
                                           "UTF-16 surrogate pair, not a character",
                                           "write the character itself, or '\\U' and its 8 hex digits"))
    return _by_position(problems)
