"""Components with a shape (dsl/shapes.py) on grids: the `placement` value, the cells a piece
covers, laying a piece on a grid and lifting it whole, and the built-ins for where a shape
fits (`turns`, `covers`, `shape_fits`, `shape_free`, `touches`, `touches_owned`,
`placements_of`, `any_placement`; `frontier` by owner lives in builtins.py and indexes.py),
and a cell's own data (`cell_attr`: a domino's half on that cell).

A placed piece lies in the stack of every cell it covers (so `top_at`, `occupied`, `frontier`
and `groups` see it on each), and its location is (grid key, anchor, orientation, cells).
The anchor is where the top left corner of the orientation's box lies.
"""
from __future__ import annotations

from operator import itemgetter

from ...dsl.errors import counted
from .indexes import ADJACENT, grid_index, with_bits
from .limits import Problem, charge, shown, zone_named


class Placement(tuple):
    """(piece, at, turn, cells): a shaped component laid at an anchor cell in an orientation,
    and the cells it then covers (row-major). Ordered by piece, anchor, orientation."""
    __slots__ = ()

    def __new__(cls, piece: int, at: tuple, turn: int, cells: tuple):
        return tuple.__new__(cls, (piece, at, turn, cells))

    piece = property(itemgetter(0))
    at = property(itemgetter(1))
    turn = property(itemgetter(2))
    cells = property(itemgetter(3))

    def __getnewargs__(self):          # pickled (root-parallel search sends decisions) and copied
        return tuple(self)

    def __repr__(self) -> str:
        return f"Placement(piece={self[0]}, at={self[1]}, turn={self[2]})"


def orientations_of(rt, c) -> tuple:
    """The orientations of component c: a shapeless component is one cell, one orientation."""
    if c is None or type(c) is not int or not 0 <= c < rt.component_count:
        raise Problem(f"{shown(c)} is not a component, so it has no shape")
    return rt.orientations[c] or (((0, 0),),)


def covered(rt, c, at, turn) -> tuple:
    """The cells piece c covers with its box's top left at `at`, in orientation `turn` (kept:
    a heuristic may ask for every piece in hand at every position)."""
    if type(c) is int and type(turn) is int and type(at) is tuple:
        found = rt.covered_cells.get((c, at, turn))
        if found is not None:
            return found
    shapes = orientations_of(rt, c)
    if type(turn) is not int or not 0 <= turn < len(shapes):
        raise Problem(f"{rt.labels[c]} has {counted(len(shapes), 'orientation')} "
                      f"(0 to {len(shapes) - 1}), not {shown(turn)}")
    x, y = at
    found = tuple([(x + dx, y + dy) for dx, dy in shapes[turn]])
    if type(at) is tuple and len(rt.covered_cells) < 100_000:
        rt.covered_cells[(c, at, turn)] = found
    return found


def shape_fits(rt, st, key, cells, shape=None) -> bool:
    """Whether all of `cells` may hold a component of the grid at once: inside its size and off
    blocked cells, or with the occupied area stays within its extent. `shape` is the grid's
    shape when the caller has it (a search asks once, not per candidate)."""
    shape = shape or rt.grid_shape(key, st)
    if shape.size is not None:
        w, h = shape.size
        blocked = shape.blocked
        return all(0 <= x < w and 0 <= y < h and (x, y) not in blocked for x, y in cells)
    if shape.extent is None:
        return True
    w, h = shape.extent
    idx = grid_index(st, key)
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    if idx.box is not None:
        x0, y0, x1, y1 = idx.box
        xs += [x0, x1]
        ys += [y0, y1]
    return max(xs) - min(xs) < w and max(ys) - min(ys) < h


