"""Bot puzzles: a scenario's `bot_chooses` (docs/scenarios.md), where each named bot, with each
of a few seeds, must choose one of the options given in the position reached; the scenario
files whose puzzle names a bot (`tune --bot` plays them for every candidate); and `Failure`,
a scenario failure that carries where it stands and, for a puzzle, what was chosen.
"""
from __future__ import annotations

from pathlib import Path

from ...dsl.errors import BoardwrightError
from .scenario_file import read_with_positions


class Failure(str):
    """A scenario's failure as `test` prints it, with where it stands (`place`: FILE:LINE:COL)
    and, for a bot puzzle, what went wrong with it (`choice`: "seed 0 chose 3 (3); expected one
    of ['1']"), so that `tune --bot` names both without reading the text back."""

    def __new__(cls, text: str, place: str = "", choice: str = ""):
        failure = super().__new__(cls, text)
        failure.place, failure.choice = place, choice
        return failure


def bot_puzzle_failures(game, st, puzzle: dict) -> list[str]:
    """A bot puzzle: each named bot, with each of `seeds` seeds, must choose one of `one_of`
    (option ids or labels) in the position reached. The bots see only their seat's view."""
    from ..bots.registry import make_bot
    decision = game.decision(st)
    ids = [o.id for o in decision.options]
    labels = [o.label.lower() for o in decision.options]
    wanted = set()
    failures = []
    for item in puzzle["one_of"]:
        text = str(item).strip()
        if text in ids:
            wanted.add(ids.index(text))
        elif text.lower() in labels:
            wanted.add(labels.index(text.lower()))
        else:
            failures.append(puzzle_failure(f"{item!r} is not an option ({', '.join(ids)})"))
    specs = puzzle_bots(puzzle)
    for spec in specs:
        for seed in range(puzzle.get("seeds", 1)):
            try:
                bot = make_bot(spec, f"puzzle:{seed}", game)
            except BoardwrightError as err:
                return failures + [puzzle_failure(str(err))]
            index = bot.choose(game, st.copy())
            if index not in wanted:
                said = (f"chose {ids[index]} ({decision.options[index].label}); "
                        f"expected one of {[str(i) for i in puzzle['one_of']]}")
                failures.append(Failure(f"bot_chooses: {spec} (seed {seed}) {said}", choice=f"seed {seed} {said}"))
    return failures


def puzzle_failure(said: str) -> Failure:
    """A bot puzzle's failure that names no bot: what went wrong is its whole text."""
    return Failure(f"bot_chooses: {said}", choice=said.split("\n")[0].rstrip())


def puzzle_bots(puzzle: dict) -> list:
    """The bot specs a `bot_chooses` puzzle names (one, or a list), none if it names none."""
    bots = puzzle.get("bots")
    return [bots] if isinstance(bots, str) else list(bots or [])


def _variant(name: str | None) -> str | None:
    return None if name in (None, "base") else name


def bot_puzzle_files(folder: Path, bot: str, variant: str | None) -> list[Path]:
    """The scenario files under `folder` whose bot puzzle names `bot` as it is declared (the
    bare name, no settings) and that play `variant` (None and "base" alike). A file that
    cannot be read is left out: `boardwright test` reports it."""
    found = []
    for path in sorted(folder.rglob("*.scenario.yaml")):
        try:
            data = read_with_positions(path)[0]
        except BoardwrightError:
            continue
        puzzle = data.get("expect", {}).get("bot_chooses") or {}
        if bot in puzzle_bots(puzzle) and _variant(data.get("variant")) == _variant(variant):
            found.append(path)
    return found
