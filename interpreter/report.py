"""Simulation reports: win rates with 95% confidence intervals, score statistics, score
lines, game length, branching, ties, first-player advantage and lead changes; tables,
JSON, CSV and plots; and `compare`'s significance tests between two configurations."""
from __future__ import annotations

import csv
import math
import statistics

Z95 = 1.959963984540054


def wilson(successes: float, n: int) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (successes may be fractional: shared wins)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + Z95 ** 2 / n
    centre = (p + Z95 ** 2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / denom
    return (round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4))


def _share(record: dict, seat: int) -> float:
    winners = record["winners"]
    return 1 / len(winners) if seat in winners else 0.0


def _mean(values) -> float:
    values = list(values)
    return round(statistics.fmean(values), 4) if values else 0.0


def _sd(values) -> float:
    values = list(values)
    return round(statistics.stdev(values), 4) if len(values) > 1 else 0.0


def summarise(records: list[dict], meta: dict) -> dict:
    n = len(records)
    players = meta["players"]
    wins = [sum(_share(r, p) for r in records) for p in range(players)]
    titles = list(records[0]["lines"][0]) if records else []
    seats = []
    for p in range(players):
        scores = [r["scores"][p] for r in records]
        seats.append({"seat": p, "wins": round(wins[p], 4), "win_rate": round(wins[p] / n, 4) if n else 0,
                      "ci95": wilson(wins[p], n), "score_mean": _mean(scores), "score_sd": _sd(scores),
                      "lines": {t: _mean(r["lines"][p][t] for r in records) for t in titles}})
    by_bot: dict = {}
    for r in records:
        for p, spec in enumerate(r["bots"]):
            entry = by_bot.setdefault(spec, {"bot": spec, "seat_games": 0, "wins": 0.0, "scores": []})
            entry["seat_games"] += 1
            entry["wins"] += _share(r, p)
            entry["scores"].append(r["scores"][p])
    bots = [{"bot": e["bot"], "seat_games": e["seat_games"], "wins": round(e["wins"], 4),
             "win_rate": round(e["wins"] / e["seat_games"], 4), "ci95": wilson(e["wins"], e["seat_games"]),
             "score_mean": _mean(e["scores"])} for e in by_bot.values()]
    firsts = [r for r in records if r["first_player"] is not None]
    first_rate = sum(_share(r, r["first_player"]) for r in firsts) / len(firsts) if firsts else 0.0
    turns = [r["turns"] for r in records]
    decisions = sum(r["decisions"] for r in records)
    # Scripted opponents (no seat): a game no seat won is theirs.
    rivals = list(dict.fromkeys(t for r in records for t in (r.get("opponents") or {})))
    opponents = [{"opponent": t, "wins": sum(1 for r in records if not r["winners"]),
                  "score_mean": _mean((r.get("opponents") or {}).get(t, 0) for r in records)} for t in rivals]
    endings: dict = {}          # name -> games it decided, in order of first appearance
    for r in records:
        for name in r.get("endings") or []:
            endings[name] = endings.get(name, 0) + 1
    return {
        **meta,
        "games": n,
        "wins": [round(w, 6) for w in wins],
        "draws": sum(1 for r in records if not r["winners"] and not r.get("opponents")),
        "scores": [s["score_mean"] for s in seats],
        "turns": {"mean": _mean(turns), "min": min(turns, default=0), "max": max(turns, default=0),
                  "sd": _sd(turns)},
        "decisions": {"mean": _mean(r["decisions"] for r in records)},
        "branching": round(sum(r["options"] for r in records) / decisions, 4) if decisions else 0.0,
        "ties": round(sum(1 for r in records if len(r["winners"]) > 1) / n, 4) if n else 0.0,
        "first_player_advantage": round(first_rate - 1 / players, 4) if firsts else 0.0,
        "lead_changes": _mean(r["lead_changes"] for r in records),
        "endings": endings,
        "seats": seats,
        "by_bot": bots,
        **({"opponents": opponents} if opponents else {}),
    }