def place(rt, st, c: int, key: str, at, turn) -> tuple:
    """Lay shaped piece c on grid `key` (checked before anything changes); the cells it covers."""
    cells = covered(rt, c, at, 0 if turn is None else turn)
    grid = st.zones[key]
    if not rt.grid_shape(key, st).stacked:
        taken = [cell for cell in cells if cell in grid and grid[cell] != [c]]
        if taken:
            raise Problem(f"{rt.labels[c]} does not fit at {at}: cell {taken[0]} of '{zone_named(key)}' is occupied "
                          f"and the grid is not 'stacked'")
    if not shape_fits(rt, st, key, cells):
        raise Problem(f"{rt.labels[c]} does not fit at {at} turned {turn or 0}: "
                      f"it would reach outside the grid '{zone_named(key)}'")
    return cells


def lay(rt, st, c: int, key: str, at, turn, cells) -> None:
    """Put c (already lifted from where it was) on every covered cell and update the index."""
    grid = st.zones[key]
    new_cells = []
    for cell in cells:
        stack = grid.get(cell)
        if stack is None:
            grid[cell] = [c]
            new_cells.append(cell)
        else:
            stack.append(c)
    st.loc[c] = (key, at, turn, cells)
    index = st.cache.get(key)
    if index is not None:
        st.cache[key] = index.placed(grid, new_cells, len(new_cells) == len(cells), rt.components[c])


def lift(st, c: int, where: tuple) -> None:
    """Take a placed piece off every cell it covers. The grid's index is dropped (rebuilt
    from the grid when next asked for): lifting is rare, placing is not."""
    key, cells = where[0], where[3]
    grid = st.zones[key]
    for cell in cells:
        stack = grid[cell]
        stack.remove(c)
        if not stack:
            del grid[cell]
    st.cache.pop(key, None)


def cell_value(rt, st, c: int, cell, attr: str):
    """The attribute of component c as seen on a cell it covers: the value the cell of its
    shape lying there gives, if it gives one, else the component's own."""
    where = st.loc[c]
    if len(where) == 4 and cell in where[3]:
        return _part_value(rt, c, where[2], where[3].index(cell), attr)
    return _part_value(rt, c, None, 0, attr)


def _part_value(rt, c: int, turn, i: int, attr: str):
    """The attribute of piece c on the i-th cell (row by row) of orientation `turn` (None: of
    the piece itself)."""
    values = rt.cell_values[c]
    if values is not None and turn is not None:
        own = values[rt.parts[c][turn][i]]
        if attr in own:
            return own[attr]
    attrs = rt.components[c]
    if attr not in attrs:
        raise Problem(f"{rt.labels[c]} has no attribute or cell attribute '{attr}'")
    return attrs[attr]


def _cell_attr(rt, st, where, cell, attr):
    """On a grid: the attribute of the top component on the cell as seen there (none for an
    empty cell). Of a placement: what the piece would show on that cell, laid so."""
    if type(where) is Placement:
        piece, _, turn, cells = where
        if cell not in cells:
            raise Problem(f"{rt.labels[piece]} laid at {where.at} turned {turn} does not cover {cell}")
        return _part_value(rt, piece, turn, cells.index(cell), attr)
    return cell_attr_on(rt, st, st.zones[where], cell, attr)


def cell_attr_on(rt, st, grid: dict, cell, attr):
    """`cell_attr` on a grid (its cells' stacks): compiled rules call this directly."""
    stack = grid.get(cell)
    if not stack:
        return None
    c = stack[-1]
    if rt.cell_values[c] is None and attr in rt.components[c]:
        return rt.components[c][attr]
    return cell_value(rt, st, c, cell, attr)


# ------------------------------------------------------------------ built-ins

def _turns(rt, st, c):
    return len(orientations_of(rt, c))


def _covers(rt, st, c, at, turn):
    if type(c) is int and type(turn) is int and type(at) is tuple:     # (covered's lookup, inlined)
        found = rt.covered_cells.get((c, at, turn))
        if found is not None:
            return list(found)
    return list(covered(rt, c, at, turn))


def _shape_fits(rt, st, key, c, at, turn):
    return shape_fits(rt, st, key, covered(rt, c, at, turn))


