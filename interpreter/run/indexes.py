"""Indexes of grid zones that the engine keeps as components move.

For each grid, a `GridIndex` holds its occupied cells in row-major order, the component
count, the extent box, and (once asked for) its frontier per adjacency and its lines of n
occupied cells. Built-ins (`occupied`, `size`, `fits`, `frontier`, `lines`, `lines_through`,
`groups`, `reachable`) read them instead of recomputing.

Indexes live in `State.cache` (grid key -> GridIndex). They are never changed in place: a
move into a grid replaces the index by an updated copy, a move that empties a cell drops it
(rebuilt when next asked for). So a copy of a state may share its indexes with the original
(`State.copy` copies the dict, not the indexes), and a state's value never depends on them.
"""
from __future__ import annotations

from bisect import insort
from itertools import chain
from operator import itemgetter

ADJACENT = {
    "orthogonal": ((0, -1), (-1, 0), (1, 0), (0, 1)),
    "diagonal": ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    "all": ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)),
}


DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
_DIRECTION_INDEX = {d: i for i, d in enumerate(DIRECTIONS)}


row_major = itemgetter(1, 0)       # cell -> (y, x): the sort key of row-major order (C-level: a bisect calls it often)


def _line_order(window):
    """`lines` lists windows by their first cell in row-major order, then by direction."""
    (x0, y0), (x1, y1) = window[0], window[1]
    return y0, x0, _DIRECTION_INDEX[(x1 - x0, y1 - y0)]


def windows_through(grid: dict, cell, n: int) -> list:
    """The windows of n occupied cells (in the directions of `lines`) that contain `cell`."""
    x, y = cell
    out = []
    for dx, dy in DIRECTIONS:
        back = 0
        while back < n - 1 and (x - (back + 1) * dx, y - (back + 1) * dy) in grid:
            back += 1
        ahead = 0
        while ahead < n - 1 and (x + (ahead + 1) * dx, y + (ahead + 1) * dy) in grid:
            ahead += 1
        # k cells behind the cell and n - 1 - k ahead of it: only the k both runs allow
        for k in range(back, n - 2 - ahead, -1):
            out.append([(x + (i - k) * dx, y + (i - k) * dy) for i in range(n)])
    return out


