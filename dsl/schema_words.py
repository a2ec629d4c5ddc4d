"""JSON Schema errors in the words of a Boardwright file, and positions in JSON texts.

The schemas of the files a user hands us live in dsl/schemas/ (components, scenario, saved
game and log). jsonschema is imported only by the callers, and only when a file is not
already known to be valid. A schema node may carry `errorMessage` (what a value there must
be) and `patternErrorMessage` (what a text there must look like), the extension keywords
that editors (VS Code's JSON and YAML support) show too; the messages here use them.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

import yaml

from .errors import Span, counted

SCHEMA_DIR = Path(__file__).with_name("schemas")

WORDS = {"string": "a text", "integer": "a whole number", "number": "a number", "boolean": "true or false",
         "array": "a list", "object": "a mapping (key: value lines)", "null": "none (null)"}


@lru_cache(maxsize=None)
def schema_text(name: str) -> str:
    return (SCHEMA_DIR / name).read_text(encoding="utf-8")


@lru_cache(maxsize=None)
def validator(name: str):
    import jsonschema           # slow to import: only when a file is not known to be valid
    return jsonschema.Draft202012Validator(json.loads(schema_text(name)))


def shown(value, limit: int = 60) -> str:
    """A value as the file writes it, in backticks, cut to `limit` characters."""
    if isinstance(value, str):
        text = value
    else:
        try:
            text = json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError):
            text = repr(value)
    text = text if len(text) <= limit else text[:limit] + "..."
    return f"`{text}`"


def place(where) -> str:
    """Where a value is, in words: `table`, `moves` item 2, the top level."""
    where = list(where)
    if not where:
        return "this value"
    if isinstance(where[-1], int):
        named = next((str(k) for k in reversed(where[:-1]) if isinstance(k, str)), "")
        return f"item {where[-1] + 1} of '{named}'" if named else f"item {where[-1] + 1}"
    if len(where) > 1 and isinstance(where[-2], int):
        return f"'{where[-1]}' of {place(where[:-1])}"
    return f"'{where[-1]}'"


def wanted_types(types) -> str:
    types = [types] if isinstance(types, str) else list(types)
    return " or ".join(WORDS.get(t, t) for t in types)


def schema_message(error) -> tuple[list, str, str]:
    """(path of the value, message, hint) for one jsonschema error. The message names the
    place (`table`, item 2 of `moves`), what belongs there and what the file has."""
    where = list(error.absolute_path)
    schema = error.schema if isinstance(error.schema, dict) else {}
    kind = error.validator
    got = shown(error.instance)
    if kind == "additionalProperties" and isinstance(error.instance, dict):
        allowed = list(schema.get("properties", {}))
        extra = [k for k in error.instance if k not in allowed]
        if extra:
            from .errors import did_you_mean
            inside = f" in {where[-1]}" if where and isinstance(where[-1], str) else ""
            return (where + [extra[0]], f"unknown key '{extra[0]}'{inside}; keys: {', '.join(allowed)}",
                    did_you_mean(str(extra[0]), allowed))
    if kind == "required":
        missing = [k for k in error.validator_value if isinstance(error.instance, dict) and k not in error.instance]
        name = missing[0] if missing else error.validator_value[0]
        return where, f"{place(where) if where else 'the file'} needs the key '{name}'", ""
    if kind == "pattern" or (kind == "propertyNames"):
        text = schema.get("patternErrorMessage") or schema.get("errorMessage") or "not a valid text here"
        return where, f"{place(where)}: {text}, got {got}", ""
    if kind == "type":
        own = schema.get("errorMessage")
        if own:
            return where, f"{place(where)}: {own}, got {got}", ""
        if error.instance is None and not where:
            return where, f"the file is empty: it must be {wanted_types(error.validator_value)}", ""
        plain = isinstance(error.instance, (str, int, float, list, dict, type(None)))
        value = repr(error.instance) if plain else str(error.instance)      # a YAML date as written
        value = value if len(value) <= 60 else value[:60] + "..."
        return where, f"{place(where)} must be {wanted_types(error.validator_value)}, not {value}", ""
    if kind == "enum":
        options = ", ".join(f"`{v}`" for v in error.validator_value)
        return where, f"{place(where)} must be one of {options}, not {got}", ""
    if kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        relation = {"minimum": "at least", "maximum": "at most", "exclusiveMinimum": "more than",
                    "exclusiveMaximum": "less than"}[kind]
        return where, f"{place(where)} must be {relation} {error.validator_value}, not {got}", ""
    if kind in ("minItems", "maxItems"):
        relation = "at least" if kind == "minItems" else "at most"
        own = schema.get("errorMessage")
        if own:
            return where, f"{place(where)}: {own}, got {got}", ""
        return where, f"{place(where)} must have {relation} {counted(error.validator_value, 'item')}, " \
                      f"not {len(error.instance)}", ""
    if kind in ("minLength", "maxLength"):
        relation = "at least" if kind == "minLength" else "at most"
        return where, f"{place(where)} must be {relation} {counted(error.validator_value, 'character')} long", ""
    if kind in ("maxProperties", "minProperties"):
        relation = "at least" if kind == "minProperties" else "at most"
        return where, f"{place(where)} must have {relation} {counted(error.validator_value, 'key')}", ""
    if kind == "const":
        return where, f"{place(where)} must be {shown(error.validator_value)}, not {got}", ""
    own = schema.get("errorMessage")
    if own:
        return where, f"{place(where)}: {own}, got {got}", ""
    return where, f"{place(where)}: {error.message[:200]}", ""


def deepest_errors(errors) -> list:
    """The errors worth reporting: of an anyOf/oneOf/if, the branch that got furthest (a
    branch of the value's own type before one that wants another type)."""
    out = []
    for error in errors:
        if error.validator in ("anyOf", "oneOf") and error.context:
            best = max(error.context, key=lambda e: (len(e.absolute_path), e.validator != "type"))
            out.extend(deepest_errors([best]))
        else:
            out.append(error)
    return out


def one_of_message(error) -> tuple[list, str, str]:
    """(path, message, hint) for a value that fits none of several shapes (`oneOf`): the
    shape of the value's own type, in the language's words, not the whole value quoted."""
    if all(e.validator == "type" for e in error.context):
        types = [t for e in error.context
                 for t in ([e.validator_value] if isinstance(e.validator_value, str) else e.validator_value)]
        where = list(error.absolute_path)
        return where, f"{place(where)} must be {wanted_types(types)}, not {shown(error.instance)}", ""
    return schema_message(deepest_errors([error])[0])


_SPACE = re.compile(r"[ \t\n\r]*")


def json_position(text: str, where, key: bool = False) -> tuple[int, int]:
    """The line and column (1-based) in a JSON text of the value at `where` (keys and
    indexes), as deep as it exists; with `key`, of the key that names its last step.
    Values on the way are skipped by the standard decoder, so this is quick on any size."""
    decoder = json.JSONDecoder()
    at = _SPACE.match(text, 0).end()
    try:
        for number, step in enumerate(where):
            last = number == len(where) - 1
            if at >= len(text):
                break
            if text[at] == "{" and isinstance(step, str):
                i = _SPACE.match(text, at + 1).end()
                found = None
                while i < len(text) and text[i] == '"':
                    name, j = json.decoder.scanstring(text, i + 1)
                    j = _SPACE.match(text, j).end()
                    j = _SPACE.match(text, j + 1).end()        # past ':'
                    if name == step:
                        found = i if key and last else j
                        break
                    _, j = decoder.raw_decode(text, j)
                    j = _SPACE.match(text, j).end()
                    if j < len(text) and text[j] == ",":
                        j = _SPACE.match(text, j + 1).end()
                    i = j
                if found is None:
                    break
                at = found
            elif text[at] == "[" and isinstance(step, int):
                i = _SPACE.match(text, at + 1).end()
                for _ in range(step):
                    if i >= len(text) or text[i] == "]":
                        break
                    _, i = decoder.raw_decode(text, i)
                    i = _SPACE.match(text, i).end()
                    if i < len(text) and text[i] == ",":
                        i = _SPACE.match(text, i + 1).end()
                else:
                    if i < len(text) and text[i] != "]":
                        at = i
                        continue
                break
            else:
                break
    except (ValueError, IndexError, RecursionError):
        pass
    line = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1) + 1
    return line, column


# ---------------------------------------------------------------- positions in YAML texts
def mark_span(path: str, node) -> Span:
    """The span of a YAML node in file `path` (at least one column wide)."""
    start, end = node.start_mark, node.end_mark
    end_col = end.column + 1 if end.line == start.line else start.column + 2
    return Span(path, start.line + 1, start.column + 1, start.line + 1, max(end_col, start.column + 2))


def node_at(root, json_path) -> object:
    """The YAML node at a JSON path (keys and indexes), as deep as it exists."""
    node = root
    for key in json_path:
        if isinstance(node, yaml.MappingNode):
            found = None
            for k, v in node.value:
                if k.value == key:
                    found = v
                    break
            if found is None:
                return node
            node = found
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
            node = node.value[key]
        else:
            return node
    return node


def key_node_at(root, json_path):
    """The key node for the last element of a path (better position for 'unknown key')."""
    parent = node_at(root, json_path[:-1])
    if isinstance(parent, yaml.MappingNode):
        for k, _ in parent.value:
            if k.value == json_path[-1]:
                return k
    return node_at(root, json_path)
