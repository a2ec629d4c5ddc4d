"""The checker's statements: blocks of a play, setup or procedure body, each statement checked
in its scope (assignments, calls of procedures, moves, choices, loops, endings).

A mixin of `Checker` (dsl/checker.py): it uses the checker's `spec`, `error`, `expr` and `expect`.
"""
from __future__ import annotations

from . import ast
from .ast_walk import walk
from .builtins import BUILTINS
from .check_scope import Scope
from .errors import did_you_mean
from .types import (ANY, BOOL, CELL, INT, PLAYER, compatible, element, is_grid, is_list, is_zone, list_of, numeric,
                    zone_holds)


class StatementChecks:
    """Checks statements, and types the locals they declare."""

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
        for node in walk(body):
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
        if s.turn is not None:
            self.expect(s.turn, INT, scope, "the orientation of a move ('turned')")
            if is_list(what):
                self.error(s.turn.span, "'turned' lays one component", "move the pieces one at a time")
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
        if s.var in scope.names and s.var != s.each:     # (`by each X` of the same name: said above)
            self.error(s.span, f"'{s.var}' is already defined here")
        if s.by is not None and s.each is None:
            self.expect(s.by, PLAYER, scope, "the chooser")
        if s.prompt is not None:        # asked before the choice: it cannot show the chosen value
            self.expr(s.prompt, scope)
        scope.names[s.var] = source
        if s.label is not None:
            self.expr(s.label, scope)
        if s.ident is not None:
            self.expr(s.ident, scope)
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


def s_name(e) -> str:
    return f"'{e.id}'" if isinstance(e, ast.Name) else "this zone"
