"""What `tune --param` shows: the text report, the plot of the search, and the variant file
that `--write` saves (`variant ... extends` plus the confirmed best params)."""
from __future__ import annotations

from pathlib import Path

from ...dsl.ast import DataDecl, ParamDecl, VariantDecl
from ...dsl.parsed import parse_file
from .report import _pyplot

SHOWN_CANDIDATES = 5        # search candidates listed in the text report (JSON has them all)


def _params(entry: dict) -> str:
    return ", ".join(f"{k}={_value(v)}" for k, v in entry["params"].items())


def _value(v) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def _goal_lines(entry: dict, indent: str) -> list[str]:
    return [f"{indent}{g['goal']}: {g['measure']} {g['value']:.3f} ({g['ci95'][0]:.3f}..{g['ci95'][1]:.3f}), "
            f"off by {g['loss']:.3f} ({g['loss_ci95'][0]:.3f}..{g['loss_ci95'][1]:.3f})" for g in entry["goals"]]


def format_tune(result: dict) -> str:
    title = result["game"] + (f" ({result['variant']})" if result.get("variant") else "")
    bots = result["bots"]
    best = result["best"]
    pareto = len(result["goals"]) > 1
    out = [f"{title}: tune {', '.join(result['params'])} for {'; '.join(result['goals'])}, {result['players']} "
           f"players, seed {result['seed']}",
           f"  bots: {bots[0] + ' at every seat' if len(set(bots)) == 1 else ','.join(bots)}; "
           f"{'NSGA-II (Pareto front)' if pareto else 'TPE'} search, successive halving, then "
           f"{1 + len(result['confirmed'])} candidates confirmed on fresh games",
           f"  {result['games_played']:,} games of a budget of {result['budget']:,}",
           f"  confirmed best: {_params(best)} ({best['games']} confirmation games)"]
    out += _goal_lines(best, "    ")
    for entry in result["confirmed"]:
        out.append(f"  confirmed: {_params(entry)}")
        out += _goal_lines(entry, "    ")
    if result.get("told_apart") is False:
        out.append(f"  the confirmation cannot tell the best from {_params(result['confirmed'][0])}: their "
                   "intervals overlap (a larger --budget narrows them)")
    if result["candidates"]:
        more = len(result["candidates"]) > SHOWN_CANDIDATES
        out.append("  other candidates, by their search games" + (
            f" (the best {SHOWN_CANDIDATES}; --json lists all {len(result['candidates'])})" if more else "") + ":")
        for entry in result["candidates"][:SHOWN_CANDIDATES]:
            losses = ", ".join(f"{g['measure']} {g['value']:.3f} ({g['ci95'][0]:.3f}..{g['ci95'][1]:.3f})"
                               for g in entry["goals"])
            out.append(f"    {_params(entry)}: {losses}, {entry['games']} games")
    for entry in result.get("failed", []):
        out.append(f"  rule error at {_params(entry)}: {entry['rule_error']} (left out)")
    out += ["  off by: how far the measure is from the goal (0: met); intervals are 95%; the best is",
            "  chosen by the confirmation games alone, never by the search's estimates",
            f"  {result['seconds']:.1f} s"]
    return "\n".join(out)


def plot_tune(path: str, result: dict) -> None:
    """A PNG of the search: each trial's loss (first goal) in order with the best so far, and
    the loss against the first param, the confirmed best marked."""
    plt, _ = _pyplot()
    trials = [t for t in result["trials"] if "losses" in t]
    name = result["params"][0]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    losses = [t["losses"][0] for t in trials]
    best_so_far = [min(losses[:i + 1]) for i in range(len(losses))]
    left.scatter(range(len(losses)), losses, s=14, color="C0", label="trial")
    left.step(range(len(losses)), best_so_far, where="post", color="C1", label="best so far")
    left.set_xlabel("trial")
    left.set_ylabel(f"off by ({result['goals'][0]})")
    left.legend(fontsize=8)
    xs = [t["params"][name] for t in trials]
    numeric = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in xs)
    positions = xs if numeric else [list(dict.fromkeys(map(str, xs))).index(str(x)) for x in xs]
    right.scatter(positions, losses, s=14, color="C0")
    best = result["best"]
    best_x = best["params"][name]
    right.axvline(best_x if numeric else list(dict.fromkeys(map(str, xs))).index(str(best_x)), color="C2",
                  linestyle="--", label=f"confirmed best {name}={_value(best_x)}")
    right.set_xlabel(name)
    right.set_ylabel("off by (search games)")
    right.legend(fontsize=8)
    fig.suptitle(f"{result['game']}: tune for {'; '.join(result['goals'])}")
    fig.tight_layout()
    fig.savefig(path, format="png", dpi=100)
    plt.close(fig)


def variant_text(result: dict, base: str, title: str, ranges, command: str, source: str | None = None) -> str:
    """A variant file: the confirmed best params over the base game, with how they were found.
    With `source` (the variant file that was tuned), the copy of that variant's declarations
    with the params set: a variant extends a base game, never another variant."""
    texts = {r.name: r for r in ranges}
    header = [f'variant "{title}" extends "{base}"', "",
              "# Written by `boardwright tune`" + (f": {command}" if command else "") + ".",
              f"# The confirmed best of {result['games_played']:,} games, by {result['best']['games']} "
              "confirmation games:"]
    header += [f"#   {line.strip()}" for line in _goal_lines(result["best"], "")]
    params = {name: texts[name].text(value) for name, value in result["best"]["params"].items()}
    params.update(result.get("fixed", {}))
    if source is None:
        return "\n".join(header + [f"param {name} = {value}" for name, value in params.items()]) + "\n"
    header.append(f"# The declarations of {Path(source).name}, with the params above set:")
    return _variant_copy(source, header, params)


def _variant_copy(source: str, header: list[str], params: dict) -> str:
    """The variant file `source` from its `variant` line on, that line replaced by `header`
    and each param of `params` declared with its value (replacing the file's declaration)."""
    module = parse_file(source)
    lines = module.source.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(line: int, column: int) -> int:
        return starts[line - 1] + column - 1

    edits, declared, begin = [], set(), 0
    for item in module.items:
        span = item.span
        if isinstance(item, VariantDecl):
            begin = offset(span.line, span.column)
            edits.append((begin, offset(span.end_line, span.end_column), "\n".join(header)))
        elif isinstance(item, ParamDecl) and item.name in params:
            declared.add(item.name)
            edits.append((offset(span.line, span.column), offset(span.end_line, span.end_column),
                          f"param {item.name} = {params[item.name]}"))
    text = module.source
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    text = text[begin:].rstrip("\n") + "\n"
    added = [f"param {name} = {value}" for name, value in params.items() if name not in declared]
    return text + ("\n" + "\n".join(added) + "\n" if added else "")


def reads_data(source: str) -> bool:
    """Whether a variant file declares data files (paths relative to its folder)."""
    return any(isinstance(item, DataDecl) for item in parse_file(source).items)
