"""Component data: YAML files checked by the JSON Schema in dsl/schemas, with line numbers.

A data file declares enumerations and component kinds with typed attributes and items
(`product` expands a cross product, `copies` repeats). Every error points at the YAML line.
"""
from __future__ import annotations

import itertools
import re
import json
from dataclasses import dataclass, field
from functools import lru_cache, reduce
from pathlib import Path

import yaml

from .cell_data import cell_value_problems
from .shapes import shape_cell_values, shape_cells, shape_problem
from .errors import SOURCES, DataError, Diagnostic, Span, did_you_mean, listing, read_source
from .codes import code_of
from .schema_words import key_node_at as _key_node_at, mark_span as _mark_span, node_at as _node_at, one_of_message, schema_message
from .template import check_template, fill
from .yaml_checks import (_FAST_LOADER, long_number_problem, _by_position, _yaml_diagnostic, _nesting_problem, _alias_problem, _key_problems, _surrogate_problems)

SCHEMA_PATH = Path(__file__).with_name("schemas") / "components.schema.json"
SCALAR_TYPES = ("int", "str", "bool")
MAX_COMPONENTS = 100_000        # guards memory and time against a runaway `copies` or `product`


@dataclass
class ComponentKind:
    name: str
    attributes: dict            # attribute -> type text ("int", "Colour", "list of int")
    label: str | None
    items: list = field(default_factory=list)   # one dict of attribute values per component
    details: str | None = None  # how `play` describes a component: "{cost} coins[, {text}]"
    glyph: list | None = None   # how `play` draws a component in a grid cell: lines of text
    back: tuple = ()            # attributes anyone can tell of a face-down component (its back)
    # Per item (parallel to `items`): the cells it covers on a grid (dsl/shapes.py), or None.
    shapes: list = field(default_factory=list)
    # Attributes each cell of a shape gives for itself (a domino's halves), and per item the
    # cells' values (a tuple of {attribute: value}, in the shape's order) or None.
    cell_attributes: dict = field(default_factory=dict)
    cell_values: list = field(default_factory=list)


@dataclass
class DataSet:
    path: str
    provenance: str             # the provenance text
    enums: dict                 # enum name -> list of member names
    kinds: dict                 # kind name -> ComponentKind
    # The provenance's parts: {"what", "representative", "source"?} each; empty for a plain text.
    provenance_parts: list = field(default_factory=list)

    @property
    def representative(self) -> list:
        """What the file's own provenance marks as representative (written, not printed)."""
        return [part["what"] for part in self.provenance_parts if part["representative"]]


@lru_cache(maxsize=1)
def _validator():
    import jsonschema           # slow to import: only when a data file is not known to be valid
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def _validated_marker(text: str) -> Path | None:
    """A file in the user's cache whose existence records that this exact data text passed
    this exact schema (so the schema check, and importing jsonschema, can be skipped)."""
    import hashlib
    from .cache import cache_dir
    folder = cache_dir()
    if folder is None:
        return None
    digest = hashlib.sha256((SCHEMA_PATH.read_text(encoding="utf-8") + "\0" + text).encode("utf-8")).hexdigest()
    return folder / f"data-valid-{digest[:32]}"


_VALID = b"valid"


def _trusted_marker(marker: Path) -> bool:
    """Whether the marker is one this user's key signed (a planted marker is ignored)."""
    from .cache import read_cache_file
    return read_cache_file(marker) == _VALID


