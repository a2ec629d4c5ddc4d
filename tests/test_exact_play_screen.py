"""The terminal play screen, exactly: every line of a whole session of a tiny game written
here (its brief, its screens, every command's answer, a wrong entry, a bot's move, the end),
compared with `==`, not `in`. The expected text is written by hand from the rule file below
and docs/cli.md's `play` part (the screen's layout, the commands' answers); a change of any
word, number or line of the screen shows as a failure to review (issue 26, round 10: string
and number mutants survive substring checks).

The game: two players add 1 or 2 in turn to their own total; the first to reach 5 ends the
game (the other then plays no more). `greedy` always adds 2 (its score grows most), so every
move of the session is known before it runs."""
from __future__ import annotations

import io
import json
import re
import sys

import pytest

from boardwright.cli.main import main
from boardwright.cli.play import HELP, Session
from boardwright.interpreter.compile.load import load_game

RACE = """\
game "Tiny race"
players 2
var total: int per player = 0 "Total"
brief p = "Reach 5 first by adding 1 or 2."
play {
  while total[0] < 5 and total[1] < 5 {
    for p in players {
      if total[0] < 5 and total[1] < 5 {
        turn p {
          choose n from [1, 2] prompt "Add"
          total[p] += n
        }
      }
    }
  }
}
score p { "Points": total[p] }
"""


@pytest.fixture
def race(tmp_path):
    path = tmp_path / "race.game"
    path.write_text(RACE)
    return path


def setup_of(path, seats: list) -> dict:
    """A new game's setup, as `play` makes it: seed 1, two players."""
    return {"game": str(path), "variant": None, "params": {}, "players": 2, "seed": 1, "seats": seats}


