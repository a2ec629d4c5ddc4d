"""The playtesting commands: `simulate` (many seeded bot games, summarised), `compare`
(the same bots and seeds over variants or param sets), `ladder` (rate bots), `probe`
(decision quality against a stronger search) and `bench` (speed)."""
from __future__ import annotations

import json
import sys
import time

from ..dsl.errors import BoardwrightError, RuleError, UsageError, counted
from ..dsl.loader import BASE, resolve_game, variants_of
from ..interpreter.compile.load import load_game
from ..interpreter.bots.registry import bot_settings, check_bot_name
from ..interpreter.playtest.ladder import format_ladder, play_ladder
from ..interpreter.playtest.probe import format_probe, probe_decisions
from ..interpreter.testing.coverage import Coverage, coverage_report, format_coverage
from ..interpreter.playtest.report import (compare, format_compare, format_report, plot, plot_compare, summarise,
                                  write_compare_csv, write_csv)
from ..interpreter.playtest.simulate import remember_loaded, simulate_records
from .options import GAME_HELP, check_outputs, positive_int, seed_option, simulation_options, variant_option
from .play import parse_settings
from .progress import progress_bar
from .testing_commands import write_scenario


# ---------------------------------------------------------------------------- arguments
def add_simulate(sub) -> None:
    p = sub.add_parser("simulate", help="play many seeded bot games and summarise them")
    p.add_argument("game", metavar="GAME", help=GAME_HELP)
    variant_option(p)
    p.add_argument("--players", type=positive_int, metavar="N", help="the player count (default: the game's only one, when it allows one)")
    seed_option(p)
    p.add_argument("--games", type=positive_int, metavar="K", default=100, help="number of games")
    p.add_argument("--coverage", action="store_true", help="report rule coverage")
    p.add_argument("--out", metavar="FILE", help="on a rule error, write its game as a scenario file that replays it")
    simulation_options(p)


def add_bench(sub) -> None:
    p = sub.add_parser("bench", help="measure load time, random playouts and MCTS iterations per second")
    p.add_argument("game", metavar="GAME", nargs="?", help=GAME_HELP + " (default: every bundled game and variant)")
    variant_option(p)
    p.add_argument("--players", type=positive_int, metavar="N", help="the player count (default: 2 where the game allows it)")
    p.add_argument("--games", type=positive_int, metavar="K", default=20, help="random playouts per game")
    p.add_argument("--mcts-iterations", type=positive_int, metavar="I", default=200, help="iterations per timed MCTS decision")
    p.add_argument("--loads", type=positive_int, metavar="L", default=5,
                   help="timed loads per game, of which the median is shown")
    seed_option(p)
    p.add_argument("--json", action="store_true", help="print JSON (one object per game)")


def add_compare(sub) -> None:
    p = sub.add_parser("compare", help="run the same bots and seeds over variants or param sets")
    p.add_argument("game", metavar="GAME", help=GAME_HELP)
    p.add_argument("--variant", action="append", metavar="NAME",
                   help="a configuration, repeatable: --variant base --variant team ('base' is the game itself)")
    p.add_argument("--players", type=positive_int, metavar="N", help="the player count (default: the game's only one, when it allows one)")
    p.add_argument("--games", type=positive_int, metavar="K", default=100, help="games per configuration")
    seed_option(p)
    simulation_options(p, sets_help="a configuration of params, e.g. --set win_length=4 (repeat for more)")


