"""Behaviour of the engine, compiler, runtime, built-ins, `check` and the scenario runner that
the sampled mutation run found unguarded (docs/testing.md "Mutation testing"): each test
pins down what a designer sees (a value, a message, a position), with the expected value
worked out from the rules in the test or from docs/language.md and docs/cli.md.
"""
from __future__ import annotations

import itertools
import os
import textwrap

import pytest

from boardwright.dsl.errors import RuleError, UsageError
from boardwright.interpreter.compile.load import load_game
from boardwright.interpreter.testing.check import run_checks
from boardwright.interpreter.testing.coverage import coverage_report, measure_coverage
from boardwright.interpreter.testing.scenario import run_scenario, scenario_position
from conftest import small_body_file

CHAIN = os.path.join(os.path.dirname(__file__), "support", "chain.game")


def build(tmp_path, body: str):
    """A game of the six small cards (tests/conftest.py) with `body`: its line 1 is line 4."""
    return load_game(small_body_file(tmp_path, body))


def play_vars(tmp_path, body: str) -> dict:
    """The variables once play has run to its end (no decision in `body`)."""
    return build(tmp_path, body).new_state(2, seed=1).vars


def rule_error(tmp_path, body: str) -> RuleError:
    with pytest.raises(RuleError) as info:
        build(tmp_path, body).new_state(2, seed=1)
    return info.value


# ---------------------------------------------------------------- run-time errors and where they point
def test_a_rule_error_in_a_fn_names_each_fn_proc_and_play_that_called_it():
    # tests/support/chain.game: advance(n) adds n to the total, then step_value(total) reads
    # track[total] through square_at; the track has 8 squares (0..7). Choosing 3 three times
    # takes the total to 9: the third move fails at line 9, called from line 11 (fn
    # step_value), line 15 (proc advance) and line 23 (play), as docs/cli.md shows.
    game = load_game(CHAIN)
    st = game.new_state(2, seed=1)
    game.apply(st, "3")
    game.apply(st, "3")
    with pytest.raises(RuleError) as info:
        game.apply(st, "3")
    diagnostic = info.value.diagnostics[0]
    assert diagnostic.span.line == 9 and "an index out of range" in diagnostic.message
    assert list(diagnostic.called_from) == [f"{CHAIN}:11 (in fn step_value)", f"{CHAIN}:15 (in proc advance)",
                                            f"{CHAIN}:23 (in play)"]


def test_fail_stops_the_game_with_its_text_at_its_line(tmp_path):
    # docs/language.md "fail": a rule error at this line, its text with placeholders filled
    error = rule_error(tmp_path, """\
        var n: int = 3
        play {
          n = n + 1
          fail "the deck holds {n} cards"
        }
        """)
    diagnostic = error.diagnostics[0]
    assert diagnostic.message == "the deck holds 4 cards"
    assert diagnostic.span.line == 7                       # body line 4


def test_a_failing_if_condition_points_at_the_if_line_not_the_first_line_of_play(tmp_path):
    error = rule_error(tmp_path, """\
        var xs: list of int = [1]
        var n: int = 0
        play {
          n = 1
          log "before"
          if xs[n] > 0 { n = 2 }
        }
        """)
    diagnostic = error.diagnostics[0]
    assert "an index out of range" in diagnostic.message
    assert (diagnostic.span.line, diagnostic.span.column) == (9, 6)    # body line 6, at `xs[n]`


def test_arithmetic_on_none_is_a_rule_error_in_the_languages_words(tmp_path):
    error = rule_error(tmp_path, """\
        var n: int = none
        play {
          n = n + 1
        }
        """)
    diagnostic = error.diagnostics[0]
    assert diagnostic.span.line == 6
    assert diagnostic.message.startswith("rule failed: a value of the wrong kind here (none, or a list")
    assert "NoneType" not in diagnostic.message


# ---------------------------------------------------------------- values
def test_slices_from_zero_and_to_the_end(tmp_path):
    # docs/language.md's own example slices from max(0, ...): a bound of 0 is a bound
    values = play_vars(tmp_path, """\
        var r: list of int = []
        play {
          r = [1, 2, 3][0:2] + [4, 5, 6][1:] + [7, 8][0:0]
        }
        """)
    assert values["r"] == [1, 2, 5, 6]


def test_a_negative_slice_bound_is_a_rule_error(tmp_path):
    error = rule_error(tmp_path, """\
        var r: list of int = []
        var k: int = -1
        play {
          r = [1, 2, 3][k:]
        }
        """)
    assert error.diagnostics[0].message == "slice bound -1 is negative"


def test_max_and_min_of_one_list_are_its_largest_and_smallest_items(tmp_path):
    values = play_vars(tmp_path, """\
        var r: list of int = []
        var xs: list of int = [3, 9, 4]
        play {
          r = [max(xs), min(xs), max([c.rank for c in components(Card)]), max(xs[0], 5, 1)]
        }
        """)
    assert values["r"] == [9, 3, 3, 5]


@pytest.mark.parametrize("pick", ["max", "min"])
def test_max_and_min_of_an_empty_list_are_rule_errors(tmp_path, pick):
    error = rule_error(tmp_path, f"""\
        var r: int = 0
        var xs: list of int = []
        play {{
          r = {pick}(xs)
        }}
        """)
    assert error.diagnostics[0].message == f"{pick} of an empty list"


