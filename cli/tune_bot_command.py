"""`boardwright tune GAME --bot mcts`: search a bot's settings for a game (the search is
interpreter/playtest/tune_bot.py's), print the `bot` declaration it found or write it into
the rule file (`--write`), replacing the file's own, and check the file still validates
--strict.

`add_tune_bot_options(parser)` adds the options only this mode has to the `tune` parser,
which has the options both modes share (cli/tune_commands.py).
"""
from __future__ import annotations

import argparse
import json
import re
import shlex
import sys
import time
from pathlib import Path

from ..dsl.errors import BoardwrightError, UsageError
from ..dsl.loader import resolve_game
from ..interpreter.compile.load import load_game
from ..interpreter.playtest.simulate import remember_loaded
from ..interpreter.playtest.tune_bot import declaration, format_tune, tune_bot
from ..interpreter.testing.bot_puzzles import bot_puzzle_files
from ..interpreter.testing.scenario import run_scenario
from .options import DEFAULT_SEED, positive_int
from .play import parse_settings
from .progress import progress_bar


def positive_float(text: str) -> float:
    try:
        value = float(text) if len(text) <= 20 else None
    except ValueError:
        value = None
    if value is None or not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text[:40]!r}")
    return value


# The search's defaults (each an option below; the rerun command the declaration quotes
# names only the options that differ from them).
DEFAULTS = {"opponent": "greedy", "decision_seconds": 0.25, "trials": 30, "games": 40, "batch": 8, "confirm": 3,
            "confirm_games": 100}


def add_tune_bot_options(p) -> None:
    """The options only `tune --bot` has, added to tune's parser (cli/tune_commands.py), which
    has the options both modes share: --variant, --seed, --games, --confirm, --write, --set,
    --workers, --cluster, --json and --quiet."""
    p.add_argument("--bot", metavar="BOT", help="tune this bot's settings (mcts) by self-play against --opponent")
    p.add_argument("--opponent", metavar="SPEC", default=DEFAULTS["opponent"], help="the bot the candidates play against")
    p.add_argument("--decision-seconds", type=positive_float, metavar="SECONDS", default=DEFAULTS["decision_seconds"],
                   help="CPU seconds per decision a candidate may spend (measured; slower ones are dropped)")
    p.add_argument("--trials", type=positive_int, metavar="N", default=DEFAULTS["trials"], help="candidate settings tried")
    p.add_argument("--batch", type=positive_int, metavar="B", default=DEFAULTS["batch"],
                   help="games between two prunings (even: both seatings alike)")
    p.add_argument("--confirm-games", type=positive_int, metavar="K", default=DEFAULTS["confirm_games"],
                   help="games of each confirmation")


def cmd_tune_bot(args) -> int:
    if not args.bot:
        raise UsageError("tune needs --bot BOT (e.g. --bot mcts)")
    if args.write not in (None, False, True):
        raise UsageError("with --bot, --write takes no file name: it writes the declaration into the rule file")
    for name in ("games", "confirm"):       # options tune's parser may leave unset
        if getattr(args, name, None) is None:
            setattr(args, name, DEFAULTS[name])
    if args.write and args.variant:
        raise UsageError("--write writes the base rule file's declaration: drop --variant, or drop --write "
                         "and put the printed declaration in the variant's file")
    settings = parse_settings(args.set)
    path = resolve_game(args.game)
    game = load_game(args.game, args.variant)
    game.set_params(settings)
    ref = (args.game, args.variant, tuple(sorted(settings.items())))
    remember_loaded(ref, game)
    puzzle_files = bot_puzzle_files(path.parent / "scenarios", args.bot, args.variant)

    def puzzles(spec: str) -> list:
        return [failure for file in puzzle_files for failure in run_scenario(file, {args.bot: spec}).failures]

    bar = progress_bar(sys.stderr, args.quiet)
    start = time.perf_counter()
    try:
        report = tune_bot(game, ref, args.bot, args.opponent, args.decision_seconds, args.trials, args.games, args.batch,
                          args.confirm, args.confirm_games, args.seed, args.workers, args.cluster, progress=bar,
                          puzzles=puzzles if puzzle_files else None)
    finally:
        if bar is not None:
            bar.clear()
    report["seconds"] = round(time.perf_counter() - start, 3)
    report["puzzles"] = [str(file) for file in puzzle_files]
    command = command_line(args)
    if report["best"] is not None:
        report["declaration"] = declaration(report, command)
        if args.write:
            write_declaration(path, args.bot, report["declaration"])
            report["written"] = str(path)
    print(json.dumps(report) if args.json else format_tune(report, command)
          + (f"\n  written to {path}" if report.get("written") else ""))
    return 0 if report["best"] is not None else 1


def command_line(args) -> str:
    """The command that reproduces this search (what the declaration's comment quotes)."""
    parts = ["boardwright", "tune", str(args.game), "--bot", args.bot]
    for name, default in dict(DEFAULTS, seed=DEFAULT_SEED).items():
        value = getattr(args, name)
        if value != default:
            parts += [f"--{name.replace('_', '-')}", f"{value:g}" if isinstance(value, float) else str(value)]
    for setting in args.set or []:
        parts += ["--set", setting]
    return " ".join(shlex.quote(p) for p in parts)


def write_declaration(path: Path, bot: str, text: str) -> None:
    """Put `text` (comment and `bot` line) in place of the file's `bot BOT "..."` line and the
    comment a previous tune wrote above it, or at the end of the file; then check that the
    file validates --strict (else put the old text back and say why)."""
    old = path.read_text(encoding="utf-8")
    lines = old.splitlines(keepends=True)
    pattern = re.compile(rf'^bot\s+{re.escape(bot)}\s+"')
    at = next((i for i, line in enumerate(lines) if pattern.match(line)), None)
    if at is None:
        new = old + ("" if old.endswith("\n") else "\n") + "\n" + text
    else:
        first = at
        while first > 0 and lines[first - 1].startswith("#"):
            first -= 1
        if not any(line.startswith("# Tuned by `boardwright tune`") for line in lines[first:at]):
            first = at              # a comment someone wrote stays
        new = "".join(lines[:first]) + text + "".join(lines[at + 1:])
    path.write_text(new, encoding="utf-8")
    try:
        spec = load_game(path, None, warnings=True).spec
        if spec.warnings:
            raise UsageError(f"the tuned declaration made {path} fail validate --strict: "
                             f"{spec.warnings[0].message}")
    except BoardwrightError:
        path.write_text(old, encoding="utf-8")
        raise
