"""The engine: a compiled game, its states, decisions, moves, results and observations.

`Game` is what `load_game` returns. It creates states (`new_state`), runs the rules until a
player must choose (`run`), exposes that choice (`decision`), applies an option (`apply`),
and scores a finished game (`result`). States are plain data (interpreter/state.py).
"""
from __future__ import annotations

import re
import itertools
from operator import itemgetter
from dataclasses import dataclass, replace
from functools import cached_property

from ...dsl.data import format_attributes
from ...dsl.errors import Diagnostic, IllegalMove, RuleError, Span, UsageError, did_you_mean
from .limits import WORK
from .builtins import RUNTIME_FAILURES, Problem, failure_diagnostic, fits
from .indexes import on_remove
from .runtime import LoopLimit
from .rng import seed_state
from .state import Pending, Sealed, State

_NOT_CHOSEN = object()

STEP_LIMIT = 2_000_000          # instructions between two decisions before a rule is called a loop
DECISION_LIMIT = 100_000        # decisions in one game


@dataclass(frozen=True)
class Option:
    id: str
    label: str
    value: object


@dataclass(frozen=True)
class Decision:
    player: int
    prompt: str
    options: tuple


@dataclass(frozen=True)
class GridShape:
    extent: tuple | None
    size: tuple | None
    blocked: frozenset
    stacked: bool

    @cached_property
    def by_params(self) -> bool:
        """Whether a number of the shape is a param's name (asked at every move: kept)."""
        pairs = [self.extent or (), self.size or ()] + list(self.blocked)
        return any(isinstance(v, str) for pair in pairs for v in pair)


@dataclass(frozen=True)
class Result:
    scores: tuple               # total per seat
    lines: tuple                # per seat: dict of score line -> value
    tiebreaks: tuple            # per seat: dict of tiebreak -> value
    winners: tuple              # seats that share the victory; empty for a draw
    opponents: tuple = ()       # (title, dict of score line -> value) per scripted opponent


