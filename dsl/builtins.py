"""Signatures of the built-in functions: arity, argument types and result type.

The checker uses these to type calls; interpreter/run/builtins.py holds the implementations
under the same names (a test keeps the two in step). Each entry documents itself for
docs/language.md.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .types import ANY, BOOL, CELL, INT, PLAYER, STR, element, is_grid, is_list, is_zone, list_of, zone_holds


class ArgProblem(Exception):
    """Argument `index` is not what the built-in takes: `expected` ("a list", "a grid zone")."""

    def __init__(self, index: int, expected: str, got: str):
        self.message = f"expected {expected}, got {got}"
        super().__init__(self.message)
        self.index, self.expected = index, expected


@dataclass(frozen=True)
class Builtin:
    name: str
    params: str             # shown in messages and docs, e.g. "grid, cell, int"
    min_args: int
    max_args: int
    typer: Callable         # (arg types) -> result type; raises ArgProblem
    doc: str


def _need(types, index, pred, what):
    if index < len(types) and types[index] != ANY and not pred(types[index]):
        raise ArgProblem(index, what, types[index])


def _list(i=0):
    return lambda ts: _need(ts, i, is_list, "a list")


def _int(i):
    return lambda ts: _need(ts, i, lambda t: t in (INT, PLAYER), "an int")


def _zone(i=0):
    return lambda ts: _need(ts, i, is_zone, "a zone")


def _stackzone(i=0):
    return lambda ts: _need(ts, i, lambda t: is_zone(t) and not is_grid(t), "a stack or pile zone")


def _grid(i=0):
    return lambda ts: _need(ts, i, is_grid, "a grid zone")


def _cell(i):
    return lambda ts: _need(ts, i, lambda t: t == CELL, "a cell")


def _str(i):
    return lambda ts: _need(ts, i, lambda t: t == STR, "a string")


def _typed(result, *checks):
    def typer(ts):
        for check in checks:
            check(ts)
        return result(ts) if callable(result) else result
    return typer


def _numbers(ts):
    if len(ts) == 1:
        _need(ts, 0, lambda t: is_list(t) and element(t) in (INT, PLAYER, ANY), "a list of int")
        return INT
    for i in range(len(ts)):
        _int(i)(ts)
    return INT


BUILTINS: dict[str, Builtin] = {}


def _define(name, params, lo, hi, typer, doc):
    BUILTINS[name] = Builtin(name, params, lo, hi, typer, doc)


_same = lambda ts: ts[0]
_elem = lambda ts: element(ts[0])
_holds = lambda ts: zone_holds(ts[0])
_list_holds = lambda ts: list_of(zone_holds(ts[0]))

_define("len", "list", 1, 1, _typed(INT, _list()), "Number of items in a list.")
_define("count", "list", 1, 1, _typed(INT, _list()),
        "Number of items of a list that are not false or none: `count(c.value > 5 for c in hand)`.")
_define("sum", "list of int", 1, 1, _numbers, "Sum of a list of numbers.")
_define("max", "list of int | int, int...", 1, 9, _numbers, "Largest number (of a list, or of the arguments).")
_define("min", "list of int | int, int...", 1, 9, _numbers, "Smallest number (of a list, or of the arguments).")
_define("abs", "int", 1, 1, _typed(INT, _int(0)), "Absolute value.")
_define("any", "list of bool", 1, 1, _typed(BOOL, _list()), "Whether any item is true.")
_define("all", "list of bool", 1, 1, _typed(BOOL, _list()), "Whether every item is true (true for an empty list).")
_define("first", "list", 1, 1, _typed(_elem, _list()), "The first item; a rule error if the list is empty.")
_define("last", "list", 1, 1, _typed(_elem, _list()), "The last item; a rule error if the list is empty.")
_define("sorted", "list", 1, 1, _typed(_same, _list()), "The list in ascending order.")
_define("reversed", "list", 1, 1, _typed(_same, _list()), "The list in reverse order.")
_define("distinct", "list", 1, 1, _typed(_same, _list()), "The list without repeated items, in first-seen order.")
_define("shuffled", "list", 1, 1, _typed(_same, _list()), "A copy of the list in random order (uses the game's seeded RNG).")
_define("flatten", "list of list", 1, 1, _typed(_elem, _list()), "Concatenation of a list of lists.")
_define("index_of", "list, value", 2, 2, _typed(INT, _list()), "Position of a value in a list (0-based), -1 if absent.")
_define("range", "int[, int]", 1, 2, _typed(list_of(INT), _int(0), _int(1)),
        "range(n) is 0..n-1; range(a, b) is a..b-1.")
_define("next", "player", 1, 1, _typed(PLAYER, _int(0)), "The player to the left (seat + 1, wrapping).")
_define("previous", "player", 1, 1, _typed(PLAYER, _int(0)), "The player to the right (seat - 1, wrapping).")
_define("cell", "int, int", 2, 2, _typed(CELL, _int(0), _int(1)), "The cell at column x, row y.")
_define("size", "zone", 1, 1, _typed(INT, _zone()), "Number of components in a zone (all layers of a grid).")
_define("empty", "zone", 1, 1, _typed(BOOL, _zone()), "Whether a zone holds no component.")
_define("contents", "zone", 1, 1, _typed(_list_holds, _zone()),
        "Components of a zone: a stack bottom to top; a grid cell by cell, each cell's stack bottom to top.")
_define("top", "stack zone", 1, 1, _typed(_holds, _stackzone()), "The top component of a stack; a rule error if empty.")
_define("top_at", "grid, cell", 2, 2, _typed(_holds, _grid(), _cell(1)), "The visible component at a cell, or none.")
_define("stack_at", "grid, cell", 2, 2, _typed(_list_holds, _grid(), _cell(1)),
        "All components at a cell, bottom to top.")
_define("occupied", "grid", 1, 1, _typed(list_of(CELL), _grid()), "Occupied cells, in row-major order.")
_define("frontier", "grid, adjacency[, str, value]", 2, 4, _typed(list_of(CELL), _grid(), _str(1), _str(2)),
        "Empty cells next to an occupied cell, in row-major order. Adjacency: \"orthogonal\", \"diagonal\" or \"all\". "
        "With an attribute and a value, only next to the cells whose top component has that value (an owner's "
        "frontier, kept up to date as pieces are laid): `frontier(board, \"diagonal\", \"colour\", red)`.")
_define("neighbours", "cell, adjacency", 2, 2, _typed(list_of(CELL), _cell(0), _str(1)),
        "The cells next to a cell. Adjacency: \"orthogonal\", \"diagonal\" or \"all\".")
_define("fits", "grid, cell", 2, 2, _typed(BOOL, _grid(), _cell(1)),
        "Whether the grid's occupied area, with this cell added, stays within its declared extent.")
_define("lines", "grid, int", 2, 2, _typed(list_of(list_of(CELL)), _grid(), _int(1)),
        "Every window of n consecutive occupied cells in a row, column or diagonal.")
_define("lines_through", "grid, cell, int", 3, 3, _typed(list_of(list_of(CELL)), _grid(), _cell(1), _int(2)),
        "The windows of n consecutive occupied cells that contain the cell.")

# Multisets: lists where only how many of each value matters (costs, resource pools).
_define("occurrences", "list, value", 2, 2, _typed(INT, _list()),
        "How many items of the list equal the value: `occurrences([a, b, a], a)` is 2.")
_define("without", "list, value", 2, 2, _typed(_same, _list()),
        "The list with the first item equal to the value removed (the same list if there is none).")
_define("minus", "list, list", 2, 2, _typed(_same, _list(), _list(1)),
        "Multiset difference: each item of the second list removes one equal item of the first.")
_define("join", "list of str, str", 2, 2,
        _typed(STR, lambda ts: _need(ts, 0, lambda t: t in (list_of(STR), list_of(ANY)), "a list of str"), _str(1)),
        "The texts of the list, joined by the separator: `join([\"{r}\" for r in cost], \" + \")`.")
_define("turns_played", "player", 1, 1, _typed(INT, _int(0)),
        "How many turns the player has had so far (the `turn` blocks begun for that seat).")
_define("details", "component", 1, 1, _typed(STR),
        "The component's `details` text from its data file (\"\" if its kind has none).")

# Connections on grids (roads, areas), and comparisons among players.
_int_list = lambda ts: _need(ts, 0, lambda t: is_list(t) and element(t) in (INT, PLAYER, ANY), "a list of int")
_define("reachable", "grid, cell, list of str, value", 4, 4,
        _typed(list_of(CELL), _grid(), _cell(1),
               lambda ts: _need(ts, 2, lambda t: t in ("list of str", "list of any"), "a list of 4 attribute names")),
        "The occupied cells linked to the start cell through matching edges: neighbours (orthogonal) "
        "are linked when the attributes of their facing sides both equal the value (two cells of one piece "
        "with a shape are always linked). The side "
        "attributes are named in the order north, east, south, west (y grows southwards). An empty start "
        "cell (a city centre, a source) is open on every side: `reachable(city, (2, 2), "
        "[\"north\", \"east\", \"south\", \"west\"], true)`.")
_define("groups", "grid, str[, adjacency]", 2, 3, _typed(list_of(list_of(CELL)), _grid(), _str(1), _str(2)),
        "The connected groups of occupied cells whose components have the same value of the named "
        "attribute (orthogonal neighbours unless an adjacency is given), in row-major order of their "
        "first cell; each group's cells in row-major order: `groups(city, \"building\")`.")
_define("argmax", "list of int", 1, 1, _typed(list_of(INT), _int_list),
        "The positions of the largest value, every tied one: `argmax([3, 7, 7])` is [1, 2]; [] for []. "
        "With a list indexed by seat (`[area(q) for q in players]`) the positions are the leading players.")
_define("argmin", "list of int", 1, 1, _typed(list_of(INT), _int_list),
        "The positions of the smallest value, every tied one; [] for [].")
_define("linked_groups", "grid, str, list of str, value", 4, 4,
        _typed(list_of(list_of(CELL)), _grid(), _str(1),
               lambda ts: _need(ts, 2, lambda t: t in ("list of str", "list of any"), "a list of 4 attribute names")),
        "Like `groups`, but two neighbours of the same value are in one group only when they are "
        "linked as in `reachable`: the attributes of their facing sides (north, east, south, west) "
        "both equal the value: `linked_groups(city, \"building\", [\"north\", \"east\", \"south\", "
        "\"west\"], true)` gives the areas of one type linked by roads. The cells of one piece with a "
        "shape are always linked.")

# Components with a shape (docs/language.md, Shapes): where a piece fits and what it covers.
_component = lambda i: (lambda ts: _need(ts, i, lambda t: t[:1].isupper(), "a component"))
_cells = lambda i: (lambda ts: _need(ts, i, lambda t: t in (list_of(CELL), list_of(ANY)), "a list of cells"))
_define("turns", "component", 1, 1, _typed(INT, _component(0)),
        "How many distinct orientations a component's shape has under rotation and reflection "
        "(1 for a component without a shape): `range(turns(q))` are its orientations.")
_define("covers", "component, cell, int", 3, 3, _typed(list_of(CELL), _component(0), _cell(1), _int(2)),
        "The cells a piece would cover with the top left corner of its orientation's box at the cell, "
        "in that orientation, in row-major order: `covers(q, (3, 4), 1)`.")
_piece_at = ("grid, component, cell, int", 4, 4, _typed(BOOL, _grid(), _component(1), _cell(2), _int(3)))
_define("shape_fits", *_piece_at,
        "Whether a piece laid at the cell in that orientation lies wholly on the grid: inside its size and "
        "off blocked cells, or with the occupied area inside its extent (free or not).")
_define("shape_free", *_piece_at,
        "Whether a piece laid at the cell in that orientation fits the grid (`shape_fits`) on empty cells only.")
_define("touches", "list of cell, list of cell, adjacency", 3, 3, _typed(BOOL, _cells(0), _cells(1), _str(2)),
        "Whether a cell of the first list is next to a cell of the second, by edge (\"orthogonal\"), by "
        "corner (\"diagonal\") or either (\"all\"): `not touches(covers(q, c, t), mine, \"orthogonal\")`.")
_define("touches_owned", "grid, list of cell, adjacency, str, value", 5, 5,
        _typed(BOOL, _grid(), _cells(1), _str(2), _str(3)),
        "Whether a cell of the list is next to an occupied cell of the grid (not in the list) whose top "
        "component has the attribute's value: `touches_owned(board, m.cells, \"diagonal\", \"colour\", red)`.")
_define("placements_of", "grid, list of component, list of cell[, list of cell]", 3, 4,
        _typed(list_of("placement"), _grid(), _list(1), _cells(2), _cells(3)),
        "Every placement of each piece of the list (in its order) in each of its orientations (in order), "
        "at each anchor (row-major), on empty cells that fit the grid, covering at least one of the "
        "target cells and none of the cells of the last list: "
        "`placements_of(board, held, frontier(board, \"diagonal\", \"colour\", red), "
        "frontier(board, \"orthogonal\", \"colour\", red))`. Each is a `placement` with fields "
        "`piece`, `at`, `turn` and `cells`; lay it with `move m.piece to board at m.at turned m.turn`.")
_define("any_placement", "grid, list of component, list of cell[, list of cell]", 3, 4,
        _typed(BOOL, _grid(), _list(1), _cells(2), _cells(3)),
        "Whether `placements_of` with the same arguments would find a placement; it stops at the first, "
        "so asking it before a `choose` over `placements_of` leaves the whole list to be worked out only "
        "when someone asks for the options.")
_define("cell_attr", "grid or placement, cell, str", 3, 3,
        _typed(ANY, lambda ts: _need(ts, 0, lambda t: is_grid(t) or t == "placement", "a grid zone or a placement"),
               _cell(1), _str(2)),
        "A cell's own value of an attribute: on a grid, the top component's value as seen on that cell "
        "(the cell of its shape lying there gives its own `cell_attributes`, such as a domino half's "
        "terrain; otherwise the component's attribute), `none` for an empty cell: "
        "`cell_attr(kingdom, (1, 0), \"terrain\")`. Of a placement, what the piece would show on that "
        "cell laid so: `cell_attr(m, first(m.cells), \"terrain\")`. Typed as the attribute is declared.")
ATTRIBUTE_ARGS = {"reachable": 2, "groups": 1, "linked_groups": 2, "frontier": 2, "touches_owned": 3}
ADJACENCY_ARGS = {"frontier": 1, "neighbours": 1, "touches": 2, "touches_owned": 2}     # argument that names an adjacency     # argument that names attributes of the grid's kind

ADJACENCIES = ("orthogonal", "diagonal", "all")
