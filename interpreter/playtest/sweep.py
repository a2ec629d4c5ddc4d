"""`sweep`: the same games (seeds and bots: common random numbers) at every value of one or
more params, and every measure of each point with its 95% interval: a response curve.

With several ranges the points are every combination of their values. The games of a point
are played as `simulate` plays them (serially, on worker processes or a Dask cluster), so
the same seed gives the same table however they are played.
"""
from __future__ import annotations

import itertools
import time

from .intervals import measure_rows, rounded
from .param_ranges import ParamRange
from .report import _pyplot, write_compare_csv
from .simulate import remember_loaded, simulate_records


def sweep_points(ranges: list[ParamRange]) -> list[dict]:
    """Every combination of the ranges' values, the first range varying slowest."""
    return [dict(zip([r.name for r in ranges], combo)) for combo in itertools.product(*(r.values() for r in ranges))]


def settings_text(ranges: list[ParamRange], point: dict) -> dict:
    """A point's values as `--set` writes them: name -> text."""
    by_name = {r.name: r for r in ranges}
    return {name: by_name[name].text(value) for name, value in point.items()}


def run_sweep(load, target: str, variant, players: int, games: int, seed: int, specs: list,
              ranges: list[ParamRange], fixed: dict | None = None, rotate: bool = False, workers: int = 1,
              cluster: str | None = None, progress=None) -> tuple[dict, list]:
    """Play `games` games at every point; return (report, [(name, summary-like, records)]).
    `load(variant)` loads a fresh game; `progress(done, total)` counts games over the whole sweep."""
    points = sweep_points(ranges)
    total = games * len(points)
    start = time.perf_counter()
    results, rows = [], []
    for number, point in enumerate(points):
        settings = {**(fixed or {}), **settings_text(ranges, point)}
        game = load(variant)
        game.set_params(settings)
        ref = (target, variant, tuple(sorted(settings.items())))
        remember_loaded(ref, game)
        name = ",".join(f"{k}={v}" for k, v in settings_text(ranges, point).items())
        done = number * games
        records = simulate_records(game, players, games, seed, specs, rotate=rotate, workers=workers,
                                   cluster=cluster, ref=ref,
                                   progress=(lambda d, t, done=done: progress(done + d, total)) if progress else None)
        measured = measure_rows(records, players, game.player_name)
        rows.append({"params": point, "measures": {k: rounded(v) for k, v in measured.items()}})
        results.append((name, {"players": players}, records))
        title, variant_title = game.title, game.variant
    report = {"game": title, "variant": variant_title, "players": players, "games": games, "seed": seed,
              "bots": specs, "rotate": rotate, "params": [r.name for r in ranges], "fixed": fixed or {},
              "points": rows, "seconds": round(time.perf_counter() - start, 3)}
    return report, results


def measure_names(report: dict) -> list[str]:
    """Every measure any point has, in order of first appearance."""
    return list(dict.fromkeys(name for row in report["points"] for name in row["measures"]))


def _cell(entry: dict | None) -> str:
    if entry is None:
        return "-"
    low, high = entry["ci95"]
    return f"{entry['value']:.3f} ({low:.3f}..{high:.3f})"


def format_sweep(report: dict) -> str:
    """The table: a row per measure, a column per point; each cell the value and its 95% interval."""
    title = report["game"] + (f" ({report['variant']})" if report.get("variant") else "")
    bots = report["bots"]
    out = [f"{title}: sweep of {', '.join(report['params'])}, {report['games']} games per value, "
           f"{report['players']} players, seed {report['seed']}",
           f"  bots: {bots[0] + ' at every seat' if len(set(bots)) == 1 else ','.join(bots)}; "
           "the same seeds at every value" + "".join(f"; {k}={v}" for k, v in report["fixed"].items())]
    heads = [",".join(f"{k}={v}" for k, v in row["params"].items()) for row in report["points"]]
    names = measure_names(report)
    first = max([len(n) for n in names] + [7]) + 2
    width = max([len(h) for h in heads] + [len(_cell(row["measures"].get(name))) for row in report["points"]
                                          for name in names]) + 2
    out.append(f"  {'measure':<{first}}" + "".join(f"{h:>{width}}" for h in heads))
    for name in names:
        out.append(f"  {name:<{first}}" + "".join(f"{_cell(row['measures'].get(name)):>{width}}"
                                                 for row in report["points"]))
    out += ["  each cell: the value (a share of games, or a mean) and its 95% interval; win rates",
            "  count a shared win 1/k; length is in turns",
            f"  {report['seconds']:.1f} s"]
    return "\n".join(out)


def write_sweep_csv(path: str, results: list, players: int) -> None:
    """One row per game, `compare`'s columns: the first, `config`, names the point."""
    write_compare_csv(path, results, players)


def plot_sweep(path: str, report: dict) -> None:
    """A PNG: one small plot per measure against the first param (a line per value of the
    second, if any), with its 95% interval as a band."""
    plt, _ = _pyplot()
    names = measure_names(report)
    params = report["params"]
    x_name = params[0]
    groups = list(dict.fromkeys(tuple((k, v) for k, v in row["params"].items() if k != x_name)
                                for row in report["points"]))
    columns = min(3, len(names))
    rows = -(-len(names) // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(4.2 * columns, 3.2 * rows), squeeze=False)
    numeric = all(isinstance(row["params"][x_name], (int, float)) and not isinstance(row["params"][x_name], bool)
                  for row in report["points"])
    for index, name in enumerate(names):
        ax = axes[index // columns][index % columns]
        for number, group in enumerate(groups):
            points = [row for row in report["points"] if tuple((k, v) for k, v in row["params"].items()
                                                              if k != x_name) == group and name in row["measures"]]
            labels = [row["params"][x_name] for row in points]
            xs = labels if numeric else list(range(len(points)))
            values = [row["measures"][name]["value"] for row in points]
            ax.plot(xs, values, marker="o", color=f"C{number}",
                    label=",".join(f"{k}={v}" for k, v in group) or None)
            ax.fill_between(xs, [row["measures"][name]["ci95"][0] for row in points],
                            [row["measures"][name]["ci95"][1] for row in points], color=f"C{number}", alpha=0.2)
            if not numeric:
                ax.set_xticks(xs, [str(v) for v in labels])
        ax.set_title(name, fontsize=10)
        ax.set_xlabel(x_name, fontsize=8)
        if name.startswith(("win rate", "first player", "ending ")) or name == "ties":
            ax.set_ylim(-0.02, 1.02)            # a share: on its whole scale
        if len(groups) > 1:
            ax.legend(fontsize=7)
    for index in range(len(names), rows * columns):
        axes[index // columns][index % columns].axis("off")
    title = report["game"] + (f" ({report['variant']})" if report.get("variant") else "")
    fig.suptitle(f"{title}: {report['games']} games per value, 95% interval bands")
    fig.tight_layout()
    fig.savefig(path, format="png", dpi=100)
    plt.close(fig)
