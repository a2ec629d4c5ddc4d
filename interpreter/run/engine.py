"""The engine: a compiled game, its states, decisions, moves, results and observations.

`Game` is what `load_game` returns. It creates states (`new_state`), runs the rules until a
player must choose (`run`), exposes that choice (`decision`), applies an option (`apply`),
and scores a finished game (`result`). States are plain data (interpreter/run/state.py).
Its methods come in groups, each a mixin in its own module: zones and moves (zones.py),
decisions (decisions.py), what a seat sees (views.py) and where a rule failed
(rule_errors.py); the texts of components are made in labels.py.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...dsl.errors import Diagnostic, RuleError, Span, UsageError, clipped, counted, did_you_mean
from ...dsl.shapes import orientation_parts, orientations
from .limits import reset_work
from .builtins import RUNTIME_FAILURES, Problem, failure_diagnostic
from .decisions import Decisions
from .labels import _glyph, _label, describe_piece
from .rule_errors import RuleErrors
from .runtime import LoopLimit
from .rng import seed_state
from .state import State
from .views import Views
from .zones import GridShape, Zones

STEP_LIMIT = 2_000_000          # instructions between two decisions before a rule is called a loop


@dataclass(frozen=True)
class Result:
    scores: tuple               # total per seat
    lines: tuple                # per seat: dict of score line -> value
    tiebreaks: tuple            # per seat: dict of tiebreak -> value
    winners: tuple              # seats that share the victory; empty for a draw
    opponents: tuple = ()       # (title, dict of score line -> value) per scripted opponent


class Game(Zones, Decisions, Views, RuleErrors):
    def __init__(self, spec):
        self.spec = spec
        self.title = spec.title
        self.variant = spec.variant
        self.display_title = spec.title + (f" ({spec.variant})" if spec.variant else "")   # as messages name it
        self.min_players = spec.players.minimum
        self.max_players = spec.players.maximum
        self.components: list[dict] = []
        self.kind_of: list[str] = []
        self.labels: list[str] = []
        self.details: list[str] = []     # per component: its kind's `details` text, or ""
        self.glyphs: list = []           # per component: the lines of its kind's `glyph`, or None
        self.kind_ids: dict[str, list[int]] = {}
        # Per component: its distinct orientations (dsl/shapes.py), None for one without a shape.
        self.orientations: list = []
        # Per component with per-cell data (a domino's halves): the data of each cell of its shape
        # as given, and per orientation which of those cells lies on each covered cell; else None.
        self.cell_values: list = []
        self.parts: list = []
        self.cell_glyphs: list = []
        for kind in spec.kinds.values():
            ids = []
            shapes = getattr(kind, "shapes", None) or [None] * len(kind.items)
            values = getattr(kind, "cell_values", None) or [None] * len(kind.items)
            for shape, cells in zip(shapes, values):
                labels = None if cells is None else tuple(tuple(sorted((k, repr(v)) for k, v in d.items()))
                                                          for d in cells)
                self.orientations.append(None if shape is None else orientations(shape, labels))
                self.cell_values.append(cells)
                self.parts.append(None if cells is None else orientation_parts(shape, labels))
            # Per component with per-cell data: the glyph of each cell of its shape, which may
            # name cell attributes (a domino half's terrain); else None.
            self.cell_glyphs.extend(None if cells is None else tuple(_glyph(kind, {**attrs, **v}) for v in cells)
                                    for attrs, cells in zip(kind.items, values))
            for attrs in kind.items:
                ids.append(len(self.components))
                self.components.append(attrs)
                self.kind_of.append(kind.name)
                self.labels.append(_label(kind, attrs))
                self.details.append(describe_piece(getattr(kind, "details", None), attrs,
                                                   self.cell_values[len(self.components) - 1],
                                                   getattr(kind, "cell_attributes", {})))
                # a piece whose glyph names cell attributes is drawn whole by its first cell's
                self.glyphs.append(_glyph(kind, attrs) or (self.cell_glyphs[len(self.components) - 1] or (None,))[0])
            self.kind_ids[kind.name] = ids
        # What anyone can tell of each component face down (see interpreter/bots/determinize.py): the values of
        # the attributes its kind prints on the back; None when the kind declares no back.
        # How far a shape reaches from its anchor (placements' margin), and its offsets as numbers
        # on boards of a given row length (shaped.py), worked out once per game.
        self.shape_reach = 1 + max((max(x, y) for shapes in self.orientations if shapes
                                    for cells in shapes for x, y in cells), default=0)
        self.shape_steps: dict = {}
        self.cell_bits: dict = {}       # id of a list of cells -> (the list, board, its bits): shaped._bits
        self.covered_cells: dict = {}   # (piece, anchor, orientation) -> its cells, see shaped.covered
        self.witnesses: dict = {}       # (grid shape, row length) -> the last placement any_placement found, its bits
        self.backs: list = [tuple(attrs.get(a) for a in spec.kinds[k].back) if spec.kinds[k].back else None
                            for k, attrs in zip(self.kind_of, self.components)]
        self.component_count = len(self.components)
        self.component_ids = frozenset(range(self.component_count))
        self.fitting_cells: dict = {}   # fixed-size grid key -> (cells, those that fit), see runtime.fitting
        self.zone_keys: dict = {}
        self.zone_meta: dict = {}       # zone name -> (kind, visibility, per_player)
        self.shapes: dict = {}
        self.shapes_by_params: dict = {}    # (grid key, its params' values) -> shape, see Zones.grid_shape
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
        self._unseen: dict = {}         # (player count, seat) -> zones it cannot see, see unseen_zones
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
        self.record_vars: dict = {}     # var holding records -> how one value is shown (set by the compiler)
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
                raise UsageError(f"no param '{clipped(name)}' in {self.title}; params: {', '.join(self.spec.params)}"
                                 + (f"; {hint}" if hint else ""))
            value = str(text).strip()
            expected = self.param_types.get(name, "any")
            if expected not in ("any", "int", "bool") and expected not in self.spec.enums:
                raise UsageError(f"--set {name}: '{name}' is {expected if ' of ' in expected else 'a ' + expected}"
                                 ", which --set cannot give: it takes whole numbers, true, false and enum "
                                 "members; change it in a variant (docs/language.md, Variants)")
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
                raise UsageError(f"--set {name}={clipped(value)}: expected a whole number, true, false or "
                                 f"an enum member")
            if expected not in ("any", kind):
                want = {"int": "a whole number", "bool": "true or false"}.get(expected, f"a {expected} member")
                raise UsageError(f"--set {name}={clipped(value)}: '{name}' is {want} "
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

    # ------------------------------------------------------------------ states
    def setup_state(self, players: int, seed: int = 0) -> State:
        """A new state after the setup block has run, before play starts."""
        if not self.min_players <= players <= self.max_players:
            allowed = (counted(self.min_players, "player")
                       if self.min_players == self.max_players
                       else f"{self.min_players} to {self.max_players} players")
            raise UsageError(f"{self.display_title} is for {allowed}, not {players}")
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
        st.quiet = False
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
        raise NotImplementedError       # installed by compile_game (interpreter/compile/game.py)

    # ------------------------------------------------------------------ running
    def run(self, st: State) -> None:
        """Execute the rules until a decision is pending or the game is over."""
        frames = st.frames
        st.memo.clear()                 # the state may have been edited since the last run
        reset_work()                    # interpreter/run/limits.py counts work between decisions
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
        return RuleError(Diagnostic(span, f"no decision after {STEP_LIMIT:,} steps: the rules seem to loop forever",
                                    "check that every loop moves towards its end"))

    # ------------------------------------------------------------------ results
    def result(self, st: State) -> Result:
        raise NotImplementedError       # installed by the compiler

    def scores(self, st: State) -> tuple:
        """The total per seat (what `result(st).scores` says, without the rest)."""
        raise NotImplementedError       # installed by the compiler

    def failing_invariants(self, st: State) -> list[tuple[str, Span]]:
        raise NotImplementedError       # installed by the compiler

    def measures(self, st: State) -> dict:
        """The rule file's `measure` declarations at this (finished) state: title -> number."""
        raise NotImplementedError       # installed by the compiler


def _base_type(ref) -> str:
    """The innermost type name of a (list) type reference."""
    while hasattr(ref, "element"):
        ref = ref.element
    return ref.name


MAX_SET_DIGITS = 18             # a --set number: far beyond any board, far below a memory bomb


