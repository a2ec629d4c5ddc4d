"""Ranges of values to try, as `sweep --set` and `tune --param` take them.

`NAME=LOW..HIGH` (every whole number between, both ends included), `NAME=LOW..HIGH:STEP`,
`NAME=a,b,c` (a list: numbers, true/false or enum members) and reals, `NAME=0.5..2.0:0.25`,
for settings that take reals (a game's params are whole numbers, booleans or enum members:
`check_params` refuses a real range for them). Bounds may be negative: `-3..3`.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ...dsl.errors import UsageError, clipped, did_you_mean

MAX_VALUES = 10_000         # values one range may hold: a sweep plays every one of them

_NUMBER = r"-?(?:\d+(?:\.\d*)?|\.\d+)"
_RANGE = re.compile(rf"^({_NUMBER})\s*\.\.\s*({_NUMBER})(?:\s*:\s*({_NUMBER}))?$")


@dataclass(frozen=True)
class ParamRange:
    """The values of one param to try. `kind` is "int" (whole numbers), "real" or "choice" (a
    list); `low`, `high` and `step` are set for the first two (step None: a continuous real)."""
    name: str
    kind: str
    low: float | None = None
    high: float | None = None
    step: float | None = None
    choices: tuple = ()

    def values(self) -> list:
        """Every value of the range (a continuous real range without a step has none)."""
        if self.kind == "choice":
            return list(self.choices)
        if self.step is None:
            return []
        count = int(math.floor((self.high - self.low) / self.step + 1e-9)) + 1
        values = [self.low + i * self.step for i in range(count)]
        return [int(v) for v in values] if self.kind == "int" else [round(v, 10) for v in values]

    def text(self, value) -> str:
        """A value as `--set` and a rule file write it."""
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, float) and value.is_integer() and self.kind == "int":
            return str(int(value))
        return str(value)


def parse_range(item: str, option: str = "--set") -> ParamRange:
    """One `NAME=LOW..HIGH[:STEP]` or `NAME=a,b,c`; a usage error says what is wrong."""
    name, eq, text = item.partition("=")
    name, text = name.strip(), text.strip()
    if not eq or not name or not text:
        raise UsageError(f"{option} expects NAME=LOW..HIGH, NAME=LOW..HIGH:STEP or NAME=a,b,c; got {item[:80]!r}")
    if ".." in text:
        match = _RANGE.match(text)
        if not match:
            raise UsageError(f"{option} {name}={text[:60]}: expected LOW..HIGH or LOW..HIGH:STEP with numbers, "
                             "e.g. 2..6, -3..3, 2..10:2 or 0.5..2.0:0.25")
        low_text, high_text, step = match.groups()
        real = any(part is not None and not re.fullmatch(r"-?\d+", part) for part in (low_text, high_text, step))
        cast = float if real else int
        low, high = cast(low_text), cast(high_text)
        step = cast(step) if step is not None else (None if real else 1)
        if low > high:      # the suggestion swaps the numbers as written: `2.0..1.0` stays a range of reals
            raise UsageError(f"{option} {name}={text}: the low end {low_text} is above the high end {high_text}; "
                             f"write {name}={high_text}..{low_text}" + text[match.end(2):])
        if step is not None and step <= 0:
            raise UsageError(f"{option} {name}={text}: the step must be above 0")
        if step is not None and (high - low) / step + 1 > MAX_VALUES:
            raise UsageError(f"{option} {name}={text}: more than {MAX_VALUES:,} values; take a larger step")
        if max(abs(low), abs(high)) >= 10 ** 18:
            raise UsageError(f"{option} {name}={text}: at most 18 digits")
        return ParamRange(name, "real" if real else "int", low, high, step)
    choices = [part.strip() for part in text.split(",")]
    if any(not part for part in choices):
        raise UsageError(f"{option} {name}={text[:60]}: an empty value in the list")
    if len(set(choices)) != len(choices):
        raise UsageError(f"{option} {name}={text[:60]}: a value is listed twice")
    return ParamRange(name, "choice", choices=tuple(_value(c) for c in choices))


def _value(text: str):
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if re.fullmatch(_NUMBER, text):
        return float(text)
    return {"true": True, "false": False}.get(text, text)


def parse_ranges(items, option: str = "--set") -> list[ParamRange]:
    ranges = [parse_range(item, option) for item in items or []]
    names = [r.name for r in ranges]
    for name in names:
        if names.count(name) > 1:
            raise UsageError(f"{option} names '{name}' twice: give one range per param")
    return ranges


def check_params(game, ranges: list[ParamRange], option: str = "--set") -> None:
    """Every range names a param of the game, with values of its type (a usage error if not:
    before any game is played)."""
    for r in ranges:
        if r.name not in game.spec.params:
            hint = did_you_mean(r.name, game.spec.params)
            raise UsageError(f"{option} {clipped(r.name)}: no param '{clipped(r.name)}' in {game.title}; params: "
                             f"{', '.join(game.spec.params) or 'none'}" + (f"; {hint}" if hint else ""))
        if r.kind == "real" or any(isinstance(v, float) for v in r.choices):
            raise UsageError(f"{option} {r.name}: params are whole numbers, true/false or enum members, "
                             "not reals; give whole numbers, e.g. 2..6")
        expected = game.param_types.get(r.name, "any")
        if r.kind == "int" and expected not in ("int", "any"):
            raise UsageError(f"{option} {r.name}: '{r.name}' is not a number (its default is {expected}); "
                             f"list its values instead, e.g. {r.name}=a,b")
        for value in r.values() if r.kind == "choice" else []:
            game.set_params({r.name: r.text(value)})         # the type check `--set` does
        game.param_overrides.pop(r.name, None)