def play(capsys, monkeypatch, *argv, stdin: str, lines: str | None = None):
    """`boardwright play ARGV` at 80 columns, with no screen height (the whole table and list)
    unless `lines` gives one."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    monkeypatch.setenv("COLUMNS", "80")
    if lines is None:
        monkeypatch.delenv("LINES", raising=False)
    else:
        monkeypatch.setenv("LINES", lines)
    capsys.readouterr()
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def screen(turn: int, one: int, two: int) -> str:
    """The screen of Player 1's decision: a blank line, the table as docs/cli.md shows it
    (the game's title and turn, the per-player var under its screen name), the head line and
    the two options in columns; then the prompt."""
    return (f"\n== Tiny race — turn {turn}\nTotal: Player 1: {one}, Player 2: {two}\n"
            "Player 1, your move. Add:\n  1. 1  2. 2\n> ")


# HELP at 80 columns: wrapped at the last space that fits, continued with 4 spaces.
HELP_LINES = """\
(type a number, an option id or its label; 'board' draws the whole table, an
    empty line the screen again; a letter by a cell of the table chooses what it
    names; 'more' shows the next page of options, a group's name its options;
    'undo' takes back your last move, 'redo' makes it again; 'save FILE' saves
    the game, 'hint' asks the search bot, 'score' the score lines now, 'options'
    lists every option with its id, 'help' shows your goal and this, 'quit'
    leaves)"""


def test_the_help_text_is_the_one_wrapped_on_the_screen():
    assert " ".join(HELP_LINES.split()) == f"({HELP})"


def test_a_whole_session_every_line(capsys, monkeypatch, race, tmp_path):
    long_entry = "x" * 39 + "yz" + "w" * 5          # 46 characters: cut after the 40th
    typed = ["", "help", "foo", long_entry, "options", "undo", "redo", "save", "1", "undo", "redo",
             f"save {tmp_path}/none/s.json", f"save {tmp_path}/s.json", "score", "board", "2", "Add 2"]
    code, out, err = play(capsys, monkeypatch, str(race), "--seats", "human,greedy", "--seed", "3",
                          stdin="\n".join(typed) + "\n")
    expected = (
        "Player 1: Reach 5 first by adding 1 or 2.\n"
        + screen(1, 0, 0)
        # an empty line: the note, then the screen again
        + "(An empty line draws the screen again; type help for the commands.)\n" + screen(1, 0, 0)
        # help: the brief, then the commands
        + "Player 1: Reach 5 first by adding 1 or 2.\n" + HELP_LINES + "\n> "
        + "'foo' is not one of the options: type 1 to 2, an id, a label or a group's name;\n"
          "    'help' lists the commands.\n> "
        + "'" + "x" * 39 + "y...' is not one of the options: type 1\n"
          "    to 2, an id, a label or a group's name; 'help' lists the commands.\n> "
        + "Add:\n   1. 1\n   2. 2\n> "
        + "Nothing to undo.\n> Nothing to redo.\n> save needs a file name: save FILE\n> "
        # 1: Player 1 adds 1, greedy adds 2
        + "Player 2 (greedy): Add -> 2\n" + screen(3, 1, 2)
        + "Undone: back to your previous move. ('redo' makes it again.)\n" + screen(1, 0, 0)
        + "Redone: your move is made again.\n" + screen(3, 1, 2)
        + f"Could not save to {tmp_path}/none/s.json: No such file or directory\n> "
        + f"Saved to {tmp_path}/s.json; continue later with --load {tmp_path}/s.json.\n> "
        # score: the score lines now, a column per player (then the total)
        + "Scores now:\n            Player 1  Player 2\nPoints             1         2\n"
          "Total              1         2\n> "
        + screen(3, 1, 2)                       # board: the whole table, which is all of it
        # 2: Player 1 adds 2 (3), greedy adds 2 (4); "Add 2" is no option, label "2" is
        + "Player 2 (greedy): Add -> 2\n" + screen(5, 3, 4)
    )
    assert out.startswith(expected), _first_difference(out, expected)
    rest = out[len(expected):]
    # "Add 2" is not an option either (ids and labels are "1" and "2"), the input then ends
    assert rest == ("'Add 2' is not one of the options: type 1 to 2, an id, a label or a group's\n"
                    "    name; 'help' lists the commands.\n> \nInput ended: the game is abandoned.\n")
    assert code == 0 and err == ""
    saved = json.loads((tmp_path / "s.json").read_text())
    assert [(m["player"], m["seat"], m["prompt"], m["id"], m["label"]) for m in saved["moves"]] == \
        [(0, "human", "Add", "1", "1"), (1, "greedy", "Add", "2", "2")]
    assert saved["format"] == "boardwright-save/2" and saved["seats"] == ["human", "greedy"] \
        and saved["seed"] == 3 and saved["players"] == 2 and "log" not in saved
    # the bot's random state: Python's Mersenne Twister, 624 words and a position
    assert [(b["seat"], b["bot"], len(b["random"])) for b in saved["bots"]] == [(1, "greedy", 625)]
    assert set(saved["bots"][0]) == {"seat", "bot", "random"}


def _first_difference(out: str, expected: str) -> str:
    at = next((i for i, (a, b) in enumerate(zip(out, expected)) if a != b), min(len(out), len(expected)))
    return f"first difference at {at}: got {out[at - 80:at + 80]!r}, expected {expected[at - 80:at + 80]!r}"


def test_the_game_played_to_its_end_and_the_final_scores(capsys, monkeypatch, race):
    # Player 1 adds 2, 2, 1 (5); greedy adds 2, 2 (4) and does not play after 5 is reached.
    code, out, err = play(capsys, monkeypatch, str(race), "--seats", "human,greedy",
                          stdin="2\n2\n1\n")
    expected = ("Player 1: Reach 5 first by adding 1 or 2.\n" + screen(1, 0, 0)
                + "Player 2 (greedy): Add -> 2\n" + screen(3, 2, 2)
                + "Player 2 (greedy): Add -> 2\n" + screen(5, 4, 4)
                # the end: a blank line, the final table (of the last turn, the fifth), the scores
                + "\n== Tiny race — turn 5\nTotal: Player 1: 5, Player 2: 4\n"
                + "== Final scores\n  Player 1: 5  (Points 5)\n  Player 2: 4  (Points 4)\nWinner: Player 1\n")
    assert out == expected, _first_difference(out, expected)
    assert code == 0 and err == ""


def test_quit_and_the_end_of_input_name_the_log(capsys, monkeypatch, race, tmp_path):
    log = tmp_path / "g.log"
    for typed, ended in (("quit\n", "Goodbye"), ("", "Input ended")):
        code, out, _ = play(capsys, monkeypatch, str(race), "--seats", "human,greedy", "--log", str(log),
                            stdin=typed)
        assert out == ("Player 1: Reach 5 first by adding 1 or 2.\n" + screen(1, 0, 0)
                       + f"\n{ended}: the game is abandoned (its log is in {log}).\n")
        assert code == 0 and json.loads(log.read_text())["moves"] == []


def test_a_bot_move_too_long_for_the_screen_goes_on_a_line_of_its_own(monkeypatch):
    from boardwright.cli.play import bot_move_line
    monkeypatch.setenv("COLUMNS", "40")
    who = "Player 2 (greedy): Add"
    assert bot_move_line(who, "x" * 14) == who + " -> " + "x" * 14            # 40 characters: fits
    assert bot_move_line(who, "x" * 15) == who + "\n    -> " + "x" * 15      # 41: does not


SHOWN = RACE.replace("total[p] += n\n", "total[p] += n\n          show \"Added\"\n")


def test_a_command_typed_at_a_shows_pause_runs_at_the_next_prompt(tmp_path):
    path = tmp_path / "shown.game"
    path.write_text(SHOWN)
    game = load_game(str(path))
    setup = setup_of(path, ["human", "greedy"])
    lines, answers = [], iter(["1", "undo", "", "quit"])

    def ask(prompt):
        lines.append(prompt)
        return next(answers)
    session = Session(game, setup, game.new_state(2, 1), out=lines.append, ask=ask)
    session.pause = session._wait_for_enter
    assert session.run() == 0
    table = "== Tiny race — turn {}\nTotal: Player 1: {}, Player 2: {}"
    decision = "Player 1, your move. Add:"
    assert lines == [
        "Player 1: Reach 5 first by adding 1 or 2.",
        "", table.format(1, 0, 0), decision, "  1. 1  2. 2", "> ",
        # 1: the show after Player 1's move, its pause answered with "undo"
        "", "== Added", table.format(1, 1, 0), "(press Enter to continue) ",
        "('undo' will run at your next move prompt.)",
        # greedy's move and its show, its pause answered with Enter
        "Player 2 (greedy): Add -> 2", "", "== Added", table.format(2, 1, 2), "(press Enter to continue) ",
        "", table.format(3, 1, 2), decision, "  1. 1  2. 2",
        "> undo    (typed at the pause)", "Undone: back to your previous move. ('redo' makes it again.)",
        "", table.format(1, 0, 0), decision, "  1. 1  2. 2", "> ",
        "\nGoodbye: the game is abandoned."]


HINTED = """\
game "Nine doors"
players 2
var opened: int per player = 0 "Door"
play { turn players[0] { choose n from range(OPTIONS) prompt "Open" opened[0] = n } }
score p { "Door": 0 }
"""


@pytest.mark.parametrize("options", [8, 9])
def test_the_hint_lists_eight_options_and_counts_the_rest(tmp_path, monkeypatch, options):
    """Every option leads to the same score: the search sees no difference, and the lines
    (HINT_ROWS = 8 rows, the rest counted) are known but for the visits' order."""
    monkeypatch.setenv("COLUMNS", "80")
    path = tmp_path / "doors.game"
    path.write_text(HINTED.replace("OPTIONS", str(options)))
    game = load_game(str(path))
    setup = setup_of(path, ["human", "human"])
    lines = []
    Session(game, setup, game.new_state(2, 1), out=lines.append, ask=None).hint()
    # 60 iterations an option, at least 600
    assert lines[0] == "Thinking (600 search iterations)..."
    best = re.fullmatch(r" {2}( \d)\. (\d) +(\d+)  0\.500", lines[3])
    assert best, lines[3]
    assert lines[1] == (f"Hint: {best.group(2)} (option {int(best.group(2)) + 1}). The search bot tried each "
                        "option on positions sampled from\n    what you can see; value 1.000 is a certain win:")
    # the labels are one character, the numbers two columns wide: "option" over both
    assert lines[2] == "  option visits  value"
    rows = [re.fullmatch(r" {2}( \d)\. (\d) +(\d+)  0\.500", line) for line in lines[3:11]]
    assert all(rows), lines[3:11]
    assert all(int(r.group(1)) == int(r.group(2)) + 1 for r in rows)        # option k is door k - 1
    visits = [int(r.group(3)) for r in rows]
    assert visits == sorted(visits, reverse=True) and sum(visits) <= 600
    more = [f"  ... and {options - 8} more options, each visited less"] if options > 8 else []
    assert lines[11:] == more + ["  (the search sees no real difference between these options)"]


def test_a_hint_label_too_long_for_the_screen_is_cut_with_an_ellipsis(tmp_path, monkeypatch):
    """At 80 columns a label gets 80 - 25 = 55 characters: a longer one keeps 54 and '…'."""
    monkeypatch.setenv("COLUMNS", "80")
    long = "a" * 58
    path = tmp_path / "long.game"
    path.write_text(HINTED.replace("range(OPTIONS)", f'["{long}1", "{long}2"]').replace("opened[0] = n", "")
                    .replace("var opened: int per player = 0 \"Door\"\n", ""))
    game = load_game(str(path))
    setup = setup_of(path, ["human", "human"])
    lines = []
    Session(game, setup, game.new_state(2, 1), out=lines.append, ask=None).hint()
    assert lines[2] == "  " + "option".ljust(55 + 2 + 2) + " visits  value"
    rows = [re.fullmatch(r" {3}([12])\. (a{54})… +(\d+)  0\.500", line) for line in lines[3:5]]
    assert all(rows) and sorted(r.group(1) for r in rows) == ["1", "2"], lines[3:5]
    assert all(len(line) == 2 + 2 + 2 + 55 + 1 + 6 + 2 + 5 for line in lines[3:5])
    assert lines[5:] == ["  (the search sees no real difference between these options)"]


def test_the_final_table_fits_the_screen_with_the_scores_under_it(capsys, monkeypatch, tmp_path):
    """At 40 x 10 the final table gets 10 lines less the scores' 4 and 3 more (a blank line,
    the prompt's line, one to spare): under 4 lines. Its var line wraps to 3 lines, so the
    whole table (4 lines, 3 newlines) just fits and is drawn whole."""
    path = tmp_path / "long.game"
    path.write_text(RACE.replace('"Total"', '"Running total of the points each player has added so far"'))
    monkeypatch.setenv("LINES", "10")
    monkeypatch.setattr(sys, "stdin", io.StringIO("2\n2\n1\n"))
    monkeypatch.setenv("COLUMNS", "40")
    capsys.readouterr()
    assert main(["play", str(path), "--seats", "human,greedy"]) == 0
    out = capsys.readouterr().out
    assert out.split("> ")[-1] == ("\n== Tiny race — turn 5\nRunning total of the points each player\n"
                                   "    has added so far: Player 1: 5,\n    Player 2: 4\n"
                                   "== Final scores\n  Player 1: 5  (Points 5)\n  Player 2: 4  (Points 4)\n"
                                   "Winner: Player 1\n")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("seats, waits", [(["human", "greedy"], True), (["greedy", "greedy"], False)])
def test_a_show_waits_for_enter_only_with_a_person_at_a_terminal(monkeypatch, race, seats, waits):
    monkeypatch.setattr(sys, "stdin", _Terminal(""))
    game = load_game(str(race))
    setup = setup_of(race, seats)
    session = Session(game, setup, game.new_state(2, 1), out=[].append)
    assert (session.pause == session._wait_for_enter) is waits
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))          # no terminal: never waits
    other = Session(game, {**setup, "seats": ["human", "greedy"]}, game.new_state(2, 1), out=[].append)
    assert other.pause != other._wait_for_enter


