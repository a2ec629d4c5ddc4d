"""The MCTS setting `follow`: a root option stands for a whole move, followed by the seat's
best next choices in its turn, so the search compares whole moves, not halves of them."""
from __future__ import annotations

import pytest

from boardwright.dsl.errors import UsageError
from boardwright.interpreter.bots.mcts import MCTSBot
from boardwright.interpreter.bots.registry import make_bot

from conftest import make_small_game

# Seat 0 picks a plan, then a number; seat 1 then scores 3. "safe" can bring at most 2 (a sure
# loss), "bold" brings 5 (a win) or 0 (a loss): the whole move "bold, 5" is the only win.
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


def mean_for_seat_0(root, option: str) -> float:
    child = root.children[option]
    return child.total[0] / child.visits


def test_with_follow_every_visit_of_a_root_option_plays_its_best_follow_up(position):
    game, st = position
    root = MCTSBot(3, iterations=40, follow=10).search(game, st)
    assert root.children["bold"].visits > 0 and mean_for_seat_0(root, "bold") == 1.0
    assert mean_for_seat_0(root, "safe") == 0.0
    assert MCTSBot(3, iterations=40, follow=10).choose(game, st) == 1


def test_without_follow_the_tree_also_tries_the_losing_half(position):
    game, st = position
    root = MCTSBot(3, iterations=40).search(game, st)
    assert 0.0 < mean_for_seat_0(root, "bold") < 1.0


def test_follow_is_a_setting_with_a_budget():
    assert make_bot("mcts:follow=200", 1).follow == 200
    assert "follow=200" in make_bot("mcts:follow=200", 1).describe()
    assert "follow" not in make_bot("mcts", 1).describe()
    with pytest.raises(UsageError, match="at least 0"):
        make_bot("mcts:follow=-1", 1)
    with pytest.raises(UsageError, match="at most"):
        make_bot("mcts:follow=2000000", 1)