def add_ladder(sub) -> None:
    p = sub.add_parser("ladder", help="rate bots: a round robin of rotated 2-player games")
    p.add_argument("game", metavar="GAME", help=GAME_HELP)
    variant_option(p)
    p.add_argument("--players", type=positive_int, metavar="N", default=2,
                   help="players per game: the ladder plays 2-player games (default: 2)")
    p.add_argument("--bots", required=True, metavar="LIST",
                   help="comma-separated bots to rate, e.g. random,greedy,mcts,mcts:iterations=1000")
    p.add_argument("--games", type=positive_int, metavar="K", default=20, help="games per pair of bots (default: 20)")
    seed_option(p)
    p.add_argument("--set", action="append", metavar="NAME=VALUE", help="override a param (repeatable)")
    p.add_argument("--workers", type=positive_int, metavar="W", default=1,
                   help="parallel processes, with the same results as one (default: 1)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def add_probe(sub) -> None:
    p = sub.add_parser("probe", help="decision quality: how often bots take a stronger search's choice")
    p.add_argument("game", metavar="GAME", help=GAME_HELP)
    variant_option(p)
    p.add_argument("--players", type=positive_int, metavar="N", default=2, help="players per game (default: 2)")
    p.add_argument("--bots", required=True, metavar="LIST",
                   help="comma-separated bots probed at the same positions (the first plays the games), "
                        "e.g. mcts,mcts:iterations=200")
    p.add_argument("--gold", required=True, metavar="SPEC",
                   help="the stronger search that values the options, e.g. mcts:iterations=1000")
    p.add_argument("--opponent", metavar="SPEC", default="greedy", help="the bot at every other seat (default: greedy)")
    p.add_argument("--games", type=positive_int, metavar="K", default=2,
                   help="games played, seats rotated as by 'simulate --rotate' (default: 2)")
    p.add_argument("--positions", type=positive_int, metavar="N", default=20,
                   help="positions probed per game, from its start (default: 20)")
    p.add_argument("--repeats", type=positive_int, metavar="R", default=3,
                   help="times each bot decides each position, with fresh seeds (default: 3)")
    seed_option(p)
    p.add_argument("--set", action="append", metavar="NAME=VALUE", help="override a param (repeatable)")
    p.add_argument("--json", action="store_true", help="print one JSON object, with every position")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar (it is drawn only on a terminal anyway)")


# ---------------------------------------------------------------------------- simulate, compare
def _bot_specs(args, players: int) -> list:
    specs = [b.strip() for b in args.bots.split(",")] if args.bots else ["random"] * players
    for spec in specs:  # a misspelt bot is the problem to report, not the count
        check_bot_name(spec.split(":")[0].strip())
    if len(specs) != players:
        raise UsageError(f"--bots names {counted(len(specs), 'bot')} for {counted(players, 'player')}")
    return specs


def fill_players(args, variant=None, game=None) -> None:
    """`--players` left out: the game's player count when it allows only one (`players 2`),
    else a usage error that says which counts it allows. `game`: the game, if loaded already."""
    if args.players is not None:
        return
    game = game or load_game(args.game, variant)
    if game.min_players != game.max_players:
        raise UsageError(f"{game.display_title} is for {game.min_players} to {game.max_players} players: "
                         f"say how many with --players N")
    args.players = game.min_players


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
    fill_players(args, args.variant)
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
    failed_outputs = _write_outputs([
        ("--csv", args.csv, lambda: write_csv(args.csv, records, args.players, game.player_name)),
        ("--plot", args.plot, lambda: plot(args.plot, records, report, game.player_name))])
    if args.json:
        report.get("coverage", {}).pop("statement_counts", None)
        print(json.dumps(report))
    else:
        if args.coverage:
            print(format_coverage(game, report.pop("coverage")))
        print(format_report(report, game.player_name))
    return _say_failed_outputs(failed_outputs)


def _write_outputs(outputs: list) -> list:
    """Write each output file of a finished run; return what could not be written, (option,
    path, reason), so the report is printed first and no game's work is lost."""
    failed = []
    for option, path, write in outputs:
        if path:
            try:
                write()
            except OSError as exc:
                failed.append((option, path, exc.strerror or str(exc)))
    return failed


def _say_failed_outputs(failed: list) -> int:
    for option, path, reason in failed:
        print(f"boardwright: error: cannot write {option} {path}: {reason} (the report above is complete)",
              file=sys.stderr)
    return 1 if failed else 0


def _where(err: BoardwrightError) -> str:
    d = err.diagnostics[0] if err.diagnostics else None
    return f"{d.span.file}:{d.span.line}" if d is not None and d.span.line else "rule error"


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
    fill_players(args, configs[0][1])
    for number, (name, variant, settings) in enumerate(configs, 1):
        game, report, records = run_simulation(args, variant, settings, args.players,
                                               label=f"{number}/{len(configs)}: {name}")
        results.append((name, report, records))
    outcome = compare(results)
    failed_outputs = _write_outputs([
        ("--csv", args.csv, lambda: write_compare_csv(args.csv, results, args.players, game.player_name)),
        ("--plot", args.plot, lambda: plot_compare(args.plot, outcome, game.player_name))])
    if args.json:
        print(json.dumps(outcome))
    else:
        print(f"{results[0][1]['game']}: {args.games} games per configuration, {args.players} players, "
              f"bots {','.join(_bot_specs(args, args.players))}, seed {args.seed}")
        print(format_compare(outcome, game.player_name))
    return _say_failed_outputs(failed_outputs)


# ---------------------------------------------------------------------------- bench, ladder, probe
def cmd_bench(args) -> int:
    from ..interpreter.playtest.bench import bench_game, format_bench
    if args.game is not None:      # an empty name is a name (refused as such), not "every game"
        targets = [(args.game, args.variant)]
    else:
        from ..dsl.loader import bundled_games
        targets = [(g, v) for g in bundled_games() for v in [None] + variants_of(resolve_game(g))]
    rows = []
    for game, variant in targets:
        rows.append(bench_game(lambda: load_game(game, variant), args.players, args.games, args.seed,
                               args.mcts_iterations, loads=args.loads))
        if args.json:
            print(json.dumps(rows[-1]), flush=True)
    if not args.json:
        print(format_bench(rows))
    return 0


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
