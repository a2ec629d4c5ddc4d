"""The compiler: turns a checked GameSpec into closures and flat instruction lists.

Expressions become Python closures `f(st, L)` over the state and the current locals list.
Statements become flat instruction lists with jumps, so that the program counter is plain
data in the state (frames of [code name, pc, locals]) and play can stop at any choice.
Nothing on the hot path walks the AST again.
"""
from __future__ import annotations

import operator
import re

from ..dsl import ast
from ..dsl.types import BOOL, CELL, PLAYER, element, is_list
from ..dsl.errors import Diagnostic, RuleError
from .builtins import IMPLEMENTATIONS, RUNTIME_FAILURES, Problem, failure_diagnostic
from .engine import Game, Result
from .rng import shuffle_in_place
from .state import Pending


class Env:
    """Local-variable slots of one body; nested blocks share the slot counter."""

    def __init__(self, names=None, counter=None):
        self.names = dict(names or {})
        self.counter = counter if counter is not None else [0]

    def new(self, name: str) -> int:
        slot = self.counter[0]
        self.counter[0] += 1
        self.names[name] = slot
        return slot

    def child(self) -> "Env":
        return Env(self.names, self.counter)

    @property
    def size(self) -> int:
        return self.counter[0]


class Code:
    """The instructions of one body (setup, play or a procedure)."""

    def __init__(self, name: str):
        self.name = name
        self.ops: list = []
        self.spans: list = []
        self.roles: list = []       # per instruction: "statement", "jump" or a branch's description
        self.nslots = 0

    def emit(self, op, span, role: str = "statement") -> int:
        self.ops.append(op)
        self.spans.append(span)
        self.roles.append(role)
        return len(self.ops) - 1


class ChoiceSite:
    """How a `choose` statement words its decision: prompt, option labels and ids."""
    __slots__ = ("prompt", "label", "render", "identify", "injective")

    def __init__(self, prompt, label, render, identify, injective: bool):
        self.prompt, self.label, self.render = prompt, label, render
        self.identify, self.injective = identify, injective


class Target:
    """A jump target, patched once the code after it is known."""
    __slots__ = ("pc",)

    def __init__(self):
        self.pc = -1


_BINARY = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv,
           "%": operator.mod, "==": operator.eq, "!=": operator.ne, "<": operator.lt,
           "<=": operator.le, ">": operator.gt, ">=": operator.ge}


