"""`check`: Hypothesis plays whole games and asserts, after every step, the rule file's
invariants and the properties every game must have. A failure is shrunk to a minimal game
and can be written as a scenario that `boardwright test` replays to the same failure.

Every random choice is drawn through Hypothesis (the setup seed, the player count, each
option), so Hypothesis can shrink a failing game to the shortest sequence of choices.
"""
from __future__ import annotations

import json
import os
import random
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

import yaml
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as strategies
from hypothesis.configuration import set_hypothesis_home_dir
from hypothesis.errors import Flaky

from ...dsl.errors import BoardwrightError, InvariantError, counted
from ..run.state import State

MAX_DRAW = 2**31 - 1
# Choices of one game drawn through Hypothesis (which can shrink them); later ones come from a
# generator seeded by one drawn number. Hypothesis keeps at most 8,192 draws of a test case: a
# game of more decisions was thrown away and played again, over and over (6,000 decisions: no
# end in 10 minutes).
HYPOTHESIS_CHOICES = 2_000


class PropertyFailed(AssertionError):
    """One property failed at one step; carries what the report needs."""

    def __init__(self, prop: str, detail: str, where: str = ""):
        super().__init__(f"{prop}: {detail}")
        self.prop, self.detail, self.where = prop, detail, where


@dataclass
class Failure:
    prop: str               # the invariant's title or the universal property's name
    detail: str
    where: str              # file:line of the invariant, or of the failing rule
    players: int
    seed: int
    choices: list           # option ids, in order
    state: dict             # the state (JSON) at the failing step


@dataclass
class CheckReport:
    title: str
    examples: int
    games: int = 0
    steps: int = 0
    failure: Failure | None = None
    properties: list = field(default_factory=list)


UNIVERSAL = ["every offered option applies without error",
             "the state round-trips through JSON and a copy equals its original",
             "an observation never reveals a hidden zone's contents",
             "an observation never reveals another player's sealed choice",
             "the game ends within the step limit",
             "final scores are numbers for every player",
             "replaying the recorded choices from the seed reproduces the same game"]


ROUND_TRIPS = 100      # steps with a JSON round trip: all of the first 100, then about 100 per e-fold


