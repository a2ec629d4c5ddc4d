"""The `boardwright` command line: validate, play, replay, simulate, compare, check, test, bench.

Exit codes: 0 success, 1 findings (invalid rule file, failed scenario, rule error),
2 usage error. Diagnostics go to stderr; no traceback reaches the user for a bad input.
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import sys
import time
from pathlib import Path

from ..dsl.errors import BoardwrightError, RuleError, UsageError, did_you_mean
from ..dsl.loader import BASE, check_game, resolve_game, variants_of
from ..interpreter.compile.load import load_game
from ..interpreter.bots.core import BOTS, bot_settings, root_parallel
from ..interpreter.playtest.ladder import format_ladder, play_ladder
from ..interpreter.playtest.probe import format_probe, probe_decisions
from ..interpreter.testing.coverage import Coverage, coverage_report, format_coverage, measure_coverage
from ..interpreter.playtest.report import (compare, format_compare, format_report, plot, plot_compare, summarise,
                                  write_compare_csv, write_csv)
from ..interpreter.testing.scenario import run_scenario, scenario_files
from ..interpreter.playtest.simulate import remember_loaded, simulate_records
from .play import parse_settings, replay_states, start_session
from .progress import progress_bar
from .saves import LOG_FORMAT, read_saved, write_atomically
from .render import render_result, render_table


DEFAULT_SEED = 1       # one default seed for every command that takes --seed


class _Parser(argparse.ArgumentParser):
    """argparse with our exit code 2, a did-you-mean for a misspelt command, and every
    option's default shown in its help."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _DefaultsFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message):
        wrong = re.match(r"argument (?:command|COMMAND): invalid choice: '([^']*)'", message)
        if wrong:
            hint = did_you_mean(wrong.group(1), COMMANDS)
            message = f"no command '{wrong.group(1)}'; commands: {', '.join(COMMANDS)}" + (f"; {hint}" if hint else "")
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(2)


