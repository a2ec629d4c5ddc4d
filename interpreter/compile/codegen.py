"""Generated Python source: a module builder with a line map, block assembly, and the code cache.

The compiler (interpreter/compile/compiler.py) writes rule files as Python source, the way a template
engine compiles templates. `Module` collects the source lines, remembers for every line the
rule-file span it came from (so a run-time error points at the rule line), and holds the
namespace the code runs in (constants built once, built-in implementations, helpers).

Statements are kept as a flat list of `Instruction`s per body (the program counter in a state
indexes them, so states stay plain data). `block_source` turns a run of instructions that
starts at one program counter into one Python function: straight-line code with early exits,
ending where control must go back to the engine (a jump back, a call, a choice, a return).

Compiled code objects are cached in memory and on disk, keyed by the hash of the generated
source (itself a function of the rule file's content), so an unchanged game skips Python's
compiler; a stale or damaged cache file is ignored and rewritten.
"""
from __future__ import annotations

import hashlib
import marshal
import sys
from pathlib import Path

from ...dsl.cache import cache_dir, read_cache_file, store_cache_file

CODEGEN_VERSION = "1"
MAX_BLOCK = 80                  # instructions in one generated block function, at most


class Instruction:
    """One statement-level instruction. `kind` is one of: stmt (plain lines of code), branch
    (a no-op marker for coverage), jump, jump_unless, for_step, call, choose, return, finish.
    A call's `extra` is the new frame's source when the procedure may run at once (no choice
    in it), else None."""
    __slots__ = ("kind", "lines", "span", "role", "target", "test", "extra")

    def __init__(self, kind, span, role="statement", lines=(), target=None, test=None, extra=None):
        self.kind, self.span, self.role = kind, span, role
        self.lines = list(lines)
        self.target, self.test, self.extra = target, test, extra


class Module:
    """Python source under construction, with the rule span of every line."""

    def __init__(self, filename: str):
        self.filename = filename
        self.lines: list[str] = []
        self.spans: list = []
        self.namespace: dict = {}
        self._constants: dict = {}
        self.inlined: dict = {}         # text -> (fn name, body span) of each fn body inlined at a call

    def inlined_at(self, lineno: int, column: int, end_column: int) -> list:
        """(fn name, body span) of the inlined fn bodies holding columns column..end_column of a
        generated line, outermost first (read only when a rule error is reported)."""
        if not 1 <= lineno <= len(self.lines):
            return []
        line = self.lines[lineno - 1].encode()
        found = []
        for text, (name, span) in self.inlined.items():
            needle = text.encode()
            at = line.find(needle)
            while at >= 0:
                if at <= column and end_column <= at + len(needle):
                    found.append((len(needle), name, span))
                    break
                at = line.find(needle, at + 1)
        return [(name, span) for _, name, span in sorted(found, key=lambda f: -f[0])]

    def add(self, text: str, span=None) -> None:
        for line in text.split("\n"):
            self.lines.append(line)
            self.spans.append(span)

    def const(self, value, prefix: str = "k") -> str:
        """A name in the namespace bound to `value` (built once, at load time)."""
        try:
            key = (prefix, type(value).__name__, repr(value)) if not callable(value) else (prefix, id(value))
        except Exception:
            key = (prefix, id(value))
        name = self._constants.get(key)
        if name is None:
            name = f"_{prefix}{len(self._constants)}"
            self._constants[key] = name
            self.namespace[name] = value
        return name

    @property
    def source(self) -> str:
        return "\n".join(self.lines) + "\n"

    def span_at(self, lineno: int):
        if 1 <= lineno <= len(self.spans):
            return self.spans[lineno - 1]
        return None

    def execute(self) -> dict:
        """Compile (or take from the cache) and run the source; return its namespace."""
        code = compiled(self.source, self.filename)
        namespace = dict(self.namespace)
        namespace["__name__"] = "boardwright_generated"
        exec(code, namespace)
        return namespace


# ---------------------------------------------------------------------------- blocks
def block_source(module: Module, name: str, fname: str, instructions: list, start: int, limit: int = MAX_BLOCK):
    """Write the function `fname(st, F)` running instructions from `start` until control must
    return to the engine; it leaves the next program counter in F[1].

    The rule file's structure comes back as Python's: an if/elif/else chain becomes if/else, a
    while or for loop a Python loop (its rounds counted against the step limit), and a
    forward jump within the code being written is followed. Control returns to the engine at
    a call, a choice, a return, a finish, a jump out of the code written here, and after
    `limit` instructions (one, for rule coverage: then nothing is followed).

    Return the program counter the function only jumps to, when it does nothing else (the
    engine may then run the code there in its place), else None."""
    writer = _BlockWriter(instructions, limit)
    writer.region(start, len(instructions) + 1, 1)
    first = instructions[start].span if start < len(instructions) else None
    module.add(f"def {fname}(st, F):", first)
    module.add("    L = F[2]", first)
    if writer.looped:
        module.add("    _rounds = 0", first)
    for indent, text, span in writer.out:
        for line in text.split("\n"):
            module.add("    " * indent + line, span)
    texts = [text for _, text, _ in writer.out]
    if len(texts) == 2 and texts[0].startswith("F[1] = ") and texts[1] == "return" and not writer.looped:
        return int(texts[0][len("F[1] = "):])
    return None


