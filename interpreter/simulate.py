"""Bots and batch play: seeded random playouts, simulation statistics and the benchmark."""
from __future__ import annotations

import random
import statistics
import time

from ..dsl.errors import UsageError


class RandomBot:
    """Chooses uniformly among the options, from its own seeded RNG."""
    name = "random"

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def choose(self, game, st) -> int:
        return self.rng.randrange(len(st.pending.values))


BOTS = {"random": RandomBot}


def make_bot(spec: str, seed):
    name = spec.split(":", 1)[0].strip()
    if name not in BOTS:
        raise UsageError(f"unknown bot '{name}'; bots: {', '.join(BOTS)}")
    return BOTS[name](seed)


def game_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


def play_game(game, players: int, seed: int, bots=None) -> tuple:
    """Play one game with bots (random by default); return (state, result)."""
    st = game.new_state(players, seed)
    if bots is None:
        bots = [RandomBot(f"{seed}:{p}") for p in range(players)]
    while not st.finished:
        p = st.pending.player
        game.apply_index(st, bots[p].choose(game, st))
    return st, game.result(st)


def simulate(game, players: int, games: int, seed: int, bot_specs=None) -> dict:
    """Play `games` seeded games and summarise them. Same arguments, same numbers."""
    specs = list(bot_specs or ["random"] * players)
    if len(specs) != players:
        raise UsageError(f"{len(specs)} bots for {players} players")
    wins = [0.0] * players
    score_sums = [0.0] * players
    draws = 0
    turns = []
    decisions = []
    start = time.perf_counter()
    for i in range(games):
        s = game_seed(seed, i)
        bots = [make_bot(spec, f"{s}:{p}") for p, spec in enumerate(specs)]
        st, result = play_game(game, players, s, bots)
        if game.coverage is not None:
            game.coverage.record_result(result)
        if result.winners:
            for w in result.winners:
                wins[w] += 1 / len(result.winners)
        else:
            draws += 1
        for p in range(players):
            score_sums[p] += result.scores[p]
        turns.append(sum(st.turns))
        decisions.append(len(st.history))
    seconds = time.perf_counter() - start
    return {
        "game": game.title,
        "variant": game.variant,
        "players": players,
        "games": games,
        "seed": seed,
        "bots": specs,
        "wins": [round(w, 6) for w in wins],
        "draws": draws,
        "scores": [round(s / games, 6) for s in score_sums] if games else [0] * players,
        "turns": {"mean": round(statistics.fmean(turns), 6) if turns else 0,
                  "min": min(turns, default=0), "max": max(turns, default=0)},
        "decisions": {"mean": round(statistics.fmean(decisions), 6) if decisions else 0},
        "seconds": round(seconds, 3),
    }


def bench(load, players: int, games: int, seed: int = 1) -> dict:
    """Time loading and checking the rule file, then random playouts."""
    load_times = []
    for _ in range(5):
        t = time.perf_counter()
        game = load()
        load_times.append(time.perf_counter() - t)
    start = time.perf_counter()
    total_turns = total_decisions = 0
    for i in range(games):
        st, _ = play_game(game, players, game_seed(seed, i))
        total_turns += sum(st.turns)
        total_decisions += len(st.history)
    seconds = time.perf_counter() - start
    return {
        "game": game.title, "variant": game.variant, "players": players, "games": games,
        "load_and_check_ms": round(statistics.median(load_times) * 1000, 2),
        "first_load_ms": round(load_times[0] * 1000, 2),
        "playouts_per_second": round(games / seconds, 3),
        "turns_per_second": round(total_turns / seconds, 1),
        "decisions_per_second": round(total_decisions / seconds, 1),
        "mean_turns": round(total_turns / games, 2),
        "seconds": round(seconds, 3),
    }
