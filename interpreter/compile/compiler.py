"""The compiler: turns a checked GameSpec into Python source, and that source into a `Game`.

Every expression becomes a Python expression, every `fn` a Python function, and every body
(setup, play, procedures) a flat list of instructions whose runs between jumps become Python
functions (interpreter/codegen.py). The program counter stays in the state's frames
([code name, pc, locals]), so a state is plain data and play can stop at any choice. Each
generated line remembers its rule span, so run-time errors point at rule lines.

One method per AST node kind: `e_<Node>` returns the Python source of an expression,
`s_<Node>` appends the instructions of a statement. A new construct adds one method.
"""
from __future__ import annotations

import re
from contextlib import contextmanager

from ...dsl import ast
from ...dsl.errors import Diagnostic, InvariantError, RuleError
from ...dsl.types import BOOL, CELL, INT, PLAYER, element, is_grid, is_list
from ..run import runtime
from ..run.builtins import IMPLEMENTATIONS, RUNTIME_FAILURES, Problem, failure_diagnostic
from .codegen import Instruction, Module, block_source, block_starts
from ..run.engine import STEP_LIMIT, Game, Result


class Env:
    """The names visible to an expression: rule name -> Python source reading it. Body locals
    live in numbered slots of the frame's locals list (`L[3]`); nested blocks share the slot
    counter. Comprehension variables and fn parameters are Python names (they still take a
    slot, so that frame sizes do not depend on how a body is compiled)."""

    def __init__(self, names=None, counter=None, slots=None):
        self.names = dict(names or {})
        self.slots = dict(slots or {})
        self.counter = counter if counter is not None else [0]

    def new(self, name: str) -> int:
        slot = self.counter[0]
        self.counter[0] += 1
        self.names[name] = f"L[{slot}]"
        self.slots[name] = slot
        return slot

    def bind(self, name: str, python: str) -> None:
        self.counter[0] += 1
        self.names[name] = python
        self.slots.pop(name, None)

    def child(self) -> "Env":
        return Env(self.names, self.counter, self.slots)

    @property
    def size(self) -> int:
        return self.counter[0]


class Code:
    """The instructions of one body (setup, play or a procedure) and their generated functions."""

    def __init__(self, name: str):
        self.name = name
        self.instructions: list[Instruction] = []
        self.blocks: list = []          # pc -> generated function running from pc, or None
        self.nslots = 0
        self.game = None
        self._single: list | None = None

    @property
    def spans(self) -> list:
        return [i.span for i in self.instructions]

    @property
    def roles(self) -> list:
        return [i.role for i in self.instructions]

    def __len__(self) -> int:
        return len(self.instructions)

    def emit(self, ins: Instruction) -> int:
        self.instructions.append(ins)
        return len(self.instructions) - 1

    def entry(self, pc: int):
        """The function running from `pc` (generated now if pc is not a usual entry)."""
        fn = self.blocks[pc] if pc < len(self.blocks) else None
        if fn is None:
            module = Module(f"<rules {self.name} from {pc}>")
            module.namespace.update(self.game.namespace)
            module.inlined = self.game.generated.inlined        # the same inlined fn bodies
            block_source(module, self.name, "entry", self.instructions, pc)
            fn = module.execute()["entry"]
            self.game.modules[module.filename] = module
            if pc < len(self.blocks):
                self.blocks[pc] = fn
        return fn

    def single(self, pc: int):
        """A function running exactly one instruction (rule coverage counts instructions)."""
        if self._single is None:
            module = Module(f"<rules {self.name}: one instruction at a time>")
            module.namespace.update(self.game.namespace)
            module.inlined = self.game.generated.inlined
            for i in range(len(self.instructions)):
                block_source(module, self.name, f"i{i}", self.instructions, i, limit=1)
            namespace = module.execute()
            self.game.modules[module.filename] = module
            self._single = [namespace[f"i{i}"] for i in range(len(self.instructions))]
        return self._single[pc]


class ChoiceSite:
    """How a `choose` statement words its decision: prompt, option labels and ids."""
    __slots__ = ("prompt", "label", "render", "identify", "injective", "unique_ids")

    def __init__(self, prompt, label, render, identify, injective: bool, unique_ids=frozenset()):
        self.prompt, self.label, self.render = prompt, label, render
        self.identify, self.injective = identify, injective
        self.unique_ids = unique_ids        # ids that no other component shares (never numbered)


class Target:
    """A jump target, patched once the code after it is known."""
    __slots__ = ("pc",)

    def __init__(self):
        self.pc = -1


_PAD = "\x00"            # marks where a call's frame is padded (never in generated text: repr escapes it)
_PADDING = re.compile("\x00([A-Za-z_][A-Za-z0-9_]*)\x00([0-9]+)\x00")
_ARITHMETIC = {"+", "-", "*", "==", "!=", "<", "<=", ">", ">="}
_SIMPLE = re.compile(r"^(?:[A-Za-z_][A-Za-z0-9_]*(?:\[\d+\])?|st\.players|st\.current|st\.vars\['[A-Za-z0-9_]+'\]|-?\d+|'[^'\\]*')$")
_LIST_BUILDERS = {"all", "any", "sum", "count", "max", "min"}


