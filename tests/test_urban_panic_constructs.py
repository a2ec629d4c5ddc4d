"""The general constructs added for Urban Panic, on small rule files of their own:
reachable (edges), groups (connected areas by attribute), argmax/argmin (leaders with ties),
the checker's attribute-name check, and data `glyph`s with {flag:X|Y} drawn by `play`."""
from __future__ import annotations

import textwrap

import pytest

from boardwright.cli.render import render_table
from boardwright.dsl.errors import DataError, RuleError, RuleFileError
from boardwright.dsl.loader import check_game
from boardwright.interpreter.compile.load import load_game

DATA = """\
provenance: test data for the Urban Panic constructs
enums:
  Colour: [red, blue]
components:
  Piece:
    label: "{colour} {n:N}{e:E}{s:S}{w:W}"
    glyph: ["  {n:!| }  ", "{w:-|.}{colour:^3.3}{e:-|.}", "  {s:!| }  "]
    attributes: {colour: Colour, n: bool, e: bool, s: bool, w: bool}
    items:
      - product: {colour: [red, blue], n: [true, false], e: [true, false], s: [true, false], w: [true, false]}
"""

HEADER = """\
game "Edges"
players 1..2
data "pieces.yaml"
zone board: grid of Piece size 3 x 3 blocked (1, 1)
zone open: grid of Piece
var found: list of cell = []
var areas: list of list of cell = []
var best: list of int = []
fn piece(label_colour: Colour, n: bool, e: bool, s: bool, w: bool) -> Piece =
  first([c for c in components(Piece) if c.colour == label_colour and c.n == n and c.e == e and c.s == s and c.w == w])
"""


def make(tmp_path, body: str, data: str = DATA):
    (tmp_path / "pieces.yaml").write_text(data)
    path = tmp_path / "g.game"
    path.write_text(HEADER + textwrap.dedent(body))
    return load_game(path)


def finished(game, players=1):
    st = game.new_state(players, seed=1)
    assert st.finished
    return st


def test_reachable_follows_matching_edges_from_an_open_empty_start(tmp_path):
    # The empty, blocked centre (1, 1) is open on every side. (1, 0) has a south road into it;
    # (0, 0) links to (1, 0) east-west; (2, 1) faces the centre without a west road: not linked;
    # (1, 2) has a north road: linked; (0, 2) touches (1, 2) but (1, 2) has no west road.
    game = make(tmp_path, """
        play {
          move piece(red, false, false, true, true) to board at (1, 0)
          move piece(red, false, true, false, false) to board at (0, 0)
          move piece(blue, true, true, true, false) to board at (2, 1)
          move piece(blue, true, false, false, false) to board at (1, 2)
          move piece(blue, false, true, false, false) to board at (0, 2)
          found = reachable(board, (1, 1), ["n", "e", "s", "w"], true)
        }
    """)
    st = finished(game)
    assert st.vars["found"] == [(0, 0), (1, 0), (1, 2)]


def test_reachable_from_an_occupied_start_uses_its_sides_and_includes_it(tmp_path):
    game = make(tmp_path, """
        play {
          move piece(red, false, true, false, false) to open at (0, 0)
          move piece(red, false, false, false, true) to open at (1, 0)
          move piece(red, false, true, false, true) to open at (2, 0)
          found = reachable(open, (0, 0), ["n", "e", "s", "w"], true)
          areas = [reachable(open, (2, 0), ["n", "e", "s", "w"], true), reachable(open, (5, 5), ["n", "e", "s", "w"], false)]
        }
    """)
    st = finished(game)
    # (1, 0) has no east road, so (2, 0) is not reached from (0, 0), nor (0, 0) from (2, 0).
    assert st.vars["found"] == [(0, 0), (1, 0)]
    # From (2, 0): only itself. From the empty (5, 5), nothing is next to it.
    assert st.vars["areas"] == [[(2, 0)], []]


