"""The MCTS setting `margin`: a finished playout is worth half the victory and half a logistic
of the final score lead, so the search prefers a wide win to a narrow one (and a narrow loss
to a wide one) instead of counting every win alike."""
from __future__ import annotations

import math

import pytest

from boardwright.dsl.errors import UsageError
from boardwright.interpreter.bots.mcts import MCTSBot
from boardwright.interpreter.bots.registry import make_bot
from boardwright.interpreter.bots.values import final_value

from conftest import make_small_game

# Seat 0 scores 4 or 9, then seat 1 scores 3 and the game ends: both options win for seat 0.
TWO_WINS = """\
game "Two wins"
players 2
data "cards.yaml"
var total: int per player = 0
play {
  turn 0 {
    choose n from [4, 9] prompt "Points"
    total[0] += n
  }
  turn 1 { total[1] += 3 }
}
score p { "Points": total[p] }
"""


@pytest.fixture()
def position(tmp_path):
    game = make_small_game(tmp_path, TWO_WINS)
    st = game.new_state(2, 1)
    assert list(st.pending.values) == [4, 9]
    return game, st


def finished_after(game, st, index):
    end = st.copy()
    game.apply_index(end, index)
    assert end.finished
    return end


def test_the_value_of_a_finished_game_mixes_the_victory_and_the_score_lead(position):
    game, st = position
    narrow, wide = finished_after(game, st, 0), finished_after(game, st, 1)
    assert final_value(game, narrow, 0) == [1.0, 0.0] == final_value(game, wide, 0)
    logistic = lambda x: 1 / (1 + math.exp(-x))
    # 4 against 3 is a lead of 1, 9 against 3 one of 6; with a margin of 2 points:
    assert final_value(game, narrow, 2) == pytest.approx([(1 + logistic(0.5)) / 2, logistic(-0.5) / 2])
    assert final_value(game, wide, 2) == pytest.approx([(1 + logistic(3)) / 2, logistic(-3) / 2])


def mean_for_seat_0(root, option) -> float:
    child = root.children[option]
    return child.total[0] / child.visits


def test_with_a_margin_the_search_prefers_the_wider_win(position):
    game, st = position
    for seed in range(5):
        root = MCTSBot(seed, iterations=30, margin=2).search(game, st)
        assert mean_for_seat_0(root, 9) > mean_for_seat_0(root, 4)
        assert root.children[9].visits > root.children[4].visits
        assert MCTSBot(seed, iterations=30, margin=2).choose(game, st) == 1


def test_without_a_margin_every_win_counts_alike(position):
    game, st = position
    root = MCTSBot(3, iterations=30).search(game, st)
    assert mean_for_seat_0(root, 9) == mean_for_seat_0(root, 4) == 1.0


def test_margin_is_a_setting():
    assert make_bot("mcts:margin=4", 1).margin == 4
    assert "margin=4" in make_bot("mcts:margin=4", 1).describe()
    assert "margin" not in make_bot("mcts", 1).describe()
    with pytest.raises(UsageError, match="at least 0"):
        make_bot("mcts:margin=-1", 1)
    with pytest.raises(UsageError, match="at most"):
        make_bot("mcts:margin=2000000", 1)
