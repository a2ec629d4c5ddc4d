"""The building blocks the compiler works with: the names an expression sees (`Env`), the
instructions of a body and their generated functions (`Code`), how a `choose` words its
decision (`ChoiceSite`), jump targets (`Target`), and tests of generated source text
(`simple`, `repeatable`).
"""
from __future__ import annotations

import re

from .codegen import Instruction, Module, block_source


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
    __slots__ = ("prompt", "label", "render", "identify", "injective", "unique_ids", "ident")

    def __init__(self, prompt, label, render, identify, injective: bool, unique_ids=frozenset(), ident=None):
        self.prompt, self.label, self.render = prompt, label, render
        self.identify, self.injective = identify, injective
        self.unique_ids = unique_ids        # ids that no other component shares (never numbered)
        self.ident = ident                  # the `id "TEXT"` clause: f(st, L) with the option in its slot


class Target:
    """A jump target, patched once the code after it is known."""
    __slots__ = ("pc",)

    def __init__(self):
        self.pc = -1


_SIMPLE = re.compile(r"^(?:[A-Za-z_][A-Za-z0-9_]*(?:\[\d+\])?|st\.players|st\.current|st\.vars\['[A-Za-z0-9_]+'\]|-?\d+|'[^'\\]*')$")


def simple(source: str) -> bool:
    """Whether evaluating `source` twice, or not at all, is cheap and has no effect (a name, a
    slot, a literal)."""
    return bool(_SIMPLE.match(source))


_ITEM = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\[\d+\])+$")


def repeatable(source: str) -> bool:
    """Whether evaluating `source` a second time, right after the first, is cheap and changes
    nothing (`simple`, or an item of a slot: `L[3][0]`)."""
    return simple(source) or bool(_ITEM.match(source))
