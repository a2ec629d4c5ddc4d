"""`boardwright tune`: search settings for the designer's goals. This module holds the
parser and picks the mode; each mode's work lives in its own module. The mode here is
`--param`: ranges of the game's params (interpreter/playtest/tune_params.py); another mode
(e.g. `--bot`, tuning a bot's settings) adds its options to `add_tune` and its entry to `MODES`.
"""
from __future__ import annotations

import json
import shlex
import sys
import time
from pathlib import Path

from ..dsl.errors import UsageError
from ..dsl.loader import GAMES_DIR as BUNDLED, bundled_games, resolve_game
from ..interpreter.compile.load import load_game
from ..interpreter.playtest.goals import known_measures, parse_goals
from ..interpreter.playtest.param_ranges import check_params, parse_ranges
from ..interpreter.playtest.simulate import remember_loaded, simulate_records
from ..interpreter.playtest.skill import DEFAULT_MARGIN, skill_bots
from ..interpreter.playtest.sweep import settings_text
from ..interpreter.playtest.tune_params import Evaluation, ParamTuner, need_optuna
from ..interpreter.playtest.tune_report import format_tune, plot_tune, reads_data, variant_text
from .options import GAME_HELP, check_outputs, check_writable, positive_int, seed_option, variant_option
from .play import parse_settings
from .playtest_commands import _bot_specs, _say_failed_outputs, _write_outputs
from .progress import progress_bar
from .tune_bot_command import DEFAULTS as BOT_DEFAULTS, add_tune_bot_options, cmd_tune_bot

PARAM_GAMES = 50        # --games of --param


def add_tune(sub) -> None:
    p = sub.add_parser("tune", help="search param values for goals (--param, --goal) or a bot's settings (--bot)")
    p.add_argument("game", metavar="GAME", help=GAME_HELP)
    variant_option(p)
    p.add_argument("--players", type=positive_int, metavar="N", help="the player count (needed with --param)")
    p.add_argument("--param", action="append", metavar="NAME=LOW..HIGH",
                   help="a param to tune and its range: NAME=LOW..HIGH, NAME=LOW..HIGH:STEP or NAME=a,b,c (repeatable)")
    p.add_argument("--goal", action="append", metavar="GOAL",
                   help="first-player=0.5, length=30..40, ties<=0.05, skill, or MEASURE=VALUE / LOW..HIGH / <=X / >=X "
                        "for any measure of the report (repeatable: several goals give a Pareto front)")
    p.add_argument("--budget", type=positive_int, metavar="G", default=5000,
                   help="games in all: about 40%% for the search, 30%% for racing, the rest to confirm the best")
    p.add_argument("--games", type=positive_int, metavar="K",
                   help=f"games of each new candidate in the search (default: {PARAM_GAMES} with --param, "
                        f"{BOT_DEFAULTS['games']} with --bot)")
    p.add_argument("--confirm", type=positive_int, metavar="C", default=3, help="best candidates confirmed by fresh games")
    p.add_argument("--skill-margin", type=float, metavar="M", default=DEFAULT_MARGIN,
                   help="--goal skill: how far above the fair share 1/players a better bot's win share should be")
    p.add_argument("--bots", metavar="LIST", help="comma-separated bot per seat for the measure goals "
                                                  "(default: random for every seat)")
    p.add_argument("--rotate", action="store_true", help="rotate the bots over the seats from game to game")
    p.add_argument("--set", action="append", metavar="NAME=VALUE", help="fix a param that is not tuned (repeatable)")
    seed_option(p)
    p.add_argument("--workers", type=positive_int, metavar="W", default=1, help="parallel processes (same results as serial)")
    p.add_argument("--cluster", metavar="ADDRESS", help="run the games on a Dask scheduler (needs boardwright[cluster])")
    p.add_argument("--json", action="store_true", help="print one JSON object: the confirmed best, the other candidates")
    p.add_argument("--plot", metavar="FILE.png", help="draw the search: each candidate's loss (needs boardwright[plot])")
    p.add_argument("--write", metavar="NAME.game", nargs="?", const=True,
                   help="--param: write the confirmed best as a variant file NAME.game (extends plus params); "
                        "--bot: write the declaration into the rule file (no NAME)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar (it is drawn only on a terminal anyway)")
    add_tune_bot_options(p)


def cmd_tune(args) -> int:
    for option, mode in MODES.items():
        if getattr(args, option, None):
            return mode(args)
    raise UsageError("tune needs what to tune: --param NAME=LOW..HIGH (e.g. --param rounds_to_win=1..5) "
                     "or --bot BOT (e.g. --bot mcts)")


