"""The checker's expressions: the type of each, recorded for the compiler, and the problems
of names, attributes, indexes, operators and calls (of fns and of built-ins).

A mixin of `Checker` (dsl/checker.py): it uses the checker's `spec`, `types`, `error` and its
declarations (`global_type`, `fn_return`, `type_ref`, `local`).
"""
from __future__ import annotations

from . import ast
from .builtins import ADJACENCIES, ADJACENCY_ARGS, ATTRIBUTE_ARGS, BUILTINS, ArgProblem
from .check_scope import GLOBALS, Scope
from .errors import Span, counted, did_you_mean, listing
from .types import (ANY, BOOL, CELL, INT, NONE, PLACEMENT, PLACEMENT_FIELDS, PLAYER, STR, compatible, element, is_grid, is_list, is_zone,
                    list_of, numeric, unify, unify_all, zone_holds)
from .unparse import expr_text


class ExpressionChecks:
    """Types expressions and checks the arguments of calls."""

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
            self.error(e.span, f"{t} is a zone, not a list", f"iterate over contents({expr_text(e)})")
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
        enum = self.compared_with_enum
        if enum is not None:
            members = self.spec.enums[enum]
            return self.error(e.span, f"unknown name '{e.id}': it is not a member of {enum}",
                              did_you_mean(e.id, members) or f"{enum}'s members: {listing(members)}")
        candidates = list(scope.names) + list(self.spec.params) + list(self.spec.vars) + list(
            self.spec.zones) + list(self.members) + list(GLOBALS)
        if any(e.id in kind.attributes or e.id in (getattr(kind, "cell_attributes", None) or {})
               for kind in self.spec.kinds.values()):
            return self.error(e.span, f"unknown name '{e.id}'", f"'{e.id}' is an attribute: read it as "
                              f"COMPONENT.{e.id}, or name it in quotes, \"{e.id}\", where a built-in takes its name")
        return self.error(e.span, f"unknown name '{e.id}'", did_you_mean(e.id, candidates))

    def expr_Attribute(self, e: ast.Attribute, scope):
        t = self.expr(e.obj, scope)
        if t == ANY:
            if self.is_piece(e.obj):
                self.any_kind_attribute(e)
            return ANY
        if t == CELL:
            if e.name in ("x", "y"):
                return INT
            return self.error(_name_span(e), f"a cell has no attribute '{e.name}'", "cells have x and y")
        if t in self.spec.records:
            fields = self.record_fields(t)
            if e.name not in fields:
                return self.error(_name_span(e), f"unknown field '{e.name}' of record {t}",
                                  did_you_mean(e.name, fields) or f"{t} has: {listing(fields)}")
            return fields[e.name]
        if t == PLACEMENT:
            if e.name == "piece" and len(self.spec.kinds) == 1:
                return next(iter(self.spec.kinds))      # the only kind there is: shown by its label
            if e.name in PLACEMENT_FIELDS:
                return PLACEMENT_FIELDS[e.name]
            return self.error(_name_span(e), f"a placement has no field '{e.name}'",
                              did_you_mean(e.name, PLACEMENT_FIELDS) or
                              f"placements have {', '.join(PLACEMENT_FIELDS)}")
        kind = self.spec.kinds.get(t)
        if kind is None:
            return self.error(_name_span(e), f"{t} has no attributes")
        if e.name not in kind.attributes:
            return self.error(_name_span(e), f"unknown attribute '{e.name}' of {t}",
                              did_you_mean(e.name, kind.attributes) or
                              f"{t} has: {listing(kind.attributes)}")
        return kind.attributes[e.name]

    def is_piece(self, e) -> bool:
        """Whether e reads the piece of a placement (`m.piece`), typed `any` when the game has
        several component kinds."""
        return isinstance(e, ast.Attribute) and e.name == "piece" and self.types.get(id(e.obj)) == PLACEMENT

    def any_kind_attribute(self, e: ast.Attribute) -> None:
        """`m.piece.NAME` with several kinds: NAME must be an attribute of one of them."""
        names = {a for kind in self.spec.kinds.values() for a in kind.attributes}
        if e.name not in names:
            self.error(_name_span(e), f"unknown attribute '{e.name}' of a placement's piece: no component kind has it",
                       did_you_mean(e.name, sorted(names)) or f"attributes: {listing(sorted(names))}")

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
                                  f"kinds: {listing(self.spec.kinds)}")
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
        if e.func == "cell_attr":
            try:
                builtin.typer(types)
            except ArgProblem as problem:
                return self.error(e.args[problem.index].span, f"{e.func}({builtin.params}): {problem.message}")
            return self.cell_attribute_type(e.args[2], types[0])
        if e.func in ADJACENCY_ARGS and len(e.args) > ADJACENCY_ARGS[e.func]:
            arg = e.args[ADJACENCY_ARGS[e.func]]
            if isinstance(arg, ast.Text) and len(arg.parts) == 1 and arg.parts[0] not in ADJACENCIES:
                self.error(arg.span, f"unknown adjacency {arg.parts[0]!r}",
                           did_you_mean(arg.parts[0], ADJACENCIES) or "use \"orthogonal\", \"diagonal\" or \"all\"")
        try:
            return builtin.typer(types)
        except ArgProblem as problem:
            return self.error(e.args[problem.index].span, f"{e.func}({builtin.params}): {problem.message}",
                              self.zone_for_list_hint(e.func, e.args[problem.index], problem.expected))

    def zone_for_list_hint(self, func: str, arg, expected: str) -> str:
        """A zone given where a built-in takes a list: name its contents (or its size); the
        zones of a `per player` zone where it takes one zone: name a seat's."""
        t = self.types.get(id(arg), "")
        if "zone" in expected and is_list(t) and is_zone(element(t)):
            return f"'{expr_text(arg)}' is one zone per player: pick one, e.g. {expr_text(arg)}[p]"
        if not expected.startswith("a list") or not is_zone(t):
            return ""
        if func == "len":
            return f"a zone is not a list: size({expr_text(arg)}) counts its components"
        return f"a zone is not a list: write contents({expr_text(arg)})"

    def check_args(self, node, params, args, scope):
        if len(args) != len(params):
            self.error(node.span, f"'{node.name if hasattr(node, 'name') else node.func}' takes "
                       f"{_arguments(len(params))}, got {len(args)}")
        for param, arg in zip(params, args):
            self.expect(arg, self.type_ref(param.type), scope, f"argument '{param.name}'")
        for arg in args[len(params):]:
            self.expr(arg, scope)

    def cell_attribute_type(self, arg, where: str) -> str:
        """`cell_attr(GRID or PLACEMENT, cell, "NAME")`: the declared type of the attribute or
        cell attribute NAME of the grid's kind (of any kind, for a placement), when the name is
        a literal; a name no such kind has is an error."""
        kinds = [self.spec.kinds[zone_holds(where)]] if is_grid(where) and zone_holds(where) in self.spec.kinds \
            else list(self.spec.kinds.values())
        if not (isinstance(arg, ast.Text) and len(arg.parts) == 1 and isinstance(arg.parts[0], str)) or not kinds:
            return ANY
        name = arg.parts[0]
        found = {({**k.attributes, **getattr(k, "cell_attributes", {})}).get(name) for k in kinds} - {None}
        if not found:
            names = sorted({a for k in kinds for a in [*k.attributes, *getattr(k, "cell_attributes", {})]})
            owner = kinds[0].name if len(kinds) == 1 else "no component kind"
            return self.error(arg.span, f"cell_attr: {owner} has no attribute or cell attribute '{name}'",
                              did_you_mean(name, names) or f"known: {listing(names)}")
        return found.pop() if len(found) == 1 else ANY

    def attribute_names(self, arg, holds: str, func: str) -> None:
        """Attribute names written as string literals (`"north"`, `["north", ...]`) must exist
        (for `groups` and `linked_groups`, a cell attribute of a shape counts)."""
        kind = self.spec.kinds.get(holds)
        if kind is None:
            return
        names = dict(kind.attributes)
        if func in ("groups", "linked_groups"):
            names.update(getattr(kind, "cell_attributes", {}))
        texts = list(arg.items) if isinstance(arg, ast.ListLit) else [arg]
        if func in ("reachable", "linked_groups") and isinstance(arg, ast.ListLit) and len(texts) != 4:
            self.error(arg.span, f"{func} needs 4 side attributes (north, east, south, west), got {len(texts)}")
        for text in texts:
            if isinstance(text, ast.Text) and len(text.parts) == 1 and isinstance(text.parts[0], str) \
                    and text.parts[0] not in names:
                self.error(text.span, f"{func}: {holds} has no attribute '{text.parts[0]}'",
                           did_you_mean(text.parts[0], names) or f"{holds} has: {listing(names)}")

    def expr_RecordLit(self, e: ast.RecordLit, scope):
        """`Name(field: value, ...)`: every field of the record once, each of its type."""
        if e.record not in self.spec.records:
            for f in e.fields:
                self.expr(f.value, scope)
            return self.error(e.span, f"unknown record '{e.record}'",
                              did_you_mean(e.record, self.spec.records) or
                              (f"records: {listing(self.spec.records)}" if self.spec.records
                               else "declare it: record NAME { field: type, ... }"))
        fields = self.record_fields(e.record)
        given = set()
        for f in e.fields:
            if f.name in given:
                self.error(f.span, f"field '{f.name}' of {e.record} is given twice")
                self.expr(f.value, scope)
            elif f.name not in fields:
                self.error(f.span, f"unknown field '{f.name}' of record {e.record}",
                           did_you_mean(f.name, fields) or f"{e.record} has: {listing(fields)}")
                self.expr(f.value, scope)
            else:
                self.expect(f.value, fields[f.name], scope, f"field '{f.name}' of {e.record}")
            given.add(f.name)
        missing = [name for name in fields if name not in given]
        if missing:
            self.error(e.span, f"{e.record}(...) is missing the field{'s' if len(missing) > 1 else ''} "
                       + ", ".join(f"'{m}'" for m in missing),
                       f"a record is built with every field: {e.record}("
                       + ", ".join(f"{n}: ..." for n in fields) + ")")
        return e.record

    def expr_Unary(self, e: ast.Unary, scope):
        if e.op == "not":
            self.expect(e.operand, BOOL, scope, "the operand of 'not'")
            return BOOL
        t = self.expr(e.operand, scope)
        if not numeric(t):
            self.error(e.span, f"'{e.op}' needs a number, not {t}")
        return INT

    def _beside_enum(self, enum, e, scope):
        """The type of `e`, compared with a value of type `enum`: an unknown name there is
        reported as not a member of that enum, with its members listed."""
        if enum not in self.spec.enums or not isinstance(e, ast.Name):
            return self.expr(e, scope)
        self.compared_with_enum = enum
        try:
            return self.expr(e, scope)
        finally:
            self.compared_with_enum = None

    def _quoted_member_hint(self, e: ast.Binary, left: str, right: str) -> str:
        """`colour == "red"`: enum members are names, not strings."""
        for enum, side in ((left, e.right), (right, e.left)):
            value = side.value if isinstance(side, ast.Literal) else (
                side.parts[0] if isinstance(side, ast.Text) and len(side.parts) == 1 else None)
            if enum in self.spec.enums and isinstance(value, str) and value in self.spec.enums[enum]:
                return f"members of {enum} are written without quotes: {value}"
        return ""

    def expr_Binary(self, e: ast.Binary, scope):
        op = e.op
        if op in ("and", "or"):
            self.expect(e.left, BOOL, scope, f"the left side of '{op}'")
            self.expect(e.right, BOOL, scope, f"the right side of '{op}'")
            return BOOL
        left = self.expr(e.left, scope)
        right = self._beside_enum(left if op in ("==", "!=") else None, e.right, scope)
        if op in ("in", "not in"):
            if right != ANY and not is_list(right):
                self.error(e.right.span, f"'{op}' needs a list on the right, not {right}")
            elif not compatible(element(right), left):
                self.error(e.span, f"a {left} is never in a {right}")
            return BOOL
        if op in ("==", "!="):
            if NONE in (left, right) and (is_zone(left) or is_zone(right)):
                zone = e.left if is_zone(left) else e.right
                self.error(e.span, f"comparing a zone with none is always {'false' if op == '==' else 'true'}: "
                           "a zone is never none", f"ask {'' if op == '==' else 'not '}empty({expr_text(zone)}) "
                           f"whether it holds {'nothing' if op == '==' else 'anything'}")
            elif not (compatible(left, right) or compatible(right, left)):
                self.error(e.span, f"comparing {left} with {right} is always {'false' if op == '==' else 'true'}",
                           self._quoted_member_hint(e, left, right))
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
        t = unify_all([NONE] + [self.expr(item, scope) for item in e.items])
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
        results = [NONE]
        for key, value in e.arms:
            k = self.expr(key, scope)
            if not compatible(subject, k):
                self.error(key.span, f"case {subject} cannot be {k}")
            results.append(self.expr(value, scope))
        if e.default is not None:
            results.append(self.expr(e.default, scope))
        return unify_all(results)

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


def _arguments(n: int) -> str:
    return counted(n, "argument")


def _name_span(e: ast.Attribute) -> Span:
    """The span of the attribute name after the dot (the end of the expression)."""
    span = e.span
    if span.end_line <= 0 or span.end_column - len(e.name) < 1:
        return span
    return Span(span.file, span.end_line, span.end_column - len(e.name), span.end_line, span.end_column)
