"""Scenarios: YAML files that pin down what a rule must do (see docs/scenarios.md).

A scenario names a game (and variant, players, seed), may lay out a starting state after
setup, plays moves by option id or label, and states expectations: the options offered,
zone contents, variables, scores, winners, whether the game is over, or an expected error.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ...dsl.errors import BoardwrightError, Diagnostic, did_you_mean
from ...dsl.schema_words import shown
from ..compile.load import load_game
from ..run.limits import Problem
from .bot_puzzles import Failure, bot_puzzle_failures, puzzle_bots, puzzle_failure
from .scenario_file import ScenarioError, pieces_as_cells, node_span, read_with_positions
from .scenario_values import _a, _same_var, _shown_var, _typed, _var_type
from .scenario_options import listed_labels, never_offered


@dataclass
class Outcome:
    path: str
    name: str
    failures: list = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


def _game_target(path: Path, name: str) -> str:
    local = path.parent / name
    try:
        return str(local) if local.exists() else name
    except (OSError, ValueError):       # a name the system refuses (too long): the loader says so
        return name


def run_scenario(path: str | Path, bots: dict | None = None) -> Outcome:
    """Run one scenario. Whatever happens in it (a bad file, a rule error, a misspelt name, a
    bug) ends as failures with positions, never as an exception. `bots` maps a bot spec its
    puzzle names to the spec to play in its place (`tune --bot` puts a candidate's settings
    in place of the declared `mcts`)."""
    path = Path(path)
    outcome = Outcome(str(path), path.name)
    try:
        data, root = read_with_positions(path)
    except BoardwrightError as err:
        first = err.diagnostics[0]
        outcome.failures.append(Failure(err.format(), str(first.span) if first.span.line else f"error: {first.message}"))
        return outcome
    puzzle = data.get("expect", {}).get("bot_chooses")
    if bots and puzzle:
        puzzle["bots"] = [bots.get(spec, spec) for spec in puzzle_bots(puzzle)]
    outcome.name = data.get("name", path.name)
    try:
        _run(path, data, root, outcome)
    except ScenarioError as err:
        outcome.failures.append(_at(path, root, err.where, err.message, err.hint))
    except BoardwrightError as err:
        outcome.failures.append(_at(path, root, ("expect",), "a rule error while checking the expectations",
                                    rest="\n" + err.format()))
    except Exception as exc:        # a bug of Boardwright's: the run goes on, and says so
        outcome.failures.append(_at(path, root, (), f"internal error: {type(exc).__name__}: {exc} "
                                                    "(a bug in Boardwright, not in this scenario; please report it)"))
    return outcome


def scenario_position(game, data: dict):
    """The state a scenario reaches: setup, its starting state laid out, play started and
    its moves applied."""
    st = game.setup_state(data.get("players", game.min_players), data.get("seed", 0))
    if "state" in data:
        apply_starting_state(game, st, data["state"])
    game.start(st)
    for move in data.get("moves", []):
        game.apply(st, move)
    return st


def _at(path: Path, root, where, message: str, hint: str = "", key: bool = True, rest: str = "",
        choice: str = "") -> Failure:
    """The failure `message` at the YAML node `where` (its key with `key`), `rest` under it."""
    diagnostic = Diagnostic(node_span(path, root, list(where), key=key), message, hint)
    return Failure(diagnostic.format() + rest, str(diagnostic.span), choice)


def _run(path: Path, data: dict, root, outcome: Outcome) -> None:
    expect = data.get("expect", {})
    wanted = expect.get("error")
    stage, where = "setting up the game", ("game",)
    try:
        game = load_game(_game_target(path, data["game"]), data.get("variant"))
        stage, where = "setting up the game", ("players",) if "players" in data else ("game",)
        st = game.setup_state(data.get("players", game.min_players), data.get("seed", 0))
        if "state" in data:
            stage, where = "laying out the starting state", ("state",)
            apply_starting_state(game, st, data["state"])
        game.start(st)
        for number, move in enumerate(data.get("moves", [])):
            stage, where = f"playing move {number + 1} ({move!r})", ("moves", number)
            game.apply(st, move)
    except ScenarioError:
        raise
    except BoardwrightError as err:
        if wanted is None:
            outcome.failures.append(_at(path, root, where, f"unexpected error while {stage}", key=False,
                                        rest="\n" + err.format()))
        elif wanted.lower() not in err.format().lower():
            outcome.failures.append(_at(path, root, ("expect", "error"), f"expected an error containing "
                                        f"{wanted!r}, got one while {stage}", rest="\n" + err.format()))
        return
    if wanted is not None:
        outcome.failures.append(_at(path, root, ("expect", "error"),
                                    f"expected an error containing {wanted!r}, but none was raised"))
    for text in check_expectations(game, st, expect):
        head, newline, rest = text.partition("\n")
        outcome.failures.append(_at(path, root, ("expect", _expectation_key(text, expect)), head, rest=newline + rest,
                                    choice=getattr(text, "choice", "")))


_FAILURE_KEYS = (("options_exclude", ("options_exclude",)), ("options", ("options", "options_include", "options_exclude")), ("player", ("player",)),
                 ("prompt", ("prompt",)), ("finished", ("finished",)), ("zones", ("zones",)), ("top", ("top",)),
                 ("vars", ("vars",)),
                 ("turns", ("turns",)), ("endings", ("endings",)), ("log", ("log_includes",)), ("scores", ("scores",)),
                 ("score line", ("lines",)), ("winners", ("winners",)), ("opponent", ("opponents",)),
                 ("invariant", ("invariants",)), ("propert", ("properties",)),
                 ("bot_chooses", ("bot_chooses",)))


def _expectation_key(failure: str, expect: dict) -> str:
    """The `expect` key a failure message is about (for its position)."""
    for prefix, keys in _FAILURE_KEYS:
        if failure.startswith(prefix):
            return next((k for k in keys if k in expect), keys[0])
    return ""


def _resolve(game, st, labels, prefer: list, taken: set, where: tuple = ()) -> list:
    """Component ids for labels, never one twice: preferably one already in place, else one
    from a zone nobody sees (so that laying out a scenario disturbs little that is visible)."""
    out = []
    for number, label in enumerate(labels):
        wanted = str(label).strip().lower()
        candidates = [c for c in prefer if game.labels[c].lower() == wanted and c not in taken]
        if not candidates:
            candidates = [c for c, text in enumerate(game.labels) if text.lower() == wanted and c not in taken]
            candidates.sort(key=lambda c: 0 if _hidden(game, st.loc[c][0]) else 1)
        if not candidates:
            known = {text for text in game.labels}
            hint = did_you_mean(str(label), known) if str(label).lower() not in {k.lower() for k in known} else \
                "every component with this label is already placed elsewhere in the scenario"
            raise ScenarioError(f"scenario: no free component labelled {label!r}", where + (number,), hint)
        taken.add(candidates[0])
        out.append(candidates[0])
    return out


def _hidden(game, key: str) -> bool:
    return game.zone_meta[key.split("/")[0]][1] == "hidden"


def apply_starting_state(game, st, state: dict) -> None:
    """Lay out zones (exact contents, bottom to top), put cards on top of stacks, set variables.
    Components displaced from a zone go to `supply`. Anything the game cannot hold (a zone,
    a var or a label it does not have, a cell outside a grid, a value of the wrong type) is a
    ScenarioError at its place in the file."""
    taken: set = set()
    for key, wanted in (state.get("zones") or {}).items():
        where = ("state", "zones", key)
        zone = _zone(st, key, where)
        _zone_shape(key, zone, wanted, where)
        if isinstance(zone, list):
            ids = _resolve(game, st, wanted, list(zone), taken, where)
            for c in [c for c in zone if c not in ids]:
                game.move(st, c, "supply", None, False)
            for number, c in enumerate(ids):
                try:
                    game.move(st, c, key, None, False)
                except Problem as problem:
                    raise ScenarioError(f"scenario: {problem}", where + (number,)) from None
        else:
            cells = {_cell(k, where): (k, v) for k, v in wanted.items()}
            current = list(dict.fromkeys(c for stack in zone.values() for c in stack))
            for c in current:
                game.move(st, c, "supply", None, False)
            for cell, (written, labels) in cells.items():
                place = where + (written,)
                turn = None
                if isinstance(labels, dict):        # a piece with a shape: {piece: LABEL, turned: N}
                    labels, turn = labels["piece"], labels.get("turned", 0)
                for c in _resolve(game, st, labels if isinstance(labels, list) else [labels], current, taken, place):
                    try:
                        game.move(st, c, key, cell, False, turn)
                    except Problem as problem:      # outside the grid, or a second component in one cell
                        raise ScenarioError(f"scenario: {problem}", place) from None
    for key, wanted in (state.get("top") or {}).items():
        if key not in st.zones or not isinstance(st.zones[key], list):
            raise ScenarioError(f"scenario: 'top' needs a stack zone, not {key!r}", ("state", "top", key),
                                did_you_mean(str(key), [k for k, z in st.zones.items() if isinstance(z, list)]))
        for c in reversed(_resolve(game, st, wanted, list(st.zones[key]), taken, ("state", "top", key))):
            game.move(st, c, key, None, False)
    for name, value in (state.get("vars") or {}).items():
        where = ("state", "vars", name)
        if name not in st.vars:
            raise ScenarioError(f"scenario: no variable {name!r}; variables: {', '.join(st.vars)}",
                                where, did_you_mean(str(name), st.vars))
        if isinstance(value, dict) and "cell" not in value and _per_component(game, name):
            # A `per KIND` var given as {component label: value}: only those entries change.
            values = list(st.vars[name])
            for label, entry in value.items():
                typed = var_value(game, st, name, entry, where + (label,), element=True)
                for c in _labelled(game, name, label, where):
                    values[c] = typed
            st.vars[name] = values
        else:
            st.vars[name] = var_value(game, st, name, value, where)


def _zone_hint(key, zones) -> str | None:
    """What to write for a zone name that is not one: a per-player zone's name without its seat
    ('garden' for garden/0, garden/1) is named by seat; else the nearest name."""
    seats = [z for z in zones if z.split("/")[0] == str(key) and "/" in z]
    if seats:
        return f"'{key}' is one zone per seat: write {seats[0]} for seat 0 ({', '.join(seats)})"
    return did_you_mean(str(key), zones)


def _zone(st, key, where: tuple):
    if key not in st.zones:
        raise ScenarioError(f"scenario: no zone {key!r}; zones: {', '.join(st.zones)}", where,
                            _zone_hint(key, st.zones))
    return st.zones[key]


def _zone_shape(key, zone, wanted, where: tuple) -> None:
    """A stack or pile is written as a list, a grid as a mapping of cells."""
    if isinstance(zone, list) and not isinstance(wanted, list):
        raise ScenarioError(f"scenario: '{key}' is a stack or pile: write its labels as a list, bottom to top, "
                            f"not {shown(wanted)}", where)
    if not isinstance(zone, list) and not isinstance(wanted, dict):
        raise ScenarioError(f"scenario: '{key}' is a grid: write it as a mapping from cells \"x,y\" to labels, "
                            f"not {shown(wanted)}", where, 'e.g. {"0,0": [red 5]}; {} is an empty grid')


def _cell(text, where: tuple) -> tuple:
    parts = str(text).split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        return tuple(int(n) for n in parts)
    except ValueError:
        raise ScenarioError(f"scenario: {text!r} is not a cell; write it as \"x,y\", e.g. \"0,0\"",
                            where + (text,)) from None


def _per_component(game, name: str) -> bool:
    decl = game.spec.vars.get(name)
    return decl is not None and decl.per not in (None, "player")


def _labelled(game, name: str, label, where: tuple = ()) -> list:
    """The components of a `per KIND` var's kind that carry a label."""
    kind = game.spec.vars[name].per
    wanted = str(label).strip().lower()
    found = [c for c in game.kind_ids.get(kind, []) if game.labels[c].lower() == wanted]
    if not found:
        raise ScenarioError(f"scenario: no {kind} labelled {label!r} for the variable {name!r}", where + (label,),
                            did_you_mean(str(label), {game.labels[c] for c in game.kind_ids.get(kind, [])}))
    return found


