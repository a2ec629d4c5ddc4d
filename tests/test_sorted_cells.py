"""`sorted` orders cells row by row (y, then x), as occupied, frontier and groups list them
(docs/language.md, "Order of the grid built-ins"); lists of cells item by item; enum members in
declaration order; records field by field. Expected orders are written out by hand."""
from __future__ import annotations

from conftest import make_small_game

RULES = """\
game "Tiny"
players 2
data "cards.yaml"
enum Size { large, small, medium }
record Spot { size: Size, place: cell }
zone board: grid
var cells: list of cell = []
var pairs: list of list of cell = []
var sizes: list of Size = []
var same: bool = false
var spots: list of Spot = []
var taken: list of cell = []
setup {
  for c in components(Card) { move c to board at (c.rank * 2 % 5, 3 - c.rank + (if c.suit == hearts then 0 else 3)) }
}
play {
  cells = sorted([(2, 0), (0, 1), (1, 0), (0, 0), (1, 1)])
  pairs = sorted([[(1, 0), (0, 1)], [(0, 1), (5, 0)], [(1, 0), (0, 0)]])
  sizes = sorted([small, medium, large, small])
  spots = sorted([Spot(size: small, place: (1, 0)), Spot(size: large, place: (0, 1)), Spot(size: small, place: (0, 1)),
                  Spot(size: large, place: (3, 0))])
  taken = sorted([(x, y) for x in range(6) for y in range(6) if top_at(board, (x, y)) != none])
  same = sorted(occupied(board)) == occupied(board) and sorted(reversed(occupied(board))) == occupied(board)
}
"""


def test_sorted_orders_cells_row_by_row_like_the_grid_built_ins(tmp_path):
    st = make_small_game(tmp_path, RULES).new_state(2, seed=1)
    assert st.vars["cells"] == [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1)]
    assert st.vars["pairs"] == [[(1, 0), (0, 0)], [(1, 0), (0, 1)], [(0, 1), (5, 0)]]
    assert st.vars["sizes"] == ["large", "small", "small", "medium"]
    assert st.vars["same"] is True
    # records field by field: size in declaration order (large before small), then the cell row by row
    assert st.vars["spots"] == [("large", (3, 0)), ("large", (0, 1)), ("small", (1, 0)), ("small", (0, 1))]
    # by hand: rank 1 at x 2, rank 2 at x 4, rank 3 at x 1; hearts at y 3 - rank, spades 3 lower
    assert st.vars["taken"] == [(1, 0), (4, 1), (2, 2), (1, 3), (4, 4), (2, 5)]