def test_the_default_seats_are_a_person_then_random_bots(capsys, monkeypatch, race):
    # no --seats: human for seat 0, random for the others (docs/cli.md); Player 1 moves first
    code, out, err = play(capsys, monkeypatch, str(race), "--log", str(race.parent / "g.log"), stdin="q\n")
    assert out == ("Player 1: Reach 5 first by adding 1 or 2.\n" + screen(1, 0, 0)
                   + f"\nGoodbye: the game is abandoned (its log is in {race.parent / 'g.log'}).\n")
    assert json.loads((race.parent / "g.log").read_text())["seats"] == ["human", "random"]
    code, out, err = play(capsys, monkeypatch, str(race), "--seats", "human", stdin="")
    assert (code, out, err) == (2, "", "boardwright: error: --seats names 1 seat for 2 players\n")


def test_a_long_game_keeps_its_states_checkpointed_about_the_square_root_of_its_length(tmp_path):
    """ReplayedStates: a copy every 32 moves; past 64 copies (2 x the spacing) the spacing
    doubles and every other copy goes: at 2,048 moves, 65 copies become 33, 64 moves apart."""
    from boardwright.cli.play import replay_states
    path = tmp_path / "long.game"
    path.write_text('game "Long"\nplayers 2\nplay { for i in range(2100) { turn players[i % 2] '
                    '{ choose n from [1, 2] prompt "Add" } } }\nscore p { "Points": 0 }\n')
    game = load_game(str(path))
    setup = {"players": 2, "seed": 1, "moves": []}
    states = replay_states(game, setup)
    st = states[-1]
    seen = {}
    for k in range(1, 2049):
        setup["moves"].append({"id": "1"})
        game.apply(st, "1")
        states.grown(st)
        if k in (31, 32, 2047, 2048):
            seen[k] = (states.spacing, len(states.checkpoints))
    assert seen == {31: (32, 1), 32: (32, 2), 2047: (32, 64), 2048: (64, 33)}
    assert [len(c.history) for c in states.checkpoints] == list(range(0, 2049, 64))
    assert len(states[1000].history) == 1000 and states[-1] is st


