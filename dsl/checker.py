"""The checker: resolves every name and types every expression of a GameSpec.

It collects all problems (unknown names or attributes, wrong types, wrong arity, misplaced
statements, bad zone options) as diagnostics instead of stopping at the first, and records
the type of each expression for the compiler (`Checker.types`, keyed by node identity).
Declarations, statements and expressions are checked by mixins (dsl/check_declarations.py,
dsl/check_statements.py, dsl/check_expressions.py).
"""
from __future__ import annotations

from .bot_settings import bot_declaration_problem
from .builtins import BUILTINS
from .check_declarations import DeclarationChecks
from .check_expressions import ExpressionChecks
from .check_scope import GLOBALS, Scope
from .check_statements import StatementChecks
from .errors import Diagnostic, Span, did_you_mean, listing
from .spec import GameSpec
from .types import ANY, BOOL, INT, PLAYER, STR, list_of

MAX_PLAYERS = 100               # per-player state is allocated for every seat


BLOCK_NAMES = ("setup", "play")      # the blocks that run as bodies, as procs do


class Checker(DeclarationChecks, StatementChecks, ExpressionChecks):
    """Checks one GameSpec: `check()` returns every problem found, and leaves the type of each
    expression in `types`."""

    def __init__(self, spec: GameSpec):
        self.spec = spec
        self.diagnostics: list[Diagnostic] = []
        self.types: dict[int, str] = {}
        self.param_types: dict[str, str] = {}
        self.fn_returns: dict[str, str] = {}
        self.record_field_types: dict[str, dict] = {}     # record -> {field: type}, see record_fields
        self._inferring: set[str] = set()
        self.unknown_type_refs: set[int] = set()     # ids of type references already reported unknown
        self.players_by_use: set[str] = set()
        self.members = spec.member_enum
        self.compared_with_enum = None  # set while checking the other side of `x == member`

    def check(self) -> list[Diagnostic]:
        spec = self.spec
        if spec.players is None:
            self.error(Span(spec.path, 1, 1, 1, 2), "the game declares no player counts",
                       "add e.g. 'players 2..4'")
        elif spec.players.minimum < 1 or spec.players.maximum < spec.players.minimum:
            self.error(spec.players.span, f"invalid player counts {spec.players.minimum}..{spec.players.maximum}")
        elif spec.players.maximum > MAX_PLAYERS:
            self.error(spec.players.span, f"invalid player counts {spec.players.minimum}..{spec.players.maximum}: "
                       f"at most {MAX_PLAYERS} players", "a table seats at most "
                       f"{MAX_PLAYERS} players (docs/security.md)")
        if spec.play is None:
            self.error(Span(spec.path, 1, 1, 1, 2), "the game has no 'play { ... }' block",
                       "the play block is the game's flow: rounds and turns")
        order, cycle = spec.param_order()
        for name in cycle:
            self.error(spec.params[name].span, f"param '{name}' depends on itself through other params",
                       "params may use each other, but not in a circle")
        for name in order:
            self.param_types[name] = self.expr(spec.params[name].value, Scope(kind="param"))
        self.reserved_names()
        for decl in spec.records.values():
            self.record(decl)
        for decl in spec.zones.values():
            self.zone(decl)
        for decl in spec.vars.values():
            self.var(decl)
        for decl in spec.fns.values():
            self.fn(decl)
        for decl in spec.procs.values():
            self.players_by_use = self.used_as_player(decl.body)
            self.block(decl.body, Scope(self.params_scope(decl.params)))
        if spec.setup is not None:
            self.players_by_use = self.used_as_player(spec.setup.body)
            self.block(spec.setup.body, Scope(kind="setup"))
        if spec.play is not None:
            self.players_by_use = self.used_as_player(spec.play.body)
            self.block(spec.play.body, Scope())
        for decl in (spec.score, spec.tiebreak):
            if decl is not None:
                for line in decl.lines:
                    self.expect(line.value, INT, Scope({decl.var: PLAYER}, kind="fn"), "a score line")
        if spec.heuristic is not None:
            self.expect(spec.heuristic.value, INT, Scope({spec.heuristic.var: PLAYER}, kind="fn"), "a heuristic")
        if spec.heuristic_score is not None:
            # The base's sheet, for the bots only: if the variant's changes leave it meaningless,
            # it is not the variant's error; the bots then judge by the heuristic alone.
            found = len(self.diagnostics)
            decl = spec.heuristic_score
            for line in decl.lines:
                self.expect(line.value, INT, Scope({decl.var: PLAYER}, kind="fn"), "a score line")
            if len(self.diagnostics) > found:
                del self.diagnostics[found:]
                spec.heuristic_score = None
        if spec.brief is not None:
            self.expect(spec.brief.value, STR, Scope({spec.brief.var: PLAYER}, kind="fn"), "a brief")
        if spec.winners is not None:
            self.expect(spec.winners.value, list_of(PLAYER), Scope(kind="fn"), "winners")
        for inv in spec.invariants.values():
            self.expect(inv.value, BOOL, Scope(kind="fn"), "an invariant")
        for decl in spec.measures.values():
            got = self.expr(decl.value, Scope(kind="fn"))
            if got not in (INT, BOOL, ANY):
                self.error(decl.value.span, f"measure \"{decl.title}\" should be a number (int, or bool counted "
                           f"as 1 or 0), not {got}", "measure a count: e.g. size(...) or len(...)")
        for decl in spec.labels.values():
            if decl.kind not in spec.kinds:
                self.error(decl.span, f"unknown component kind '{decl.kind}'",
                           did_you_mean(decl.kind, spec.kinds) or f"kinds: {listing(spec.kinds) or 'none'}")
                continue
            self.expect(decl.value, STR, Scope({decl.var: decl.kind}, kind="fn"), f"the label of {decl.kind}")
        for decl in spec.opponents.values():
            for line in decl.lines:
                self.expect(line.value, INT, Scope(kind="fn"), "an opponent's score line")
        for decl in spec.bots.values():
            problem = bot_declaration_problem(decl.bot, decl.settings)
            if problem is not None:
                self.error(decl.span, *problem)
        return self.diagnostics

    def reserved_names(self) -> None:
        spec = self.spec
        for table in (spec.params, spec.zones, spec.vars, spec.fns, spec.procs, spec.records):
            for name, decl in table.items():
                if name in GLOBALS:
                    self.error(decl.span, f"'{name}' is a built-in name and cannot be redeclared",
                               "choose another name")
                elif name in self.members:
                    self.error(decl.span, f"'{name}' is already a member of enum '{self.members[name]}'",
                               "choose another name")
                elif name in BUILTINS or name == "components":
                    self.error(decl.span, f"'{name}' is a built-in function and cannot be redeclared",
                               "choose another name")
        for name in BLOCK_NAMES:
            if name in spec.procs:      # the compiled bodies share one table: it would run as the block
                self.error(spec.procs[name].span, f"'{name}' is the name of the {name} block and cannot be "
                           "redeclared as a proc", f"choose another name, or write '{name} {{ ... }}'")

    def error(self, span: Span, message: str, hint: str = "") -> str:
        self.diagnostics.append(Diagnostic(span, message, hint))
        return ANY
