"""Round 9 of mutation testing (docs/testing.md "Round 9"): whole kinds of what a player sees of
`cli/render.py`, the terminal's pictures of a position: the options list, the final scores and
the score sheet, text grids (with keys, cut to the screen), framed grids of pictures (blocked
cells, pieces, keys, pages), the table's zones and vars, the shortening steps, wrapping and the
screen's height. Expected lines are worked out here from docs/cli.md's rules, never copied from
the engine's output."""
from __future__ import annotations

import pytest


def test_the_options_command_lists_every_option_numbered_with_its_id_where_it_differs():
    """docs/cli.md, play: `options` shows "every option, one a line, with its id where it differs
    from its label" (case, spaces and punctuation other than ',' and '-' aside), numbered from 1
    in two columns. Kills `_plain(None)` for the label (the census of round 9: `options` crashed)."""
    from types import SimpleNamespace

    from boardwright.cli.render import render_options
    from boardwright.interpreter.run.decisions import Option
    options = [Option("take_red", "Take red", 0), Option("1,1", "(1, 1)", 1), Option("pass", "End the turn", 2),
               Option("1-2", "(1, 2)", 3)] + [Option(f"o{n}", f"O {n}", n) for n in range(5, 11)]
    text = render_options(SimpleNamespace(prompt="Choose a move", options=tuple(options)))
    assert text.splitlines() == ["Choose a move:", "   1. Take red", "   2. (1, 1)", "   3. End the turn  [pass]",
                                 "   4. (1, 2)  [1-2]"] + [f"   {n}. O {n}" for n in range(5, 10)] + ["  10. O 10"]


class Result:
    def __init__(self, scores, lines, tiebreaks, winners, opponents=()):
        self.scores, self.lines, self.tiebreaks, self.winners, self.opponents = \
            scores, lines, tiebreaks, winners, opponents


class Named:
    def player_name(self, seat: int) -> str:
        return f"Player {seat + 1}"


@pytest.mark.parametrize("winners, last", [([1], "Winner: Player 2"), ([0, 1], "Winner: Player 1 and Player 2"),
                                           ([], "No winner: a draw.")])
def test_the_final_scores_name_each_players_total_lines_tie_breaks_and_the_winners(winners, last):
    """docs/cli.md, play: the end of a game, `== Final scores`, a line per player with the total,
    its score lines and tie-breaks, then the winners or the draw."""
    from boardwright.cli.render import render_result
    result = Result([3, 2], [{"Points": 2, "Bonus": 1}, {"Points": 2}], [{"Cards": 4}, {}], winners)
    assert render_result(Named(), result).splitlines() == [
        "== Final scores", "  Player 1: 3  (Points 2, Bonus 1)  tie-break: Cards 4", "  Player 2: 2  (Points 2)", last]
    bare = Result([0, 0], [{}, {}], [{}, {}], winners)
    assert render_result(Named(), bare).splitlines()[1:3] == ["  Player 1: 0", "  Player 2: 0"]


@pytest.mark.parametrize("winners, opponent_points, last", [
    ([], 5, "Winner: Dealer"), ([], 3, "Winner: Dealer"), ([1], 5, "Winner: Player 2")])
def test_a_score_sheet_has_a_row_per_line_and_a_column_per_player_and_opponent(winners, opponent_points, last):
    """docs/cli.md, play: a game with an opponent (or more than two score lines) ends with a score
    sheet: the score lines down, players and opponents across (columns two wider than the longest
    name, at least 8), a Total row, the tie-breaks, and the winners; when no seat won, the
    opponents with the best total did."""
    from boardwright.cli.render import render_result
    result = Result([4, 5], [{"Points": 3, "Bonus": 1}, {"Points": 2, "Bonus": 2, "Cards": 1}],
                    [{"Coins": 4}, {}], winners, opponents=[("Dealer", {"Points": opponent_points})])

    def row(title, *cells):                        # the first column: "(tie-break) Coins" + 2 = 19 wide
        return title.ljust(19) + "".join(str(c).rjust(10) for c in cells)
    assert render_result(Named(), result).splitlines() == [
        "== Final scores", row("", "Player 1", "Player 2", "Dealer"), row("Points", 3, 2, opponent_points),
        row("Bonus", 1, 2, ""), row("Cards", "", 1, ""), row("Total", 4, 5, opponent_points),
        row("(tie-break) Coins", 4, "", ""), last]


