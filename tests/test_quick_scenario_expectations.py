"""Scenario expectations that fail, each with the message docs/scenarios.md promises, on a
tiny rule file (six cards: hearts and spades 1-3) and on Punto positions; bot puzzles
(docs/scenarios.md, "Bot puzzles") with the quick greedy and random bots."""
from __future__ import annotations

import textwrap

from boardwright.interpreter.testing.scenario import run_scenario

from conftest import SMALL_DATA

# A card is laid on the board at setup; then the players take turns taking a card of the
# deck of their choice into their hand, scoring its rank, until the deck is empty.
TINY = """\
game "Tiny"
players 2
data "cards.yaml"
zone deck: stack hidden
zone hand: pile per player
zone board: grid extent 5 x 5
var points: int per player = 0
setup {
  move components(Card) to deck
  move top(deck) to board at (0, 0)
}
play {
  let p = 0
  while not empty(deck) {
    turn p {
      choose card from contents(deck) prompt "Take a card" label "{card}"
      move card to hand[p]
      points[p] += card.rank
      log "{p} takes {card}"
    }
    p = next(p)
  }
  finish "deck empty"
}
score p { "Points": points[p] }
"""


def scenario(tmp_path, text: str, rules: str = TINY, name: str = "s"):
    (tmp_path / "cards.yaml").write_text(SMALL_DATA)
    (tmp_path / "tiny.game").write_text(rules)
    path = tmp_path / f"{name}.scenario.yaml"
    path.write_text(textwrap.dedent(text))
    return path, run_scenario(path)


def test_a_grid_laid_out_replaces_what_setup_put_there_and_cells_match_with_spaces(tmp_path):
    # setup put a card at 0,0; `zones` gives the grid's exact contents, so 0,0 is emptied
    _, outcome = scenario(tmp_path, """\
        game: tiny.game
        state:
          zones:
            board: {"1,1": [spades 2], "2,0": hearts 3}
            deck: [hearts 1, spades 1]
        moves: ["spades 1"]
        expect:
          zones:
            board: {"1, 1": [Spades 2], "2,0": hearts 3}
            hand/0: [spades 1]
            deck: [hearts 1]
          vars: {points: [1, 0]}
          log_includes: "takes spades 1"
          lines: [{Points: 1}, {Points: 0}]
          player: 1
          prompt: "Take a"
          endings: []
        """)
    assert outcome.passed, outcome.failures


def test_each_unmet_expectation_is_reported_with_its_reason(tmp_path):
    path, outcome = scenario(tmp_path, """\
        game: tiny.game
        state:
          zones:
            board: {"1,1": [spades 2]}
        expect:
          prompt: "Discard"
          zones:
            bored: []
            board: {"0,0": [spades 2]}
          endings: ["deck empty"]
          log_includes: "nothing like this"
          lines: [{Points: 5}, {}, {Points: 0}]
        """)
    assert not outcome.passed
    heads = [f.splitlines()[0].split(": error: ", 1)[1] for f in outcome.failures]
    assert heads == [
        "prompt: expected 'Discard', got 'Take a card'",
        "zones: no zone 'bored'; zones: deck, hand/0, hand/1, board, supply (did you mean 'board'?)",
        "zones: board expected {'0,0': ['spades 2']}, holds {'1,1': ['spades 2']}",
        "endings: expected ['deck empty'], got []",
        "log: no line contains 'nothing like this'; log ends []",
        "score line 'Points' of seat 0: expected 5, got 0",
        "score line 'Points' of seat 2: expected 0, got None",     # no seat 2 in a 2-player game
    ]
    # each failure points at its expectation's line in the file (prompt: line 6, zones: 7, lines: 12)
    assert outcome.failures[0].startswith(f"{path}:6:")
    assert outcome.failures[1].startswith(f"{path}:7:")
    assert outcome.failures[-1].startswith(f"{path}:12:")


def test_a_cell_must_be_written_x_comma_y(tmp_path):
    path, outcome = scenario(tmp_path, """\
        game: tiny.game
        state:
          zones:
            board: {"one,two": [spades 2]}
        """)
    [failure] = outcome.failures
    assert "scenario: 'board': a cell key is two integers `x,y`, got `one,two`" in failure
    assert failure.startswith(f"{path}:4:")


