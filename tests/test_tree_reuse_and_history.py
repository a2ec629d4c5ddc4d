"""Tree reuse between decisions (`mcts:reuse=1`) and progressive history (`mcts:history=W`).
Expected values come from the trees themselves as the earlier search left them, from the
rules of a race to ten (players add 1, 2 or 3 to a shared total; who reaches ten wins) and,
for the history table, from a hand count."""
from __future__ import annotations

import pytest

from boardwright.interpreter.bots.mcts import MCTSBot, Node, _search_tree
from boardwright.interpreter.bots.registry import make_bot

from conftest import make_small_game
from test_bot_enhancements import HIDDEN_DRAW, RACE, position


@pytest.fixture(scope="module")
def race(tmp_path_factory):
    return make_small_game(tmp_path_factory.mktemp("race"), RACE)


def snapshot(node: Node) -> dict:
    """Each child's visits, by option value."""
    return {key: child.visits for key, child in node.children.items()}


def test_the_reused_subtree_keeps_the_visits_the_last_search_gave_it(race):
    st = position(race, 0)
    bot = make_bot("mcts:iterations=200:width=0:reuse=1", 3)
    index = bot.choose(race, st)
    mine = st.pending.values[index]
    root = bot._kept[2]
    race.apply_index(st, index)
    race.apply_index(st, 0)             # the opponent adds 1
    node = root.children[mine].children[1]
    kept, children = node.visits, snapshot(node)
    assert kept > 1 and bot.kept_visits == [0]
    bot.choose(race, st)
    assert bot.kept_visits == [0, kept]
    new = bot._kept[2]
    assert new is node                  # the same node, searched on
    assert new.visits == kept + 200
    grown = snapshot(new)
    assert all(grown[key] >= visits for key, visits in children.items())
    # every iteration of the new search passes through one child of the root
    assert sum(grown.values()) - sum(children.values()) == 200


def test_a_fresh_tree_after_an_undo_another_game_or_another_line(race):
    st = position(race, 0)
    bot = make_bot("mcts:iterations=60:width=0:reuse=1", 3)
    before = st.copy()
    race.apply_index(st, bot.choose(race, st))
    race.apply_index(st, 2)
    bot.choose(race, before)            # an undo: back to the first decision
    assert bot.kept_visits == [0, 0]
    # the same moves in a game of another seed: not the position the tree was searched from
    bot = make_bot("mcts:iterations=60:width=0:reuse=1", 3)
    st = position(race, 0)
    other = race.new_state(2, 2)
    chosen = bot.choose(race, st)
    for position_ in (st, other):
        race.apply_index(position_, chosen)
        race.apply_index(position_, 0)
    assert other.history == st.history and other != st
    bot.choose(race, other)
    assert bot.kept_visits == [0, 0]
    # the game it searched, continued: the tree is kept
    bot = make_bot("mcts:iterations=60:width=0:reuse=1", 3)
    bot.choose(race, st)
    race.apply_index(st, 0)
    race.apply_index(st, 0)
    bot.choose(race, st)
    assert bot.kept_visits[0] == 0 and bot.kept_visits[1] > 0


def test_a_fresh_tree_for_another_seat_or_another_game_object(race, tmp_path):
    """A tree searched for one seat is not lent to another seat's decision (it was searched
    from the first seat's knowledge), and a tree searched in one loaded game is not used in
    another, even one of the same rules at the same continued position."""
    st = position(race, 0)
    bot = make_bot("mcts:iterations=60:width=0:reuse=1", 3)
    race.apply_index(st, bot.choose(race, st))
    assert st.pending.player == 1
    bot.choose(race, st)
    assert bot.kept_visits == [0, 0]
    twin = make_small_game(tmp_path, RACE)
    for game in (race, twin):
        st = position(race, 0)
        bot = make_bot("mcts:iterations=60:width=0:reuse=1", 3)
        race.apply_index(st, bot.choose(race, st))
        race.apply_index(st, 0)
        bot.choose(game, st)
        assert (bot.kept_visits[1] > 0) == (game is race)


def test_reuse_is_reproducible_and_changes_the_search(race):
    def game(spec: str, seed: int) -> list:
        st = position(race, 0)
        bots = [make_bot(spec, f"{seed}:0"), make_bot("mcts:iterations=30:width=0", f"{seed}:1")]
        while not st.finished:
            race.apply_index(st, bots[st.pending.player].choose(race, st))
        return st.history, bots[0]
    spec = "mcts:iterations=30:width=0:reuse=1"
    (first, bot), (again, _) = game(spec, 5), game(spec, 5)
    assert first == again
    assert bot.kept_visits[0] == 0 and all(k > 0 for k in bot.kept_visits[1:])
    # the root's visits of the last decision: its iterations and those it kept
    assert bot._kept[2].visits == 30 + bot.kept_visits[-1]


def test_a_reused_tree_keeps_its_move_table(race):
    # (progressive history and MAST read the table: it goes on with the tree it came with)
    st = position(race, 0)
    bot = make_bot("mcts:iterations=200:width=0:reuse=1:history=1", 3)
    index = bot.choose(race, st)
    first = {key: count for key, (_, count) in bot._kept[3].items()}
    race.apply_index(st, index)
    race.apply_index(st, 0)
    bot.iterations = 20
    bot.choose(race, st)
    assert bot.kept_visits[1] > 0
    table = bot._kept[3]
    # each entry counts the moves of both searches: those of the first, and at least one
    # move per iteration of the second (whose 20 iterations of at most 8 moves, from a
    # total of at least 2, could not reach the first's 200 root moves on their own)
    assert all(table[key][1] >= count for key, count in first.items())
    assert sum(count for _, count in table.values()) >= sum(first.values()) + 20 >= 220


