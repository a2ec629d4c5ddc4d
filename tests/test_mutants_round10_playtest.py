"""Round 10, out10d's area (docs/testing.md "Round 10: out10d's area, exact outputs"): the
whole output of `check`, `check --coverage`, `test`, `sweep`, `compare`, `ladder`, `bench` and
the param ranges, compared with `==` line by line, on tiny games written here whose every
number can be worked out from their rules (times masked). A substring check let a message
changed to `XXtextXX` or `TEXT`, a wrong width or a dropped argument pass; these do not."""
from __future__ import annotations

import json
import math
import re
import textwrap

import pytest

from boardwright.cli.main import main

# Two seats; each takes one turn and must take the single option `1`, so every game is the same:
# the first seat ends with 1 point, the second with 1 + bonus + extra. Nothing is random.
TINY = """\
game "Tiny duel"
players 2

param bonus = 0
param extra = 0

var pts: int per player = 0

setup {
  pts[1] = bonus + extra
}

play {
  for p in players {
    turn p {
      choose n from [1]
      pts[p] += n
      if pts[p] > 5 {
        log "never"
      }
    }
  }
}

score p { "points": pts[p], "nothing": 0 }
measure "gap" = pts[0] - pts[1]
invariant "points stay small": pts[0] <= 1
"""

# Cards of ranks 1, 2, 3, 2 in data order; `setup` stacks them on the deck in that order (the
# last on top) and deals each seat the top card: seat 0 gets the second "card 2", seat 1 the
# "card 3", a third seat the first "card 2".
CARDS = """\
provenance: test
components:
  Card:
    label: "card {rank}"
    attributes: {rank: int}
    items:
      - {rank: 1}
      - {rank: 2}
      - {rank: 3}
      - {rank: 2}
"""

DEAL = """\
game "Little deal"
players 2..3
data "cards.yaml"
zone deck: stack hidden
zone hand: pile of Card per player owner
zone table: pile of Card
var total: int per player = 0
var rounds: int = 0
setup {
  move components(Card) to deck
  for p in players {
    move top(deck) to hand[p]
  }
}
play {
  for p in players {
    turn p {
      choose c from contents(hand[p]) prompt "Play a card"
      total[p] += c.rank
      move c to table
      log "{p} plays {c}"
    }
  }
  finish "played out"
}
score p { "Points": total[p], "Cards": 0 }
invariant "the table holds at most one card": size(table) < 2
"""