def simple(source: str) -> bool:
    """Whether evaluating `source` twice, or not at all, is cheap and has no effect (a name, a
    slot, a literal)."""
    return bool(_SIMPLE.match(source))


_ITEM = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\[\d+\])+$")


def repeatable(source: str) -> bool:
    """Whether evaluating `source` a second time, right after the first, is cheap and changes
    nothing (`simple`, or an item of a slot: `L[3][0]`)."""
    return simple(source) or bool(_ITEM.match(source))


class Compiler:
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
        self.module.namespace["_STEP_LIMIT"] = STEP_LIMIT
        self.unique = 0
        self.memoised = {name for name, decl in spec.fns.items() if _worth_memoising(decl, spec)}
        self.inlinable = {name for name, decl in spec.fns.items()
                          if name not in self.memoised and not _recursive(name, spec)
                          and sum(1 for _ in _walk(decl.body)) <= 40}
        self.inlining: list = []
        self.in_iterable = 0            # > 0 while compiling the iterable of a comprehension
        self.readers = _readers(spec, self.memoised)
        self.direct = _choice_free(spec)

    def type_of(self, e) -> str:
        return self.types.get(id(e), "any")

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

    def fresh(self, stem: str) -> str:
        self.unique += 1
        return f"{stem}{self.unique}"

    # ------------------------------------------------------------------ rendering
    def renderer(self, t: str):
        """How a value of type t is shown: f(value, state=None). Components of a kind with a
        `label` declaration are shown as it says in the given state (else by their data label)."""
        game = self.game
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
        if is_list(t):
            inner = self.renderer(element(t))
            return lambda v, st=None: "[" + ", ".join(inner(x, st) for x in v) + "]"
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
        if is_list(t):
            return None
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
        value = self.expr(e, env)
        if repeatable(value):
            if t == BOOL:
                return f"('yes' if {value} else 'no')"
            if t in self.spec.kinds and (t not in self.spec.labels or self.static_labels):
                return f"('none' if {value} is None else {self.module.const(self.game.labels, 'labels')}[{value}])"
            if t not in self.spec.kinds and t not in (CELL, PLAYER) and not is_list(t):
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

    # ------------------------------------------------------------------ expressions
    def expr(self, e, env: Env) -> str:
        return getattr(self, "e_" + type(e).__name__)(e, env)

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
        if isinstance(e.obj, ast.Call) and e.obj.func == "top_at" and e.obj.func not in self.spec.fns:
            zone, cell = (self.expr(a, env) for a in e.obj.args)
            w = self.temporary()
            if w is not None:
                return f"(_C[{w}[-1]][{attr!r}] if ({w} := st.zones[{zone}].get({cell})) else _none_attribute({attr!r}))"
            return f"_top_attr(st.zones[{zone}], {cell}, {attr!r})"
        if simple(obj):
            return f"(_C[{obj}][{attr!r}] if {obj} is not None else _none_attribute({attr!r}))"
        w = self.temporary()
        if w is not None:
            return f"(_C[{w}][{attr!r}] if ({w} := {obj}) is not None else _none_attribute({attr!r}))"
        return f"_attribute({obj}, {attr!r})"

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
            return f"({obj}[{w}] if ({w} := {index}) is not None and {w} >= 0 else _bad_index({w}))"
        return f"_index({obj}, {index})"

    def inline(self, decl, args: list) -> str:
        """A small fn's body in place of its call; arguments are plain names or literals, so
        reading one twice or not at all changes nothing."""
        env = Env()
        for p, a in zip(decl.params, args):
            env.bind(p.name, a)
        self.inlining.append(decl.name)
        try:
            text = f"({self.expr(decl.body, env)})"
        finally:
            self.inlining.pop()
        self.module.inlined[text] = (decl.name, decl.body.span)     # for the call chain of errors
        return text

    def stack_zone(self, e) -> bool:
        """Whether e is a call `contents(Z)` of a stack or pile zone (not a grid)."""
        return (isinstance(e, ast.Call) and e.func == "contents" and "contents" not in self.spec.fns
                and not is_grid(self.type_of(e.args[0])) and self.type_of(e.args[0]) != "any")

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
                and e.var not in {n.id for n in _walk(first.args[0]) if isinstance(n, ast.Name)}):
            with self.iterable():
                iterable = f"_fitting(_rt, st, {self.expr(first.args[0], env)}, {iterable})"
            condition, fitted = rest, first.args[0]
        inner = env.child()
        var = self.fresh(f"c_{e.var}_")
        inner.bind(e.var, var)
        vacant = self.vacant_zone(condition, e.var)
        if (vacant is not None and fitted is not None and _shape(fitted) == _shape(vacant)
                and isinstance(e.element, ast.Name)
                and e.element.id == e.var and not generator):
            return f"_vacant(st.zones[{self.expr(vacant, env)}], {iterable})"    # the grid read once
        element_src = self.expr(e.element, inner)
        if condition is None and isinstance(e.element, ast.Name) and e.element.id == e.var and not generator:
            if iterable.startswith("_fitting("):
                return iterable
        cond = f" if {self.expr(condition, inner)}" if condition is not None else ""
        body = f"{element_src} for {var} in {iterable}{cond}"
        return f"({body})" if generator else f"[{body}]"

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
        if e.var in {n.id for n in _walk(value) if isinstance(n, ast.Name)} or _draws_random(value, self.spec):
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
        return self.expr(e.iterable, env)

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
                or var in {n.id for n in _walk(call.args[0]) if isinstance(n, ast.Name)}):
            return None
        return call.args[0]

    def clauses_comprehension(self, e: ast.ListComp, env: Env, generator: bool) -> str:
        """A comprehension with several for/if clauses, each seeing the names bound before it."""
        inner = env.child()
        clauses = []
        for clause in e.all_clauses():
            if clause[0] == "for":
                with self.iterable():
                    iterable = self.expr(clause[2], inner)
                if clauses:                 # an inner loop: its lengths multiply, count them
                    iterable = f"_inner({iterable})"
                var = self.fresh(f"c_{clause[1]}_")
                inner = inner.child()
                inner.bind(clause[1], var)
                clauses.append(f"for {var} in {iterable}")
            else:
                clauses.append(f"if {self.expr(clause[1], inner)}")
        body = f"{self.expr(e.element, inner)} {' '.join(clauses)}"
        return f"({body})" if generator else f"[{body}]"

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
        if e.func == "sorted" and element(self.type_of(e.args[0])) in self.spec.enums:
            rank = {m: i for i, m in enumerate(self.spec.enums[element(self.type_of(e.args[0]))])}
            return f"sorted({self.expr(e.args[0], env)}, key={self.module.const(rank)}.__getitem__)"
        if e.func in self.spec.fns:
            args = [self.expr(a, env) for a in e.args]
            if e.func in self.inlinable and e.func not in self.inlining and all(map(simple, args)):
                return self.inline(self.spec.fns[e.func], args)
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
                and not _draws_random(e.args[0], self.spec)):
            w = self.temporary()        # an empty zone: the built-in says what is wrong
            if w is not None:
                return f"({w}[-1] if ({w} := st.zones[{args[0]}]) else _B_top(_rt, st, {args[0]}))"
        if e.func == "top_at":
            w = self.temporary()
            if w is not None:
                return f"({w}[-1] if ({w} := st.zones[{args[0]}].get({args[1]})) else None)"
            return f"_top_at(st.zones[{args[0]}], {args[1]})"
        if e.func in ("size", "contents") and is_grid(self.type_of(e.args[0])):
            return f"_grid_{e.func}(st, {args[0]})"
        return f"_B_{e.func}(_rt, st{''.join(', ' + a for a in args)})"

    def e_Unary(self, e: ast.Unary, env):
        f = self.expr(e.operand, env)
        if e.op == "not":
            return f"(not {f})"
        if e.op == "-":
            return f"(-{f})"
        return f

    def e_Binary(self, e: ast.Binary, env):
        left, right = self.expr(e.left, env), self.expr(e.right, env)
        op = e.op
        if op in ("==", "!=") and any(isinstance(x, ast.Literal) and x.value is None for x in (e.left, e.right)):
            other = e.right if isinstance(e.left, ast.Literal) and e.left.value is None else e.left
            if isinstance(other, ast.Call) and other.func == "top_at" and "top_at" not in self.spec.fns:
                zone, cell = (self.expr(a, env) for a in other.args)
                return f"({'not ' if op == '==' else ''}st.zones[{zone}].get({cell}))"
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
        if op in ("and", "or", "in", "not in") or op in _ARITHMETIC:
            return f"({left} {op} {right})"
        if op in ("//", "%"):
            known, value = self.constant(e.right, env)
            if known and type(value) is int and value != 0:
                return f"({left} {op} {value})"
            return f"_divide({left}, {right}, {op!r})"
        raise AssertionError(f"operator {op}")

    def may_grow(self, e: ast.Binary) -> bool:
        """Whether `a + b` or `a * b` could double a value (a list or text joined to another of
        any length, a product of two unknown integers): those are checked (interpreter/limits.py).
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

    # ------------------------------------------------------------------ functions
    def function(self, decl: ast.FnDecl) -> None:
        env = Env()
        params = []
        for p in decl.params:
            python = self.fresh(f"a_{p.name}_")
            env.bind(p.name, python)
            params.append(python)
        # A body's `let`s become Python assignments before the value is computed.
        lets = []
        body_expr = decl.body
        while isinstance(body_expr, ast.LetIn):
            var = self.fresh(f"v_{body_expr.name}_")
            lets.append((f"{var} = {self.expr(body_expr.value, env)}", body_expr.span))
            env = env.child()
            env.bind(body_expr.name, var)
            body_expr = body_expr.body
        body = self.expr(body_expr, env)
        signature = "".join(", " + p for p in params)
        m = self.module
        if decl.name in self.memoised:     # st.memo: fn name -> {arguments: value}
            key = params[0] if len(params) == 1 else "(" + "".join(p + ", " for p in params) + ")"
            m.add(f"def _F_{decl.name}(st{signature}):", decl.span)
            m.add(f"    memo = st.memo.get({decl.name!r})", decl.span)
            m.add("    if memo is None:", decl.span)
            m.add(f"        memo = st.memo[{decl.name!r}] = {{}}", decl.span)
            m.add(f"    value = memo.get({key}, _MISSING)", decl.span)
            m.add("    if value is _MISSING:", decl.span)
            for line, span in lets:
                m.add(f"        {line}", span)
            m.add(f"        value = memo[{key}] = {body}", decl.body.span)
            m.add("    return value", decl.span)
        else:
            m.add(f"def _F_{decl.name}(st{signature}):", decl.span)
            for line, span in lets:
                m.add(f"    {line}", span)
            m.add(f"    return {body}", decl.body.span)

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

    # ------------------------------------------------------------------ statements
    def body(self, name: str, stmts, params=()) -> Code:
        code = Code(name)
        env = Env()
        for p in params:
            env.new(p.name)
        self.block(code, stmts, env, loop=None)
        code.nslots = env.size
        return code

    def block(self, code: Code, stmts, env: Env, loop):
        for s in stmts:
            getattr(self, "s_" + type(s).__name__)(code, s, env, loop)

    def stmt(self, code: Code, span, *lines) -> None:
        code.emit(Instruction("stmt", span, lines=lines))

    def jump(self, code: Code, target: Target, span):
        code.emit(Instruction("jump", span, "jump", target=target))

    def s_Let(self, code, s: ast.Let, env, loop):
        value = self.expr(s.value, env)
        slot = env.new(s.name)
        self.stmt(code, s.span, f"L[{slot}] = {value}")

    def s_Assign(self, code, s: ast.Assign, env, loop):
        value = self.expr(s.value, env)
        index = self.expr(s.index, env) if s.index is not None else None
        name = s.name
        local = name in env.slots
        target = f"L[{env.slots[name]}]" if local else f"st.vars[{name!r}]"
        lines = []
        if index is None:
            if s.op == "=":
                lines.append(f"{target} = {value}")
            else:
                lines.append(f"{target} = {target} {s.op[0]} ({value})")
        else:       # copy on write: copies of the state share lists
            combined = "_v" if s.op == "=" else f"_t[_x] {s.op[0]} _v"
            lines += [f"_v = {value}", f"_x = {index}", f"_t = list({target})",
                      "if _x is None or not 0 <= _x < len(_t):",
                      f"    _bad_assignment(_x, {name!r})",
                      f"_t[_x] = {combined}", f"{target} = _t"]
        if not local:       # forget what the memoised fns that read this variable returned
            readers = sorted(self.readers.get(name, ()))
            if readers:
                lines.append("if st.memo:")
                lines += [f"    st.memo.pop({fn!r}, None)" for fn in readers]
        self.stmt(code, s.span, *lines)

    def s_CallStmt(self, code, s: ast.CallStmt, env, loop):
        args = [self.expr(a, env) for a in s.args]
        frame = f"[{s.name!r}, 0, [{', '.join(args)}{_PAD}{s.name}{_PAD}{len(args)}{_PAD}]]"    # see padded
        # A procedure that can never wait for a choice runs to its end right away (codegen).
        code.emit(Instruction("call", s.span, lines=[f"st.frames.append({frame})"],
                              extra=frame if s.name in self.direct else None))

    def s_If(self, code, s: ast.If, env, loop):
        # Each branch starts with a no-op marker, so rule coverage can count branches taken.
        end = Target()
        for number, (cond, body) in enumerate(s.branches):
            test = self.expr(cond, env)
            skip = Target()
            code.emit(Instruction("jump_unless", cond.span, "jump", target=skip, test=test))
            code.emit(Instruction("branch", cond.span, "branch: " + ("then" if number == 0 else "elif")))
            self.block(code, body, env.child(), loop)
            self.jump(code, end, s.span)
            skip.pc = len(code)
        code.emit(Instruction("branch", s.span, "branch: else" if s.orelse is not None else "branch: no condition held"))
        if s.orelse is not None:
            self.block(code, s.orelse, env.child(), loop)
        end.pc = len(code)

    def s_While(self, code, s: ast.While, env, loop):
        start, end = Target(), Target()
        start.pc = len(code)
        code.emit(Instruction("jump_unless", s.span, "jump", target=end, test=self.expr(s.condition, env)))
        self.block(code, s.body, env.child(), (start, end))
        self.jump(code, start, s.span)
        end.pc = len(code)

    def s_For(self, code, s: ast.For, env: Env, loop):
        iterable = self.expr(s.iterable, env)
        inner = env.child()
        items_slot = inner.new(f" items{len(code)}")
        index_slot = inner.new(f" index{len(code)}")
        var_slot = inner.new(s.var)
        cond = self.expr(s.condition, inner) if s.condition is not None else None
        start, end = Target(), Target()
        self.stmt(code, s.span, f"L[{items_slot}] = list({iterable})", f"L[{index_slot}] = 0")
        start.pc = len(code)
        code.emit(Instruction("for_step", s.span, "jump", target=end,
                              extra=(items_slot, index_slot, var_slot, cond)))
        self.block(code, s.body, inner, (start, end))
        self.jump(code, start, s.span)
        end.pc = len(code)

    def s_Turn(self, code, s: ast.Turn, env, loop):
        self.stmt(code, s.span, f"_begin_turn(st, {self.expr(s.player, env)})")
        self.block(code, s.body, env.child(), loop)

    def s_Move(self, code, s: ast.Move, env, loop):
        dest = self.expr(s.dest, env)
        at = self.expr(s.at, env) if s.at is not None else "None"
        what = self.expr(s.what, env)
        bottom = s.position == "bottom"
        lines = [f"_k = {dest}", f"_c = {at}"]
        if is_list(self.type_of(s.what)):
            lines.append(f"_rt.move_all(st, {what}, _k, _c, {bottom})")
        else:
            lines.append(f"_rt.move(st, {what}, _k, _c, {bottom})")
        self.stmt(code, s.span, *lines)

    def s_Shuffle(self, code, s: ast.Shuffle, env, loop):
        self.stmt(code, s.span, f"_shuffle(st, st.zones[{self.expr(s.zone, env)}])", "st.memo.clear()")

    def s_Choose(self, code, s: ast.Choose, env: Env, loop):
        if s.each is not None:
            return self.sealed_choose(code, s, env)
        source = self.expr(s.source, env)
        by = self.expr(s.by, env) if s.by is not None else "st.current"
        prompt = self.standalone_text(s.prompt, env, s.span) if s.prompt is not None else None
        slot = env.new(s.var)
        label = self.standalone_text(s.label, env, s.span) if s.label is not None else None
        t = element(self.type_of(s.source))
        site = (code.name, len(code))
        self.game.choices[site] = ChoiceSite(prompt or f"Choose {s.var}", label, self.renderer(t),
                                             self.identifier(t), t not in self.spec.kinds,
                                             self.unique_component_ids() if t in self.spec.kinds else frozenset())
        code.emit(Instruction("choose", s.span, lines=[
            f"_values = _options({source}, {s.var!r}, st)",
            f"_decide(st, _values, {by}, {slot}, {site!r})"]))

    def sealed_choose(self, code, s: ast.Choose, env: Env):
        """`choose NAME from LIST by each P in PLAYERS`: each player's options are worked out
        with P naming that player; the engine asks them in turn, keeps the choices sealed and
        reveals them together as a list by seat (Game.decide_sealed)."""
        players = self.expr(s.by, env)
        inner = env.child()
        binder = inner.new(s.each)
        source = self.expr(s.source, inner)
        prompt = self.standalone_text(s.prompt, inner, s.span) if s.prompt is not None else None
        slot = env.new(s.var)
        inner.names[s.var], inner.slots[s.var] = f"L[{slot}]", slot
        label = self.standalone_text(s.label, inner, s.span) if s.label is not None else None
        t = element(self.type_of(s.source))
        site = (code.name, len(code))
        self.game.choices[site] = ChoiceSite(prompt or f"Choose {s.var}", label, self.renderer(t),
                                             self.identifier(t), t not in self.spec.kinds)
        code.emit(Instruction("choose", s.span, lines=[
            "_sealed_by = []",
            f"for _seat in {players}:",
            "    if _seat not in _sealed_by:",
            "        _sealed_by.append(_seat)",
            "_sealed_options = []",
            "for _seat in _sealed_by:",
            f"    L[{binder}] = _seat",
            f"    _sealed_options.append(_options({source}, {s.var!r}, st))",
            f"_rt.decide_sealed(st, L, _sealed_by, _sealed_options, {slot}, {binder}, {site!r})"]))

    def s_Break(self, code, s, env, loop):
        self.jump(code, loop[1], s.span)

    def s_Continue(self, code, s, env, loop):
        self.jump(code, loop[0], s.span)

    def s_Return(self, code, s, env, loop):
        code.emit(Instruction("return", s.span))

    def s_Log(self, code, s: ast.Log, env, loop):
        # the log keeps its last 100 to 200 lines (written here, not called: logs are frequent)
        self.stmt(code, s.span, f"st.log.append({self.text(s.text, env)})", "if len(st.log) > 200:",
                  "    del st.log[:100]")

    def s_Show(self, code, s: ast.Show, env, loop):
        # Only the play screen listens (game.on_show); bots and simulations pay one test.
        self.stmt(code, s.span, f"if _rt.on_show is not None: _rt.on_show(st, {self.text(s.text, env)})")

    def s_Finish(self, code, s, env, loop):
        if s.name is not None:
            self.stmt(code, s.span, f"_record_ending(st, {s.name!r})")
        code.emit(Instruction("finish", s.span))

    def s_Fallback(self, code, s, env, loop):
        self.stmt(code, s.span, f"_record_ending(st, {s.name!r})")

    def s_Fail(self, code, s: ast.Fail, env, loop):
        self.stmt(code, s.span, f"raise _Problem({self.text(s.text, env)})")

    # ------------------------------------------------------------------ assembly
    def padded(self, source: str) -> str:
        """A call's new frame with its locals padded to the procedure's size, now that every
        body is compiled: `[a, b` + marker + `]` becomes `[a, b, None, None]`."""
        def pad(match) -> str:
            given = int(match.group(2))
            missing = self.game.code[match.group(1)].nslots - given
            return (", " if given and missing else "") + ", ".join(["None"] * missing)
        return _PADDING.sub(pad, source)

    def assemble(self) -> dict:
        """Write each body's blocks, run the module, and hand the functions to the bodies."""
        starts = {}
        for name, code in self.game.code.items():
            for ins in code.instructions:
                if ins.kind == "call":
                    ins.lines = [self.padded(line) for line in ins.lines]
                    ins.extra = self.padded(ins.extra) if ins.extra is not None else None
        jumps = {}          # body name -> {pc: the pc its block only jumps to}
        for name, code in self.game.code.items():
            starts[name] = block_starts(code.instructions)
            jumps[name] = {}
            for pc in starts[name]:
                target = block_source(self.module, name, f"b_{name}_{pc}", code.instructions, pc)
                if target is not None:
                    jumps[name][pc] = target
        namespace = self.module.execute()
        self.game.namespace = namespace
        self.game.generated = self.module
        self.game.modules[self.module.filename] = self.module
        for name, code in self.game.code.items():
            code.game = self.game
            code.blocks = [None] * len(code) + [_end_of_body]
            for pc in starts[name]:
                code.blocks[pc] = namespace[f"b_{name}_{pc}"]
            for pc in jumps[name]:      # a block that only jumps: the engine runs the target's
                target, seen = pc, set()
                while target in jumps[name] and target not in seen:
                    seen.add(target)
                    target = jumps[name][target]
                if target not in seen and code.blocks[target] is not None:
                    code.blocks[pc] = code.blocks[target]
        return namespace