class _DefaultsFormatter(argparse.HelpFormatter):
    """Appends '(default: X)' to an option's help, unless it has no default worth saying or
    its help already says it."""

    def _get_help_string(self, action):
        text = action.help or ""
        if action.default in (None, False, argparse.SUPPRESS) or "default" in text or not action.option_strings:
            return text
        return f"{text} (default: %(default)s)"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="boardwright", description="Rules-as-data engine for tabletop games.",
                     epilog="Run 'boardwright COMMAND --help' for a command's options. Exit codes: 0 success, "
                            "1 findings, 2 usage error, 130 interrupted.")
    parser.add_argument("--version", action="version", version=f"boardwright {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("validate", help="check rule files and report every problem")
    p.add_argument("targets", nargs="+", metavar="TARGET", help="a .game file, a game folder or a bundled name")
    p.add_argument("--variant", metavar="NAME", help="check only this variant (default: the base and every variant)")
    p.add_argument("--format", choices=["text", "json"], default="text", help="how to print the findings")
    p.add_argument("--strict", action="store_true", help="fail on warnings too (unused declarations, dead statements...)")

    for name, text in (("play", "play in the terminal, against bots or hot-seat"),
                       ("simulate", "play many seeded bot games and summarise them")):
        p = sub.add_parser(name, help=text)
        p.add_argument("game", metavar="GAME", nargs="?" if name == "play" else None, help=GAME_HELP)
        _variant_option(p)
        p.add_argument("--players", type=_positive, metavar="N", required=name != "play",
                       help="the player count" + (" (default: the game's minimum)" if name == "play" else ""))
        _seed_option(p)
        if name == "play":
            p.add_argument("--seats", metavar="LIST", help=f"comma-separated: human or a bot ({', '.join(BOTS)}) per seat "
                                           "(default: human, then random)")
            p.add_argument("--load", metavar="FILE", help="continue a game saved with 'save FILE'")
            p.add_argument("--log", metavar="FILE", help="write the game log here (for 'boardwright replay')")
            p.add_argument("--workers", type=_positive, metavar="W", default=1,
                           help="processes for the trees of mcts bots with trees=K, same choices as one (default: 1)")
            p.add_argument("--set", action="append", metavar="NAME=VALUE", help="override a param (repeatable)")
        if name == "simulate":
            p.add_argument("--games", type=_positive, metavar="K", default=100, help="number of games")
            p.add_argument("--coverage", action="store_true", help="report rule coverage")
            p.add_argument("--out", metavar="FILE", help="on a rule error, write its game as a scenario file that replays it")
            _simulation_options(p)

    p = sub.add_parser("bench", help="measure load time, random playouts and MCTS iterations per second")
    p.add_argument("game", metavar="GAME", nargs="?", help=GAME_HELP + " (default: every bundled game and variant)")
    _variant_option(p)
    p.add_argument("--players", type=_positive, metavar="N", help="the player count (default: 2 where the game allows it)")
    p.add_argument("--games", type=_positive, metavar="K", default=20, help="random playouts per game")
    p.add_argument("--mcts-iterations", type=_positive, metavar="I", default=200, help="iterations per timed MCTS decision")
    _seed_option(p)
    p.add_argument("--json", action="store_true", help="print JSON (one object per game)")

    p = sub.add_parser("replay", help="step through a logged game forward and backward")
    p.add_argument("log", metavar="LOG", help="a log written by 'play --log FILE'")
    p.add_argument("--step", type=int, metavar="N", help="show the state after this many moves and exit")

    p = sub.add_parser("compare", help="run the same bots and seeds over variants or param sets")
    p.add_argument("game", metavar="GAME", help=GAME_HELP)
    p.add_argument("--variant", action="append", metavar="NAME",
                   help="a configuration, repeatable: --variant base --variant team ('base' is the game itself)")
    p.add_argument("--players", type=_positive, metavar="N", required=True, help="the player count")
    p.add_argument("--games", type=_positive, metavar="K", default=100, help="games per configuration")
    _seed_option(p)
    _simulation_options(p, sets_help="a configuration of params, e.g. --set win_length=4 (repeat for more)")

    p = sub.add_parser("check", help="fuzz whole games with Hypothesis: invariants and universal properties")
    p.add_argument("game", metavar="GAME", help=GAME_HELP)
    _variant_option(p)
    p.add_argument("--players", type=_positive, metavar="N", help="player count (default: every count the game allows)")
    p.add_argument("--examples", type=_positive, metavar="K", default=10, help="games Hypothesis plays")
    _seed_option(p, "Hypothesis's seed: the same seed finds the same games")
    p.add_argument("--out", metavar="FILE", help="write a failure's minimal game as a scenario file")
    p.add_argument("--coverage", action="store_true", help="also report rule coverage over --examples random games")
    p.add_argument("--max-steps", type=_positive, metavar="N", help="stop checking a game after this many decisions "
                                                       "(default: the game's step limit)")

    p = sub.add_parser("ladder", help="rate bots: a round robin of rotated 2-player games")
    p.add_argument("game", metavar="GAME", help=GAME_HELP)
    _variant_option(p)
    p.add_argument("--players", type=_positive, metavar="N", default=2,
                   help="players per game: the ladder plays 2-player games (default: 2)")
    p.add_argument("--bots", required=True, metavar="LIST",
                   help="comma-separated bots to rate, e.g. random,greedy,mcts,mcts:iterations=1000")
    p.add_argument("--games", type=_positive, metavar="K", default=20, help="games per pair of bots (default: 20)")
    _seed_option(p)
    p.add_argument("--set", action="append", metavar="NAME=VALUE", help="override a param (repeatable)")
    p.add_argument("--workers", type=_positive, metavar="W", default=1,
                   help="parallel processes, with the same results as one (default: 1)")
    p.add_argument("--json", action="store_true", help="print one JSON object")

    p = sub.add_parser("probe", help="decision quality: how often bots take a stronger search's choice")
    p.add_argument("game", metavar="GAME", help=GAME_HELP)
    _variant_option(p)
    p.add_argument("--players", type=_positive, metavar="N", default=2, help="players per game (default: 2)")
    p.add_argument("--bots", required=True, metavar="LIST",
                   help="comma-separated bots probed at the same positions (the first plays the games), "
                        "e.g. mcts,mcts:iterations=200")
    p.add_argument("--gold", required=True, metavar="SPEC",
                   help="the stronger search that values the options, e.g. mcts:iterations=1000")
    p.add_argument("--opponent", metavar="SPEC", default="greedy", help="the bot at every other seat (default: greedy)")
    p.add_argument("--games", type=_positive, metavar="K", default=2,
                   help="games played, seats rotated as by 'simulate --rotate' (default: 2)")
    p.add_argument("--positions", type=_positive, metavar="N", default=20,
                   help="positions probed per game, from its start (default: 20)")
    p.add_argument("--repeats", type=_positive, metavar="R", default=3,
                   help="times each bot decides each position, with fresh seeds (default: 3)")
    _seed_option(p)
    p.add_argument("--set", action="append", metavar="NAME=VALUE", help="override a param (repeatable)")
    p.add_argument("--json", action="store_true", help="print one JSON object, with every position")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar (it is drawn only on a terminal anyway)")

    p = sub.add_parser("compile", help="compile a game to Python and report (or print) the generated code")
    p.add_argument("game", metavar="GAME", help=GAME_HELP)
    _variant_option(p)
    p.add_argument("--emit", action="store_true", help="print the generated Python source")

    p = sub.add_parser("test", help="run scenario files")
    p.add_argument("files", nargs="+", metavar="FILE", help="scenario files or folders holding *.scenario.yaml")
    _authoring_commands(sub)
    return parser


GAME_HELP = "a bundled game's name, a game folder or a .game file"


def _variant_option(p) -> None:
    p.add_argument("--variant", metavar="NAME", help="a variant of the game, by name or file (default: the base game, also "
                                     "named 'base')")


def _seed_option(p, text="base seed: the same seed gives the same games") -> None:
    p.add_argument("--seed", type=int, metavar="S", default=DEFAULT_SEED, help=text)


def _simulation_options(p, sets_help="override a param: --set name=value (repeatable)") -> None:
    p.add_argument("--bots", metavar="LIST", help=f"comma-separated bot per seat: {', '.join(BOTS)}, e.g. mcts:iterations=300 "
                                  "(default: random for every seat)")
    p.add_argument("--rotate", action="store_true", help="rotate the bots over the seats from game to game")
    p.add_argument("--set", action="append", metavar="NAME=VALUE", help=sets_help)
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    p.add_argument("--csv", metavar="FILE", help="write one row per game")
    p.add_argument("--plot", metavar="FILE.png", help="draw score distributions and win rates (needs boardwright[plot])")
    p.add_argument("--workers", type=_positive, metavar="W", default=1, help="parallel processes (same results as serial)")
    p.add_argument("--cluster", metavar="ADDRESS", help="run the games on a Dask scheduler (needs boardwright[cluster])")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar (it is drawn only on a terminal anyway)")


def _version() -> str:
    try:
        from importlib.metadata import PackageNotFoundError, version
        return version("boardwright")
    except PackageNotFoundError:        # run from a source tree that was never installed
        return "unknown"


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}")
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {value}")
    return value


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:            # a bare `boardwright`: say what there is
        parser.print_help()
        return 0
    try:
        return COMMANDS[args.command](args)
    except UsageError as err:
        print(f"boardwright: error: {err}", file=sys.stderr)
        return 2
    except BoardwrightError as err:
        print(err.format(), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\nboardwright: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:        # a bug of ours, not of the input: say so, briefly
        print(f"boardwright: internal error: {type(exc).__name__}: {exc}\n"
              "This is a bug in Boardwright, not in your files; please report it with the command "
              "you ran.", file=sys.stderr)
        return 3


# ---------------------------------------------------------------------------- validate
def cmd_validate(args) -> int:
    failed = False
    report = []
    for target in args.targets:
        jobs = _validation_jobs(target, args.variant)
        for path, variant in jobs:
            label = f"{target}" + (f" --variant {variant}" if variant else "")
            try:
                spec = load_game(path, variant, warnings=True).spec     # checked and compiled, once
                ok = not (args.strict and spec.warnings)
                failed = failed or not ok
                report.append({"target": label, "ok": ok, "diagnostics": [d.as_json() for d in spec.warnings]})
                if args.format == "text":
                    title = spec.title + (f" ({spec.variant})" if spec.variant else "")
                    warned = f" ({len(spec.warnings)} warning{'s' if len(spec.warnings) != 1 else ''})" \
                        if spec.warnings else ""
                    print(f"{'ok' if ok else 'failed (--strict)'}: {label}: {title}{warned}")
                    for warning in spec.warnings:
                        print(warning.format(), file=sys.stderr)
            except UsageError:
                raise
            except BoardwrightError as err:
                failed = True
                report.append({"target": label, "ok": False, "diagnostics": [d.as_json() for d in err.diagnostics]})
                if args.format == "text":
                    print(err.format(), file=sys.stderr)
    if args.format == "json":
        print(json.dumps(report, indent=2))
    return 1 if failed else 0


def _validation_jobs(target: str, variant: str | None):
    path = Path(target)
    if path.is_file():
        return [(target, variant)]
    base = resolve_game(target)
    if variant:
        return [(str(base), variant)]
    return [(str(base), None)] + [(str(base), v) for v in variants_of(base)]


# ---------------------------------------------------------------------------- play, replay
def cmd_play(args) -> int:
    if not args.load and not args.game:
        raise UsageError("play needs a GAME, or --load FILE")
    check_outputs(args)
    session = start_session(args, load_game)
    with root_parallel(session.game, args.workers):     # for bots with trees=K (same choices)
        return session.run()


def cmd_replay(args) -> int:
    game, log, _, _ = read_saved(args.log, LOG_FORMAT, load_game)
    states = replay_states(game, log)
    last = len(states) - 1

    def show(step: int) -> None:
        print(f"\n-- step {step} of {last}" + (f": {game.player_name(log['moves'][step - 1]['player'])} chose "
                                             f"{log['moves'][step - 1]['label']}" if step else ": the start"))
        print(render_table(game, game.observe(states[step], None)))
        if states[step].finished:
            print(render_result(game, game.result(states[step])))

    if args.step is not None:
        if not 0 <= args.step <= last:
            raise UsageError(f"--step must be between 0 and {last}")
        show(args.step)
        return 0
    step = 0
    show(step)
    while True:
        try:
            line = input("replay (n next, p previous, N go to step, q quit)> ").strip().lower()
        except EOFError:
            return 0
        if line in ("q", "quit"):
            return 0
        if line in ("n", "", "next"):
            step = min(step + 1, last)
        elif line in ("p", "previous", "back"):
            step = max(step - 1, 0)
        elif line.isascii() and line.isdigit() and len(line) < 10 and int(line) <= last:
            step = int(line)
        else:
            print(f"type n, p, a step from 0 to {last}, or q")
            continue
        show(step)


# ---------------------------------------------------------------------------- simulate, bench
def _bot_specs(args, players: int) -> list:
    specs = [b.strip() for b in args.bots.split(",")] if args.bots else ["random"] * players
    if len(specs) != players:
        raise UsageError(f"--bots names {len(specs)} bots for {players} players")
    return specs


def check_outputs(args) -> None:
    """Every output file a command will write, and the packages it will need, checked before
    the first game: a bad path must not lose a long run at its end."""
    for option in ("csv", "plot", "out", "log"):
        path = getattr(args, option, None)
        if path:
            check_writable(path, f"--{option}")
    if getattr(args, "plot", None):
        _needs("matplotlib", "--plot needs matplotlib: pip install 'boardwright[plot]'")
    if getattr(args, "cluster", None):
        _needs("dask.distributed", "--cluster needs Dask: pip install 'boardwright[cluster]'")


def _needs(module: str, message: str) -> None:
    try:
        importlib.import_module(module)
    except ImportError:
        raise UsageError(message) from None


def check_writable(path: str, option: str) -> None:
    target = Path(path)
    try:
        if target.is_dir():
            raise UsageError(f"{option} {path}: that is a folder; give a file name")
        existed = target.exists()
    except OSError as exc:          # a name over the system's limit
        raise UsageError(f"{option} {path[:200]}: cannot write there ({exc.strerror})")
    try:
        with open(target, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise UsageError(f"{option} {path}: cannot write there ({exc.strerror})")
    if not existed:
        target.unlink()


def run_simulation(args, variant, settings: dict, players: int, coverage: bool = False, label: str = ""):
    """Load one configuration, play its games; return (game, summary, records). With
    `coverage`, the summary gets a "coverage" entry (counted in this process)."""
    game = load_game(args.game, variant)
    game.set_params(settings)
    game.setup_state(players, 0)        # a wrong player count is a usage error, before any work
    specs = _bot_specs(args, players)
    ref = (args.game, variant, tuple(sorted(settings.items())))
    remember_loaded(ref, game)
    if coverage:
        if args.workers > 1 or args.cluster:
            raise UsageError("--coverage counts in this process: drop --workers and --cluster")
        game.coverage = Coverage()
    bar = progress_bar(sys.stderr, args.quiet)
    if bar is not None and label:
        sys.stderr.write(f"{label}\n")
    start = time.perf_counter()
    try:
        records = simulate_records(game, players, args.games, args.seed, specs, rotate=args.rotate,
                                   workers=args.workers, cluster=args.cluster, ref=ref, progress=bar)
        meta = {"game": game.title, "variant": game.variant, "players": players, "seed": args.seed,
                "bots": specs, "bot_settings": bot_settings(specs, game), "rotate": args.rotate, "params": settings,
                "seconds": round(time.perf_counter() - start, 3)}
        report = summarise(records, meta)
        if coverage:
            report["coverage"] = coverage_report(game, game.coverage)
    finally:
        game.coverage = None
        if bar is not None:
            bar.clear()
    return game, report, records


def cmd_simulate(args) -> int:
    check_outputs(args)
    if args.out and args.set:
        raise UsageError("--out writes a scenario, and scenarios have no --set values: drop one of them")
    try:
        game, report, records = run_simulation(args, args.variant, parse_settings(args.set), args.players,
                                               args.coverage)
    except RuleError as err:
        failed = err.replay
        if args.out and failed is not None:
            from ..interpreter.testing.check import reproduction_scenario
            message = err.diagnostics[0].message if err.diagnostics else str(err)
            write_scenario(args, lambda ref, variant: reproduction_scenario(
                f"found by simulate: game {failed.index + 1}, decision {len(failed.choices)}",
                f"{_where(err)}: {message}", ref, variant, failed.players, failed.seed, failed.choices),
                out=sys.stderr)
        raise
    if args.csv:
        write_csv(args.csv, records, args.players, game.player_name)
    if args.plot:
        plot(args.plot, records, report, game.player_name)
    if args.json:
        report.get("coverage", {}).pop("statement_counts", None)
        print(json.dumps(report))
        return 0
    if args.coverage:
        print(format_coverage(game, report.pop("coverage")))
    print(format_report(report, game.player_name))
    return 0


def compare_configs(args) -> list[tuple]:
    """(name, variant, settings) of each configuration `compare` runs, the first one the
    reference: each --variant (with 'base' the game itself), or one game and each --set."""
    variants = args.variant or [None]
    sets = [parse_settings([s]) for s in args.set or []]
    if len(variants) > 1 and sets:
        raise UsageError("compare takes several --variant, or one game and several --set, not both")
    if len(variants) > 1:
        configs = [(v, {}) for v in variants]
    else:
        configs = [(variants[0], {})] + [(variants[0], s) for s in sets]
    if len(configs) < 2:
        raise UsageError("compare needs two configurations: --variant A --variant B, or --set name=value")
    named = []
    for variant, settings in configs:
        name = (variant or BASE) + (" " + ",".join(f"{k}={v}" for k, v in settings.items()) if settings else "")
        named.append((name, variant, settings))
    return named


def cmd_compare(args) -> int:
    check_outputs(args)
    results = []
    game = None
    configs = compare_configs(args)
    for number, (name, variant, settings) in enumerate(configs, 1):
        game, report, records = run_simulation(args, variant, settings, args.players,
                                               label=f"{number}/{len(configs)}: {name}")
        results.append((name, report, records))
    outcome = compare(results)
    if args.csv:
        write_compare_csv(args.csv, results, args.players, game.player_name)
    if args.plot:
        plot_compare(args.plot, outcome, game.player_name)
    if args.json:
        print(json.dumps(outcome))
    else:
        print(f"{results[0][1]['game']}: {args.games} games per configuration, {args.players} players, "
              f"bots {','.join(_bot_specs(args, args.players))}, seed {args.seed}")
        print(format_compare(outcome, game.player_name))
    return 0


def cmd_bench(args) -> int:
    from ..interpreter.playtest.bench import bench_game, format_bench
    if args.game:
        targets = [(args.game, args.variant)]
    else:
        from ..dsl.loader import bundled_games
        targets = [(g, v) for g in bundled_games() for v in [None] + variants_of(resolve_game(g))]
    rows = []
    for game, variant in targets:
        rows.append(bench_game(lambda: load_game(game, variant), args.players, args.games, args.seed,
                               args.mcts_iterations))
        if args.json:
            print(json.dumps(rows[-1]), flush=True)
    if not args.json:
        print(format_bench(rows))
    return 0


# ---------------------------------------------------------------------------- check
def cmd_check(args) -> int:
    from ..interpreter.testing.check import failure_scenario, format_failure, run_checks  # Hypothesis loads slowly
    check_outputs(args)
    game = load_game(args.game, args.variant)
    counts = [args.players] if args.players else list(range(game.min_players, game.max_players + 1))
    if args.players:
        game.setup_state(args.players, 0)        # a usage error for a wrong count, before fuzzing
    report = run_checks(game, counts, args.examples, args.seed, max_steps=args.max_steps)
    status = 0
    if report.failure is None:
        print(f"ok: {report.title}: {report.games} games, {report.steps} steps; "
              f"{len(report.properties)} properties held after every step")
    else:
        status = 1
        print(format_failure(report, game))
        if args.out:
            write_scenario(args, lambda ref, variant: failure_scenario(report, ref, variant), "  ")
    if args.coverage:
        cov = measure_coverage(game, counts, args.examples, args.seed)
        print(format_coverage(game, coverage_report(game, cov)))
    return status


# ---------------------------------------------------------------------------- compile
def cmd_compile(args) -> int:
    game = load_game(args.game, args.variant)
    module = game.generated
    if args.emit:
        width = len(str(len(module.lines)))
        for number, (line, span) in enumerate(zip(module.lines, module.spans), 1):
            where = f"  # {span.file.rsplit('/', 1)[-1]}:{span.line}" if span is not None and line.strip() and (
                number == 1 or module.spans[number - 2] != span) else ""
            print(f"{line}{where}")
        return 0
    blocks = sum(1 for code in game.code.values() for b in code.blocks if b is not None)
    print(f"ok: {game.title}" + (f" ({game.variant})" if game.variant else "")
          + f": {len(module.lines)} lines of Python, {len(game.spec.fns)} fns, {len(game.code)} bodies, "
          f"{blocks} blocks")
    return 0


def write_scenario(args, text, indent: str = "", out=sys.stdout) -> None:
    """Write the scenario `text(game_ref, variant)` to --out, its game and variant paths
    relative to the scenario's folder."""
    ref, variant = _relative_to(args.out, args.game), args.variant
    if variant and Path(variant).exists():
        variant = _relative_to(args.out, variant)
    write_atomically(args.out, text(ref, variant))
    print(f"{indent}scenario written to {args.out}: replay it with 'boardwright test {args.out}'", file=out)


def _relative_to(scenario: str, target: str) -> str:
    """A game or variant path as a scenario file refers to it: relative to the scenario's folder
    (a bundled game's name stays a name)."""
    if not Path(target).exists():
        return target
    return Path(os.path.relpath(Path(target).resolve(), Path(scenario).resolve().parent)).as_posix()


# ---------------------------------------------------------------------------- test
def cmd_test(args) -> int:
    """Every scenario ends as PASS or FAIL (with positioned reasons), and the run always ends
    with its summary line; a missing file is a FAIL too, and makes the exit status 2."""
    files = scenario_files(args.files)
    if not files:
        raise UsageError("no scenario files found")
    failed = missing = 0
    for path in files:
        if not path.is_file():
            failed += 1
            missing += 1
            print(f"FAIL {path}: no such scenario file")
            continue
        outcome = run_scenario(path)
        if outcome.passed:
            print(f"PASS {path}: {outcome.name}")
        else:
            failed += 1
            print(f"FAIL {path}: {outcome.name}")
            for failure in outcome.failures:
                print("     " + failure.replace("\n", "\n     "))
    print(f"{len(files) - failed} passed, {failed} failed")
    return 2 if missing else 1 if failed else 0


# ---------------------------------------------------------------------------- ladder
def cmd_ladder(args) -> int:
    if args.players != 2:
        raise UsageError("the ladder plays 2-player games: use --players 2")
    settings = parse_settings(args.set)
    game = load_game(args.game, args.variant)
    game.set_params(settings)
    game.setup_state(2, 0)              # a game without 2-player seats is a usage error, before any work
    bots = [b.strip() for b in args.bots.split(",")]
    ref = (args.game, args.variant, tuple(sorted(settings.items())))
    remember_loaded(ref, game)
    start = time.perf_counter()
    report = play_ladder(game, bots, args.games, args.seed, workers=args.workers, ref=ref)
    return _print_timed(report, start, args.json, format_ladder)


def _print_timed(report: dict, start: float, as_json: bool, format_text) -> int:
    """Print a report, with the seconds since `start`, as JSON or as text."""
    report["seconds"] = round(time.perf_counter() - start, 3)
    if as_json:
        print(json.dumps(report))
    else:
        print(format_text(report))
        print(f"  {report['seconds']} s")
    return 0


# ---------------------------------------------------------------------------- probe
def cmd_probe(args) -> int:
    game = load_game(args.game, args.variant)
    game.set_params(parse_settings(args.set))
    game.setup_state(args.players, 0)   # a player count the game does not allow is a usage error, before any work
    bots = [b.strip() for b in args.bots.split(",")]
    bar = progress_bar(sys.stderr, args.quiet)
    start = time.perf_counter()
    try:
        report = probe_decisions(game, args.players, bots, args.gold, args.opponent, args.games,
                                 args.positions, args.repeats, args.seed, progress=bar)
    finally:
        if bar is not None:
            bar.clear()
    return _print_timed(report, start, args.json, format_probe)


# ---------------------------------------------------------------------------- authoring: fmt, lsp, explain, info, new
def _authoring_commands(sub) -> None:
    p = sub.add_parser("fmt", help="rewrite rule files in the canonical layout")
    p.add_argument("files", nargs="+", metavar="FILE", help=".game files or folders holding them")
    p.add_argument("--check", action="store_true", help="change nothing; exit 1 if a file is not formatted")
    p.add_argument("--diff", action="store_true", help="change nothing; print what would change")
    sub.add_parser("lsp", help="run the language server on stdin/stdout (for editors; needs the 'lsp' extra)")
    p = sub.add_parser("explain", help="the rules as readable text; for a variant, what it changes")
    p.add_argument("game", metavar="GAME", help=GAME_HELP)
    _variant_option(p)
    p = sub.add_parser("info", help="players, params, variants, zones and components of a game")
    p.add_argument("game", metavar="GAME", help=GAME_HELP)
    _variant_option(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p = sub.add_parser("new", help="start a game folder: rule file, data and a scenario")
    p.add_argument("name", metavar="NAME", help="the folder to create (its last part names the game)")


def cmd_fmt(args) -> int:
    from ..dsl.formatter import format_checked, rule_files
    files = rule_files(args.files)
    unformatted = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        formatted = format_checked(text, str(path))
        if formatted == text:
            continue
        unformatted += 1
        if args.diff:
            import difflib
            sys.stdout.writelines(difflib.unified_diff(text.splitlines(True), formatted.splitlines(True),
                                                       f"{path}", f"{path} (formatted)"))
        elif args.check:
            print(f"not formatted: {path}")
        else:
            path.write_text(formatted, encoding="utf-8")
            print(f"formatted {path}")
    if args.check or args.diff:
        if not unformatted:
            print(f"ok: {len(files)} file{'s' if len(files) != 1 else ''} already in the canonical layout")
        return 1 if unformatted else 0
    return 0


def cmd_lsp(args) -> int:
    try:
        from .lsp import serve
    except ImportError as exc:
        raise UsageError(f"the language server needs pygls: pip install 'boardwright[lsp]' ({exc})")
    return serve()


def cmd_explain(args) -> int:
    from .explain import explain
    spec, _ = check_game(args.game, args.variant)
    base = check_game(spec.path)[0] if spec.variant else None
    sys.stdout.write(explain(spec, base))
    return 0


def cmd_info(args) -> int:
    from .explain import info
    spec, _ = check_game(args.game, args.variant)
    facts = info(spec, variants_of(Path(spec.path)))
    if args.json:
        print(json.dumps(facts, indent=2))
        return 0
    print(f"{facts['title']}" + (f" ({facts['variant']})" if facts["variant"] else "")
          + f": {facts['players']['min']}..{facts['players']['max']} players")
    for key in ("params", "zones", "vars"):
        if facts[key]:
            print(f"{key}: " + ", ".join(p["name"] + (f" = {p['default']}" if key == "params" else "") for p in facts[key]))
    print("components: " + ", ".join(f"{c['count']} {c['kind']}" for c in facts["components"]))
    print("variants: " + (", ".join(facts["variants"]) or "none"))
    for data in facts["data"]:      # which numbers are written for the project, not printed
        if data["representative"]:
            print(f"{data['file']}: representative (not printed): " + "; ".join(data["representative"]))
    return 0


def cmd_new(args) -> int:
    from .starter import create_game
    folder = create_game(Path(args.name))
    print(f"created {folder}/: {folder.name}.game, cards.yaml, scenarios/first-turn.scenario.yaml")
    print(f"next: boardwright validate {folder} && boardwright test {folder}/scenarios")
    return 0


COMMANDS = {"validate": cmd_validate, "play": cmd_play, "replay": cmd_replay, "simulate": cmd_simulate, "compare": cmd_compare,
            "bench": cmd_bench, "check": cmd_check, "test": cmd_test,
            "fmt": cmd_fmt, "compile": cmd_compile, "lsp": cmd_lsp,
            "explain": cmd_explain, "info": cmd_info, "new": cmd_new, "ladder": cmd_ladder,
            "probe": cmd_probe}


if __name__ == "__main__":
    raise SystemExit(main())


def _where(err: BoardwrightError) -> str:
    d = err.diagnostics[0] if err.diagnostics else None
    return f"{d.span.file}:{d.span.line}" if d is not None and d.span.line else "rule error"