@pytest.mark.parametrize("words, whole", [(32, True), (39, False)])
def test_a_show_draws_the_whole_table_when_it_fits_its_lines(tmp_path, monkeypatch, words, whole):
    """At 40 x 10 a show's table gets 10 lines less 3 (the blank line, its title, the pause):
    under 7. A var title of 32 words wraps the table to 7 lines, which fit; of 39 words to 8,
    which do not: every line is then cut to the screen's width."""
    from boardwright.cli.render import render_table
    monkeypatch.setenv("LINES", "10")
    monkeypatch.setenv("COLUMNS", "40")
    path = tmp_path / "shown.game"
    path.write_text(SHOWN.replace('"Total"', '"' + " ".join(["word"] * words) + '"'))
    game = load_game(str(path))
    setup = setup_of(path, ["human", "greedy"])
    lines = []
    session = Session(game, setup, game.new_state(2, 1), out=lines.append, pause=lines.append)
    session.show(session.st, "Added")
    full = render_table(game, game.observe(session.st, 0))
    assert full.count("\n") == (6 if whole else 7)
    cut = "word " * 7 + "word…"                 # 40 characters
    assert lines == ["", "== Added", full if whole else f"== Tiny race — turn 1\n{cut}", "Added"]


def test_a_wrong_entry_at_a_keyed_table_names_the_letters(capsys, monkeypatch):
    """docs/cli.md's Point City market at 80 x 30 (seed 3): 16 flips keyed on the market, one
    option listed; a wrong entry's message then names the letters too."""
    code, out, _ = play(capsys, monkeypatch, "point-city", "--seed", "3", stdin="zzz\nquit\n", lines="30")
    screen_end, wrong, last = out.split("> ")
    assert screen_end.endswith("\n   1. no flip\n  or type the letter by a cell of the market (a to p) to choose "
                               "what it names\n")
    assert wrong == ("'zzz' is not one of the options: type 1 to 17, a letter on the table, an id, a\n"
                     "    label or a group's name; 'help' lists the commands.\n")
    assert last == "\nGoodbye: the game is abandoned.\n" and code == 0


