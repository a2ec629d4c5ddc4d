"""Behaviour the mutation censuses of round 9 found unguarded in the views (the web table's
cli/web/looks.py, `boardwright fmt`'s dsl/formatter.py, `probe`'s interpreter/playtest/probe.py,
scenario files' interpreter/testing/scenario_file.py, the disk cache's dsl/cache.py), one module
at a time (tests/mutation_sample.py --files), and the survivors of the fresh sample of seed 31
(docs/testing.md "Round 9, the views"): each test here was seen failing with its mutant planted
and passing without it. The mutants each one kills are named in its docstring; each pins a whole
kind (every key of a view, every layout rule, every field of a diagnostic) rather than one
mutant."""
from __future__ import annotations

import pytest

TOKENS = ("provenance: test\ncomponents:\n  Token:\n    attributes: {n: int}\n    items:\n"
          "      - {n: 1}\n      - {n: 2}\n      - {n: 3}\n      - {n: 4}\n")


def _game(tmp_path, rules: str, data: str = TOKENS):
    from boardwright.interpreter.compile.load import load_game
    (tmp_path / "pieces.yaml").write_text(data)
    (tmp_path / "g.game").write_text(rules)
    return load_game(str(tmp_path / "g.game"))


# ---------------------------------------------------------------------------- seed 31's survivors
TWO_CHOICES = """\
game "Two choices"
players 2
var total: int per player = 0
play {
  turn 0 {
    choose a from [1, 2] prompt "First"
    choose b from [1, 3, 2] prompt "Second"
    total[0] += a * b
  }
  turn 1 {
    choose c from [1, 2] prompt "Other"
    total[1] += c
  }
}
score p { "Total": total[p] }
"""


def test_an_mcts_playout_judges_a_first_choice_by_the_best_second_choice_of_the_same_move(tmp_path):
    """interpreter/bots/whole_moves.py _whole_move_value (mcts's `whole` playouts): a choice is
    worth what the seat's move ends at when each later choice of the same turn is its best. Seat 0
    picks a in [1, 2] then b in [1, 3, 2] and scores a * b: a = 1 is worth 1 * 3, a = 2 is worth
    2 * 3 (the rules' arithmetic; the best b is neither the first nor the last option). Kills
    `_own_value(game, seat)` for each step's value (seed 31: no test reached it)."""
    from boardwright.interpreter.bots.whole_moves import _whole_move_value
    game = _game(tmp_path, TWO_CHOICES)
    st = game.new_state(2, 1)
    assert game.decision(st).prompt == "First"
    assert [_whole_move_value(game, st, i, 0) for i in range(2)] == [1 * 3, 2 * 3]
    assert game.decision(st).prompt == "First", "the position judged is not changed"


@pytest.mark.parametrize("seats,offered", [
    (["human", "human"], {"table": True, "0": False, "1": False}),
    (["human", "random"], {"table": True, "0": True}),
])
def test_save_and_load_are_offered_at_the_table_link_or_to_the_only_human_seat(tmp_path, seats, offered):
    """cli/web/table.py view: docs/cli.md ("Saving and loading are for the table link (or a table
    with one human seat): a save holds every seat's hidden cards"); the page shows its Save and
    Load buttons from the view's `can_save`, and knows its link from `link` and `you`. Kills
    `can_save=None` (seed 31, the survivor docs/testing.md listed as "the `link` of a view")."""
    from boardwright.cli.web.table import open_table
    from boardwright.interpreter.compile.load import load_game
    (tmp_path / "g.game").write_text(TWO_CHOICES)
    table, _ = open_table(str(tmp_path / "g.game"), None, 2, seats, 1, tmp_path / "saves", load_game)
    seen = {}
    for key, token in table.tokens.items():
        view = table.view(token)
        seen[key] = view["can_save"]
        assert (view["link"], view["you"]) == (("table", None) if key == "table" else ("seat", int(key)))
    assert seen == offered


def _own_boards() -> str:
    """Each seat marks a cell of its own 12 x 12 board: 132 options, more than an 80 x 30 screen
    lists, so the play screen keys them on the board (cli/table_keys.py)."""
    cells = ", ".join(f"({x}, {y})" for y in range(1, 12) for x in range(12))
    return ('game "Own boards"\nplayers 2\ndata "pieces.yaml"\nzone board: grid of Token size 12 x 12 per player\n'
            'zone bag: pile of Token\nsetup {\n  move components(Token) to bag\n'
            '  for p in players { move top(bag) to board[p] at (0, 0) }\n}\n'
            f'play {{\n  for p in players {{\n    turn p {{\n      choose c from [{cells}] prompt "Mark a cell"\n'
            '      move top(bag) to board[p] at c\n    }\n  }\n}\nscore p { "Tokens": size(board[p]) }\n')


def test_the_play_screen_keys_a_cell_choice_on_the_board_of_the_seat_that_decides(tmp_path, monkeypatch):
    """cli/play.py draw: options that name cells are keyed on the deciding seat's own grid
    (cli/table_keys.py: "a cell option names that cell in the seat's own grids"), for each seat
    of a hot-seat game; typing a key takes the cell it stands in. Kills `table_keys(game, st,
    None)` (seed 31: a seat of nobody owns no grid, so no option got a key)."""
    from test_play_screen_fit import WIDTH, Table
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    # both 12 x 12 boards are drawn whole (a fixed size: 13 lines each), so the keyed screen
    # needs about 35 lines: 40 leave room for it
    monkeypatch.setenv("LINES", "40")
    game = _game(tmp_path, _own_boards())
    # the first key goes to the first cell of the list, (0, 1); the 14th ("n": the keys skip "q",
    # quit's letter) to (1, 2), the row below
    table = Table(game, ["human", "human"], 1, ["a", "n"])
    table.run()
    for n, owner in enumerate(["Player 1", "Player 2"]):
        screen = table.screen(n)
        assert any(line.startswith(f"  or type the letter by a cell of the board of {owner} (a to ")
                   for line in screen), screen
    assert [move["id"] for move in table.session.moves] == ["0,1", "1,2"]


