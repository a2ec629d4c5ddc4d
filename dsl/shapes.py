"""Shapes of components that cover several cells of a grid: a shape's cells from its data
(a list of [x, y] offsets or a picture such as "##\\n#."), its problems in plain words, and
its distinct orientations under rotation and reflection.

Orientations are normalised (shifted so that the smallest x and the smallest y are 0: the
anchor of a placement is the top left corner of the orientation's box), their cells in
row-major order, and listed in a fixed order: the shape as given (orientation 0), turned a
quarter clockwise three times, then its mirror image (x -> -x) and that turned three times;
an orientation met before is left out.

A shape's cells may carry their own data (`{at: [x, y], terrain: forest, crowns: 1}`, the
kind declaring `cell_attributes`): then two orientations are the same only when every cell
lies where a cell with the same data lay, so a domino with two different halves has four
orientations where a plain domino has two, and each orientation records which cell of the
shape as given lies on each of its cells (`orientation_parts`).
"""
from __future__ import annotations

import re
from functools import lru_cache


def picture_cells(text: str) -> list:
    """The cells of a picture: '#' is a cell, '.' or a space a gap, one line per row."""
    return [(x, y) for y, row in enumerate(text.split("\n")) for x, ch in enumerate(row) if ch == "#"]


def shape_problem(shape) -> str:
    """What is wrong with a shape from a data file, in plain words; "" when it is good."""
    if isinstance(shape, str):
        bad = sorted({ch for ch in shape if ch not in "#. \n"})
        if bad:
            return (f"a shape picture has '#' for a cell and '.' for a gap, one line per row; "
                    f"it may not contain {', '.join(repr(ch) for ch in bad)}")
        if not picture_cells(shape):
            return "a shape needs at least one cell: draw it with '#'"
        return ""
    if not isinstance(shape, list) or not shape:
        return "a shape is a non-empty list of [x, y] cells or a picture such as \"##\\n#.\""
    seen = set()
    for cell in shape:
        if isinstance(cell, dict):
            if "at" not in cell:
                return "a cell with its own data gives its place as 'at: [x, y]'"
            bad = [k for k in cell if not re.fullmatch(r"[a-z_][a-z0-9_]*", str(k))]
            if bad:
                return f"a cell attribute is named in lower case, like 'terrain', not {bad[0]!r}"
            cell = cell["at"]
        if (not isinstance(cell, list) or len(cell) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in cell)):
            return f"a cell of a shape is a pair of whole numbers [x, y], not {cell!r}"
        if abs(cell[0]) > 64 or abs(cell[1]) > 64:
            return f"the cell {cell} is too far from the shape's origin (at most 64 either way)"
        if tuple(cell) in seen:
            return f"the cell {cell} appears twice in the shape"
        seen.add(tuple(cell))
    return ""


def shape_cells(shape) -> tuple:
    """A checked shape (picture or list) as a tuple of (x, y) cells in the order given."""
    if isinstance(shape, str):
        return tuple(picture_cells(shape))
    return tuple(tuple(cell["at"]) if isinstance(cell, dict) else (cell[0], cell[1]) for cell in shape)


def shape_cell_values(shape):
    """A checked shape's per-cell data, a tuple of {attribute: value} in the order given (a
    plain cell has {}); None when no cell carries data."""
    if isinstance(shape, str) or not any(isinstance(cell, dict) for cell in shape):
        return None
    return tuple({k: v for k, v in cell.items() if k != "at"} if isinstance(cell, dict) else {}
                 for cell in shape)


def orientations(cells: tuple, labels: tuple = None) -> tuple:
    """The distinct orientations of a shape, in the documented order (module docstring); with
    `labels` (one hashable per cell, equal for cells with equal data), of the labelled shape."""
    return _oriented(cells, labels)[0]


def orientation_parts(cells: tuple, labels: tuple = None) -> tuple:
    """Per orientation: for each of its cells (row by row), the index of the shape's cell (in
    the order given) that lies there."""
    return _oriented(cells, labels)[1]


@lru_cache(maxsize=None)
def _oriented(cells: tuple, labels) -> tuple:
    labels = labels or (None,) * len(cells)
    found, parts, seen = [], [], set()
    for mirror in (False, True):
        turned = [(-x, y) for x, y in cells] if mirror else list(cells)
        for _ in range(4):
            mx = min(x for x, _ in turned)
            my = min(y for _, y in turned)
            order = sorted(range(len(cells)), key=lambda i: (turned[i][1], turned[i][0]))
            placed = tuple((turned[i][0] - mx, turned[i][1] - my) for i in order)
            key = frozenset(zip(placed, (labels[i] for i in order)))
            if key not in seen:
                seen.add(key)
                found.append(placed)
                parts.append(tuple(order))
            turned = [(-y, x) for x, y in turned]       # a quarter turn clockwise (y grows down)
    return tuple(found), tuple(parts)