MAX_NESTING = 40                # indentation levels of one generated function, at most
MAX_LOOPS = 12                  # Python loops nested in one generated function (CPython allows 20)


class _BlockWriter:
    """Writes the lines of one block function: (indent, text, span) in `out`."""

    def __init__(self, instructions: list, limit: int):
        self.instructions = instructions
        self.limit = limit
        self.structured = limit > 1
        self.emitted = 0
        self.loops: list = []           # (start pc, end pc) of the Python loops open, innermost last
        self.looped = False
        self.out: list = []

    def add(self, text, span, indent):
        self.out.append((indent, text, span))

    def exit(self, pc: int, span, indent) -> None:
        """Back to the engine, which goes on at pc."""
        self.add(f"F[1] = {pc}", span, indent)
        self.add("return", span, indent)

    def leave(self, target: int, span, indent) -> None:
        """Go on at `target`: the next round or the end of the innermost loop, else the engine."""
        if self.loops and target == self.loops[-1][0]:
            self.count_round(span, indent)
            self.add("continue", span, indent)
        elif self.loops and target == self.loops[-1][1]:
            self.add("break", span, indent)
        else:
            self.exit(target, span, indent)

    def goto(self, target: int, pc: int, stop: int, span, indent):
        """Control goes on at `target` from the jump at pc; return the pc to go on writing
        from (a forward jump within the region), or None when this region is done."""
        if self.structured and pc < target < stop and not (self.loops and target == self.loops[-1][1]):
            return target
        if self.structured and target == stop:
            return None                 # falls off the region's end, where the code goes on
        self.leave(target, span, indent)
        return None

    def count_round(self, span, indent):
        self.looped = True
        self.add("_rounds += 1", span, indent)
        self.add("if _rounds > _STEP_LIMIT:", span, indent)
        self.add("_loop_limit()", span, indent + 1)

    def nested(self, indent: int) -> bool:
        return self.structured and indent < MAX_NESTING and len(self.loops) < MAX_LOOPS

    def region(self, pc: int, stop: int, indent: int) -> None:
        """Write instructions pc.. until control leaves the region [pc, stop) (falling off its
        end goes on at stop)."""
        instructions = self.instructions
        n = len(instructions)
        while pc is not None and pc < stop:
            if pc >= n:         # past the last instruction: back to the caller
                self.add(f"F[1] = {n}", None, indent)
                self.add("st.frames.pop()", None, indent)
                self.add("return", None, indent)
                return
            if self.emitted >= self.limit:
                self.exit(pc, None, indent)
                return
            self.emitted += 1
            ins = instructions[pc]
            span, k = ins.span, ins.kind
            if k == "stmt":
                for line in ins.lines:
                    self.add(line, span, indent)
            elif k == "branch":
                pass
            elif k == "jump":
                pc = self.goto(ins.target.pc, pc, stop, span, indent)
                continue
            elif k in ("jump_unless", "for_step"):
                target = ins.target.pc
                back = self.closing_jump(pc, target, indent)     # where the body jumps to at its end
                if back == pc:          # a while or for loop
                    pc = self.loop(pc, target, indent, test=ins.test, step=ins.extra)
                    continue
                if k == "jump_unless" and back is not None and target <= back <= stop:
                    pc = self.branches(ins, pc, target, back, indent)
                    continue
                if k == "for_step":
                    self.for_step(ins, indent)
                else:
                    self.add(f"if not ({ins.test}):", span, indent)
                    self.leave(target, span, indent + 1)
            elif k == "call" and ins.extra is not None and self.structured:
                # a procedure without choices runs to its end now; the caller goes on here
                # unless it finished the game
                self.add(f"F[1] = {pc + 1}", span, indent)
                self.add(f"if not _rt.call(st, F, {ins.extra}):", span, indent)
                self.add("return", span, indent + 1)
            elif k in ("call", "choose"):
                for line in ins.lines:
                    self.add(line, span, indent)
                self.exit(pc + 1, span, indent)
                return
            elif k == "return":
                self.add("st.frames.pop()", span, indent)
                self.add("return", span, indent)
                return
            elif k == "finish":
                self.add("st.finished = True", span, indent)
                self.add("st.frames.clear()", span, indent)
                self.add("return", span, indent)
                return
            else:
                raise AssertionError(k)
            pc += 1

    def closing_jump(self, pc: int, target: int, indent: int):
        """The target of the jump just before `target` when the code from pc + 1 ends with one
        (a loop's jump back, an if branch's jump to the end), in structured writing; else None."""
        if not self.nested(indent) or not pc + 1 < target <= len(self.instructions):
            return None
        last = self.instructions[target - 1]
        return last.target.pc if last.kind == "jump" else None

    def branches(self, ins, pc: int, skip: int, end: int, indent: int) -> int:
        """`if` (the jump_unless at pc) ... `jump end` ... else (from skip): return end."""
        span = ins.span
        self.add(f"if {ins.test}:", span, indent)
        mark = len(self.out)
        self.region(pc + 1, skip - 1, indent + 1)
        if len(self.out) == mark:
            self.add("pass", span, indent + 1)
        self.add("else:", span, indent)
        mark = len(self.out)
        self.region(skip, end, indent + 1)
        if len(self.out) == mark:
            self.out.pop()              # no else: its line goes
        return end

    def loop(self, pc: int, end: int, indent: int, test=None, step=None) -> int:
        """A while (test) or for (step) loop from pc to the jump back at end - 1: one Python
        loop; return end, where the code goes on after it."""
        span = self.instructions[pc].span
        self.add("while True:", span, indent)
        inner = indent + 1
        if step is None:
            self.add(f"if not ({test}):", span, inner)
            self.add("break", span, inner + 1)
        else:
            items_slot, index_slot, var_slot, cond = step
            self.add(f"_i = L[{index_slot}]", span, inner)
            self.add(f"_items = L[{items_slot}]", span, inner)
            self.add("if _i >= len(_items):", span, inner)
            self.add("break", span, inner + 1)
            self.add(f"L[{var_slot}] = _items[_i]", span, inner)
            self.add(f"L[{index_slot}] = _i + 1", span, inner)
            if cond is not None:
                self.add(f"if not ({cond}):", span, inner)
                self.add("continue", span, inner + 1)
        self.loops.append((pc, end))
        self.region(pc + 1, end - 1, inner)
        self.count_round(self.instructions[end - 1].span, inner)     # the jump back
        self.loops.pop()
        return end

    def for_step(self, ins, indent: int) -> None:
        """The next item of a for loop (skipping those its filter refuses), or out of it."""
        span = ins.span
        items_slot, index_slot, var_slot, cond = ins.extra
        self.add(f"_i = L[{index_slot}]", span, indent)
        self.add(f"_items = L[{items_slot}]", span, indent)
        self.add("while True:", span, indent)
        self.add("if _i >= len(_items):", span, indent + 1)
        self.add(f"L[{index_slot}] = _i", span, indent + 2)
        self.exit(ins.target.pc, span, indent + 2)
        self.add(f"L[{var_slot}] = _items[_i]", span, indent + 1)
        self.add("_i += 1", span, indent + 1)
        if cond is None:
            self.add("break", span, indent + 1)
        else:
            self.add(f"if {cond}:", span, indent + 1)
            self.add("break", span, indent + 2)
        self.add(f"L[{index_slot}] = _i", span, indent)