CLEANUP_DATA = """\
provenance: test data
components:
  Card:
    label: "{name}"
    attributes: {name: str}
    items:
      - {name: Ace}
      - {name: Two}
"""

# Each turn a card is put on the grid and taken off it again before a show: the show draws
# the table as the move left it (the card on the grid), with the note that says so.
CLEANUP = """\
game "Cleanup"
players 2
data "cards.yaml"
zone board: grid of Card size 2 x 1
zone box: pile of Card
setup { for c in components(Card) { move c to box } }
play {
  for round in range(2) {
    turn players[0] {
      choose c from contents(box) prompt "Place"
      move c to board at (0, 0)
      move c to box
      show "Cleared"
    }
  }
}
score p { "Points": 0 }
"""


def test_a_show_after_the_rules_cleared_the_grid_draws_the_table_the_move_left(capsys, monkeypatch, tmp_path):
    (tmp_path / "cards.yaml").write_text(CLEANUP_DATA)
    (tmp_path / "clean.game").write_text(CLEANUP)
    # Ace is the first component (index 0), Two the second
    code, out, _ = play(capsys, monkeypatch, str(tmp_path / "clean.game"), "--seats", "human,random",
                        stdin="Ace\nTwo\n")
    note = ("(the table as the last move left it, before the rules took components off the\n"
            "    grid)\n")                            # 87 characters: wrapped at 80

    # the 2 x 1 grid is drawn whole (a fixed size): its column numbers over it, the row number
    # before each row, each cell 4 wide (at least 4, and as wide as the widest card), a
    # label centred in it ('Ace ', ' .  ' for an empty cell)
    header = "       0    1  \n"

    def decision(turn, box, options):
        return (f"\n== Cleanup — turn {turn}\nboard:\n{header}    0  .    .  \nbox: {box}\n"
                f"Player 1, your move. Place:\n  1. {options[0]}  2. {options[1]}\n> ")

    def shown(turn, card, box):
        return f"\n== Cleared\n== Cleanup — turn {turn}\nboard:\n{header}    0 {card}   .  \nbox: {box}\n" + note
    assert out == (decision(1, "Ace, Two", ("Ace", "Two")) + shown(1, "Ace", "Two")
                   + decision(2, "Two, Ace", ("Two", "Ace")) + shown(2, "Two", "Ace")
                   # the show drew the last table: only the scores follow
                   + "== Final scores\n  Player 1: 0  (Points 0)\n  Player 2: 0  (Points 0)\n"
                     "Winner: Player 1 and Player 2\n")
    assert code == 0


