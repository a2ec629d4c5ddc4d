"""The skill matrix of `tune --goal skill`, after the 2025 Tabletop Games Balancing
Competition: games between a strong search (the game's MCTS), the same search at half its
budget, a one-step greedy player and a random player. In a game where skill counts, every
better player beats every worse one: the better one's win share, seats rotated, should
reach the fair share 1/players plus a margin (`--skill-margin`, default 0.1).

The measure `skill` is the mean shortfall over the six pairs (0: every better player wins
often enough); each pair's win share is reported with its 95% interval.
"""
from __future__ import annotations

import itertools

from ..bots.registry import make_bot
from .intervals import proportion

DEFAULT_MARGIN = 0.1


def skill_bots(game) -> list[str]:
    """The four players, strongest first: the game's MCTS, half its budget, greedy, random."""
    iterations = make_bot("mcts", 0, game).iterations
    return ["mcts", f"mcts:iterations={max(1, iterations // 2)}", "greedy", "random"]


def skill_pairs(bots: list[str]) -> list[tuple[str, str]]:
    """(better, worse) for every pair, in order."""
    return list(itertools.combinations(bots, 2))


def pair_specs(better: str, worse: str, players: int) -> list[str]:
    """The better bot at one seat, the worse at every other (rotated from game to game)."""
    return [better] + [worse] * (players - 1)


def pair_label(better: str, worse: str) -> str:
    return f"skill {better} over {worse}"


def skill_rows(records_by_pair: dict, players: int, margin: float = DEFAULT_MARGIN) -> dict:
    """The win share of the better bot of each pair, and `skill`: the mean shortfall below
    1/players + margin, with the interval the pairs' intervals allow."""
    target = 1 / players + margin
    rows, shortfalls = {}, []
    for (better, worse), records in records_by_pair.items():
        wins = sum(1 / len(r["winners"]) for r in records for p, spec in enumerate(r["bots"])
                   if spec == better and p in r["winners"])
        row = proportion(wins, len(records))
        rows[pair_label(better, worse)] = row
        value, low, high = row
        shortfalls.append((max(0.0, target - value), max(0.0, target - high), max(0.0, target - low)))
    count = len(shortfalls) or 1
    rows["skill"] = tuple(sum(s[k] for s in shortfalls) / count for k in range(3))
    return rows
