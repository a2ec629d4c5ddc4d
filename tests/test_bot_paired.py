"""The MCTS setting `paired` (flat Monte Carlo with common random numbers: every shortlisted
root option is played from the same determinization with the same playout luck) and the
shortlist of one (`width=1` with a single best option: no search at all)."""
from __future__ import annotations

import pytest

from boardwright.dsl.errors import UsageError
from boardwright.interpreter.bots.mcts import MCTSBot
from boardwright.interpreter.bots.registry import make_bot

from conftest import make_small_game
from test_bot_follow import position  # noqa: F401  (a fixture: "safe" or "bold", then a number)

# Seat 0 takes a bonus of 0 or 1, then draws a hidden card worth 10 points per rank (1 to 3);
# seat 1 has 20. The bonus is always worth one point more, whatever the card: a tie (rank 2)
# becomes a win. The card decides far more than the bonus.
LUCK = """\
game "Luck"
players 2
data "cards.yaml"
zone deck: stack of Card hidden
zone drawn: pile of Card
var total: int per player = 0
setup {
  move components(Card) to deck
  shuffle deck
}
play {
  turn 0 {
    choose bonus from [0, 1] prompt "Bonus"
    let c = top(deck)
    move c to drawn
    total[0] += 10 * c.rank + bonus
  }
  turn 1 { total[1] += 20 }
}
score p { "Points": total[p] }
"""


@pytest.fixture()
def luck(tmp_path):
    game = make_small_game(tmp_path, LUCK)
    st = game.new_state(2, 1)
    assert list(st.pending.values) == [0, 1]
    return game, st


def bonus_taken(game, st, seed: int, paired: int) -> int:
    bot = MCTSBot(seed, iterations=2, depth=10, margin=10, paired=paired)
    return st.pending.values[bot.choose(game, st)]


def test_paired_options_meet_the_same_card_so_the_bonus_always_wins(luck):
    game, st = luck
    assert [bonus_taken(game, st, seed, paired=1) for seed in range(20)] == [1] * 20


def test_unpaired_options_meet_different_cards_and_the_luck_can_decide(luck):
    game, st = luck
    assert 0 in [bonus_taken(game, st, seed, paired=0) for seed in range(20)]


def test_every_round_plays_every_shortlisted_option(luck):
    game, st = luck
    root = MCTSBot(4, iterations=3, depth=10, paired=1).search(game, st)
    assert root.visits == 4 and [child.visits for child in root.children.values()] == [2, 2]


def test_a_shortlist_of_one_is_chosen_without_a_search(position):
    game, st = position     # "bold, 5" is the only whole move that wins: the one best option
    root = MCTSBot(3, iterations=40, width=1).search(game, st)
    assert root.visits == 1 and {k: c.visits for k, c in root.children.items()} == {"bold": 1}
    assert MCTSBot(3, iterations=40, width=1).choose(game, st) == 1


def test_paired_is_a_setting():
    assert make_bot("mcts:paired=1", 1).paired == 1
    assert "paired=1" in make_bot("mcts:paired=1", 1).describe()
    assert "paired" not in make_bot("mcts", 1).describe()
    with pytest.raises(UsageError, match="at most"):
        make_bot("mcts:paired=2", 1)
