"""The compiler's comprehensions (`[ELEMENT for NAME in LIST if FILTER]`): the special forms
that make them fast (a filter by a table of a kind's attribute, by one `fits` call, by the
vacant cells of a grid) and their invariant parts, worked out once per list where first
needed (analysis.invariants). A mixin of `Compiler` (interpreter/compile/compiler.py).
"""
from __future__ import annotations

from ...dsl import ast
from ...dsl.types import CELL
from .analysis import draws_random, invariants, shape, walk
from ..run.limits import SHORT_LIST
from .pieces import Env


class ComprehensionCompiler:
    """Comprehensions to Python source (see the module docstring)."""

    def comprehension(self, e: ast.ListComp, env: Env, generator: bool = False) -> str:
        if e.clauses:
            return self.clauses_comprehension(e, env, generator)
        with self.iterable():
            iterable = self.comprehension_iterable(e, env)
        condition = e.condition
        indexed = self.attribute_filter(e, env)
        if indexed is not None:
            iterable, condition = indexed
        # `fits(Z, v)` first in the filter: the cells are filtered by one call, not one per cell
        first, rest, fitted = condition, None, None
        if isinstance(condition, ast.Binary) and condition.op == "and":
            first, rest = condition.left, condition.right
        if (isinstance(first, ast.Call) and first.func == "fits" and "fits" not in self.spec.fns
                and isinstance(first.args[1], ast.Name) and first.args[1].id == e.var
                and e.var not in {n.id for n in walk(first.args[0]) if isinstance(n, ast.Name)}):
            with self.iterable():
                iterable = f"_fitting(_rt, st, {self.expr(first.args[0], env)}, {iterable})"
            condition, fitted = rest, first.args[0]
        inner = env.child()
        var = self.fresh(f"c_{e.var}_")
        inner.bind(e.var, var)
        vacant = self.vacant_zone(condition, e.var)
        if (vacant is not None and fitted is not None and shape(fitted) == shape(vacant)
                and isinstance(e.element, ast.Name)
                and e.element.id == e.var and not generator):
            return f"_vacant(st.zones[{self.expr(vacant, env)}], {iterable})"    # the grid read once
        kept = {} if self.in_iterable else {id(part): self.fresh("_h") for part in invariants(
            e.var, (e.element, condition), self.spec)}
        self.kept.update(kept)
        with self.comprehension_body():
            element_src = self.expr(e.element, inner)
            cond = f" if {self.expr(condition, inner)}" if condition is not None else ""
        if condition is None and isinstance(e.element, ast.Name) and e.element.id == e.var and not generator:
            if iterable.startswith("_fitting("):
                return iterable
        body = f"{element_src} for {var} in {iterable}{cond}"
        body = f"({body})" if generator else f"[{body}]"
        for key in kept:
            del self.kept[key]
        kept_body = f"({''.join(f'({name} := _MISSING), ' for name in kept.values())}{body})[-1]"
        return body if not kept else f"({kept_body})" if generator else kept_body     # all(GEN) stays a call

    def attribute_filter(self, e: ast.ListComp, env: Env):
        """`[... for c in components(K) if c.attr == X ...]`, X not depending on c nor drawing
        random numbers, and every component of K holding a plain value (text, number, truth
        value) in attr: (the components of K whose attr equals X, from a table built once,
        in order; the rest of the filter) instead of a test per component. Else None."""
        it, condition = e.iterable, e.condition
        if not (isinstance(it, ast.Call) and it.func == "components" and "components" not in self.spec.fns
                and isinstance(it.args[0], ast.Name) and it.args[0].id in self.game.kind_ids):
            return None
        test, rest = condition, None
        if isinstance(condition, ast.Binary) and condition.op == "and":
            test, rest = condition.left, condition.right
        if not (isinstance(test, ast.Binary) and test.op == "=="):
            return None
        for attribute, value in ((test.left, test.right), (test.right, test.left)):
            if (isinstance(attribute, ast.Attribute) and isinstance(attribute.obj, ast.Name)
                    and attribute.obj.id == e.var and self.type_of(attribute.obj) != CELL):
                break
        else:
            return None
        if e.var in {n.id for n in walk(value) if isinstance(n, ast.Name)} or draws_random(value, self.spec):
            return None
        ids = self.game.kind_ids[it.args[0].id]
        table: dict = {}
        for c in ids:
            attrs = self.game.components[c]
            if attribute.name not in attrs or not (attrs[attribute.name] is None
                                                   or type(attrs[attribute.name]) in (str, int, bool)):
                return None
            table.setdefault(attrs[attribute.name], []).append(c)
        if not ids:
            return None
        with self.iterable():
            wanted = self.expr(value, env)
        return f"_with_attribute({self.module.const(table, 'by')}, {wanted})", rest

    def comprehension_iterable(self, e: ast.ListComp, env: Env) -> str:
        if self.stack_zone(e.iterable):     # read in place: an expression never moves anything
            return f"st.zones[{self.expr(e.iterable.args[0], env)}]"
        return self.loop_over(e.iterable, env)

    def loop_over(self, iterable, env: Env) -> str:
        """The source a comprehension loops over: `range` of numbers known when compiling, and
        short, is a tuple built once (its few items are not counted as work); else the list."""
        if (isinstance(iterable, ast.Call) and iterable.func == "range" and "range" not in self.spec.fns
                and 1 <= len(iterable.args) <= 2):
            bounds = [self.constant(a, env) for a in iterable.args]
            if all(known and type(value) is int for known, value in bounds):
                numbers = range(*(value for _, value in bounds))
                if len(numbers) <= SHORT_LIST:
                    return self.module.const(tuple(numbers), "range")
        return self.expr(iterable, env)

    def vacant_zone(self, condition, var: str):
        """Z when a filter is `top_at(Z, var) == none` with Z not depending on var, else None."""
        if not (isinstance(condition, ast.Binary) and condition.op == "=="):
            return None
        sides = (condition.left, condition.right)
        if not any(isinstance(x, ast.Literal) and x.value is None for x in sides):
            return None
        call = next((x for x in sides if isinstance(x, ast.Call)), None)
        if (call is None or call.func != "top_at" or "top_at" in self.spec.fns
                or not isinstance(call.args[1], ast.Name) or call.args[1].id != var
                or var in {n.id for n in walk(call.args[0]) if isinstance(n, ast.Name)}):
            return None
        return call.args[0]

    def clauses_comprehension(self, e: ast.ListComp, env: Env, generator: bool) -> str:
        """A comprehension with several for/if clauses, each seeing the names bound before it."""
        inner = env.child()
        clauses = []
        for clause in e.all_clauses():
            if clause[0] == "for":
                with self.iterable():
                    iterable = self.loop_over(clause[2], inner)
                if clauses:                 # an inner loop: its lengths multiply, count them
                    iterable = f"_inner({iterable})"
                var = self.fresh(f"c_{clause[1]}_")
                inner = inner.child()
                inner.bind(clause[1], var)
                clauses.append(f"for {var} in {iterable}")
            else:
                with self.comprehension_body():
                    clauses.append(f"if {self.expr(clause[1], inner)}")
        with self.comprehension_body():
            body = f"{self.expr(e.element, inner)} {' '.join(clauses)}"
        return f"({body})" if generator else f"[{body}]"
