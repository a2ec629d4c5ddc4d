"""Implementations of the built-in functions named in dsl/builtins.py.

Each takes the runtime `rt` (component tables, zone shapes), the state `st`, then the
arguments. A `Problem` raised here becomes a rule error at the calling expression.
"""
from __future__ import annotations

from .indexes import DIRECTIONS, grid_index, row_major, windows_through
from .limits import Problem, bounded_range, bounded_text, elements, shown, zone_named  # noqa: F401 (Problem: re-exported)
from .rng import shuffle_in_place
from .shaped import SHAPE_IMPLEMENTATIONS, adjacency_steps, cell_value



# Python errors a rule can cause (a value of an unexpected kind at run time, endless recursion).
RUNTIME_FAILURES = (TypeError, ValueError, IndexError, KeyError, AttributeError, RecursionError)


def failure_diagnostic(span, exc: Exception):
    """A rule error, in the designer's words, for a Python error raised inside a rule."""
    from ...dsl.errors import Diagnostic
    if isinstance(exc, RecursionError):
        return Diagnostic(span, "rule failed: functions call each other without end (too deep a recursion)",
                          "make sure every recursive function reaches a case that does not call itself")
    return Diagnostic(span, f"rule failed: {_in_rule_words(exc)}")


def _in_rule_words(exc: Exception) -> str:
    """A Python error inside a rule, said in the language's words (no Python type names)."""
    text = str(exc)
    if isinstance(exc, ValueError) and "integer string conversion" in text:
        return "an integer of more than 4,300 digits cannot be shown (docs/security.md)"
    if isinstance(exc, KeyError):
        return f"there is no entry {exc.args[0]!r} here" if exc.args else "a missing entry"
    if isinstance(exc, IndexError):
        return "an index out of range: past the end of a list"
    if isinstance(exc, TypeError):
        return "a value of the wrong kind here (none, or a list where one value is expected?)"
    if isinstance(exc, AttributeError):
        return "a value without that attribute (none?)"
    return text[:200] or "a value that cannot be used here"


def _row_major(cells):
    return sorted(cells, key=row_major)


def _count(rt, st, items):
    return sum(1 for v in items if v is not None and v is not False)


def _extreme(pick):
    def impl(rt, st, *args):
        values = args[0] if len(args) == 1 else args
        if not values:
            raise Problem(f"{pick.__name__} of an empty list")
        return pick(values)
    return impl


def _first(rt, st, items):
    if not items:
        raise Problem("first of an empty list")
    return items[0]


def _last(rt, st, items):
    if not items:
        raise Problem("last of an empty list")
    return items[-1]


def _distinct(rt, st, items):
    try:
        return list(dict.fromkeys(items))      # the first of equal values, in order
    except TypeError:                           # lists among the values
        pass
    seen, out = set(), []
    for v in items:
        key = tuple(v) if type(v) is list else v
        if key not in seen:
            seen.add(key)
            out.append(v)
    return out


def _shuffled(rt, st, items):
    items = list(items)
    shuffle_in_place(st, items)
    return items


def _index_of(rt, st, items, value):
    try:
        return items.index(value)
    except ValueError:
        return -1


def _range(rt, st, a, b=None):
    return bounded_range(a, b)


def _size(rt, st, key):
    zone = st.zones[key]
    return len(zone) if type(zone) is list else grid_index(st, key).size


def _contents(rt, st, key):
    zone = st.zones[key]
    if type(zone) is list:
        return list(zone)
    idx = grid_index(st, key)
    found = idx.derived.get("contents")
    if found is None:
        found = [c for cell in idx.cells for c in zone[cell]]
        if len(found) != idx.size:      # a piece with a shape lies on several cells: once
            found = list(dict.fromkeys(found))
        idx.derived["contents"] = found
    return found                # shared until the grid changes: rules never change a list in place


def _occupied(rt, st, key):
    return grid_index(st, key).cells        # shared: rules never change a list in place


def _top(rt, st, key):
    zone = st.zones[key]
    if not zone:
        raise Problem(f"top of the empty zone '{zone_named(key)}'")
    return zone[-1]


def _top_at(rt, st, key, cell):
    stack = st.zones[key].get(cell)
    return stack[-1] if stack else None


def _stack_at(rt, st, key, cell):
    return list(st.zones[key].get(cell, ()))