class Compiler:
    def __init__(self, game, spec, types: dict):
        self.game = game
        self.spec = spec
        self.types = types
        self.fns: dict = {}
        self.members = spec.member_enum
        self.static_labels = False      # True while compiling a `label` declaration's own text

    def type_of(self, e) -> str:
        return self.types.get(id(e), "any")

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
            return lambda v: "none" if v is None else re.sub(r"[^A-Za-z0-9]+", "-", game.labels[v]).strip("-").lower()
        if t == CELL:
            return lambda v: "none" if v is None else f"{v[0]},{v[1]}"
        if t == PLAYER:
            return lambda v: "none" if v is None else f"p{v + 1}"
        if t == BOOL:
            return lambda v: "yes" if v else "no"
        if is_list(t):
            return None
        return str

    def text(self, text: ast.Text, env: Env):
        parts = []
        for part in text.parts:
            if isinstance(part, str):
                parts.append((None, part))
            else:
                parts.append((self.expr(part, env), self.renderer(self.type_of(part))))
        if all(f is None for f, _ in parts):
            constant = "".join(p for _, p in parts)
            return lambda st, L: constant

        def render(st, L):
            return "".join(p if f is None else p(f(st, L), st) for f, p in parts)
        return render

    # ------------------------------------------------------------------ expressions
    def expr(self, e, env: Env):
        return getattr(self, "e_" + type(e).__name__)(e, env)

    def constant(self, e):
        """The value of an expression known at compile time (a zone that is not per player,
        a string or an enum member), else None."""
        if isinstance(e, ast.Name):
            if e.id in self.spec.zones and isinstance(self.game.zone_keys[e.id], str):
                return self.game.zone_keys[e.id]
            if e.id in self.members:
                return e.id
        if isinstance(e, ast.Text) and len(e.parts) == 1 and isinstance(e.parts[0], str):
            return e.parts[0]
        return None

    def e_Literal(self, e, env):
        value = e.value
        return lambda st, L: value

    def e_Text(self, e, env):
        return self.text(e, env)

    def e_Name(self, e: ast.Name, env: Env):
        name = e.id
        if name in env.names:
            slot = env.names[name]
            return lambda st, L: L[slot]
        if name in self.spec.params or name in self.spec.vars:
            return lambda st, L: st.vars[name]
        if name in self.spec.zones:
            keys = self.game.zone_keys[name]
            if isinstance(keys, str):
                return lambda st, L: keys
            return lambda st, L: keys[:st.players]
        if name in self.members:
            return lambda st, L: name
        if name == "players":
            seats = [list(range(n)) for n in range(self.game.max_players + 1)]
            return lambda st, L: seats[st.players]
        if name == "player_count":
            return lambda st, L: st.players
        if name == "current":
            return lambda st, L: st.current
        if name == "supply":
            return lambda st, L: "supply"
        raise AssertionError(f"unresolved name {name}")

    def e_Attribute(self, e: ast.Attribute, env):
        obj = self.expr(e.obj, env)
        attr = e.name
        if self.type_of(e.obj) == CELL:
            i = 0 if attr == "x" else 1
            return lambda st, L: obj(st, L)[i]
        table = self.game.components

        def get(st, L):
            c = obj(st, L)
            if c is None:
                raise Problem(f"'.{attr}' of none")
            return table[c][attr]
        return get

    def e_Index(self, e: ast.Index, env):
        obj, index = self.expr(e.obj, env), self.expr(e.index, env)

        def get(st, L):
            i = index(st, L)
            if i is None or i < 0:
                raise Problem(f"index {i} out of range")
            return obj(st, L)[i]
        return get

    def e_Call(self, e: ast.Call, env):
        if e.func == "components":
            ids = self.game.kind_ids[e.args[0].id]
            return lambda st, L: ids
        if e.func == "sorted" and element(self.type_of(e.args[0])) in self.spec.enums:
            rank = {m: i for i, m in enumerate(self.spec.enums[element(self.type_of(e.args[0]))])}
            items = self.expr(e.args[0], env)
            return lambda st, L: sorted(items(st, L), key=rank.__getitem__)
        args = [self.expr(a, env) for a in e.args]
        if e.func in self.spec.fns:
            fns, name = self.fns, e.func
            if len(args) == 1:
                a0 = args[0]
                return lambda st, L: fns[name](st, [a0(st, L)])
            return lambda st, L: fns[name](st, [a(st, L) for a in args])
        impl, rt = IMPLEMENTATIONS[e.func], self.game
        if len(args) == 1:
            a0 = args[0]
            return lambda st, L: impl(rt, st, a0(st, L))
        if len(args) == 2:
            a0, a1 = args
            first = self.constant(e.args[0])
            if first is not None:       # e.g. a zone name: skip one closure call per evaluation
                return lambda st, L: impl(rt, st, first, a1(st, L))
            return lambda st, L: impl(rt, st, a0(st, L), a1(st, L))
        return lambda st, L: impl(rt, st, *[a(st, L) for a in args])

    def e_Unary(self, e: ast.Unary, env):
        f = self.expr(e.operand, env)
        if e.op == "not":
            return lambda st, L: not f(st, L)
        if e.op == "-":
            return lambda st, L: -f(st, L)
        return f

    def e_Binary(self, e: ast.Binary, env):
        left, right = self.expr(e.left, env), self.expr(e.right, env)
        op = e.op
        if op == "and":
            return lambda st, L: left(st, L) and right(st, L)
        if op == "or":
            return lambda st, L: left(st, L) or right(st, L)
        if op == "in":
            return lambda st, L: left(st, L) in right(st, L)
        if op == "not in":
            return lambda st, L: left(st, L) not in right(st, L)
        if op in ("//", "%"):
            fn = _BINARY[op]

            def divide(st, L):
                d = right(st, L)
                if d == 0:
                    raise Problem("division by zero")
                return fn(left(st, L), d)
            return divide
        fn = _BINARY[op]
        return lambda st, L: fn(left(st, L), right(st, L))

    def e_Conditional(self, e, env):
        test, then, orelse = self.expr(e.test, env), self.expr(e.then, env), self.expr(e.orelse, env)
        return lambda st, L: then(st, L) if test(st, L) else orelse(st, L)

    def e_CellLit(self, e, env):
        x, y = self.expr(e.x, env), self.expr(e.y, env)
        return lambda st, L: (x(st, L), y(st, L))

    def e_ListLit(self, e, env):
        items = [self.expr(i, env) for i in e.items]
        return lambda st, L: [i(st, L) for i in items]

    def e_ListComp(self, e: ast.ListComp, env: Env):
        iterable = self.expr(e.iterable, env)
        inner = env.child()
        slot = inner.new(e.var)
        element_fn = self.expr(e.element, inner)
        if e.condition is None:
            def comp(st, L):
                out = []
                for v in iterable(st, L):
                    L[slot] = v
                    out.append(element_fn(st, L))
                return out
            return comp
        cond = self.expr(e.condition, inner)

        def filtered(st, L):
            out = []
            for v in iterable(st, L):
                L[slot] = v
                if cond(st, L):
                    out.append(element_fn(st, L))
            return out
        return filtered

    def e_Case(self, e: ast.Case, env):
        subject = self.expr(e.subject, env)
        default = self.expr(e.default, env) if e.default is not None else None
        arms = [(self.expr(k, env), self.expr(v, env)) for k, v in e.arms]

        def case(st, L):
            value = subject(st, L)
            for key, result in arms:
                if key(st, L) == value:
                    return result(st, L)
            if default is None:
                raise Problem(f"no case for {value!r}")
            return default(st, L)
        return case

    # ------------------------------------------------------------------ functions
    def function(self, decl: ast.FnDecl):
        env = Env()
        for p in decl.params:
            env.new(p.name)
        body = self.expr(decl.body, env)
        nargs = len(decl.params)

        def call(st, args):
            L = args + [None] * (env.size - nargs)
            return body(st, L)
        return call

    def standalone(self, e, names=()):
        """An expression evaluated outside any body (params, scores, invariants)."""
        env = Env()
        for n in names:
            env.new(n)
        fn = self.expr(e, env)
        return fn, env

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

    def jump(self, code: Code, target: Target, span):
        code.emit(_jump(target), span, "jump")

    def s_Let(self, code, s: ast.Let, env, loop):
        value = self.expr(s.value, env)
        slot = env.new(s.name)

        def let(st, F):
            F[2][slot] = value(st, F[2])
        code.emit(let, s.span)

    def s_Assign(self, code, s: ast.Assign, env, loop):
        value = self.expr(s.value, env)
        combine = {"=": None, "+=": operator.add, "-=": operator.sub}[s.op]
        index = self.expr(s.index, env) if s.index is not None else None
        name = s.name
        if name in env.names:
            slot = env.names[name]
            get = lambda st, L: L[slot]

            def put(st, L, v):
                L[slot] = v
        else:
            get = lambda st, L: st.vars[name]

            def put(st, L, v):
                st.vars[name] = v

        def assign(st, F):
            L = F[2]
            v = value(st, L)
            if index is None:
                if combine is not None:
                    v = combine(get(st, L), v)
                put(st, L, v)
                return
            i = index(st, L)
            items = list(get(st, L))        # copy on write: copies of the state share lists
            if i is None or not 0 <= i < len(items):
                raise Problem(f"index {i} out of range for '{name}'")
            items[i] = v if combine is None else combine(items[i], v)
            put(st, L, items)
        code.emit(assign, s.span)

    def s_CallStmt(self, code, s: ast.CallStmt, env, loop):
        args = [self.expr(a, env) for a in s.args]
        name = s.name
        sizes = self.game.code_sizes

        def call(st, F):
            L = F[2]
            values = [a(st, L) for a in args]
            st.frames.append([name, 0, values + [None] * (sizes[name] - len(values))])
        code.emit(call, s.span)

    def s_If(self, code, s: ast.If, env, loop):
        # Each branch starts with a no-op marker, so rule coverage can count branches taken.
        end = Target()
        for number, (cond, body) in enumerate(s.branches):
            test = self.expr(cond, env)
            skip = Target()
            code.emit(_jump_unless(test, skip), cond.span, "jump")
            code.emit(_branch, cond.span, "branch: " + ("then" if number == 0 else "elif"))
            self.block(code, body, env.child(), loop)
            self.jump(code, end, s.span)
            skip.pc = len(code.ops)
        code.emit(_branch, s.span, "branch: else" if s.orelse is not None else "branch: no condition held")
        if s.orelse is not None:
            self.block(code, s.orelse, env.child(), loop)
        end.pc = len(code.ops)

    def s_While(self, code, s: ast.While, env, loop):
        start, end = Target(), Target()
        start.pc = len(code.ops)
        code.emit(_jump_unless(self.expr(s.condition, env), end), s.span, "jump")
        self.block(code, s.body, env.child(), (start, end))
        self.jump(code, start, s.span)
        end.pc = len(code.ops)

    def s_For(self, code, s: ast.For, env: Env, loop):
        iterable = self.expr(s.iterable, env)
        inner = env.child()
        items_slot = inner.new(f" items{len(code.ops)}")
        index_slot = inner.new(f" index{len(code.ops)}")
        var_slot = inner.new(s.var)
        cond = self.expr(s.condition, inner) if s.condition is not None else None
        start, end = Target(), Target()

        def init(st, F):
            L = F[2]
            L[items_slot] = list(iterable(st, L))
            L[index_slot] = 0
        code.emit(init, s.span)
        start.pc = len(code.ops)

        def step(st, F):
            L = F[2]
            i = L[index_slot]
            items = L[items_slot]
            while i < len(items):
                L[var_slot] = items[i]
                i += 1
                if cond is None or cond(st, L):
                    L[index_slot] = i
                    return
            L[index_slot] = i
            F[1] = end.pc
        code.emit(step, s.span, "jump")
        self.block(code, s.body, inner, (start, end))
        self.jump(code, start, s.span)
        end.pc = len(code.ops)

    def s_Turn(self, code, s: ast.Turn, env, loop):
        player = self.expr(s.player, env)

        def begin(st, F):
            p = player(st, F[2])
            if p is None or not 0 <= p < st.players:
                raise Problem(f"a turn for a player who is not at the table ({p})")
            st.current = p
            st.turns[p] += 1
        code.emit(begin, s.span)
        self.block(code, s.body, env.child(), loop)

    def s_Move(self, code, s: ast.Move, env, loop):
        what, dest = self.expr(s.what, env), self.expr(s.dest, env)
        at = self.expr(s.at, env) if s.at is not None else None
        many = is_list(self.type_of(s.what))
        bottom = s.position == "bottom"
        move = self.game.move

        def do_move(st, F):
            L = F[2]
            key = dest(st, L)
            cell = at(st, L) if at is not None else None
            items = what(st, L)
            for c in (list(items) if many else (items,)):
                move(st, c, key, cell, bottom)
        code.emit(do_move, s.span)

    def s_Shuffle(self, code, s: ast.Shuffle, env, loop):
        zone = self.expr(s.zone, env)

        def shuffle(st, F):
            shuffle_in_place(st, st.zones[zone(st, F[2])])
        code.emit(shuffle, s.span)

    def s_Choose(self, code, s: ast.Choose, env: Env, loop):
        source = self.expr(s.source, env)
        by = self.expr(s.by, env) if s.by is not None else None
        prompt = self.text(s.prompt, env) if s.prompt is not None else None
        slot = env.new(s.var)
        label = self.text(s.label, env) if s.label is not None else None
        t = element(self.type_of(s.source))
        site = (code.name, len(code.ops))
        self.game.choices[site] = ChoiceSite(prompt or (lambda st, L, text=f"Choose {s.var}": text),
                                             label, self.renderer(t), self.identifier(t),
                                             t not in self.spec.kinds)

        def choose(st, F):
            L = F[2]
            values = []
            seen = set()
            for v in source(st, L):
                key = tuple(v) if type(v) is list else v
                if key not in seen:
                    seen.add(key)
                    values.append(v)
            if not values:
                raise Problem(f"nothing to choose from for '{s.var}'")
            if st.frames[0][0] == "setup":
                raise Problem("setup runs without choices: make this choice at the start of 'play'")
            player = by(st, L) if by is not None else st.current
            if player is None:
                raise Problem("no player to make this choice: use 'by PLAYER' or a 'turn'")
            st.pending = Pending(player, tuple(values), slot, site)
        code.emit(choose, s.span)

    def s_Break(self, code, s, env, loop):
        self.jump(code, loop[1], s.span)

    def s_Continue(self, code, s, env, loop):
        self.jump(code, loop[0], s.span)

    def s_Return(self, code, s, env, loop):
        def ret(st, F):
            st.frames.pop()
        code.emit(ret, s.span)

    def s_Log(self, code, s: ast.Log, env, loop):
        text = self.text(s.text, env)

        def log(st, F):
            st.log.append(text(st, F[2]))
            if len(st.log) > 200:
                del st.log[:100]
        code.emit(log, s.span)

    def s_Show(self, code, s: ast.Show, env, loop):
        text = self.text(s.text, env)
        game = self.game

        def show(st, F):
            if game.on_show is not None:        # only the play screen listens; bots pay one test
                game.on_show(st, text(st, F[2]))
        code.emit(show, s.span)

    def s_Finish(self, code, s, env, loop):
        def finish(st, F):
            st.finished = True
            st.frames.clear()
        code.emit(finish, s.span)

    def s_Fail(self, code, s: ast.Fail, env, loop):
        text = self.text(s.text, env)

        def fail(st, F):
            raise Problem(text(st, F[2]))
        code.emit(fail, s.span)


