"""Tree reuse between decisions (`mcts:reuse=1`): finding, in the tree a bot kept from its
last search, the node reached by the moves made since, as the seat could follow them.

The tree is keyed by option values (`whole_moves._key`), one level per decision of any
seat, chance not a level of its own; so the node of the present position is found by
replaying the game's history since the kept position, one decision after another, and
following the child of each option taken. The kept position is the true one the bot was
handed, and the replay must arrive exactly at the position it is handed now: anything else
(an undo, a resumed or another game, a history that is not a continuation) gives no node,
and the bot searches a fresh tree. Another seat's choice is followed only when the seat
knows it as the determinized search does (`_seen_choice`): a tree must not learn a hidden
choice through its own keys.
"""
from __future__ import annotations

from .whole_moves import _key


def kept_node(game, before, node, st):
    """The node of `node`'s tree (searched from the true position `before` for the seat that
    decided there) that stands for `st`, a later position of the same game; None when `st`
    is not reached from `before` by the moves of its history, when the seat could not tell
    one of those moves, or when the tree has no such node or an unvisited one."""
    done, now = before.history, st.history
    if (st.finished or st.pending is None or before.pending is None or len(now) <= len(done)
            or now[:len(done)] != done):
        return None
    seat = before.pending.player
    if st.pending.player != seat:
        return None
    trial = before.copy()
    for oid in now[len(done):]:
        if trial.finished:
            return None
        ids = game.option_ids(trial)
        if oid not in ids:
            return None
        index = ids.index(oid)
        if trial.pending.player != seat and not _seen_choice(trial, st):
            return None
        node = node.children.get(_key(trial.pending.values[index]))
        if node is None:
            return None
        game.apply_index(trial, index)
    if trial != st or node.visits == 0:
        return None
    return node


def _seen_choice(st, now) -> bool:
    """Whether the seat knows another seat's choice at `st` when it decides at `now`. The
    determinization (determinize.py) treats which components each hidden zone holds, and
    the rules' locals, as known to every seat, and only the order of hidden components and
    the others' sealed choices as unknown; such a search knows every choice made but a
    sealed one: it is not followed while `now` still waits for a sealed round (once the
    round is revealed, everyone has seen it)."""
    return st.sealed is None or now.sealed is None
