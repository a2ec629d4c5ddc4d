"""The canonical layout of a rule file (`boardwright fmt`).

The formatter works on tokens, not on the tree, so every comment stays where it was written
and only whitespace changes: the tree of the formatted file equals the original's
(`format_checked` proves it by parsing both). The layout it gives:

- indentation of two spaces per open bracket (brackets opened on one line count once), and
  one more level for a line that continues an expression begun on the line above;
- one space around binary operators, `=`, `->` and after `,` and `:`; none inside `( )` and
  `[ ]`, before `(` or `[` of a call or an index, around `.` and `..`, or after a unary sign;
  one space inside `{ }` written on one line;
- trailing comments of consecutive lines aligned two spaces after the longest code;
- at most one blank line in a row, none at the start of a file or of a block; no trailing
  spaces; one newline at the end.

Line breaks stay where the author put them: the formatter does not wrap long lines.
"""
from __future__ import annotations

import re
from dataclasses import fields

from . import ast
from .errors import Diagnostic, RuleFileError, Span

_TOKEN = re.compile(r"""
    (?P<string>"([^"\\\n]|\\.)*"?)
  | (?P<comment>\#[^\n]*)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<int>[0-9]+)
  | (?P<op>\.\.|->|==|!=|<=|>=|\+=|-=|//|[-+*%<>=.,:()\[\]{}])
  | (?P<other>\S)
""", re.VERBOSE)

OPENERS = {"(": ")", "[": "]", "{": "}"}
CLOSERS = {v: k for k, v in OPENERS.items()}
BINARY_WORDS = {"and", "or", "in", "not"}
BINARY_SYMBOLS = {"+", "-", "*", "//", "%", "==", "!=", "<", "<=", ">", ">=", "=", "+=", "-=", "->"}
# Words after which `(` or `[` starts an expression rather than a call or an index.
EXPRESSION_LEADERS = {"if", "elif", "else", "while", "in", "not", "and", "or", "then", "turn", "move",
                      "to", "at", "shuffle", "from", "by", "case", "of", "return", "log", "fail", "per",
                      "let", "for", "x"}
# A line ending in one of these continues on the next line.
CONTINUES = BINARY_SYMBOLS | BINARY_WORDS | {":", "then", "else", "if", "for", "of", "from", "to", "at",
                                             "by", "."}
# A line starting with one of these continues the line above (unless that ended a list item).
CONTINUING_STARTS = (BINARY_SYMBOLS - {"="}) | {"and", "or", "then", "in", "not", "else", "for", "if", ".",
                                                "to", "at", "from", "of", "by", "prompt", "label", "id"}


def _tokens(line: str) -> tuple[list[tuple[str, str]], str]:
    """The tokens of one line of code (kind, text), and its trailing comment ('' if none)."""
    tokens = []
    for match in _TOKEN.finditer(line):
        kind = match.lastgroup
        if kind == "comment":
            return tokens, match.group().rstrip()
        tokens.append((kind, match.group()))
    return tokens, ""


def _ends_value(kind: str, text: str) -> bool:
    if kind in ("int", "string"):
        return True
    if kind == "name":
        return text not in EXPRESSION_LEADERS and text not in BINARY_WORDS
    return text in (")", "]", "}")


def _value_before(prev: tuple[str, str], before: tuple[str, str] | None, zone_line: bool = False) -> bool:
    """Whether the token `prev` ends a value, given the token `before` it: `x` is the `by` of
    a size (`side x side`, an operator) only in a zone declaration after a value; elsewhere it
    is a name (`fn x(a: int)`, `x(3)`)."""
    if prev == ("name", "x"):
        return not zone_line or before is None or not _ends_value(*before)
    return _ends_value(*prev)


def _join(tokens: list[tuple[str, str]], continuing: bool) -> str:
    """One line's tokens with canonical spaces; `continuing`: the line continues an expression
    (so a sign that begins it is a binary operator)."""
    out = ""
    prev: tuple[str, str] | None = None
    unary = False
    before: tuple[str, str] | None = None   # the token before `prev`
    zone_line = tokens[0][1] == "zone"      # `blocked (2, 2)` is an option, not a call
    brackets: list[str] = []                # open on this line: a ':' right inside '[' is a slice's
    for kind, text in tokens:
        if prev is None:
            space = False
        else:
            pk, pt = prev
            if pt in ("(", "[", ".", "..") or unary:
                space = False
            elif pt == ":" and brackets and brackets[-1] == "[":
                space = False               # items[1:3]
            elif text in (")", "]", ",", ".", ":", ".."):
                space = False
            elif text in ("(", "[") and _value_before(prev, before, zone_line) and pk != "string" and pt != "}" \
                    and not (zone_line and text == "("):
                space = False
            elif pt == "{" or text == "}":
                space = True
            else:
                space = True
        after_dot = prev is not None and prev[0] == "name" and before is not None and before[1] == "."
        unary = text in ("-", "+") and (not (after_dot or _value_before(prev, before, zone_line)) if prev
                                         else not continuing)
        before = prev
        if text in OPENERS:
            brackets.append(text)
        elif text in CLOSERS and brackets:
            brackets.pop()
        out += (" " if space else "") + text
        prev = (kind, text)
    return out


def _starts_continuation(first: str, second: str | None, previous_last: str | None, depth: int) -> bool:
    if depth == 0 and first == "label":
        return False                # the declaration, not a choose option
    if previous_last is None or previous_last in ("{", "(", "[", ","):
        return False
    if previous_last in CONTINUES:
        return True
    if first == "else" and second in (":", "{", "if"):
        return False
    if first in ("if", "for") and previous_last not in ("(", "["):
        return False                # a statement, unless inside brackets (handled by depth)
    return first in CONTINUING_STARTS


