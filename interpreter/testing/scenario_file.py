"""Scenario files as data: their JSON Schema, reading one (as untrusted YAML), and the position
in the file of any key or value, so that every problem is reported at its line.

interpreter/testing/scenario.py runs what this module reads.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import yaml

from ...dsl.schema_words import mark_span as _mark_span
from ...dsl.yaml_checks import (_FAST_LOADER, _alias_problem, _key_problems, _nesting_problem,
                                 long_number_problem, reader_error_place)
from ...dsl.errors import BoardwrightError, DataError, Diagnostic, Span, read_source
from ...dsl.schema_words import deepest_errors, schema_message, schema_text, validator
from ..run.limits import Problem
from ..run.shaped import covered

SCHEMA_FILE = "scenario.schema.json"     # in dsl/schemas/, published in docs/scenarios.md


def scenario_schema() -> dict:
    """The JSON Schema of scenario files (dsl/schemas/scenario.schema.json)."""
    return json.loads(schema_text(SCHEMA_FILE))


SCHEMA = scenario_schema()


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
        try:        # libyaml when installed (several times faster); the pure reader words errors
            data, root = _read_yaml(str(path), text, _FAST_LOADER)
        except yaml.YAMLError:
            data, root = _read_yaml(str(path), text, yaml.SafeLoader)
    except OSError as exc:
        raise DataError(f"cannot read scenario {path}: {exc.strerror}")
    except UnicodeDecodeError:
        raise DataError(f"cannot read scenario {path}: it is not UTF-8 text")
    except yaml.YAMLError as exc:
        line, col, problem = _yaml_error_place(text, exc)
        raise DataError(Diagnostic(Span(str(path), line, col, line, col + 1), f"invalid YAML: {problem}"))
    problems = _key_problems(str(path), root)
    if problems:
        raise DataError([Diagnostic(d.span, "scenario: " + d.message, d.hint) for d in problems])
    check_shape(path, text, data, root)
    return data, root


def _yaml_error_place(text: str, exc: yaml.YAMLError) -> tuple[int, int, str]:
    """Where a YAML error is (line, column, from 1) and what it is, in the reader's words: at
    its mark; a character the reader refuses at its place in the text; else the file's start."""
    mark = getattr(exc, "problem_mark", None)
    if mark is not None:
        return mark.line + 1, mark.column + 1, getattr(exc, "problem", exc)
    return reader_error_place(text, exc) or (1, 1, getattr(exc, "problem", exc))


def _read_yaml(name: str, text: str, loader) -> tuple[object, object]:
    """The data and node tree of an untrusted YAML text, composed once: a huge number, deep
    nesting or an alias bomb is refused before anything is built."""
    problem = long_number_problem(name, text) or _nesting_problem(name, text, loader)
    if problem is not None:
        raise DataError(problem)
    reader = loader(text)
    try:
        root = reader.get_single_node()
        problem = _alias_problem(name, root) if root is not None else None
        if problem is not None:
            raise DataError(problem)
        data = reader.construct_document(root) if root is not None else None
    finally:
        reader.dispose()
    return data, root


_VALID = b"valid scenario"


def _valid_marker(text: str) -> Path | None:
    """A file in the user's cache whose existence records that this exact scenario text
    matched this exact schema (so the check, and importing jsonschema, are skipped)."""
    from ...dsl.cache import cache_dir
    folder = cache_dir()
    if folder is None:
        return None
    digest = hashlib.sha256((schema_text(SCHEMA_FILE) + "\0" + text).encode("utf-8")).hexdigest()
    return folder / f"scenario-valid-{digest[:32]}"


def check_shape(path: Path, text: str, data, root) -> None:
    """The scenario against its JSON Schema, once per text: every error at its place."""
    from ...dsl.cache import read_cache_file, store_cache_file
    marker = _valid_marker(text)
    if marker is not None and read_cache_file(marker) == _VALID:     # signed by this user's key
        return
    errors = deepest_errors(validator(SCHEMA_FILE).iter_errors(data))
    if errors:
        diagnostics = {}
        for error in errors:
            where, message, hint = schema_message(error)
            if "propertyNames" in error.schema_path:      # a bad key: point at the key itself
                where = where + [error.instance]
            key = error.validator == "additionalProperties" or "propertyNames" in error.schema_path
            span = node_span(path, root, where, key=key)
            diagnostics.setdefault((span.line, span.column, message), Diagnostic(span, f"scenario: {message}", hint))
        raise DataError([diagnostics[k] for k in sorted(diagnostics)])
    if marker is not None:
        store_cache_file(marker, _VALID, keep=1000)


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


def pieces_as_cells(game, want: dict) -> dict:
    """An expected grid with each `{piece: LABEL, turned: N}` written out as its label on every
    cell the piece covers from that anchor (a label that names no piece with a shape stays)."""
    out: dict = {}
    for key, value in want.items():
        if not isinstance(value, dict):
            out.setdefault(_key(key), []).extend(value if isinstance(value, list) else [value])
            continue
        label = str(value.get("piece", "")).strip().lower()
        piece = next((c for c, text in enumerate(game.labels) if text.lower() == label), None)
        anchor = tuple(int(n) for n in _key(key).split(","))
        try:
            cells = covered(game, piece, anchor, value.get("turned", 0)) if piece is not None else (anchor,)
        except Problem:
            cells = (anchor,)
        for x, y in cells:
            out.setdefault(f"{x},{y}", []).append(value.get("piece"))
    return out


def _key(text) -> str:
    return ",".join(part.strip() for part in str(text).split(","))