def var_value(game, st, name: str, value, where: tuple, element: bool = False):
    """A scenario's value for the var or param `name`, checked against its declared type and
    made into what the engine holds (cells as tuples). `per player` vars are lists, one value
    per seat; with `element`, one entry of a `per KIND` var. `none` (or YAML null) is none."""
    decl = game.spec.vars.get(name)
    per = decl.per if decl is not None else None
    kind = _var_type(game, name)
    if per == "player" and not element:
        if not isinstance(value, list) or len(value) != len(st.turns):
            raise ScenarioError(f"scenario: '{name}' is {_a(kind)} per player: write a list of "
                                f"{len(st.turns)} values, one per seat, not {shown(value)}", where)
        return [_typed(game, st, kind, v, where + (i,), name) for i, v in enumerate(value)]
    if per not in (None, "player") and not element:
        raise ScenarioError(f"scenario: '{name}' is {_a(kind)} per {per}: write a mapping from {per} labels to "
                            f"values, not {shown(value)}", where, f"e.g. {{LABEL: VALUE}}")
    return _typed(game, st, kind, value, where, name)


def _zone_labels(game, st, key):
    zone = st.zones[key]
    if isinstance(zone, list):
        return [game.labels[c] for c in zone]
    return {f"{x},{y}": [game.labels[c] for c in stack] for (x, y), stack in zone.items()}


