"""`check`'s universal properties each fire on a game or engine that breaks them, and name
the property that broke (interpreter/testing/check.py's UNIVERSAL list)."""
from __future__ import annotations

import pytest

from boardwright.interpreter.compile.load import load_game
from conftest import small_body_file
from boardwright.interpreter.testing.check import UNIVERSAL, PropertyFailed, run_checks, state_properties

def build(tmp_path, body: str):
    return load_game(small_body_file(tmp_path, body))


HIDDEN = """\
zone bag: stack hidden
setup { move components(Card) to bag }
play { for p in players { turn p { choose x from [1, 2] prompt "Pick" } } }
"""


def test_an_endless_game_is_reported_as_such(tmp_path):
    game = build(tmp_path, """\
        play { while true { for p in players { turn p { choose x from [1, 2] prompt "Again?" } } } }
        """)
    report = run_checks(game, [2], examples=2, seed_value=1)
    assert report.failure is not None
    assert report.failure.prop == "the game ends within the step limit"
    assert "did not end after 100,000 decisions" in report.failure.detail


def test_a_state_that_differs_from_its_copy_fails(tmp_path, monkeypatch):
    game = build(tmp_path, HIDDEN)
    st = game.new_state(2, seed=1)
    state_properties(game, st)                      # a sound state passes

    def broken_copy(self):
        other = original_copy(self)
        other.vars = dict(other.vars, extra=1)
        return other
    original_copy = type(st).copy
    monkeypatch.setattr(type(st), "copy", broken_copy)
    with pytest.raises(PropertyFailed) as info:
        state_properties(game, st)
    assert info.value.prop == UNIVERSAL[1] == "the state round-trips through JSON and a copy equals its original"


def show_the_bag(game, state, seen):
    seen["zones"]["bag"] = [game.labels[c] for c in state.zones["bag"]]


def show_seat_1_the_options_of_seat_0(game, state, seen):
    seen["decision"] = {"player": 0, "options": ["1", "2"]}


@pytest.mark.parametrize("leak, detail", [
    (show_the_bag, "player 0 sees the contents of 'bag'"),
    (show_seat_1_the_options_of_seat_0, "player 1 sees another player's options"),
])
def test_an_observation_that_reveals_too_much_fails(tmp_path, monkeypatch, leak, detail):
    game = build(tmp_path, HIDDEN)
    st = game.new_state(2, seed=1)
    honest = game.observe

    def leaky(state, player):
        seen = honest(state, player)
        leak(game, state, seen)
        return seen
    monkeypatch.setattr(game, "observe", leaky)
    with pytest.raises(PropertyFailed) as info:
        state_properties(game, st)
    assert info.value.prop == "an observation never reveals a hidden zone's contents"
    assert info.value.detail == detail


def test_scores_that_are_not_numbers_fail_the_check(tmp_path, monkeypatch):
    game = build(tmp_path, HIDDEN)
    honest = game.result

    def wrong(st):
        result = honest(st)
        return type(result)(**{**result.__dict__, "scores": result.scores[:1]})
    monkeypatch.setattr(game, "result", wrong)
    report = run_checks(game, [2], examples=3, seed_value=1)
    assert report.failure is not None
    assert report.failure.prop == "final scores are numbers for every player"


def test_a_replay_that_ends_elsewhere_fails_the_check(tmp_path, monkeypatch):
    game = build(tmp_path, HIDDEN)
    honest = game.new_state
    calls = []

    def drifting(players, seed=0):
        calls.append(seed)
        return honest(players, seed + (1 if len(calls) % 2 == 0 else 0))
    game = build(tmp_path, HIDDEN.replace("setup {", "setup {\n shuffle bag\n"))
    honest = game.new_state
    monkeypatch.setattr(game, "new_state", drifting)
    report = run_checks(game, [2], examples=5, seed_value=3)
    assert report.failure is not None
    assert report.failure.prop in ("replaying the recorded choices from the seed reproduces the same game",
                                   "deterministic replay")


def test_max_steps_stops_a_game_early_without_a_failure(tmp_path):
    game = build(tmp_path, """\
        play { while true { for p in players { turn p { choose x from [1, 2] prompt "Again?" } } } }
        """)
    # The endless play-out before the fuzzing reports it; with a step cap the fuzzed games stop early.
    report = run_checks(game, [2], examples=2, seed_value=1, max_steps=3)
    assert report.games == 0
    assert report.failure is not None and report.failure.prop == "the game ends within the step limit"


LONG = """\
var n: int = 0
play {
  for r in range(301) {
    for p in players { turn p { choose x from [1, 2] prompt "Pick" n += x } }
  }
}
"""


def test_a_long_game_round_trips_through_json_at_fewer_steps_the_last_one_included(tmp_path, monkeypatch):
    from boardwright.interpreter.testing import check
    game = build(tmp_path, LONG)
    steps = []
    due = check.round_trip_due
    monkeypatch.setattr(check, "round_trip_due", lambda step, st: due(step, st) and not steps.append(step))
    report = run_checks(game, [2], examples=1, seed_value=1)
    assert report.failure is None and report.steps == 602
    # every one of steps 1 to 199, every 2nd to 299, every 3rd to 399, every 4th to 499, every
    # 5th to 599, every 6th from 600 (600 alone), and the last (602, not a 6th step):
    # 199 + 50 + 34 + 25 + 20 + 1 + 1
    assert steps[:199] == list(range(1, 200)) and steps[-2:] == [600, 602]
    assert len(steps) == 330 and 300 in steps and 301 not in steps



def test_a_long_game_draws_a_bounded_number_of_choices_through_hypothesis(tmp_path, monkeypatch):
    from boardwright.interpreter.testing import check
    game = build(tmp_path, LONG)
    monkeypatch.setattr(check, "HYPOTHESIS_CHOICES", 100)
    draws = []
    integers = check.strategies.integers
    monkeypatch.setattr(check.strategies, "integers", lambda *a: draws.append(a) or integers(*a))
    reports = [run_checks(game, [2], examples=1, seed_value=3) for _ in range(2)]
    assert [(r.failure, r.games, r.steps) for r in reports] == [(None, 1, 602)] * 2
    # the setup seed, 100 choices, the seed of the later choices; twice
    assert len(draws) == 2 * 102 and draws[101] == draws[-1] == (0, check.MAX_DRAW)
