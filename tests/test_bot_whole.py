"""The MCTS setting `whole`: in a playout each sampled option is judged at the end of its
mover's move (the mover's next choices in the same turn made greedily), so a choice that
changes nothing by itself is judged by what it allows, not taken at random."""
from __future__ import annotations

import random

import pytest

from boardwright.dsl.errors import UsageError
from boardwright.interpreter.bots.mcts import _playout
from boardwright.interpreter.bots.registry import make_bot

# Seat 0 picks a plan (alone it changes nothing), then a number: the position and its game.
from test_bot_follow import position  # noqa: F401  (a fixture)


def plans_played(game, st, whole: int) -> set:
    plans = set()
    for seed in range(12):
        det = st.copy()
        _playout(game, det, 1, 2, random.Random(seed), whole)
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
    _playout(game, det, 2, 2, random.Random(0), whole=1)
    assert det.finished and list(game.result(det).scores) == [5, 3]


def test_whole_is_a_setting():
    assert make_bot("mcts:whole=1", 1).whole == 1
    assert "whole=1" in make_bot("mcts:whole=1", 1).describe()
    assert "whole" not in make_bot("mcts", 1).describe()
    with pytest.raises(UsageError, match="at most"):
        make_bot("mcts:whole=2", 1)