def _branch(st, F):
    """Marks the start of a branch (a no-op; rule coverage counts it)."""


def _jump(target: Target):
    def jump(st, F):
        F[1] = target.pc
    return jump


def _jump_unless(test, target: Target):
    def jump_unless(st, F):
        if not test(st, F[2]):
            F[1] = target.pc
    return jump_unless


# ---------------------------------------------------------------------------- whole games
def compile_game(spec, types: dict):
    """Compile a checked GameSpec into a runnable `Game`."""
    game = Game(spec)
    compiler = Compiler(game, spec, types)
    for name, decl in spec.fns.items():
        compiler.fns[name] = compiler.function(decl)
    bodies = {name: (decl.body, decl.params) for name, decl in spec.procs.items()}
    for key in ("setup", "play"):
        decl = getattr(spec, key)
        if decl is not None:
            bodies[key] = (decl.body, ())
    # Slot counts are needed by call instructions before every body is compiled.
    for name, (stmts, params) in bodies.items():
        game.code[name] = compiler.body(name, stmts, params)
    game.code_sizes.update({name: code.nslots for name, code in game.code.items()})

    params = [(name, compiler.standalone(spec.params[name].value)) for name in spec.param_order()[0]]
    inits = []
    for name, decl in spec.vars.items():
        init = compiler.standalone(decl.init, ["p"]) if decl.init is not None else None
        inits.append((name, decl.per, init))

    def initialize_vars(st):
        for name, (fn, env) in params:
            if name in game.param_overrides:
                st.vars[name] = game.param_overrides[name]
            else:
                st.vars[name] = _evaluate(fn, env, st, decl_span=spec.params[name].span)
        for name, per, init in inits:
            if init is None:
                value = lambda p=None: None
            else:
                fn, env = init
                value = lambda p=None, fn=fn, env=env, name=name: _evaluate(
                    fn, env, st, [p], spec.vars[name].span)
            if per == "player":
                st.vars[name] = [value(p) for p in range(st.players)]
            elif per is not None:       # indexed by component id
                st.vars[name] = [value() for _ in range(len(game.components))]
            else:
                st.vars[name] = value()

    score_lines = _lines(compiler, spec.score.lines, [spec.score.var]) if spec.score else []
    tiebreak_lines = _lines(compiler, spec.tiebreak.lines, [spec.tiebreak.var]) if spec.tiebreak else []
    winners = compiler.standalone(spec.winners.value) if spec.winners is not None else None
    opponent_lines = [(title, _lines(compiler, decl.lines)) for title, decl in spec.opponents.items()]
    compiler.static_labels = True       # a label's text shows other components by their data label
    shown = {kind: (compiler.standalone(decl.value, [decl.var]), decl.span) for kind, decl in spec.labels.items()}
    compiler.static_labels = False
    for kind, ((fn, env), span) in shown.items():
        game.shown_labels[kind] = lambda st, c, fn=fn, env=env, span=span: _evaluate(fn, env, st, [c], span)

    def result(st):
        lines = tuple({title: _evaluate(fn, env, st, [p], span) for title, fn, env, span in score_lines}
                      for p in range(st.players))
        ties = tuple({title: _evaluate(fn, env, st, [p], span) for title, fn, env, span in tiebreak_lines}
                     for p in range(st.players))
        scores = tuple(sum(line.values()) for line in lines)
        if winners is not None:
            fn, env = winners
            chosen = _evaluate(fn, env, st, [], spec.winners.span)
            won = tuple(sorted(set(chosen)))
        else:
            keys = [(scores[p],) + tuple(ties[p].values()) for p in range(st.players)]
            best = max(keys)
            won = tuple(p for p in range(st.players) if keys[p] == best)
        sheets = tuple((title, {line: _evaluate(fn, env, st, [], span) for line, fn, env, span in sheet})
                       for title, sheet in opponent_lines)
        if winners is None and sheets and max(scores) <= max(sum(s.values()) for _, s in sheets):
            won = ()            # a scripted opponent must be beaten: equalling it is not enough
        return Result(scores, lines, ties, won, sheets)

    invariants = [(title, compiler.standalone(decl.value), decl.span) for title, decl in spec.invariants.items()]
    if spec.heuristic is not None:
        judge, judge_env = compiler.standalone(spec.heuristic.value, [spec.heuristic.var])
        game.heuristic = lambda st, p: _evaluate(judge, judge_env, st, [p], spec.heuristic.span)
    if spec.brief is not None:
        told, told_env = compiler.standalone(spec.brief.value, [spec.brief.var])
        game.brief = lambda st, p: _evaluate(told, told_env, st, [p], spec.brief.span)

    def failing_invariants(st):
        failed = []
        for title, (fn, env), span in invariants:
            if not _evaluate(fn, env, st, [], span):
                failed.append((title, span))
        return failed

    game.initialize_vars = initialize_vars
    game.result = result
    game.failing_invariants = failing_invariants
    return game


def _lines(compiler: Compiler, lines, names=()) -> list:
    """Score lines as (title, closure, locals, span); `names` are the locals they are given."""
    out = []
    for line in lines:
        fn, env = compiler.standalone(line.value, names)
        out.append((line.title, fn, env, line.span))
    return out


def _evaluate(fn, env: Env, st, args=(), decl_span=None):
    L = list(args) + [None] * (env.size - len(args))
    try:
        return fn(st, L)
    except Problem as problem:
        raise RuleError(Diagnostic(decl_span, str(problem))) from None
    except RUNTIME_FAILURES as exc:
        raise RuleError(failure_diagnostic(decl_span, exc)) from None