def test_a_grids_size_and_contents_compile_to_the_grids_own_index_read(tmp_path, capsys):
    """interpreter/compile/expressions.py: `size` and `contents` of a grid read the grid's index
    directly (interpreter/run/runtime.py grid_size, grid_contents: "one call fewer" than the
    dispatching built-in), as `compile --emit` shows; of a pile, `size` is the list's length.
    Kills `type_of(None)` for the grid test (seed 31: the dispatching built-in gives the same
    numbers, so only the code and its speed differed)."""
    from boardwright.cli.main import main
    rules = ('game "Reads"\nplayers 2\ndata "pieces.yaml"\nzone board: grid of Token\nzone bag: pile of Token\n'
             'var seen: int = 0\nvar held: list of Token = []\nsetup { move components(Token) to bag }\n'
             'play {\n  turn 0 {\n    choose n from [1, 2] prompt "Add"\n'
             '    seen = size(board) + size(bag)\n    held = contents(board)\n  }\n}\nscore p { "Seen": seen }\n')
    _game(tmp_path, rules)
    assert main(["compile", str(tmp_path / "g.game"), "--emit"]) == 0
    lines = capsys.readouterr().out.splitlines()
    sizes, held = (next(text for text in lines if text.strip().startswith(f"st.vars['{name}'] =")) for name in ("seen", "held"))
    assert "_grid_size(st, " in sizes and "len(st.zones[" in sizes and "_grid_contents(st, " in held, (sizes, held)
    assert "_B_" not in sizes + held, (sizes, held)


# ---------------------------------------------------------------------------- fmt
@pytest.mark.parametrize("formatted,message", [
    ('game "Tiny"\nplayers 3\n', "the formatter changed this file's meaning; it is left unchanged"),
    ('game "Tiny\nplayers 2\n', "the formatter broke this file; it is left unchanged"),
])
def test_fmt_refuses_a_result_that_is_not_the_same_rules_at_the_files_start_asking_for_a_report(
        tmp_path, capsys, monkeypatch, formatted, message):
    """dsl/formatter.py format_checked (docs/cli.md fmt: "the formatted file must parse to the same
    rules, or the file is left unchanged"): both ways the proof fails give the file's first
    column, the message and the hint to report it; a result that does not parse names its parse
    error (computed here by parsing it). `fmt` exits 1, quotes the file's own first line and
    leaves the file as it was. Kills the hint's `None` and `"PLEASE REPORT IT"` (round 9's census
    of the formatter) and `parse_text(text, )` (its second census: the quote showed the formatted
    line) and the default name `"XX<string>XX"`."""
    from boardwright.cli.main import main
    from boardwright.dsl import formatter
    from boardwright.dsl.errors import RuleFileError
    from boardwright.dsl.parser import parse_text
    text = 'game  "Tiny"\nplayers  2\n'
    path = tmp_path / "t.game"
    path.write_text(text)
    monkeypatch.setattr(formatter, "format_source", lambda source: formatted)
    hint = "please report it"
    try:
        parse_text(formatted, str(path))
    except RuleFileError as err:
        hint += f": {err.diagnostics[0].message}"
    with pytest.raises(RuleFileError) as caught:
        formatter.format_checked(text, str(path))
    [diag] = caught.value.diagnostics
    span = diag.span
    assert (span.file, span.line, span.column, span.end_line, span.end_column, diag.message, diag.hint) == \
        (str(path), 1, 1, 1, 1, message, hint)
    with pytest.raises(RuleFileError) as caught:         # a text without a file is named as parse_text names it
        formatter.format_checked(text)
    assert caught.value.diagnostics[0].span.file == "<string>"
    assert main(["fmt", str(path)]) == 1
    # the diagnostic quotes the file's own first line (docs/diagnostics.md), not the formatted one
    assert capsys.readouterr().err == f'{path}:1:1: error: {message}\n    game  "Tiny"\n    ^\n    hint: {hint}\n'
    assert path.read_text() == text


def test_continuing_lines_get_one_more_indent_and_declarations_blocks_and_case_arms_none():
    """dsl/formatter.py _starts_continuation (docs/cli.md fmt: "two spaces per open bracket, one
    more for a line that continues an expression"): a `prompt`, `label` or `id` line under a
    `choose` continues it, as a line starting with an operator or `then`/`else` of an `if`
    expression continues the line above; a `label NAME: TYPE = ...` declaration at the top level,
    an `elif`/`else` block after `}` and a case's `else:` arm start lines of their own; inside
    a list, a comprehension's `for` and `if` lines continue its first line. The layout
    below is written from those rules; both texts parse. Kills `depth != 0` for the declaration's
    test, `"ELSE"` for the block's and arm's, `"IF"` for the comprehension's (round 9's census of
    the formatter)."""
    from boardwright.dsl.formatter import format_source
    from boardwright.dsl.parser import parse_text
    expected = (
        'game "T"\nplayers 2\nparam n = 2\nlabel c: Card = if c == 1\n  then "a" else "b"\n'
        'play {\n  turn 0 {\n    choose m from [1, 2]\n      prompt "Pick"\n      label "{m}"\n      id "{m}"\n'
        '    let x = 1\n      + 2\n'
        '    if m == 1 {\n      x += 1\n    }\n    elif m == 2 {\n      x += 2\n    }\n    else {\n      x += 3\n    }\n'
        '    let y = case m {\n      1: "one"\n      else: "more"\n    }\n'
        '    let z = [k\n        for k in [1, 2]\n        if k > 1]\n  }\n}\n')
    flat = "".join(line.lstrip(" ") + "\n" for line in expected.splitlines())
    parse_text(flat, "t.game")
    assert format_source(flat) == expected


# ---------------------------------------------------------------------------- the web table's views
VIEWS_DATA = """\
provenance: test
components:
  Token:
    label: "T{n}"
    attributes: {n: int, colour: str}
    items:
      - {n: 1, colour: Red}
      - {n: 2, colour: plain}
      - {n: 3, colour: blue}
      - {n: 4, colour: green}
"""

VIEWS_RULES = """\
game "Views"
players 2
data "pieces.yaml"
zone bag: pile of Token
zone hand: pile of Token per player owner
var points: int per player = 0 "Points"
var _secret: int = 0
var round: int = 1 "Round"
var leader: player = 1 "Leader"
var rivals: player per player = 1 "Rival"
var team: list of player = [] "Team"
var done: bool = false "Done"
var spot: cell = (2, 3) "Spot"
setup {
  move components(Token) to bag
  for i in range(250) { log "line {i + 1}" }
  move top(bag) to hand[0]
}
play {
  turn 0 {
    choose n from [1, 2] prompt "Add"
    points[0] += n
  }
}
score p { "Points": points[p] }
"""