def test_the_final_scores_wrap_a_long_score_line_name_at_40_columns(monkeypatch):
    """docs/cli.md, play: long lines are wrapped, as every line of the play screen, continued
    under their own indentation (4 more). The wrap is worked out by hand, greedily, word by word:
    "  Player 1: 5  (Running total of the" is 36 columns and "points" would make it 43."""
    from boardwright.cli.render import render_result
    monkeypatch.setenv("COLUMNS", "40")
    name = "Running total of the points each player has added"
    result = Result([5, 4], [{name: 5}, {name: 4}], [{}, {}], [0])
    assert render_result(Named(), result).splitlines() == [
        "== Final scores",
        "  Player 1: 5  (Running total of the", "      points each player has added 5)",
        "  Player 2: 4  (Running total of the", "      points each player has added 4)",
        "Winner: Player 1"]


def test_a_score_sheet_wraps_a_long_score_line_name_in_its_column_at_40_columns(monkeypatch):
    """docs/cli.md, play: the score sheet fits a 40-column screen: two players' columns take
    2 x 10, so the names' column is 20 wide and a longer name wraps in its 18 (continued 2 in),
    the numbers on its first line; every line is at most 40 wide. At 80 columns the name fits."""
    from boardwright.cli.render import render_result
    long = "Buildings of the same colour in a row"          # 37 columns
    result = Result([6, 4], [{"Points": 3, long: 2, "Bonus": 1}, {"Points": 2, long: 0, "Bonus": 2}],
                    [{}, {}], [0])

    def row(title, *cells, first=20):
        return title.ljust(first) + "".join(str(c).rjust(10) for c in cells)
    monkeypatch.setenv("COLUMNS", "40")
    lines = render_result(Named(), result).splitlines()
    assert lines == ["== Final scores", row("", "Player 1", "Player 2"), row("Points", 3, 2),
                     row("Buildings of the", 2, 0), "  same colour in a", "  row",
                     row("Bonus", 1, 2), row("Total", 6, 4), "Winner: Player 1"]
    assert max(len(line) for line in lines) <= 40
    monkeypatch.setenv("COLUMNS", "80")
    assert render_result(Named(), result).splitlines()[3] == row(long, 2, 0, first=39)
    # Three players leave 10 columns, but a word is never cut: the column keeps "Buildings"
    # and 2 (11), the name wrapped in 9.
    monkeypatch.setenv("COLUMNS", "40")
    three = Result([3, 2, 1], [{"Points": 1, "Buildings of the same colour": 2, "Bonus": 0}] * 3,
                   [{}, {}, {}], [0])
    assert render_result(Named(), three).splitlines()[1:7] == [
        row("", "Player 1", "Player 2", "Player 3", first=11), row("Points", 1, 1, 1, first=11),
        row("Buildings", 2, 2, 2, first=11), "  of the", "  same", "  colour"]


def test_a_text_grid_centres_each_cell_under_its_column_and_counts_a_stack():
    """cli/render.py render_grid (docs/cli.md, play): columns as wide as the widest cell (at least
    4), the x axis above, the y axis at the left (3 wide), an empty cell as '.', a stack as its
    top label and '+N' for the N below it."""
    from boardwright.cli.render import render_grid
    cells = {"0,0": ["red 5"], "2,1": ["x", "blue 3"], "1,0": []}
    assert render_grid(cells) == ["         0        1        2    ",
                                  "    0  red 5      .        .    ",
                                  "    1    .        .     blue 3+1"]
    assert render_grid({"0,0": ["a"]}) == ["       0  ", "    0  a  "]       # 4 columns at least
    assert render_grid({}) == ["    (empty)"]