def test_reachable_matches_the_given_value(tmp_path):
    # With `false`, cells link through sides that both have NO road.
    game = make(tmp_path, """
        play {
          move piece(red, false, false, false, false) to open at (0, 0)
          move piece(blue, false, false, false, false) to open at (1, 0)
          move piece(blue, true, true, true, true) to open at (0, 1)
          found = reachable(open, (0, 0), ["n", "e", "s", "w"], false)
        }
    """)
    assert finished(game).vars["found"] == [(0, 0), (1, 0)]


def test_reachable_reports_a_missing_side_attribute_at_run_time(tmp_path):
    game = make(tmp_path, """
        fn sides() -> list of str = ["n", "e", "south", "w"]
        play {
          move piece(red, true, true, true, true) to open at (0, 0)
          move piece(blue, true, true, true, true) to open at (0, 1)
          found = reachable(open, (0, 0), sides(), true)
        }
    """)
    with pytest.raises(RuleError) as err:
        game.new_state(1, seed=1)
    assert "has no attribute 'south'" in err.value.format()


def test_the_checker_refuses_unknown_attribute_names_and_a_wrong_side_count(tmp_path):
    (tmp_path / "pieces.yaml").write_text(DATA)
    path = tmp_path / "g.game"
    path.write_text(HEADER + textwrap.dedent("""
        play {
          found = reachable(board, (1, 1), ["n", "e", "sud", "w"], true)
          found = reachable(board, (1, 1), ["n", "e"], true)
          areas = groups(board, "color")
        }
    """))
    with pytest.raises(RuleFileError) as err:
        check_game(path)
    text = err.value.format()
    assert "reachable: Piece has no attribute 'sud'" in text
    assert "reachable needs 4 side attributes (north, east, south, west), got 2" in text
    assert "groups: Piece has no attribute 'color'" in text and "did you mean 'colour'" in text


def test_groups_are_connected_cells_sharing_an_attribute_value(tmp_path):
    game = make(tmp_path, """
        play {
          move piece(red, true, true, true, true) to open at (0, 0)
          move piece(red, false, false, false, false) to open at (1, 0)
          move piece(blue, true, true, true, true) to open at (2, 0)
          move piece(red, true, true, true, false) to open at (2, 1)
          move piece(red, true, false, true, false) to open at (0, 2)
          move piece(blue, true, true, true, false) to open at (1, 1)
          areas = groups(open, "colour")
          found = flatten(groups(open, "colour", "all"))
          best = [len(g) for g in groups(open, "colour", "all")]
        }
    """)
    st = finished(game)
    # Orthogonal: red {(0,0),(1,0)}, blue {(2,0)}, blue {(1,1)}, red {(2,1)}, red {(0,2)}.
    assert st.vars["areas"] == [[(0, 0), (1, 0)], [(2, 0)], [(1, 1)], [(2, 1)], [(0, 2)]]
    # With diagonals too: (2, 1) joins (1, 0), and (2, 0) joins (1, 1); (0, 2) touches only the
    # blue (1, 1) and stays alone.
    assert st.vars["best"] == [3, 2, 1]
    assert sorted(st.vars["found"]) == sorted([(0, 0), (1, 0), (2, 1), (2, 0), (1, 1), (0, 2)])


def test_argmax_and_argmin_return_every_tied_position(tmp_path):
    game = make(tmp_path, """
        play {
          best = argmax([3, 7, 1, 7]) + [-1] + argmin([3, 7, 1, 1]) + [-1] + argmax([]) + argmin([5])
        }
    """)
    assert finished(game).vars["best"] == [1, 3, -1, 2, 3, -1, 0]


def test_argmax_names_the_leading_players(tmp_path):
    game = make(tmp_path, """
        var points: int per player = 0
        var leaders: list of player = []
        play {
          points[1] = 4
          leaders = argmax(points)
        }
    """)
    st = game.new_state(2, seed=1)
    assert st.vars["leaders"] == [1]


def test_labels_show_flags_with_their_format(tmp_path):
    game = make(tmp_path, "play { }")
    assert "red NE" in game.labels and "blue NESW" in game.labels and "red " in game.labels


