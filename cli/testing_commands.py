"""The testing commands: `test` runs scenario files, `check` fuzzes whole games with
Hypothesis; and writing a found failure as a scenario file that replays it."""
from __future__ import annotations

import os
import sys
from pathlib import Path

from ..dsl.errors import UsageError, counted
from ..interpreter.compile.load import load_game
from ..interpreter.testing.coverage import coverage_report, format_coverage, measure_coverage
from ..interpreter.testing.scenario import run_scenario, scenario_files
from .options import GAME_HELP, check_outputs, positive_int, seed_option, variant_option
from .saves import write_atomically


def add_check(sub) -> None:
    p = sub.add_parser("check", help="fuzz whole games with Hypothesis: invariants and universal properties")
    p.add_argument("game", metavar="GAME", help=GAME_HELP)
    variant_option(p)
    p.add_argument("--players", type=positive_int, metavar="N", help="player count (default: every count the game allows)")
    p.add_argument("--examples", type=positive_int, metavar="K", default=10, help="games Hypothesis plays")
    seed_option(p, "Hypothesis's seed: the same seed finds the same games")
    p.add_argument("--out", metavar="FILE", help="write a failure's minimal game as a scenario file")
    p.add_argument("--coverage", action="store_true", help="also report rule coverage over --examples random games")
    p.add_argument("--max-steps", type=positive_int, metavar="N", help="stop checking a game after this many decisions "
                                                       "(default: the game's step limit)")


def add_test(sub) -> None:
    p = sub.add_parser("test", help="run scenario files")
    p.add_argument("files", nargs="+", metavar="FILE", help="scenario files or folders holding *.scenario.yaml")


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
        print(f"ok: {report.title}: {counted(report.games, 'game')}, {counted(report.steps, 'step')}; "
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


def write_scenario(args, text, indent: str = "", out=None) -> None:
    """Write the scenario `text(game_ref, variant)` to --out, its game and variant paths
    relative to the scenario's folder."""
    ref, variant = _relative_to(args.out, args.game), args.variant
    if variant and Path(variant).exists():
        variant = _relative_to(args.out, variant)
    write_atomically(args.out, text(ref, variant))
    print(f"{indent}scenario written to {args.out}: replay it with 'boardwright test {args.out}'",
          file=out or sys.stdout)


def _relative_to(scenario: str, target: str) -> str:
    """A game or variant path as a scenario file refers to it: relative to the scenario's folder
    (a bundled game's name stays a name)."""
    if not Path(target).exists():
        return target
    return Path(os.path.relpath(Path(target).resolve(), Path(scenario).resolve().parent)).as_posix()
