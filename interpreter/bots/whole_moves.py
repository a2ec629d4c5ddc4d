"""An option judged as a whole move: after it, the same seat's next choices within its turn
(while nothing came out of a zone it cannot see) are looked at too, the best of them taken.
"""
from __future__ import annotations

import random

from .values import _finished_value, _own_value


def move_value(game, st, index: int, seat: int, budget: list, judge, rng: random.Random,
               cut: list | None = None) -> float:
    """The value of option `index` for `seat` judged as a whole move (`best_line`)."""
    return best_line(game, st, index, seat, budget, judge, rng, cut)[0]


def best_line(game, st, index: int, seat: int, budget: list, judge, rng: random.Random,
              cut: list | None = None) -> tuple[float, tuple]:
    """The value for `seat` of option `index` judged as a whole move: after it, while the
    same seat decides again within the same turn, nothing came out of a zone the seat
    cannot see (a draw is chance: looking past it would treat one sample of the hidden
    order as known), and `budget` (a one-item list, spent as positions are looked at)
    allows, the best follow-up; then `judge(game, state, seat)`.
    A finished game is worth far more (a win) or less (a loss) than any judged position.
    Returned with the option ids of the best follow-up choices, in order. When the move
    goes on but the budget stops the look, True is appended to `cut` (if given)."""
    trial = st.copy()
    turns = sum(trial.turns)
    unseen = _unseen_sizes(game, trial, seat)
    game.apply_index(trial, index)
    while trial.sealed is not None and trial.sealed.chosen:
        # A simultaneous decision: the others' sealed choices are unknown; guess them at
        # random so that the choices are revealed and the position can be judged.
        game.apply_index(trial, rng.randrange(len(trial.pending.values)))
    if trial.finished:
        return _finished_value(game, trial, seat), ()
    pending = trial.pending
    if _same_move(game, trial, seat, turns, unseen):
        if budget[0] < len(pending.values):
            if cut is not None:
                cut.append(True)
            return judge(game, trial, seat), ()
        budget[0] -= len(pending.values)
        lines = [best_line(game, trial, i, seat, budget, judge, rng) for i in range(len(pending.values))]
        best = max(range(len(lines)), key=lambda i: lines[i][0])
        return lines[best][0], (_key(pending.values[best]),) + lines[best][1]
    return judge(game, trial, seat), ()


def _same_move(game, st, seat: int, turns: int, unseen: list) -> bool:
    """Whether `seat` decides again within the move that began at `turns` turns, with the
    zones it cannot see still holding `unseen` components (a draw is chance: looking past it
    would treat one sample of the hidden order as known)."""
    return (not st.finished and st.pending.player == seat and sum(st.turns) == turns
            and _unseen_sizes(game, st, seat) == unseen)


def _unseen_sizes(game, st, seat: int) -> list:
    """How many components lie in each zone that `seat` cannot see."""
    zones = st.zones
    return [len(zones[key]) for key in game.unseen_zones(st, seat)]


def _whole_move_value(game, st, index: int, seat: int) -> float:
    """`seat`'s value of option `index` at the end of its move: while it decides again within
    the same turn (and nothing came out of a zone it cannot see), each next choice is the
    best for it at once; a cheap, greedy-ordered stand-in for `best_line`'s full search."""
    trial = st.copy()
    turns = sum(trial.turns)
    unseen = _unseen_sizes(game, trial, seat)
    game.apply_index(trial, index)
    while _same_move(game, trial, seat, turns, unseen):
        options = len(trial.pending.values)
        if options == 1:
            game.apply_index(trial, 0)
            continue
        best, best_value = None, None
        for i in range(options):
            step = trial.copy()
            game.apply_index(step, i)
            value = _finished_value(game, step, seat) if step.finished else _own_value(game, step, seat)
            if best_value is None or value > best_value:
                best, best_value = step, value
        trial = best
    return _finished_value(game, trial, seat) if trial.finished else _own_value(game, trial, seat)


def _key(value):
    return tuple(value) if type(value) is list else value