def test_the_web_view_of_a_small_game_is_every_key_the_page_reads_seat_by_seat(tmp_path):
    """cli/web/looks.py seat_view, zone_view, look, var_lines: the whole view of a small game, as
    its rules make it (written here by hand): the table's title, seats and move; each zone with
    its key, name, owner, kind and visibility, a pile's items bottom to top with their labels and
    colours (a colour word of the data, in lower case; "plain" is none), a zone the seat may not
    see as its size only; the vars by their screen names (`_secret` left out) with their values in
    words, as the terminal shows them (a player by name, also each seat's own, an empty list of
    players "none", a boolean "yes"/"no", a cell "(x, y)"); the
    log's latest lines, in order (docs/language.md: "the log keeps its latest lines (at least the
    last 100)"); the decision, its prompt and options only to the seat that makes it; the live
    scores until the end. Kills `st.log[+200:]` (round 9's census of looks.py: the page's log
    was always empty, the engine keeping at most 200 lines) and `_text(game, v, None)` for a
    per-player var (a seat shown as a number), and pins every other key."""
    from boardwright.cli.web.looks import seat_view
    game = _game(tmp_path, VIEWS_RULES, VIEWS_DATA)
    st = game.new_state(2, 1)
    seats = ["human", "random"]
    players = [{"seat": 0, "name": "Player 1", "plays": "human"}, {"seat": 1, "name": "Player 2", "plays": "random"}]
    bag = {"key": "bag", "name": "bag", "owner": None, "kind": "pile", "visibility": "public",
           "items": [{"label": "T1", "colour": "red"}, {"label": "T2"}, {"label": "T3", "colour": "blue"}], "size": 3}
    hand0 = {"key": "hand/0", "name": "hand", "owner": 0, "kind": "pile", "visibility": "owner",
             "items": [{"label": "T4", "colour": "green"}], "size": 1}
    hidden0 = {"key": "hand/0", "name": "hand", "owner": 0, "kind": "pile", "visibility": "owner", "hidden": True,
               "size": 1}
    hidden1 = {"key": "hand/1", "name": "hand", "owner": 1, "kind": "pile", "visibility": "owner", "hidden": True,
               "size": 0}

    def shown(points):
        return [{"name": "points", "title": "Points", "per_player": [str(p) for p in points]},
                {"name": "round", "title": "Round", "value": "1"},
                {"name": "leader", "title": "Leader", "value": "Player 2"},
                {"name": "rivals", "title": "Rival", "per_player": ["Player 2", "Player 2"]},
                {"name": "team", "title": "Team", "value": "none"},
                {"name": "done", "title": "Done", "value": "no"},
                {"name": "spot", "title": "Spot", "value": "(2, 3)"}]
    live = {"titles": ["Points"], "players": [{"seat": p, "name": f"Player {p + 1}", "lines": ["0"], "total": "0"}
                                              for p in range(2)]}
    options = [{"index": i, "id": str(n), "label": str(n), "targets": []} for i, n in enumerate([1, 2])]
    common = {"title": "Views", "variant": None, "finished": False, "turn": 1, "move": 0, "players": players,
              "current": 0, "scores": live}
    views = {seat: seat_view(game, st, seat, seats) for seat in (0, 1, None)}
    for seat, view in views.items():
        log = view.pop("log")
        assert log[-100:] == [f"line {n}" for n in range(151, 251)]
        assert log == [f"line {n}" for n in range(251 - len(log), 251)], "the latest lines, in order"
    assert views[0] == {**common, "seat": 0, "zones": [bag, hand0, hidden1], "vars": shown([0, 0]),
                        "decision": {"player": 0, "prompt": "Add", "options": options}}
    own1 = {**{k: v for k, v in hidden1.items() if k != "hidden"}, "items": []}
    for seat, zones in ((1, [bag, hidden0, own1]), (None, [bag, hidden0, hidden1])):
        assert views[seat] == {**common, "seat": seat, "zones": zones, "vars": shown([0, 0]),
                               "decision": {"player": 0, "prompt": None, "options": None}}
    game.apply_index(st, 1)                    # adds 2: the game is over
    view = seat_view(game, st, 0, seats)
    view.pop("log")
    del common["scores"]
    assert view == {**common, "seat": 0, "finished": True, "move": 1, "zones": [bag, hand0, hidden1],
                    "vars": shown([2, 0])}


GRIDS_RULES = """\
game "Grids"
players 2
data "pieces.yaml"
zone board: grid of Token size 3 x 2 blocked (1, 1) stacked
zone side: grid of Token extent 4 x 4
setup {
  let ts = components(Token)
  move ts[0] to board at (0, 0)
  move ts[1] to board at (0, 0)
  move ts[2] to side at (5, 5)
  move ts[3] to side at (6, 5)
}
play {
  turn 0 {
    choose t from contents(side) prompt "Pick"
    move t to board at (2, 1)
  }
}
score p { "Tokens": size(board) }
"""


def test_the_web_view_of_each_grid_is_its_cells_stacks_bounds_and_declared_shape(tmp_path):
    """cli/web/looks.py grid_view (docs/language.md's grid declarations: `size`, `blocked`,
    `stacked`, `extent`): each grid's cells with their stacks bottom to top, its size (components
    on it), its blocked cells, whether it stacks, its extent, and its bounds: the cells drawn, the
    whole board of a `size` grid, and the cells the options point at *on this grid* (a component
    option on the other grid does not widen it). Written from the setup by hand. Kills `or` for
    `and` in the options' cells (round 9's census of looks.py: the other grid's options widened the
    board) and `"STACKED"`."""
    from boardwright.cli.web.looks import seat_view
    game = _game(tmp_path, GRIDS_RULES, VIEWS_DATA)
    st = game.new_state(2, 1)
    view = seat_view(game, st, 0, ["human", "human"])
    grids = {z["key"]: {k: v for k, v in z.items() if k not in ("key", "name", "owner", "kind", "visibility")}
             for z in view["zones"]}
    t1, t2, t3, t4 = {"label": "T1", "colour": "red"}, {"label": "T2"}, {"label": "T3", "colour": "blue"}, \
        {"label": "T4", "colour": "green"}
    assert grids == {
        "board": {"cells": [{"cell": "0,0", "x": 0, "y": 0, "stack": [t1, t2]}], "bounds": [0, 0, 2, 1], "size": 2,
                  "blocked": ["1,1"], "stacked": True, "extent": None, "pieces": []},
        "side": {"cells": [{"cell": "5,5", "x": 5, "y": 5, "stack": [t3]}, {"cell": "6,5", "x": 6, "y": 5, "stack": [t4]}],
                 "bounds": [5, 5, 6, 5], "size": 2, "blocked": [], "stacked": False, "extent": [4, 4], "pieces": []},
    }
    assert [o["targets"] for o in view["decision"]["options"]] == [[{"zone": "side", "cell": "5,5"}],
                                                                   [{"zone": "side", "cell": "6,5"}]]


