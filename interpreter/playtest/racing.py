"""Choosing among noisy candidates: order them by their losses (one goal: the loss; several:
the Pareto rank, then the sum of losses scaled by each goal's size), race them by
successive halving (every survivor of a rung gets `factor` times the games, and only the
best 1/`factor` go on), and pick the best by a confirmation run.

The confirmed best is chosen from the confirmation's own games, never from the search's
estimates: a candidate that looked best by luck in the search is not favoured.
"""
from __future__ import annotations


def dominates(a: tuple, b: tuple) -> bool:
    """Whether losses `a` are no worse than `b` everywhere and better somewhere."""
    return all(x <= y for x, y in zip(a, b)) and any(x < y for x, y in zip(a, b))


def pareto_ranks(losses: list[tuple]) -> list[int]:
    """0 for the non-dominated losses, 1 for those dominated only by rank 0, and so on."""
    ranks = [-1] * len(losses)
    rank, left = 0, set(range(len(losses)))
    while left:
        front = {i for i in left if not any(dominates(losses[j], losses[i]) for j in left if j != i)}
        for i in front:
            ranks[i] = rank
        left -= front
        rank += 1
    return ranks


def ordered(losses: list[tuple], scales: tuple) -> list[int]:
    """Indexes of the candidates, best first: by Pareto rank, then by the scaled sum of losses
    (the order of the list breaks remaining ties, so the order is reproducible)."""
    ranks = pareto_ranks(losses)
    return sorted(range(len(losses)), key=lambda i: (ranks[i], sum(l / s for l, s in zip(losses[i], scales)), i))


def successive_halving(pool: list, games_of, play_to, loss_of, scales: tuple, keep: int, factor: int,
                       budget: int) -> list:
    """Race the candidates of `pool` (ordered best first): each rung gives the best
    ceil(len/factor) (at least `keep`) `factor` times the games of the previous rung, while
    `budget` games remain. `games_of(c)` says how many games c has, `play_to(c, n)` plays it
    up to n games, `loss_of(c)` is its loss tuple. Returns the pool ordered best first."""
    while len(pool) > keep:
        survivors = pool[:max(keep, -(-len(pool) // factor))]
        target = max(games_of(c) for c in survivors) * factor
        cost = sum(max(0, target - games_of(c)) for c in survivors)
        if cost > budget or cost == 0:
            break
        for c in survivors:
            play_to(c, target)
        budget -= cost
        pool = [survivors[i] for i in ordered([loss_of(c) for c in survivors], scales)]
    return pool


def pick_confirmed(confirmed_losses: list[tuple], scales: tuple) -> int:
    """The index of the best candidate by its confirmation losses alone."""
    return ordered(confirmed_losses, scales)[0]
