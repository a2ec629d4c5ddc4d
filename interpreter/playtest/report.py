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


def t_quantile(df: int) -> float:
    """The 0.975 quantile of Student's t with `df` degrees of freedom (Cornish-Fisher
    expansion around the normal quantile, within 0.01% above df = 10; the table up to 10)."""
    exact = {1: 12.7062, 2: 4.3027, 3: 3.1824, 4: 2.7764, 5: 2.5706, 6: 2.4469, 7: 2.3646, 8: 2.3060,
             9: 2.2622, 10: 2.2281}
    if df in exact:
        return exact[df]
    z = Z95
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3


def mean_interval(values) -> tuple[float, float, float]:
    """(mean, low, high): the 95% t interval of the mean of `values`."""
    values = [float(v) for v in values]
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = statistics.fmean(values)
    if n == 1:
        return (mean, mean, mean)
    half = t_quantile(n - 1) * statistics.stdev(values) / math.sqrt(n)
    return (mean, mean - half, mean + half)


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
    titles_measured = list(dict.fromkeys(t for r in records for t in (r.get("measures") or {})))
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
        **({"measures": _measures(records, titles_measured)} if titles_measured else {}),
    }


def _measures(records: list[dict], titles: list) -> dict:
    """The rule file's measures: title -> {"mean", "ci95"} (Student's t interval of the mean)."""
    out = {}
    for title in titles:
        mean, low, high = mean_interval(r["measures"][title] for r in records)
        out[title] = {"mean": round(mean, 4), "ci95": [round(low, 4), round(high, 4)]}
    return out


def seat_label(report: dict, seat: int, player_name) -> str:
    """'Player 1', with its bot when the seats have different bots that stay in place."""
    bots = report.get("bots") or []
    if len(set(bots)) > 1 and not report.get("rotate"):
        return f"{player_name(seat)} ({bots[seat]})"
    return player_name(seat)


def shows_bots(report: dict) -> bool:
    """Whether a per-bot table says more than the per-seat one: bots rotated over the seats,
    or one bot at several seats beside others."""
    count = len(report["by_bot"])
    return bool(report.get("rotate")) and count > 1 or 1 < count < report["players"]


def _bots_text(report: dict, player_name) -> str:
    bots = report.get("bots") or []
    if len(set(bots)) == 1:
        return f"{bots[0]} at every seat"
    text = ", ".join(f"{player_name(p)} {b}" for p, b in enumerate(bots))
    return text + (" in the first game, rotated over the seats from game to game" if report.get("rotate") else "")


def format_report(report: dict, player_name) -> str:
    """The text report: numbers to three decimals, players as 'Player 1'..., and a legend, so
    that it reads without the documentation."""
    title = report["game"] + (f" ({report['variant']})" if report.get("variant") else "")
    n = report["games"]
    labels = [seat_label(report, s["seat"], player_name) for s in report["seats"]]
    width = max([len(label) for label in labels] + [8])
    out = [f"{title}: {n} games, {report['players']} players, seed {report['seed']}",
           f"  bots: {_bots_text(report, player_name)}",
           f"  {'':<{width}} {'win rate':>8}  {'95% interval':<13} {'mean score':>10} {'sd':>6}  score lines"]
    for label, s in zip(labels, report["seats"]):
        lines = ", ".join(f"{k} {v:.3f}" for k, v in s["lines"].items())
        out.append(f"  {label:<{width}} {s['win_rate']:>8.3f}  {_interval(s['ci95']):<13} "
                   f"{s['score_mean']:>10.3f} {s['score_sd']:>6.3f}  {lines}")
    if shows_bots(report):
        bot_width = max([len(b["bot"]) for b in report["by_bot"]] + [width, 20])
        out.append(f"  {'bot (all its seats)':<{bot_width}} {'win rate':>8}  {'95% interval':<13} {'mean score':>10}")
        for b in report["by_bot"]:
            out.append(f"  {b['bot']:<{bot_width}} {b['win_rate']:>8.3f}  {_interval(b['ci95']):<13} "
                       f"{b['score_mean']:>10.3f}")
    settings = report.get("bot_settings", {})
    if settings:        # every bot's settings in full, defaults included
        out.append("  bot settings: " + "; ".join(settings.values()))
    for o in report.get("opponents", []):
        out.append(f"  {o['opponent']} (scripted opponent): won {o['wins']} of {n} games, "
                   f"mean score {o['score_mean']:.3f}")
    t = report["turns"]
    fair = 1 / report["players"]
    advantage = report["first_player_advantage"]
    out += [f"  game length: {t['mean']:.3f} turns on average (sd {t['sd']:.3f}, shortest {t['min']}, "
            f"longest {t['max']})",
            f"  options per decision: {report['branching']:.3f} on average; lead changes: "
            f"{report['lead_changes']:.3f} per game",
            f"  shared wins: {report['ties']:.3f} of games; draws (nobody won): {report['draws']} of {n}",
            f"  first-player advantage: {advantage:+.3f} (the first mover won {fair + advantage:.3f}; "
            f"fair is {fair:.3f})",
            *_endings(report),
            *_measure_lines(report),
            "  win rate: games won per game, a win shared by k players counting 1/k; the",
            "  true rate lies in the 95% interval with 95% confidence (more games narrow it)",
            f"  {report['seconds']:.1f} s"]
    return "\n".join(out)