def _end_of_body(st, F):
    """Past a body's last instruction: return to the caller."""
    st.frames.pop()


def _worth_memoising(decl, spec) -> bool:
    """A fn is memoised when its body loops (a comprehension) and its arguments can be dict
    keys (no lists); fns that draw random numbers (`shuffled`) are never memoised."""
    loops = hashable = True
    found_loop = False
    for node in _walk(decl.body):
        if isinstance(node, ast.ListComp):
            found_loop = True
        if isinstance(node, ast.Call) and node.func == "shuffled":
            loops = False
    for p in decl.params:
        if isinstance(p.type, ast.ListTypeRef):
            hashable = False
    return loops and hashable and found_loop and not _calls_random(decl.name, spec, set())


def _readers(spec, memoised: set) -> dict:
    """Variable (or param) name -> the memoised fns whose value may depend on it."""
    reads: dict = {}
    for name, decl in spec.fns.items():
        reads[name] = ({n.id for n in _walk(decl.body) if isinstance(n, ast.Name)},
                       {n.func for n in _walk(decl.body) if isinstance(n, ast.Call) and n.func in spec.fns})
    out: dict = {}
    for fn in memoised:
        seen, todo, names = {fn}, [fn], set()
        while todo:
            names_read, calls = reads[todo.pop()]
            names |= names_read
            for c in calls - seen:
                seen.add(c)
                todo.append(c)
        for n in names:
            if n in spec.vars or n in spec.params:
                out.setdefault(n, set()).add(fn)
    return out


