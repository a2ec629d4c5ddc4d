"""Decisions that cost nothing until asked (interpreter/run/state.py, Pending.later): play
stops at a `choose` without working out its options; they are worked out once, from the
position the decision belongs to, when something first asks for them."""
from __future__ import annotations

import pytest

from boardwright.dsl.errors import RuleError
from boardwright.interpreter.bots.registry import make_bot
from conftest import make_small_game

# Each turn: choose one of six cards still in the supply; a card's rank counts as points.
DRAFT = """\
    game "Draft"
    players 2
    data "cards.yaml"
    var points: int per player = 0
    play {
      for round in range(3) {
        for p in players {
          turn p {
            choose c from contents(supply) prompt "Take a card"
            move c to supply
            points[p] = points[p] + c.rank
          }
        }
      }
    }
    score p { "Points": points[p] }
    """


@pytest.fixture
def counted(tmp_path, monkeypatch):
    """The draft game, with a count of the decisions whose options were worked out."""
    game = make_small_game(tmp_path, DRAFT)
    calls = []
    original = game.options_now

    def counting(st, pending):
        calls.append(pending.player)
        return original(st, pending)

    monkeypatch.setitem(game.namespace, "_options_now", counting)
    return game, calls


def test_play_stops_at_a_decision_without_working_out_its_options(counted):
    game, calls = counted
    st = game.new_state(2, seed=1)
    assert calls == []
    assert len(st.pending.values) == 6          # six cards in the supply
    assert calls == [0]
    st.pending.values                           # worked out once
    assert calls == [0]


def test_greedy_judging_its_options_never_works_out_the_next_players(counted):
    game, calls = counted
    st = game.new_state(2, seed=1)
    bot = make_bot("greedy", 3, game)
    index = bot.choose(game, st)
    # Only the root's options: each of the six trials stops at the other player's decision.
    assert calls == [0]
    assert game.components[st.pending.values[index]]["rank"] == 3      # the highest rank


def test_a_copy_keeps_the_options_of_its_own_position(counted):
    game, _ = counted
    st = game.new_state(2, seed=1)
    game.apply_index(st, 0)
    copy = st.copy()
    expected = list(st.zones["supply"])             # the options: the supply, in order
    st.zones["supply"].reverse()                    # the original changes in place (as an
    assert list(copy.pending.values) == expected    # imagined copy does): not the copy's
    assert list(st.pending.values) == expected[::-1]


def test_an_option_list_error_is_reported_at_the_choose_when_asked(tmp_path):
    game = make_small_game(tmp_path, """\
        game "Empty"
        players 2
        data "cards.yaml"
        zone hand: pile
        play {
          turn 0 {
            choose c from contents(supply) prompt "Take"
            move c to hand
          }
          turn 1 {
            choose d from [x for x in contents(hand) if x.rank > 5] prompt "Give"
            move d to supply
          }
        }
        """)
    st = game.new_state(2, seed=1)
    game.apply_index(st, 0)                     # play stops at turn 1: no error yet
    with pytest.raises(RuleError) as info:
        game.decision(st)
    assert info.value.diagnostics[0].message == "nothing to choose from for 'd'"
    assert info.value.diagnostics[0].span.line == 11


HIDDEN_DRAW = """\
    game "Blind pick"
    players 2
    data "cards.yaml"
    zone deck: pile hidden
    var points: int per player = 0
    setup {
      for c in contents(supply) { move c to deck }
      shuffle deck
    }
    play {
      for p in players {
        turn p {
          choose c from contents(deck) prompt "Draw"
          move c to supply
          points[p] = points[p] + c.rank
        }
      }
    }
    score p { "Points": points[p] }
    """


@pytest.mark.parametrize("seed", range(8))
def test_a_bot_judges_the_options_of_the_true_position_not_of_its_imagined_one(tmp_path, seed):
    # The options come from a hidden pile, so a bot's imagined copy of the position holds them
    # in another order: the options must be those of the position as it is, or the bot's
    # judgement of option i belongs to another option.
    game = make_small_game(tmp_path, HIDDEN_DRAW)
    st = game.new_state(2, seed=seed)
    values = make_bot("greedy", seed, game).values(game, st)    # before anything asked for them
    # each option is worth the rank of its card (the score after the move)
    assert values == [game.components[c]["rank"] for c in st.pending.values]


def test_a_pending_decision_sent_to_another_process_carries_its_options(counted):
    import pickle
    game, _ = counted
    st = game.new_state(2, seed=1)
    game.apply_index(st, 0)
    copy = pickle.loads(pickle.dumps(st.copy()))        # as the root-parallel pool sends it
    assert copy.pending.values == st.pending.values
    assert copy.pending.player == st.pending.player == 1


def _unasked_copy(game):
    """A copy of the draft after one move, stopped at a decision nobody asked about yet."""
    st = game.new_state(2, seed=1)
    game.apply_index(st, 0)
    trial = st.copy()
    game.apply_index(trial, 0)
    return st, trial


def test_a_position_dropped_unasked_is_freed_at_once_not_by_the_cycle_collector(counted):
    # A bot imagines thousands of positions and drops most without asking for their options.
    # If the decision held its position strongly, each would be a reference cycle, freed only
    # by Python's cycle collector (a tenth of Urban Panic's guided-playout search): it must be
    # freed as soon as the last reference goes.
    import gc
    import weakref
    game, calls = counted
    _, trial = _unasked_copy(game)
    gone = weakref.ref(trial)
    gc.disable()
    try:
        del trial
        assert gone() is None
    finally:
        gc.enable()
    assert calls == [0, 1]                          # the two moves made; not the trial's decision


def test_a_decision_held_after_its_position_is_dropped_still_gives_its_options(counted):
    game, _ = counted
    _, trial = _unasked_copy(game)
    expected = list(trial.zones["supply"])          # the options: the supply, in order
    pending = trial.pending
    del trial
    assert list(pending.values) == expected
    assert list(game.new_state(2, seed=1).pending.values) == list(game.new_state(2, seed=1).zones["supply"])


def test_a_state_that_becomes_another_keeps_its_decision_after_the_other_is_dropped(counted):
    # A guided playout keeps the sampled position it chose (State.become) and drops the trial.
    game, _ = counted
    import weakref
    st, trial = _unasked_copy(game)
    expected = list(trial.zones["supply"])
    gone = weakref.ref(trial)
    st.become(trial)
    del trial
    assert gone() is None                           # the decision is bound to `st`, not kept
    assert list(st.pending.values) == expected
    game.apply_index(st, 0)                         # and play goes on from it: the first card
    assert st.pending.player == 1                   # taken goes back to the supply's end
    assert list(st.pending.values) == expected[1:] + expected[:1]
