"""The checker: resolves every name and types every expression of a GameSpec.

It collects all problems (unknown names or attributes, wrong types, wrong arity, misplaced
statements, bad zone options) as diagnostics instead of stopping at the first, and records
the type of each expression for the compiler (`Checker.types`, keyed by node identity).
"""
from __future__ import annotations

from dataclasses import fields

from . import ast
from .bot_settings import bot_declaration_problem
from .builtins import ADJACENCIES, ATTRIBUTE_ARGS, BUILTINS, ArgProblem
from .errors import Diagnostic, Span, did_you_mean
from .spec import GameSpec
from .types import (ANY, BOOL, CELL, INT, NONE, PLAYER, SCALARS, STR, compatible, element, is_grid,
                    is_list, is_zone, list_of, numeric, unify, zone_holds)

ZONE_KINDS = ("stack", "pile", "grid")
VISIBILITIES = ("public", "hidden", "owner", "top")
ZONE_OPTIONS = {"stack": VISIBILITIES, "pile": VISIBILITIES,
                "grid": VISIBILITIES + ("stacked", "extent", "size", "blocked")}
GLOBALS = {"players": list_of(PLAYER), "player_count": INT, "current": PLAYER, "supply": "zone of any"}


class Scope:
    """Local names of a function or procedure body; blocks nest by copying."""

    def __init__(self, names: dict | None = None, loops: int = 0, kind: str = "proc"):
        self.names = dict(names or {})
        self.loops = loops
        self.kind = kind

    def child(self, loop: bool = False) -> "Scope":
        return Scope(self.names, self.loops + (1 if loop else 0), self.kind)


MAX_PLAYERS = 100               # per-player state is allocated for every seat


