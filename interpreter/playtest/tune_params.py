"""`tune --param`: search a game's params for the values that meet the designer's goals.

Three stages, within a budget of games:

1. Search (about 40% of the budget): optuna proposes points, TPE for one goal, NSGA-II
   for several (a Pareto front); each new point plays `first_games` games. Every point plays
   the same seeds (common random numbers), so two points differ by their params, not by
   their luck. A point proposed again costs nothing: its known loss is told again; when the
   sampler keeps proposing known points, the space is exhausted and the search stops.
2. Racing (about 30%): successive halving over the points found (interpreter/playtest/racing.py):
   the better third get three times the games, the next seeds of the same series, and so on.
3. Confirmation (the rest): the best `confirm` points play fresh games (other seeds, the
   same for each); the confirmed best is the best by these games alone, and every point is
   reported with the 95% intervals of its measures.

The result depends on the seed only: the games of a point are the same however they are
played (serially, on workers, on a cluster), and optuna's samplers are seeded.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from pathlib import Path

from ...dsl.errors import RuleError, UsageError
from .goals import SKILL, Goal
from .intervals import measure_rows, proportion, rounded
from .param_ranges import ParamRange
from .racing import ordered, pick_confirmed, successive_halving
from .skill import DEFAULT_MARGIN, pair_specs, skill_pairs, skill_rows

CONFIRM_FIRST = 1_000_000       # confirmation games: indexes far from the search's (other seeds)
SEARCH_SHARE, RACE_SHARE = 0.4, 0.3
STALE_LIMIT = 25                # known points proposed in a row that end the search


def need_optuna():
    try:
        import optuna
    except ImportError:
        raise UsageError("tune needs optuna: pip install 'boardwright[tune]'") from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    return optuna


@dataclass
class Candidate:
    point: dict
    units: dict = field(default_factory=dict)       # "games" or a skill pair -> records of the search
    confirmed: dict | None = None                   # the same for the confirmation games
    trials: list = field(default_factory=list)      # optuna trial numbers that proposed it
    failure: str | None = None                      # the rule error one of its games hit

    def games(self) -> int:
        return sum(len(r) for r in self.units.values())


class Evaluation:
    """Plays the games of a point and measures them. `play(point, specs, rotate, first, count,
    seed)` returns the records of games first..first+count-1 of the series `seed`."""

    def __init__(self, play, players: int, seed: int, goals: list[Goal], specs: list, rotate: bool,
                 skill_bots: list | None = None, margin: float = DEFAULT_MARGIN):
        self.play, self.players, self.seed, self.goals = play, players, seed, goals
        self.specs, self.rotate, self.margin = specs, rotate, margin
        self.plain = any(g.measure != SKILL for g in goals)
        self.pairs = skill_pairs(skill_bots) if any(g.measure == SKILL for g in goals) else []
        self.scales = tuple(g.scale for g in goals)

    def per_game(self) -> int:
        """Games one step of a point's series plays (one plain game and one per skill pair)."""
        return int(self.plain) + len(self.pairs)

    def extend(self, point: dict, units: dict, steps: int, first: int) -> int:
        """Play steps first.. of the series into `units` (key -> records); return games played."""
        played = 0
        if self.plain:
            records = self.play(point, self.specs, self.rotate, first, steps, self.seed)
            units.setdefault("games", []).extend(records)
            played += len(records)
        for number, (better, worse) in enumerate(self.pairs):
            records = self.play(point, pair_specs(better, worse, self.players), True, first, steps,
                                self.seed + 7919 * (number + 1))
            units.setdefault((better, worse), []).extend(records)
            played += len(records)
        return played

    def rows(self, units: dict, player_name) -> dict:
        rows = measure_rows(units["games"], self.players, player_name) if "games" in units else {}
        if self.pairs:
            rows.update(skill_rows({pair: units[pair] for pair in self.pairs}, self.players, self.margin))
        for goal in self.goals:
            if goal.measure in rows:
                continue
            if goal.measure.startswith("ending "):        # an ending that decided none of these games
                rows[goal.measure] = proportion(0, len(units["games"]))
            else:
                raise UsageError(f"--goal {goal.text}: these games report no '{goal.measure}' "
                                 "(a first player needs a game in which someone takes a turn)")
        return rows

    def losses(self, rows: dict) -> tuple:
        return tuple(goal.loss(rows) for goal in self.goals)


