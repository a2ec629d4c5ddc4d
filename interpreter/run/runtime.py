"""Helpers that generated rule code calls: the namespace every compiled game runs in.

Generated code (interpreter/compile/ (statements.py, expressions.py)) inlines what is cheap and calls these for what needs
a check with a rule-level message (an index below zero, '.colour' of none, division by zero)
or touches the state (turns, shuffles, decisions, the log). Built-in functions are bound as
`_B_<name>`.
"""
from __future__ import annotations

import operator
from itertools import filterfalse

from . import limits, records, shaped
from .builtins import IMPLEMENTATIONS, Problem, fits
from .limits import shown
from .indexes import grid_index
from .rng import shuffle_in_place
from .state import Pending, record_ending

_MISSING = object()


def record_field(value, index: int, name: str):
    """Field `name` (at `index`) of a record value, or a rule problem for none."""
    if value is None:
        _none_attribute(name)
    return value[index]


def _none_attribute(attr: str):
    raise Problem(f"'.{attr}' of none")


def _bad_index(i):
    raise Problem(f"index {shown(i)} out of range")


def _index(items, i):
    if i is None or i < 0:
        raise Problem(f"index {shown(i)} out of range")
    return items[i]


def _slice(items, start, stop):
    for bound in (start, stop):
        if bound is not None and bound < 0:
            raise Problem(f"slice bound {bound} is negative")
    return items[start:stop]


def _divide(a, b, op: str):
    if b == 0:
        raise Problem("division by zero")
    return a // b if op == "//" else a % b


_ORDERINGS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "-": operator.sub}


def _untyped(op: str, a, b):
    """An operator whose operands the checker could not type (values of type `any`): a text or
    list where a number belongs is a rule error here, never Python's own meaning of the
    operator (`"%09999d" % 5` formats, `"ab" * 10 ** 9` repeats a text)."""
    if op == "+" and type(a) is type(b) and type(a) in (list, str):
        return limits.concat(a, b)
    if type(a) not in (int, bool) or type(b) not in (int, bool):
        raise Problem(f"'{op}' needs numbers, not {_kind(a)} and {_kind(b)}")
    if op == "*":
        return limits.multiply(a, b)
    if op in ("//", "%"):
        return _divide(a, b, op)
    return a + b if op == "+" else _ORDERINGS[op](a, b)


def _kind(value) -> str:
    return {str: "a text", list: "a list", tuple: "a cell", type(None): "none", int: "a number",
            bool: "a number"}.get(type(value), "another value")


def _no_case(value):
    raise Problem(f"no case for {shown(value)}")


def _bad_assignment(i, name: str):
    raise Problem(f"index {shown(i)} out of range for '{name}'")


def _begin_turn(st, p) -> None:
    if p is None or not 0 <= p < st.players:
        raise Problem(f"a turn for a player who is not at the table ({shown(p)})")
    st.current = p
    st.turns[p] += 1
    st.memo.clear()


def _begin_turn_keeping(st, p) -> None:
    """`_begin_turn` for rules whose memoised fns never read `current` nor `turns_played`:
    what they worked out still holds, st.memo is kept."""
    if p is None or not 0 <= p < st.players:
        raise Problem(f"a turn for a player who is not at the table ({shown(p)})")
    st.current = p
    st.turns[p] += 1


def _shuffle(st, zone: list) -> None:
    shuffle_in_place(st, zone)


def _options(source, var: str, st) -> list:
    """The distinct values of a `choose`, in order; refused when empty or during setup."""
    values = source if type(source) is list else list(source)
    try:
        distinct = values is shaped.DISTINCT[0] or len(set(values)) == len(values)
    except TypeError:           # lists among the values
        distinct = False
    if distinct and values:
        if st.frames[0][0] == "setup":
            raise Problem("setup runs without choices: make this choice at the start of 'play'")
        return values
    source, values = values, []
    seen = set()
    for v in source:
        key = tuple(v) if type(v) is list else v
        if key not in seen:
            seen.add(key)
            values.append(v)
    if not values:
        raise Problem(f"nothing to choose from for '{var}'")
    if st.frames[0][0] == "setup":
        raise Problem("setup runs without choices: make this choice at the start of 'play'")
    return values


def _check_chooser(st, player) -> None:
    if player is None:
        raise Problem("no player to make this choice: use 'by PLAYER' or a 'turn'")
    if not 0 <= player < st.players:
        raise Problem(f"a choice for a player who is not at the table (player {player + 1} in a "
                      f"{st.players}-player game): 'by' names one of 'players'")


def _check_sealed_chooser(st, player) -> None:
    """A seat of `choose ... by each P in SEATS`: one at the table (never none or -1)."""
    if player is None or isinstance(player, bool) or not isinstance(player, int) \
            or not 0 <= player < st.players:
        shown = ("none" if player is None else f"player {player + 1}" if isinstance(player, int) and player >= 0
                 else f"seat {player}" if isinstance(player, int) else repr(player))
        raise Problem(f"a choice for a player who is not at the table ({shown} in a {st.players}-player "
                      f"game): 'by each' takes its seats from 'players'")