class Checker:
    def __init__(self, spec: GameSpec):
        self.spec = spec
        self.diagnostics: list[Diagnostic] = []
        self.types: dict[int, str] = {}
        self.param_types: dict[str, str] = {}
        self.fn_returns: dict[str, str] = {}
        self._inferring: set[str] = set()
        self.players_by_use: set[str] = set()
        self.members = spec.member_enum

    # ------------------------------------------------------------------ entry point
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
        if spec.brief is not None:
            self.expect(spec.brief.value, STR, Scope({spec.brief.var: PLAYER}, kind="fn"), "a brief")
        if spec.winners is not None:
            self.expect(spec.winners.value, list_of(PLAYER), Scope(kind="fn"), "winners")
        for inv in spec.invariants.values():
            self.expect(inv.value, BOOL, Scope(kind="fn"), "an invariant")
        for decl in spec.labels.values():
            if decl.kind not in spec.kinds:
                self.error(decl.span, f"unknown component kind '{decl.kind}'",
                           did_you_mean(decl.kind, spec.kinds) or f"kinds: {', '.join(spec.kinds) or 'none'}")
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
        for table in (spec.params, spec.zones, spec.vars, spec.fns, spec.procs):
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

    def error(self, span: Span, message: str, hint: str = "") -> str:
        self.diagnostics.append(Diagnostic(span, message, hint))
        return ANY

    # ------------------------------------------------------------------ declarations
    def type_ref(self, ref) -> str:
        if isinstance(ref, ast.ListTypeRef):
            return list_of(self.type_ref(ref.element))
        known = list(SCALARS) + list(self.spec.enums) + list(self.spec.kinds)
        if ref.name in known and ref.name not in ("none", "any"):
            return ref.name
        return self.error(ref.span, f"unknown type '{ref.name}'",
                          did_you_mean(ref.name, known) or "types: int, bool, str, player, cell, an enum, "
                          "a component kind, or 'list of' a type")

    def zone_type(self, decl: ast.ZoneDecl) -> str:
        holds = decl.holds or (next(iter(self.spec.kinds)) if len(self.spec.kinds) == 1 else ANY)
        base = "grid" if decl.kind == "grid" else "zone"
        t = f"{base} of {holds}"
        return list_of(t) if any(o.name == "per player" for o in decl.options) else t

    def zone(self, decl: ast.ZoneDecl) -> None:
        if decl.kind not in ZONE_KINDS:
            self.error(decl.kind_span, f"unknown zone kind '{decl.kind}'",
                       did_you_mean(decl.kind, ZONE_KINDS) or "zone kinds: stack, pile, grid")
            return
        if decl.holds is not None and decl.holds not in self.spec.kinds:
            self.error(decl.span, f"unknown component kind '{decl.holds}'",
                       did_you_mean(decl.holds, self.spec.kinds))
        elif decl.holds is None and len(self.spec.kinds) > 1:
            self.error(decl.span, f"zone '{decl.name}' must say which components it holds",
                       f"write 'zone {decl.name}: {decl.kind} of KIND' with one of {', '.join(self.spec.kinds)}")
        allowed = ZONE_OPTIONS[decl.kind]
        shapes = {"extent": 2, "size": 2, "blocked": 2}
        visibility = [o for o in decl.options if o.name in VISIBILITIES]
        if len(visibility) > 1:
            self.error(visibility[1].span, "a zone has one visibility")
        for option in decl.options:
            if option.name == "per player":
                continue
            if option.name not in allowed:
                self.error(option.span, f"unknown option '{option.name}' for a {decl.kind}",
                           did_you_mean(option.name, allowed) or f"options: {', '.join(allowed)}, per player")
            elif len(option.values) != shapes.get(option.name, 0):
                want = {"extent": "'extent W x H'", "size": "'size W x H'", "blocked": "'blocked (X, Y)'"}
                self.error(option.span, f"option '{option.name}' takes "
                           + (want.get(option.name) or "no value"))
            for value in dict.fromkeys(option.values):
                if isinstance(value, str) and self.param_types.get(value) not in (INT, ANY):
                    self.error(option.span, f"'{value}' in option '{option.name}' is not an int param",
                               did_you_mean(value, self.spec.params) or "a zone's shape takes whole numbers or int params")
        names = {o.name for o in decl.options}
        if "extent" in names and "size" in names:
            self.error(decl.span, "a grid has either a fixed 'size' or a floating 'extent', not both")
        if "blocked" in names and "size" not in names:
            self.error(decl.span, "blocked cells need a grid of fixed 'size'")

    def var(self, decl: ast.VarDecl) -> None:
        t = self.type_ref(decl.type)
        if decl.per is not None and decl.per != "player" and decl.per not in self.spec.kinds:
            self.error(decl.span, f"'per {decl.per}': expected 'per player' or 'per' a component kind",
                       did_you_mean(decl.per, ["player"] + list(self.spec.kinds)))
        if decl.init is not None:
            scope = Scope({"p": PLAYER} if decl.per == "player" else {}, kind="param")
            self.expect(decl.init, t, scope, f"the initial value of '{decl.name}'")

    def params_scope(self, params) -> dict:
        names = {}
        for p in params:
            if p.name in names:
                self.error(p.span, f"parameter '{p.name}' is declared twice")
            names[p.name] = self.type_ref(p.type)
        return names

    def fn(self, decl: ast.FnDecl) -> None:
        result = self.fn_return(decl.name)
        if decl.returns is not None:
            declared = self.type_ref(decl.returns)
            body = self.types.get(id(decl.body), ANY)
            if not compatible(declared, body):
                self.error(decl.body.span, f"'{decl.name}' should return {declared}, but its body is {body}")
        return result

    def fn_return(self, name: str) -> str:
        if name in self.fn_returns:
            return self.fn_returns[name]
        decl = self.spec.fns[name]
        if name in self._inferring:
            return self.type_ref(decl.returns) if decl.returns else ANY
        self._inferring.add(name)
        body = self.expr(decl.body, Scope(self.params_scope(decl.params), kind="fn"))
        self._inferring.discard(name)
        result = self.type_ref(decl.returns) if decl.returns else body
        self.fn_returns[name] = result
        return result

    def params_used_by(self, fn_name: str) -> set:
        """The params a fn reads, directly or through the fns it calls."""
        used, seen, todo = set(), set(), [fn_name]
        while todo:
            decl = self.spec.fns.get(todo.pop())
            if decl is None or decl.name in seen:
                continue
            seen.add(decl.name)
            local = {p.name for p in decl.params}
            for node in _walk(decl.body):
                if isinstance(node, ast.ListComp):
                    local.update(c[1] for c in node.all_clauses() if c[0] == "for")
                elif isinstance(node, ast.LetIn):
                    local.add(node.name)
                elif isinstance(node, ast.Name) and node.id in self.spec.params and node.id not in local:
                    used.add(node.id)
                elif isinstance(node, ast.Call):
                    todo.append(node.func)
        return used

    # ------------------------------------------------------------------ statements
    def block(self, stmts, scope: Scope) -> None:
        for stmt in stmts:
            self.stmt(stmt, scope)

    def stmt(self, s, scope: Scope) -> None:
        method = getattr(self, "stmt_" + type(s).__name__)
        method(s, scope)

    def stmt_Let(self, s: ast.Let, scope: Scope):
        scope.names[s.name] = self.local(s, scope)

    def used_as_player(self, body) -> set:
        """Names a body uses as a player: the player of a turn, a chooser, next(NAME), an
        argument for a player parameter, or the value of a player var. A `let` of an int
        that the body uses so is typed player (so `let p = 0` logs "Player 1")."""
        names = set()

        def name(e):
            if isinstance(e, ast.Name):
                names.add(e.id)
        for node in _walk(body):
            if isinstance(node, ast.Turn):
                name(node.player)
            elif isinstance(node, ast.Choose) and node.by is not None:
                name(node.by)
            elif isinstance(node, (ast.Call, ast.CallStmt)):
                func = node.func if isinstance(node, ast.Call) else node.name
                if func == "next" and node.args:
                    name(node.args[0])
                decl = self.spec.fns.get(func) or self.spec.procs.get(func)
                for param, arg in zip(decl.params if decl else (), node.args):
                    if isinstance(param.type, ast.TypeRef) and param.type.name == PLAYER:
                        name(arg)
            elif isinstance(node, ast.Assign) and node.index is None and node.name in self.spec.vars:
                var_type = self.spec.vars[node.name].type
                if isinstance(var_type, ast.TypeRef) and var_type.name == PLAYER:
                    name(node.value)
        return names

    def local(self, s, scope: Scope) -> str:
        """The type of a `let` (a statement or a fn body's): its annotation, else its value's."""
        if s.name in scope.names:
            self.error(s.span, f"'{s.name}' is already defined here", f"assign it with '{s.name} = ...'")
        elif self.global_type(s.name) is not None:
            self.error(s.span, f"'{s.name}' would hide a declaration of the game", "choose another name")
        if s.type is not None:
            declared = self.type_ref(s.type)
            self.expect(s.value, declared, scope, f"the value of '{s.name}'")
            return declared
        value = self.expr(s.value, scope)
        if value == INT and s.name in self.players_by_use:
            return PLAYER
        return value

    def expr_LetIn(self, e: ast.LetIn, scope: Scope):
        inner = scope.child()
        inner.names[e.name] = self.local(e, scope)
        return self.expr(e.body, inner)

    def expr_Slice(self, e: ast.Slice, scope: Scope):
        t = self.expr(e.obj, scope)
        for bound in (e.start, e.stop):
            if bound is not None:
                self.expect(bound, INT, scope, "a slice bound")
        if t != ANY and not is_list(t):
            return self.error(e.obj.span, f"{t} cannot be sliced", "slices take lists: items[start:stop]")
        return t

    def stmt_Assign(self, s: ast.Assign, scope: Scope):
        if s.name in scope.names:
            target = scope.names[s.name]
        elif s.name in self.spec.vars:
            decl = self.spec.vars[s.name]
            target = self.type_ref(decl.type)
            if decl.per is not None:
                target = list_of(target)
        else:
            what = self.describe(s.name)
            self.error(s.span, f"cannot assign to {what or repr(s.name)}",
                       "declare a 'var' or a local with 'let'" if not what else "")
            self.expr(s.value, scope)
            return
        if s.index is not None:
            self.index_type(s.index, scope, s.index.span)
            if not is_list(target):
                self.error(s.span, f"'{s.name}' is {target}, not indexable")
            target = element(target)
        value = self.expr(s.value, scope)
        if s.op != "=" and not numeric(target):
            self.error(s.span, f"'{s.op}' needs a number, '{s.name}' is {target}")
        elif not compatible(target, value):
            shown = f"{s.name}[...]" if s.index is not None else s.name
            self.error(s.value.span, f"cannot assign {value} to '{shown}' of type {target}")

    def stmt_CallStmt(self, s: ast.CallStmt, scope: Scope):
        if s.name in self.spec.procs:
            decl = self.spec.procs[s.name]
            self.check_args(s, decl.params, s.args, scope)
        elif s.name in self.spec.fns or s.name in BUILTINS:
            self.error(s.span, f"'{s.name}' is a function: its value would be unused",
                       "use it in an expression, e.g. 'let x = ...'")
        else:
            self.error(s.span, f"unknown procedure '{s.name}'", did_you_mean(s.name, self.spec.procs))
            for a in s.args:
                self.expr(a, scope)

    def check_args(self, node, params, args, scope):
        if len(args) != len(params):
            self.error(node.span, f"'{node.name if hasattr(node, 'name') else node.func}' takes "
                       f"{_arguments(len(params))}, got {len(args)}")
        for param, arg in zip(params, args):
            self.expect(arg, self.type_ref(param.type), scope, f"argument '{param.name}'")
        for arg in args[len(params):]:
            self.expr(arg, scope)

    def stmt_If(self, s: ast.If, scope: Scope):
        for cond, body in s.branches:
            self.expect(cond, BOOL, scope, "a condition")
            self.block(body, scope.child())
        if s.orelse is not None:
            self.block(s.orelse, scope.child())

    def stmt_For(self, s: ast.For, scope: Scope):
        inner = scope.child(loop=True)
        inner.names[s.var] = self.iterable(s.iterable, scope)
        if s.condition is not None:
            self.expect(s.condition, BOOL, inner, "a condition")
        self.block(s.body, inner)

    def stmt_While(self, s: ast.While, scope: Scope):
        self.expect(s.condition, BOOL, scope, "a condition")
        self.block(s.body, scope.child(loop=True))

    def stmt_Turn(self, s: ast.Turn, scope: Scope):
        self.expect(s.player, PLAYER, scope, "the player of a turn")
        self.block(s.body, scope.child())

    def stmt_Move(self, s: ast.Move, scope: Scope):
        what = self.expr(s.what, scope)
        dest = self.expr(s.dest, scope)
        if dest != ANY and not is_zone(dest):
            per_player = is_list(dest) and is_zone(element(dest))
            self.error(s.dest.span, f"a move goes to a zone, not to {dest}",
                       f"{s_name(s.dest)} is one zone per player: pick one, e.g. {s_name(s.dest)[1:-1]}[p]"
                       if per_player and isinstance(s.dest, ast.Name) else "")
            return
        holds = zone_holds(dest)
        moved = element(what) if is_list(what) else what
        if moved != ANY and moved not in self.spec.kinds:
            self.error(s.what.span, f"only components move, not {what}")
        elif holds != ANY and moved != ANY and moved != holds:
            self.error(s.what.span, f"{s_name(s.dest)} holds {holds}, not {moved}")
        if is_grid(dest) and s.at is None:
            self.error(s.span, "a move to a grid needs a cell", "add 'at CELL'")
        elif s.at is not None:
            if dest != ANY and not is_grid(dest):
                self.error(s.at.span, "'at' is only for grids")
            self.expect(s.at, CELL, scope, "the cell of a move")
        if s.position == "bottom" and is_grid(dest):
            self.error(s.span, "'bottom of' is for stacks and piles")

    def stmt_Shuffle(self, s: ast.Shuffle, scope: Scope):
        t = self.expr(s.zone, scope)
        if t != ANY and (not is_zone(t) or is_grid(t)):
            self.error(s.zone.span, f"shuffle needs a stack or pile, got {t}")

    def stmt_Choose(self, s: ast.Choose, scope: Scope):
        if scope.kind == "setup":
            self.error(s.span, "setup runs without choices", "make the choice at the start of 'play'")
        outer = scope
        if s.each is not None:          # `by each P in LIST`: P names each chooser in turn
            self.expect(s.by, list_of(PLAYER), scope, "the players of a simultaneous choice")
            if s.each in scope.names or s.each == s.var:
                self.error(s.span, f"'{s.each}' is already defined here")
            scope = scope.child()
            scope.names[s.each] = PLAYER
        source = self.iterable(s.source, scope)
        if s.var in scope.names:
            self.error(s.span, f"'{s.var}' is already defined here")
        if s.by is not None and s.each is None:
            self.expect(s.by, PLAYER, scope, "the chooser")
        if s.prompt is not None:        # asked before the choice: it cannot show the chosen value
            self.expr(s.prompt, scope)
        scope.names[s.var] = source
        if s.label is not None:
            self.expr(s.label, scope)
        if s.each is not None:          # after it: every choice, as a list by seat
            outer.names[s.var] = list_of(source)

    def stmt_Break(self, s, scope: Scope):
        if not scope.loops:
            self.error(s.span, "'break' outside a loop")

    stmt_Continue = stmt_Break

    def stmt_Return(self, s, scope: Scope):
        pass

    def stmt_Log(self, s: ast.Log, scope: Scope):
        self.expr(s.text, scope)

    stmt_Fail = stmt_Log
    stmt_Show = stmt_Log

    def stmt_Finish(self, s, scope: Scope):
        if s.name is not None:
            self.ending_name(s)

    def stmt_Fallback(self, s, scope: Scope):
        self.ending_name(s)

    def ending_name(self, s) -> None:
        if not s.name.strip() or "{" in s.name:
            self.error(s.span, "the name of an ending or a fallback is a plain, non-empty text",
                       'simulate counts games by this name: write it without placeholders, e.g. "stuck round"')

    # ------------------------------------------------------------------ expressions
    def expect(self, e, want: str, scope: Scope, what: str) -> str:
        got = self.expr(e, scope)
        if not compatible(want, got):
            self.error(e.span, f"{what} should be {want}, not {got}")
        return got

    def iterable(self, e, scope: Scope) -> str:
        t = self.expr(e, scope)
        if t == ANY:
            return ANY
        if is_zone(t):
            self.error(e.span, f"{t} is a zone, not a list", "iterate over 'contents(...)'")
            return ANY
        if not is_list(t):
            self.error(e.span, f"expected a list, got {t}")
            return ANY
        return element(t)

    def expr(self, e, scope: Scope) -> str:
        t = getattr(self, "expr_" + type(e).__name__)(e, scope)
        self.types[id(e)] = t
        return t

    def expr_Literal(self, e: ast.Literal, scope):
        v = e.value
        return BOOL if isinstance(v, bool) else INT if isinstance(v, int) else STR if isinstance(v, str) else NONE

    def expr_Text(self, e: ast.Text, scope):
        for part in e.parts:
            if not isinstance(part, str):
                self.expr(part, scope)
        return STR

    def global_type(self, name: str) -> str | None:
        spec = self.spec
        if name in self.param_types:
            return self.param_types[name]
        if name in spec.params:
            return ANY      # used before its declaration was typed
        if name in spec.vars:
            decl = spec.vars[name]
            t = self.type_ref(decl.type)
            return list_of(t) if decl.per is not None else t
        if name in spec.zones:
            return self.zone_type(spec.zones[name])
        if name in self.members:
            return self.members[name]
        if name in GLOBALS:
            return GLOBALS[name]
        return None

    def describe(self, name: str) -> str:
        spec = self.spec
        for table, what in ((spec.params, "param"), (spec.zones, "zone"), (spec.fns, "function"),
                            (spec.procs, "procedure"), (self.members, "enum member"), (GLOBALS, "built-in name")):
            if name in table:
                return f"{what} '{name}'"
        return ""

    def expr_Name(self, e: ast.Name, scope: Scope):
        if e.id in scope.names:
            return scope.names[e.id]
        if scope.kind == "param" and (e.id in self.spec.vars or e.id == "current"):
            return self.error(e.span, f"'{e.id}' is not known before the game starts",
                              "params and initial values may use player_count, players and other params")
        if scope.kind == "param" and e.id in self.spec.params and e.id not in self.param_types:
            return self.error(e.span, f"param '{e.id}' is used before it is declared",
                              "params are computed in order: declare it earlier")
        t = self.global_type(e.id)
        if t is not None:
            return t
        if e.id in self.spec.kinds:
            return self.error(e.span, f"'{e.id}' is a component kind", f"use components({e.id})")
        if e.id in self.spec.fns or e.id in self.spec.procs:
            return self.error(e.span, f"'{e.id}' must be called", f"write {e.id}(...)")
        candidates = list(scope.names) + list(self.spec.params) + list(self.spec.vars) + list(
            self.spec.zones) + list(self.members) + list(GLOBALS)
        return self.error(e.span, f"unknown name '{e.id}'", did_you_mean(e.id, candidates))

    def expr_Attribute(self, e: ast.Attribute, scope):
        t = self.expr(e.obj, scope)
        if t == ANY:
            return ANY
        if t == CELL:
            if e.name in ("x", "y"):
                return INT
            return self.error(_name_span(e), f"a cell has no attribute '{e.name}'", "cells have x and y")
        kind = self.spec.kinds.get(t)
        if kind is None:
            return self.error(_name_span(e), f"{t} has no attributes")
        if e.name not in kind.attributes:
            return self.error(_name_span(e), f"unknown attribute '{e.name}' of {t}",
                              did_you_mean(e.name, kind.attributes) or
                              f"{t} has: {', '.join(kind.attributes)}")
        return kind.attributes[e.name]

    def index_type(self, e, scope, span):
        t = self.expr(e, scope)
        if t not in (INT, PLAYER, ANY) and t not in self.spec.kinds:
            self.error(span, f"an index must be an int, a player or a component, not {t}")

    def expr_Index(self, e: ast.Index, scope):
        t = self.expr(e.obj, scope)
        self.index_type(e.index, scope, e.index.span)
        if t == ANY:
            return ANY
        if not is_list(t):
            return self.error(e.span, f"{t} cannot be indexed")
        return element(t)

    def expr_Call(self, e: ast.Call, scope: Scope):
        if e.func == "components":
            if len(e.args) != 1 or not isinstance(e.args[0], ast.Name) or e.args[0].id not in self.spec.kinds:
                return self.error(e.span, "components(KIND) takes one component kind",
                                  f"kinds: {', '.join(self.spec.kinds)}")
            return list_of(e.args[0].id)
        if e.func in self.spec.fns:
            decl = self.spec.fns[e.func]
            self.check_args(e, decl.params, e.args, scope)
            if scope.kind == "param":
                for name in sorted(self.params_used_by(e.func)):
                    if name not in self.param_types:
                        self.error(e.span, f"'{e.func}' uses param '{name}', which is not computed yet",
                                   "params are computed in order: declare it before this line")
            return self.fn_return(e.func)
        if e.func in self.spec.procs:
            for a in e.args:
                self.expr(a, scope)
            return self.error(e.span, f"'{e.func}' is a procedure: call it as a statement")
        builtin = BUILTINS.get(e.func)
        if builtin is None:
            for a in e.args:
                self.expr(a, scope)
            return self.error(e.span, f"unknown function '{e.func}'",
                              did_you_mean(e.func, list(self.spec.fns) + list(BUILTINS) + ["components"]))
        types = [self.expr(a, scope) for a in e.args]
        if not builtin.min_args <= len(types) <= builtin.max_args:
            want = (_arguments(builtin.min_args) if builtin.min_args == builtin.max_args
                    else f"{builtin.min_args} to {builtin.max_args} arguments")
            return self.error(e.span, f"{e.func}({builtin.params}) takes {want}, got {len(types)}")
        if e.func == "details" and types[0] != ANY and types[0] not in self.spec.kinds:
            return self.error(e.args[0].span, f"details(component): expected a component, got {types[0]}")
        if e.func in ATTRIBUTE_ARGS and len(e.args) > ATTRIBUTE_ARGS[e.func] and is_grid(types[0]):
            self.attribute_names(e.args[ATTRIBUTE_ARGS[e.func]], zone_holds(types[0]), e.func)
        if e.func in ("frontier", "neighbours") and len(e.args) == 2:
            arg = e.args[1]
            if isinstance(arg, ast.Text) and len(arg.parts) == 1 and arg.parts[0] not in ADJACENCIES:
                self.error(arg.span, f"unknown adjacency {arg.parts[0]!r}",
                           did_you_mean(arg.parts[0], ADJACENCIES) or "use \"orthogonal\", \"diagonal\" or \"all\"")
        try:
            return builtin.typer(types)
        except ArgProblem as problem:
            return self.error(e.args[problem.index].span, f"{e.func}({builtin.params}): {problem.message}")

    def attribute_names(self, arg, holds: str, func: str) -> None:
        """Attribute names written as string literals (`"north"`, `["north", ...]`) must exist."""
        kind = self.spec.kinds.get(holds)
        if kind is None:
            return
        texts = list(arg.items) if isinstance(arg, ast.ListLit) else [arg]
        if func == "reachable" and isinstance(arg, ast.ListLit) and len(texts) != 4:
            self.error(arg.span, f"reachable needs 4 side attributes (north, east, south, west), got {len(texts)}")
        for text in texts:
            if isinstance(text, ast.Text) and len(text.parts) == 1 and isinstance(text.parts[0], str) \
                    and text.parts[0] not in kind.attributes:
                self.error(text.span, f"{func}: {holds} has no attribute '{text.parts[0]}'",
                           did_you_mean(text.parts[0], kind.attributes) or f"{holds} has: {', '.join(kind.attributes)}")

    def expr_Unary(self, e: ast.Unary, scope):
        if e.op == "not":
            self.expect(e.operand, BOOL, scope, "the operand of 'not'")
            return BOOL
        t = self.expr(e.operand, scope)
        if not numeric(t):
            self.error(e.span, f"'{e.op}' needs a number, not {t}")
        return INT

    def expr_Binary(self, e: ast.Binary, scope):
        op = e.op
        if op in ("and", "or"):
            self.expect(e.left, BOOL, scope, f"the left side of '{op}'")
            self.expect(e.right, BOOL, scope, f"the right side of '{op}'")
            return BOOL
        left, right = self.expr(e.left, scope), self.expr(e.right, scope)
        if op in ("in", "not in"):
            if right != ANY and not is_list(right):
                self.error(e.right.span, f"'{op}' needs a list on the right, not {right}")
            elif not compatible(element(right), left):
                self.error(e.span, f"a {left} is never in a {right}")
            return BOOL
        if op in ("==", "!="):
            if not (compatible(left, right) or compatible(right, left)):
                self.error(e.span, f"comparing {left} with {right} is always {'false' if op == '==' else 'true'}")
            return BOOL
        if op in ("<", "<=", ">", ">="):
            for side, t in ((e.left, left), (e.right, right)):
                if not numeric(t):
                    self.error(side.span, f"'{op}' compares numbers, not {t}")
            return BOOL
        if op == "+" and (is_list(left) or is_list(right)):
            if not (is_list(left) and is_list(right)) and ANY not in (left, right):
                return self.error(e.span, f"cannot add {left} and {right}", "wrap a single item in [ ]")
            return unify(left, right)
        if op == "+" and STR in (left, right):
            if {left, right} <= {STR, ANY}:
                return STR
            return self.error(e.span, f"cannot add {left} and {right}",
                              "put the value in a placeholder instead: \"text {value}\"")
        for side, t in ((e.left, left), (e.right, right)):
            if not numeric(t):
                self.error(side.span, f"'{op}' needs numbers, not {t}")
        return INT

    def expr_Conditional(self, e: ast.Conditional, scope):
        self.expect(e.test, BOOL, scope, "a condition")
        return unify(self.expr(e.then, scope), self.expr(e.orelse, scope))

    def expr_CellLit(self, e: ast.CellLit, scope):
        self.expect(e.x, INT, scope, "a column")
        self.expect(e.y, INT, scope, "a row")
        return CELL

    def expr_ListLit(self, e: ast.ListLit, scope):
        t = NONE
        for item in e.items:
            t = unify(t, self.expr(item, scope))
        return list_of(ANY if t == NONE else t)

    def expr_ListComp(self, e: ast.ListComp, scope: Scope):
        inner = scope.child()
        for clause in e.all_clauses():
            if clause[0] == "for":
                inner.names[clause[1]] = self.iterable(clause[2], inner)
            else:
                self.expect(clause[1], BOOL, inner, "a condition")
        return list_of(self.expr(e.element, inner))

    def expr_Case(self, e: ast.Case, scope):
        subject = self.expr(e.subject, scope)
        result = NONE
        for key, value in e.arms:
            k = self.expr(key, scope)
            if not compatible(subject, k):
                self.error(key.span, f"case {subject} cannot be {k}")
            result = unify(result, self.expr(value, scope))
        if e.default is not None:
            result = unify(result, self.expr(e.default, scope))
        return result


def s_name(e) -> str:
    return f"'{e.id}'" if isinstance(e, ast.Name) else "this zone"


def _arguments(n: int) -> str:
    return f"{n} argument" + ("" if n == 1 else "s")


def _name_span(e: ast.Attribute) -> Span:
    """The span of the attribute name after the dot (the end of the expression)."""
    span = e.span
    if span.end_line <= 0 or span.end_column - len(e.name) < 1:
        return span
    return Span(span.file, span.end_line, span.end_column - len(e.name), span.end_line, span.end_column)


def _walk(root):
    """Every AST node under root, iteratively."""
    stack = [root]
    while stack:
        obj = stack.pop()
        if isinstance(obj, ast.Node):
            yield obj
            stack.extend(getattr(obj, f.name) for f in fields(obj) if f.name != "span")
        elif isinstance(obj, tuple):
            stack.extend(obj)