def format_source(text: str) -> str:
    """The canonical layout of `text` (which must tokenise; parse it first for a clean error).
    Lines end at a newline only, as the parser's do: a lone carriage return is a space (in
    code the parser skips it; in a comment it does not end the comment)."""
    lines = text.replace("\r\n", "\n").replace("\r", " ").split("\n")
    stack: list[tuple[str, int]] = []       # open brackets: (bracket, indent inside it)
    previous_last: str | None = None        # the last token of the previous code line
    result: list[tuple[int, str, str]] = []  # (indent, code, comment); indent -1 for a blank line
    pending_comments: list[int] = []        # result rows of comment-only lines awaiting an indent
    for raw in lines:
        tokens, comment = _tokens(raw)
        if not tokens:
            if comment:
                pending_comments.append(len(result))
                result.append((0, "", comment))
            elif result and result[-1][0] != -1:
                result.append((-1, "", ""))
            continue
        first = tokens[0][1]
        second = tokens[1][1] if len(tokens) > 1 else None
        base = stack[-1][1] if stack else 0
        inside_round = bool(stack) and stack[-1][0] in ("(", "[")
        cont = False
        if first in CLOSERS:
            indent = _closing_indent(tokens, stack)
        else:
            cont = _starts_continuation(first, second, previous_last, len(stack))
            if inside_round and first in ("if", "for"):
                cont = True
            indent = base + (2 if cont else 0)
        for row in pending_comments:
            result[row] = (base if first in CLOSERS else indent, "", result[row][2])
        pending_comments = []
        # Brackets opened on this line: the line after them is indented one level deeper.
        for _, tok in tokens:
            if tok in OPENERS:
                stack.append((tok, indent + 2))
            elif tok in CLOSERS and stack and stack[-1][0] == CLOSERS[tok]:
                stack.pop()
        previous_last = tokens[-1][1]
        result.append((indent, _join(tokens, cont), comment))
    for row in pending_comments:
        result[row] = (0, "", result[row][2])
    return _render(result)


def _closing_indent(tokens, stack) -> int:
    """A line that starts by closing brackets sits at the indent of the line that opened them."""
    depth = len(stack)
    for _, tok in tokens:
        if tok not in CLOSERS or depth == 0:
            break
        depth -= 1
    return stack[depth][1] - 2 if depth < len(stack) else 0


def _render(rows: list[tuple[int, str, str]]) -> str:
    # Drop blank lines at the start, after an opening bracket and before a closing one.
    cleaned: list[tuple[int, str, str]] = []
    for i, row in enumerate(rows):
        if row[0] == -1:
            before = cleaned[-1] if cleaned else None
            after = next((r for r in rows[i + 1:] if r[0] != -1), None)
            if before is None or after is None:
                continue
            if before[1] and before[1][-1] in OPENERS and not before[2]:
                continue
            if after[1] and after[1][0] in CLOSERS:
                continue
        cleaned.append(row)
    out: list[str] = []
    i = 0
    while i < len(cleaned):
        indent, code, comment = cleaned[i]
        if indent == -1:
            out.append("")
            i += 1
            continue
        if code and comment:
            # A run of consecutive code lines with trailing comments: align the comments.
            j = i
            while j < len(cleaned) and cleaned[j][0] != -1 and cleaned[j][1] and cleaned[j][2]:
                j += 1
            width = max(cleaned[k][0] + len(cleaned[k][1]) for k in range(i, j))
            for k in range(i, j):
                ind, c, com = cleaned[k]
                out.append((" " * ind + c).ljust(width) + "  " + com)
            i = j
            continue
        out.append(" " * indent + (code or comment))
        i += 1
    return "\n".join(out).rstrip("\n") + "\n" if out else ""


# ----------------------------------------------------------------------------- checking
def strip_spans(node):
    """A comparable form of an AST node without its source positions (nor a module's text; a
    choice's `source`, the options it chooses from, is no position and is kept)."""
    if isinstance(node, ast.Node):
        left_out = ("span", "kind_span", "source") if isinstance(node, ast.Module) else ("span", "kind_span")
        return (type(node).__name__,) + tuple(strip_spans(getattr(node, f.name)) for f in fields(node)
                                              if f.name not in left_out)
    if isinstance(node, (tuple, list)):
        return tuple(strip_spans(n) for n in node)
    return node


def format_checked(text: str, filename: str = "<string>") -> str:
    """Format `text` after parsing it (a syntax error raises RuleFileError), and prove that the
    formatted file has the same tree."""
    from .parser import parse_text
    before = parse_text(text, filename)
    formatted = format_source(text)
    try:
        after = parse_text(formatted, filename)
    except RuleFileError as err:
        raise RuleFileError(Diagnostic(Span(filename, 1, 1, 1, 1),
                                       "the formatter broke this file; it is left unchanged",
                                       f"please report it: {err.diagnostics[0].message}")) from None
    finally:
        parse_text(text, filename)          # keep the original text for quoting diagnostics
    if strip_spans(before.items) != strip_spans(after.items):
        raise RuleFileError(Diagnostic(Span(filename, 1, 1, 1, 1),
                                       "the formatter changed this file's meaning; it is left unchanged",
                                       "please report it"))
    return formatted


def rule_files(targets) -> list:
    """The .game files named by `targets` (files, or folders searched recursively)."""
    from pathlib import Path
    from .errors import UsageError
    files = []
    for target in targets:
        path = Path(target)
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*.game") if p.is_file()))
        elif path.is_file():
            files.append(path)
        else:
            raise UsageError(f"no rule file or folder {target}")
    return files
