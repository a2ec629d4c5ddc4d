"""The compiler's expressions: `e_<Node>` returns the Python source of an expression of that
AST node kind, with the special forms that make generated code fast (inlined small fns,
comprehensions filtered by a table or by one `fits` call, checked growth of numbers, lists
and texts). A mixin of `Compiler` (interpreter/compile/compiler.py).
"""
from __future__ import annotations

from ...dsl import ast
from ...dsl.types import ANY, BOOL, CELL, INT, STR, PLACEMENT, PLACEMENT_FIELDS, PLAYER, element, is_grid, is_list
from .analysis import draws_random
from ..run.indexes import row_major
from .pieces import Env, repeatable, simple

_ARITHMETIC = {"+", "-", "*", "==", "!=", "<", "<=", ">", ">="}
# Small fns inlined into small fns, at most this deep: each level may copy the one below
# several times, so the depth bounds the generated code (a chain of fns that each call the
# next twice would otherwise double it per level).
MAX_INLINE_DEPTH = 5
# Operators checked when it runs if the checker could not type an operand (runtime._untyped).
_UNTYPED_CHECKED = {"+", "-", "*", "//", "%", "<", "<=", ">", ">="}
_LIST_BUILDERS = {"all", "any", "sum", "count", "max", "min"}
# Element types whose equality is a set's (`x in LIST` may ask a set built from the list).
_HASHABLE = {INT, CELL, PLAYER, STR, BOOL}


