"""Bots, simulation and the `+` helper in process: greedy's look-ahead through a move of
several choices when its seat holds a private hand, MCTS's root parallelism (the iterations
split among the trees, a pool only for the game it was opened for), a bot in a game with a
hidden grid, long setting values, and `simulate --workers` giving the same games."""
from __future__ import annotations

import math

from boardwright.interpreter.run import limits
from boardwright.interpreter.bots.mcts import root_parallel
from boardwright.interpreter.bots.registry import make_bot
from boardwright.interpreter.bots.simple import GreedyBot
from boardwright.interpreter.playtest.simulate import _batches, simulate_records
from conftest import cached_game, make_small_game

# One turn of two choices: taking 5 points at once, or waiting for the second choice,
# which is worth ten times the number chosen. Each seat holds a hand only it can see.
TWO_STEP = """
    game "Two steps"
    players 2
    data "cards.yaml"
    zone hand: pile of Card per player owner
    var points: int per player = 0
    setup { for c in components(Card) { move c to hand[c.rank % 2] } }
    play {
      for p in players { turn p {
        choose now from [true, false] prompt "Take 5 now?"
        if now { points[p] += 5 }
        choose n from [1, 2, 3] prompt "How many tens?"
        if not now { points[p] += 10 * n }
      } }
    }
    score p { "Points": points[p] + size(hand[p]) }
"""


def test_greedy_looks_past_the_first_choice_of_a_move_although_its_hand_is_private(tmp_path):
    game = make_small_game(tmp_path, TWO_STEP)
    st = game.new_state(2, seed=1)
    assert st.pending.player == 0 and not game.visible_to("hand/1", 0) and game.visible_to("hand/0", 0)
    hand = len(st.zones["hand/0"])
    # taking 5 now is worth 5 (the tens are then worth nothing); waiting is worth 30 at best
    assert GreedyBot(1).values(game, st) == [5 + hand, 30 + hand]
    assert GreedyBot(1).choose(game, st) == 1


GRID = """
    game "Hidden board"
    players 2
    data "cards.yaml"
    zone board: grid hidden
    var points: int per player = 0
    setup { for c in components(Card) { if c.suit == hearts and c.rank < 3 { move c to board at (c.rank, 0) } } }
    play { for p in players { turn p {
      choose n from [1, 2, 3] prompt "How many?"
      points[p] += n
    } } }
    score p { "Points": points[p] + size(board) }
"""


def test_a_bot_plays_a_game_whose_grid_is_hidden(tmp_path):
    game = make_small_game(tmp_path, GRID)
    st = game.new_state(2, seed=1)
    assert len(st.zones["board"]) == 2 and not game.visible_to("board", 0)
    # the bot imagines the hidden zones before it looks ahead: a grid is no list of cards
    assert GreedyBot(1).choose(game, st) == 2                # 3 points: the most


def test_root_parallel_trees_split_the_iterations_and_add_their_visits():
    game = cached_game("punto")
    st = game.new_state(2, seed=4)
    for iterations, trees in ((30, 1), (31, 2), (31, 3)):
        bot = make_bot(f"mcts:iterations={iterations}:trees={trees}", 7, game)
        assert sum(bot.visits(game, st).values()) == iterations, (iterations, trees)


def test_a_pool_opened_for_one_game_leaves_another_games_search_alone(tmp_path):
    other = make_small_game(tmp_path, TWO_STEP)
    st = other.new_state(2, seed=1)
    alone = make_bot("mcts:iterations=20:trees=2", 5, other).visits(other, st)
    with root_parallel(cached_game("punto"), 2):
        beside = make_bot("mcts:iterations=20:trees=2", 5, other).visits(other, st)
    assert beside == alone and sum(alone.values()) == 20


def test_a_setting_written_with_twenty_characters_is_read():
    bot = make_bot("mcts:exploration=1.414213562373095048", 1)     # sqrt(2) to 18 decimals: 20 characters
    assert math.isclose(bot.c, math.sqrt(2), rel_tol=1e-15)


def test_workers_play_the_same_games_as_one_process(tmp_path):
    game = make_small_game(tmp_path, TWO_STEP)
    alone = simulate_records(game, 2, 6, 3, ["random", "greedy"], rotate=True)
    ref = (str(tmp_path / "g.game"), None, ())       # what the worker processes load
    together = simulate_records(game, 2, 6, 3, ["random", "greedy"], rotate=True, workers=2, ref=ref)
    assert together == alone and [r["index"] for r in together] == list(range(6))


def test_games_are_split_into_about_the_asked_number_of_consecutive_batches():
    assert _batches(list(range(10)), 3) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert _batches(list(range(4)), 8) == [[0], [1], [2], [3]]
    assert _batches(list(range(100)), 10) == [list(range(k, k + 10)) for k in range(0, 100, 10)]


def test_plus_treats_a_number_on_either_side_alike():
    # `a + b` of operands the checker types `any` reaches limits.concat; Python's numbers
    # (a bool is one) add as numbers whichever side they are on.
    assert limits.concat(2, True) == 3 and limits.concat(True, 2) == 3