OWN_BOARDS = """\
game "Own boards"
players 2
data "cards.yaml"
zone board: grid of Card size 5 x 5 per player
setup { for c in components(Card) { move c to board[if c.name == "Two" then 1 else 0] at (1, 1) } }
fn free(p: player) -> list of cell = [(i % 5, i // 5) for i in range(25) if i != 6]
play { turn players[0] { choose c from free(players[0]) prompt "Mark" } }
score p { "Points": 0 }
"""


@pytest.mark.parametrize("lines", ["21", "20"])
def test_cells_of_the_players_own_board_keyed_and_the_keys_line_wrapped(capsys, monkeypatch, tmp_path, lines):
    """Player 1 marks one of the 24 free cells of its own 5 x 5 board (Ace lies on (1, 1)).
    Both boards are drawn whole (a fixed size: 6 lines each). At 40 x 21 the 24 options do
    not fit beside the boards, so they are keyed on Player 1's board (the seat's own grid,
    not Player 2's): a to y without q, row by row. The line under the list is wrapped to 40
    columns, and counted as its 3 lines: at 40 x 20 the keyed screen would need 21 lines, so
    the options are grouped by row instead."""
    (tmp_path / "cards.yaml").write_text(CLEANUP_DATA)
    (tmp_path / "own.game").write_text(OWN_BOARDS)
    monkeypatch.setenv("COLUMNS", "40")
    monkeypatch.setenv("LINES", lines)
    monkeypatch.setattr(sys, "stdin", io.StringIO("b\n"))
    capsys.readouterr()
    assert main(["play", str(tmp_path / "own.game"), "--seats", "human,random"]) == 0
    out = capsys.readouterr().out

    def board(card: str) -> str:
        # 5 x 5, each cell 4 wide, the card centred on (1, 1), '.' on every empty cell
        empty = "  .    .    .    .    .  \n"
        return ("       0    1    2    3    4  \n" + "    0" + empty + f"    1  .   {card}   .    .    .  \n"
                + "".join(f"    {y}" + empty for y in (2, 3, 4)))
    others = "board of Player 2:\n" + board("Two")
    if lines == "20":
        assert out.startswith("\n== Own boards — turn 1\nboard of Player 1:\n" + board("Ace") + others
                              + "Player 1, your move. Mark:\n"
                              "  24 options in 5 groups (by row): type a group to list its options\n"
                              "  row 0 (5)  row 2 (5)  row 4 (5)\n  row 1 (4)  row 3 (5)\n> ")
        return
    screen = ("\n== Own boards — turn 1\nboard of Player 1:\n"
              "        0      1      2      3      4   \n"
              "    0 a)     b)     c)     d)     e)\n"
              "    1 f)        Ace g)     h)     i)\n"
              "    2 j)     k)     l)     m)     n)\n"
              "    3 o)     p)     r)     s)     t)\n"
              "    4 u)     v)     w)     x)     y)\n" + others
              + "Player 1, your move. Mark:\n"
              "  or type the letter by a cell of the\n      board of Player 1 (a to y) to\n      choose what it names\n> ")
    # b is (1, 0): the game's one move is made, and it ends with the final table
    final = ("\n== Own boards — turn 1\nboard of Player 1:\n" + board("Ace") + others
             + "== Final scores\n  Player 1: 0  (Points 0)\n  Player 2: 0  (Points 0)\nWinner: Player 1 and Player 2\n")
    assert out == screen + final
    assert len(screen.split("\n")) == 21            # from the blank line to the prompt: the screen's 21 lines