def format_report(report: dict, player_name) -> str:
    title = report["game"] + (f" ({report['variant']})" if report.get("variant") else "")
    out = [f"{title}: {report['games']} games, {report['players']} players, seed {report['seed']}"
           + (", bots rotated over seats" if report.get("rotate") else "")]
    out.append(f"  {'seat':<10} {'win rate':>9} {'95% CI':>17} {'mean score':>11} {'sd':>8}  score lines")
    for s in report["seats"]:
        lines = ", ".join(f"{k} {v:g}" for k, v in s["lines"].items())
        lo, hi = s["ci95"]
        out.append(f"  {player_name(s['seat']):<10} {s['win_rate']:>9.3f} {f'[{lo:.3f}, {hi:.3f}]':>17} "
                   f"{s['score_mean']:>11.3f} {s['score_sd']:>8.3f}  {lines}")
    settings = report.get("bot_settings", {})
    if len(report["by_bot"]) > 1 or report.get("rotate"):
        out.append(f"  {'bot':<24} {'win rate':>9} {'95% CI':>17} {'mean score':>11}  settings")
        for b in report["by_bot"]:
            lo, hi = b["ci95"]
            out.append(f"  {b['bot']:<24} {b['win_rate']:>9.3f} {f'[{lo:.3f}, {hi:.3f}]':>17} {b['score_mean']:>11.3f}"
                       f"  {settings.get(b['bot'], '')}")
    elif settings:
        out.append("  bots: " + "; ".join(settings.values()))
    for o in report.get("opponents", []):
        out.append(f"  {o['opponent']} (scripted): wins {o['wins']} of {report['games']}, "
                   f"mean score {o['score_mean']:.3f}")
    t = report["turns"]
    out.append(f"  turns per game: mean {t['mean']:.1f}, sd {t['sd']:.1f}, min {t['min']}, max {t['max']}")
    out.append(f"  options per decision {report['branching']:.2f}; ties {report['ties']:.1%}; "
               f"draws {report['draws']}; lead changes per game {report['lead_changes']:.2f}; "
               f"first-player advantage {report['first_player_advantage']:+.3f}")
    if report.get("endings"):
        named = ", ".join(f'"{name}" {games}' for name, games in report["endings"].items())
        out.append(f"  games decided by named endings and fallbacks: {named}")
    out.append(f"  {report['seconds']} s")
    return "\n".join(out)


def write_csv(path: str, records: list[dict], players: int) -> None:
    titles = list(records[0]["lines"][0]) if records else []
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["game", "seed", "turns", "decisions", "options_per_decision", "lead_changes",
                         "first_player", "winners", "endings"]
                        + [f"bot_{p}" for p in range(players)] + [f"score_{p}" for p in range(players)]
                        + [f"{t}_{p}" for p in range(players) for t in titles])
        for r in records:
            writer.writerow([r["index"], r["seed"], r["turns"], r["decisions"],
                             round(r["options"] / r["decisions"], 4) if r["decisions"] else 0,
                             r["lead_changes"], "" if r["first_player"] is None else r["first_player"],
                             " ".join(map(str, r["winners"])), "; ".join(r.get("endings") or [])]
                            + r["bots"] + r["scores"] + [r["lines"][p][t] for p in range(players) for t in titles])