def _frontier(rt, st, key, adjacency, attr=None, value=None):
    if attr is not None and type(value) is str:     # the usual case: a frontier kept by the index
        idx = st.cache.get(key)
        if idx is not None:
            found = idx.frontiers.get((adjacency, attr, value))
            if found is not None:
                return found
    adjacency_steps(adjacency)
    if attr is not None:
        try:
            hash(value)
        except TypeError:
            raise Problem(f"frontier by the attribute '{attr}' needs a plain value, not a list") from None
        return grid_index(st, key).owned_frontier(st.zones[key], adjacency, attr, value, rt.components)
    return grid_index(st, key).frontier(st.zones[key], adjacency)


def _neighbours(rt, st, cell, adjacency):
    x, y = cell
    return [(x + dx, y + dy) for dx, dy in adjacency_steps(adjacency)]


def bounding_box(st, key):
    """(min x, min y, max x, max y) of a non-empty grid's occupied cells."""
    return grid_index(st, key).box


def fits(rt, st, key, cell):
    """Whether the cell may hold a component: inside the fixed size, off blocked cells, or
    within the floating extent once added to the occupied area."""
    shape = rt.shapes.get(key)
    if shape is None or shape.by_params:
        shape = rt.grid_shape(key, st)
    x, y = cell
    if shape.size is not None:
        w, h = shape.size
        return 0 <= x < w and 0 <= y < h and cell not in shape.blocked
    if shape.extent is None:
        return True
    window = (st.cache.get(key) or grid_index(st, key)).extent_window(shape.extent)
    if window is None:
        return True
    return (window[0] <= x <= window[2] and window[1] <= y <= window[3]) or cell in st.zones[key]


def _lines(rt, st, key, n):
    grid = st.zones[key]
    if n > len(grid):                   # a line of n cells needs n occupied cells
        return []
    return grid_index(st, key).lines_for(n, grid)


def _lines_through(rt, st, key, cell, n):
    """Windows of n occupied cells containing `cell`, per direction, from the one that ends
    at the cell to the one that starts there."""
    grid = st.zones[key]
    if n < 1 or n > len(grid) or cell not in grid:     # a line of n cells needs n occupied cells
        return []
    return windows_through(grid, cell, n)


def _join(items, separator: str) -> str:
    if len(items) > 1:
        elements(len(separator) * (len(items) - 1), "a text")     # refused before it is built
    return bounded_text(separator.join(str(i) for i in items))


def _details(rt, st, c):
    if c is None:
        raise Problem("details of none")
    return rt.details[c]


def _flatten(rt, st, items):
    return [v for sub in items for v in sub]


def _without(rt, st, items, value):
    for i, v in enumerate(items):
        if v == value:
            return items[:i] + items[i + 1:]
    return items


def _minus(rt, st, items, removed):
    out = list(items)
    for value in removed:
        for i, v in enumerate(out):
            if v == value:
                del out[i]
                break
    return out


def _turns_played(rt, st, p):
    if p is None or not 0 <= p < st.players:
        raise Problem(f"turns_played of a player who is not at the table ({shown(p)})")
    return st.turns[p]



SIDES = ((0, -1), (1, 0), (0, 1), (-1, 0))     # north, east, south, west: y grows southwards


def _attribute(rt, c, name):
    attrs = rt.components[c]
    if name not in attrs:
        raise Problem(f"{rt.labels[c]} has no attribute '{name}'")
    return attrs[name]


def _seen(rt, st, c, cell, name):
    """The attribute of c on a cell: a shape's own cell value (a domino's half) if it has one."""
    return _attribute(rt, c, name) if rt.cell_values[c] is None else cell_value(rt, st, c, cell, name)


def _reachable(rt, st, key, start, sides, value):
    """Occupied cells linked to `start` by facing sides that both carry `value`."""
    if len(sides) != 4:
        raise Problem(f"reachable needs 4 side attributes (north, east, south, west), got {len(sides)}")
    try:
        memo = ("reachable", start, tuple(sides), value)
        found = grid_index(st, key).derived.get(memo)
    except TypeError:           # an unhashable value: no memo
        memo, found = None, None
    if found is not None:
        return found
    grid = st.zones[key]
    seen = {start}
    todo = [start]
    while todo:
        cell = todo.pop()
        stack = grid.get(cell)
        for i, (dx, dy) in enumerate(SIDES):
            n = (cell[0] + dx, cell[1] + dy)
            if n in seen or not grid.get(n):
                continue
            if stack and stack[-1] == grid[n][-1]:      # two cells of one piece with a shape
                seen.add(n)
                todo.append(n)
                continue
            if stack and _attribute(rt, stack[-1], sides[i]) != value:
                continue        # an empty start is open on every side
            if _attribute(rt, grid[n][-1], sides[(i + 2) % 4]) == value:
                seen.add(n)
                todo.append(n)
    found = _row_major(c for c in seen if grid.get(c))
    if memo is not None:
        grid_index(st, key).derived[memo] = found
    return found