class GridIndex:
    __slots__ = ("_cells", "_more", "size", "box", "frontiers", "frontier_sets", "lines", "derived", "window",
                 "base", "bits")
    # `frontier_sets`: per frontier key, its cells as a set (the list's, kept beside it so an
    # update tests membership without hashing every cell again); may lack a key.

    @staticmethod
    def build(grid: dict) -> "GridIndex":
        idx = GridIndex()
        idx._cells = sorted(grid, key=row_major)
        idx._more = None
        idx.size = len(set(chain.from_iterable(grid.values())))     # a piece with a shape counts once
        if grid:
            xs = [c[0] for c in grid]
            ys = [c[1] for c in grid]
            idx.box = (min(xs), min(ys), max(xs), max(ys))
        else:
            idx.box = None
        idx.frontiers = {}
        idx.frontier_sets = {}
        idx.lines = {}
        idx.derived = {}
        idx.window = None
        idx.base = None
        idx.bits = None
        return idx

    def _copy(self) -> "GridIndex":
        idx = GridIndex()
        idx._cells, idx._more = self._cells, self._more
        idx.size, idx.box, idx.frontiers, idx.frontier_sets = self.size, self.box, self.frontiers, self.frontier_sets
        idx.lines = self.lines
        idx.derived = {}
        idx.window = self.window
        idx.base = None
        idx.bits = self.bits
        return idx

    def added(self, grid: dict, cell, new_cell: bool, attrs=None) -> "GridIndex":
        """The index after one component (of attributes `attrs`) was put on `cell` (already in `grid`)."""
        idx = self._copy()
        idx.size = self.size + 1
        if not new_cell:
            if any(type(k) is tuple for k in self.frontiers):      # the top changed: owners may differ
                idx.frontiers = {k: v for k, v in self.frontiers.items() if type(k) is not tuple}
            return idx          # a stack grew: occupancy is unchanged
        return self._grown(idx, grid, [cell], attrs)

    def placed(self, grid: dict, new_cells: list, all_new: bool, attrs) -> "GridIndex":
        """The index after a piece with a shape was laid on several cells (already in `grid`);
        `new_cells` were empty before."""
        idx = self._copy()
        idx.size = self.size + 1
        if not all_new:
            idx.frontiers = {k: v for k, v in self.frontiers.items() if type(k) is not tuple}
        return self._grown(idx, grid, new_cells, attrs) if new_cells else idx

    @property
    def cells(self) -> list:
        """The occupied cells in row-major order (sorted when first asked for: a bot judging
        a move by the position it leads to may never ask)."""
        cells = self._cells
        if cells is None:
            base, new_cells = self._more
            cells = base[:]
            for cell in new_cells:
                insort(cells, cell, key=row_major)
            self._cells, self._more = cells, None
        return cells

    def _grown(self, idx: "GridIndex", grid: dict, new_cells: list, attrs) -> "GridIndex":
        idx._cells, idx._more = None, (self.cells, new_cells)   # one step from sorted cells
        idx.window = None
        if self.bits is not None:
            idx.bits = with_bits(self.bits, new_cells)
        xs = [x for x, _ in new_cells]
        ys = [y for _, y in new_cells]
        if self.box is not None:
            x0, y0, x1, y1 = self.box
            xs += [x0, x1]
            ys += [y0, y1]
        idx.box = (min(xs), min(ys), max(xs), max(ys))
        frontiers = {}
        sets = {}
        known = self.frontier_sets
        neighbours = {}             # adjacency -> the empty neighbours of the new cells
        for key, old in idx.frontiers.items():
            # an owner's frontier ((adjacency, attribute, value)) grows only round its own cells
            if type(key) is tuple:
                adjacency, attr, value = key
                grows = attrs is not None and attrs.get(attr) == value
            else:
                adjacency, grows = key, True
            present = known.get(key)
            if present is None:
                present = set(old)
            gone = present.intersection(new_cells)
            if grows:
                around = neighbours.get(adjacency)
                if around is None:      # each empty neighbour once (the piece's own cells are not)
                    steps = ADJACENT[adjacency]
                    around = neighbours[adjacency] = {(x + dx, y + dy) for x, y in new_cells
                                                      for dx, dy in steps}.difference(grid)
                fresh = around.difference(present)
            else:
                fresh = ()
            if gone or fresh:       # else the same list object: an unchanged frontier stays itself
                # (sorting a sorted list with a few cells added merges two runs: about linear)
                front = [cell for cell in old if cell not in gone] if gone else old
                frontiers[key] = sorted(front + list(fresh), key=row_major) if fresh else front
                sets[key] = present.difference(gone).union(fresh)  # (a set's cells keep their hashes)
            else:
                frontiers[key] = old
                sets[key] = present
        idx.frontiers = frontiers
        idx.frontier_sets = sets
        idx.lines = {}
        if len(new_cells) == 1:
            # lines are derived from ours when first asked for; a chain of such indexes is cut
            # after a few steps, so old indexes are not kept alive
            depth = self.base[2] + 1 if self.base is not None else 1
            idx.base = (self, new_cells[0], depth) if depth <= 8 else None
        return idx

    def owned_frontier(self, grid: dict, adjacency: str, attr: str, value, components: list) -> list:
        """Empty cells next to an occupied cell whose top component has the attribute's value,
        in row-major order; kept up to date as pieces are laid (`placed`, `added`)."""
        key = (adjacency, attr, value)
        return self.frontiers.get(key) or self._frontier(
            key, grid, ADJACENT[adjacency], lambda stack: stack and components[stack[-1]].get(attr) == value)

    def lines_for(self, n: int, grid=None) -> list:
        """Windows of n occupied cells in row-major order of their first cell, then by
        direction; derived from the previous index when only one cell was added."""
        found = self.lines.get(n)
        if found is None:
            occupied = grid if grid is not None else set(self.cells)
            if self.base is not None and n >= 2:
                parent, cell, _ = self.base
                found = parent.lines_for(n)[:]
                for window in windows_through(occupied, cell, n):
                    insort(found, window, key=_line_order)
            else:
                found = []
                for (x, y) in self.cells:
                    for dx, dy in DIRECTIONS:
                        window = [(x + i * dx, y + i * dy) for i in range(n)]
                        if all(c in occupied for c in window):
                            found.append(window)
            lines = dict(self.lines)        # shared with copies: replace, never change
            lines[n] = found
            self.lines = lines
        return found

    def occupied_bits(self, w: int, h: int, reach: int) -> int:
        """The occupied cells inside a w x h board as the bits of one integer, a margin of
        `reach` round the board (shaped.py's placements); kept up to date as cells fill."""
        if self.bits is None or self.bits[:3] != (w, h, reach):
            self.bits = with_bits((w, h, reach, 0), self.cells)
        return self.bits[3]

    def removed(self) -> "GridIndex":
        """The index after one component left a cell that stays occupied."""
        idx = self._copy()
        idx.size = self.size - 1
        return idx

    def frontier(self, grid: dict, adjacency: str) -> list:
        return self._frontier(adjacency, grid, ADJACENT[adjacency], None)

    def _frontier(self, key, grid: dict, steps, counts) -> list:
        """The frontier kept under `key`, worked out from the grid when first asked for: the
        empty cells next to the occupied cells whose stack `counts` (all when None)."""
        front = self.frontiers.get(key)
        if front is None:
            found = set()
            for (x, y), stack in grid.items():
                if counts is None or counts(stack):
                    for dx, dy in steps:
                        n = (x + dx, y + dy)
                        if n not in grid:
                            found.add(n)
            front = sorted(found, key=row_major)
            frontiers = dict(self.frontiers)     # shared with copies: replace, never change
            frontiers[key] = front
            sets = dict(self.frontier_sets)
            sets[key] = found
            self.frontiers, self.frontier_sets = frontiers, sets
        return front


    def extent_window(self, extent) -> tuple | None:
        """(lowest x, lowest y, highest x, highest y) a cell may have so that the occupied
        area plus that cell stays within `extent` (w, h); None for an empty grid."""
        if self.box is None:
            return None
        if self.window is None or self.window[0] != extent:
            x0, y0, x1, y1 = self.box
            w, h = extent
            self.window = (extent, (x1 - w + 1, y1 - h + 1, x0 + w - 1, y0 + h - 1))
        return self.window[1]


def with_bits(bits: tuple, cells) -> tuple:
    """(w, h, reach, occupied bits) with `cells` added (those inside the board)."""
    w, h, reach, taken = bits
    bit_of = _BIT_OF.get((w, h, reach))
    if bit_of is None:              # each cell of the board -> its bit, once per board
        if len(_BIT_OF) > 64:
            _BIT_OF.clear()
        stride = w + 2 * reach
        bit_of = _BIT_OF[w, h, reach] = {(x, y): 1 << ((y + reach) * stride + x + reach)
                                         for y in range(h) for x in range(w)}
    bit = bit_of.get
    for cell in cells:              # (a cell off the board has no bit)
        taken |= bit(cell, 0)
    return w, h, reach, taken


_BIT_OF: dict = {}      # (w, h, reach) -> {cell: bit}, see with_bits


def grid_index(st, key: str) -> GridIndex:
    idx = st.cache.get(key)
    if idx is None:
        idx = st.cache[key] = GridIndex.build(st.zones[key])
    return idx


def on_remove(st, key: str, emptied: bool) -> None:
    idx = st.cache.get(key)
    if idx is not None:
        if emptied:
            del st.cache[key]
        else:
            st.cache[key] = idx.removed()
