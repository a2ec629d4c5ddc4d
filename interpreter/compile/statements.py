"""The compiler's statements: `s_<Node>` appends the instructions of a statement of that AST
node kind to a body's `Code`; `assemble` then writes every body's blocks of instructions as
Python functions (interpreter/compile/codegen.py) and runs the generated module. A mixin of
`Compiler` (interpreter/compile/compiler.py).
"""
from __future__ import annotations

import re

from ...dsl import ast
from ...dsl.types import element, is_list
from .analysis import draws_random
from .codegen import Instruction, block_source, block_starts
from .pieces import ChoiceSite, Code, Env, Target

_PAD = "\x00"            # marks where a call's frame is padded (never in generated text: repr escapes it)
_PADDING = re.compile("\x00([A-Za-z_][A-Za-z0-9_]*)\x00([0-9]+)\x00")


class StatementCompiler:
    """Statements to instructions, and bodies to generated functions (see the module docstring)."""

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
        begin = "_begin_turn" if self.turn_forgets else "_begin_turn_keeping"   # memo unchanged
        self.stmt(code, s.span, f"{begin}(st, {self.expr(s.player, env)})")
        self.block(code, s.body, env.child(), loop)

    def s_Move(self, code, s: ast.Move, env, loop):
        dest = self.expr(s.dest, env)
        at = self.expr(s.at, env) if s.at is not None else "None"
        what = self.expr(s.what, env)
        bottom = s.position == "bottom"
        lines = [f"_k = {dest}", f"_c = {at}"]
        if s.turn is not None:
            lines.append(f"_rt.move(st, {what}, _k, _c, {bottom}, {self.expr(s.turn, env)})")
        elif is_list(self.type_of(s.what)):
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
        ident = self.standalone_text(s.ident, env, s.span) if s.ident is not None else None
        t = element(self.type_of(s.source))
        site = (code.name, len(code))
        self.game.choices[site] = ChoiceSite(prompt or f"Choose {s.var}", label, self.renderer(t),
                                             self.identifier(t), self.ids_differ(t),
                                             self.unique_component_ids() if t in self.spec.kinds else frozenset(),
                                             ident)
        if draws_random(s.source, self.spec):      # drawn now, in the order the rules say
            code.emit(Instruction("choose", s.span, lines=[
                f"_values = _options({source}, {s.var!r}, st)",
                f"_decide(st, _values, {by}, {slot}, {site!r})"]))
            return
        fname = self.fresh("o")         # the options, worked out when first asked for
        self.module.add(f"def {fname}(st, L):", s.span)
        self.module.add(f"    return _options({source}, {s.var!r}, st)", s.span)
        code.emit(Instruction("choose", s.span, lines=[
            f"_decide_later(st, {by}, {slot}, {site!r}, {fname}, _options_now)"]))

    def ids_differ(self, t: str) -> bool:
        """Whether distinct options of type t always get distinct ids: not for components
        (copies share a label) nor records (their fields' ids joined: copies again, or texts
        holding '/'), whose repeated ids are numbered ('red-5#2')."""
        return t not in self.spec.kinds and t not in self.spec.records

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
        ident = self.standalone_text(s.ident, inner, s.span) if s.ident is not None else None
        t = element(self.type_of(s.source))
        site = (code.name, len(code))
        self.game.choices[site] = ChoiceSite(prompt or f"Choose {s.var}", label, self.renderer(t),
                                             self.identifier(t), self.ids_differ(t), frozenset(), ident)
        code.emit(Instruction("choose", s.span, lines=[
            "_sealed_by = []",
            f"for _seat in {players}:",
            "    _check_sealed_chooser(st, _seat)",
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
        lines = (f"st.log.append({self.text(s.text, env)})", "if len(st.log) > 200:", "    del st.log[:100]")
        if not draws_random(s.text, self.spec):     # a bot's imagined position (State.quiet) writes none
            lines = ("if not st.quiet:",) + tuple("    " + line for line in lines)
        self.stmt(code, s.span, *lines)

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
        namespace["_options_now"] = self.game.options_now
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