def _choice_free(spec) -> set:
    """The procedures that never wait for a choice: no `choose` in them or in any procedure
    they call, and none of them calls itself (directly or through others)."""
    calls, chooses = {}, set()
    for name, decl in spec.procs.items():
        nodes = list(_walk(decl.body))
        calls[name] = {n.name for n in nodes if isinstance(n, ast.CallStmt)}
        if any(isinstance(n, ast.Choose) for n in nodes):
            chooses.add(name)
    free = set()
    for name in calls:
        reached, todo, cyclic = set(), [name], False
        while todo:
            for callee in calls.get(todo.pop(), ()):
                if callee == name:
                    cyclic = True
                if callee not in reached:
                    reached.add(callee)
                    todo.append(callee)
        if not cyclic and name not in chooses and not reached & chooses and reached <= set(calls):
            free.add(name)
    return free


def _recursive(name: str, spec) -> bool:
    """Whether a fn can call itself (directly or through others)."""
    todo, seen = [name], set()
    while todo:
        current = todo.pop()
        for node in _walk(spec.fns[current].body):
            if isinstance(node, ast.Call) and node.func in spec.fns:
                if node.func == name:
                    return True
                if node.func not in seen:
                    seen.add(node.func)
                    todo.append(node.func)
    return False


def _calls_random(name: str, spec, seen: set) -> bool:
    if name in seen or name not in spec.fns:
        return False
    seen.add(name)
    for node in _walk(spec.fns[name].body):
        if isinstance(node, ast.Call) and (node.func == "shuffled" or _calls_random(node.func, spec, seen)):
            return True
    return False


