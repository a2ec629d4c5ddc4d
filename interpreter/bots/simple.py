"""The simple bots: random (any option) and greedy (the best option judged as a whole move)."""
from __future__ import annotations

import random

from ...dsl.bot_settings import BOT_SETTINGS
from .determinize import determinize
from .values import _own_value
from .whole_moves import move_value


class RandomBot:
    """Chooses uniformly among the options."""
    name = "random"
    settings = BOT_SETTINGS["random"]

    def __init__(self, seed, **_):
        self.rng = random.Random(seed)

    def describe(self) -> str:
        return self.name

    def choose(self, game, st) -> int:
        if len(st.pending.values) == 1:
            return 0
        return self.rng.randrange(len(st.pending.values))


class GreedyBot:
    """Picks the option with the best value for its own seat: the rule file's heuristic if it
    declares one, else its score; ties broken at random. It judges a whole move: when its
    seat decides again before anyone else does (a move made of several choices), the option
    is worth the best of those follow-up choices, looked at up to `lookahead` positions."""
    name = "greedy"
    settings = BOT_SETTINGS["greedy"]

    def __init__(self, seed, lookahead: int = 200):
        self.rng = random.Random(seed)
        self.lookahead = int(lookahead)

    def describe(self) -> str:
        return f"greedy (lookahead={self.lookahead})"

    def values(self, game, st) -> list:
        seat = st.pending.player
        base = determinize(game, st, seat, self.rng)
        return [move_value(game, base, index, seat, [self.lookahead], _own_value, self.rng)
                for index in range(len(st.pending.values))]

    def choose(self, game, st) -> int:
        if len(st.pending.values) == 1:
            return 0
        values = self.values(game, st)
        best = max(values)
        return self.rng.choice([i for i, v in enumerate(values) if v == best])