def test_glyphs_draw_a_fixed_grid_with_blocked_cells(tmp_path):
    game = make(tmp_path, """
        play {
          move piece(red, false, true, true, false) to board at (0, 0)
          move piece(blue, true, false, false, true) to board at (2, 2)
          choose c from [(0, 1)] by 0 prompt "Pick"
        }
    """)
    st = game.new_state(1, seed=1)
    seen = game.observe(st, 0)
    assert seen["glyphs"]["board"] == {"0,0": ["     ", ".red-", "  !  "], "2,2": ["  !  ", "-blu.", "     "]}
    assert seen["glyphs"]["open"] == {}
    text = render_table(game, seen)
    lines = text.splitlines()
    assert "      +-----+-----+-----+" in lines
    assert "    0 |.red-|     |     |" in lines          # the middle line of row 0 carries the axis
    assert "    1 |     |░░░░░|     |" in lines          # the blocked cell is shaded
    assert "      |  !  |     |     |" in lines          # the south road of (0, 0)
    assert "    2 |     |     |-blu.|" in lines
    assert "open:" in lines and "    (empty)" in lines  # an unbounded grid with nothing on it


def test_underscore_vars_are_not_shown(tmp_path):
    game = make(tmp_path, """
        var _secret: int = 7
        var shown: int = 8
        play { choose c from [(0, 1)] by 0 prompt "Pick" }
    """)
    st = game.new_state(1, seed=1)
    text = render_table(game, game.observe(st, 0))
    assert "shown: 8" in text and "_secret" not in text


def test_a_glyph_naming_an_unknown_attribute_is_a_data_error(tmp_path):
    bad = DATA.replace('"{w:-|.}{colour:^3.3}{e:-|.}"', '"{w:-|.}{color}{e:-|.}"')
    with pytest.raises((DataError, RuleFileError)) as err:
        make(tmp_path, "play { }", bad)
    text = err.value.format()
    assert "Piece.glyph names the unknown attribute 'color'" in text and "did you mean 'colour'" in text


def test_a_glyph_that_cannot_format_a_value_is_a_data_error(tmp_path):
    bad = DATA.replace('"{w:-|.}{colour:^3.3}{e:-|.}"', '"{w:-|.}{colour:d}{e:-|.}"')
    with pytest.raises((DataError, RuleFileError)) as err:
        make(tmp_path, "play { }", bad)
    assert "Piece.glyph cannot show" in err.value.format()


def test_argmax_needs_numbers_and_groups_a_known_adjacency(tmp_path):
    (tmp_path / "pieces.yaml").write_text(DATA)
    path = tmp_path / "g.game"
    path.write_text(HEADER + 'play { best = argmax([(0, 1)]) }\n')
    with pytest.raises(RuleFileError) as err:
        check_game(path)
    assert "argmax(list of int): expected a list of int, got list of cell" in err.value.format()
    game = make(tmp_path, """
        fn around() -> str = "sideways"
        play { areas = groups(open, "colour", around()) }
    """)
    with pytest.raises(RuleError) as err:
        game.new_state(1, seed=1)
    assert "unknown adjacency 'sideways'" in err.value.format()


def test_linked_groups_join_same_valued_neighbours_only_through_matching_edges(tmp_path):
    game = make(tmp_path, """
        play {
          move piece(red, false, true, false, false) to open at (0, 0)
          move piece(red, false, false, true, true) to open at (1, 0)
          move piece(red, true, false, false, false) to open at (1, 1)
          move piece(red, false, false, false, false) to open at (2, 0)
          move piece(blue, false, false, false, true) to open at (2, 1)
          areas = linked_groups(open, "colour", ["n", "e", "s", "w"], true)
          best = [len(g) for g in groups(open, "colour")]
        }
    """)
    st = finished(game)
    # (0,0) east meets (1,0) west; (1,0) south meets (1,1) north: one red group of 3. (2,0) is
    # red and touches (1,0), but neither faces the other with a road; the blue (2,1) has a
    # west road into (1,1), but its colour differs.
    assert st.vars["areas"] == [[(0, 0), (1, 0), (1, 1)], [(2, 0)], [(2, 1)]]
    assert st.vars["best"] == [4, 1]                      # touching alone joins all four reds
