"""Bots: random, greedy and Monte Carlo tree search (MCTS) on determinized states.

A bot sees only what its seat may see: before it looks ahead, `determinize` reorders every
zone hidden from its seat from a canonical order with the bot's own RNG and gives the copy
a fresh RNG seed, so nothing it decides depends on hidden order or on future chance.
"""
from __future__ import annotations

import math
import random
import time

from ..dsl.errors import UsageError, did_you_mean


def determinize(game, st, seat: int, rng: random.Random):
    """A copy of `st` in which what `seat` cannot see is resampled."""
    d = st.copy()
    for key, zone in d.zones.items():
        if type(zone) is not list or len(zone) < 2:
            continue
        if game.visible_to(key, seat):
            continue
        keep = zone[-1:] if game.zone_meta[key.split("/")[0]][1] == "top" else []
        hidden = sorted(zone[:-1] if keep else zone)
        rng.shuffle(hidden)
        zone[:] = hidden + keep
    if d.sealed is not None:        # the others' sealed choices are not known: they choose again
        d.sealed = d.sealed.only_for(seat)
    d.rng = rng.getrandbits(64)
    return d


def evaluations(game, st) -> list:
    """Each seat's evaluation of a position: the rule file's heuristic, else its score."""
    if game.heuristic is not None:
        return [game.heuristic(st, p) for p in range(st.players)]
    return [game.score_sign * s for s in game.result(st).scores]     # lowest-wins scores count negated


def standing(game, st) -> list[float]:
    """Each seat's value of a position in [0, 1]: its share of the victory if the game is
    over, else a logistic of its lead over the others' mean evaluation (the rule file's
    heuristic, or the score), scaled by the evaluations' size."""
    if st.finished:
        winners = game.result(st).winners
        return [1 / len(winners) if p in winners else 0.0 for p in range(st.players)]
    values = evaluations(game, st)
    n = len(values)
    if n == 1:
        return [0.5]
    scale = max(1.0, sum(abs(v) for v in values) / n)
    total = sum(values)
    return [1 / (1 + math.exp(-((v - (total - v) / (n - 1)) / scale))) for v in values]


class RandomBot:
    """Chooses uniformly among the options."""
    name = "random"

    def __init__(self, seed, **_):
        self.rng = random.Random(seed)

    def choose(self, game, st) -> int:
        return self.rng.randrange(len(st.pending.values))


class GreedyBot:
    """Picks the option with the best immediate value for its own seat: the rule file's
    heuristic if it declares one, else its score; ties broken at random."""
    name = "greedy"

    def __init__(self, seed, **_):
        self.rng = random.Random(seed)

    def values(self, game, st) -> list:
        seat = st.pending.player
        base = determinize(game, st, seat, self.rng)
        out = []
        for index in range(len(st.pending.values)):
            trial = base.copy()
            game.apply_index(trial, index)
            while trial.sealed is not None and trial.sealed.chosen:
                # A simultaneous decision: the others' sealed choices are unknown; guess them
                # at random so that the choices are revealed and the position can be judged.
                game.apply_index(trial, self.rng.randrange(len(trial.pending.values)))
            out.append(standing(game, trial)[seat] if trial.finished else evaluations(game, trial)[seat])
        return out

    def choose(self, game, st) -> int:
        values = self.values(game, st)
        best = max(values)
        return self.rng.choice([i for i, v in enumerate(values) if v == best])


class Node:
    __slots__ = ("children", "visits", "total")

    def __init__(self, players: int):
        self.children: dict = {}
        self.visits = 0
        self.total = [0.0] * players