def block_starts(instructions: list) -> list[int]:
    """Program counters where execution can enter a body: its start, jump targets and the
    instruction after a call or a choice (where play resumes)."""
    starts = {0}
    for pc, ins in enumerate(instructions):
        if ins.kind in ("jump", "jump_unless", "for_step"):
            starts.add(ins.target.pc)
        if ins.kind in ("call", "choose"):
            starts.add(pc + 1)
    extra = set()
    for s in starts:        # long straight runs are cut: their continuations are entries too
        pc = s
        while pc < len(instructions) and instructions[pc].kind not in ("jump", "call", "choose", "return", "finish"):
            pc += 1
            if pc - s >= MAX_BLOCK:
                extra.add(pc)
                break
    return sorted(p for p in starts | extra if p < len(instructions))


# ---------------------------------------------------------------------------- cache
_MEMORY: dict = {}


def cache_file(source: str) -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    tag = sys.implementation.cache_tag or "python"
    digest = hashlib.sha256((CODEGEN_VERSION + tag + source).encode("utf-8")).hexdigest()
    return folder / f"rules-{digest[:32]}.{tag}.bin"


def compiled(source: str, filename: str):
    """The code object of `source`: from memory, from the disk cache, or freshly compiled."""
    key = (source, filename)
    code = _MEMORY.get(key)
    if code is not None:
        return code
    path = cache_file(source)
    if path is not None:
        try:
            data = read_cache_file(path)
            code = marshal.loads(data) if data is not None else None
            if code is not None and (type(code).__name__ != "code" or code.co_filename != filename):
                code = None
        except Exception:           # missing, unreadable or damaged: compile afresh
            code = None
    if code is None:
        code = compile(source, filename, "exec")
        if path is not None:
            store_cache_file(path, marshal.dumps(code), keep=KEEP_FILES)
    _MEMORY[key] = code
    return code


KEEP_FILES = 200                # compiled games kept on disk; the oldest go first


def forget_compiled() -> None:
    """Empty the in-memory cache (the benchmark times loads afresh)."""
    _MEMORY.clear()