def test_each_run_of_commented_lines_aligns_its_comments_two_spaces_after_its_longest_line():
    """dsl/formatter.py _render (docs/cli.md fmt: "aligned trailing comments"): consecutive code
    lines with trailing comments form a run, ended by a line without one or a blank line; each
    run's comments start two spaces after its own longest line. Runs of one, two and three lines
    here, the widths counted by hand. Kills `j += 2` (round 9's census of the formatter: a run of
    odd length took in the line after it)."""
    from boardwright.dsl.formatter import format_source
    text = ('game "T"   # one\nplayers 2\nparam a = 1 # a\nparam bb = 22 # b\n\n'
            'param ccc = 333 # c\nparam d = 4 # d\nparam ee = 55 # e\nparam f = 6\n'
            'param g = 7 # g  \n# a note on hh \t\nparam hh = 88 # h\nplay {\nturn 0 { # the turn\n# inside\nlog "x"\n}\n}\n')
    assert format_source(text) == (
        'game "T"  # one\nplayers 2\nparam a = 1    # a\nparam bb = 22  # b\n\n'
        'param ccc = 333  # c\nparam d = 4      # d\nparam ee = 55    # e\nparam f = 6\n'
        'param g = 7  # g\n# a note on hh\nparam hh = 88  # h\nplay {\n  turn 0 {  # the turn\n    # inside\n'
        '    log "x"\n  }\n}\n')


# ---------------------------------------------------------------------------- probe
@pytest.mark.parametrize("bots,gold,message", [
    ("random,random", "mcts", "each bot may be probed once; give two settings to tell them apart"),
    ("random", "greedy", "the gold search must be an mcts bot (it values the options), not 'greedy': "
                         "e.g. --gold mcts:iterations=1000"),
])
def test_probe_refuses_a_bot_given_twice_and_a_gold_search_that_values_nothing_in_one_line(capsys, bots, gold, message):
    """interpreter/playtest/probe.py probe_decisions: each usage error is the one line
    `boardwright: error: MESSAGE` with exit 2 (docs/cli.md's exit statuses), the message whole:
    what is wrong and how to mend it. Kills the message's `"XX...XX"` (round 9's census of
    probe.py: the older test looked for "probed once" inside it)."""
    from boardwright.cli.main import main
    assert main(["probe", "punto", "--bots", bots, "--gold", gold]) == 2
    assert capsys.readouterr().err == f"boardwright: error: {message}\n"


DEAL = """\
game "Deal"
players 2
data "cards.yaml"
zone deck: stack hidden
zone hand: pile of Card per player owner
zone played: pile of Card
var total: int per player = 0
bot greedy "lookahead=7"
bot mcts "iterations=60:width=0"
setup {
  move components(Card) to deck
  shuffle deck
  for p in players {
    move top(deck) to hand[p]
    move top(deck) to hand[p]
  }
}
play {
  for round in range(2) {
    for p in players {
      turn p {
        choose c from contents(hand[p]) prompt "Play"
        total[p] += c.rank
        move c to played
      }
    }
  }
}
score p { "Points": total[p] }
"""


def test_probe_deals_simulates_games_and_describes_every_bot_with_the_games_declared_settings(tmp_path):
    """interpreter/playtest/probe.py (docs/cli.md probe: it "plays the games that `simulate --bots
    FIRST,OPPONENT --rotate` plays ... (the same seeds, seats and choices)"; bots take the rule
    file's declared `bot` settings where the spec gives none): each game is dealt from its
    simulate seed (`seed * 1,000,003 + index`), so the first position of each probed seat holds
    the hand that seed deals (computed here from the dealt state, the probed seat being the
    game's index modulo the players), and the gold search, the opponent and every probed bot are
    described with the declared settings; every figure of the report is rounded to the 4 places
    the text prints. Kills `new_state(players, )` (every game dealt from seed 0) and
    `make_bot(opponent, 0, None)` (the opponent described without the game's settings) (round
    9's census of probe.py), and `round(gold_cpu / len(rows), None)` (its second census)."""
    from conftest import SMALL_DATA, small_game_file

    from boardwright.interpreter.compile.load import load_game
    from boardwright.interpreter.playtest.probe import probe_decisions
    path = small_game_file(tmp_path, DEAL, SMALL_DATA)
    game = load_game(str(path))
    report = probe_decisions(game, 2, ["greedy", "random"], "mcts", "greedy", 2, 20, 2, 1)
    hands = []
    for index in range(2):
        st = game.new_state(2, 1 * 1_000_003 + index)
        if index == 1:
            game.apply_index(st, 0)         # seat 0 (the opponent) plays first; seat 1's hand stays
        hands.append(sorted(game.option_ids(st)))
    assert hands[0] != sorted(game.option_ids(game.new_state(2, 0))), "seed 0 deals another hand"
    firsts = {row["game"]: sorted(row["gold_values"]) for row in reversed(report["rows"])}
    assert [firsts[index] for index in range(2)] == hands
    assert [g["seed"] for g in report["per_game"]] == [1_000_003, 1_000_004]
    assert (report["opponent_settings"], [b["settings"] for b in report["bots"]]) == \
        ("greedy (lookahead=7)", ["greedy (lookahead=7)", "random"])
    assert report["gold_settings"].startswith("mcts (iterations=60, ") and report["gold_settings"].endswith(", width=0)")
    figures = [report["gold_cpu_per_decision"], *(b[k] for b in report["bots"] for k in ("regret", "cpu_per_decision")),
               *(v for row in report["rows"] for v in row["gold_values"].values())]
    assert report["gold_cpu_per_decision"] > 0 and all(f == round(f, 4) for f in figures), figures


TARGETS_RULES = """\
game "Targets"
players 2
data "pieces.yaml"
zone board: grid of Piece
zone hand: pile of Piece per player owner
zone discard: stack of Piece per player top
setup {
  move [q for q in components(Piece) if q.name == "ell"][0] to board at (0, 0) turned 0
  move [q for q in components(Piece) if q.name == "bar"][0] to hand[0]
  move [q for q in components(Piece) if q.name == "dot"][0] to discard[1]
  move [q for q in components(Piece) if q.name == "tee"][0] to discard[1]
}
play {
  turn 0 {
    choose m from placements_of(board, contents(hand[0]), [(5, 5)]) by 0 prompt "Lay"
    move m.piece to board at m.at turned m.turn
  }
  turn 0 {
    choose c from contents(discard[1]) prompt "Take"
    move c to hand[0]
  }
  turn 0 {
    choose x from [(7, 6), (-2, 1)] prompt "Mark"
  }
}
"""


