"""`boardwright bench`: how fast a game loads and plays, for one game or every bundled one.

For each game (and variant) it times loading (parse, check, compile: the median of five
loads, or `loads`, as a user's later runs see them, with the in-memory caches emptied but the disk
cache kept), random playouts (games, decisions and turns per second), and MCTS iterations
per second on positions a few random moves into seeded games.
"""
from __future__ import annotations

import statistics
import time

from ..bots.registry import make_bot
from .simulate import game_seed, play_game


def default_players(game) -> int:
    return 2 if game.min_players <= 2 <= game.max_players else game.min_players


def bench_game(load, players: int | None = None, games: int = 20, seed: int = 1,
               mcts_iterations: int = 200, mcts_positions: int = 3, loads: int = 5) -> dict:
    """Measure one game; `load` returns a freshly loaded `Game`."""
    from ...dsl.parsed import forget_parsed
    from ..compile.codegen import forget_compiled
    load_times = []
    for _ in range(loads):
        forget_parsed()
        forget_compiled()
        t = time.perf_counter()
        game = load()
        load_times.append(time.perf_counter() - t)
    players = players or default_players(game)
    game.setup_state(players, 0)        # a wrong player count is a usage error, before any work
    start = time.perf_counter()
    turns = decisions = 0
    for i in range(games):
        st, _ = play_game(game, players, game_seed(seed, i))
        turns += sum(st.turns)
        decisions += len(st.history)
    seconds = time.perf_counter() - start
    iterations, search_seconds = 0, 0.0
    for k in range(mcts_positions):
        st = game.new_state(players, game_seed(seed, 1000 + k))
        mover = make_bot("random", f"bench:{k}")
        for _ in range(6):
            if st.finished:
                break
            game.apply_index(st, mover.choose(game, st))
        if st.finished:
            continue
        bot = make_bot(f"mcts:iterations={mcts_iterations}", f"bench:mcts:{k}")
        t = time.perf_counter()
        bot.choose(game, st)
        search_seconds += time.perf_counter() - t
        iterations += mcts_iterations
    return {
        "game": game.title, "variant": game.variant, "players": players, "games": games,
        "load_and_check_ms": round(statistics.median(load_times) * 1000, 2),
        "first_load_ms": round(load_times[0] * 1000, 2),
        "playouts_per_second": round(games / seconds, 3),
        "decisions_per_second": round(decisions / seconds, 1),
        "turns_per_second": round(turns / seconds, 1),
        "mean_turns": round(turns / games, 2),
        "mcts_iterations_per_second": round(iterations / search_seconds, 1) if search_seconds else None,
        "seconds": round(seconds + search_seconds, 3),
    }


def format_bench(rows: list[dict]) -> str:
    head = ("game", "players", "load ms", "playouts/s", "decisions/s", "MCTS it/s")
    lines = [[r["game"] + (f" ({r['variant']})" if r["variant"] else ""), str(r["players"]),
              f"{r['load_and_check_ms']:.1f}", f"{r['playouts_per_second']:.1f}",
              f"{r['decisions_per_second']:.0f}",
              "-" if r["mcts_iterations_per_second"] is None else f"{r['mcts_iterations_per_second']:.0f}"]
             for r in rows]
    widths = [max(len(h), *(len(l[i]) for l in lines)) for i, h in enumerate(head)]
    out = ["  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(head, widths)))]
    for line in lines:
        out.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(line, widths))))
    return "\n".join(out)