def _cell_key(text) -> str:
    """'0, 1' and '0,1' name the same cell."""
    return ",".join(part.strip() for part in str(text).split(","))


def _top_failures(game, st, top: dict) -> list[str]:
    """`expect: top`: the top components of each stack or pile, top first, in this order (the
    zone's order matters where `zones` compares the labels in any order)."""
    failures = []
    for key, want in top.items():
        got = _zone_labels(game, st, key) if key in st.zones else None
        if not isinstance(got, list):
            hint = _zone_hint(key, st.zones) if got is None else None
            failures.append(f"top: {key!r} is not a stack or pile; zones: {', '.join(st.zones)}"
                            + (f" ({hint})" if hint else ""))
            continue
        on_top = got[::-1][:len(want)]
        if [g.lower() for g in on_top] != [str(w).lower() for w in want]:
            failures.append(f"top: {key} expected {[str(w) for w in want]} on top (top first), has {on_top}")
    return failures


def check_expectations(game, st, expect: dict) -> list[str]:
    failures = []
    decision = game.decision(st)
    ids = [o.id for o in decision.options] if decision else []
    labels = [o.label for o in decision.options] if decision else []

    def offered(item) -> bool:
        return str(item) in ids or str(item).lower() in (l.lower() for l in labels)

    shown_options = listed_labels(labels)
    if "options" in expect:
        want = [str(o) for o in expect["options"]]
        if sorted(want) != sorted(ids) and sorted(w.lower() for w in want) != sorted(l.lower() for l in labels):
            failures.append(f"options: expected {want}, offered {shown_options}")
    for item in expect.get("options_include", []):
        if not offered(item):
            failures.append(f"options: expected {item!r} among the options: {shown_options}")
    for item in expect.get("options_exclude", []):
        if offered(item):
            failures.append(f"options: {item!r} should not be offered (options: {shown_options})")
        elif decision is not None:
            failures.extend(never_offered(game, st, str(item), ids, labels))
    if "player" in expect and (decision is None or decision.player != expect["player"]):
        failures.append(f"player: expected seat {expect['player']} to choose, "
                        f"got {decision.player if decision else 'no decision'}")
    if "prompt" in expect and (decision is None or expect["prompt"] not in decision.prompt):
        failures.append(f"prompt: expected {expect['prompt']!r}, got {decision.prompt if decision else None!r}")
    if "finished" in expect and st.finished != expect["finished"]:
        failures.append(f"finished: expected {expect['finished']}, got {st.finished}")
    for key, want in (expect.get("zones") or {}).items():
        if key not in st.zones:
            hint = _zone_hint(key, st.zones)
            failures.append(f"zones: no zone {key!r}; zones: {', '.join(st.zones)}" + (f" ({hint})" if hint else ""))
            continue
        _zone_shape(key, st.zones[key], want, ("expect", "zones", key))
        got = _zone_labels(game, st, key)
        if isinstance(want, dict):
            want = pieces_as_cells(game, want)
        if isinstance(got, list):
            if Counter(map(str.lower, got)) != Counter(str(w).lower() for w in want):
                failures.append(f"zones: {key} expected {want}, holds {got}")
        elif {_cell_key(k): [str(v).lower() for v in (vs if isinstance(vs, list) else [vs])]
              for k, vs in want.items()} != {k: [v.lower() for v in vs] for k, vs in got.items()}:
            failures.append(f"zones: {key} expected {want}, holds {got}")
    failures.extend(_top_failures(game, st, expect.get("top") or {}))
    for name, want in (expect.get("vars") or {}).items():
        where = ("expect", "vars", name)
        if name not in st.vars:
            failures.append(f"vars: no variable {name!r}; variables: {', '.join(st.vars)}")
            continue
        if isinstance(want, dict) and "cell" not in want and _per_component(game, name):
            for label, entry in want.items():
                typed = var_value(game, st, name, entry, where + (label,), element=True)
                try:
                    got = [st.vars[name][c] for c in _labelled(game, name, label, where)]
                except BoardwrightError as err:
                    failures.append(f"vars: {err}")
                    continue
                if any(g != typed for g in got):
                    failures.append(f"vars: {name} of {label} expected {entry!r}, is {got[0]!r}")
        elif not _same_var(game, st, name, var_value(game, st, name, want, where)):
            failures.append(f"vars: {name} expected {want!r}, is {_shown_var(game, st, name)}")
    if "turns" in expect and list(st.turns) != expect["turns"]:
        failures.append(f"turns: expected {expect['turns']}, got {st.turns}")
    if "endings" in expect and list(st.endings) != expect["endings"]:
        failures.append(f"endings: expected {expect['endings']}, got {list(st.endings)}")
    texts = expect.get("log_includes", [])
    for text in [texts] if isinstance(texts, str) else texts:
        if not any(text in line for line in st.log):
            failures.append(f"log: no line contains {text!r}; log ends {st.log[-3:]}")
    if any(k in expect for k in ("scores", "lines", "winners", "opponents")):
        result = game.result(st)
        if "scores" in expect and list(result.scores) != expect["scores"]:
            failures.append(f"scores: expected {expect['scores']}, got {list(result.scores)}")
        if "lines" in expect:
            for seat, want in enumerate(expect["lines"]):
                got = result.lines[seat] if seat < len(result.lines) else {}
                for title, value in want.items():
                    if got.get(title) != value:
                        failures.append(f"score line {title!r} of seat {seat}: expected {value}, got {got.get(title)}")
        if "winners" in expect and sorted(result.winners) != sorted(expect["winners"]):
            failures.append(f"winners: expected seats {expect['winners']}, got {list(result.winners)}")
        sheets = dict(result.opponents)
        for title, want in (expect.get("opponents") or {}).items():
            if title not in sheets:
                failures.append(f"opponents: no opponent {title!r}; opponents: {', '.join(sheets) or 'none'}")
                continue
            for line, value in want.items():
                got = sum(sheets[title].values()) if line == "total" else sheets[title].get(line)
                if got != value:
                    failures.append(f"opponent {title!r}, line {line!r}: expected {value}, got {got}")
    if "bot_chooses" in expect and decision is not None:
        failures.extend(bot_puzzle_failures(game, st, expect["bot_chooses"]))
    elif "bot_chooses" in expect:
        failures.append(puzzle_failure("there is no decision to make"))
    if expect.get("invariants", False):
        try:
            for title, span in game.failing_invariants(st):
                failures.append(f"invariant {title!r} ({span}) does not hold")
        except BoardwrightError as err:
            failures.append(f"invariants: a rule error while checking them:\n{err.format()}")
    if expect.get("properties", False):
        from .check import PropertyFailed, state_properties
        try:
            state_properties(game, st)
        except PropertyFailed as failed:
            failures.append(f"property failed: {failed}")
    return failures


def scenario_files(targets) -> list[Path]:
    files = []
    for target in targets:
        path = Path(target)
        if path.is_dir():
            files.extend(sorted(path.rglob("*.scenario.yaml")))
        else:
            files.append(path)
    return files