def _draws_random(expr, spec) -> bool:
    """Whether evaluating `expr` may draw random numbers (`shuffled`, directly or in a fn)."""
    return any(isinstance(node, ast.Call) and (node.func == "shuffled" or _calls_random(node.func, spec, set()))
               for node in _walk(expr))


def _shape(node):
    """A node without its spans: two writings of the same expression compare equal."""
    if isinstance(node, (list, tuple)):
        return tuple(_shape(item) for item in node)
    if isinstance(node, ast.Node):
        return (type(node).__name__,) + tuple(_shape(v) for k, v in vars(node).items() if k != "span")
    return node


def _walk(node):
    yield node
    if isinstance(node, (list, tuple)):
        for item in node:
            yield from _walk(item)
    elif isinstance(node, ast.Node):
        for value in vars(node).values():
            if isinstance(value, (ast.Node, list, tuple)):
                yield from _walk(value)


# ---------------------------------------------------------------------------- whole games
def compile_game(spec, types: dict):
    """Compile a checked GameSpec into a runnable `Game`."""
    game = Game(spec)
    game.param_types = {name: types.get(id(decl.value), "any") for name, decl in spec.params.items()}
    compiler = Compiler(game, spec, types)
    for name, decl in spec.fns.items():
        compiler.function(decl)
    bodies = {name: (decl.body, decl.params) for name, decl in spec.procs.items()}
    for key in ("setup", "play"):
        decl = getattr(spec, key)
        if decl is not None:
            bodies[key] = (decl.body, ())
    for name, (stmts, params) in bodies.items():
        game.code[name] = compiler.body(name, stmts, params)
    game.code_sizes.update({name: code.nslots for name, code in game.code.items()})

    params = [(name, compiler.standalone(spec.params[name].value)) for name in spec.param_order()[0]]
    inits = []
    for name, decl in spec.vars.items():
        init = compiler.standalone(decl.init, ["p"]) if decl.init is not None else None
        inits.append((name, decl.per, init))
    score_lines = _lines(compiler, spec.score.lines, [spec.score.var]) if spec.score else []
    tiebreak_lines = _lines(compiler, spec.tiebreak.lines, [spec.tiebreak.var]) if spec.tiebreak else []
    winners = compiler.standalone(spec.winners.value) if spec.winners is not None else None
    opponent_lines = [(title, _lines(compiler, decl.lines)) for title, decl in spec.opponents.items()]
    compiler.static_labels = True       # a label's text shows other components by their data label
    shown = {kind: (compiler.standalone(decl.value, [decl.var]), decl.span) for kind, decl in spec.labels.items()}
    compiler.static_labels = False
    invariants = [(title, compiler.standalone(decl.value), decl.span) for title, decl in spec.invariants.items()]
    judge = (compiler.standalone(spec.heuristic.value, [spec.heuristic.var])
             if spec.heuristic is not None else None)
    told = compiler.standalone(spec.brief.value, [spec.brief.var]) if spec.brief is not None else None

    ns = compiler.assemble()

    def resolve(pair):
        return (ns[pair[0]], pair[1]) if pair is not None else None

    for site in game.choices.values():
        site.prompt = ns[site.prompt] if site.prompt in ns else _constant_text(site.prompt)
        site.label = ns[site.label] if site.label is not None else None
    params = [(name, resolve(pair)) for name, pair in params]
    inits = [(name, per, resolve(init)) for name, per, init in inits]
    score_lines = [(title, ns[f], env, span) for title, f, env, span in score_lines]
    tiebreak_lines = [(title, ns[f], env, span) for title, f, env, span in tiebreak_lines]
    winners = resolve(winners)
    opponent_lines = [(title, [(t, ns[f], env, span) for t, f, env, span in sheet]) for title, sheet in opponent_lines]
    invariants = [(title, resolve(pair), span) for title, pair, span in invariants]
    for kind, (pair, span) in shown.items():
        fn, env = resolve(pair)
        game.shown_labels[kind] = lambda st, c, fn=fn, env=env, span=span: _evaluate(fn, env, st, [c], span)

    # Params are the same in every game of a player count (and --set), unless they draw random
    # numbers: worked out once per player count. A per-component var's start value is the
    # same for every component unless it draws random numbers: worked out once per game.
    fixed_params = not any(_draws_random(spec.params[name].value, spec) for name, _ in params)
    known_params: dict = {}
    single_inits = {name for name, decl in spec.vars.items()
                    if decl.init is not None and not _draws_random(decl.init, spec)}
    # Nor do the vars' start values when none draws random numbers (the zones they could read
    # are as setup_state made them): all of st.vars is then worked out once per player count.
    # Their lists are shared between games as between copies of a state: never changed in place.
    fixed_vars = fixed_params and len(single_inits) == sum(1 for d in spec.vars.values() if d.init is not None)
    known_vars: dict = {}

    def initialize_vars(st):
        key = (st.players, tuple(sorted(game.param_overrides.items()))) if fixed_params else None
        if fixed_vars:
            known = known_vars.get(key)
            if known is not None:
                st.vars.update(known)
                return
        known = known_params.get(key) if key is not None else None
        if known is not None:
            st.vars.update(known)
        else:
            for name, (fn, env) in params:
                if name in game.param_overrides:
                    st.vars[name] = game.param_overrides[name]
                else:
                    st.vars[name] = _evaluate(fn, env, st, decl_span=spec.params[name].span)
            if key is not None:
                known_params[key] = {name: st.vars[name] for name, _ in params}
        for name, per, init in inits:
            if init is None:
                value = lambda p=None: None
            else:
                fn, env = init
                value = lambda p=None, fn=fn, env=env, name=name: _evaluate(
                    fn, env, st, [p], spec.vars[name].span)
            if per == "player":
                st.vars[name] = [value(p) for p in range(st.players)]
            elif per is not None and name in single_inits and game.components:    # by component id
                st.vars[name] = [value()] * len(game.components)
            elif per is not None:
                st.vars[name] = [value() for _ in range(len(game.components))]
            else:
                st.vars[name] = value()
        if fixed_vars:
            known_vars[key] = dict(st.vars)

    score_sign = game.score_sign = -1 if spec.score is not None and spec.score.lowest_wins else 1
    tie_sign = -1 if spec.tiebreak is not None and spec.tiebreak.lowest_wins else 1

    def scores(st):
        st.memo.clear()
        return tuple(sum(_line_values(score_lines, st, p)) for p in range(st.players))

    def result(st):
        st.memo.clear()
        lines = tuple(_sheet(score_lines, st, p) for p in range(st.players))
        ties = tuple(_sheet(tiebreak_lines, st, p) for p in range(st.players))
        scores = tuple(sum(line.values()) for line in lines)
        if winners is not None:
            fn, env = winners
            chosen = _evaluate(fn, env, st, [], spec.winners.span)
            won = tuple(sorted(set(chosen)))
        else:
            # The best key is the highest: a lowest-wins score or tiebreak counts negated.
            keys = [(score_sign * scores[p],) + tuple(tie_sign * v for v in ties[p].values())
                    for p in range(st.players)]
            best = max(keys)
            won = tuple(p for p in range(st.players) if keys[p] == best)
        sheets = tuple((title, _sheet(sheet, st, None))
                       for title, sheet in opponent_lines)
        if winners is None and sheets and max(score_sign * s for s in scores) <= max(
                score_sign * sum(s.values()) for _, s in sheets):
            won = ()            # a scripted opponent must be beaten: equalling it is not enough
        return Result(scores, lines, ties, won, sheets)

    def for_a_seat(pair, span):
        """(state, seat) -> the value of a declaration for one player (heuristic, brief)."""
        fn, env = resolve(pair)

        def evaluate(st, p):
            st.memo.clear()
            return _evaluate(fn, env, st, [p], span)
        return evaluate

    if judge is not None:
        game.heuristic = for_a_seat(judge, spec.heuristic.span)
    if told is not None:
        game.brief = for_a_seat(told, spec.brief.span)

    def failing_invariants(st):
        st.memo.clear()
        failed = []
        for title, (fn, env), span in invariants:
            try:
                holds = _evaluate(fn, env, st, [], span)
            except RuleError as err:
                raise InvariantError(title, err) from None
            if not holds:
                failed.append((title, span))
        return failed

    game.initialize_vars = initialize_vars
    game.result = result
    game.scores = scores
    game.failing_invariants = failing_invariants
    return game