def test_each_kind_of_option_points_at_what_the_deciding_seat_sees_and_widens_its_grid(tmp_path):
    """cli/web/looks.py option_targets, piece_look, grid_view (the module's docstring: "for the
    seat that decides, which cell or card each option names"): a placement's piece lies in the
    seat's own hand (a zone only its owner sees: `lies` with its place), a component option on
    top of another seat's `top` stack points at that top (the card below it at nothing), a cell
    option at that cell of the grid nobody owns; the cells the placements would cover and the
    cells the options name widen the grid's bounds. By hand from the data (tests/test_shapes.py:
    the ell a column of three with a foot to the right, the bar two across; components in data
    order: ell 0, bar 1, dot 2, tee 3). Kills, of the second census of looks.py (round 9),
    `visible_to(key, None)` in piece_look, `"cell" not in t` for the options' cells and
    `split("XX/XX")` for the zone's name of a `top` target."""
    from test_shapes import DATA as SHAPES_DATA

    from boardwright.cli.web.looks import seat_view
    game = _game(tmp_path, TARGETS_RULES, SHAPES_DATA)
    st = game.new_state(2, 1)

    def seen():
        view = seat_view(game, st, 0, ["human", "human"])
        return view["decision"], next(z["bounds"] for z in view["zones"] if z["key"] == "board")
    decision, bounds = seen()
    assert decision["pieces"] == {"1": {"label": "red bar", "colour": "red", "lies": {"zone": "hand/0", "pos": 0}}}
    # the ell covers (0, 0) to (1, 2); the bar over (5, 5): across from (4, 5) or (5, 5), upright from
    # (5, 4) or (5, 5): it reaches (6, 5) and (5, 6)
    assert bounds == [0, 0, 6, 6]
    game.apply_index(st, 0)                            # the bar across (4, 5) and (5, 5)
    decision, bounds = seen()
    assert [(o["label"], o["targets"]) for o in decision["options"]] == \
        [("blue dot", []), ("blue tee", [{"zone": "discard/1", "top": True}])]
    assert bounds == [0, 0, 5, 5]
    game.apply_index(st, 0)
    decision, bounds = seen()
    assert [o["targets"] for o in decision["options"]] == [[{"zone": "board", "cell": "7,6"}],
                                                          [{"zone": "board", "cell": "-2,1"}]]
    assert bounds == [-2, 0, 7, 6]


def test_a_piece_on_a_stacked_grid_is_one_unit_whose_cells_run_row_by_row_whatever_lies_under_them(tmp_path):
    """cli/web/looks.py pieces_on (its docstring: "the cells where it is the top of the stack (all
    it covers, unless a stacked grid has something on part of it), in the order of the cells (row
    by row)"): a bar laid across a dot and an ell is one piece covering both cells, left to right,
    though the component under its left cell came later in the data (dot 2, ell 0); the ell is a
    piece of the cells the bar leaves it (the ell is a column of three with a foot to the right,
    tests/test_shapes.py), the dot none. Kills sorting a row by the stack's bottom
    (`item[1][0]`) instead of the column (the second census of looks.py, round 9)."""
    from test_shapes import DATA as SHAPES_DATA

    from boardwright.cli.web.looks import seat_view
    rules = ('game "Under"\nplayers 2\ndata "pieces.yaml"\nzone board: grid of Piece stacked\nsetup {\n'
             '  move [q for q in components(Piece) if q.name == "dot"][0] to board at (4, 5) turned 0\n'
             '  move [q for q in components(Piece) if q.name == "ell"][0] to board at (5, 5) turned 0\n'
             '  move [q for q in components(Piece) if q.name == "bar"][0] to board at (4, 5) turned 0\n}\n'
             'play {\n  turn 0 {\n    choose n from [1, 2] prompt "Go"\n  }\n}\n')
    game = _game(tmp_path, rules, SHAPES_DATA)
    board = next(z for z in seat_view(game, game.new_state(2, 1), 0, ["human", "human"])["zones"] if z["key"] == "board")
    assert board["pieces"] == [{"label": "red bar", "colour": "red", "cells": ["4,5", "5,5"]},
                               {"label": "red ell", "colour": "red", "cells": ["5,6", "5,7", "6,7"]}]


TRAP = """\
game "Trap"
players 2
var points: int per player = 0
bot greedy "lookahead=0"
play {
  for p in players {
    turn p {
      choose a from [1, 2] prompt "Take"
      points[p] += a
      choose b from [0, 1] prompt "Bonus"
      if a == 1 and b == 1 {
        points[p] += 10
      }
    }
  }
}
score p { "Points": points[p] }
"""


def test_probed_bots_decide_with_the_games_declared_settings_where_their_spec_gives_none(tmp_path):
    """interpreter/playtest/probe.py: every probed bot decides as the rule file declares it
    (`bot greedy "lookahead=0"`) unless its spec says otherwise (docs/cli.md: greedy's
    `lookahead=0` "judges each choice alone"). Taking 1 leads to a bonus of 10 on the next choice
    of the same move, taking 2 gives 2 at once: judged alone, 2 is better; looked through the
    move, 1 is. So `greedy` (lookahead 0) takes 2 every time and `greedy:lookahead=5` 1. Kills
    `make_bot(spec, ..., None)` for the probed decisions (the second census of probe.py, round 9:
    the declared settings were dropped)."""
    from boardwright.interpreter.playtest.probe import probe_decisions
    game = _game(tmp_path, TRAP)
    report = probe_decisions(game, 2, ["greedy", "greedy:lookahead=5"], "mcts:iterations=200:width=0", "random",
                             1, 1, 2, 1)
    [row] = report["rows"]
    assert row["choices"] == {"greedy": ["2", "2"], "greedy:lookahead=5": ["1", "1"]}


