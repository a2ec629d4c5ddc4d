"""The bots a rule file or a command line may name, and their settings: names, ranges, defaults.

The `bot NAME "SETTINGS"` declaration (docs/language.md) and the command line's bot specs
(`mcts:iterations=300`) are checked against this table: the checker reports a bad declaration
at its position, the command line a bad spec as a usage error. The bots themselves live in
interpreter/bots/; they take their settings from here.
"""
from __future__ import annotations

import math

from .errors import UsageError, did_you_mean

# Per bot, per setting: (whole number?, least value, default).
BOT_SETTINGS: dict[str, dict[str, tuple]] = {
    "random": {},
    "greedy": {"lookahead": (True, 0, 200)},
    "mcts": {"iterations": (True, 1, 400), "seconds": (False, 1e-9, None), "depth": (True, 0, 0),
             "guide": (True, 1, 3), "exploration": (False, 0, 0.7), "width": (True, 0, 6),
             "trees": (True, 1, 1), "follow": (True, 0, 0), "margin": (False, 0, 0),
             "whole": (True, 0, 0), "paired": (True, 0, 0), "decisive": (True, 0, 0),
             "widen": (False, 0, 0), "mast": (False, 0, 0), "reuse": (True, 0, 0),
             "history": (False, 0, 0)},
}

# Finite budgets: a bot decides in bounded time and memory (docs/security.md).
BOT_LIMITS = {"iterations": 1_000_000, "seconds": 3600, "depth": 10_000, "exploration": 1000,
              "guide": 1000, "width": 1000, "trees": 64, "lookahead": 1_000_000,
              "follow": 1_000_000, "margin": 1_000_000, "whole": 1, "paired": 1,
              "decisive": 2, "widen": 1000, "mast": 1, "reuse": 1, "history": 1000}


def _finite(key: str, text: str, whole: bool, minimum: float) -> float:
    """A bot setting's value: a finite number (whole if asked) of at least `minimum`."""
    try:
        value = float(text) if len(text) <= 20 else math.inf
    except ValueError:
        raise UsageError(f"bad bot setting '{key}={text[:40]}': {text[:40]!r} is not a number")
    if not math.isfinite(value):
        raise UsageError(f"bad bot setting '{key}={text[:40]}': must be a finite number")
    if whole and value != int(value):
        raise UsageError(f"bad bot setting '{key}={text}': must be a whole number")
    if value < minimum:
        raise UsageError(f"bad bot setting '{key}={text}': must be "
                         + ("positive" if minimum > 0 else "at least 0"))
    if value > BOT_LIMITS.get(key, math.inf):
        raise UsageError(f"bad bot setting '{key}={text[:40]}': at most {BOT_LIMITS[key]:,}")
    return int(value) if whole else value


def bot_settings_help(name: str) -> str:
    settings = BOT_SETTINGS[name]
    return ", ".join(f"{k}={'N' if whole else 'X'}" for k, (whole, _, _) in settings.items())


def bot_declaration_problem(name: str, text: str) -> tuple[str, str] | None:
    """What is wrong with a rule file's `bot NAME "SETTINGS"` (a message and a hint), or None."""
    if name not in BOT_SETTINGS:
        return f"unknown bot '{name}'", did_you_mean(name, BOT_SETTINGS) or f"bots: {', '.join(BOT_SETTINGS)}"
    try:
        parse_bot_settings(name, text.split(":") if text.strip() else [])
    except UsageError as err:
        example = ":".join(f"{key}={default}" for key, (_, _, default) in list(BOT_SETTINGS[name].items())[:3] if default is not None)
        return str(err), (f"settings are written as on the command line, e.g. bot {name} \"{example}\""
                          if example else f"{name} takes no settings: leave the quotes empty")
    return None


def parse_bot_settings(name: str, settings: list) -> dict:
    """The options of bot `name` from settings like ['iterations=300', 'depth=8']."""
    allowed = BOT_SETTINGS[name]
    options = {}
    for setting in settings:
        key, _, value = setting.partition("=")
        key, value = key.strip(), value.strip()
        if key not in allowed or not value:
            hint = did_you_mean(key, allowed) if value else None
            raise UsageError(f"bad bot setting '{setting[:60]}' for {name}"
                             + (f"; {hint}" if hint else "")
                             + (f"; settings: {bot_settings_help(name)}" if allowed else
                                f"; {name} takes no settings"))
        whole, minimum, _ = allowed[key]
        options[key] = _finite(key, value, whole, minimum)
    return options