def _constant_text(text: str):
    return lambda st, L: text


def _lines(compiler: Compiler, lines, names=()) -> list:
    """Score lines as (title, function name, locals, span); `names` are the locals they are given."""
    out = []
    for line in lines:
        fn, env = compiler.standalone(line.value, names, line.span)
        out.append((line.title, fn, env, line.span))
    return out


def _sheet(lines: list, st, seat) -> dict:
    """Score lines (as made by `_lines`) for one seat (None: no seat): title -> value."""
    return {line[0]: value for line, value in zip(lines, _line_values(lines, st, seat))}


def _line_values(lines: list, st, seat) -> list:
    """The values of score lines for one seat, in order. Expressions never write their
    locals, so one list serves every line."""
    L = [seat] + [None] * max((env.size for _, _, env, _ in lines), default=0)
    values = []
    span = None
    try:
        for _, fn, _, span in lines:
            values.append(fn(st, L))
    except Problem as problem:
        raise RuleError(Diagnostic(span, str(problem))) from None
    except RUNTIME_FAILURES as exc:
        raise RuleError(failure_diagnostic(span, exc)) from None
    return values


def _evaluate(fn, env: Env, st, args=(), decl_span=None):
    L = list(args) + [None] * (env.size - len(args))
    try:
        return fn(st, L)
    except Problem as problem:
        raise RuleError(Diagnostic(decl_span, str(problem))) from None
    except RUNTIME_FAILURES as exc:
        raise RuleError(failure_diagnostic(decl_span, exc)) from None