def test_a_text_grid_with_keys_starts_each_keyed_cell_with_its_key_and_lines_the_cells_up():
    """docs/cli.md, play: "each such cell shows a letter (`a)`, `b)`, ...)"; keyed grids are
    left-aligned so that the keys line up, empty keyed cells show the key alone, lines end at
    their last text."""
    from boardwright.cli.render import render_grid
    cells = {"0,0": ["red 5"], "2,1": ["x", "blue 3"], "1,0": []}
    assert render_grid(cells, keys={"1,0": "a", "0,1": "b"}) == [
        "      " + "     0     " + " " + "     1     " + " " + "     2     ",
        "    0    red 5    a)",
        "    1 b)" + " " * 25 + "blue 3+1"]


class Table(Named):
    """What render_table reads of a game: its title, zones' kinds, vars' screen names and types."""
    title, variant = "Race", "team"
    display_title = "Race (team)"           # as Game makes it from the two
    zone_meta = {"hand": ("pile",), "row": ("stack",)}
    cell_pictures: dict = {}
    var_display = {"starter": "Round starter", "blank": ""}
    hidden_vars = {"hidden"}
    per_player_vars = {"coins"}

    def __init__(self):
        from types import SimpleNamespace
        player = SimpleNamespace(name="player")
        self.var_types = {"starter": player, "seats": SimpleNamespace(element=player),
                          "nobody": SimpleNamespace(element=player), "round": SimpleNamespace(name="int")}

    def grid_shape(self, key, st=None):     # the screen passes the params it observed
        return None


def seen(**extra) -> dict:
    return {"turns": [2, 1], "players": 2, "log": [],
            "zones": {"supply": ["x"], "discard": [], "deck": {"size": 5}, "market": {"size": 3, "top": "red 5"},
                      "box": {"size": 0}, "hand/0": ["a", "b", "a"], "row": ["x", "y", "x"], "board": {"0,0": ["K"]},
                      "tableau/1": ["Mill", "Farm", "Mill"]},
            "details": {"tableau/1": ["cost 2", "", "cost 2"]},
            "vars": {"round": 2, "_count": 1, "hidden": 3, "blank": 4, "starter": 1, "coins": [3, 4, 9], "done": True,
                     "open": False, "last": None, "at": (1, 2), "seats": [0, 1], "nobody": []}, **extra}


def test_the_table_shows_each_kind_of_zone_and_var_as_the_play_docs_say(monkeypatch):
    """docs/cli.md, play: the table as a player sees it: the title with the variant and the turn
    (counted from 1), hidden zones as a count of face-down components, a `top` zone's size and
    top, a pile's equal components once with their count, a stack in order, a grid drawn, a
    zone's described components a line each; empty zones, the supply and bookkeeping vars left
    out; vars under their screen names, players as "Player N", yes/no, every player's value of
    a per-player var; the last three log lines."""
    from boardwright.cli.render import render_table
    monkeypatch.setenv("COLUMNS", "80")
    lines = render_table(Table(), seen(log=["one", "two", "three", "four"])).splitlines()
    assert lines == ["== Race (team) — turn 3",
                     "deck: 5 face down", "market: 3, top: red 5", "hand of Player 1: 2 x a, b", "row: x, y, x",
                     "board:", "       0  ", "    0  K  ",
                     "tableau of Player 2:", "  2 x Mill — cost 2", "  Farm",
                     "round: 2", "Round starter: Player 2", "coins: Player 1: 3, Player 2: 4", "done: yes",
                     "open: no", "last: —", "at: (1, 2)", "seats: Player 1, Player 2", "nobody: none",
                     "  · two", "  · three", "  · four"]
    first = render_table(Table(), {**seen(), "turns": [0, 0]}).splitlines()[0]
    assert first == "== Race (team) — turn 1"


