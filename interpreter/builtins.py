"""Implementations of the built-in functions named in dsl/builtins.py.

Each takes the runtime `rt` (component tables, zone shapes), the state `st`, then the
arguments. A `Problem` raised here becomes a rule error at the calling expression.
"""
from __future__ import annotations

from .rng import shuffle_in_place

DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
ADJACENT = {
    "orthogonal": ((0, -1), (-1, 0), (1, 0), (0, 1)),
    "diagonal": ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    "all": ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)),
}


class Problem(Exception):
    """A rule asked for something impossible (top of an empty stack, first of [])."""


def _row_major(cells):
    return sorted(cells, key=lambda c: (c[1], c[0]))


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
    return list(range(a)) if b is None else list(range(a, b))


def _size(rt, st, key):
    zone = st.zones[key]
    return len(zone) if type(zone) is list else sum(map(len, zone.values()))


def _contents(rt, st, key):
    zone = st.zones[key]
    if type(zone) is list:
        return list(zone)
    return [c for cell in _row_major(zone) for c in zone[cell]]


def _top(rt, st, key):
    zone = st.zones[key]
    if not zone:
        raise Problem(f"top of the empty zone '{key}'")
    return zone[-1]


def _top_at(rt, st, key, cell):
    stack = st.zones[key].get(cell)
    return stack[-1] if stack else None


def _stack_at(rt, st, key, cell):
    return list(st.zones[key].get(cell, ()))


def _frontier(rt, st, key, adjacency):
    grid = st.zones[key]
    found = set()
    for (x, y) in grid:
        for dx, dy in ADJACENT[adjacency]:
            n = (x + dx, y + dy)
            if n not in grid:
                found.add(n)
    return _row_major(found)


def _neighbours(rt, st, cell, adjacency):
    x, y = cell
    return [(x + dx, y + dy) for dx, dy in ADJACENT[adjacency]]


def bounding_box(st, key):
    """(min x, min y, max x, max y) of a non-empty grid's occupied cells, memoized until a move."""
    box = st.cache.get(key)
    if box is None:
        grid = st.zones[key]
        xs = [c[0] for c in grid]
        ys = [c[1] for c in grid]
        box = st.cache[key] = (min(xs), min(ys), max(xs), max(ys))
    return box


def fits(rt, st, key, cell):
    """Whether the cell may hold a component: inside the fixed size, off blocked cells, or
    within the floating extent once added to the occupied area."""
    shape = rt.grid_shape(key)
    x, y = cell
    if shape.size is not None:
        w, h = shape.size
        return 0 <= x < w and 0 <= y < h and cell not in shape.blocked
    if shape.extent is None:
        return True
    grid = st.zones[key]
    if not grid or cell in grid:
        return True
    x0, y0, x1, y1 = bounding_box(st, key)
    w, h = shape.extent
    return max(x1, x) - min(x0, x) < w and max(y1, y) - min(y0, y) < h


def _lines(rt, st, key, n):
    grid = st.zones[key]
    out = []
    for (x, y) in _row_major(grid):
        for dx, dy in DIRECTIONS:
            window = [(x + i * dx, y + i * dy) for i in range(n)]
            if all(c in grid for c in window):
                out.append(window)
    return out


def _lines_through(rt, st, key, cell, n):
    grid = st.zones[key]
    x, y = cell
    out = []
    for dx, dy in DIRECTIONS:
        for k in range(n - 1, -1, -1):
            window = [(x + (i - k) * dx, y + (i - k) * dy) for i in range(n)]
            if all(c in grid for c in window):
                out.append(window)
    return out


def _flatten(rt, st, items):
    return [v for sub in items for v in sub]


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
    "occupied": lambda rt, st, key: _row_major(st.zones[key]),
    "frontier": _frontier,
    "neighbours": _neighbours,
    "fits": fits,
    "lines": _lines,
    "lines_through": _lines_through,
}