def test_a_cell_built_from_a_local_that_shares_an_enum_members_name_uses_the_local(tmp_path):
    # The small cards' enum Suit has a member `hearts`; a loop variable of that name hides it.
    values = play_vars(tmp_path, """\
        var r: list of cell = []
        play {
          for hearts in [1, 2] { r = r + [(hearts, 0)] }
        }
        """)
    assert values["r"] == [(1, 0), (2, 0)]


# ---------------------------------------------------------------- --set
PARAMS = """\
    param rounds = 3
    var r: int = 0
    play { r = rounds }
    """


def test_set_an_unknown_param_lists_the_params_and_suggests_the_closest(tmp_path):
    game = build(tmp_path, PARAMS)
    with pytest.raises(UsageError) as info:
        game.set_params({"rouns": "4"})
    # docs/cli.md: "no param 'win_lenght' in Punto; params: ...; did you mean 'win_length'?"
    assert str(info.value) == "no param 'rouns' in Tiny; params: rounds; did you mean 'rounds'?"


def test_set_a_whole_number_param_to_true_says_what_it_takes(tmp_path):
    game = build(tmp_path, PARAMS)
    with pytest.raises(UsageError) as info:
        game.set_params({"rounds": "true"})
    assert str(info.value) == "--set rounds=true: 'rounds' is a whole number (its default is int)"
    game.set_params({"rounds": "5"})
    assert game.new_state(2, seed=1).vars["r"] == 5


# ---------------------------------------------------------------- rule coverage
def test_a_for_loop_counts_as_one_statement_in_rule_coverage(tmp_path):
    game = build(tmp_path, """\
        var n: int = 0
        play {
          for p in players {
            n = n + 1
          }
          turn 0 { choose x from [1, 2] prompt "Pick" }
        }
        """)
    report = coverage_report(game, measure_coverage(game, [2], games=3, seed=1))
    counts = sorted((s["line"], s["count"]) for s in report["statement_counts"])
    # 3 games of 2 players: the for (line 6) runs once a game, its body (line 7) once per
    # player, the turn and its choose (line 9) once a game; the loop's stepping is no statement
    assert counts == [(6, 3), (7, 6), (9, 3), (9, 3)]
    assert report["statements"] == {"ran": 4, "total": 4}


# ---------------------------------------------------------------- check
def test_check_reports_a_game_that_plays_differently_on_a_replay_of_the_same_draws(tmp_path):
    game = build(tmp_path, """\
        param n = 2
        play { for p in players { turn p { choose x from range(1, n + 1) prompt "Pick" } } }
        """)
    honest, calls = game.new_state, itertools.count()

    def drifting(players, seed=0):      # the number of options changes from one game to the next
        game.param_overrides["n"] = 2 + next(calls) % 3
        return honest(players, seed)
    game.new_state = drifting
    report = run_checks(game, [2], examples=20, seed_value=3)
    assert report.failure is not None and report.failure.prop == "deterministic replay"
    assert "behaved differently" in report.failure.detail      # Hypothesis's explanation, kept


# ---------------------------------------------------------------- scenarios
def scenario(tmp_path, rules: str, text: str):
    small_body_file(tmp_path, rules)
    path = tmp_path / "s.scenario.yaml"
    path.write_text(textwrap.dedent(text))
    return path, run_scenario(path)


BROKEN_SETUP = """\
    var xs: list of int = []
    var r: int = 0
    setup { r = xs[1] }
    play { r = 1 }
    """


@pytest.mark.parametrize("last_line, position", [
    ("moves: []", "2:7"),           # no players key: at the game's value
    ("players: 2", "3:10"),         # at the player count the setup was run with
])
def test_a_setup_error_points_at_the_players_line_else_at_the_game_line(tmp_path, last_line, position):
    path, outcome = scenario(tmp_path, BROKEN_SETUP, f"name: broken setup\ngame: g.game\n{last_line}\n")
    assert len(outcome.failures) == 1
    assert outcome.failures[0].startswith(f"{path}:{position}: error: unexpected error while setting up the game")


def test_top_of_a_misspelt_stack_suggests_the_stack(tmp_path):
    path, outcome = scenario(tmp_path, """\
        zone deck: stack
        setup { move components(Card) to deck }
        play { turn 0 { choose x from [1, 2] prompt "Pick" } }
        """, """\
        name: misspelt
        game: g.game
        state:
          top:
            dek: [hearts 1]
        """)
    assert len(outcome.failures) == 1
    assert "scenario: 'top' needs a stack zone, not 'dek'" in outcome.failures[0]
    assert "did you mean 'deck'?" in outcome.failures[0]


def test_scenario_position_is_setup_then_the_starting_state_then_the_moves(tmp_path):
    game = build(tmp_path, """\
        var total: int = 0
        play {
          for p in players { turn p { choose x from [1, 2, 3] prompt "Pick" \n total = total + x } }
        }
        """)
    st = scenario_position(game, {"players": 2, "seed": 4, "state": {"vars": {"total": 10}}, "moves": ["3", "2"]})
    # 10 laid out before play, then the options 3 and 2 (ids number the options from 1)
    assert st.vars["total"] == 15 and st.history == ["3", "2"] and st.finished
    start = scenario_position(game, {"players": 2})
    assert start.vars["total"] == 0 and start.pending.player == 0 and not start.finished
