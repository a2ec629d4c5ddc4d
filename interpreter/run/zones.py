"""Where components lie: the shapes of grids, the keys of zones, and moving components
between zones (one at a time, or a whole list from piles at once). A mixin of `Game`.
"""
from __future__ import annotations

from operator import itemgetter
from dataclasses import dataclass
from functools import cached_property

from .builtins import Problem, fits
from .limits import shown, zone_named
from .indexes import on_remove
from .shaped import lay, lift, place
from .state import State


@dataclass(frozen=True)
class GridShape:
    extent: tuple | None
    size: tuple | None
    blocked: frozenset
    stacked: bool

    @cached_property
    def param_names(self) -> tuple:
        """The params named where the shape has numbers (asked at every move: kept)."""
        pairs = [self.extent or (), self.size or ()] + list(self.blocked)
        return tuple(sorted({v for pair in pairs for v in pair if isinstance(v, str)}))

    @property
    def by_params(self) -> bool:
        """Whether a number of the shape is a param's name."""
        return bool(self.param_names)


class Zones:
    """The zone methods of `Game` (engine.py)."""

    def grid_shape(self, key: str, st=None) -> GridShape:
        """A grid's shape; numbers given by params (`size side x side`) are read from the
        state's params (without a state they are unknown: the grid shows as floating)."""
        shape = self.shapes.get(key)
        if shape is None:
            shape = self.shapes[key] = self.shapes[key.split("/")[0]]
        names = shape.param_names
        if not names:
            return shape
        values = st.vars if st is not None else {}
        # asked at every move: one param (a square board's side) without a list
        known = (key, (values.get(names[0]),) if len(names) == 1 else tuple([values.get(n) for n in names]))
        found = self.shapes_by_params.get(known)
        if found is None:
            found = self.shapes_by_params[known] = self._shape_from(shape, values)
        return found

    @staticmethod
    def _shape_from(shape: GridShape, values: dict) -> GridShape:
        """The shape with the params' values (`values`) in place of their names."""

        def numbers(pair):
            if pair is None:
                return None
            known = tuple(values.get(v) if isinstance(v, str) else v for v in pair)
            return None if None in known else known
        return GridShape(numbers(shape.extent), numbers(shape.size),
                         frozenset(filter(None, map(numbers, shape.blocked))), shape.stacked)

    def zone_keys_for(self, players: int) -> list[str]:
        keys = []
        for name, keyset in self.zone_keys.items():
            keys.extend([keyset] if isinstance(keyset, str) else keyset[:players])
        return keys + ["supply"]

    def move(self, st: State, c, key: str, cell, bottom: bool, turn=None) -> None:
        if type(c) is not int or not 0 <= c < self.component_count:
            raise Problem(f"cannot move {shown(c)}: not a component")
        zones = st.zones
        dest = zones[key]
        if type(dest) is not list:      # refuse a bad cell before anything changes
            if cell is None:
                raise Problem(f"a move to the grid '{zone_named(key)}' needs a cell")
            if self.orientations[c] is not None:
                return self._move_shaped(st, c, key, cell, turn)
            if turn:
                raise Problem(f"{self.labels[c]} has no shape: it lies in one orientation (turned 0), not {shown(turn)}")
            if cell in dest and not self.grid_shape(key, st).stacked:
                raise Problem(f"cell {cell} of '{zone_named(key)}' is occupied and the grid is not 'stacked'")
            if not fits(self, st, key, cell):
                raise Problem(f"cell {cell} is outside the grid '{zone_named(key)}'")
        loc = st.loc
        where = loc[c]
        okey, ocell = where[0], where[1]
        source = zones[okey]
        if st.memo:
            st.memo.clear()
        if len(where) == 4:
            lift(st, c, where)          # a piece with a shape leaves every cell it covered
        else:
            _take(st, c, source, okey, ocell)
        if type(dest) is list:
            if bottom:
                dest.insert(0, c)
            else:
                dest.append(c)
        else:
            stack = dest.get(cell)
            if stack is None:
                dest[cell] = [c]
            else:
                stack.append(c)
            index = st.cache.get(key)       # the grid's index replaced by an updated copy
            if index is not None:
                st.cache[key] = index.added(dest, cell, stack is None, self.components[c])
        loc[c] = (key, cell)
        if self.coverage is not None and st.frames and st.frames[0][0] != "setup":
            self.coverage.moved[c] += 1

    def _move_shaped(self, st: State, c: int, key: str, at, turn) -> None:
        """Lay a piece with a shape on a grid, lifted whole from wherever it was."""
        where = st.loc[c]
        if st.memo:
            st.memo.clear()
        if len(where) == 4:
            lift(st, c, where)
            try:            # checked with the piece lifted: it may be turned where it lies
                cells = place(self, st, c, key, at, turn)
            except Problem:
                lay(self, st, c, where[0], where[1], where[2], where[3])
                raise
        else:
            cells = place(self, st, c, key, at, turn)
            _take(st, c, st.zones[where[0]], where[0], where[1])
        lay(self, st, c, key, at, 0 if turn is None else turn, cells)
        if self.coverage is not None and st.frames and st.frames[0][0] != "setup":
            self.coverage.moved[c] += 1

    def move_all(self, st: State, items: list, key: str, cell, bottom: bool) -> None:
        """`move LIST to ZONE`: each item in turn, as `move` does. Eight or more distinct
        components that all leave other piles for a pile move together (a setup moves a whole
        kind at once)."""
        items = list(items)
        dest = st.zones[key]
        moving = self._from_piles(st, items, key) if len(items) >= 8 and type(dest) is list else None
        if moving is None:
            for c in items:
                self.move(st, c, key, cell, bottom)
            return
        leaving, sources = moving
        if st.memo:
            st.memo.clear()
        for source_key in sources:
            source = st.zones[source_key]
            source[:] = [c for c in source if c not in leaving]     # the others keep their order
        if bottom:
            dest[:0] = items[::-1]          # each to the bottom in turn: the last lies lowest
        else:
            dest.extend(items)
        loc = st.loc
        where = (key, cell)
        for c in items:
            loc[c] = where
        if self.coverage is not None and st.frames and st.frames[0][0] != "setup":
            for c in items:
                self.coverage.moved[c] += 1

    def _from_piles(self, st: State, items: list, key: str):
        """(the set of items, the keys of the piles they lie in) when `items` are distinct
        components that all lie in piles other than `key`, else None. Checked a list at a time
        (sets, map): a setup moves whole kinds."""
        leaving = set(items)
        if len(leaving) != len(items) or set(map(type, items)) != {int} or not leaving <= self.component_ids:
            return None
        wheres = set(itemgetter(*items)(st.loc))
        if any(where[1] is not None or where[0] == key for where in wheres):
            return None
        return leaving, [zone for zone, _ in wheres]


def _take(st: State, c: int, source, key: str, cell) -> None:
    """Take component c (not one with a shape on a grid) from the zone `source` it lies in."""
    if cell is None:
        if source[-1] == c:
            source.pop()
        else:
            source.remove(c)
    else:
        stack = source[cell]
        stack.remove(c)
        if not stack:
            del source[cell]
        on_remove(st, key, not stack)
