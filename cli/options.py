"""Options and checks that several `boardwright` commands share: the GAME argument's help,
--variant, --seed and the simulation options, whole-number arguments, and the check of
output files and optional packages before any game is played."""
from __future__ import annotations

import argparse
import importlib
from pathlib import Path

from ..dsl.errors import UsageError
from ..interpreter.bots.registry import BOTS


DEFAULT_SEED = 1       # one default seed for every command that takes --seed

GAME_HELP = "a bundled game's name, a game folder or a .game file"


def variant_option(p) -> None:
    p.add_argument("--variant", metavar="NAME", help="a variant of the game, by name or file (default: the base game, also "
                                     "named 'base')")


def game_command(sub, name: str, text: str):
    """A subcommand that takes one GAME and `--variant`, as most do; returns its parser."""
    p = sub.add_parser(name, help=text)
    p.add_argument("game", metavar="GAME", help=GAME_HELP)
    variant_option(p)
    return p


def seed_option(p, text="base seed: the same seed gives the same games") -> None:
    p.add_argument("--seed", type=int, metavar="S", default=DEFAULT_SEED, help=text)


def simulation_options(p, sets_help="override a param: --set name=value (repeatable)") -> None:
    p.add_argument("--bots", metavar="LIST", help=f"comma-separated bot per seat: {', '.join(BOTS)}, e.g. mcts:iterations=300 "
                                  "(default: random for every seat)")
    p.add_argument("--rotate", action="store_true", help="rotate the bots over the seats from game to game")
    p.add_argument("--set", action="append", metavar="NAME=VALUE", help=sets_help)
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    p.add_argument("--csv", metavar="FILE", help="write one row per game")
    p.add_argument("--plot", metavar="FILE.png", help="draw score distributions and win rates (needs boardwright[plot])")
    p.add_argument("--workers", type=positive_int, metavar="W", default=1, help="parallel processes (same results as serial)")
    p.add_argument("--cluster", metavar="ADDRESS", help="run the games on a Dask scheduler (needs boardwright[cluster])")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar (it is drawn only on a terminal anyway)")


MAX_COUNT = 1_000_000       # games, players, examples, workers, iterations a command line may ask for


def positive_int(text: str) -> int:
    try:
        value = int(text) if len(text) <= 20 else None
    except ValueError:
        value = None
    if value is None:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text[:40]!r}")
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {value}")
    if value > MAX_COUNT:
        raise argparse.ArgumentTypeError(f"expected at most {MAX_COUNT:,}, got {value}")
    return value


def check_outputs(args) -> None:
    """Every output file a command will write, and the packages it will need, checked before
    the first game: a bad path must not lose a long run at its end."""
    for option in ("csv", "plot", "out", "log", "trace"):
        path = getattr(args, option, None)
        if path is not None:
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
    if not path.strip():
        raise UsageError(f"{option} needs a file name")
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
