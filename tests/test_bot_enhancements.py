"""The general MCTS enhancements a rule file needs no heuristic for: decisive and
anti-decisive moves (`decisive=1`, `decisive=2`), progressive widening (`widen=C`) and
move-average sampling in playouts (`mast=X`). Expected choices are worked out by hand from
the rules of a race to ten (players add 1, 2 or 3 to a shared total; who reaches ten wins)."""
from __future__ import annotations

import random

import pytest

from boardwright.dsl.errors import UsageError
from boardwright.interpreter.bots.mcts import MCTSBot, _mast_step, decisive_options
from boardwright.interpreter.bots.registry import make_bot

from conftest import make_small_game

RACE = """\
game "Race to ten"
players 2
param start = 0
var total: int = 0
var won: int per player = 0
setup { total = start }
play {
  while true {
    for p in players {
      turn p {
        choose n from [1, 2, 3] prompt "Add"
        total += n
        if total >= 10 {
          won[p] = 1
          finish
        }
      }
    }
  }
}
score p { "Won": won[p] }
"""


@pytest.fixture(scope="module")
def race(tmp_path_factory):
    return make_small_game(tmp_path_factory.mktemp("race"), RACE)


def position(game, start: int):
    game.set_params({"start": start})
    st = game.new_state(2, 1)
    assert list(st.pending.values) == [1, 2, 3] and st.pending.player == 0
    return st


def choices(game, st, spec: str, seeds=range(12)) -> set:
    return {make_bot(spec, seed).choose(game, st) for seed in seeds}


def test_a_decisive_move_is_taken(race):
    st = position(race, 7)              # 7 + 3 = 10: adding 3 wins at once
    assert decisive_options(race, st, 0, False)[0] == 2
    assert choices(race, st, "mcts:iterations=1:width=0:decisive=1") == {2}
    # without it, one iteration tries one option at random: not always the win
    assert len(choices(race, st, "mcts:iterations=1:width=0")) > 1


def test_an_anti_decisive_move_blocks_the_opponents_win(race):
    st = position(race, 5)              # 5+2 = 7 and 5+3 = 8 let the opponent reach ten; 5+1 = 6 does not
    win, safe = decisive_options(race, st, 0, True)
    assert win is None and safe == {0}
    assert choices(race, st, "mcts:iterations=2:width=0:decisive=2") == {0}
    # decisive=1 looks for wins only: two iterations try two options, not always the safe one
    assert len(choices(race, st, "mcts:iterations=2:width=0:decisive=1")) > 1


def test_when_every_option_loses_all_stay_in_the_search(race):
    st = position(race, 1)              # 2, 3 or 4: the opponent cannot win at once from any
    assert decisive_options(race, st, 0, True) == (None, {0, 1, 2})
    st = position(race, 6)              # 7, 8, 9: the opponent wins from each
    assert decisive_options(race, st, 0, True) == (None, {0, 1, 2})


def test_progressive_widening_lets_children_in_as_visits_grow(race):
    st = position(race, 0)
    # A second child comes in once 0.5 * sqrt(visits + 1) exceeds 1, at 4 visits: after 4
    # iterations one child, after 5 two; without widening, all 3 after 3 iterations.
    assert len(MCTSBot(1, iterations=4, width=0, widen=0.5).search(race, st).children) == 1
    widened = MCTSBot(1, iterations=5, width=0, widen=0.5).search(race, st)
    assert len(widened.children) == 2
    assert sum(c.visits for c in widened.children.values()) == 5
    assert len(MCTSBot(1, iterations=4, width=0).search(race, st).children) == 3