def _groups(rt, st, key, attr, adjacency="orthogonal"):
    """Connected groups of occupied cells whose top components share the attribute's value."""
    steps = adjacency_steps(adjacency)
    memo = ("groups", attr, adjacency)
    found = grid_index(st, key).derived.get(memo)
    if found is not None:
        return found
    grid = st.zones[key]
    value = {cell: _seen(rt, st, stack[-1], cell, attr) for cell, stack in grid.items() if stack}

    def linked(c):
        for dx, dy in steps:
            yield (c[0] + dx, c[1] + dy)
    found = _flood(value, linked)
    grid_index(st, key).derived[memo] = found
    return found


def _flood(value: dict, linked) -> list:
    """Groups of cells of `value` (cell -> attribute) with equal values, joined through the
    cells `linked(cell)` yields; each group and the list in row-major order."""
    seen = set()
    found = []
    for cell in _row_major(value):
        if cell in seen:
            continue
        seen.add(cell)
        group, todo = [], [cell]
        while todo:
            c = todo.pop()
            group.append(c)
            for n in linked(c):
                if n in value and n not in seen and value[n] == value[cell]:
                    seen.add(n)
                    todo.append(n)
        found.append(_row_major(group))
    return found


def _linked_groups(rt, st, key, attr, sides, value):
    """Groups of occupied cells sharing the attribute's value, neighbours linked by facing
    sides that both carry `value` (as in `reachable`)."""
    if len(sides) != 4:
        raise Problem(f"linked_groups needs 4 side attributes (north, east, south, west), got {len(sides)}")
    grid = st.zones[key]
    kind = {cell: _seen(rt, st, stack[-1], cell, attr) for cell, stack in grid.items() if stack}

    def linked(c):
        for i, (dx, dy) in enumerate(SIDES):
            n = (c[0] + dx, c[1] + dy)
            if n in kind and (grid[c][-1] == grid[n][-1]       # two cells of one piece with a shape
                              or (_attribute(rt, grid[c][-1], sides[i]) == value
                                  and _attribute(rt, grid[n][-1], sides[(i + 2) % 4]) == value)):
                yield n
    return _flood(kind, linked)


def _positions_of(pick):
    def impl(rt, st, values):
        if not values:
            return []
        best = pick(values)
        return [i for i, v in enumerate(values) if v == best]
    return impl


IMPLEMENTATIONS = {
    "len": lambda rt, st, items: len(items),
    "count": _count,
    "sum": lambda rt, st, items: sum(items),
    "max": _extreme(max),
    "min": _extreme(min),
    "abs": lambda rt, st, v: abs(v),
    "any": lambda rt, st, items: any(items),
    "all": lambda rt, st, items: all(items),
    "first": _first,
    "last": _last,
    "sorted": lambda rt, st, items: sorted(items),
    "reversed": lambda rt, st, items: items[::-1],
    "distinct": _distinct,
    "shuffled": _shuffled,
    "flatten": _flatten,
    "index_of": _index_of,
    "range": _range,
    "next": lambda rt, st, p: (p + 1) % st.players,
    "previous": lambda rt, st, p: (p - 1) % st.players,
    "cell": lambda rt, st, x, y: (x, y),
    "size": _size,
    "empty": lambda rt, st, key: not st.zones[key],
    "contents": _contents,
    "top": _top,
    "top_at": _top_at,
    "stack_at": _stack_at,
    "occupied": _occupied,
    "frontier": _frontier,
    "neighbours": _neighbours,
    "fits": fits,
    "lines": _lines,
    "lines_through": _lines_through,
    "occurrences": lambda rt, st, items, value: items.count(value),
    "without": _without,
    "minus": _minus,
    "turns_played": _turns_played,
    "join": lambda rt, st, items, separator: _join(items, separator),
    "details": _details,
    "reachable": _reachable,
    "groups": _groups,
    "linked_groups": _linked_groups,
    "argmax": _positions_of(max),
    "argmin": _positions_of(min),
}
IMPLEMENTATIONS.update(SHAPE_IMPLEMENTATIONS)
