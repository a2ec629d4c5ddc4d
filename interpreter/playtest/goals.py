"""What `tune --goal` asks of a game, and how far a measured game is from it (its loss: 0
when the goal is met, else the distance in the measure's own unit).

Goals: `MEASURE=VALUE` (e.g. `first-player=0.5`), `MEASURE=LOW..HIGH` (`length=30..40`),
`MEASURE<=VALUE` (`ties<=0.05`), `MEASURE>=VALUE`, and `skill` (better bots beat worse
ones: interpreter/playtest/skill.py). MEASURE is any measure of intervals.measure_rows:
`first-player`, `length`, `ties`, `lead-changes` are short names of built-in ones; a rule
file's `measure "NAME"` is named by its title.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ...dsl.errors import UsageError, did_you_mean

SHORT_NAMES = {"first-player": "first player win rate", "length": "length", "ties": "ties",
               "lead-changes": "lead changes"}
SKILL = "skill"
_NUMBER = r"-?(?:\d+(?:\.\d*)?|\.\d+)"
_GOAL = re.compile(rf"^(.+?)\s*(<=|>=|=)\s*({_NUMBER})(?:\s*\.\.\s*({_NUMBER}))?$")


@dataclass(frozen=True)
class Goal:
    """One goal: the measure it reads and the values that meet it, [low, high] (None: open)."""
    text: str
    measure: str
    low: float | None
    high: float | None

    def loss(self, rows: dict) -> float:
        """How far the measured value is from the goal (0 inside it)."""
        return self._distance(rows[self.measure][0])

    def loss_interval(self, rows: dict) -> tuple[float, float]:
        """The losses the measure's 95% interval allows: (least, most)."""
        _, low, high = rows[self.measure]
        ends = (self._distance(low), self._distance(high))
        inside = (self.low is None or high >= self.low) and (self.high is None or low <= self.high)
        return (0.0 if inside else min(ends), max(ends))

    def _distance(self, value: float) -> float:
        if self.low is not None and value < self.low:
            return self.low - value
        if self.high is not None and value > self.high:
            return value - self.high
        return 0.0

    @property
    def scale(self) -> float:
        """A typical size of the measure, to weigh goals against each other: 1 for a share
        (a win rate, ties, skill), else the largest end of the target (at least 1)."""
        if self.measure in _SHARES or self.measure.startswith(("win rate ", "ending ")):
            return 1.0
        return max([1.0] + [abs(v) for v in (self.low, self.high) if v is not None])


_SHARES = {"first player win rate", "ties", SKILL}


def parse_goal(text: str, known: list[str]) -> Goal:
    """One --goal; `known` are the measures the game reports (for a clear error)."""
    text = text.strip()
    if text == SKILL:
        return Goal(SKILL, SKILL, None, 0.0)
    match = _GOAL.match(text)
    if not match:
        raise UsageError(f"--goal {text[:80]!r}: expected MEASURE=VALUE, MEASURE=LOW..HIGH, MEASURE<=VALUE, "
                         "MEASURE>=VALUE or skill; e.g. first-player=0.5, length=30..40, ties<=0.05")
    name, op, first, second = match.groups()
    measure = SHORT_NAMES.get(name.strip(), name.strip())
    if measure not in known and not measure.startswith("ending "):
        names = list(SHORT_NAMES) + [k for k in known if k not in SHORT_NAMES.values()] + [SKILL]
        hint = did_you_mean(name.strip(), names)
        raise UsageError(f"--goal {text[:80]}: no measure '{name.strip()}'; measures: {', '.join(names)}"
                         + (f"; {hint}" if hint else ""))
    a = float(first)
    if second is not None:
        if op != "=":
            raise UsageError(f"--goal {text}: a range goes with '=', e.g. length=30..40")
        b = float(second)
        if a > b:
            raise UsageError(f"--goal {text}: the low end {first} is above the high end {second}")
        return Goal(text, measure, a, b)
    if op == "<=":
        return Goal(text, measure, None, a)
    if op == ">=":
        return Goal(text, measure, a, None)
    return Goal(text, measure, a, a)


def parse_goals(items, known: list[str]) -> list[Goal]:
    if not items:
        raise UsageError("tune needs a goal: --goal first-player=0.5, --goal length=30..40, --goal ties<=0.05, "
                         "--goal skill or --goal MEASURE=VALUE")
    goals = [parse_goal(item, known) for item in items]
    texts = [g.measure for g in goals]
    for goal in goals:
        if texts.count(goal.measure) > 1:
            raise UsageError(f"--goal names '{goal.measure}' twice: give one goal per measure")
    return goals


def known_measures(game, players: int, bots: list) -> list[str]:
    """The measures a simulation of `game` reports (see intervals.measure_rows)."""
    names = [f"win rate {game.player_name(p)}" for p in range(players)]
    if len(set(bots)) > 1:
        names += [f"win rate {b}" for b in dict.fromkeys(bots)]
    return names + ["first player win rate", "length", "ties", "lead changes"] + list(game.spec.measures)