# ---------------------------------------------------------------------------- scenario files
def test_a_scenario_files_schema_check_is_remembered_per_text_in_the_users_signed_cache(tmp_path, monkeypatch):
    """interpreter/testing/scenario_file.py check_shape (docs/security.md: every file of the disk
    cache is signed with the user's key): a scenario text that matched the schema is recorded in
    the cache as `scenario-valid-` and the first 32 hex digits of the SHA-256 of the schema's
    text, a NUL and the scenario's text (computed here), signed; read again, the text is not
    checked again; a changed text is. Kills the marker stored without its data and the digest's
    text encoded as "XXutf-8XX" (round 9's census of scenario_file.py: no quick test ran with the
    cache on)."""
    import hashlib

    from boardwright.dsl.cache import read_cache_file
    from boardwright.dsl.schema_words import schema_text
    from boardwright.interpreter.testing import scenario_file
    monkeypatch.setenv("BOARDWRIGHT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    path = tmp_path / "s.scenario.yaml"
    text = "name: a first move\ngame: punto\nplayers: 2\nexpect:\n  player: 0\n"
    path.write_text(text)
    checked = []
    real = scenario_file.validator
    monkeypatch.setattr(scenario_file, "validator", lambda name: checked.append(name) or real(name))
    assert scenario_file.load_scenario(path)["players"] == 2
    digest = hashlib.sha256((schema_text("scenario.schema.json") + "\0" + text).encode("utf-8")).hexdigest()
    assert [p.name for p in (tmp_path / "cache").glob("scenario-valid-*")] == [f"scenario-valid-{digest[:32]}"]
    assert read_cache_file(tmp_path / "cache" / f"scenario-valid-{digest[:32]}") == b"valid scenario"
    assert scenario_file.load_scenario(path)["players"] == 2
    assert checked == ["scenario.schema.json"], "the second read is not checked again"
    path.write_text(text + "seed: 3\n")
    assert scenario_file.load_scenario(path)["seed"] == 3
    assert len(checked) == 2 and len(list((tmp_path / "cache").glob("scenario-valid-*"))) == 2


def test_a_scenario_file_of_only_a_comment_is_refused_with_one_caret_under_its_first_character(tmp_path):
    """interpreter/testing/scenario_file.py node_span: a scenario without a YAML node fails at
    line 1, column 1, and the report quotes that line with one caret under its first character
    (a span of one character: docs/diagnostics.md "a caret under the place"). Kills the span's
    end at column 3 or on line 2 (round 9's census of scenario_file.py: two carets, or the whole
    line underlined)."""
    from boardwright.interpreter.testing.scenario import run_scenario
    path = tmp_path / "s.scenario.yaml"
    path.write_text("# nothing yet\n")
    [failure] = run_scenario(path).failures
    assert failure == (f"{path}:1:1: error: scenario: the file is empty: it must be a mapping (key: value lines)\n"
                       "    # nothing yet\n    ^")


@pytest.mark.parametrize("head", ["", "%YAML 1.3\n---\n"])
def test_a_scenario_nested_too_deep_is_refused_at_its_place_by_either_yaml_reader(tmp_path, head):
    """interpreter/testing/scenario_file.py read_with_positions: YAML nested deeper than the limit
    (dsl/yaml_checks.py, 100 levels) is refused at the list that goes too deep, in this file,
    whether libyaml reads it or, for a text libyaml refuses (a `%YAML 1.3` directive, which the
    pure-Python reader accepts), the pure-Python reader does. The top mapping is level 1, so
    the 100th `[` is level 101: its column is 7 (`state: `) + 100. Kills `_read_yaml(None, ...)`
    for the pure reader (round 9's census of scenario_file.py: `None:4:107`)."""
    from boardwright.dsl.yaml_checks import MAX_YAML_DEPTH
    from boardwright.interpreter.testing.scenario import run_scenario
    path = tmp_path / "s.scenario.yaml"
    path.write_text(head + "name: deep\nstate: " + "[" * (MAX_YAML_DEPTH + 1) + "]" * (MAX_YAML_DEPTH + 1) + "\n")
    [failure] = run_scenario(path).failures
    line = head.count("\n") + 2
    assert failure.splitlines()[0] == \
        f"{path}:{line}:{7 + MAX_YAML_DEPTH}: error: the YAML nests more than {MAX_YAML_DEPTH} levels deep [E702]"


LAUGHS = "name: laughs\ngame: punto\nx0: &x0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n" + "".join(
    f"x{i}: &x{i} [" + ", ".join([f"*x{i - 1}"] * 10) + "]\n" for i in range(1, 7))


@pytest.mark.parametrize("text,place,message", [
    ("name: loop\ngame: punto\nstate: &a [1, *a]\n", (3, len("state: ") + 1),
     "an alias is used inside the value it names"),
    (LAUGHS, (8, len("x5: ") + 1), "aliases repeat this value into more than 1000000 values"),
])
def test_a_scenario_whose_aliases_loop_or_multiply_is_refused_at_the_value_before_it_is_built(
        tmp_path, text, place, message):
    """interpreter/testing/scenario_file.py _read_yaml (docs/security.md: untrusted YAML): an
    alias inside the value it names, and aliases that repeat a value past a million values (x5
    holds 10 ** 6 ones, and its lists), are refused at that value, before the data is built.
    Kills `problem = None` for the alias check (round 9's census of scenario_file.py)."""
    from boardwright.interpreter.testing.scenario import run_scenario
    path = tmp_path / "s.scenario.yaml"
    path.write_text(text)
    [failure] = run_scenario(path).failures
    assert failure.splitlines()[0] == f"{path}:{place[0]}:{place[1]}: error: {message} [E702]"


def test_a_field_named_like_a_keyword_is_a_value_so_the_sign_after_it_is_an_operator():
    """dsl/formatter.py _join (docs/cli.md fmt: "one space around operators"): after a dot, a
    name is a field even when it is a word of the language (a placement's `turn`, docs/language.md),
    so `m.turn -1` subtracts and is written `m.turn - 1`; after `turn` as a statement, `-1` would
    be a negative number. Kills `"XX.XX"` for the dot (the second census of the formatter, round 9)."""
    from boardwright.dsl.formatter import format_source
    assert format_source("let a = m.turn -1\nlet b = m.to +2\nlet c = x -1\n") == \
        "let a = m.turn - 1\nlet b = m.to + 2\nlet c = x - 1\n"


# ---------------------------------------------------------------------------- the disk cache
def test_a_cache_file_is_the_magic_and_the_hmac_of_its_name_a_nul_and_its_data_in_a_private_folder(
        tmp_path, monkeypatch):
    """dsl/cache.py store_cache_file (docs/security.md: a cache file "begins with `BWC1` and an
    HMAC-SHA256, under a secret key, of the file's name, a NUL byte and its contents"; written
    0600 whatever the umask, in a folder made 0700): the bytes of a stored file, the signature
    computed here with the user's key, and the modes of a file and of the folder it made for it,
    under umask 022 (which leaves others' execute bit alone). Kills the signature's separator
    `b"XX\\0XX"` and the folder's mode `449` (0701) (round 9's census of dsl/cache.py)."""
    import hashlib
    import hmac
    import os
    import stat

    from boardwright.dsl import cache
    monkeypatch.setenv("BOARDWRIGHT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    path = tmp_path / "cache" / "inner" / "rules-x.bin"
    old = os.umask(0o022)
    try:
        cache.store_cache_file(path, b"data", keep=10)
    finally:
        os.umask(old)
    key = cache.key_file().read_bytes()
    assert path.read_bytes() == b"BWC1" + hmac.new(key, b"rules-x.bin\0data", hashlib.sha256).digest() + b"data"
    assert (stat.S_IMODE(path.stat().st_mode), stat.S_IMODE(path.parent.stat().st_mode)) == (0o600, 0o700)
    assert cache.read_cache_file(path) == b"data"


def test_a_link_planted_at_the_temporary_name_in_the_race_is_never_written_through(tmp_path, monkeypatch):
    """dsl/cache.py store_cache_file (docs/security.md: cache files are written to a temporary
    file made 0600, not through a symbolic link): should someone plant a link at the temporary
    file's name between its removal and its creation (the race, won here by patching the
    removal), the file it points at is left as it was and nothing is stored. Kills `O_EXCL &
    O_NOFOLLOW` for `|` (round 9's census of dsl/cache.py: the write followed the link)."""
    import pathlib

    from boardwright.dsl import cache
    monkeypatch.setenv("BOARDWRIGHT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious")
    path = cache.cache_dir() / "rules-x.bin"
    real_unlink, planted = pathlib.Path.unlink, []

    def unlink_then_plant(self, missing_ok=False):
        real_unlink(self, missing_ok=missing_ok)
        if self.name.startswith("rules-x.bin.") and not planted:
            planted.append(self)
            self.symlink_to(victim)
    monkeypatch.setattr(pathlib.Path, "unlink", unlink_then_plant)
    cache.store_cache_file(path, b"data", keep=10)
    assert planted and victim.read_bytes() == b"precious"
    assert not path.exists() and not planted[0].is_symlink()


def test_the_cache_key_is_read_from_its_file_once_per_process_not_once_per_cache_file(tmp_path, monkeypatch):
    """dsl/cache.py cache_key (its docstring: made the first time, then known): storing and
    reading several cache files reads the key file once. Kills `_KEYS.get(None)` (round 9's
    census of dsl/cache.py: the key file read again for every cache file)."""
    from boardwright.dsl import cache
    monkeypatch.setenv("BOARDWRIGHT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    reads, real = [], cache._read_key
    monkeypatch.setattr(cache, "_read_key", lambda path: reads.append(path) or real(path))
    folder = cache.cache_dir()
    for name in ("rules-a.bin", "rules-b.bin", "rules-c.bin"):
        cache.store_cache_file(folder / name, name.encode(), keep=10)
        assert cache.read_cache_file(folder / name) == name.encode()
    assert reads == [cache.key_file()] * 2, reads      # none yet, then the one it made


def test_a_pieces_label_declared_from_the_state_is_the_one_the_web_view_shows(tmp_path):
    """cli/web/looks.py pieces_on: a shaped piece on a grid is drawn with the label its `label`
    declaration gives in this state (docs/language.md `label`), here counting what is on the
    board: 1 with the ell alone, 2 once the bar is laid. Kills `look(game, None, c)` for the
    pieces (the third census of looks.py, round 9)."""
    from test_shapes import DATA as SHAPES_DATA

    from boardwright.cli.web.looks import seat_view
    rules = TARGETS_RULES.replace('zone discard: stack of Piece per player top\n',
                                  'zone discard: stack of Piece per player top\n'
                                  'label q: Piece = "{q.name} of {size(board)}"\n')
    game = _game(tmp_path, rules, SHAPES_DATA)
    st = game.new_state(2, 1)

    def labels():
        board = next(z for z in seat_view(game, st, 0, ["human", "human"])["zones"] if z["key"] == "board")
        return [p["label"] for p in board["pieces"]]
    assert labels() == ["ell of 1"]
    game.apply_index(st, 0)
    assert labels() == ["ell of 2", "bar of 2"]


def test_a_per_player_var_holding_a_longer_list_shows_one_value_per_seat_as_the_terminal_does(tmp_path):
    """cli/web/looks.py var_lines (its docstring: "the terminal's rules, cli/render.py"): a
    per-player var the rules set to a list longer than the seats (`points = [1, 2, 3]` for two
    players) shows one value per seat, as `play` prints "Points: Player 1: 1, Player 2: 2".
    Kills `players = None` (the third census of looks.py, round 9: the web page showed 3
    values)."""
    from boardwright.cli.web.looks import seat_view
    game = _game(tmp_path, 'game "PP"\nplayers 2\nvar points: int per player = 0 "Points"\n'
                           'setup { points = [1, 2, 3] }\nplay {\n  turn 0 { choose n from [1, 2] prompt "Go" }\n}\n')
    view = seat_view(game, game.new_state(2, 1), 0, ["human", "human"])
    assert view["vars"] == [{"name": "points", "title": "Points", "per_player": ["1", "2"]}]


@pytest.mark.parametrize("text", ["name: [1, 2\n", "name: x\n  game: punto\n", "a: 'open\n"])
def test_a_scenario_that_is_not_yaml_is_refused_at_the_readers_mark_with_its_problem_in_words(tmp_path, text):
    """interpreter/testing/scenario_file.py read_with_positions: a scenario that is not YAML
    fails at the place the YAML reader marks, with the reader's own words for the problem (not
    its whole report, which repeats the place): computed here with PyYAML's reader. Kills
    `getattr(exc, 'XXproblemXX', exc)` (the second census of scenario_file.py, round 9)."""
    import yaml

    from boardwright.interpreter.testing.scenario import run_scenario
    path = tmp_path / "s.scenario.yaml"
    path.write_text(text)
    with pytest.raises(yaml.YAMLError) as caught:
        yaml.load(text, Loader=yaml.SafeLoader)
    mark = caught.value.problem_mark
    [failure] = run_scenario(path).failures
    assert failure.splitlines()[0] == \
        f"{path}:{mark.line + 1}:{mark.column + 1}: error: invalid YAML: {caught.value.problem} [E702]"


def test_a_key_is_made_in_a_config_folder_that_exists_without_one(tmp_path, monkeypatch):
    """dsl/cache.py cache_key (docs/security.md: the key "is made on first use with mode 0600"):
    the user's `boardwright` config folder may exist already (made by hand, or the key deleted);
    the key is made in it all the same; a folder it makes is made 0700. Kills `mkdir` without
    `exist_ok` (the second census of dsl/cache.py, round 9: no key, so no disk cache) and without
    its mode (0755 under umask 022)."""
    import os
    import stat

    from boardwright.dsl import cache
    monkeypatch.setenv("BOARDWRIGHT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    (tmp_path / "config" / "boardwright").mkdir(parents=True, mode=0o700)
    key = cache.cache_key()
    assert key is not None and len(key) == 32 and key == cache.key_file().read_bytes()
    assert stat.S_IMODE(cache.key_file().stat().st_mode) == 0o600
    # a folder it makes itself is made 0700, whatever the umask leaves (022 here)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "fresh"))
    old = os.umask(0o022)
    try:
        assert cache.cache_key() is not None
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "fresh" / "boardwright").stat().st_mode) == 0o700


def test_a_fifo_at_the_keys_place_turns_the_cache_off_without_waiting_for_a_writer(tmp_path, monkeypatch):
    """dsl/cache.py _read_key (docs/security.md: the key is used "only when it is a regular file";
    a FIFO is "never opened for a blocking read"): a FIFO planted where the key belongs gives no
    key at once. Kills `getattr(None, "O_NONBLOCK", 0)` (the second census of dsl/cache.py, round
    9: the read waited for a writer forever; here the test opens one after 10 s to end it)."""
    import os
    import threading

    from boardwright.dsl import cache
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    fifo = cache.key_file()
    fifo.parent.mkdir(parents=True, mode=0o700)
    os.mkfifo(fifo, 0o600)
    found = []
    reader = threading.Thread(target=lambda: found.append(cache._read_key(fifo)), daemon=True)
    reader.start()
    reader.join(10)
    waited = reader.is_alive()
    if waited:
        os.close(os.open(fifo, os.O_WRONLY))      # let the blocked read end, then fail
        reader.join(10)
    assert not waited and found == [None]
    assert cache.cache_key() is None


def test_a_cache_file_of_exactly_the_size_limit_is_read_and_one_byte_more_is_not(tmp_path, monkeypatch):
    """dsl/cache.py read_cache_file (docs/security.md: a cache file is read only if it is "at
    most 256 MB"): at most means a file of the limit's size is read, one a byte larger is not
    (the limit lowered here to the size of a small file: the magic, the 32-byte signature and 4
    bytes of data). Kills `>=` for `>` (the second census of dsl/cache.py, round 9)."""
    from boardwright.dsl import cache
    monkeypatch.setenv("BOARDWRIGHT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    folder = cache.cache_dir()
    cache.store_cache_file(folder / "rules-a.bin", b"data", keep=10)
    cache.store_cache_file(folder / "rules-b.bin", b"data!", keep=10)
    monkeypatch.setattr(cache, "MAX_CACHE_FILE", len(b"BWC1") + 32 + len(b"data"))
    assert cache.read_cache_file(folder / "rules-a.bin") == b"data"
    assert cache.read_cache_file(folder / "rules-b.bin") is None


def test_a_cache_file_reached_through_a_symbolic_link_is_not_read_even_when_signed(tmp_path, monkeypatch):
    """dsl/cache.py read_cache_file (docs/security.md: a cache file is read only if it is "not a
    symbolic link (`O_NOFOLLOW`)"): a link at a cache entry's name pointing at a file signed by
    this user's key for that very name (in another cache folder) is not read. Kills `O_RDONLY &
    O_NOFOLLOW` for `|` (the second census of dsl/cache.py, round 9: the link was followed)."""
    from boardwright.dsl import cache
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    elsewhere = tmp_path / "other" / "rules-x.bin"
    cache.store_cache_file(elsewhere, b"data", keep=10)
    assert cache.read_cache_file(elsewhere) == b"data"
    link = tmp_path / "cache" / "rules-x.bin"
    link.parent.mkdir(mode=0o700)
    link.symlink_to(elsewhere)
    assert cache.read_cache_file(link) is None


def test_a_grid_cells_label_written_alone_is_pointed_at_when_no_component_has_it(tmp_path):
    """interpreter/testing/scenario_file.py node_span (docs/scenarios.md: a grid's cell holds a
    label, or a list of them): a cell's one label written alone (`"0,0": purple 5`, not a list)
    that names no component is reported at that label, though the runner's place for it is the
    first item of the cell's list (an index into a YAML text). Column 20: after
    `    table: {"0,0": `. Kills `or` for the last `and` of node_span's list step (the second
    census of scenario_file.py, round 9: it indexed into the text and failed inside)."""
    from boardwright.interpreter.testing.scenario import run_scenario
    path = tmp_path / "s.scenario.yaml"
    path.write_text('name: a lone label\ngame: punto\nplayers: 2\nseed: 1\nstate:\n  zones:\n'
                    '    table: {"0,0": purple 5}\n')
    [failure] = run_scenario(path).failures
    column = len('    table: {"0,0": ') + 1
    assert failure.splitlines()[:3] == [
        f"{path}:7:{column}: error: scenario: no free component labelled 'purple 5'",
        '        table: {"0,0": purple 5}', " " * (4 + column - 1) + "^" * len("purple 5")]


def test_signs_items_after_an_opening_bracket_line_endings_and_a_last_line_ending_in_x_keep_their_form():
    """dsl/formatter.py (docs/cli.md fmt: "Lines end at a newline (`\\n` or `\\r\\n`)"; "one space
    around operators"): a sign that starts a value is no operator (`-1`, `+2`, also first in a
    list); a line after one ending in `[` is the list's item, indented once, not a continuation;
    a file with `\\r\\n` line ends is written with `\\n`, the same as the file written with `\\n`;
    and nothing is taken from the end of the last line (one ending in `X`). Kills `"XX+XX"` for
    the unary `+`, `"XX[XX"` in the first test of _starts_continuation, the `\\r\\n` replaced by
    `"XX\\nXX"` and `rstrip("XX\\nXX")` (the third census of the formatter, round 9)."""
    from boardwright.dsl.formatter import format_source
    assert format_source("let a = -1\nlet b = +2\nlet c = [-1, +2]\n") == "let a = -1\nlet b = +2\nlet c = [-1, +2]\n"
    assert format_source("let xs = [\n-1,\n+2\n]\n") == "let xs = [\n  -1,\n  +2\n]\n"
    text = 'game "T"\nplayers 2\n# version X\n'
    assert format_source(text.replace("\n", "\r\n")) == format_source(text) == text


def test_a_key_file_reached_through_a_symbolic_link_is_not_used(tmp_path, monkeypatch):
    """dsl/cache.py _read_key (docs/security.md: the key is used only when it is "not reached
    through a symbolic link"): a link at the key's place pointing at a good key (32 bytes, 0600,
    the user's) gives no key, so the disk cache is off. Kills `O_RDONLY & O_NOFOLLOW` for `|` in
    the key's read (the third census of dsl/cache.py, round 9)."""
    import os

    from boardwright.dsl import cache
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    good = tmp_path / "elsewhere" / "cache-key"
    good.parent.mkdir(mode=0o700)
    good.write_bytes(os.urandom(32))
    good.chmod(0o600)
    assert cache._read_key(good) is not None
    link = cache.key_file()
    link.parent.mkdir(parents=True, mode=0o700)
    link.symlink_to(good)
    assert cache._read_key(link) is None and cache.cache_key() is None
