"""The head start race in plain Python: the hare's exact chance to win for every head start,
by dynamic programming over (hare's position, tortoise's position, who moves), and the fair
head start (the one whose chance is nearest 1/2). Independent of the engine: it is the
yardstick `tune` is measured against (tests/test_tune.py, docs/playtesting.md).

    python3 reference.py [GOAL]    prints the chance for each head start and the fair one
"""
from __future__ import annotations

import sys
from fractions import Fraction
from functools import lru_cache

HARE_DIE, TORTOISE_DIE = 6, 4


def hare_wins(head_start: int, goal: int = 30) -> Fraction:
    """The exact chance that the hare (moving first) reaches `goal` before the tortoise."""

    @lru_cache(maxsize=None)
    def hare_to_move(a: int, b: int) -> Fraction:
        return sum((Fraction(1) if a + r >= goal else tortoise_to_move(a + r, b))
                   for r in range(1, HARE_DIE + 1)) / HARE_DIE

    @lru_cache(maxsize=None)
    def tortoise_to_move(a: int, b: int) -> Fraction:
        return sum((Fraction(0) if b + s >= goal else hare_to_move(a, b + s))
                   for s in range(1, TORTOISE_DIE + 1)) / TORTOISE_DIE

    return hare_to_move(0, head_start) if head_start < goal else Fraction(0)


def fair_head_start(goal: int = 30, highest: int = 30) -> int:
    """The head start whose hare's chance is nearest 1/2."""
    return min(range(highest + 1), key=lambda k: abs(hare_wins(k, goal) - Fraction(1, 2)))


if __name__ == "__main__":
    goal = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    for k in range(goal + 1):
        print(f"head start {k:2}: the hare wins {float(hare_wins(k, goal)):.4f}")
    print(f"fair head start: {fair_head_start(goal)}")
