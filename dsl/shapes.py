"""Shapes of components that cover several cells of a grid: a shape's cells from its data
(a list of [x, y] offsets or a picture such as "##\\n#."), its problems in plain words, and
its distinct orientations under rotation and reflection.

Orientations are normalised (shifted so that the smallest x and the smallest y are 0: the
anchor of a placement is the top left corner of the orientation's box), their cells in
row-major order, and listed in a fixed order: the shape as given (orientation 0), turned a
quarter clockwise three times, then its mirror image (x -> -x) and that turned three times;
an orientation met before is left out.
"""
from __future__ import annotations

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
    return tuple((x, y) for x, y in shape)


def normalise(cells) -> tuple:
    mx = min(x for x, _ in cells)
    my = min(y for _, y in cells)
    return tuple(sorted(((x - mx, y - my) for x, y in cells), key=lambda c: (c[1], c[0])))


@lru_cache(maxsize=None)
def orientations(cells: tuple) -> tuple:
    """The distinct orientations of a shape, in the documented order (module docstring)."""
    found = []
    for mirror in (False, True):
        turned = [(-x, y) for x, y in cells] if mirror else list(cells)
        for _ in range(4):
            shape = normalise(turned)
            if shape not in found:
                found.append(shape)
            turned = [(-y, x) for x, y in turned]       # a quarter turn clockwise (y grows down)
    return tuple(found)
