"""The `boardwright` command line: validate, play, simulate, test, bench.

Exit codes: 0 success, 1 findings (invalid rule file, failed scenario, rule error),
2 usage error. Diagnostics go to stderr; no traceback reaches the user for a bad input.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..dsl.errors import BoardwrightError, UsageError
from ..dsl.loader import bundled_games, check_game, load_game, resolve_game, variants_of
from ..interpreter.check import failure_scenario, format_failure, run_checks
from ..interpreter.coverage import Coverage, coverage_report, format_coverage, measure_coverage
from ..interpreter.scenario import run_scenario, scenario_files
from ..interpreter.simulate import BOTS, bench, make_bot, simulate
from .render import render_options, render_result, render_table


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="boardwright", description="Rules-as-data engine for tabletop games.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("validate", help="check rule files and report every problem")
    p.add_argument("targets", nargs="+", metavar="TARGET", help="a .game file, a game folder or a bundled name")
    p.add_argument("--variant", help="check only this variant (default: the base and every variant)")
    p.add_argument("--format", choices=["text", "json"], default="text")

    for name, text in (("play", "play in the terminal, against bots or hot-seat"),
                       ("simulate", "play many seeded bot games and summarise them"),
                       ("bench", "measure load time and random playouts per second")):
        p = sub.add_parser(name, help=text)
        p.add_argument("game", metavar="GAME")
        p.add_argument("--variant")
        p.add_argument("--players", type=_positive, required=name != "play")
        p.add_argument("--seed", type=int, default=1)
        if name == "play":
            p.add_argument("--seats", help=f"comma-separated: human or a bot ({', '.join(BOTS)}) per seat")
        if name == "simulate":
            p.add_argument("--games", type=_positive, default=100)
            p.add_argument("--coverage", action="store_true", help="report rule coverage (text)")
            p.add_argument("--bots", help="comma-separated bot per seat (default: random)")
            p.add_argument("--json", action="store_true", help="print one JSON object")
        if name == "bench":
            p.add_argument("--games", type=_positive, default=20)

    p = sub.add_parser("check", help="fuzz whole games with Hypothesis: invariants and universal properties")
    p.add_argument("game", metavar="GAME")
    p.add_argument("--variant")
    p.add_argument("--players", type=_positive, help="player count (default: every count the game allows)")
    p.add_argument("--examples", type=_positive, default=10, help="games Hypothesis plays (default 10)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", metavar="FILE", help="write a failure's minimal game as a scenario file")
    p.add_argument("--coverage", action="store_true", help="also report rule coverage over --examples random games")
    p.add_argument("--max-steps", type=_positive, help="stop checking a game after this many decisions")

    p = sub.add_parser("test", help="run scenario files")
    p.add_argument("files", nargs="+", metavar="FILE", help="scenario files or folders holding *.scenario.yaml")
    return parser


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}")
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {value}")
    return value


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except UsageError as err:
        print(f"boardwright: error: {err}", file=sys.stderr)
        return 2
    except BoardwrightError as err:
        print(err.format(), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
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
                spec, _ = check_game(path, variant)
                load_game(path, variant)
                report.append({"target": label, "ok": True, "diagnostics": []})
                if args.format == "text":
                    title = spec.title + (f" ({spec.variant})" if spec.variant else "")
                    print(f"ok: {label}: {title}")
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


# ---------------------------------------------------------------------------- play
def cmd_play(args) -> int:
    game = load_game(args.game, args.variant)
    players = args.players or game.min_players
    seats = (args.seats or ",".join(["human"] + ["random"] * (players - 1))).split(",")
    seats = [s.strip() for s in seats]
    if len(seats) != players:
        raise UsageError(f"--seats names {len(seats)} seats for {players} players")
    bots = {p: make_bot(s, f"{args.seed}:{p}") for p, s in enumerate(seats) if s != "human"}
    humans = [p for p, s in enumerate(seats) if s == "human"]
    st = game.new_state(players, args.seed)
    while not st.finished:
        decision = game.decision(st)
        p = decision.player
        if p in bots:
            index = bots[p].choose(game, st)
            option = decision.options[index]
            print(f"{game.player_name(p)} ({seats[p]}): {decision.prompt} -> {option.label}")
            game.apply_index(st, index)
            continue
        print()
        print(render_table(game, game.observe(st, p), p))
        print(f"\n{game.player_name(p)}, your move. " + render_options(decision))
        index = _ask(game, st, decision)
        if index is None:
            print("\nInput ended: the game is abandoned.")
            return 0
        game.apply_index(st, index)
    print()
    print(render_table(game, game.observe(st, humans[0] if humans else None), None))
    print(render_result(game, game.result(st)))
    return 0


def _ask(game, st, decision):
    while True:
        try:
            line = input("> ").strip()
        except EOFError:
            return None
        if line.lower() in ("quit", "exit", "q"):
            return None
        if line in ("?", "help", ""):
            print(render_options(decision) + "\n(type a number, an option id or its label; 'quit' leaves)")
            continue
        if line.isdigit() and 1 <= int(line) <= len(decision.options):
            return int(line) - 1
        try:
            return game.option_index(st, line)
        except BoardwrightError:
            print(f"'{line}' is not one of the options: type 1 to {len(decision.options)}, an id or a label.")


# ---------------------------------------------------------------------------- simulate, bench
def cmd_simulate(args) -> int:
    game = load_game(args.game, args.variant)
    bots = [b.strip() for b in args.bots.split(",")] if args.bots else None
    if bots is not None and len(bots) != args.players:
        raise UsageError(f"--bots names {len(bots)} bots for {args.players} players")
    for b in bots or []:
        make_bot(b, 0)
    if args.coverage:
        game.coverage = Coverage()
    report = simulate(game, args.players, args.games, args.seed, bots)
    coverage = coverage_report(game, game.coverage) if args.coverage else None
    game.coverage = None
    if args.json:
        if coverage is not None:
            report["coverage"] = {k: v for k, v in coverage.items() if k != "statement_counts"}
        print(json.dumps(report))
        return 0
    if coverage is not None:
        print(format_coverage(game, coverage))
    print(f"{report['game']}" + (f" ({report['variant']})" if report["variant"] else "")
          + f": {report['games']} games, {report['players']} players, seed {report['seed']}")
    for p in range(args.players):
        print(f"  {game.player_name(p)} ({report['bots'][p]}): wins {report['wins'][p]:g}, "
              f"mean score {report['scores'][p]:.3f}")
    t = report["turns"]
    print(f"  draws {report['draws']}; turns per game mean {t['mean']:.1f} (min {t['min']}, max {t['max']}); "
          f"{report['seconds']} s")
    return 0


def cmd_bench(args) -> int:
    load_game(args.game, args.variant)      # fail early, before timing
    report = bench(lambda: load_game(args.game, args.variant), args.players, args.games, args.seed)
    print(json.dumps(report))
    return 0


# ---------------------------------------------------------------------------- check
def cmd_check(args) -> int:
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
            ref = str(Path(args.game).resolve()) if Path(args.game).exists() else args.game
            Path(args.out).write_text(failure_scenario(report, ref, args.variant), encoding="utf-8")
            print(f"  scenario written to {args.out}: replay it with 'boardwright test {args.out}'")
    if args.coverage:
        cov = measure_coverage(game, counts, args.examples, args.seed)
        print(format_coverage(game, coverage_report(game, cov)))
    return status


# ---------------------------------------------------------------------------- test
def cmd_test(args) -> int:
    files = scenario_files(args.files)
    if not files:
        raise UsageError("no scenario files found")
    failed = 0
    for path in files:
        if not path.is_file():
            raise UsageError(f"no scenario file {path}")
        outcome = run_scenario(path)
        if outcome.passed:
            print(f"PASS {path}: {outcome.name}")
        else:
            failed += 1
            print(f"FAIL {path}: {outcome.name}")
            for failure in outcome.failures:
                print("     " + failure.replace("\n", "\n     "))
    print(f"{len(files) - failed} passed, {failed} failed")
    return 1 if failed else 0


COMMANDS = {"validate": cmd_validate, "play": cmd_play, "simulate": cmd_simulate,
            "bench": cmd_bench, "check": cmd_check, "test": cmd_test}
