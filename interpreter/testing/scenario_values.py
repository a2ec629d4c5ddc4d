"""A scenario's values in the engine's terms: each checked against the declared type of its
var or param and made into what the engine holds (cells as tuples, records as record values,
components by label or number); and vars compared as a scenario means them (a component by
its label, so any copy of `red 5` is `red 5`). Used by interpreter/testing/scenario.py.
"""
from __future__ import annotations

from ...dsl.errors import did_you_mean
from ...dsl.schema_words import shown
from ...dsl.unparse import type_text
from ..run.records import record_type
from .scenario_file import ScenarioError


def _var_type(game, name: str) -> str:
    """A var's or param's type as the rule file writes it (`list of cell`); "any" if unknown."""
    if name in game.var_types:
        return type_text(game.var_types[name])
    return game.param_types.get(name, "any")


def _a(kind: str) -> str:
    return ("an " if kind[:1].lower() in "aeiou" else "a ") + kind


def _typed(game, st, kind: str, value, where: tuple, name: str):
    if value is None or value == "none" and kind != "str":
        return None

    def wrong(what: str):
        return ScenarioError(f"scenario: '{name}' holds {what}, not {shown(value)}", where)

    if kind.startswith("list of "):
        if not isinstance(value, list):
            raise wrong(f"a {kind}: write a list")
        return [_typed(game, st, kind[8:], v, where + (i,), name) for i, v in enumerate(value)]
    if kind == "int":
        if type(value) is not int:
            raise wrong("whole numbers")
    elif kind == "bool":
        if type(value) is not bool:
            raise wrong("true or false")
    elif kind == "str":
        if type(value) is not str:
            raise wrong("texts")
    elif kind == "player":
        if type(value) is not int or not 0 <= value < len(st.turns):
            raise wrong(f"seats, from 0 to {len(st.turns) - 1}")
    elif kind == "cell":
        cell = value.get("cell") if isinstance(value, dict) else None
        if not (isinstance(cell, list) and len(cell) == 2 and all(type(n) is int for n in cell)):
            raise wrong("cells, written {cell: [x, y]}")
        return tuple(cell)
    elif kind in game.spec.enums:
        members = game.spec.enums[kind]
        if value not in members:
            hint = did_you_mean(str(value), members) if isinstance(value, str) else ""
            raise ScenarioError(f"scenario: '{name}' holds {kind} members ({', '.join(members)}), "
                                f"not {shown(value)}", where, hint)
    elif kind in game.kind_ids:
        if isinstance(value, str):      # by label: the first component of the kind that carries it
            found = [c for c in game.kind_ids[kind] if game.labels[c].lower() == value.strip().lower()]
            if not found:
                raise ScenarioError(f"scenario: '{name}' holds a {kind}: no {kind} is labelled {value!r}", where,
                                    did_you_mean(value, {game.labels[c] for c in game.kind_ids[kind]}))
            return found[0]
        if type(value) is not int or value not in game.kind_ids[kind]:
            raise wrong(f"a {kind}, given by its label or its number (0 is the first component of the data)")
    elif kind in game.spec.records:
        return _record(game, st, kind, value, where, name)
    elif isinstance(value, dict):
        cell = value.get("cell")
        if list(value) != ["cell"] or not (isinstance(cell, list) and len(cell) == 2
                                           and all(type(n) is int for n in cell)):
            raise wrong("values of its type (a mapping is a cell, written {cell: [x, y]})")
        return tuple(cell)
    elif isinstance(value, list):
        return [_typed(game, st, "any", v, where + (i,), name) for i, v in enumerate(value)]
    return value


def _record(game, st, kind: str, value, where: tuple, name: str):
    """A record written as a mapping of its fields: `{piece: F, where: {cell: [1, 2]}}`."""
    fields = [(f.name, type_text(f.type)) for f in game.spec.records[kind].fields]
    names = [f for f, _ in fields]
    example = "{" + ", ".join(f"{f}: ..." for f in names) + "}"
    if not isinstance(value, dict):
        raise ScenarioError(f"scenario: '{name}' holds {_a(kind)} record: write a mapping of its fields "
                            f"{example}, not {shown(value)}", where)
    for key in value:
        if key not in names:
            raise ScenarioError(f"scenario: {kind} has no field {key!r}; fields: {', '.join(names)}", where + (key,),
                                did_you_mean(str(key), names))
    missing = [f for f in names if f not in value]
    if missing:
        raise ScenarioError(f"scenario: the {kind} of '{name}' needs the field{'s' if len(missing) > 1 else ''} "
                            + ", ".join(missing), where, f"write {example}")
    values = tuple(_typed(game, st, t, value[f], where + (f,), name) for f, t in fields)
    return record_type(kind, tuple(names))(values)


def _by_label(game, kind: str, value):
    """A value with its components as labels, so that copies of one component compare equal."""
    if value is None:
        return None
    if kind.startswith("list of ") and isinstance(value, list):
        return [_by_label(game, kind[8:], v) for v in value]
    if kind in game.kind_ids and type(value) is int:
        return game.labels[value].lower()
    if kind in game.spec.records:
        return tuple(_by_label(game, type_text(f.type), v) for f, v in zip(game.spec.records[kind].fields, value))
    return value


def _shown_var(game, st, name: str) -> str:
    """A var's value as the play screen shows it (records and components in words)."""
    value = game.observe(st, None)["vars"].get(name, st.vars[name])
    return repr(value)


def _same_var(game, st, name: str, want) -> bool:
    kind = _var_type(game, name)
    decl = game.spec.vars.get(name)
    got = st.vars[name]
    if decl is not None and decl.per == "player":
        return [_by_label(game, kind, v) for v in got] == [_by_label(game, kind, v) for v in want]
    return _by_label(game, kind, got) == _by_label(game, kind, want)