def round_trip_due(step: int, st: State) -> bool:
    """Whether the state after decision `step` goes through JSON and back: every step of the
    first ROUND_TRIPS, then every (step // ROUND_TRIPS)-th step, and the last one. A state holds
    the game's history and log, so a round trip at every step of a game of thousands of
    decisions made `check` quadratic (4,000 decisions: 40 s); this way it does about
    ROUND_TRIPS * (1 + ln(steps / ROUND_TRIPS)) of them."""
    return step < ROUND_TRIPS or st.finished or step % (step // ROUND_TRIPS) == 0


def state_properties(game, st: State, round_trip: bool = True) -> None:
    """The per-step universal properties (raises PropertyFailed)."""
    if round_trip:
        text = json.dumps(st.to_json(), sort_keys=True)
        back = State.from_json(json.loads(text))
        if back != st or json.dumps(back.to_json(), sort_keys=True) != text or st.copy() != st:
            raise PropertyFailed(UNIVERSAL[1], "the state read back from JSON, or its copy, differs")
    for player in range(st.players):
        seen = game.observe(st, player)
        for key, content in seen["zones"].items():
            if not game.visible_to(key, player) and not (isinstance(content, dict) and set(content) <= {"size", "top"}):
                raise PropertyFailed(UNIVERSAL[2], f"player {player} sees the contents of '{key}'")
        decision = seen.get("decision")
        if decision and decision["player"] != player and decision["options"] is not None:
            raise PropertyFailed(UNIVERSAL[2], f"player {player} sees another player's options")
        if st.sealed is not None and seen != game.observe(_others_changed(st, player), player):
            raise PropertyFailed(UNIVERSAL[3], f"player {player}'s view changes with another player's sealed choice")


def _others_changed(st: State, player: int) -> State:
    """The state with every other player's sealed choice replaced by another of their options."""
    sealed = st.sealed
    chosen = []
    for seat, value in sealed.chosen:
        if seat != player:
            others = [v for v in sealed.options[sealed.players.index(seat)] if v != value]
            value = others[0] if others else value
        chosen.append((seat, value))
    other = st.copy()
    other.sealed = replace(sealed, chosen=tuple(chosen))
    return other


def invariant_properties(game, st: State) -> None:
    try:
        failed = game.failing_invariants(st)
    except InvariantError as err:
        span = game.spec.invariants[err.title].span
        raise PropertyFailed(f"invariant \"{err.title}\"", "raised an error instead of holding: " + err.format(),
                             f"{span.file}:{span.line}") from None
    if failed:
        title, span = failed[0]
        raise PropertyFailed(f"invariant \"{title}\"", "does not hold", f"{span.file}:{span.line}")


def keep_hypothesis_files_out_of_the_working_folder() -> Path:
    """Hypothesis keeps files under `.hypothesis/` of the current folder; `check` keeps them in
    $BOARDWRIGHT_HYPOTHESIS_DIR, or else in the system's temporary folder (unless Hypothesis'
    own HYPOTHESIS_STORAGE_DIRECTORY says where)."""
    where = os.getenv("HYPOTHESIS_STORAGE_DIRECTORY") or os.getenv("BOARDWRIGHT_HYPOTHESIS_DIR") \
        or str(Path(tempfile.gettempdir()) / "boardwright-hypothesis")
    set_hypothesis_home_dir(where)
    return Path(where)


def run_checks(game, players_counts, examples: int, seed_value: int, check_options: int = 2,
               max_steps: int | None = None) -> CheckReport:
    """Let Hypothesis play `examples` games; shrink and report the first failure."""
    keep_hypothesis_files_out_of_the_working_folder()
    report = CheckReport(game.display_title, examples)
    report.properties = [f"invariant \"{t}\"" for t in game.spec.invariants] + UNIVERSAL

    endless: list = _endless_playout(game, players_counts, seed_value)
    found_endless = bool(endless)   # fixed before the fuzzing: a game must play alike when Hypothesis replays it

    def one_game(data):
        if found_endless:
            return
        players = data.draw(strategies.sampled_from(list(players_counts)), label="players")
        game_seed = data.draw(strategies.integers(0, MAX_DRAW), label="seed")
        choices: list = []
        st = None
        later = None            # the generator of the choices after HYPOTHESIS_CHOICES
        try:
            st = game.new_state(players, game_seed)
            invariant_properties(game, st)
            state_properties(game, st)
            while not st.finished:
                if max_steps is not None and len(choices) >= max_steps:
                    return
                n = len(st.pending.values)
                for other in sorted({0, n - 1})[:check_options]:
                    trial = st.copy()
                    try:
                        game.apply_index(trial, other)
                    except BoardwrightError as err:
                        if _endless(err):
                            break       # the move played next reaches the decision limit too: step limit
                        choices.append(game.option_ids(st)[other])
                        raise PropertyFailed(UNIVERSAL[0], err.format(), _where(err))
                if len(choices) < HYPOTHESIS_CHOICES:
                    index = data.draw(strategies.integers(0, n - 1), label="choice")
                else:       # past Hypothesis' buffer a game would be thrown away and tried again
                    if later is None:
                        later = random.Random(data.draw(strategies.integers(0, MAX_DRAW), label="later choices"))
                    index = later.randrange(n)
                choices.append(game.option_ids(st)[index])
                game.apply_index(st, index)
                report.steps += 1
                invariant_properties(game, st)
                state_properties(game, st, round_trip_due(len(choices), st))
            result = game.result(st)
            if len(result.scores) != players or not all(isinstance(v, int) for v in result.scores):
                raise PropertyFailed(UNIVERSAL[5], f"scores {result.scores}")
            replay = game.new_state(players, game_seed)
            for choice in choices:
                game.apply(replay, choice)
            if replay != st:
                raise PropertyFailed(UNIVERSAL[6], "the replayed game ended in another state")
            report.games += 1
        except BoardwrightError as err:
            failed = PropertyFailed(UNIVERSAL[4] if _endless(err) else UNIVERSAL[0],
                                    err.format(), _where(err))
            failed.game = (players, game_seed, list(choices), st.to_json() if st is not None else {})
            if failed.prop == UNIVERSAL[4]:
                endless.append(failed)
                return
            raise failed from None
        except PropertyFailed as failed:
            failed.game = (players, game_seed, list(choices), st.to_json() if st is not None else {})
            raise

    test = settings(max_examples=examples, deadline=None, database=None, report_multiple_bugs=True,
                    suppress_health_check=list(HealthCheck),
                    phases=[Phase.generate, Phase.shrink])(given(strategies.data())(one_game))
    test = seed(seed_value)(test)
    try:
        test()
    except PropertyFailed as failed:
        report.failure = _failure(failed)
    except BaseExceptionGroup as group:     # several distinct failures: report the shortest game
        found = [e for e in _leaves(group) if isinstance(e, PropertyFailed)]
        if not found:
            raise
        report.failure = _failure(min(found, key=lambda e: len(e.game[2])))
    except Flaky as flaky:
        report.failure = Failure("deterministic replay", str(flaky), "", 0, 0, [], {})
    if report.failure is None and endless:
        report.failure = _failure(endless[0])
    return report


def _leaves(group: BaseExceptionGroup):
    for e in group.exceptions:
        if isinstance(e, BaseExceptionGroup):
            yield from _leaves(e)
        else:
            yield e


def _endless_playout(game, players_counts, seed_value: int) -> list:
    """A plain random game per player count, before the fuzzing: a game that never ends is
    found as fast as `simulate` finds it (the fuzzing checks every property at every step,
    far too slow over the decision limit), reported unshrunk. [PropertyFailed] or []."""
    rng = random.Random(seed_value)
    for players in players_counts:
        choices: list = []
        st = None
        try:
            st = game.new_state(players, seed_value)
            while not st.finished:
                index = rng.randrange(len(st.pending.values))
                choices.append(game.option_ids(st)[index])
                game.apply_index(st, index)
        except BoardwrightError as err:
            if not _endless(err):
                continue            # the fuzzing finds it and shrinks it
            failed = PropertyFailed(UNIVERSAL[4], err.format(), _where(err))
            failed.game = (players, seed_value, choices, st.to_json() if st is not None else {})
            return [failed]
    return []


def _endless(err: BoardwrightError) -> bool:
    """Whether a rule error is the engine's decision limit: the game did not end."""
    return "did not end" in str(err)


def _failure(failed: PropertyFailed) -> Failure:
    players, game_seed, choices, state = failed.game
    return Failure(failed.prop, failed.detail, failed.where, players, game_seed, choices, state)


def _where(err: BoardwrightError) -> str:
    d = err.diagnostics[0] if err.diagnostics else None
    return f"{d.span.file}:{d.span.line}" if d is not None and d.span.line else ""


def failure_scenario(report: CheckReport, game_ref: str, variant: str | None) -> str:
    """The shrunk game as a scenario file that fails the same way under `boardwright test`."""
    f = report.failure
    return reproduction_scenario(f"found by check: {f.prop} ({counted(len(f.choices), 'choice')})",
                                 f"{f.prop}: {f.detail}", game_ref, variant, f.players, f.seed, f.choices)


def reproduction_scenario(name: str, description: str, game_ref: str, variant: str | None, players: int,
                          seed: int, choices: list) -> str:
    """A scenario file that replays a failing game's choices and expects the game to hold its
    invariants and properties, so `boardwright test` fails on it the same way the game did
    (used by `check --out` and `simulate --out`)."""
    data = {"name": name, "description": description.strip()[:2000], "game": game_ref}
    if variant:
        data["variant"] = variant
    data.update({"players": players, "seed": seed, "moves": list(choices),
                 "expect": {"invariants": True, "properties": True}})
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


def format_failure(report: CheckReport, game) -> str:
    f = report.failure
    lines = [f"FAILED: {f.prop}" + (f" ({f.where})" if f.where else ""),
             f"  {f.detail}".replace("\n", "\n  "),
             f"  minimal game: {counted(f.players, 'player')}, seed {f.seed}, {counted(len(f.choices), 'choice')}:",
             f"    {json.dumps(f.choices) if f.choices else '(none: it fails right after setup)'}"]
    if f.state:
        st = State.from_json(f.state)
        seen = game.observe(st, None)
        lines.append("  state at the failing step:")
        for key, content in seen["zones"].items():
            if content:
                lines.append(f"    {key}: {json.dumps(content)}")
        for name, value in seen["vars"].items():
            if name not in game.hidden_vars:
                lines.append(f"    {name} = {json.dumps(value)}")
    return "\n".join(lines)
