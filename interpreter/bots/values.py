"""What a position is worth to each seat: the rule file's heuristic or the score, leads over
the other seats, and the victory shares (and score leads) of a finished game.
"""
from __future__ import annotations

import math


def evaluations(game, st) -> list:
    """Each seat's evaluation of a position: the rule file's heuristic, else its score."""
    if game.heuristic is not None:
        return [game.heuristic(st, p) for p in range(st.players)]
    return [game.score_sign * s for s in game.result(st).scores]     # lowest-wins scores count negated


def leads(values: list) -> list:
    """Each seat's evaluation minus the mean of the others' (its own value when alone)."""
    n = len(values)
    if n == 1:
        return list(values)
    total = sum(values)
    return [v - (total - v) / (n - 1) for v in values]


def _logistic(x: float) -> float:
    if x < -60:
        return 0.0
    if x > 60:
        return 1.0
    return 1 / (1 + math.exp(-x))


def outcome(game, st) -> list[float]:
    """Each seat's share of the victory in a finished game."""
    winners = game.result(st).winners
    return [1 / len(winners) if p in winners else 0.0 for p in range(st.players)]


def final_value(game, st, margin: float) -> list[float]:
    """Each seat's value of a finished game: its share of the victory; with a `margin`
    (score points), the mean of that share and a logistic of its final score lead in units
    of `margin`, so a wide win counts more than a narrow one."""
    shares = outcome(game, st)
    if not margin:
        return shares
    margins = leads([game.score_sign * s for s in game.result(st).scores])
    return [(share + _logistic(lead / margin)) / 2 for share, lead in zip(shares, margins)]


def _own_value(game, st, seat: int) -> float:
    """One seat's evaluation (as in `evaluations`, without judging the other seats)."""
    if game.heuristic is not None:
        return game.heuristic(st, seat)
    return game.score_sign * game.result(st).scores[seat]


def _lead_value(game, st, seat: int) -> float:
    return leads(evaluations(game, st))[seat]


def _finished_value(game, st, seat: int) -> float:
    """A finished game's value for `seat`: far above (a win) or below (a loss) any judged position."""
    return 1e12 * (outcome(game, st)[seat] - 0.5)
