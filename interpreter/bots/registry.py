"""The bots by name: making one from a spec like 'mcts:iterations=300:depth=8', with the
defaults a rule file declares, and each spec's settings spelled out for reports.

Every bot answers a forced move (one option) at once, without looking ahead and without
drawing from its random generator. Bots are seeded, and with an iteration budget their
choices depend only on the seed and on what their seat sees; a time budget (`seconds=`)
trades that exactness for a bounded wait.
"""
from __future__ import annotations

from ...dsl.bot_settings import parse_bot_settings
from ...dsl.errors import UsageError, clipped, did_you_mean
from .mcts import MCTSBot
from .simple import GreedyBot, RandomBot


BOTS = {"random": RandomBot, "greedy": GreedyBot, "mcts": MCTSBot}


def bot_settings(specs: list, game=None) -> dict:
    """Each bot spec with every setting spelled out (defaults included), for reports."""
    return {spec: make_bot(spec, 0, game).describe() for spec in dict.fromkeys(specs)}

def check_bot_name(name: str) -> None:
    """A usage error naming the bots (and the closest one) unless `name` is one of them."""
    if name not in BOTS:
        hint = did_you_mean(name, BOTS)
        raise UsageError(f"unknown bot '{clipped(name)}'; bots: {', '.join(BOTS)}" + (f"; {hint}" if hint else ""))


def make_bot(spec: str, seed, game=None):
    """A bot from a spec like 'random', 'greedy' or 'mcts:iterations=300:depth=8'. Every
    setting must be a finite number in its range (a whole one where it counts), else a
    usage error. With a `game` whose rule file declares default settings for the bot
    (`bot mcts "depth=8"`), those apply where the spec gives none."""
    name, *settings = [part.strip() for part in str(spec).split(":")]
    check_bot_name(name)
    options = dict(game_bot_defaults(game, name))
    options.update(parse_bot_settings(name, settings))
    return BOTS[name](seed, **options)


def game_bot_defaults(game, name: str) -> dict:
    """The settings of bot `name` that `game`'s rule file declares (checked when it loaded)."""
    text = game.bot_defaults.get(name) if game is not None else None
    return parse_bot_settings(name, text.split(":")) if text else {}
