"""Scenario files as data: their JSON Schema, reading one (as untrusted YAML), and the position
in the file of any key or value, so that every problem is reported at its line.

interpreter/testing/scenario.py runs what this module reads.
"""
from __future__ import annotations

from pathlib import Path

import yaml

from ...dsl.data import _mark_span, untrusted_yaml_problem
from ...dsl.errors import BoardwrightError, DataError, Diagnostic, Span, did_you_mean, read_source

SCHEMA = {
    "type": "object",
    "required": ["game"],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string"},
        "description": {"type": "string"},
        "game": {"type": "string"},
        "variant": {"type": "string"},
        "players": {"type": "integer", "minimum": 1},
        "seed": {"type": "integer"},
        "state": {
            "type": "object", "additionalProperties": False,
            "properties": {
                "zones": {"type": "object", "additionalProperties": {"type": ["array", "object"]}},
                "top": {"type": "object", "additionalProperties": {"type": "array"}},
                "vars": {"type": "object"},
            },
        },
        "moves": {"type": "array", "items": {"type": ["string", "integer"]}},
        "expect": {
            "type": "object", "additionalProperties": False,
            "properties": {
                "options": {"type": "array"}, "options_include": {"type": "array"},
                "options_exclude": {"type": "array"}, "player": {"type": "integer"},
                "prompt": {"type": "string"}, "zones": {"type": "object"}, "vars": {"type": "object"},
                "scores": {"type": "array"}, "lines": {"type": "array"}, "winners": {"type": "array"},
                "finished": {"type": "boolean"}, "error": {"type": "string"}, "turns": {"type": "array"},
                "log_includes": {"type": "string"}, "invariants": {"type": "boolean"},
                "endings": {"type": "array", "items": {"type": "string"}},
                "properties": {"type": "boolean"},
                "opponents": {"type": "object", "additionalProperties": {"type": "object"}},
                "bot_chooses": {
                    "type": "object", "additionalProperties": False, "required": ["bots", "one_of"],
                    "properties": {
                        "bots": {"type": ["string", "array"], "items": {"type": "string"}},
                        "one_of": {"type": "array", "minItems": 1, "items": {"type": ["string", "integer"]}},
                        "seeds": {"type": "integer", "minimum": 1, "maximum": 1000},
                    },
                },
            },
        },
    },
}


class ScenarioError(BoardwrightError):
    """A problem with a scenario's own contents, at a place in its YAML (`where`: the keys and
    indexes leading there), reported with that place's line and column."""

    def __init__(self, message: str, where: tuple = (), hint: str = ""):
        super().__init__(message)
        self.message, self.where, self.hint = message, tuple(where), hint


def load_scenario(path: str | Path) -> dict:
    return read_with_positions(Path(path))[0]


def read_with_positions(path: Path) -> tuple[dict, object]:
    """The scenario's data and its YAML node tree (for positions)."""
    try:
        text = read_source(path, DataError, "the scenario is ")
        problem = untrusted_yaml_problem(str(path), text)
        if problem is not None:
            raise DataError(problem)
        data = yaml.safe_load(text)
        root = yaml.compose(text)
    except OSError as exc:
        raise DataError(f"cannot read scenario {path}: {exc.strerror}")
    except UnicodeDecodeError:
        raise DataError(f"cannot read scenario {path}: it is not UTF-8 text")
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise DataError(Diagnostic(Span(str(path), line, col, line, col + 1),
                                   f"invalid YAML: {getattr(exc, 'problem', exc)}"))
    import jsonschema           # slow to import: only commands that read scenarios pay for it
    errors = list(jsonschema.Draft202012Validator(SCHEMA).iter_errors(data))
    if errors:
        raise DataError([_schema_diagnostic(path, root, e) for e in errors])
    return data, root


def _schema_diagnostic(path: Path, root, error) -> Diagnostic:
    """A JSON Schema error in words a scenario writer reads, at the offending key or value."""
    where = list(error.absolute_path)
    if error.validator == "additionalProperties":
        allowed = _schema_at(where).get("properties", {})
        extra = [k for k in error.instance if k not in allowed]
        place = " in " + where[-1] if where and isinstance(where[-1], str) else ""
        hint = did_you_mean(str(extra[0]), allowed)
        return Diagnostic(node_span(path, root, where + [extra[0]], key=True),
                          f"scenario: unknown key '{extra[0]}'{place}; keys: {', '.join(allowed)}", hint)
    if error.validator == "required":
        return Diagnostic(node_span(path, root, where), f"scenario: {error.message}")
    if error.validator == "type":
        types = [error.validator_value] if isinstance(error.validator_value, str) else error.validator_value
        wanted = " or ".join(_A.get(t, t) for t in types)
        name = f"'{where[-1]}'" if where and isinstance(where[-1], str) else \
            f"item {where[-1] + 1} of '{where[-2]}'" if len(where) > 1 else "this value"
        return Diagnostic(node_span(path, root, where), f"scenario: {name} must be {wanted}, not {error.instance!r}")
    return Diagnostic(node_span(path, root, where), f"scenario: {error.message}")


_A = {"string": "a text", "integer": "a whole number", "boolean": "true or false", "array": "a list",
      "object": "a mapping (key: value lines)"}


def _schema_at(where: list) -> dict:
    schema = SCHEMA
    for key in where:
        schema = schema.get("properties", {}).get(key, schema.get("additionalProperties", {})) \
            if isinstance(key, str) else schema.get("items", {})
        if not isinstance(schema, dict):
            return {}
    return schema


def node_span(path: Path, root, where, key: bool = False) -> Span:
    """The span of the YAML node at `where` (as deep as it exists); with `key`, of the
    mapping key that names the last step rather than its value."""
    node = root
    for step, name in enumerate(where):
        if isinstance(node, yaml.MappingNode):
            pair = next(((k, v) for k, v in node.value if str(k.value) == str(name)), None)
            if pair is None:
                break
            if key and step == len(where) - 1:
                return _mark_span(str(path), pair[0])
            node = pair[1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(name, int) and name < len(node.value):
            node = node.value[name]
        else:
            break
    if node is None:
        return Span(str(path), 1, 1, 1, 2)
    return _mark_span(str(path), node)


