"""The compiler: turns a checked GameSpec into Python source (compile_game in
interpreter/compile/game.py makes that source a `Game`).

Every expression becomes a Python expression, every `fn` a Python function, and every body
(setup, play, procedures) a flat list of instructions whose runs between jumps become Python
functions (interpreter/compile/codegen.py). The program counter stays in the state's frames
([code name, pc, locals]), so a state is plain data and play can stop at any choice. Each
generated line remembers its rule span, so run-time errors point at rule lines.

One method per AST node kind: `e_<Node>` returns the Python source of an expression
(interpreter/compile/expressions.py), `s_<Node>` appends the instructions of a statement
(interpreter/compile/statements.py). A new construct adds one method. This module holds what
both share: the compiler's state, how values are shown, fns and standalone expressions.
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from functools import partial

from ...dsl import ast
from ...dsl.types import BOOL, CELL, PLACEMENT, PLAYER, element, is_list
from ..run import runtime
from ..run.engine import STEP_LIMIT
from ..run.records import record_type
from ..run.shaped import cell_attr_on
from .analysis import choice_free, readers, reads_turn, recursive, repeated_parts, walk, worth_memoising
from .codegen import Module
from .comprehensions import ComprehensionCompiler
from .expressions import ExpressionCompiler
from .pieces import Env, repeatable
from .statements import StatementCompiler

# A fn of at most this many nodes (walk) is inlined where its arguments allow: a call costs
# about as much as a small body (docs/performance.md, "Worked out once").
INLINE_NODES = 60
PIECE = "piece of a placement"      # rendering only: a component whose kind is not known statically


class Compiler(ExpressionCompiler, ComprehensionCompiler, StatementCompiler):
    """A checked spec's compiler: its expressions and statements (the mixins), how its values
    are shown, its fns and standalone expressions, all written into one generated module."""

    def __init__(self, game, spec, types: dict):
        self.game = game
        self.spec = spec
        self.types = types
        self.members = spec.member_enum
        self.static_labels = False      # True while compiling a `label` declaration's own text
        title = spec.title + (f" ({spec.variant})" if spec.variant else "")
        self.module = Module(f"<rules {title}>")
        self.module.namespace.update(runtime.NAMESPACE)
        self.module.namespace["_rt"] = game
        self.module.namespace["_C"] = game.components
        self.module.namespace["_SIZES"] = game.code_sizes
        self.module.namespace["_attribute"] = runtime.component_attribute(game.components)
        self.module.namespace["_top_attr"] = runtime.top_attribute(game.components)
        self.module.namespace["_cell_attr_on"] = partial(cell_attr_on, game)
        self.module.namespace["_STEP_LIMIT"] = STEP_LIMIT
        self.unique = 0
        self.memoised = {name for name, decl in spec.fns.items() if worth_memoising(decl, spec)}
        self.inlinable = {name for name, decl in spec.fns.items()
                          if name not in self.memoised and not recursive(name, spec)
                          and sum(1 for _ in walk(decl.body)) <= INLINE_NODES}
        self.inlining: list = []
        self.inlined = 0                # fn bodies inlined so far (a fn's work per call, below)
        self.in_iterable = 0            # > 0 while compiling the iterable of a comprehension
        self.in_comprehension = 0       # > 0 while compiling a comprehension's element or filter
        self.kept: dict = {}            # id of an invariant part -> the name it is kept in
        self.hoisted: dict | None = None    # param -> local name, while a fn's body is compiled
        self.readers = readers(spec, self.memoised)
        self.turn_forgets = reads_turn(spec, self.memoised)     # a turn's start forgets st.memo
        self.direct = choice_free(spec)

    def type_of(self, e) -> str:
        return self.types.get(id(e), "any")

    def declared_type(self, ref) -> str:
        """A type written in the rule file, as text: 'list of Placement'."""
        return "list of " + self.declared_type(ref.element) if isinstance(ref, ast.ListTypeRef) else ref.name

    def record_fields(self, name: str) -> list:
        """[(field, type)] of a record, in declaration order."""
        return [(f.name, self.declared_type(f.type)) for f in self.spec.records[name].fields]

    def record_class(self, name: str) -> str:
        """The namespace name of record `name`'s class (interpreter/run/records.py)."""
        return self.module.const(record_type(name, tuple(f for f, _ in self.record_fields(name))), "rec")

    def temporary(self) -> str | None:
        """A fresh name for an assignment expression (`(_w1 := ...)`), or None where Python
        allows none: inside the iterable of a comprehension."""
        return None if self.in_iterable else self.fresh("_w")

    @contextmanager
    def iterable(self):
        """While the list a comprehension runs over is compiled (no assignment expressions)."""
        self.in_iterable += 1
        try:
            yield
        finally:
            self.in_iterable -= 1

    @contextmanager
    def comprehension_body(self):
        """While a comprehension's element or filter is compiled (its names are closure cells)."""
        self.in_comprehension += 1
        try:
            yield
        finally:
            self.in_comprehension -= 1

    def fresh(self, stem: str) -> str:
        self.unique += 1
        return f"{stem}{self.unique}"

    # ------------------------------------------------------------------ rendering
    def renderer(self, t: str):
        """How a value of type t is shown: f(value, state=None). Components of a kind with a
        `label` declaration are shown as it says in the given state (else by their data label)."""
        game = self.game

        def piece(v, st=None) -> str:       # a component of any kind
            return "none" if v is None else game.labels[v] if st is None or self.static_labels \
                else game.label_of(st, v)
        if t == PIECE:
            return piece
        if t in self.spec.kinds:
            labels = game.labels
            if t in self.spec.labels and not self.static_labels:
                return lambda v, st=None: "none" if v is None else (
                    labels[v] if st is None else game.label_of(st, v))
            return lambda v, st=None: "none" if v is None else labels[v]
        if t == CELL:
            return lambda v, st=None: "none" if v is None else f"({v[0]}, {v[1]})"
        if t == PLAYER:
            return lambda v, st=None: "nobody" if v is None else game.player_name(v)
        if t == BOOL:
            return lambda v, st=None: "yes" if v else "no"
        if t == PLACEMENT:
            return lambda v, st=None: "none" if v is None else (
                f"{piece(v[0], st)} at ({v[1][0]}, {v[1][1]}) turned {v[2]}")
        if is_list(t):
            inner = self.renderer(element(t))
            return lambda v, st=None: "[" + ", ".join(inner(x, st) for x in v) + "]"
        if t in self.spec.records:
            fields = [(f, self.renderer(ft)) for f, ft in self.record_fields(t)]
            return lambda v, st=None: "none" if v is None else t + "(" + ", ".join(
                f"{f}: {show(x, st)}" for (f, show), x in zip(fields, v)) + ")"
        return lambda v, st=None: "none" if v is None else str(v)

    def identifier(self, t: str):
        """Stable, readable option ids by type: 'red-5', '2,-1', 'p2', '3'."""
        game = self.game
        if t in self.spec.kinds:
            ids = [re.sub(r"[^A-Za-z0-9]+", "-", label).strip("-").lower() for label in game.labels]
            return lambda v: "none" if v is None else ids[v]
        if t == CELL:
            return lambda v: "none" if v is None else f"{v[0]},{v[1]}"
        if t == PLAYER:
            return lambda v: "none" if v is None else f"p{v + 1}"
        if t == BOOL:
            return lambda v: "yes" if v else "no"
        if t == PLACEMENT:          # 'violet-l4@3,5t2': the piece, its anchor and its orientation
            ids = [re.sub(r"[^A-Za-z0-9]+", "-", label).strip("-").lower() for label in game.labels]
            return lambda v: "none" if v is None else f"{ids[v[0]]}@{v[1][0]},{v[1][1]}t{v[2]}"
        if is_list(t):
            return None
        if t in self.spec.records:      # the fields' ids joined by '/': 'f/1,2/0' (None if a field is a list)
            parts = [self.identifier(ft) for _, ft in self.record_fields(t)]
            if any(p is None for p in parts):
                return None
            return lambda v: "none" if v is None else "/".join(p(x) for p, x in zip(parts, v))
        return str

    def unique_component_ids(self) -> frozenset:
        if not hasattr(self, "_unique_ids"):
            ids = [re.sub(r"[^A-Za-z0-9]+", "-", label).strip("-").lower() for label in self.game.labels]
            counts: dict = {}
            for i in ids:
                counts[i] = counts.get(i, 0) + 1
            self._unique_ids = frozenset(i for i, n in counts.items() if n == 1)
        return self._unique_ids

    def rendered(self, e, env: Env) -> str:
        """A placeholder's value as text (what `renderer` does, inlined for a plain value)."""
        t = self.type_of(e)
        if t == "any" and isinstance(e, ast.Attribute) and e.name == "piece" and self.type_of(e.obj) == PLACEMENT:
            t = PIECE       # a placement's piece, typed any with several kinds: still a component
        value = self.expr(e, env)
        if repeatable(value):
            if t == BOOL:
                return f"('yes' if {value} else 'no')"
            if t in self.spec.kinds and (t not in self.spec.labels or self.static_labels):
                return f"('none' if {value} is None else {self.module.const(self.game.labels, 'labels')}[{value}])"
            if t not in self.spec.kinds and t not in (CELL, PLAYER, PLACEMENT, PIECE) and not is_list(t) \
                    and t not in self.spec.records:
                return f"('none' if {value} is None else str({value}))"
            if t == CELL:
                return f"('none' if {value} is None else '(' + str({value}[0]) + ', ' + str({value}[1]) + ')')"
            if t == PLAYER:         # a seat's name from a table, any other number as the renderer says
                names = self.module.const([self.game.player_name(p) for p in range(self.game.max_players)], "players")
                return (f"('nobody' if {value} is None else {names}[{value}] if 0 <= {value} < "
                        f"{self.game.max_players} else {self.module.const(self.renderer(t), 'r')}({value}, st))")
        return f"{self.module.const(self.renderer(t), 'r')}({value}, st)"

    def text(self, text: ast.Text, env: Env) -> str:
        parts = []
        for part in text.parts:
            if isinstance(part, str):
                if part:
                    parts.append(repr(part))
            else:
                parts.append(self.rendered(part, env))
        if not parts:
            return "''"
        joined = "(" + " + ".join(parts) + ")"
        # "{s}{s}" doubles a text; placeholders of numbers, cells, players, components do not
        unbounded = sum(1 for part in text.parts if not isinstance(part, str)
                        and (self.type_of(part) in ("str", "any") or is_list(self.type_of(part))))
        return f"_bounded_text{joined}" if unbounded > 1 else joined

    # ------------------------------------------------------------------ functions
    def function(self, decl: ast.FnDecl) -> None:
        env = Env()
        params = []
        for p in decl.params:
            python = self.fresh(f"a_{p.name}_")
            env.bind(p.name, python)
            params.append(python)
        # Params never change during a game: each one the body reads is read once, first.
        self.hoisted = {}
        inlined_before = self.inlined
        kept: dict = {}
        try:
            # A body's `let`s become Python assignments before the value is computed.
            lets = []
            body_expr = decl.body
            while isinstance(body_expr, ast.LetIn):
                var = self.fresh(f"v_{body_expr.name}_")
                lets.append((f"{var} = {self.expr(body_expr.value, env)}", body_expr.span))
                env = env.child()
                env.bind(body_expr.name, var)
                body_expr = body_expr.body
            # a call written more than once alike is worked out once (analysis.repeated_parts)
            for nodes in repeated_parts(body_expr, self.spec):
                name = self.fresh("_h")
                lets.append((f"{name} = _MISSING", decl.span))
                kept.update((id(node), name) for node in nodes)
            self.kept.update(kept)
            loop = self.loop_form(body_expr, env) if decl.name not in self.memoised else None
            body = self.expr(body_expr, env) if loop is None else None
            hoisted = self.hoisted
        finally:
            self.hoisted = None
            for key in kept:
                del self.kept[key]
        lets = [(f"{local} = st.vars[{name!r}]", decl.span) for name, local in hoisted.items()] + lets
        # Fns that call fns (themselves, or others twice each, ten deep) can do exponential work
        # in one expression: a call of a fn that calls or inlines fns counts as items of work,
        # one per body it runs (interpreter/run/limits.py); a fn that calls none costs nothing.
        weight = 1 + self.inlined - inlined_before
        calls = "_F_" in "".join([body or "", *(line for line, _ in lets), *(loop or ())])
        counted = [(f"_WORK.n += {weight}", decl.span), ("if _WORK.n > _MAX_WORK: _charge(0)", decl.span)] \
            if calls or weight > 1 else []
        signature = "".join(", " + p for p in params)
        m = self.module
        if loop is not None:
            m.add(f"def _F_{decl.name}(st{signature}):", decl.span)
            for line, span in counted + lets:
                m.add(f"    {line}", span)
            for line in loop:
                m.add(f"    {line}", decl.body.span)
            return
        if decl.name in self.memoised:     # st.memo: fn name -> {arguments: value}
            key = params[0] if len(params) == 1 else "(" + "".join(p + ", " for p in params) + ")"
            m.add(f"def _F_{decl.name}(st{signature}):", decl.span)
            m.add(f"    memo = st.memo.get({decl.name!r})", decl.span)
            m.add("    if memo is None:", decl.span)
            m.add(f"        memo = st.memo[{decl.name!r}] = {{}}", decl.span)
            m.add(f"    value = memo.get({key}, _MISSING)", decl.span)
            m.add("    if value is _MISSING:", decl.span)
            for line, span in counted + lets:
                m.add(f"        {line}", span)
            m.add(f"        value = memo[{key}] = {body}", decl.body.span)
            m.add("    return value", decl.span)
        else:
            m.add(f"def _F_{decl.name}(st{signature}):", decl.span)
            for line, span in counted + lets:
                m.add(f"    {line}", span)
            m.add(f"    return {body}", decl.body.span)

    def loop_form(self, e, env: Env):
        """A fn body `all(X for v in L if C)` or `any(...)` as the lines of a Python loop that
        returns at the first deciding element (no generator to resume per element, and the
        fns it calls can be inlined with their arguments in plain locals); else None."""
        if not (isinstance(e, ast.Call) and e.func in ("all", "any") and e.func not in self.spec.fns
                and len(e.args) == 1 and isinstance(e.args[0], ast.ListComp) and not e.args[0].clauses):
            return None
        comp = e.args[0]
        with self.iterable():
            iterable = self.comprehension_iterable(comp, env)
        inner = env.child()
        var = self.fresh(f"c_{comp.var}_")
        inner.bind(comp.var, var)
        element = self.expr(comp.element, inner)
        lines = [f"for {var} in {iterable}:"]
        indent = "    "
        if comp.condition is not None:
            lines.append(f"    if {self.expr(comp.condition, inner)}:")
            indent = "        "
        if e.func == "all":
            lines += [f"{indent}if not {element}:", f"{indent}    return False", "return True"]
        else:
            lines += [f"{indent}if {element}:", f"{indent}    return True", "return False"]
        return lines

    def standalone(self, e, names=(), span=None) -> tuple:
        """An expression evaluated outside any body (params, scores, invariants): the name of
        its generated function f(st, L), and the names it is given as locals."""
        env = Env()
        for n in names:
            env.new(n)
        fname = self.fresh("x")
        self.module.add(f"def {fname}(st, L):", span or getattr(e, "span", None))
        self.module.add(f"    return {self.expr(e, env)}", span or getattr(e, "span", None))
        return fname, env

    def standalone_text(self, text, env: Env, span) -> str:
        fname = self.fresh("t")
        self.module.add(f"def {fname}(st, L):", span)
        self.module.add(f"    return {self.text(text, env)}", span)
        return fname