class ExpressionCompiler:
    """Expressions to Python source (see the module docstring)."""

    def expr(self, e, env: Env) -> str:
        source = getattr(self, "e_" + type(e).__name__)(e, env)
        kept = self.kept.get(id(e))     # a comprehension's invariant part (analysis.invariants)
        return source if kept is None else f"({kept} if {kept} is not _MISSING else ({kept} := {source}))"

    def constant(self, e, env: Env | None = None):
        """(True, value) for an expression known at compile time, else (False, None)."""
        if isinstance(e, ast.Literal):
            return True, e.value
        if isinstance(e, ast.Name) and (env is None or e.id not in env.names):
            if e.id in self.spec.zones and isinstance(self.game.zone_keys[e.id], str):
                return True, self.game.zone_keys[e.id]
            if e.id in self.members and e.id not in self.spec.params and e.id not in self.spec.vars:
                return True, e.id
        if isinstance(e, ast.Text) and all(isinstance(p, str) for p in e.parts):
            return True, "".join(e.parts)
        if isinstance(e, ast.ListLit):
            values = [self.constant(i, env) for i in e.items]
            if all(known for known, _ in values):
                return True, [v for _, v in values]
        if isinstance(e, ast.CellLit):
            (kx, x), (ky, y) = self.constant(e.x, env), self.constant(e.y, env)
            if kx and ky:
                return True, (x, y)
        return False, None

    def literal(self, value) -> str:
        if value is None or type(value) in (int, bool, str):
            return repr(value)
        if type(value) is tuple and all(type(v) is int for v in value):
            return repr(value)
        return self.module.const(value)

    def e_Literal(self, e, env):
        return self.literal(e.value)

    def e_Text(self, e, env):
        return self.text(e, env)

    def e_Name(self, e: ast.Name, env: Env):
        name = e.id
        if name in env.names:
            return env.names[name]
        if name in self.spec.params and self.hoisted is not None:
            return self.hoisted.setdefault(name, f"_p_{name}")     # read once, where the fn starts
        if name in self.spec.params or name in self.spec.vars:
            return f"st.vars[{name!r}]"
        if name in self.spec.zones:
            keys = self.game.zone_keys[name]
            if isinstance(keys, str):
                return repr(keys)
            by_count = [keys[:n] for n in range(self.game.max_players + 1)]    # no slice per read
            return f"{self.module.const(by_count, 'zones')}[st.players]"
        if name in self.members:
            return repr(name)
        if name == "players":
            seats = [list(range(n)) for n in range(self.game.max_players + 1)]
            return f"{self.module.const(seats, 'seats')}[st.players]"
        if name == "player_count":
            return "st.players"
        if name == "current":
            return "st.current"
        if name == "supply":
            return "'supply'"
        raise AssertionError(f"unresolved name {name}")

    def e_Attribute(self, e: ast.Attribute, env):
        obj = self.expr(e.obj, env)
        attr = e.name
        if self.type_of(e.obj) == CELL:
            return f"{obj}[{0 if attr == 'x' else 1}]"
        if self.type_of(e.obj) in self.spec.records:       # a field is a position in the tuple
            i = [f for f, _ in self.record_fields(self.type_of(e.obj))].index(attr)
            return self.unless_none(obj, lambda v: f"{v}[{i}]", attr) or f"_record_field({obj}, {i}, {attr!r})"
        if self.type_of(e.obj) == PLACEMENT:        # (piece, at, turn, cells): cells as a list
            field = list(PLACEMENT_FIELDS).index(attr)
            return f"list({obj}[3])" if attr == "cells" else f"{obj}[{field}]"
        if (isinstance(e.obj, ast.Call) and e.obj.func == "top_at" and e.obj.func not in self.spec.fns
                and id(e.obj) not in self.kept):
            zone, cell = (self.expr(a, env) for a in e.obj.args)
            w = self.temporary()
            if w is not None:
                return f"(_C[{w}[-1]][{attr!r}] if ({w} := st.zones[{zone}].get({cell})) else _none_attribute({attr!r}))"
            return f"_top_attr(st.zones[{zone}], {cell}, {attr!r})"
        return self.unless_none(obj, lambda v: f"_C[{v}][{attr!r}]", attr) or f"_attribute({obj}, {attr!r})"

    def unless_none(self, obj: str, read, attr: str) -> str | None:
        """`read(v)` of the value `obj`, worked out once, or the rule problem "'.attr' of none";
        None where no temporary can hold a computed value (the caller then calls a helper)."""
        if simple(obj):
            return f"({read(obj)} if {obj} is not None else _none_attribute({attr!r}))"
        w = self.temporary()
        if w is None:
            return None
        return f"({read(w)} if ({w} := {obj}) is not None else _none_attribute({attr!r}))"

    def e_Index(self, e: ast.Index, env):
        obj, index = self.expr(e.obj, env), self.expr(e.index, env)
        known, value = self.constant(e.index, env)
        if known and type(value) is int and value >= 0:
            return f"{obj}[{value}]"
        if index.isdigit():             # a literal argument of an inlined fn
            return f"{obj}[{index}]"
        if simple(index):
            return f"({obj}[{index}] if {index} is not None and {index} >= 0 else _bad_index({index}))"
        w = self.temporary()
        if w is not None and simple(obj):       # the list read after the index changes nothing
            if isinstance(e.index, ast.Binary) and e.index.op in ("+", "-", "*", "//", "%"):
                # arithmetic never gives none (it fails first)
                return f"({obj}[{w}] if ({w} := {index}) >= 0 else _bad_index({w}))"
            return f"({obj}[{w}] if ({w} := {index}) is not None and {w} >= 0 else _bad_index({w}))"
        return f"_index({obj}, {index})"

    def inline(self, decl, args: list) -> str:
        """A small fn's body in place of its call; arguments are plain names or literals, so
        reading one twice or not at all changes nothing."""
        env = Env()
        for p, a in zip(decl.params, args):
            env.bind(p.name, a)
        self.inlining.append(decl.name)
        self.inlined += 1
        try:
            text = f"({self.expr(decl.body, env)})"
        finally:
            self.inlining.pop()
        self.module.inlined[text] = (decl.name, decl.body.span)     # for the call chain of errors
        return text

    def inline_bound(self, decl, args: list) -> str:
        """A small fn's body in place of a call with computed arguments: each is worked out
        once, in order, into a temporary (`(BODY if ((_w1 := a), (_w2 := b)) else None)`: the
        test, a tuple that is never empty, runs first), as the call would have done. Not
        inside a comprehension: there the temporaries would be closure cells, no faster than
        the call."""
        names, bound = [], []
        for a in args:
            if simple(a):
                names.append(a)
            else:
                w = self.fresh("_w")
                names.append(w)
                bound.append(f"({w} := {a})")
        return f"({self.inline(decl, names)} if ({', '.join(bound)},) else None)"

    def stack_zone(self, e) -> bool:
        """Whether e is a call `contents(Z)` of a stack or pile zone (not a grid)."""
        return (isinstance(e, ast.Call) and e.func == "contents" and "contents" not in self.spec.fns
                and not is_grid(self.type_of(e.args[0])) and self.type_of(e.args[0]) != "any")

    def e_Slice(self, e: ast.Slice, env):
        bounds = [self.expr(b, env) if b is not None else "None" for b in (e.start, e.stop)]
        return f"_slice({self.expr(e.obj, env)}, {bounds[0]}, {bounds[1]})"

    def e_LetIn(self, e: ast.LetIn, env: Env):
        """A fn body's `let` outside the statement form of `function` (not reached today)."""
        inner = env.child()
        var = self.fresh(f"v_{e.name}_")
        inner.bind(e.name, var)
        return f"(lambda {var}: {self.expr(e.body, inner)})({self.expr(e.value, env)})"

    def e_Call(self, e: ast.Call, env):
        if e.func == "components":
            return self.module.const(self.game.kind_ids[e.args[0].id])
        if e.func == "sorted" and "sorted" not in self.spec.fns:
            key = self.sort_key(element(self.type_of(e.args[0])))
            if key is not None:
                return f"sorted({self.expr(e.args[0], env)}, key={self.module.const(key, 'sort')})"
        if e.func in self.spec.fns:
            args = [self.expr(a, env) for a in e.args]
            if e.func in self.inlinable and e.func not in self.inlining and len(self.inlining) < MAX_INLINE_DEPTH:
                if all(map(simple, args)):
                    return self.inline(self.spec.fns[e.func], args)
                if not self.in_iterable and not self.in_comprehension:
                    return self.inline_bound(self.spec.fns[e.func], args)
            return f"_F_{e.func}(st{''.join(', ' + a for a in args)})"
        # all/any stop at the first deciding element; sum/count/max/min need no list
        if e.func in _LIST_BUILDERS and len(e.args) == 1 and isinstance(e.args[0], ast.ListComp):
            if e.func == "sum" and not e.args[0].clauses:   # no longer than its list; a list sums faster
                return f"sum({self.comprehension(e.args[0], env)})"
            items = self.comprehension(e.args[0], env, generator=e.func in ("all", "any", "sum", "count"))
            if e.func in ("all", "any", "sum"):
                return f"{e.func}{items}"
            return f"_B_{e.func}(_rt, st, {items})"
        args = [self.expr(a, env) for a in e.args]
        if e.func in ("len", "abs") or (e.func == "sum" and len(args) == 1):
            return f"{e.func}({args[0]})"
        if e.func in ("max", "min") and len(args) == 2 and not self.in_iterable:
            # the first of two equal values, as max and min give
            a, b = self.temporary(), self.temporary()
            return f"({a} if ({a} := {args[0]}) {'>=' if e.func == 'max' else '<='} ({b} := {args[1]}) else {b})"
        if e.func in ("max", "min") and len(args) >= 2:     # of values, never empty
            return f"{e.func}({', '.join(args)})"
        if e.func == "occurrences":
            return f"{args[0]}.count({args[1]})"
        if e.func == "index_of" and simple(args[0]) and simple(args[1]):
            return f"({args[0]}.index({args[1]}) if {args[1]} in {args[0]} else -1)"
        if e.func in ("next", "previous") and simple(args[0]):
            return f"(({args[0]} {'+' if e.func == 'next' else '-'} 1) % st.players)"
        if e.func in ("any", "all"):
            return f"{e.func}({args[0]})"
        if e.func == "size" and not is_grid(self.type_of(e.args[0])) and self.type_of(e.args[0]) != "any":
            return f"len(st.zones[{args[0]}])"
        if e.func == "empty":
            return f"(not st.zones[{args[0]}])"
        if (e.func == "top" and not is_grid(self.type_of(e.args[0])) and self.type_of(e.args[0]) != "any"
                and not draws_random(e.args[0], self.spec)):
            w = self.temporary()        # an empty zone: the built-in says what is wrong
            if w is not None:
                return f"({w}[-1] if ({w} := st.zones[{args[0]}]) else _B_top(_rt, st, {args[0]}))"
        if e.func == "top_at":
            w = self.temporary()
            if w is not None:
                return f"({w}[-1] if ({w} := st.zones[{args[0]}].get({args[1]})) else None)"
            return f"_top_at(st.zones[{args[0]}], {args[1]})"
        if e.func == "cell_attr" and is_grid(self.type_of(e.args[0])):     # the grid read here, no dispatch
            return f"_cell_attr_on(st, st.zones[{args[0]}], {args[1]}, {args[2]})"
        if e.func in ("size", "contents") and is_grid(self.type_of(e.args[0])):
            return f"_grid_{e.func}(st, {args[0]})"
        return f"_B_{e.func}(_rt, st{''.join(', ' + a for a in args)})"

    def sort_key(self, t: str):
        """The key `sorted` orders values of type t by, or None for Python's own order: enum
        members in declaration order, cells row by row (y, then x) as every grid built-in
        lists them, lists item by item and records field by field with those keys."""
        if t in self.spec.enums:
            return {m: i for i, m in enumerate(self.spec.enums[t])}.__getitem__
        if t == CELL:
            return row_major
        if is_list(t):
            inner = self.sort_key(element(t))
            return None if inner is None else (lambda items: [inner(v) for v in items])
        if t in self.spec.records:
            keys = [self.sort_key(ft) for _, ft in self.record_fields(t)]
            if all(k is None for k in keys):
                return None
            keys = [k or (lambda v: v) for k in keys]
            return lambda r: tuple(k(v) for k, v in zip(keys, r))
        return None

    def e_RecordLit(self, e: ast.RecordLit, env):
        """A record: its fields worked out in declaration order (docs/language.md, record)."""
        given = {f.name: f.value for f in e.fields}
        values = [self.expr(given[f], env) for f, _ in self.record_fields(e.record)]
        return f"_record({self.record_class(e.record)}, ({', '.join(values)},))"

    def e_Unary(self, e: ast.Unary, env):
        f = self.expr(e.operand, env)
        if e.op == "not":
            return f"(not {f})"
        if e.op == "-":
            return f"(-{f})"
        return f

    def e_Binary(self, e: ast.Binary, env):
        op = e.op
        kept = self.kept.get(id(e.right)) if op in ("in", "not in") else None
        if kept is not None and is_list(self.type_of(e.right)) and (element(self.type_of(e.right)) in _HASHABLE
                                                                 or element(self.type_of(e.right)) in self.spec.kinds):
            # `x in LIST` with LIST an invariant part: asked of a set built once per list
            left = self.expr(e.left, env)
            del self.kept[id(e.right)]
            right = self.expr(e.right, env)
            self.kept[id(e.right)] = kept
            return f"({left} {op} ({kept} if {kept} is not _MISSING else ({kept} := _kept_set({right}))))"
        left, right = self.expr(e.left, env), self.expr(e.right, env)
        if op in ("==", "!=") and any(isinstance(x, ast.Literal) and x.value is None for x in (e.left, e.right)):
            other = e.right if isinstance(e.left, ast.Literal) and e.left.value is None else e.left
            if (isinstance(other, ast.Call) and other.func == "top_at" and "top_at" not in self.spec.fns
                    and id(other) not in self.kept):
                zone, cell = (self.expr(a, env) for a in other.args)
                return f"({'not ' if op == '==' else ''}st.zones[{zone}].get({cell}))"
        if op in _UNTYPED_CHECKED and ANY in (self.types.get(id(e.left)), self.types.get(id(e.right))):
            return f"_untyped({op!r}, {left}, {right})"
        if op in ("+", "*") and self.may_grow(e):
            if (op == "*" and repeatable(left) and repeatable(right)
                    and {self.type_of(e.left), self.type_of(e.right)} <= {INT, PLAYER}):
                # the check of limits.multiply, inlined for the usual small numbers
                return (f"({left} * {right} if _NSMALL < {left} < _SMALL and _NSMALL < {right} < _SMALL "
                        f"else _multiply({left}, {right}))")
            a, b = self.temporary(), self.temporary()
            if op == "*" and a is not None and {self.type_of(e.left), self.type_of(e.right)} <= {INT, PLAYER}:
                # both factors computed first (&, not and), then the check of limits.multiply
                return (f"({a} * {b} if (_NSMALL < ({a} := {left}) < _SMALL) & (_NSMALL < ({b} := {right}) < _SMALL) "
                        f"else _multiply({a}, {b}))")
            return f"{'_concat' if op == '+' else '_multiply'}({left}, {right})"
        if op in ("in", "not in") and is_list(self.type_of(e.right)) and not self.fixed_size(e.right):
            return self.membership(left, op, right)
        if op in ("and", "or", "in", "not in") or op in _ARITHMETIC:
            return f"({left} {op} {right})"
        if op in ("//", "%"):
            known, value = self.constant(e.right, env)
            if known and type(value) is int and value != 0:
                return f"({left} {op} {value})"
            if repeatable(left) and simple(right):      # division by zero: the helper says so
                return f"({left} {op} {right} if {right} else _divide({left}, {right}, {op!r}))"
            a, b = self.temporary(), self.temporary()
            if a is not None:       # both worked out first, in order (a tuple is never false)
                divided = f"({a} {op} {b} if {b} else _divide({a}, {b}, {op!r}))"
                return f"({divided} if (({a} := {left}), ({b} := {right})) else None)"
            return f"_divide({left}, {right}, {op!r})"
        raise AssertionError(f"operator {op}")

    def membership(self, left: str, op: str, right: str) -> str:
        """`x in l` of a list of any length: a long list counts its items as work
        (limits.member); a short one is tested at once."""
        negation = "not " if op == "not in" else ""
        t = self.temporary()
        if t is None:
            return f"({negation}_member({left}, {right}))"
        return f"({left} {op} {t} if len({t} := {right}) < _SHORT_LIST else {negation}_member({left}, {t}))"

    def may_grow(self, e: ast.Binary) -> bool:
        """Whether `a + b` or `a * b` could double a value (a list or text joined to another of
        any length, a product of two unknown integers): those are checked (interpreter/run/limits.py).
        With a literal on one side a value grows by a bounded amount per step."""
        sides = (e.left, e.right)
        if any(self.fixed_size(side) for side in sides):
            return False
        if e.op == "*" and any(isinstance(side, ast.Name) and side.id == "player_count" for side in sides):
            return False        # at most MAX_PLAYERS: a bounded growth per step
        types = {self.type_of(side) for side in sides}
        if e.op == "*":
            return True
        return any(is_list(t) or t in ("str", "any") for t in types)

    def fixed_size(self, e, depth: int = 0) -> bool:
        """Whether `e` is at most as large as something in the rule file or component data: a
        literal, a component's attribute, a choice between such, or a fn returning such."""
        if isinstance(e, (ast.Literal, ast.ListLit, ast.Text, ast.Attribute)):
            return True
        if isinstance(e, ast.Conditional):
            return self.fixed_size(e.then, depth) and self.fixed_size(e.orelse, depth)
        if isinstance(e, ast.Call) and depth < 4:
            fn = self.spec.fns.get(e.func)
            return fn is not None and self.fixed_size(fn.body, depth + 1)
        if isinstance(e, ast.Name) and e.id in self.spec.params and depth < 4:
            # a param written as such a value in the rule; --set gives at most MAX_SET_DIGITS
            # digits, a scenario's YAML no more digits than Python reads (as for a literal)
            return self.fixed_size(self.spec.params[e.id].value, depth + 1)
        return False

    def e_Conditional(self, e, env):
        return f"({self.expr(e.then, env)} if {self.expr(e.test, env)} else {self.expr(e.orelse, env)})"

    def e_CellLit(self, e, env):
        known, value = self.constant(e, env)
        if known:
            return self.literal(value)
        return f"({self.expr(e.x, env)}, {self.expr(e.y, env)})"

    def e_ListLit(self, e, env):
        known, value = self.constant(e, env)
        if known:           # built once; lists are never changed in place
            return self.module.const(value)
        return "[" + ", ".join(self.expr(i, env) for i in e.items) + "]"

    def e_ListComp(self, e: ast.ListComp, env: Env):
        return self.comprehension(e, env)

    def e_Case(self, e: ast.Case, env):
        subject = self.expr(e.subject, env)
        value = subject if simple(subject) else self.fresh("case_")
        default = self.expr(e.default, env) if e.default is not None else f"_no_case({value})"
        out = default
        for key, result in reversed(e.arms):
            out = f"({self.expr(result, env)} if {value} == {self.expr(key, env)} else {out})"
        if value is subject:
            return out
        return f"(lambda {value}: {out})({subject})"