@pytest.mark.parametrize("sealed, line", [
    ({"players": [0, 1], "chosen": [1], "yours": None}, "sealed choices: made by Player 2; waiting for Player 1"),
    ({"players": [0, 1], "chosen": [], "yours": None},
     "sealed choices: made by nobody; waiting for Player 1, Player 2"),
    ({"players": [0, 1], "chosen": [0, 1], "yours": "rock"},
     "sealed choices: made by Player 1, Player 2; waiting for nobody; yours: rock")])
def test_a_sealed_decision_says_who_has_chosen_and_who_is_waiting_not_what(monkeypatch, sealed, line):
    from boardwright.cli.render import render_table
    monkeypatch.setenv("COLUMNS", "80")
    assert render_table(Table(), seen(sealed=sealed)).splitlines()[-1] == line


def test_described_components_are_cut_then_named_with_counts_as_the_table_is_shortened(monkeypatch):
    """docs/cli.md, play: when the table is too tall it is drawn shorter, a step at a time:
    described components cut to one line (2), then named with their counts without details (3),
    then every line cut to the screen's width with '…' (4)."""
    from boardwright.cli.render import render_table
    monkeypatch.setenv("COLUMNS", "40")
    long = "cost " + "2 wood, " * 8
    view = seen(details={"tableau/1": [long, "", long]})
    whole = render_table(Table(), view, compact=0).splitlines()
    assert max(len(line) for line in whole) <= 40            # wrapped under its indentation, every word kept
    assert "  2 x Mill — " + long.rstrip() in "\n".join(whole).replace("\n      ", " ")
    cut = render_table(Table(), view, compact=2).splitlines()
    assert cut[cut.index("tableau of Player 2:") + 1] == ("  2 x Mill — " + long)[:39] + "…"
    named = render_table(Table(), view, compact=3).splitlines()
    assert "tableau of Player 2: 2 x Mill, Farm" in named
    shortest = render_table(Table(), {**view, "vars": {"round": "x" * 50}}, compact=4).splitlines()
    assert "round: " + "x" * 32 + "…" in shortest and max(len(line) for line in shortest) <= 40


def test_a_grid_of_pictures_is_framed_cell_by_cell_with_blocked_cells_shaded():
    """cli/render.py render_picture (docs/cli.md, play; docs/language.md, cell pictures): each
    cell's picture in a frame of '|' and '+--+', left-aligned and cut to the cell's size, the y
    axis at the picture's middle line, a fixed-size grid showing every cell, blocked ones shaded."""
    from types import SimpleNamespace

    from boardwright.cli.render import render_picture
    shape = SimpleNamespace(size=(3, 1), blocked=frozenset({(2, 0)}))
    assert render_picture({"0,0": ["AB", "c"], "1,0": ["XYZ"]}, (2, 2), shape) == [
        "       0  1  2 ",
        "      +--+--+--+",
        "      |AB|XY|░░|",
        "    0 |c |  |░░|",
        "      +--+--+--+"]


def test_a_piece_on_a_grid_of_pictures_shows_as_a_unit_and_a_key_sits_in_the_line_above_its_cell():
    """docs/cli.md, play: a piece with a shape has no line between two of its cells; a keyed
    cell has its key in the frame's line above it (cut to the cell's width)."""
    from boardwright.cli.render import render_picture
    glyphs = {"0,0": ["p"], "0,1": ["p"], "1,1": ["q"]}
    pieces = {"0,0": "P", "0,1": "P", "1,1": "P"}
    assert render_picture(glyphs, (1, 1), None, pieces=pieces, keys={"1,0": "b"}) == [
        "       0 1",
        "      +-+b+",
        "    0 |p| |",
        "      + +-+",
        "    1 |p q|",
        "      +-+-+"]
    assert render_picture({}, (1, 1), None) == ["    (empty)"]


