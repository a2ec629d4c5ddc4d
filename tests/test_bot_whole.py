"""The MCTS setting `whole`: in a playout each sampled option is judged at the end of its
mover's move (the mover's next choices in the same turn made greedily), so a choice that
changes nothing by itself is judged by what it allows, not taken at random."""
from __future__ import annotations

import random

import pytest

from boardwright.dsl.errors import UsageError
from boardwright.interpreter.bots import _playout, make_bot

from conftest import make_small_game

# Seat 0 picks a plan, then a number (the plan alone changes nothing); seat 1 then scores 3.
TWO_STEPS = """\
game "Two steps"
players 2
data "cards.yaml"
var total: int per player = 0
play {
  turn 0 {
    choose plan from ["safe", "bold"] prompt "Plan"
    if plan == "safe" {
      choose n from [1, 2] prompt "Points"
      total[0] += n
    } else {
      choose n from [0, 5] prompt "Points"
      total[0] += n
    }
  }
  turn 1 { total[1] += 3 }
}
score p { "Points": total[p] }
"""


@pytest.fixture()
def position(tmp_path):
    game = make_small_game(tmp_path, TWO_STEPS)
    st = game.new_state(2, 1)
    assert list(st.pending.values) == ["safe", "bold"]
    return game, st


def plans_played(game, st, whole: int) -> set:
    plans = set()
    for seed in range(12):
        det = st.copy()
        _playout(game, det, 1, 2, whole, random.Random(seed))
        plans.add("bold" if list(det.pending.values) == [0, 5] else "safe")
    return plans


def test_a_whole_move_playout_judges_the_plan_by_its_best_follow_up(position):
    game, st = position
    assert plans_played(game, st, whole=1) == {"bold"}


def test_a_one_choice_playout_takes_either_plan(position):
    game, st = position
    assert plans_played(game, st, whole=0) == {"safe", "bold"}


def test_a_whole_move_playout_ends_the_move_as_judged(position):
    game, st = position
    det = st.copy()
    _playout(game, det, 2, 2, 1, random.Random(0))
    assert det.finished and list(game.result(det).scores) == [5, 3]


def test_whole_is_a_setting():
    assert make_bot("mcts:whole=1", 1).whole == 1
    assert "whole=1" in make_bot("mcts:whole=1", 1).describe()
    assert "whole" not in make_bot("mcts", 1).describe()
    with pytest.raises(UsageError, match="at most"):
        make_bot("mcts:whole=2", 1)