def _endings(report: dict) -> list:
    if not report.get("endings"):
        return []
    named = ", ".join(f'"{name}" {games}' for name, games in report["endings"].items())
    return [f"  games decided by named endings and fallbacks: {named}"]


def _measure_lines(report: dict) -> list:
    return [f"  measure \"{title}\": {m['mean']:.3f} on average (95% interval {_interval(m['ci95'])})"
            for title, m in (report.get("measures") or {}).items()]


def _interval(ci) -> str:
    return f"{ci[0]:.3f}-{ci[1]:.3f}"


def csv_name(title: str) -> str:
    """A CSV column name: lower case, words joined by '_' ('Rounds won' -> 'rounds_won')."""
    return "_".join("".join(ch if ch.isalnum() else " " for ch in title.lower()).split())


def _csv_header(records: list[dict], players: int) -> tuple[list, list]:
    titles = list(records[0]["lines"][0]) if records else []
    measured = list((records[0].get("measures") or {}) if records else {})
    header = (["game", "seed", "turns", "decisions", "options_per_decision", "lead_changes", "first_seat",
               "winner_seats", "endings"] + [f"bot_{p}" for p in range(players)] + [f"score_{p}" for p in range(players)]
              + [f"{csv_name(t)}_{p}" for p in range(players) for t in titles]
              + [f"measure_{csv_name(t)}" for t in measured])
    return header, titles


def _csv_row(r: dict, players: int, titles: list) -> list:
    return ([r["index"], r["seed"], r["turns"], r["decisions"],
             round(r["options"] / r["decisions"], 4) if r["decisions"] else 0,
             r["lead_changes"], "" if r["first_player"] is None else r["first_player"],
             " ".join(map(str, r["winners"])), "; ".join(r.get("endings") or [])]
            + r["bots"] + r["scores"] + [r["lines"][p][t] for p in range(players) for t in titles]
            + list((r.get("measures") or {}).values()))


def write_csv(path: str, records: list[dict], players: int, player_name=None) -> None:
    """One row per game; seats are 0-based (`bot_0` is Player 1's bot)."""
    header, titles = _csv_header(records, players)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        for r in records:
            writer.writerow(_csv_row(r, players, titles))


def write_compare_csv(path: str, results: list, players: int, player_name=None) -> None:
    """`compare`'s games: simulate's columns after a `config` column naming the configuration."""
    header, titles = _csv_header(results[0][2], players)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["config"] + header)
        for name, _, records in results:
            for r in records:
                writer.writerow([name] + _csv_row(r, players, titles))


def _pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import MaxNLocator
    except ImportError:
        from ...dsl.errors import UsageError
        raise UsageError("--plot needs matplotlib: pip install 'boardwright[plot]'")
    return plt, MaxNLocator