def test_long_lines_wrap_under_their_indentation_and_frames_are_never_wrapped():
    """docs/cli.md, play: "long lines are wrapped, so an 80-column terminal shows everything";
    a wrapped line continues four columns in from its own indentation, whole words; a picture
    grid's frame lines ('|', '+') are never wrapped (pages keep them within the screen)."""
    from boardwright.cli.render import fit_lines
    frame = ["      +" + "-" * 30 + "+", "      |" + "x y " * 7 + "xy|"]
    words = "  " + " ".join(["word"] * 8)                  # 41 characters
    assert fit_lines(frame + [words, "short"], width=20).splitlines() == frame + [
        "  word word word", "      word word word", "      word word", "short"]
    assert fit_lines([words], width=41) == words


@pytest.mark.parametrize("lines, height", [("30", 30), ("5", 10), ("99999", 99999), ("123456", None), ("0", None),
                                           ("-3", None), ("abc", None), ("", None), ("٣٠", None)])
def test_the_screen_height_is_lines_when_it_is_a_plain_number_else_unlimited_off_a_terminal(monkeypatch, lines, height):
    """docs/cli.md, play: `LINES` overrides the terminal's size (at least 10 lines); "with the
    output going to a file or a pipe and no `LINES`, there is no limit". A `LINES` that is no
    plain positive number of at most 5 digits is ignored (here the output is no terminal)."""
    import io
    import sys

    from boardwright.cli.render import screen_height
    monkeypatch.setenv("LINES", lines)
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert screen_height() == height


def test_a_grid_of_pictures_drawn_a_line_a_cell_shows_each_cells_telling_line_and_a_legend(monkeypatch):
    """docs/cli.md, play: when the table is shortened, "a grid of pictures as a text grid of one
    line a cell (or a list of its occupied cells when that is too wide)"; the line of a picture
    shown is the one the fewest other cells share (a card's resource, not the 'resource card'
    common to many); a legend gives the rest of each picture, a picture's indented line
    continuing the line before it, and leaves out a first line a quarter of the pictures share.
    A picture whose first line is indented is no trouble (the census of round 9: a missing
    count read as None)."""
    from boardwright.cli.render import render_table
    monkeypatch.setenv("COLUMNS", "80")
    glyphs = {"0,0": ["resource card", "wood"], "1,0": ["resource card", "brick"],
              "2,0": ["Mill", "3 points", "  cost 2"], "0,1": [" indented first", "Farm"]}
    view = {"turns": [0], "players": 1, "vars": {}, "zones": {"market": {"0,0": ["x"]}}, "glyphs": {"market": glyphs}}
    lines = render_table(Table(), view, compact=1).splitlines()
    assert lines[1:] == ["market:",
                         "        0     1     2  ",
                         "    0 wood  brick Mill ",
                         "    1 Farm    .     .  ",
                         "  (2, 0) Mill: 3 points, cost 2",
                         "  (0, 1) Farm: indented first"]
    assert render_table(Table(), view, compact=2).splitlines()[1:] == lines[1:]         # the legend up to step 2
    assert render_table(Table(), view, compact=3).splitlines()[1:] == lines[1:5]        # none past it
    assert render_table(Table(), view, compact=4).splitlines()[1:] == [
        "market: (0, 0) wood; (1, 0) brick; (2, 0) Mill; (0, 1) Farm"]


def test_a_text_grid_that_just_fits_the_screen_is_whole_and_one_column_more_cuts_its_labels():
    """cli/render.py render_grid (docs/cli.md, play: "every line cut to the screen's width"): a
    grid whose lines are exactly as wide as the limit is drawn whole; one character less and the
    cells narrow until the lines fit, their labels cut with '…'. (The census of round 9's `width +
    2` in the test of the grid's width is equivalent: the width it then works out is the same.)"""
    from boardwright.cli.render import render_grid
    cells = {"0,0": ["abcdef"], "1,0": ["ghijkl"]}
    whole = ["        0      1   ", "    0 abcdef ghijkl"]            # 6 + 2 columns of 6 + 1 space
    assert render_grid(cells, width_limit=19) == whole and {len(line) for line in whole} == {19}
    assert render_grid(cells, width_limit=18) == ["        0     1  ", "    0 abcd… ghij…"]


