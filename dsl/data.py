"""Component data: YAML files checked by the JSON Schema in dsl/schemas, with line numbers.

A data file declares enumerations and component kinds with typed attributes and items
(`product` expands a cross product, `copies` repeats). Every error points at the YAML line.
"""
from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import jsonschema
import yaml

from .errors import SOURCES, DataError, Diagnostic, Span, did_you_mean

SCHEMA_PATH = Path(__file__).with_name("schemas") / "components.schema.json"
SCALAR_TYPES = ("int", "str", "bool")


@dataclass
class ComponentKind:
    name: str
    attributes: dict            # attribute -> type text ("int", "Colour", "list of int")
    label: str | None
    items: list = field(default_factory=list)   # one dict of attribute values per component


@dataclass
class DataSet:
    path: str
    provenance: str
    enums: dict                 # enum name -> list of member names
    kinds: dict                 # kind name -> ComponentKind


@lru_cache(maxsize=1)
def _validator():
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def _mark_span(path: str, node) -> Span:
    start, end = node.start_mark, node.end_mark
    end_col = end.column + 1 if end.line == start.line else start.column + 2
    return Span(path, start.line + 1, start.column + 1, start.line + 1, max(end_col, start.column + 2))


def _node_at(root, json_path) -> object:
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


def _key_node_at(root, json_path):
    """The key node for the last element of a path (better position for 'unknown key')."""
    parent = _node_at(root, json_path[:-1])
    if isinstance(parent, yaml.MappingNode):
        for k, _ in parent.value:
            if k.value == json_path[-1]:
                return k
    return _node_at(root, json_path)


def load_data(path: str | Path) -> DataSet:
    path = Path(path)
    name = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(Diagnostic(Span(name, 0, 0, 0, 0), f"cannot read data file {name}: {exc.strerror}"))
    SOURCES[name] = text
    try:
        root = yaml.compose(text)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = getattr(exc, "problem", None) or str(exc)
        raise DataError(Diagnostic(Span(name, line, col, line, col + 1), f"invalid YAML: {problem}"))
    if root is None:
        raise DataError(Diagnostic(Span(name, 1, 1, 1, 1), "the data file is empty",
                                   "a data file needs 'provenance' and 'components'"))
    errors = sorted(_validator().iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        raise DataError([_schema_diagnostic(name, root, e) for e in errors])
    return _build(name, root, data)


def _schema_diagnostic(name: str, root, error) -> Diagnostic:
    where = list(error.absolute_path)
    node = _node_at(root, where)
    message = error.message
    hint = ""
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = list(error.schema.get("properties", {}))
        extra = [k for k in error.instance if k not in allowed]
        if extra:
            node = _key_node_at(root, where + [extra[0]])
            message = f"unknown key '{extra[0]}'" + (f" in {'.'.join(map(str, where))}" if where else "")
            hint = did_you_mean(extra[0], allowed) or f"allowed keys: {', '.join(allowed)}"
    elif error.validator == "required":
        hint = "add the missing key"
    return Diagnostic(_mark_span(name, node), message, hint)


def _build(name: str, root, data: dict) -> DataSet:
    enums = {k: list(v) for k, v in (data.get("enums") or {}).items()}
    problems: list[Diagnostic] = []
    kinds = {}
    for kind_name, spec in data["components"].items():
        kind = ComponentKind(kind_name, dict(spec["attributes"]), spec.get("label"))
        for attr, type_text in kind.attributes.items():
            base = type_text.removeprefix("list of ")
            if base not in SCALAR_TYPES and base not in enums:
                node = _node_at(root, ["components", kind_name, "attributes", attr])
                problems.append(Diagnostic(_mark_span(name, node), f"unknown attribute type '{base}'",
                                           did_you_mean(base, list(SCALAR_TYPES) + list(enums))
                                           or "use int, str, bool, an enum of this file, or 'list of' one"))
        for index, item in enumerate(spec["items"]):
            item_path = ["components", kind_name, "items", index]
            for values in _expand(item):
                problems.extend(_check_item(name, root, item_path, kind, values, enums))
                kind.items.extend(dict(values) for _ in range(item.get("copies", 1)))
        kinds[kind_name] = kind
    if problems:
        raise DataError(problems)
    return DataSet(name, data["provenance"], enums, kinds)


def _expand(item: dict):
    fixed = {k: v for k, v in item.items() if k not in ("copies", "product")}
    product = item.get("product") or {}
    keys = list(product)
    for combo in itertools.product(*(product[k] for k in keys)):
        values = dict(fixed)
        values.update(zip(keys, combo))
        yield values


def _check_item(name, root, item_path, kind: ComponentKind, values: dict, enums: dict):
    for attr, value in values.items():
        if attr not in kind.attributes:
            node = _key_node_at(root, item_path + [attr])
            if node is _node_at(root, item_path):
                node = _key_node_at(root, item_path + ["product", attr])
            yield Diagnostic(_mark_span(name, node), f"unknown attribute '{attr}' of {kind.name}",
                             did_you_mean(attr, kind.attributes) or
                             f"declare it under components.{kind.name}.attributes")
            continue
        problem = _type_problem(kind.attributes[attr], value, enums)
        if problem:
            node = _node_at(root, item_path + [attr])
            if node is _node_at(root, item_path):
                node = _node_at(root, item_path + ["product", attr])
            yield Diagnostic(_mark_span(name, node), f"{kind.name}.{attr}: {problem}")
    for attr in kind.attributes:
        if attr not in values:
            yield Diagnostic(_mark_span(name, _node_at(root, item_path)),
                             f"a {kind.name} item has no value for '{attr}'")


def _type_problem(type_text: str, value, enums: dict) -> str:
    if type_text.startswith("list of "):
        if not isinstance(value, list):
            return f"expected a list, got {value!r}"
        for v in value:
            problem = _type_problem(type_text.removeprefix("list of "), v, enums)
            if problem:
                return problem
        return ""
    if type_text == "int":
        return "" if isinstance(value, int) and not isinstance(value, bool) else f"expected an integer, got {value!r}"
    if type_text == "str":
        return "" if isinstance(value, str) else f"expected a string, got {value!r}"
    if type_text == "bool":
        return "" if isinstance(value, bool) else f"expected true or false, got {value!r}"
    members = enums.get(type_text, [])
    if value not in members:
        hint = did_you_mean(str(value), members)
        return f"'{value}' is not a {type_text} ({', '.join(members)})" + (f"; {hint}" if hint else "")
    return ""