def _whole(values) -> bool:
    return all(float(v).is_integer() for v in values)


def plot(path: str, records: list[dict], report: dict, player_name) -> None:
    """A PNG: one small histogram of final scores per seat (left, one above the other on the
    same scale), and the win rate of each seat, and of each bot when there are several, with
    its 95% interval (right)."""
    plt, _ = _pyplot()
    fig = score_figure(records, report, player_name)
    fig.savefig(path, format="png", dpi=100, bbox_inches="tight")
    plt.close(fig)


def score_figure(records: list[dict], report: dict, player_name):
    """The matplotlib figure `plot` saves."""
    plt, MaxNLocator = _pyplot()
    players = report["players"]
    labels = [seat_label(report, p, player_name) for p in range(players)]
    by_bot = shows_bots(report)
    fig = plt.figure(figsize=(12 if by_bot else 10, max(4.5, 1.6 * players + 1.5)))
    grid = fig.add_gridspec(players, 3 if by_bot else 2, wspace=0.3, hspace=0.6,
                            width_ratios=[1.5, 1, 1] if by_bot else [1.5, 1])
    everything = [r["scores"][p] for r in records for p in range(players)]
    whole = _whole(everything)
    bins = _bins(everything, whole)
    first = None
    for p in range(players):
        ax = fig.add_subplot(grid[p, 0], sharex=first)
        first = first or ax
        scores = [r["scores"][p] for r in records]
        ax.hist(scores, bins=bins, color=f"C{p}", edgecolor="white")
        mean = report["seats"][p]["score_mean"]
        ax.axvline(mean, color="black", linewidth=1)
        ax.set_title(f"{labels[p]}: mean score {mean:.2f}", fontsize=9, loc="left")
        ax.yaxis.set_major_locator(MaxNLocator(integer=True, nbins=3))
        ax.set_ylabel("games", fontsize=8)
        if whole:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        if p < players - 1:
            ax.tick_params(labelbottom=False)
    first.figure.axes[-1].set_xlabel("final score")
    _rate_bars(fig.add_subplot(grid[:, 1]), labels, report["seats"], players, "Win rate per seat (95% interval)")
    if by_bot:
        bots = report["by_bot"]
        _rate_bars(fig.add_subplot(grid[:, 2]), [b["bot"] for b in bots], bots, players,
                   "Win rate per bot, all seats (95% interval)")
    title = report["game"] + (f" ({report['variant']})" if report.get("variant") else "")
    fig.suptitle(f"{title}: {report['games']} games, {players} players")
    return fig


def _bins(values: list, whole: bool) -> list:
    """Bin edges shared by every seat's histogram: one bin per score when scores are whole
    numbers in a short range, else 20 equal bins (on whole-number edges for whole scores)."""
    low, high = (min(values), max(values)) if values else (0, 1)
    if whole and high - low <= 40:
        return [v - 0.5 for v in range(int(low), int(high) + 2)]
    step = (high - low) / 20 or 1
    if whole:
        step = max(1, math.ceil(step))
    return [low - (0.5 if whole else 0) + i * step for i in range(int((high - low) / step) + 2)]


def _rate_bars(ax, labels: list, rows: list, players: int, title: str, colours=None) -> None:
    rates = [row["win_rate"] for row in rows]
    errors = [[r - row["ci95"][0] for r, row in zip(rates, rows)], [row["ci95"][1] - r for r, row in zip(rates, rows)]]
    positions = list(range(len(rows)))
    ax.bar(positions, rates, yerr=errors, capsize=5, color=colours or [f"C{i}" for i in positions])
    shown = [label.replace(" (", "\n(").replace(":", "\n") for label in labels]
    ax.set_xticks(positions, shown, fontsize=8,
                  rotation=30 if len(rows) > 3 or max(len(line) for text in shown for line in text.split("\n")) > 10
                  else 0)
    ax.axhline(1 / players, color="grey", linestyle="--", linewidth=1, label=f"even share 1/{players}")
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate")
    ax.legend(fontsize=8, loc="best")
    ax.set_title(title, fontsize=10)


