"""The bot ladder: a round robin of seeded 2-player games between bots, with seats rotated,
summarised as Bradley-Terry ratings on the Elo scale with 95% intervals.

Every pair of bots plays `games` games (bot k of the pair sits at seat (k + game) mod 2);
a shared victory counts half a win to each. The Bradley-Terry model says bot i beats bot j
with probability 1 / (1 + 10 ** ((r_j - r_i) / 400)); the ratings r maximise the
likelihood of the results after one virtual drawn game per pair is added (so that a bot
that won or lost every game still gets a finite rating), and are centred on a mean of 0.
The intervals come from the inverse of the likelihood's curvature (the Fisher information).
"""
from __future__ import annotations

import math
from itertools import combinations

from ...dsl.errors import UsageError
from ..bots.registry import make_bot
from .report import Z95, wilson
from .simulate import simulate_records

ELO = 400 / math.log(10)        # Elo points per unit of natural-log strength
PRIOR_DRAWS = 1                 # virtual drawn games added to every pair


def play_ladder(game, bots: list, games: int, seed: int, workers: int = 1, ref=None, progress=None) -> dict:
    """Play the round robin; return the pairings' results and the ratings."""
    if len(bots) < 2:
        raise UsageError("a ladder needs at least two bots: --bots random,greedy")
    if len(set(bots)) != len(bots):
        raise UsageError("each bot may appear once on a ladder; give two settings to tell them apart")
    settings = {}
    for spec in bots:
        settings[spec] = make_bot(spec, 0, game).describe()
    pairs = []
    for i, j in combinations(range(len(bots)), 2):
        records = simulate_records(game, 2, games, seed, [bots[i], bots[j]], rotate=True, workers=workers, ref=ref)
        wins_i = sum(_share(r, r["bots"].index(bots[i])) for r in records)
        wins_j = sum(_share(r, r["bots"].index(bots[j])) for r in records)
        pairs.append({"bots": [bots[i], bots[j]], "games": len(records), "wins": [round(wins_i, 4), round(wins_j, 4)],
                      "draws": round(len(records) - wins_i - wins_j, 4), "score_rate": round((wins_i + (len(records) - wins_i - wins_j) / 2) / len(records), 4),
                      "ci95": wilson(wins_i + (len(records) - wins_i - wins_j) / 2, len(records))})
        if progress is not None:
            progress(len(pairs), len(bots) * (len(bots) - 1) // 2)
    ratings, errors = bradley_terry(len(bots), [((bots.index(p["bots"][0]), bots.index(p["bots"][1])),
                                                 p["wins"][0] + p["draws"] / 2, p["games"]) for p in pairs])
    table = []
    for k, spec in enumerate(bots):
        played = [p for p in pairs if spec in p["bots"]]
        points = sum((p["wins"][p["bots"].index(spec)] + p["draws"] / 2) for p in played)
        total = sum(p["games"] for p in played)
        table.append({"bot": spec, "settings": settings[spec], "rating": round(ratings[k], 1),
                      "ci95": [round(ratings[k] - Z95 * errors[k], 1), round(ratings[k] + Z95 * errors[k], 1)],
                      "games": total, "score_rate": round(points / total, 4)})
    table.sort(key=lambda row: -row["rating"])
    return {"game": game.title, "variant": game.variant, "players": 2, "games_per_pair": games,
            "seed": seed, "pairs": pairs, "ratings": table}


def _share(record: dict, seat: int) -> float:
    winners = record["winners"]
    return 1 / len(winners) if seat in winners else 0.0


def bradley_terry(n: int, results: list) -> tuple[list, list]:
    """Ratings (Elo scale, mean 0) and their standard errors from results
    [((i, j), points of i against j, games)], each pair with PRIOR_DRAWS virtual draws."""
    points = [[0.0] * n for _ in range(n)]
    games = [[0.0] * n for _ in range(n)]
    for (i, j), won, played in results:
        points[i][j] += won + PRIOR_DRAWS / 2
        points[j][i] += played - won + PRIOR_DRAWS / 2
        games[i][j] += played + PRIOR_DRAWS
        games[j][i] += played + PRIOR_DRAWS
    strength = [1.0] * n
    for _ in range(10_000):         # Hunter's MM iteration; converges for connected pairings
        new = []
        for i in range(n):
            wins = sum(points[i])
            denom = sum(games[i][j] / (strength[i] + strength[j]) for j in range(n) if j != i and games[i][j])
            new.append(wins / denom if denom else strength[i])
        mean_log = sum(math.log(s) for s in new) / n
        new = [s / math.exp(mean_log) for s in new]
        done = max(abs(math.log(a) - math.log(b)) for a, b in zip(new, strength)) < 1e-10
        strength = new
        if done:
            break
    theta = [math.log(s) for s in strength]
    info = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j and games[i][j]:
                p = 1 / (1 + math.exp(theta[j] - theta[i]))
                w = games[i][j] * p * (1 - p)
                info[i][j] -= w
                info[i][i] += w
    # The information has the all-ones direction as its null space (ratings are relative):
    # the covariance of the mean-zero ratings is its pseudo-inverse, inv(I + J/n) - J/n.
    shifted = [[info[i][j] + 1 / n for j in range(n)] for i in range(n)]
    inverse = _invert(shifted)
    errors = [ELO * math.sqrt(max(0.0, inverse[i][i] - 1 / n)) for i in range(n)]
    return [ELO * t for t in theta], errors


def _invert(matrix: list) -> list:
    """The inverse of a small non-singular matrix (Gauss-Jordan with partial pivoting)."""
    n = len(matrix)
    rows = [list(row) + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [v / lead for v in rows[col]]
        for r in range(n):
            if r != col and rows[r][col]:
                factor = rows[r][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col])]
    return [row[n:] for row in rows]


def format_ladder(report: dict) -> str:
    title = report["game"] + (f" ({report['variant']})" if report.get("variant") else "")
    out = [f"{title}: ladder of {len(report['ratings'])} bots, {report['games_per_pair']} rotated 2-player "
           f"games per pair, seed {report['seed']}",
           f"  {'rank':<5}{'bot':<28}{'rating':>8}{'95% CI':>18}{'score':>8}{'games':>7}  settings"]
    for rank, row in enumerate(report["ratings"], 1):
        lo, hi = row["ci95"]
        out.append(f"  {rank:<5}{row['bot']:<28}{row['rating']:>8.0f}{f'[{lo:.0f}, {hi:.0f}]':>18}"
                   f"{row['score_rate']:>8.3f}{row['games']:>7}  {row['settings']}")
    out.append("  pairings (score of the first bot: wins + half the draws and shared wins):")
    for p in report["pairs"]:
        lo, hi = p["ci95"]
        a, b = p["bots"]
        out.append(f"    {a} vs {b}: {p['wins'][0]:g}-{p['wins'][1]:g}"
                   + (f" ({p['draws']:g} drawn)" if p["draws"] else "")
                   + f" of {p['games']}, score {p['score_rate']:.3f} [{lo:.3f}, {hi:.3f}]")
    out.append("  ratings: Bradley-Terry on the Elo scale (mean 0; +400 = 10:1 odds), one virtual draw per pair")
    return "\n".join(out)