def _decide(st, values: list, player, slot: int, site: tuple) -> None:
    _check_chooser(st, player)
    st.pending = Pending(player, tuple(values), slot, site)


def _decide_later(st, player, slot: int, site: tuple, source, evaluate) -> None:
    """Stop at a decision whose options `source(st, L)` works out when first asked for
    (Pending.later); during setup, at once, to refuse the choice where it stands."""
    if st.frames[0][0] == "setup":
        return _decide(st, source(st, st.frames[-1][2]), player, slot, site)
    _check_chooser(st, player)
    st.pending = Pending.later(player, slot, site, st, evaluate, source)


class LoopLimit(Problem):
    """A loop inside one generated function ran past the step limit."""


def _loop_limit():
    raise LoopLimit("loop")


def _top_at(grid: dict, cell):
    stack = grid.get(cell)
    return stack[-1] if stack else None


def grid_size(st, key: str) -> int:
    """`size(Z)` of a grid: its index's count (builtins._size, one call fewer)."""
    idx = st.cache.get(key)
    return (idx if idx is not None else grid_index(st, key)).size


def grid_contents(st, key: str) -> list:
    """`contents(Z)` of a grid (builtins._contents)."""
    idx = st.cache.get(key)
    found = idx.derived.get("contents") if idx is not None else None
    return found if found is not None else IMPLEMENTATIONS["contents"](None, st, key)


def with_attribute(table: dict, value) -> list:
    """The components whose attribute equals `value`, from a table of attribute value -> ids
    (plain values only: a list equals none of them)."""
    try:
        return table.get(value, ())
    except TypeError:
        return ()


def component_attribute(components: list):
    """`c.attr` for a component given by an expression: refused for none."""
    def attribute(c, attr: str):
        if c is None:
            raise Problem(f"'.{attr}' of none")
        return components[c][attr]
    return attribute


def top_attribute(components: list):
    """`top_at(grid, cell).attr` in one call."""
    def top_attr(grid: dict, cell, attr: str):
        stack = grid.get(cell)
        if not stack:
            raise Problem(f"'.{attr}' of none")
        return components[stack[-1]][attr]
    return top_attr


def vacant(grid: dict, cells) -> list:
    """`[c for c in cells if top_at(Z, c) == none]` with the grid Z read once."""
    return list(filterfalse(grid.get, cells))       # the loop in C


def fitting(rt, st, key, cells) -> list:
    """`[c for c in cells if fits(key, c)]` in one call."""
    shape = rt.grid_shape(key, st)
    if shape.size is not None:          # the same list of cells always fits the same shape
        known = rt.fitting_cells.get(key)
        if known is not None and known[0] is cells and (known[1] is shape or known[1] == shape):
            return known[2]
        w, h = shape.size
        blocked = shape.blocked
        found = [c for c in cells if 0 <= c[0] < w and 0 <= c[1] < h and c not in blocked]
        rt.fitting_cells[key] = (cells, shape, found)   # holds `cells`, so its identity stays its own
        return found
    if shape.extent is not None:
        window = grid_index(st, key).extent_window(shape.extent)
        if window is not None:
            lx, ly, hx, hy = window
            grid = st.zones[key]
            return [c for c in cells if (lx <= c[0] <= hx and ly <= c[1] <= hy) or c in grid]
    return [c for c in cells if fits(rt, st, key, c)]


NAMESPACE = {
    "_MISSING": _MISSING, "_Problem": Problem, "_none_attribute": _none_attribute,
    "_bad_index": _bad_index, "_index": _index, "_slice": _slice, "_divide": _divide, "_untyped": _untyped, "_no_case": _no_case,
    "_bad_assignment": _bad_assignment, "_begin_turn": _begin_turn, "_begin_turn_keeping": _begin_turn_keeping,
    "_shuffle": _shuffle, "_loop_limit": _loop_limit, "_options": _options, "_decide": _decide,
    "_check_sealed_chooser": _check_sealed_chooser, "_decide_later": _decide_later, "_top_at": _top_at,
    "_fitting": fitting, "_vacant": vacant,
    "_grid_size": grid_size, "_grid_contents": grid_contents, "_with_attribute": with_attribute,
    "_record_ending": record_ending, "_record": records.make, "_record_field": record_field,
}
NAMESPACE.update({f"_B_{name}": impl for name, impl in IMPLEMENTATIONS.items()})
NAMESPACE.update({"_concat": limits.concat, "_multiply": limits.multiply, "_bounded_text": limits.bounded_text,
                  "_inner": limits.inner, "_member": limits.member, "_kept_set": limits.kept_set,
                  "_WORK": limits.WORK, "_MAX_WORK": limits.MAX_WORK, "_charge": limits.charge,
                  "_SHORT_LIST": limits.SHORT_LIST, "_SMALL": limits.SMALL_FACTOR, "_NSMALL": -limits.SMALL_FACTOR})