def plot_compare(path: str, outcome: dict, player_name) -> None:
    """A PNG for `compare`: per seat, the win rate under each configuration (95% interval),
    and the mean game length under each configuration."""
    plt, MaxNLocator = _pyplot()
    reports, names = outcome["reports"], outcome["configs"]
    players = reports[0]["players"]
    fig, axes = plt.subplots(1, players + 1, figsize=(3.2 * (players + 1), 4.2), squeeze=False)
    for p in range(players):
        rows = [rep["seats"][p] for rep in reports]
        _rate_bars(axes[0][p], names, rows, players, f"{seat_label(reports[0], p, player_name)}: win rate (95%)",
                   colours=[f"C{i}" for i in range(len(names))])
    ax = axes[0][players]
    ax.bar(range(len(names)), [rep["turns"]["mean"] for rep in reports], color=[f"C{i}" for i in range(len(names))])
    ax.set_xticks(range(len(names)), [n.replace(" ", "\n") for n in names], fontsize=8)
    ax.set_title("Mean turns per game", fontsize=10)
    fig.suptitle(f"{reports[0]['game']}: {reports[0]['games']} games per configuration")
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

    def metric(name, pick, test, seat=None):
        values = [pick(report) for _, report, _ in configs]
        flags = [None] + [test(base_records, records) for _, _, records in configs[1:]]
        rows.append({"metric": name, **({"seat": seat} if seat is not None else {}), "values": values,
                     "p_values": flags, "significant": [p is not None and p < alpha for p in flags]})

    players = base["players"]
    for p in range(players):
        metric("win rate", lambda rep, p=p: rep["seats"][p]["win_rate"],
               lambda a, b, p=p: round(proportion_p(sum(_share(r, p) for r in a), len(a),
                                                    sum(_share(r, p) for r in b), len(b)), 4), seat=p)
        metric("mean score", lambda rep, p=p: rep["seats"][p]["score_mean"],
               lambda a, b, p=p: round(welch_p([r["scores"][p] for r in a], [r["scores"][p] for r in b]), 4),
               seat=p)
    metric("turns per game", lambda rep: rep["turns"]["mean"],
           lambda a, b: round(welch_p([r["turns"] for r in a], [r["turns"] for r in b]), 4))
    metric("options per decision", lambda rep: rep["branching"],
           lambda a, b: round(welch_p([r["options"] / r["decisions"] for r in a if r["decisions"]],
                                      [r["options"] / r["decisions"] for r in b if r["decisions"]]), 4))
    for title in (base.get("measures") or {}):
        metric(f'measure "{title}"', lambda rep, t=title: rep["measures"][t]["mean"],
               lambda a, b, t=title: round(welch_p([r["measures"][t] for r in a], [r["measures"][t] for r in b]), 4))
    metric("draw share", lambda rep: round(rep["draws"] / rep["games"], 4),
           lambda a, b: round(proportion_p(sum(1 for r in a if not r["winners"]), len(a),
                                           sum(1 for r in b if not r["winners"]), len(b)), 4))
    return {"configs": [name for name, _, _ in configs], "alpha": alpha, "rows": rows,
            "reports": [report for _, report, _ in configs]}


def format_compare(result: dict, player_name) -> str:
    names = result["configs"]
    width = max(12, *(len(n) + 2 for n in names))
    labelled = [(row["metric"] + (f", {player_name(row['seat'])}" if "seat" in row else ""), row)
                for row in result["rows"]]
    first = max(len(label) for label, _ in labelled) + 2
    out = [f"  {'metric':<{first}}" + "".join(f"{n:>{width}}" for n in names) + "   p (vs first)"]
    for label, row in labelled:
        cells = "".join(f"{v:>{width}.3f}" for v in row["values"])
        ps = ", ".join(f"{p:.3f}{' *' if sig else ''}"
                       for p, sig in zip(row["p_values"][1:], row["significant"][1:]))
        out.append(f"  {label:<{first}}{cells}   {ps}")
    out.append("  p: the chance of a difference this large between configurations that play alike;")
    out.append(f"  * marks p below {result['alpha']}: a real difference")
    return "\n".join(out)