def test_move_average_sampling_takes_the_best_mean(race):
    st = position(race, 0)
    table = {(0, 1): [0.2, 1], (0, 2): [0.9, 1], (0, 3): [1.0, 4]}     # means 0.2, 0.9, 0.25
    moves: list = []
    _mast_step(race, st, 3, 1.0, table, moves, random.Random(5))
    assert moves == [(0, 2)] and list(race.scores(st)) == [0, 0] and st.pending.player == 1
    # an option never played counts 0.5: above a mean of 0.2, below 0.9
    st = position(race, 0)
    moves = []
    _mast_step(race, st, 3, 1.0, {(0, 1): [0.2, 1], (0, 2): [0.1, 1]}, moves, random.Random(5))
    assert moves == [(0, 3)]


def test_the_enhancements_are_reproducible_per_seed(race):
    st = position(race, 0)
    spec = "mcts:iterations=60:width=0:depth=20:guide=1:mast=0.6:widen=1:decisive=2"
    first = make_bot(spec, 3).visits(race, st)
    assert make_bot(spec, 3).visits(race, st) == first
    assert sum(first.values()) == 60


def test_the_settings_are_checked():
    for bad in ("decisive=3", "decisive=1.5", "mast=2", "widen=-1"):
        with pytest.raises(UsageError):
            make_bot(f"mcts:{bad}", 0)
    assert "decisive=2, widen=1.5, mast=0.3" in make_bot("mcts:decisive=2:widen=1.5:mast=0.3", 0).describe()


WIDE = """\
game "Wide"
players 2
var total: int per player = 0
play {
  for p in players {
    turn p {
      choose n from [i for i in range(40)] prompt "Take"
      total[p] += n
    }
  }
}
score p { "Total": total[p] }
"""


def test_widening_without_a_shortlist_judges_only_a_sample_of_a_wide_root(tmp_path, monkeypatch):
    from boardwright.interpreter.bots import mcts
    game = make_small_game(tmp_path, WIDE)
    st = game.new_state(2, 1)
    assert len(st.pending.values) == 40
    judged = []
    real = mcts.move_value
    monkeypatch.setattr(mcts, "move_value", lambda *a, **k: judged.append(a[2]) or real(*a, **k))
    root = MCTSBot(2, iterations=3, width=0, widen=1).search(game, st)
    assert len(judged) == mcts.SCALE_SAMPLE == len(set(judged)) and sum(c.visits for c in root.children.values()) == 3
    judged.clear()
    MCTSBot(2, iterations=3, width=0).search(game, st)      # without widening, every option once
    assert sorted(judged) == list(range(40))


def test_widening_and_move_averages_belong_to_the_tree_not_to_paired_playouts(race):
    # (so `tune` leaves them out of a paired candidate: they would change nothing)
    st = position(race, 0)
    paired = "mcts:iterations=30:width=0:depth=20:guide=1:paired=1"
    assert make_bot(paired + ":widen=1:mast=0.5", 4).visits(race, st) == make_bot(paired, 4).visits(race, st)
    tree = "mcts:iterations=30:width=0:depth=20:guide=1"
    assert make_bot(tree + ":mast=0.9", 4).visits(race, st) != make_bot(tree, 4).visits(race, st)


HIDDEN_DRAW = """\
game "Hidden draw"
players 2
data "cards.yaml"
zone deck: stack hidden
zone offer: pile
zone hand: pile per player
var points: int per player = 0
setup {
  move components(Card) to deck
  shuffle deck
}
play {
  for round in range(2) {
    for p in players {
      turn p {
        move top(deck) to offer
        choose card from contents(offer) prompt "Take"
        move card to hand[p]
        points[p] += card.rank
      }
    }
  }
}
score p { "Points": points[p] }
"""


def test_widening_copes_with_options_that_differ_between_determinizations(tmp_path):
    # The cards offered after the first choice are drawn from a hidden deck: each iteration's
    # determinization offers others, so a node holds children that this iteration does not offer.
    game = make_small_game(tmp_path, HIDDEN_DRAW)
    st = game.new_state(2, 1)
    for seed in range(6):
        visits = make_bot("mcts:iterations=40:width=0:depth=0:widen=0.5", seed).visits(game, st)
        assert sum(visits.values()) == 40