def _shape_free(rt, st, key, c, at, turn):
    cells = covered(rt, c, at, turn)
    grid = st.zones[key]
    return shape_fits(rt, st, key, cells) and not any(cell in grid for cell in cells)


def adjacency_steps(adjacency):
    """The (dx, dy) steps to the cells next to a cell by `adjacency`; an unknown one (named at
    run time: the checker refuses a written one) is a rule error naming the three."""
    steps = ADJACENT.get(adjacency)
    if steps is None:
        raise Problem(f"unknown adjacency {adjacency!r}: use \"orthogonal\", \"diagonal\" or \"all\"")
    return steps


def _touches(rt, st, cells, others, adjacency):
    """Whether a cell of `cells` is next to (by adjacency) a cell of `others`."""
    steps = adjacency_steps(adjacency)
    others = set(others)
    return any((x + dx, y + dy) in others for x, y in cells for dx, dy in steps)


def _touches_owned(rt, st, key, cells, adjacency, attr, value):
    """Whether a cell of `cells` is next to an occupied cell of the grid whose top component
    has the attribute's value; the cells themselves do not count."""
    steps = adjacency_steps(adjacency)
    grid = st.zones[key]
    components = rt.components
    own = set(cells)
    for x, y in cells:
        for dx, dy in steps:
            n = (x + dx, y + dy)
            stack = grid.get(n)
            if stack and n not in own and components[stack[-1]].get(attr) == value:
                return True
    return False


def _placements(rt, st, key, pieces, targets, avoid=()):
    """Every placement of each piece (in the list's order), in each orientation (in order),
    at each anchor (row-major), that lies on free cells inside the grid, covers at least one
    of `targets` and none of `avoid`."""
    return _search(rt, st, key, pieces, targets, avoid, False)


def _any_placement(rt, st, key, pieces, targets, avoid=()):
    """Whether `placements_of` would find one: the search stops at the first."""
    return bool(_search(rt, st, key, pieces, targets, avoid, True))


def _search(rt, st, key, pieces, targets, avoid, first: bool) -> list:
    pieces = list(pieces)
    if not (rt.component_ids.issuperset(pieces) and set(map(type, pieces)) <= _INT):   # (True == 1)
        for c in pieces:
            orientations_of(rt, c)      # refuses a value that is not a component
    shape = rt.grid_shape(key, st)
    if shape.size is not None:
        found, work = _on_fixed_grid(rt, shape, grid_index(st, key), avoid, pieces, targets, first)
    else:
        bad = set(avoid)
        bad.update(st.zones[key])
        found, work = _on_any_grid(rt, st, key, bad, pieces, targets, first)
    charge(work)
    if not first and len(set(pieces)) == len(pieces):
        DISTINCT[0] = found             # no two alike: a choose from it need not check (runtime._options)
    return found


_INT = {int}

DISTINCT = [None]       # the last list of placements known to hold no two equal values