def test_reuse_leaves_paired_follow_and_several_trees_alone(race):
    for spec in ("paired=1:depth=5", "follow=10", "trees=2"):
        bot = make_bot(f"mcts:iterations=20:width=0:reuse=1:{spec}", 1)
        assert not bot.reuses()
        st = position(race, 0)
        bot.choose(race, st)
        assert bot._kept is None and bot.kept_visits == []


def test_a_sealed_choice_is_not_followed_until_it_is_revealed():
    from boardwright.interpreter.bots.reuse import _seen_choice

    class Position:
        def __init__(self, sealed):
            self.sealed = sealed
    assert _seen_choice(Position(None), Position(object()))
    assert _seen_choice(Position(object()), Position(None))
    assert not _seen_choice(Position(object()), Position(object()))


def test_reuse_through_hidden_draws(tmp_path):
    # Between the seat's decisions a card comes out of a hidden deck: the tree has no chance
    # level, so the node of the card the opponent took is kept whatever was drawn.
    # (one card more on offer from the start: each turn offers two)
    rules = HIDDEN_DRAW.replace("  shuffle deck\n", "  shuffle deck\n  move top(deck) to offer\n")
    assert rules != HIDDEN_DRAW
    game = make_small_game(tmp_path, rules)
    st = game.new_state(2, 1)
    bot = make_bot("mcts:iterations=80:width=0:reuse=1", 2)
    opponent = make_bot("random", 1)
    while not st.finished:
        mover = st.pending.player
        game.apply_index(st, (bot if mover == 0 else opponent).choose(game, st))
    assert st.history and len(bot.kept_visits) == 2 and bot.kept_visits[0] == 0 and bot.kept_visits[1] > 0


# ----------------------------------------------------------------------------- progressive history
def test_the_history_table_is_the_mean_reward_of_each_move(race):
    # From 8, adding 2 or 3 reaches ten and wins: a finished game, worth 1 to seat 0. Adding
    # 1 reaches 9: a new leaf without a playout, judged by the change of the lead since the
    # root (0 points each, then and now): a logistic of 0, 1/2. Three iterations try the
    # three options once each, so the table holds, by hand: (seat 0, option 1) -> 1/2 once,
    # (0, 2) and (0, 3) -> 1 once.
    st = position(race, 8)
    table: dict = {}
    bot = MCTSBot(7, iterations=3, width=0, history=1)
    _search_tree(race, st, bot._config(3), 11, None, table)
    assert table == {(0, 1): [0.5, 1], (0, 2): [1.0, 1], (0, 3): [1.0, 1]}
    # without history (and MAST) no table is kept
    table = {}
    _search_tree(race, st, MCTSBot(7, iterations=3, width=0)._config(3), 11, None, table)
    assert table == {}


def selected(race, history: float, children: dict, table: dict) -> int:
    """The root option one iteration (exploration 0: means and the history bias alone)
    selects, among root children with the given (visits, total for seat 0)."""
    st = position(race, 0)
    root = Node(2)
    root.visits = sum(visits for visits, _ in children.values())
    for value, (visits, total) in children.items():
        child = root.children[value] = Node(2)
        child.visits, child.total = visits, [total, visits - total]
    before = {value: child.visits for value, child in root.children.items()}
    config = MCTSBot(1, iterations=1, width=0, history=history, exploration=0)._config(1)
    _search_tree(race, st, config, 4, root, table)
    [grown] = [value for value, child in root.children.items() if child.visits == before[value] + 1]
    return grown


@pytest.mark.parametrize("children, expected", [
    # By hand, score = mean + W H / (n (1 - mean) + 1) with W = 1 and H from the table
    # (option 1: H = 0; option 3: H = 1):
    # option 1 mean 1.0 -> 1.0; option 3 (4 visits, mean 0.75) -> 0.75 + 1 / (4 x 0.25 + 1)
    # = 1.25: option 3. (A bias faded by n + 1, 0.75 + 0.2 = 0.95, would take option 1.)
    # (option 2, mean 0 and not in the table, H = 1/2: 0 + 0.5 / 2 = 0.25, is never taken)
    ({1: (1, 1.0), 2: (1, 0.0), 3: (4, 3.0)}, 3),
    # option 1 mean 0.6 -> 0.6; option 3 (4 visits, mean 0.3) -> 0.3 + 1 / (4 x 0.7 + 1)
    # = 0.563: option 1. (Without the + 1, 0.3 + 1 / 2.8 = 0.657, or unfaded, 1.3, would take 3.)
    ({1: (1, 0.6), 2: (1, 0.0), 3: (4, 1.2)}, 1),
])
def test_history_adds_its_faded_bias_to_the_selection(race, children, expected):
    table = {(0, 1): [0.0, 2], (0, 3): [3.0, 3]}
    assert selected(race, 1, children, table) == expected
    # without history the better mean alone: option 1 in both positions
    assert selected(race, 0, children, dict(table)) == 1


def test_the_new_settings_are_checked_and_default_off():
    from boardwright.dsl.errors import UsageError
    for bad in ("reuse=2", "reuse=0.5", "history=-1", "history=nan"):
        with pytest.raises(UsageError):
            make_bot(f"mcts:{bad}", 0)
    bot = make_bot("mcts", 0)
    assert bot.reuse == 0 and bot.history == 0 and "reuse" not in bot.describe()
    assert "reuse=1, history=0.5" in make_bot("mcts:reuse=1:history=0.5", 0).describe()