def test_labels_of_several_lines_on_a_fixed_size_grid_are_framed_with_every_cell_and_blocked_ones_shaded():
    """cli/render.py render_grid (docs/language.md: a `label` may write "\\n"): such labels are
    drawn in a frame, and a grid with a size keeps its shape there: every cell, blocked ones
    shaded. Kills the shape dropped on the way to the frame (the census of round 9)."""
    from types import SimpleNamespace

    from boardwright.cli.render import render_grid
    shape = SimpleNamespace(size=(2, 1), blocked=frozenset({(1, 0)}))
    assert render_grid({"0,0": ["x", "a\nb"]}, shape) == [
        "       0 1", "      +-+-+", "      |a|░|", "    0 |b|░|", "      +-+-+"]


def test_keys_on_a_grid_of_labels_of_several_lines_sit_in_the_frame_above_their_cells():
    """docs/cli.md, play: a grid whose labels have several lines is framed, and a keyed cell's
    letter is in the frame's line above it, as on a grid of pictures. Kills the keys dropped on
    the way to the frame (the second census of round 9)."""
    from boardwright.cli.render import render_grid
    assert render_grid({"0,0": ["a\nb"]}, None, keys={"1,0": "c"}) == [
        "       0 1", "      +-+c+", "      |a| |", "    0 |b| |", "      +-+-+"]


def test_a_grid_zone_on_the_table_shows_the_keys_of_its_cells(monkeypatch):
    """docs/cli.md, play: options that name cells of a grid on the table are "keyed on the
    table: each such cell shows a letter"; render_table hands each grid zone its own keys.
    Kills the keys of a text grid looked up under None (the second census of round 9)."""
    from boardwright.cli.render import render_table
    monkeypatch.setenv("COLUMNS", "80")
    view = {"turns": [0], "players": 1, "vars": {}, "zones": {"board": {"0,0": ["K"]}}}
    assert render_table(Table(), view, keys={"board": {"1,0": "a"}}).splitlines()[1:] == [
        "board:", "       0    1  ", "    0    K a)"]


@pytest.mark.parametrize("tty, no_color, term, colour", [
    (True, "", "xterm", True), (False, "", "xterm", False), (True, "1", "xterm", False),
    (True, "", "dumb", False), (True, "", "", True)])
def test_colour_only_on_a_terminal_that_can_show_it_and_never_with_no_color(monkeypatch, tty, no_color, term, colour):
    """cli/render.py wants_colour (docs/cli.md, play; no-color.org): colour words are painted only
    when the output is a terminal, `NO_COLOR` is unset or empty, and `TERM` is not `dumb`. Kills
    the `dumb` terminal misspelt (the third census of render.py, round 9)."""
    from boardwright.cli.render import wants_colour

    class Stream:
        def isatty(self):
            return tty
    monkeypatch.setenv("NO_COLOR", no_color)
    monkeypatch.setenv("TERM", term)
    assert wants_colour(Stream()) is colour


def test_a_paged_grid_of_pictures_keeps_the_keys_of_its_cells_on_every_page():
    """docs/cli.md, play: a grid wider than the screen "is drawn in pages of columns", and a
    keyed cell shows its letter in the frame above it on whichever page holds it. Kills the
    keys dropped from the pages (the third census of render.py, round 9)."""
    from boardwright.cli.render import render_picture
    glyphs = {f"{x},0": [f"c{x}"] for x in range(4)}
    # 14 columns: 7 for the axis and frame, 3 for each 2-wide cell: two cells a page
    assert render_picture(glyphs, (2, 1), None, width_limit=14, keys={"3,0": "a", "0,0": "b"}) == [
        "       0  1 ", "      +b)+--+", "    0 |c0|c1|", "      +--+--+",
        "       2  3 ", "      +--+a)+", "    0 |c2|c3|", "      +--+--+"]