def load_data(path: str | Path) -> DataSet:
    path = Path(path)
    name = str(path)
    try:
        text = read_source(path, DataError, "the data file is ")
    except OSError as exc:
        raise DataError(Diagnostic(Span(name, 0, 0, 0, 0), f"cannot read data file {name}: {exc.strerror}"))
    SOURCES[name] = text
    problem = long_number_problem(name, text)
    if problem is not None:
        raise DataError(problem)
    try:
        try:        # libyaml when installed (several times faster); its errors are worded differently
            too_deep = _nesting_problem(name, text, _FAST_LOADER)     # before composing recurses
            if too_deep is not None:
                raise DataError(too_deep)
            root = yaml.compose(text, Loader=_FAST_LOADER)
            data = yaml.load(text, Loader=_FAST_LOADER)
        except yaml.YAMLError:      # the pure-Python reader words errors as our messages expect
            too_deep = _nesting_problem(name, text, yaml.SafeLoader)
            if too_deep is not None:
                raise DataError(too_deep)
            root = yaml.compose(text)
            data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise DataError(_yaml_diagnostic(name, text, exc))
    if root is None:
        raise DataError(Diagnostic(Span(name, 1, 1, 1, 1), "the data file is empty",
                                   "a data file needs 'provenance' and 'components'"))
    problem = _alias_problem(name, root)
    if problem is not None:
        raise DataError(problem)
    problems = _key_problems(name, root) or _surrogate_problems(name, root)
    if problems:
        raise DataError(problems)
    marker = _validated_marker(text)
    if marker is None or not _trusted_marker(marker):
        errors = sorted(_validator().iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
        if errors:
            raise DataError(_by_position([_schema_diagnostic(name, root, e, data) for e in errors]))
        if marker is not None:
            from .cache import store_cache_file
            store_cache_file(marker, _VALID, keep=1000)
    return _build(name, root, data)


PROVENANCE_HINT = ("provenance is one text, or a mapping of 'text' and 'parts': a list of "
                   "{what: ..., representative: true or false, source: ...} (docs/language.md, Component data)")


def _schema_diagnostic(name: str, root, error, data=None) -> Diagnostic:
    if error.validator in ("oneOf", "anyOf") and error.context and "shape" not in error.absolute_path:
        where, message, hint = one_of_message(error)      # provenance: a text, or text and parts
        return Diagnostic(_mark_span(name, _node_at(root, where)), message,
                          hint or (PROVENANCE_HINT if where[:1] == ["provenance"] else ""))
    where = list(error.absolute_path)
    node = _node_at(root, where)
    message = error.message
    hint = ""
    if "shape" in where and data is not None:           # in the shape's words, at the shape
        where = where[:where.index("shape") + 1]
        node = _node_at(root, where)
        message = shape_problem(reduce(lambda d, k: d[k], where, data)) or message
        hint = ("write the cell {at: [x, y], ATTRIBUTE: value, ...}" if message.startswith(("a cell with its own", "a cell attribute is"))
                else "e.g. shape: [[0, 0], [1, 0], [0, 1]] or shape: \"##\\n#.\"")
    elif error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = list(error.schema.get("properties", {}))
        extra = [k for k in error.instance if k not in allowed]
        if extra:
            node = _key_node_at(root, where + [extra[0]])
            message = f"unknown key '{extra[0]}'" + (f" in {'.'.join(map(str, where))}" if where else "")
            hint = did_you_mean(extra[0], allowed) or f"allowed keys: {', '.join(allowed)}"
    elif error.validator in ("pattern", "propertyNames") and "patternErrorMessage" in (
            error.schema.get("propertyNames") or error.schema):
        words = (error.schema.get("propertyNames") or error.schema)["patternErrorMessage"]
        bad = error.instance if error.validator == "pattern" else next(
            (k for k in error.instance if not re.search(error.schema["propertyNames"]["pattern"], k)), "")
        message = f"{bad!r} is not a name here: {words}"
    else:       # in words: where, what belongs there, what the file has
        message = schema_message(error)[1]
        hint = "add the missing key" if error.validator == "required" else ""
    return Diagnostic(_mark_span(name, node), message, hint, code=code_of(message) or "E703")


def _build(name: str, root, data: dict) -> DataSet:
    enums = {k: list(v) for k, v in (data.get("enums") or {}).items()}
    problems: list[Diagnostic] = []
    kinds = {}
    total = 0
    for kind_name, spec in data["components"].items():
        kind = ComponentKind(kind_name, dict(spec["attributes"]), spec.get("label"),
                             details=spec.get("details"), back=tuple(spec.get("back") or ()),
                             cell_attributes=dict(spec.get("cell_attributes") or {}))
        for index, attr in enumerate(kind.back):
            if attr not in kind.attributes:
                node = _node_at(root, ["components", kind_name, "back", index])
                problems.append(Diagnostic(_mark_span(name, node),
                                           f"'back' names the unknown attribute '{attr}' of {kind_name}",
                                           did_you_mean(attr, kind.attributes) or
                                           f"{kind_name} has: {listing(kind.attributes)}"))
        if spec.get("glyph") is not None:
            glyph = spec["glyph"]
            kind.glyph = [glyph] if isinstance(glyph, str) else list(glyph)
        unknown_types = set()
        declared = [("attributes", a, t) for a, t in kind.attributes.items()] + \
                   [("cell_attributes", a, t) for a, t in kind.cell_attributes.items()]
        for section, attr, type_text in declared:
            base = type_text.removeprefix("list of ")
            if section == "cell_attributes" and attr in kind.attributes:
                problems.append(Diagnostic(_mark_span(name, _key_node_at(root, ["components", kind_name, section, attr])),
                                           f"'{attr}' is both an attribute and a cell attribute of {kind_name}",
                                           "keep it in one of 'attributes' and 'cell_attributes'"))
            if base not in SCALAR_TYPES and base not in enums:
                unknown_types.add(attr)
                node = _node_at(root, ["components", kind_name, section, attr])
                problems.append(Diagnostic(_mark_span(name, node), f"unknown attribute type '{base}'",
                                           did_you_mean(base, list(SCALAR_TYPES) + list(enums))
                                           or "use int, str, bool, an enum of this file, or 'list of' one"))
        kind_shape = shape_cells(spec["shape"]) if spec.get("shape") is not None else None
        if spec.get("shape") is not None:
            problems.extend(cell_value_problems(name, root, ["components", kind_name, "shape"], kind,
                                                 spec["shape"], enums, unknown_types, _type_problem))
        defaults, bad_defaults = _defaults(name, root, kind, spec.get("defaults") or {}, enums, unknown_types,
                                           problems)
        problems.extend(_template_problems(name, root, kind))
        for index, item in enumerate(spec["items"]):
            item_path = ["components", kind_name, "items", index]
            count = item.get("copies", 1)
            for values in (item.get("product") or {}).values():
                count *= len(values)
            total += count
            if total > MAX_COMPONENTS:
                problems.append(Diagnostic(_mark_span(name, _node_at(root, item_path)),
                                           f"too many components: this item brings the total to {total}; "
                                           f"a data file may have at most {MAX_COMPONENTS}",
                                           "check 'copies' and the lists of 'product'"))
                break
            for values in _expand(item):
                # An attribute left to an invalid default was reported at the default.
                skip = unknown_types | {a for a in bad_defaults if a not in values}
                values = {**{k: v for k, v in defaults.items() if k not in values},
                          **{a: None for a in bad_defaults if a not in values}, **values}
                for problem in _check_item(name, root, item_path, kind, values, enums, skip):
                    if problem not in problems:     # a product repeats each value in many items
                        problems.append(problem)
                kind.items.extend(dict(values) for _ in range(item.get("copies", 1)))
                given = item.get("shape") if item.get("shape") is not None else spec.get("shape")
                shape = shape_cells(item["shape"]) if item.get("shape") is not None else kind_shape
                kind.shapes.extend([shape] * item.get("copies", 1))
                kind.cell_values.extend([None if given is None else shape_cell_values(given)] * item.get("copies", 1))
        for index, item in enumerate(spec["items"]):
            if item.get("shape") is not None:
                problems.extend(cell_value_problems(name, root, ["components", kind_name, "items", index, "shape"],
                                                     kind, item["shape"], enums, unknown_types, _type_problem))
        kinds[kind_name] = kind
    if problems:
        raise DataError(_by_position(problems))
    provenance = data["provenance"]
    if isinstance(provenance, str):
        return DataSet(name, provenance, enums, kinds)
    return DataSet(name, provenance["text"], enums, kinds, [dict(part) for part in provenance["parts"]])


def _defaults(name, root, kind: ComponentKind, defaults: dict, enums: dict, skip, problems: list):
    """The kind's `defaults` (values for attributes an item leaves out), each checked once:
    (the valid defaults, the attributes whose default is invalid). A bad default is reported
    here, not again for every item that leaves its attribute out."""
    valid, invalid = {}, set()
    path = ["components", kind.name, "defaults"]
    for attr, value in defaults.items():
        if attr not in kind.attributes:
            problems.append(Diagnostic(_mark_span(name, _key_node_at(root, path + [attr])),
                                       f"a default for the unknown attribute '{attr}' of {kind.name}",
                                       did_you_mean(attr, kind.attributes) or
                                       f"declare it under components.{kind.name}.attributes"))
        elif attr not in skip:
            problem = _type_problem(kind.attributes[attr], value, enums)
            if problem:
                invalid.add(attr)
                problems.append(Diagnostic(_mark_span(name, _node_at(root, path + [attr])),
                                           f"{kind.name}.{attr} (default): {problem}"))
            else:
                valid[attr] = value
    return valid, invalid


def _template_problems(name, root, kind: ComponentKind):
    """Problems of the kind's `label`, `details` and `glyph` templates (dsl/template.py),
    each at its place in the YAML with a did-you-mean for an unknown attribute."""
    templates = [("label", [kind.label] if kind.label else []), ("details", [kind.details] if kind.details else []),
                 ("glyph", kind.glyph or [])]
    for key, texts in templates:
        for index, text in enumerate(texts):
            if not isinstance(text, str):
                continue
            node = _node_at(root, ["components", kind.name, key])
            if isinstance(node, yaml.SequenceNode) and index < len(node.value):
                node = node.value[index]
            # [sections] of details are not part of the template language: drop the brackets.
            shown = text.replace("[", "").replace("]", "") if key == "details" else text
            names = {**kind.attributes, **kind.cell_attributes} if key in ("glyph", "details") else kind.attributes
            for message, column, width, hint, unknown in check_template(shown, names):
                span = _mark_span(name, node)
                if isinstance(node, yaml.ScalarNode) and span.line == span.end_line and \
                        "\n" not in text and shown == text:
                    quoted = 1 if node.style in ("'", '"') else 0
                    col = span.column + quoted + column - 1
                    span = Span(name, span.line, col, span.line, col + width)
                if unknown is not None:
                    hint = did_you_mean(unknown, names) or f"{kind.name} has: {listing(names)}"
                joined = " " if message.startswith(("names ", "cannot ")) else ": "
                yield Diagnostic(span, f"{kind.name}.{key}{joined}{message}", hint)


def format_attributes(text: str, attrs: dict) -> str:
    """A label, details or glyph template (checked at load time) filled with a component's
    attributes. Raises TemplateError for a text that is not a template."""
    return fill(text, attrs)


def _expand(item: dict):
    fixed = {k: v for k, v in item.items() if k not in ("copies", "product", "shape")}
    product = item.get("product") or {}
    keys = list(product)
    for combo in itertools.product(*(product[k] for k in keys)):
        values = dict(fixed)
        values.update(zip(keys, combo))
        yield values


def _value_node(root, item_path, attr, value):
    """The YAML node of an item's value: the attribute itself, or its entry in `product`."""
    node = _node_at(root, item_path + [attr])
    if node is not _node_at(root, item_path):
        return node
    node = _node_at(root, item_path + ["product", attr])
    if isinstance(node, yaml.SequenceNode):
        for entry in node.value:
            if isinstance(entry, yaml.ScalarNode) and yaml.safe_load(yaml.serialize(entry)) == value:
                return entry
    return node


def _check_item(name, root, item_path, kind: ComponentKind, values: dict, enums: dict, skip=()):
    for attr, value in values.items():
        if attr in skip:
            continue
        if attr not in kind.attributes:
            node = _key_node_at(root, item_path + [attr])
            if node is _node_at(root, item_path):
                node = _key_node_at(root, item_path + ["product", attr])
            yield Diagnostic(_mark_span(name, node), f"unknown attribute '{attr}' of {kind.name}",
                             did_you_mean(attr, kind.attributes) or
                             f"declare it under components.{kind.name}.attributes",
                             code="E705")   # a rule file's unknown attribute, same words, is E304
            continue
        problem = _type_problem(kind.attributes[attr], value, enums)
        if problem:
            node = _value_node(root, item_path, attr, value)
            hint = ""
            if isinstance(value, bool) and isinstance(node, yaml.ScalarNode) and \
                    node.value.lower() not in ("true", "false"):
                hint = f"YAML reads an unquoted {node.value} as {str(value).lower()}: quote it"
            yield Diagnostic(_mark_span(name, node), f"{kind.name}.{attr}: {problem}", hint)
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
        return f"'{value}' is not a {type_text} ({listing(members)})" + (f"; {hint}" if hint else "")
    return ""
