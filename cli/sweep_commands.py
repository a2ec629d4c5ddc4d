"""`boardwright sweep`: the same seeded games at every value of a param range, every measure
with its 95% interval (interpreter/playtest/sweep.py does the work)."""
from __future__ import annotations

import json
import sys

from ..dsl.errors import UsageError
from ..interpreter.compile.load import load_game
from ..interpreter.playtest.param_ranges import check_params, parse_ranges
from ..interpreter.playtest.sweep import format_sweep, plot_sweep, run_sweep, sweep_points, write_sweep_csv
from .options import GAME_HELP, check_outputs, positive_int, seed_option, simulation_options, variant_option
from .playtest_commands import _bot_specs, fill_players, _say_failed_outputs, _write_outputs
from .progress import progress_bar

MAX_POINTS = 1000           # points (combinations of values) one sweep may play


def add_sweep(sub) -> None:
    p = sub.add_parser("sweep", help="the same seeded games at every value of a param: each measure with its interval")
    p.add_argument("game", metavar="GAME", help=GAME_HELP)
    variant_option(p)
    p.add_argument("--players", type=positive_int, metavar="N", help="the player count (default: the game's only one, when it allows one)")
    p.add_argument("--games", type=positive_int, metavar="K", default=100, help="games per value")
    seed_option(p)
    simulation_options(p, sets_help="a param and its values: NAME=LOW..HIGH, NAME=LOW..HIGH:STEP or NAME=a,b,c; "
                                    "a single NAME=VALUE fixes it (repeatable: several ranges give every combination)")
    for action in p._actions:
        if action.dest == "plot":
            action.help = "draw each measure against the param with its 95%% interval band (needs boardwright[plot])"
        elif action.dest == "csv":
            action.help = "write one row per game, its point in the first column"


def _checked_ranges(args, game) -> tuple[list, dict]:
    """The ranges swept, and the params fixed (a `--set NAME=VALUE` of one value)."""
    ranges = parse_ranges(args.set or [], "--set")
    check_params(game, ranges, "--set")
    fixed = {r.name: r.text(r.values()[0]) for r in ranges if len(r.values()) == 1}
    swept = [r for r in ranges if r.name not in fixed]
    if not swept:
        raise UsageError("sweep needs a range: --set NAME=LOW..HIGH (e.g. --set rounds_to_win=2..6)")
    points = len(sweep_points(swept))
    if points > MAX_POINTS:
        raise UsageError(f"the ranges make {points:,} combinations; at most {MAX_POINTS:,}: take larger steps")
    return swept, fixed


def cmd_sweep(args) -> int:
    check_outputs(args)
    game = load_game(args.game, args.variant)
    fill_players(args, args.variant, game)
    game.setup_state(args.players, 0)       # a player count the game does not allow: before any work
    ranges, fixed = _checked_ranges(args, game)
    specs = _bot_specs(args, args.players)
    bar = progress_bar(sys.stderr, args.quiet)
    try:
        report, results = run_sweep(lambda variant: load_game(args.game, variant), args.game, args.variant,
                                    args.players, args.games, args.seed, specs, ranges, fixed=fixed, rotate=args.rotate,
                                    workers=args.workers, cluster=args.cluster, progress=bar)
    finally:
        if bar is not None:
            bar.clear()
    failed = _write_outputs([("--csv", args.csv, lambda: write_sweep_csv(args.csv, results, args.players)),
                             ("--plot", args.plot, lambda: plot_sweep(args.plot, report))])
    print(json.dumps(report) if args.json else format_sweep(report))
    return _say_failed_outputs(failed)