class Game:
    def __init__(self, spec):
        self.spec = spec
        self.title = spec.title
        self.variant = spec.variant
        self.min_players = spec.players.minimum
        self.max_players = spec.players.maximum
        self.components: list[dict] = []
        self.kind_of: list[str] = []
        self.labels: list[str] = []
        self.details: list[str] = []     # per component: its kind's `details` text, or ""
        self.glyphs: list = []           # per component: the lines of its kind's `glyph`, or None
        self.kind_ids: dict[str, list[int]] = {}
        for kind in spec.kinds.values():
            ids = []
            for attrs in kind.items:
                ids.append(len(self.components))
                self.components.append(attrs)
                self.kind_of.append(kind.name)
                self.labels.append(_label(kind, attrs))
                self.details.append(describe(getattr(kind, "details", None), attrs))
                self.glyphs.append(_glyph(kind, attrs))
            self.kind_ids[kind.name] = ids
        # What anyone can tell of each component face down (see bots.determinize): the values of
        # the attributes its kind prints on the back; None when the kind declares no back.
        self.backs: list = [tuple(attrs.get(a) for a in spec.kinds[k].back) if spec.kinds[k].back else None
                            for k, attrs in zip(self.kind_of, self.components)]
        self.component_count = len(self.components)
        self.component_ids = frozenset(range(self.component_count))
        self.fitting_cells: dict = {}   # fixed-size grid key -> (cells, those that fit), see runtime.fitting
        self.zone_keys: dict = {}
        self.zone_meta: dict = {}       # zone name -> (kind, visibility, per_player)
        self.shapes: dict = {}
        for decl in spec.zones.values():
            per = any(o.name == "per player" for o in decl.options)
            self.zone_keys[decl.name] = ([f"{decl.name}/{p}" for p in range(self.max_players)]
                                         if per else decl.name)
            flags = {o.name: o.values for o in decl.options}
            visibility = next((o.name for o in decl.options if o.name in
                               ("public", "hidden", "owner", "top")), "public")
            self.zone_meta[decl.name] = (decl.kind, visibility, per)
            if decl.kind == "grid":
                self.shapes[decl.name] = GridShape(
                    flags.get("extent"), flags.get("size"),
                    frozenset(o.values for o in decl.options if o.name == "blocked"), "stacked" in flags)
        self.zone_meta["supply"] = ("pile", "hidden", False)
        # Grid zones whose components are drawn with a glyph: zone name -> (width, height) of a cell.
        self.cell_pictures: dict = {}
        self._grid_keys: dict = {}      # player count -> {zone key: whether a grid}, see setup_state
        for decl in spec.zones.values():
            glyph = getattr(spec.kinds.get(decl.holds or next(iter(spec.kinds), "")), "glyph", None)
            if decl.kind == "grid" and glyph:
                pictures = [g for g, k in zip(self.glyphs, self.kind_of) if k == (decl.holds or k) and g]
                self.cell_pictures[decl.name] = (max(len(line) for g in pictures for line in g),
                                                 max(len(g) for g in pictures))
        self.per_player_vars = {n for n, d in spec.vars.items() if d.per == "player"}
        self.per_component_vars = sorted(n for n, d in spec.vars.items() if d.per not in (None, "player"))
        self.score_sign = 1             # -1 when the lowest score wins (set by the compiler)
        self.component_vars = {n for n, d in spec.vars.items() if _base_type(d.type) in spec.kinds}
        self.hidden_vars = {n for n, d in spec.vars.items() if d.per not in (None, "player")} | set(spec.params)
        self.code: dict = {}            # body name -> compiler.Code
        self.code_sizes: dict = {}
        self.namespace: dict = {}       # the generated module's globals
        self.modules: dict = {}         # generated file name -> codegen.Module (the line map)
        self.generated = None           # the codegen.Module of the whole game (`compile --emit`)
        self.choices: dict = {}         # (code name, pc) -> compiler.ChoiceSite
        self.coverage = None            # a coverage.Coverage while rule coverage is measured
        self.heuristic = None           # (state, seat) -> int, when the rule file declares one
        self.brief = None               # (state, seat) -> str, when the rule file declares `brief`
        self.bot_defaults = {name: d.settings for name, d in spec.bots.items()}  # bot -> "k=v:...", from `bot`
        self.on_show = None             # (state, title) -> None: the play screen, at a `show` statement
        self.var_display = {n: d.display for n, d in spec.vars.items() if d.display is not None}
        self.var_types = {n: d.type for n, d in spec.vars.items()}
        self.param_overrides: dict = {}  # param name -> value, from --set
        self.param_types: dict = {}     # param name -> type text ("int", "bool", an enum), for --set
        self.shown_labels: dict = {}    # component kind -> (state, id) -> str, from `label` declarations
        self._labelling: set = set()    # components whose label is being computed (no recursion)

    def set_params(self, settings: dict) -> None:
        """Override params (`--set name=value`): a whole number of at most MAX_SET_DIGITS
        digits, true/false or an enum member, of the type the param's default has."""
        for name, text in settings.items():
            if name not in self.spec.params:
                hint = did_you_mean(name, self.spec.params)
                raise UsageError(f"no param '{name}' in {self.title}; params: {', '.join(self.spec.params)}"
                                 + (f"; {hint}" if hint else ""))
            value = str(text).strip()
            expected = self.param_types.get(name, "any")
            digits = value.removeprefix("-")
            if digits.isascii() and digits.isdigit():
                if len(digits) > MAX_SET_DIGITS:
                    raise UsageError(f"--set {name}: at most {MAX_SET_DIGITS} digits")
                parsed, kind = int(value), "int"
            elif value in ("true", "false"):
                parsed, kind = value == "true", "bool"
            elif value in self.spec.member_enum:
                parsed, kind = value, self.spec.member_enum[value]
            else:
                raise UsageError(f"--set {name}={_shorten(value)}: expected a whole number, true, false or "
                                 f"an enum member")
            if expected not in ("any", kind):
                want = {"int": "a whole number", "bool": "true or false"}.get(expected, f"a {expected} member")
                raise UsageError(f"--set {name}={_shorten(value)}: '{name}' is {want} "
                                 f"(its default is {expected})")
            self.param_overrides[name] = parsed

    # ------------------------------------------------------------------ helpers for rules
    def player_name(self, p: int) -> str:
        return f"Player {p + 1}"

    def label_of(self, st: State, c: int) -> str:
        """How component c looks in this state: its kind's `label` declaration, or its data label."""
        shown = self.shown_labels.get(self.kind_of[c])
        if shown is None or c in self._labelling:
            return self.labels[c]       # while its own label is computed: its data label
        self._labelling.add(c)
        try:
            return shown(st, c)
        finally:
            self._labelling.discard(c)

    def grid_shape(self, key: str, st=None) -> GridShape:
        """A grid's shape; numbers given by params (`size side x side`) are read from the
        state's params (without a state they are unknown: the grid shows as floating)."""
        shape = self.shapes.get(key)
        if shape is None:
            shape = self.shapes[key] = self.shapes[key.split("/")[0]]
        if not shape.by_params:
            return shape
        values = st.vars if st is not None else {}

        def numbers(pair):
            if pair is None:
                return None
            known = tuple(values.get(v) if isinstance(v, str) else v for v in pair)
            return None if None in known else known
        return GridShape(numbers(shape.extent), numbers(shape.size),
                         frozenset(filter(None, map(numbers, shape.blocked))), shape.stacked)

    def zone_keys_for(self, players: int) -> list[str]:
        keys = []
        for name, keyset in self.zone_keys.items():
            keys.extend([keyset] if isinstance(keyset, str) else keyset[:players])
        return keys + ["supply"]

    def move(self, st: State, c, key: str, cell, bottom: bool) -> None:
        if type(c) is not int or not 0 <= c < self.component_count:
            raise Problem(f"cannot move {c!r}: not a component")
        zones = st.zones
        dest = zones[key]
        if type(dest) is not list:      # refuse a bad cell before anything changes
            if cell is None:
                raise Problem(f"a move to the grid '{key}' needs a cell")
            if cell in dest and not self.grid_shape(key, st).stacked:
                raise Problem(f"cell {cell} of '{key}' is occupied and the grid is not 'stacked'")
            if not fits(self, st, key, cell):
                raise Problem(f"cell {cell} is outside the grid '{key}'")
        loc = st.loc
        okey, ocell = loc[c]
        source = zones[okey]
        if st.memo:
            st.memo.clear()
        if ocell is None:
            if source[-1] == c:
                source.pop()
            else:
                source.remove(c)
        else:
            stack = source[ocell]
            stack.remove(c)
            if not stack:
                del source[ocell]
            on_remove(st, okey, not stack)
        if type(dest) is list:
            if bottom:
                dest.insert(0, c)
            else:
                dest.append(c)
        else:
            stack = dest.get(cell)
            if stack is None:
                dest[cell] = [c]
            else:
                stack.append(c)
            index = st.cache.get(key)       # the grid's index replaced by an updated copy
            if index is not None:
                st.cache[key] = index.added(dest, cell, stack is None)
        loc[c] = (key, cell)
        if self.coverage is not None and st.frames and st.frames[0][0] != "setup":
            self.coverage.moved[c] += 1

    def move_all(self, st: State, items: list, key: str, cell, bottom: bool) -> None:
        """`move LIST to ZONE`: each item in turn, as `move` does. Eight or more distinct
        components that all leave other piles for a pile move together (a setup moves a whole
        kind at once)."""
        items = list(items)
        dest = st.zones[key]
        moving = self._from_piles(st, items, key) if len(items) >= 8 and type(dest) is list else None
        if moving is None:
            for c in items:
                self.move(st, c, key, cell, bottom)
            return
        leaving, sources = moving
        if st.memo:
            st.memo.clear()
        for source_key in sources:
            source = st.zones[source_key]
            source[:] = [c for c in source if c not in leaving]     # the others keep their order
        if bottom:
            dest[:0] = items[::-1]          # each to the bottom in turn: the last lies lowest
        else:
            dest.extend(items)
        loc = st.loc
        where = (key, cell)
        for c in items:
            loc[c] = where
        if self.coverage is not None and st.frames and st.frames[0][0] != "setup":
            for c in items:
                self.coverage.moved[c] += 1

    def _from_piles(self, st: State, items: list, key: str):
        """(the set of items, the keys of the piles they lie in) when `items` are distinct
        components that all lie in piles other than `key`, else None. Checked a list at a time
        (sets, map): a setup moves whole kinds."""
        leaving = set(items)
        if len(leaving) != len(items) or set(map(type, items)) != {int} or not leaving <= self.component_ids:
            return None
        wheres = set(itemgetter(*items)(st.loc))
        if any(cell is not None or zone == key for zone, cell in wheres):
            return None
        return leaving, [zone for zone, _ in wheres]

    # ------------------------------------------------------------------ states
    def setup_state(self, players: int, seed: int = 0) -> State:
        """A new state after the setup block has run, before play starts."""
        if not self.min_players <= players <= self.max_players:
            allowed = (f"{self.min_players} player" + ("s" if self.min_players != 1 else "")
                       if self.min_players == self.max_players
                       else f"{self.min_players} to {self.max_players} players")
            title = self.title + (f" ({self.variant})" if self.variant else "")
            raise UsageError(f"{title} is for {allowed}, not {players}")
        st = State.__new__(State)
        st.players = players
        st.rng = seed_state(seed)
        grids = self._grid_keys.get(players)
        if grids is None:
            grids = self._grid_keys[players] = {key: self.zone_meta[key.split("/")[0]][0] == "grid"
                                                for key in self.zone_keys_for(players)}
        st.zones = {key: {} if grid else [] for key, grid in grids.items()}
        st.zones["supply"] = list(range(self.component_count))
        st.loc = [("supply", None)] * self.component_count
        st.vars = {}
        st.frames = []
        st.pending = None
        st.current = None
        st.turns = [0] * players
        st.finished = False
        st.history = []
        st.log = []
        st.endings = []
        st.sealed = None
        st.cache = {}
        st.memo = {}
        self.initialize_vars(st)
        if "setup" in self.code:
            st.frames.append(["setup", 0, [None] * self.code_sizes["setup"]])
            self.run(st)
            st.finished = False         # setup ran to its end; the game itself has not begun
        return st

    def start(self, st: State) -> State:
        """Begin play on a state made by setup_state, and run to the first decision."""
        st.frames.append(["play", 0, [None] * self.code_sizes["play"]])
        self.run(st)
        return st

    def new_state(self, players: int, seed: int = 0) -> State:
        return self.start(self.setup_state(players, seed))

    def initialize_vars(self, st: State) -> None:
        raise NotImplementedError       # installed by the compiler (see loader)

    # ------------------------------------------------------------------ running
    def run(self, st: State) -> None:
        """Execute the rules until a decision is pending or the game is over."""
        frames = st.frames
        st.memo.clear()                 # the state may have been edited since the last run
        WORK[0] = 0                     # interpreter/limits.py counts work between decisions
        if self.coverage is not None:
            self._run_counted(st)
        else:
            code = self.code
            budget = STEP_LIMIT
            while frames and st.pending is None:
                frame = frames[-1]
                body = code[frame[0]]
                pc = frame[1]
                try:
                    block = body.blocks[pc]
                    if block is None:
                        block = body.entry(pc)
                    block(st, frame)
                except Problem as problem:
                    raise self._with_callers(self._rule_error(body, pc, problem), st) from None
                except RUNTIME_FAILURES as exc:
                    raise self._with_callers(RuleError(failure_diagnostic(self.error_span(body, pc), exc)),
                                             st) from None
                budget -= 1
                if not budget:
                    raise self._loop_error(body.instructions[min(pc, len(body) - 1)].span)
        if not frames and st.pending is None:
            st.finished = True

    def call(self, st: State, caller: list, frame: list) -> bool:
        """Run a procedure that never waits for a choice to its end at once (the loop of `run`,
        nested); True when its caller goes on (the game did not finish in it). An error
        propagates to `run`, with the procedure's frame on the stack for the call chain."""
        frames = st.frames
        frames.append(frame)
        depth = len(frames)
        code = self.code
        body = code[frame[0]]
        block = body.blocks[frame[1]]
        (block if block is not None else body.entry(frame[1]))(st, frame)
        if frames and frames[-1] is caller:
            return True         # the usual case: the procedure ran to its end in one block
        budget = STEP_LIMIT - 1
        while len(frames) >= depth:
            top = frames[-1]
            body = code[top[0]]
            block = body.blocks[top[1]]
            if block is None:
                block = body.entry(top[1])
            block(st, top)
            budget -= 1
            if not budget:
                raise LoopLimit("loop")
        return bool(frames) and frames[-1] is caller

    def _run_counted(self, st: State) -> None:
        """Run one instruction at a time, counting each (rule coverage)."""
        code, frames = self.code, st.frames
        counts = self.coverage.instructions
        budget = STEP_LIMIT
        while frames and st.pending is None:
            frame = frames[-1]
            body = code[frame[0]]
            pc = frame[1]
            if pc >= len(body):
                frames.pop()
                continue
            counts[body.name, pc] += 1
            try:
                body.single(pc)(st, frame)
            except Problem as problem:
                raise self._with_callers(self._rule_error(body, pc, problem), st) from None
            except RUNTIME_FAILURES as exc:
                raise self._with_callers(RuleError(failure_diagnostic(self.error_span(body, pc), exc)), st) from None
            budget -= 1
            if not budget:
                raise self._loop_error(body.instructions[pc].span)

    def _rule_error(self, body, pc: int, problem: Problem) -> RuleError:
        span = self.error_span(body, pc)
        if isinstance(problem, LoopLimit):
            return self._loop_error(span)
        return RuleError(Diagnostic(span, str(problem)))

    @staticmethod
    def _loop_error(span) -> RuleError:
        return RuleError(Diagnostic(span, f"no decision after {STEP_LIMIT} steps: the rules seem to loop forever",
                                    "check that every loop moves towards its end"))

    def error_span(self, body, pc: int):
        """The rule line of the innermost generated line that failed (the line map), else the
        body's instruction at pc."""
        default = body.instructions[min(pc, len(body) - 1)].span if len(body) else None
        frames = self._generated_frames()
        if frames and frames[-1][0] is not None:
            return frames[-1][0]
        return default

    def _generated_frames(self) -> list:
        """(rule span, generated function name) of each generated-code frame of the exception
        being handled, outermost first. Only read when an error propagates: no cost otherwise."""
        import sys
        tb = sys.exc_info()[2]
        out = []
        while tb is not None:
            module = self.modules.get(tb.tb_frame.f_code.co_filename)
            if module is not None:
                code = tb.tb_frame.f_code
                out.append((module.span_at(tb.tb_lineno), code.co_name))
                position = next(itertools.islice(code.co_positions(), tb.tb_lasti // 2, None), None)
                if position is not None and None not in position:
                    out += [(span, "_F_" + name) for name, span in module.inlined_at(*position[::2][:1],
                                                                                  *position[2:])]
            tb = tb.tb_next
        return out

    def _with_callers(self, error: RuleError, st: State) -> RuleError:
        """Add the call chain to a rule error: the fns between the failing line and its
        statement (from the traceback), then the procs on the frame stack, each as FILE:LINE
        of its call (in what called it)."""
        callers = []
        frames = self._generated_frames()
        body_name = st.frames[-1][0] if st.frames else ""
        for (span, outer), (_, inner) in zip(reversed(frames[:-1]), reversed(frames[1:])):
            if span is not None and inner.startswith("_F_"):
                where = f"fn {outer[3:]}" if outer.startswith("_F_") else _body_words(body_name)
                callers.append(f"{span.file}:{span.line} (in {where})")
        for caller, callee in zip(reversed(st.frames[:-1]), reversed(st.frames[1:])):
            body, resume = self.code.get(caller[0]), caller[1]
            if body is None or not 0 < resume <= len(body):
                continue
            span = body.instructions[resume - 1].span
            callers.append(f"{span.file}:{span.line} (in {_body_words(caller[0])})")
        if not callers or not error.diagnostics:
            return error
        error.diagnostics[0] = replace(error.diagnostics[0], called_from=_collapsed(callers))
        return error

    def decision(self, st: State) -> Decision | None:
        p = st.pending
        if p is None:
            return None
        ids, labels = self.option_ids(st), self.option_labels(st)
        return Decision(p.player, self.prompt(st), tuple(Option(i, l, v) for i, l, v in zip(ids, labels, p.values)))

    def prompt(self, st: State) -> str:
        return self.choices[st.pending.site].prompt(st, st.frames[-1][2])

    def option_labels(self, st: State) -> list[str]:
        p = st.pending
        site = self.choices[p.site]
        if site.label is None:
            return [site.render(v, st) for v in p.values]
        L = st.frames[-1][2]
        saved = L[p.slot]
        labels = []
        for v in p.values:
            L[p.slot] = v
            labels.append(site.label(st, L))
        L[p.slot] = saved
        return labels

    def option_ids(self, st: State) -> list[str]:
        p = st.pending
        site = self.choices[p.site]
        if site.identify is None:
            return [str(i + 1) for i in range(len(p.values))]
        return _unique([site.identify(v) for v in p.values])

    def option_index(self, st: State, choice) -> int:
        """Find an option by index (int), id or label (str); raise IllegalMove otherwise."""
        p = st.pending
        if p is None:
            raise IllegalMove("the game is over: there is no decision to make")
        ids = self.option_ids(st)
        if isinstance(choice, int) and not isinstance(choice, bool):
            if 0 <= choice < len(p.values):
                return choice
        else:
            text = str(choice).strip()
            if text in ids:
                return ids.index(text)
            lowered = [label.lower() for label in self.option_labels(st)]
            if text.lower() in lowered:
                return lowered.index(text.lower())
        labels = self.option_labels(st)
        shown = ", ".join(f"{i} ({l})" for i, l in list(zip(ids, labels))[:12])
        more = " ..." if len(ids) > 12 else ""
        raise IllegalMove(f"'{choice}' is not a legal option for \"{self.prompt(st)}\"; options: {shown}{more}")

    def apply(self, st: State, choice) -> State:
        return self.apply_index(st, self.option_index(st, choice))

    def apply_index(self, st: State, index: int) -> State:
        p = st.pending
        site = self.choices[p.site]
        if site.identify is None:
            chosen = str(index + 1)
        else:
            chosen = site.identify(p.values[index])
            if not site.injective and chosen not in site.unique_ids:    # numbered like _unique: 'red-5#2'
                identify = site.identify
                repeats = sum(1 for v in p.values[:index] if identify(v) == chosen)
                if repeats:
                    chosen = f"{chosen}#{repeats + 1}"
        if st.sealed is None:
            st.frames[-1][2][p.slot] = p.values[index]
        if self.coverage is not None:
            self.coverage.decisions[p.site] += 1
        st.pending = None
        st.history.append(chosen)
        if len(st.history) > DECISION_LIMIT:
            body = self.code[p.site[0]]
            raise RuleError(Diagnostic(body.instructions[min(p.site[1], len(body) - 1)].span,
                                       f"the game did not end after {DECISION_LIMIT:,} decisions; the last "
                                       "was made here", "check that the play block reaches its end or a "
                                       "'finish' whatever the players choose"))
        if st.sealed is not None:
            st.sealed = replace(st.sealed, chosen=st.sealed.chosen + ((p.player, p.values[index]),))
            if not self.ask_sealed(st):
                return st
        self.run(st)
        return st

    # ------------------------------------------------------------------ simultaneous decisions
    def decide_sealed(self, st: State, L: list, players, options: list, slot: int, binder: int,
                      site: tuple) -> None:
        """Begin `choose NAME from ... by each P in players`: every player chooses without
        seeing the others' choices; the choices are revealed together (see ask_sealed)."""
        if not players:
            L[slot] = [None] * st.players
            return
        st.sealed = Sealed(tuple(players), tuple(tuple(o) for o in options), (), slot, binder, site)
        self.ask_sealed(st)

    def ask_sealed(self, st: State) -> bool:
        """Ask the next player of the simultaneous decision; when everyone has chosen, reveal
        the choices as a list by seat (none for seats that did not choose) and return True."""
        sealed = st.sealed
        L = st.frames[-1][2]
        waiting = sealed.waiting()
        if waiting:
            seat = waiting[0]
            L[sealed.binder] = seat
            st.pending = Pending(seat, sealed.options[sealed.players.index(seat)], sealed.slot, sealed.site)
            return False
        by_seat = [None] * st.players
        for seat, value in sealed.chosen:
            by_seat[seat] = value
        L[sealed.slot] = by_seat
        st.sealed = None
        return True

    def sealed_choice_label(self, st: State, seat: int):
        """How `seat`'s own sealed choice is shown to that seat (None if not made yet)."""
        sealed = st.sealed
        value = next((v for p, v in sealed.chosen if p == seat), _NOT_CHOSEN)
        if value is _NOT_CHOSEN:
            return None
        site = self.choices[sealed.site]
        if site.label is None:
            return site.render(value, st)
        L = st.frames[-1][2]
        saved = L[sealed.slot], L[sealed.binder]
        L[sealed.slot], L[sealed.binder] = value, seat
        try:
            return site.label(st, L)
        finally:
            L[sealed.slot], L[sealed.binder] = saved

    # ------------------------------------------------------------------ results
    def result(self, st: State) -> Result:
        raise NotImplementedError       # installed by the compiler

    def scores(self, st: State) -> tuple:
        """The total per seat (what `result(st).scores` says, without the rest)."""
        raise NotImplementedError       # installed by the compiler

    def failing_invariants(self, st: State) -> list[tuple[str, Span]]:
        raise NotImplementedError       # installed by the compiler

    # ------------------------------------------------------------------ what a player sees
    def labelled(self, st: State, value):
        """Component ids (in a value or a list of values) as labels, for display."""
        if type(value) is list:
            return [self.labelled(st, v) for v in value]
        return value if value is None else self.label_of(st, value)

    def visible_to(self, key: str, player: int | None) -> bool:
        """Whether `player` (None: a spectator) sees the contents and order of zone `key`."""
        name, _, owner = key.partition("/")
        visibility = self.zone_meta[name][1]
        return visibility == "public" or (visibility == "owner" and player is not None and owner == str(player))

    def observe(self, st: State, player: int | None) -> dict:
        """What `player` may see (None: a spectator): hidden zones show only their size."""
        zones = {}
        for key, content in st.zones.items():
            kind, visibility, _ = self.zone_meta[key.split("/")[0]]
            visible = self.visible_to(key, player)
            if kind == "grid" and not visible:
                zones[key] = {"size": sum(map(len, content.values()))}
            elif kind == "grid":
                zones[key] = {f"{c[0]},{c[1]}": [self.label_of(st, i) for i in stack]
                              for c, stack in sorted(content.items(), key=lambda kv: (kv[0][1], kv[0][0]))}
            elif visible:
                zones[key] = [self.label_of(st, i) for i in content]
            elif visibility == "top":
                zones[key] = {"size": len(content), "top": self.label_of(st, content[-1]) if content else None}
            else:
                zones[key] = {"size": len(content)}
        shown_vars = {name: (self.labelled(st, value) if name in self.component_vars else value)
                      for name, value in st.vars.items()}
        seen = {"players": st.players, "current": st.current, "turns": list(st.turns),
                "finished": st.finished, "zones": zones, "vars": shown_vars, "log": list(st.log[-10:])}
        details = {key: [self.details[i] for i in st.zones[key]] for key, content in zones.items()
                   if type(content) is list and any(self.details[i] for i in st.zones[key])}
        if details:
            seen["details"] = details       # beside the labels of shown stacks and piles
        pictures = {key: {f"{c[0]},{c[1]}": self.glyphs[stack[-1]] for c, stack in content.items() if stack}
                    for key, content in st.zones.items()
                    if key.split("/")[0] in self.cell_pictures and "size" not in zones[key]}
        if pictures:
            seen["glyphs"] = pictures       # how grid cells are drawn, for zones whose kind has a glyph
        p = st.pending
        if p is not None:
            mine = p.player == player
            seen["decision"] = {"player": p.player, "prompt": self.prompt(st) if mine else None,
                                "options": [{"id": i, "label": l} for i, l in
                                            zip(self.option_ids(st), self.option_labels(st))] if mine else None}
        if st.sealed is not None:
            # A simultaneous decision: everyone sees who has chosen, only the owner what.
            chosen = [seat for seat, _ in st.sealed.chosen]
            seen["sealed"] = {"players": list(st.sealed.players), "chosen": sorted(chosen),
                              "yours": self.sealed_choice_label(st, player) if player in chosen else None}
        return seen


def _base_type(ref) -> str:
    """The innermost type name of a (list) type reference."""
    while hasattr(ref, "element"):
        ref = ref.element
    return ref.name


def _unique(ids: list) -> list:
    """Ids made unique by numbering repeats: 'red-5', 'red-5#2'."""
    seen: dict = {}
    out = []
    for i in ids:
        n = seen.get(i, 0) + 1
        seen[i] = n
        out.append(i if n == 1 else f"{i}#{n}")
    return out


MAX_SET_DIGITS = 18             # a --set number: far beyond any board, far below a memory bomb


def _shorten(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


_SECTION = re.compile(r"\[([^\[\]]*)\]")
_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?::[^{}]*)?\}")


def describe(text: str | None, attrs: dict) -> str:
    """A component's `details` text: the kind's format filled in like a label (lists joined
    with commas), each [section] left out when one of its values is 0, empty or false."""
    if not text:
        return ""

    def section(match) -> str:
        names = _FIELD.findall(match.group(1))
        if any(attrs.get(n) in (0, "", None, False) or attrs.get(n) == [] for n in names):
            return ""
        return match.group(1)
    shown = _SECTION.sub(section, text)
    values = {k: ", ".join(map(str, v)) if isinstance(v, list) else v for k, v in attrs.items()}
    try:
        return format_attributes(shown, values).strip()
    except (KeyError, IndexError, ValueError):
        return shown


def _glyph(kind, attrs: dict):
    """The lines that draw a component in a grid cell, or None (data checks the format)."""
    lines = getattr(kind, "glyph", None)
    if not lines:
        return None
    try:
        return [format_attributes(line, attrs) for line in lines]
    except (KeyError, IndexError, ValueError):
        return None


def _label(kind, attrs: dict) -> str:
    if kind.label:
        try:
            return format_attributes(kind.label, attrs)
        except (KeyError, IndexError, ValueError):
            pass
    if "name" in attrs:
        return str(attrs["name"])
    return " ".join(str(v) for v in attrs.values())


def _body_words(name: str) -> str:
    """A body's name as the designer wrote it: `play`, `setup` or `proc NAME`."""
    return name if name in ("play", "setup") else f"proc {name}"


def _collapsed(callers: list, most: int = 20) -> tuple:
    """Callers with a run of the same one (a recursion) said once, and at most `most` lines."""
    out: list = []
    for caller, run in itertools.groupby(callers):
        times = sum(1 for _ in run)
        out.append(caller + (f", {times} times" if times > 1 else ""))
    if len(out) > most:
        out = out[:most - 1] + [f"... and {len(out) - most + 1} more callers"]
    return tuple(out)