def plot(path: str, records: list[dict], report: dict, player_name) -> None:
    """Score distributions per seat, and win rate per seat with its 95% interval, as a PNG."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        from ..dsl.errors import UsageError
        raise UsageError("--plot needs matplotlib: pip install 'boardwright[plot]'")
    players = report["players"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for p in range(players):
        left.hist([r["scores"][p] for r in records], bins=20, alpha=0.5, label=player_name(p))
    left.set_title("Final scores per seat")
    left.set_xlabel("score")
    left.set_ylabel("games")
    left.legend()
    rates = [s["win_rate"] for s in report["seats"]]
    errors = [[r - s["ci95"][0] for r, s in zip(rates, report["seats"])],
              [s["ci95"][1] - r for r, s in zip(rates, report["seats"])]]
    right.bar([player_name(p) for p in range(players)], rates, yerr=errors, capsize=6, color="tab:blue")
    right.axhline(1 / players, color="grey", linestyle="--", linewidth=1)
    right.set_ylim(0, 1)
    right.set_title("Win rate per seat (95% CI)")
    title = report["game"] + (f" ({report['variant']})" if report.get("variant") else "")
    fig.suptitle(f"{title}: {report['games']} games")
    fig.tight_layout()
    fig.savefig(path, format="png", dpi=100)
    plt.close(fig)


def welch_p(a: list, b: list) -> float:
    """Two-sided p-value of Welch's t-test (normal approximation for the t distribution)."""
    if len(a) < 2 or len(b) < 2:
        return 1.0
    va, vb = statistics.variance(a), statistics.variance(b)
    se = math.sqrt(va / len(a) + vb / len(b))
    if se == 0:
        return 1.0 if statistics.fmean(a) == statistics.fmean(b) else 0.0
    z = abs(statistics.fmean(a) - statistics.fmean(b)) / se
    return math.erfc(z / math.sqrt(2))


def proportion_p(x1: float, n1: int, x2: float, n2: int) -> float:
    """Two-sided p-value of the two-proportion z-test."""
    if not n1 or not n2:
        return 1.0
    pooled = (x1 + x2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return 1.0
    z = abs(x1 / n1 - x2 / n2) / se
    return math.erfc(z / math.sqrt(2))


def compare(configs: list[tuple[str, dict, list]], alpha: float = 0.05) -> dict:
    """Metrics of several configurations side by side; each later one is tested against the
    first, and differences with p < alpha are flagged."""
    _, base, base_records = configs[0]
    rows = []

    def metric(name, pick, test):
        values = [pick(report) for _, report, _ in configs]
        flags = [None] + [test(base_records, records) for _, _, records in configs[1:]]
        rows.append({"metric": name, "values": values, "p_values": flags,
                     "significant": [p is not None and p < alpha for p in flags]})

    players = base["players"]
    for p in range(players):
        metric(f"win rate seat {p}", lambda rep, p=p: rep["seats"][p]["win_rate"],
               lambda a, b, p=p: round(proportion_p(sum(_share(r, p) for r in a), len(a),
                                                    sum(_share(r, p) for r in b), len(b)), 4))
        metric(f"mean score seat {p}", lambda rep, p=p: rep["seats"][p]["score_mean"],
               lambda a, b, p=p: round(welch_p([r["scores"][p] for r in a], [r["scores"][p] for r in b]), 4))
    metric("turns per game", lambda rep: rep["turns"]["mean"],
           lambda a, b: round(welch_p([r["turns"] for r in a], [r["turns"] for r in b]), 4))
    metric("options per decision", lambda rep: rep["branching"],
           lambda a, b: round(welch_p([r["options"] / r["decisions"] for r in a],
                                      [r["options"] / r["decisions"] for r in b]), 4))
    metric("draw share", lambda rep: round(rep["draws"] / rep["games"], 4),
           lambda a, b: round(proportion_p(sum(1 for r in a if not r["winners"]), len(a),
                                           sum(1 for r in b if not r["winners"]), len(b)), 4))
    return {"configs": [name for name, _, _ in configs], "alpha": alpha, "rows": rows,
            "reports": [report for _, report, _ in configs]}


def format_compare(result: dict) -> str:
    names = result["configs"]
    width = max(14, *(len(n) + 2 for n in names))
    out = [f"  {'metric':<24}" + "".join(f"{n:>{width}}" for n in names) + "   p (vs first)"]
    for row in result["rows"]:
        cells = "".join(f"{v:>{width}.3f}" for v in row["values"])
        ps = ", ".join("—" if p is None else f"{p:.4f}{' *' if sig else ''}"
                       for p, sig in zip(row["p_values"][1:], row["significant"][1:]))
        out.append(f"  {row['metric']:<24}{cells}   {ps}")
    out.append(f"  * significant at p < {result['alpha']}")
    return "\n".join(out)