class MCTSBot:
    """UCT search over option ids on a fresh determinization per iteration, with random
    rollouts of limited depth evaluated by `standing`; returns per seat."""
    name = "mcts"

    def __init__(self, seed, iterations: int = 100, seconds: float | None = None, depth: int = 0,
                 exploration: float = 1.0):
        self.rng = random.Random(seed)
        self.iterations = int(iterations)
        self.seconds = float(seconds) if seconds is not None else None
        self.depth = int(depth)
        self.c = float(exploration)

    def search(self, game, st) -> Node:
        seat = st.pending.player
        root = Node(st.players)
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        done = 0
        while (done < self.iterations) if deadline is None else (time.perf_counter() < deadline or done == 0):
            self.iterate(game, determinize(game, st, seat, self.rng), root)
            done += 1
        return root

    def iterate(self, game, det, root: Node) -> None:
        node, path = root, [root]
        while not det.finished:
            ids = [_key(v) for v in det.pending.values]
            untried = [i for i, oid in enumerate(ids) if oid not in node.children]
            if untried:
                i = self.rng.choice(untried)
                child = node.children[ids[i]] = Node(det.players)
                game.apply_index(det, i)
                path.append(child)
                break
            mover = det.pending.player
            log_n = math.log(node.visits + 1)
            best, best_score = 0, -1.0
            for i, oid in enumerate(ids):
                child = node.children[oid]
                score = child.total[mover] / child.visits + self.c * math.sqrt(log_n / child.visits)
                if score > best_score:
                    best, best_score = i, score
            node = node.children[ids[best]]
            game.apply_index(det, best)
            path.append(node)
        for _ in range(self.depth):
            if det.finished:
                break
            game.apply_index(det, self.rng.randrange(len(det.pending.values)))
        reward = standing(game, det)
        for n in path:
            n.visits += 1
            for p, r in enumerate(reward):
                n.total[p] += r

    def visits(self, game, st) -> dict:
        """Visits of each option (by option id) after a search from `st`."""
        root = self.search(game, st)
        return {oid: _visits(root, v) for oid, v in zip(game.option_ids(st), st.pending.values)}

    def choose(self, game, st) -> int:
        root = self.search(game, st)
        counts = [_visits(root, v) for v in st.pending.values]
        best = max(counts)
        return self.rng.choice([i for i, n in enumerate(counts) if n == best])


def _key(value):
    return tuple(value) if type(value) is list else value


def _visits(root: Node, value) -> int:
    child = root.children.get(_key(value))
    return child.visits if child is not None else 0


BOTS = {"random": RandomBot, "greedy": GreedyBot, "mcts": MCTSBot}
BOT_OPTIONS = {"mcts": ("iterations", "seconds", "depth", "exploration")}
# Finite budgets: a bot decides in bounded time and memory (docs/security.md).
BOT_LIMITS = {"iterations": 1_000_000, "seconds": 3600, "depth": 10_000, "exploration": 1000}


def make_bot(spec: str, seed):
    """A bot from a spec like 'random', 'greedy' or 'mcts:iterations=300:depth=8'."""
    name, *settings = [part.strip() for part in spec.split(":")]
    if name not in BOTS:
        hint = did_you_mean(name, BOTS)
        raise UsageError(f"unknown bot '{name}'; bots: {', '.join(BOTS)}" + (f"; {hint}" if hint else ""))
    options = {}
    for setting in settings:
        key, _, value = setting.partition("=")
        allowed = BOT_OPTIONS.get(name, ())
        if key not in allowed or not value:
            raise UsageError(f"bad bot setting '{setting}' for {name}"
                             + (f"; settings: {', '.join(k + '=N' for k in allowed)}" if allowed else
                                f"; {name} takes no settings"))
        try:
            options[key] = float(value) if len(value) <= 20 else math.inf
        except ValueError:
            raise UsageError(f"bad bot setting '{setting[:60]}': {value[:40]!r} is not a number")
        if not math.isfinite(options[key]):
            raise UsageError(f"bad bot setting '{setting[:60]}': a budget is a finite number")
        if options[key] < 0 or options[key] > BOT_LIMITS.get(key, math.inf):
            raise UsageError(f"bad bot setting '{setting[:60]}': from 0 to {BOT_LIMITS.get(key, 'any')}")
    return BOTS[name](seed, **options)