def test_a_bot_puzzle_without_a_decision_fails(tmp_path):
    # an empty deck: play ends at once with the named ending, and nobody has a choice to make
    _, outcome = scenario(tmp_path, """\
        game: tiny.game
        state:
          zones: {deck: []}
        expect:
          finished: true
          endings: ["deck empty"]
          bot_chooses: {bots: random, one_of: [0]}
        """)
    assert [f.splitlines()[0].split(": error: ", 1)[1] for f in outcome.failures] == \
        ["bot_chooses: there is no decision to make"]


def test_a_rule_error_while_checking_expectations_is_a_failure_that_says_so(tmp_path):
    rules = TINY.replace('score p { "Points": points[p] }',
                         'score p { "Points": points[p] + first([r for r in [1, 2] if r > 5]) }')
    path, outcome = scenario(tmp_path, "game: tiny.game\nexpect:\n  scores: [0, 0]\n", rules)
    [failure] = outcome.failures
    assert failure.startswith(f"{path}:2:1: error: a rule error while checking the expectations")
    assert "first of an empty list" in failure


def test_a_crash_inside_the_runner_is_reported_as_an_internal_error(tmp_path, monkeypatch):
    # a bug in the checker itself (planted here) is reported as Boardwright's bug instead of
    # crashing the run
    from boardwright.interpreter.testing import scenario as runner

    def broken(game, st, expect):
        raise AttributeError("'int' object has no attribute 'items'")
    monkeypatch.setattr(runner, "check_expectations", broken)
    _, outcome = scenario(tmp_path, "game: tiny.game\nexpect:\n  finished: false\n")
    [failure] = outcome.failures
    assert "internal error: AttributeError" in failure
    assert "(a bug in Boardwright, not in this scenario; please report it)" in failure.splitlines()[0]


# ------------------------------------------------------------------ bot puzzles on Punto

# docs/scenarios.md's puzzle "red 5 completes red 1-4 at either end": the winning spots are
# (4, 0) and (-1, 0).
WINNING_SPOT = """\
name: take the winning spot
game: punto
players: 2
seed: 3
state:
  zones:
    table: {"0,0": [red 1], "1,0": [red 2], "2,0": [red 3], "3,0": [red 4]}
  top:
    deck/0: [red 5]
expect:
  player: 0
  bot_chooses:
"""


def puzzle(tmp_path, lines: str):
    path = tmp_path / "p.scenario.yaml"
    path.write_text(WINNING_SPOT + textwrap.indent(textwrap.dedent(lines), "    "))
    return run_scenario(path)


def test_greedy_takes_the_winning_spot(tmp_path):
    outcome = puzzle(tmp_path, """\
        bots: [greedy]
        one_of: ["4,0", "(-1, 0)"]
        seeds: 2
        """)
    assert outcome.passed, outcome.failures


def test_a_puzzle_fails_when_the_bot_chooses_another_option(tmp_path):
    outcome = puzzle(tmp_path, """\
        bots: greedy
        one_of: ["0,1"]
        """)
    [failure] = outcome.failures
    head = failure.splitlines()[0]
    assert "bot_chooses: greedy (seed 0) chose " in head and "expected one of ['0,1']" in head
    chosen = head.split(" chose ")[1].split(" ")[0]
    assert chosen in ("4,0", "-1,0"), "greedy took a winning spot, not the one the puzzle asked for"


def test_a_puzzle_names_options_that_do_not_exist_and_bad_bots(tmp_path):
    outcome = puzzle(tmp_path, """\
        bots: [genius]
        one_of: ["9,9", "4,0"]
        """)
    heads = [f.splitlines()[0].split(": error: ", 1)[1] for f in outcome.failures]
    assert len(heads) == 2
    assert heads[0].startswith("bot_chooses: '9,9' is not an option (") and "4,0" in heads[0]
    assert heads[1].startswith("bot_chooses: ") and "unknown bot" in heads[1]