class ParamTuner:
    """One tune run: `evaluation` plays and measures; `progress(done, total, note)` is told
    as games are played."""

    def __init__(self, evaluation: Evaluation, ranges: list[ParamRange], budget: int, first_games: int,
                 confirm: int, seed: int, player_name, progress=None):
        self.ev, self.ranges, self.budget = evaluation, ranges, budget
        self.first_steps = max(1, first_games // evaluation.per_game())
        self.confirm, self.seed, self.player_name = confirm, seed, player_name
        self.progress = progress
        self.candidates: dict = {}          # point (as a tuple) -> Candidate
        self.trials: list = []              # each trial of the search: number, params, losses (or failed), games
        self.spent = 0
        self.first_error: RuleError | None = None  # raised if every candidate hits a rule error

    # ------------------------------------------------------------------ playing
    def _play_to(self, c: Candidate, games: int) -> None:
        have = len(next(iter(c.units.values())))
        want = max(have, games // self.ev.per_game())
        self._play_with(c, want - have, have, c.units)

    def _play_with(self, c: Candidate, steps: int, first: int, into: dict) -> None:
        """Play more games of a candidate. One that hits a rule error is marked failed and
        plays no more: params that break the rules are no answer."""
        if steps > 0 and c.failure is None:
            try:
                self.spent += self.ev.extend(c.point, into, steps, first)
            except RuleError as err:
                d = err.diagnostics[0] if err.diagnostics else None
                where = f" ({Path(d.span.file).name}:{d.span.line})" if d is not None and d.span.line else ""
                c.failure = (d.message if d is not None else str(err)) + where
                self.first_error = self.first_error or err
        if self.progress is not None:
            self.progress(min(self.spent, self.budget), self.budget, self._note())

    def loss(self, c: Candidate, confirmed: bool = False) -> tuple:
        if c.failure is not None:
            return (float("inf"),) * len(self.ev.goals)
        return self.ev.losses(self.ev.rows(c.confirmed if confirmed else c.units, self.player_name))

    def _note(self) -> str:
        scored = [c for c in self.candidates.values()
                  if c.failure is None and c.units and len(next(iter(c.units.values())))]
        if not scored:
            return ""
        best = scored[ordered([self.loss(c) for c in scored], self.ev.scales)[0]]
        return "best so far " + ",".join(f"{k}={v}" for k, v in best.point.items())

    # ------------------------------------------------------------------ the stages
    def run(self) -> dict:
        self.search()
        pool = [c for c in self.candidates.values() if c.failure is None]
        if not pool:
            raise self.first_error
        pool = [pool[i] for i in ordered([self.loss(c) for c in pool], self.ev.scales)]
        confirm_budget = self.budget - int(self.budget * (SEARCH_SHARE + RACE_SHARE))
        race_budget = max(0, self.budget - confirm_budget - self.spent)
        pool = successive_halving(pool, lambda c: c.games(), self._play_to, self.loss, self.ev.scales,
                                  keep=self.confirm, factor=3, budget=race_budget)
        finalists = [c for c in pool if c.failure is None][:self.confirm]
        if not finalists:
            raise self.first_error
        steps = max(1, (self.budget - self.spent) // (len(finalists) * self.ev.per_game()))
        for c in finalists:
            c.confirmed = {}
            self._play_with(c, steps, CONFIRM_FIRST, c.confirmed)
        finalists = [c for c in finalists if c.failure is None]
        if not finalists:
            raise self.first_error
        return self.result(finalists, pool)

    def search(self) -> None:
        optuna = need_optuna()
        goals = self.ev.goals
        if len(goals) == 1:
            sampler = optuna.samplers.TPESampler(seed=self.seed)
            study = optuna.create_study(direction="minimize", sampler=sampler)
        else:
            sampler = optuna.samplers.NSGAIISampler(seed=self.seed, population_size=12)
            study = optuna.create_study(directions=["minimize"] * len(goals), sampler=sampler)
        search_budget = int(self.budget * SEARCH_SHARE)
        first_cost = self.first_steps * self.ev.per_game()
        stale = 0
        while self.spent + first_cost <= max(search_budget, first_cost) and stale < STALE_LIMIT:
            trial = study.ask()
            point = {r.name: self._suggest(trial, r) for r in self.ranges}
            key = tuple(point.items())
            c = self.candidates.get(key)
            if c is None:
                c = self.candidates[key] = Candidate(point)
                self._play_with(c, self.first_steps, 0, c.units)
                stale = 0
            else:
                stale += 1
            c.trials.append(trial.number)
            if c.failure is not None:
                study.tell(trial, state=optuna.trial.TrialState.FAIL)
                self.trials.append({"trial": trial.number, "params": point, "failed": c.failure})
                continue
            losses = self.loss(c)
            study.tell(trial, losses[0] if len(goals) == 1 else list(losses))
            self.trials.append({"trial": trial.number, "params": point, "losses": list(losses),
                                "games": c.games()})

    @staticmethod
    def _suggest(trial, r: ParamRange):
        if r.kind == "int":
            return trial.suggest_int(r.name, int(r.low), int(r.high), step=int(r.step))
        if r.kind == "real":
            return trial.suggest_float(r.name, r.low, r.high, step=r.step)
        return trial.suggest_categorical(r.name, list(r.choices))

    # ------------------------------------------------------------------ the result
    def _entry(self, c: Candidate, confirmed: bool) -> dict:
        units = c.confirmed if confirmed else c.units
        rows = self.ev.rows(units, self.player_name)
        goals = [{"goal": g.text, "measure": g.measure, "value": round(rows[g.measure][0], 4),
                  "ci95": [round(rows[g.measure][1], 4), round(rows[g.measure][2], 4)],
                  "loss": round(g.loss(rows), 4),
                  "loss_ci95": [round(x, 4) for x in g.loss_interval(rows)]} for g in self.ev.goals]
        return {"params": c.point, "games": sum(len(r) for r in units.values()), "goals": goals,
                "measures": {k: rounded(v) for k, v in rows.items()}}

    def result(self, finalists: list, pool: list) -> dict:
        confirmed = [self.loss(c, confirmed=True) for c in finalists]
        best = pick_confirmed(confirmed, self.ev.scales)
        order = [best] + [i for i in ordered(confirmed, self.ev.scales) if i != best]
        entries = [{**self._entry(finalists[i], True), "search": self._entry(finalists[i], False)} for i in order]
        chosen = entries[0]
        runner = entries[1] if len(entries) > 1 else None
        # Told apart: the best's loss interval ends below the runner-up's (one goal).
        apart = None
        if runner is not None and len(self.ev.goals) == 1:
            apart = chosen["goals"][0]["loss_ci95"][1] < runner["goals"][0]["loss_ci95"][0]
        others = [self._entry(c, False) for c in self.candidates.values()
                  if c not in finalists and c.failure is None]
        others.sort(key=lambda e: [g["loss"] for g in e["goals"]])
        failed = [{"params": c.point, "rule_error": c.failure} for c in self.candidates.values()
                  if c.failure is not None]
        return {"goals": [g.text for g in self.ev.goals], "budget": self.budget, "games_played": self.spent,
                "best": chosen, "confirmed": entries[1:], "told_apart": apart,
                "candidates": others, "failed": failed, "trials": self.trials}