# ---------------------------------------------------------------------------- --param
def tune_params(args) -> int:
    if args.bot:
        raise UsageError("tune takes --param or --bot, not both")
    if args.players is None:
        raise UsageError("tune --param needs --players N")
    if args.write is True:
        raise UsageError("--write needs the variant file to write: --write NAME.game")
    args.games = PARAM_GAMES if args.games is None else args.games
    check_outputs(args)
    if args.write:
        check_writable(args.write, "--write")
        if not args.write.endswith(".game"):
            raise UsageError(f"--write {args.write}: a rule file's name ends in .game")
    if not 0 <= args.skill_margin < 1:
        raise UsageError(f"--skill-margin {args.skill_margin:g}: expected a share between 0 and 1")
    game = load_game(args.game, args.variant)
    if args.write:
        base_reference(game, args.write)
    fixed = parse_settings(args.set)
    game.set_params(fixed)
    game.setup_state(args.players, 0)       # a player count the game does not allow: before any work
    ranges = parse_ranges(args.param, "--param")
    check_params(game, ranges, "--param")
    for r in ranges:
        if r.name in fixed:
            raise UsageError(f"--param {r.name} and --set {r.name}: a param is either tuned or fixed")
        if r.kind == "choice" and len(r.choices) < 2 or r.kind != "choice" and r.low == r.high:
            raise UsageError(f"--param {r.name}: one value leaves nothing to tune; fix it with --set {r.name}=VALUE")
    specs = _bot_specs(args, args.players)
    goals = parse_goals(args.goal, known_measures(game, args.players, specs))
    if args.games > args.budget // 2:
        raise UsageError(f"--games {args.games} is more than half of --budget {args.budget}: the search would "
                         "try almost nothing; lower --games or raise --budget")
    need_optuna()
    bots = skill_bots(game) if any(g.measure == "skill" for g in goals) else None

    def play(point, bot_specs, rotate, first, count, seed):
        settings = {**fixed, **settings_text(ranges, point)}
        game.param_overrides = {}
        game.set_params(settings)
        ref = (args.game, args.variant, tuple(sorted(settings.items())))
        remember_loaded(ref, game)
        return simulate_records(game, args.players, count, seed, bot_specs, rotate=rotate, workers=args.workers,
                                cluster=args.cluster, ref=ref, first=first)

    evaluation = Evaluation(play, args.players, args.seed, goals, specs, args.rotate, bots, args.skill_margin)
    bar = progress_bar(sys.stderr, args.quiet)
    start = time.perf_counter()
    try:
        tuner = ParamTuner(evaluation, ranges, args.budget, args.games, args.confirm, args.seed, game.player_name,
                           progress=bar)
        result = tuner.run()
    finally:
        if bar is not None:
            bar.clear()
    result = {"game": game.title, "variant": game.variant, "players": args.players, "seed": args.seed,
              "bots": specs, "fixed": fixed, "params": [r.name for r in ranges], **result,
              "seconds": round(time.perf_counter() - start, 3)}
    outputs = [("--plot", args.plot, lambda: plot_tune(args.plot, result))]
    if args.write:
        outputs.append(("--write", args.write, lambda: _write_variant(args, game, result, ranges)))
    failed = _write_outputs(outputs)
    print(json.dumps(result) if args.json else format_tune(result))
    return _say_failed_outputs(failed)


def base_reference(game, write: str) -> str:
    """How the variant file `write` names the game it extends: a bundled game by its name,
    else the base rule file's path from the variant's folder (which must hold it). A variant
    that was tuned is copied (tune_report.variant_text), so its data files must stay in reach."""
    base = Path(game.spec.path).resolve()
    folder = Path(write).resolve().parent
    source = game.spec.variant_path
    if Path(write).resolve() in (base, Path(source).resolve() if source else None):
        raise UsageError(f"--write {write}: that is the rule file being tuned; write the variant to a new file")
    if source and reads_data(source) and Path(source).resolve().parent != folder:
        raise UsageError(f"--write {write}: the variant {Path(source).name} reads data files beside it; "
                         f"write its tuned copy in {Path(source).parent}")
    for name in bundled_games():
        if resolve_game(BUNDLED / name).resolve() == base:
            return name
    if not base.is_relative_to(folder):
        raise UsageError(f"--write {write}: a variant extends a rule file in its own folder (or below it), and "
                         f"{base.name} is not there; write the variant in {base.parent}")
    return base.relative_to(folder).as_posix()


def _write_variant(args, game, result: dict, ranges) -> None:
    text = variant_text(result, base_reference(game, args.write), Path(args.write).stem, ranges, _command(args),
                        game.spec.variant_path or None)
    Path(args.write).write_text(text, encoding="utf-8")


def _command(args) -> str:
    """The tune command that found a variant, as the variant file records it."""
    parts = ["boardwright tune", args.game] + (["--variant", args.variant] if args.variant else [])
    parts += ["--players", str(args.players)]
    for option, values in (("--param", args.param), ("--set", args.set or []), ("--goal", args.goal)):
        parts += [word for value in values for word in (option, value)]
    parts += ["--budget", str(args.budget), "--seed", str(args.seed)]
    parts += ["--games", str(args.games)] if args.games != PARAM_GAMES else []
    parts += ["--bots", args.bots] if args.bots else []
    parts += ["--rotate"] if args.rotate else []
    return " ".join(parts[:1] + [shlex.quote(part) for part in parts[1:]])


MODES = {"param": tune_params, "bot": cmd_tune_bot}      # option -> the mode it selects