def _on_fixed_grid(rt, shape, index, avoid, pieces: list, targets, first: bool):
    """`placements_of` on a grid of fixed size, with cells as numbers on a board that has a margin
    as wide as the largest shape: the free cells and the targets are the bits of two integers,
    so the anchors where an orientation lies on free cells are the AND of the free cells
    shifted back by each of its offsets, and those where it covers a target the OR of the
    targets shifted so (each a handful of integer operations per orientation)."""
    w, h = shape.size
    reach = rt.shape_reach
    stride = w + 2 * reach
    steps_of = rt.shape_steps.get(stride)
    if steps_of is None:            # per piece and orientation: the offsets as numbers
        steps_of = rt.shape_steps[stride] = [
            None if shapes is None else [[dy * stride + dx for dx, dy in cells] for cells in shapes]
            for shapes in rt.orientations]
    board = rt.shape_steps.get((shape, stride))
    if board is None:               # the grid's own cells as bits, once per size
        board = 0
        for y in range(h):
            for x in range(w):
                if (x, y) not in shape.blocked:
                    board |= 1 << ((y + reach) * stride + x + reach)
        rt.shape_steps[(shape, stride)] = board
    free = board & ~(index.occupied_bits(w, h, reach) | _bits(rt, avoid, w, h, reach))
    spots = _bits(rt, targets, w, h, reach) & free
    if first:       # the placement that answered last time often still does (a position next door)
        known = rt.witnesses.get((shape, stride))
        if known is not None and known[0][0] in pieces and not known[1] & ~free and known[1] & spots:
            return [known[0]], 1
    made = rt.shape_steps.setdefault(("made", stride), {})     # placements are values: made once
    span = stride * (h + 2 * reach)
    found = []
    work = 0
    for c in pieces:
        shapes = orientations_of(rt, c)
        for turn, steps in enumerate(steps_of[c] or ((0,),)):
            offsets = shapes[turn]
            fits = free >> steps[0]
            covers = spots >> steps[0]
            for d in steps[1:]:
                fits &= free >> d
                covers |= spots >> d
            anchors = fits & covers
            work += len(steps)
            if not anchors:
                continue
            bits = bin(anchors)             # its set bits read from the right: lowest (row by row) first
            top = len(bits) - 1
            i = bits.rfind("1")
            base = (c * 8 + turn) * span
            while i > 1:
                a = top - i
                m = made.get(base + a)
                if m is None:
                    y, x = divmod(a, stride)
                    x, y = x - reach, y - reach
                    m = made[base + a] = Placement(c, (x, y), turn, tuple([(x + dx, y + dy) for dx, dy in offsets]))
                found.append(m)
                if first:
                    cells = 0
                    for d in steps:
                        cells |= 1 << (a + d)
                    rt.witnesses[shape, stride] = (m, cells)
                    return found, work
                i = bits.rfind("1", 2, i)
    return found, work


def _bits(rt, cells, w: int, h: int, reach: int) -> int:
    """`cells` inside a w x h board as the bits of one integer (a margin of `reach` round the
    board). Kept for the last lists asked about (a frontier the move did not change is the
    same list in the next position: indexes.py), each held so that its identity stays its own."""
    known = rt.cell_bits.get(id(cells))
    if known is not None and known[0] is cells and known[1] == (w, h, reach):
        return known[2]
    bits = with_bits((w, h, reach, 0), cells)[3]
    if type(cells) is list:
        if len(rt.cell_bits) > 256:
            rt.cell_bits.clear()
        rt.cell_bits[id(cells)] = (cells, (w, h, reach), bits)
    return bits


def _on_any_grid(rt, st, key, bad: set, pieces: list, targets, first: bool):
    """`placements_of` on a grid of floating extent (or none): each candidate checked as a whole."""
    targets = [t for t in dict.fromkeys(targets) if t not in bad]
    shape = rt.grid_shape(key, st)
    found = []
    work = 0
    for c in pieces:
        for turn, offsets in enumerate(orientations_of(rt, c)):
            anchors, tried = [], set()
            for tx, ty in targets:
                for ax, ay in offsets:
                    x, y = tx - ax, ty - ay
                    if (x, y) in tried:
                        continue
                    tried.add((x, y))
                    cells = [(x + dx, y + dy) for dx, dy in offsets]
                    if bad.isdisjoint(cells) and shape_fits(rt, st, key, cells, shape):
                        anchors.append((x, y))
            work += len(tried)
            for x, y in sorted(anchors, key=itemgetter(1, 0)):
                found.append(Placement(c, (x, y), turn, tuple([(x + dx, y + dy) for dx, dy in offsets])))
                if first:
                    return found, work
    return found, work


SHAPE_IMPLEMENTATIONS = {
    "turns": _turns,
    "covers": _covers,
    "shape_fits": _shape_fits,
    "shape_free": _shape_free,
    "touches": _touches,
    "touches_owned": _touches_owned,
    "placements_of": _placements,
    "any_placement": _any_placement,
    "cell_attr": _cell_attr,
}