@pytest.mark.parametrize("lines, whole", [("13", True), ("12", False)])
def test_the_table_the_move_left_fits_above_the_note(tmp_path, monkeypatch, lines, whole):
    """A show of the table the move left takes 6 lines besides it at 40 columns (the blank
    line, its title, the note wrapped to 3 lines, the pause): at 40 x 13 the table's 7 lines
    (the `note` var wraps to two) fit under 7; at 40 x 12 they do not, and every line is cut
    to the screen's width."""
    monkeypatch.setenv("COLUMNS", "40")
    monkeypatch.setenv("LINES", lines)
    (tmp_path / "cards.yaml").write_text(CLEANUP_DATA)
    path = tmp_path / "clean.game"
    path.write_text(CLEANUP.replace("zone box: pile of Card\n", "zone box: pile of Card\n"
                                    'var note: int = 0 "A note long enough to wrap at forty columns"\n'))
    game = load_game(str(path))
    shown, typed = [], iter(["Ace", "quit"])
    Session(game, setup_of(path, ["human", "random"]), game.new_state(2, 1), out=shown.append,
            ask=lambda prompt: next(typed), pause=lambda title: None).run()
    at = shown.index("== Cleared")
    board = "board:\n       0    1  \n    0 Ace   .  \nbox: Two\n"      # the 2 x 1 grid whole: 3 lines, as before
    note = ("A note long enough to wrap at forty\n    columns: 0" if whole
            else "A note long enough to wrap at forty col…")
    assert shown[at + 1:at + 3] == [f"== Cleanup — turn 1\n{board}{note}",
                                    "(the table as the last move left it,\n    before the rules took components off\n"
                                    "    the grid)"]


def test_a_fixed_grid_without_glyphs_is_drawn_whole_even_empty_with_its_blocked_cells_shaded(tmp_path):
    """A grid of a fixed size is drawn whole as text, as one with glyphs is: before any move
    the empty 3 x 2 board is on the table (every cell '.'), its blocked (1, 0) shaded '░'."""
    from boardwright.cli.render import render_table
    (tmp_path / "cards.yaml").write_text(CLEANUP_DATA)
    path = tmp_path / "g.game"
    path.write_text(CLEANUP.replace("zone board: grid of Card size 2 x 1", "zone board: grid of Card size 3 x 2 blocked (1, 0)"))
    game = load_game(str(path))
    st = game.new_state(2, 1)
    table = render_table(game, game.observe(st, 0)).split("\n")
    # 3 columns of 4 (the widest text, '.', is under the least width), centred
    assert table[1:5] == ["board:", "       0    1    2  ", "    0  .    ░    .  ", "    1  .    .    .  "]