@pytest.fixture
def tiny(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tiny.game").write_text(TINY)
    return tmp_path


@pytest.fixture
def deal(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cards.yaml").write_text(CARDS)
    (tmp_path / "deal.game").write_text(DEAL)
    return tmp_path


def run(capsys, *argv) -> tuple[int, list[str], str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out.splitlines(), out.err


def wilson(k: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval (textbook formula), for the expected figures."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def share(k: float, n: int) -> str:
    low, high = wilson(k, n)
    return f"{k / n:.3f} ({low:.3f}..{high:.3f})"


# ------------------------------------------------------------------------------------ check
def test_check_says_how_many_games_steps_and_properties_in_one_line(tiny, capsys):
    """3 games of 2 decisions each: 6 steps; 1 invariant + the 7 universal properties of
    docs/cli.md's list. One game and its 2 steps: "1 game" (it said "1 games")."""
    assert run(capsys, "check", "tiny.game", "--examples", "3") == \
        (0, ["ok: Tiny duel: 3 games, 6 steps; 8 properties held after every step"], "")
    assert run(capsys, "check", "tiny.game", "--examples", "1") == \
        (0, ["ok: Tiny duel: 1 game, 2 steps; 8 properties held after every step"], "")


def test_check_coverage_is_the_whole_report_worked_out_from_the_rules(tiny, capsys):
    """`check --coverage` over 3 games, line by line: 6 statements (the assignment of setup, the
    `for`, the `turn`, the `choose`, the `+=`, the `log`; an `if` counts as branches: its `then`
    and "no condition held"), the log never runs; the choose decides twice a game; the score
    line "points" is non-zero in each of the 6 seat-games, "nothing" in none."""
    code, lines, err = run(capsys, "check", "tiny.game", "--examples", "3", "--coverage")
    assert (code, err) == (0, "")
    assert lines == [
        "ok: Tiny duel: 3 games, 6 steps; 8 properties held after every step",
        "Rule coverage of Tiny duel over 3 games",
        "  statements run: 5 of 6",
        "  branches taken: 1 of 2",
        "  decisions:",
        "    tiny.game:16: 6 x  choose n from [1]",
        "  score lines (seat-games where non-zero):",
        "    'points': 6 of 6",
        "    'nothing': 0 of 6",
        "  never happened:",
        '    tiny.game:19: statement never ran: log "never"',
        "  branches never taken:",
        "    tiny.game:18: then of: if pts[p] > 5 {",
    ]


def test_check_coverage_of_rules_that_all_ran_says_so(tmp_path, monkeypatch, capsys):
    """Without the dead `if`, every statement runs and the report ends with the line saying so."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tiny.game").write_text(TINY.replace('      if pts[p] > 5 {\n        log "never"\n      }\n', ""))
    code, lines, _ = run(capsys, "check", "tiny.game", "--examples", "2", "--coverage")
    assert code == 0 and lines[1:] == [
        "Rule coverage of Tiny duel over 2 games",
        "  statements run: 5 of 5",
        "  branches taken: 0 of 0",
        "  decisions:",
        "    tiny.game:16: 4 x  choose n from [1]",
        "  score lines (seat-games where non-zero):",
        "    'points': 4 of 4",
        "    'nothing': 0 of 4",
        "  everything ran at least once",
    ]


def test_check_failure_is_the_whole_report_and_its_scenario_the_whole_file(tiny, capsys):
    """An invariant false after the first move (`pts[0] < 1`): the report of the minimal game
    (one choice, "1"), the state (the supply empty, pts [1, 0]), where the scenario went; and the
    scenario file itself, key by key. "1 choice", not "1 choices"."""
    (tiny / "bad.game").write_text(TINY.replace("pts[0] <= 1", "pts[0] < 1"))
    code, lines, err = run(capsys, "check", "bad.game", "--examples", "3", "--out", "found.scenario.yaml")
    assert (code, err) == (1, "")
    assert lines == [
        'FAILED: invariant "points stay small" (bad.game:27)',
        "  does not hold",
        "  minimal game: 2 players, seed 0, 1 choice:",
        '    ["1"]',
        "  state at the failing step:",
        '    supply: {"size": 0}',
        "    pts = [1, 0]",
        "  scenario written to found.scenario.yaml: replay it with 'boardwright test found.scenario.yaml'",
    ]
    assert (tiny / "found.scenario.yaml").read_text().splitlines() == [
        "name: 'found by check: invariant \"points stay small\" (1 choice)'",
        "description: 'invariant \"points stay small\": does not hold'",
        "game: bad.game",
        "players: 2",
        "seed: 0",
        "moves:",
        "- '1'",
        "expect:",
        "  invariants: true",
        "  properties: true",
    ]
    assert run(capsys, "test", "found.scenario.yaml") == (1, [
        "FAIL found.scenario.yaml: found by check: invariant \"points stay small\" (1 choice)",
        "     found.scenario.yaml:9:3: error: invariant 'points stay small' (bad.game:27:1) does not hold",
        "           invariants: true",
        "           ^^^^^^^^^^",
        "0 passed, 1 failed"], "")


def test_the_integrity_check_fails_on_a_state_that_differs_in_any_one_way(monkeypatch):
    """check's JSON round trip property fails when the state read back is unequal though its JSON
    is the same, when its JSON differs though it compares equal, and when the copy differs
    (seed 32: `or` made `and` between the first two passed a state unequal to its original)."""
    from boardwright.interpreter.testing import check
    from conftest import cached_game
    game = cached_game("punto")
    st = game.new_state(2, 1)

    class Back:
        def __init__(self, data, equal, same_json):
            self.data, self.equal, self.same_json = data, equal, same_json

        def __eq__(self, other):
            return self.equal

        def __ne__(self, other):
            return not self.equal

        def to_json(self):
            return self.data if self.same_json else {**self.data, "extra": 1}

    message = ("the state round-trips through JSON and a copy equals its original: "
               "the state read back from JSON, or its copy, differs")
    for equal, same_json in ((False, True), (True, False)):
        monkeypatch.setattr(check.State, "from_json", staticmethod(lambda data, e=equal, s=same_json: Back(data, e, s)))
        with pytest.raises(check.PropertyFailed) as failed:
            check.state_properties(game, st)
        assert str(failed.value) == message
    monkeypatch.undo()
    monkeypatch.setattr(type(st), "copy", lambda self: Back({}, False, True))
    with pytest.raises(check.PropertyFailed) as failed:
        check.state_properties(game, st)
    assert str(failed.value) == message


ENDLESS = """\
game "Endless"
players 1
var n: int = 0
play {
  while true {
    turn 0 {
      choose go from ["on", "stop"]
      n += 1
      if go == "stop" {
        finish "stopped"
      }
    }
  }
}
score p { "n": n }
"""


def test_a_game_that_hypothesis_drives_past_the_step_limit_fails_as_the_step_limit(tmp_path, monkeypatch, capsys):
    """Each decision stops the game half the time, so check's plain random playout ends; but
    Hypothesis's choices shrink towards the first option ("on") and play past the step limit.
    That failure is "the game ends within the step limit", a whole report (seed 33: the error's
    "did not end" misread made it "every offered option applies without error"; so did the trial
    of the other options at the last step, and Hypothesis called the game flaky when a game that
    had found it skipped the games after it). The decision limit is lowered to 60 for speed."""
    from boardwright.interpreter.run import decisions
    monkeypatch.setattr(decisions, "DECISION_LIMIT", 60)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "endless.game").write_text(ENDLESS)
    code, lines, err = run(capsys, "check", "endless.game", "--examples", "5")
    assert (code, err) == (1, "")
    assert lines == [
        "FAILED: the game ends within the step limit (endless.game:7)",
        "  endless.game:7:7: error: the game did not end after 60 decisions; the last was made here",
        '            choose go from ["on", "stop"]',
        "            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        "      hint: check that the play block reaches its end or a 'finish' whatever the players choose",
        "  minimal game: 1 player, seed 0, 61 choices:",      # any "stop" ends the game: 61 times "on"
        "    " + json.dumps(["on"] * 61),
        "  state at the failing step:",
        '    supply: {"size": 0}',
        "    n = 60",
    ]
