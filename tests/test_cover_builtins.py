"""Built-in functions at their edges, as docs/language.md's table describes them: empty
lists, absent values, unknown adjacencies, wrong side counts, cells off the grid.

Each expression runs inside a tiny game and its value is read from a var of the state.
"""
from __future__ import annotations

import textwrap

import pytest

from boardwright.dsl.errors import RuleError
from boardwright.interpreter.compile.load import load_game

TILES = """\
provenance: test data
components:
  Tile:
    attributes: {colour: str, north: bool, east: bool, south: bool, west: bool}
    items:
      - {colour: red, north: true, east: true, south: true, west: true}
      - {colour: red, north: true, east: true, south: true, west: true}
      - {colour: blue, north: false, east: false, south: false, west: false}
"""

HEADER = 'game "Tiny"\nplayers 2\ndata "tiles.yaml"\nzone board: grid\nzone bag: stack\n'

# Tiles 0 and 1 (red, open on all sides) at (0, 0) and (1, 0); tile 2 (blue, closed) at (2, 0).
LAYOUT = """\
setup {
  move components(Tile)[0] to board at (0, 0)
  move components(Tile)[1] to board at (1, 0)
  move components(Tile)[2] to board at (2, 0)
}
"""


def build(tmp_path, body: str):
    (tmp_path / "tiles.yaml").write_text(TILES)
    path = tmp_path / "g.game"
    path.write_text(HEADER + textwrap.dedent(body))
    return load_game(path)


def value(tmp_path, expr: str, type_: str, setup: str = LAYOUT):
    """The value of `expr` (of type `type_`) after `setup`, read from the state."""
    game = build(tmp_path, f"var result: {type_} = none\n{setup}play {{ result = {expr} }}\n")
    return game.new_state(2, seed=1).vars["result"]


def failure(tmp_path, expr: str, type_: str, setup: str = LAYOUT) -> str:
    game = build(tmp_path, f"var result: {type_} = none\n{setup}play {{ result = {expr} }}\n")
    with pytest.raises(RuleError) as info:
        game.new_state(2, seed=1)
    return info.value.diagnostics[0].message


@pytest.mark.parametrize("func", ["max", "min"])
def test_max_and_min_of_an_empty_list_are_rule_errors(tmp_path, func):
    assert failure(tmp_path, f"{func}([r for r in [1, 2] if r > 5])", "int") == f"{func} of an empty list"


def test_max_and_min_of_several_arguments(tmp_path):
    assert value(tmp_path, "max(3, 9, 4) * 10 + min(3, 9, 4)", "int") == 93


@pytest.mark.parametrize("func", ["first", "last"])
def test_first_and_last_of_an_empty_list_are_rule_errors(tmp_path, func):
    assert failure(tmp_path, f"{func}([r for r in [1, 2] if r > 5])", "int") == f"{func} of an empty list"


def test_last_is_the_last_item(tmp_path):
    assert value(tmp_path, "last([4, 5, 6])", "int") == 6


@pytest.mark.parametrize("needle, position", [("30", 2), ("99", -1)])
def test_index_of(tmp_path, needle, position):
    assert value(tmp_path, f"index_of([10, 20, 30], {needle})", "int") == position


def test_neighbours_of_a_cell(tmp_path):
    # Row-major order of the orthogonal neighbours: north, west, east, south (y grows south).
    assert value(tmp_path, 'neighbours((5, 5), "orthogonal")', "list of cell") == [(5, 4), (4, 5), (6, 5), (5, 6)]
    assert len(value(tmp_path, 'neighbours((5, 5), "all")', "list of cell")) == 8


def test_frontier_with_an_unknown_adjacency_is_a_rule_error(tmp_path):
    # The checker only sees a text; a computed adjacency name is refused when it runs.
    message = failure(tmp_path, 'frontier(board, "orthogonal" + "ly")', "list of cell")
    assert "orthogonally" in message


def test_lines_through_a_cell_off_the_grid_or_of_length_zero(tmp_path):
    assert value(tmp_path, "lines_through(board, (7, 7), 2)", "list of list of cell") == []
    assert value(tmp_path, "lines_through(board, (0, 0), 0)", "list of list of cell") == []
    assert value(tmp_path, "lines_through(board, (1, 0), 2)", "list of list of cell") == [
        [(0, 0), (1, 0)], [(1, 0), (2, 0)]]


def test_lines_through_with_a_huge_length_answers_at_once(tmp_path):
    # Longer than the cells on the board: no window (not a loop over a billion lengths).
    assert value(tmp_path, "lines_through(board, (1, 0), 1000000000)", "list of list of cell") == []


def test_windows_through_tries_only_the_offsets_the_runs_allow():
    from boardwright.interpreter.run.indexes import windows_through
    row = {(x, 0): ["card"] for x in range(5)}             # one run of 5 cells across
    # A window of 3 through (2, 0): starting at x = 0, 1 or 2, from the one that ends there.
    assert windows_through(row, (2, 0), 3) == [[(0, 0), (1, 0), (2, 0)], [(1, 0), (2, 0), (3, 0)],
                                               [(2, 0), (3, 0), (4, 0)]]
    assert windows_through(row, (0, 0), 5) == [[(x, 0) for x in range(5)]]
    assert windows_through(row, (0, 0), 6) == []
    start = __import__("time").perf_counter()
    assert windows_through(row, (2, 0), 10 ** 8) == []
    assert __import__("time").perf_counter() - start < 1


def test_top_at_an_empty_cell_is_none(tmp_path):
    assert value(tmp_path, "top_at(board, (4, 4)) == none", "bool") is True
    assert value(tmp_path, "top_at(board, (2, 0)).colour", "str") == "blue"


def test_details_of_none_is_a_rule_error(tmp_path):
    message = failure(tmp_path, "details(top_at(board, (4, 4)))", "str")
    assert message == "details of none"


@pytest.mark.parametrize("func, extra", [("reachable", "(0, 0), "), ("linked_groups", '"colour", ')])
def test_side_lists_need_four_attributes(tmp_path, func, extra):
    sides = ' + '.join(['["north"]', '["east"]', '["south"]'])  # computed: the checker cannot count it
    type_ = "list of cell" if func == "reachable" else "list of list of cell"
    message = failure(tmp_path, f"{func}(board, {extra}{sides}, true)", type_)
    assert message == f"{func} needs 4 side attributes (north, east, south, west), got 3"


def test_reachable_follows_open_sides_only(tmp_path):
    sides = '["north", "east", "south", "west"]'
    # (0, 0) and (1, 0) face each other with open sides; (2, 0) is closed on every side.
    assert sorted(value(tmp_path, f"reachable(board, (0, 0), {sides}, true)", "list of cell")) == [(0, 0), (1, 0)]


def test_linked_groups_join_only_linked_neighbours(tmp_path):
    sides = '["north", "east", "south", "west"]'
    found = value(tmp_path, f'linked_groups(board, "colour", {sides}, true)', "list of list of cell")
    assert found == [[(0, 0), (1, 0)], [(2, 0)]]
