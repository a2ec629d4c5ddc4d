"""Where a rule failed: the rule line of the failing generated line (the line map), and the
chain of fns and procs that called it. A mixin of `Game`.
"""
from __future__ import annotations

import itertools
from dataclasses import replace

from ...dsl.errors import RuleError
from .state import State


class RuleErrors:
    """The methods of `Game` (engine.py) that place a rule error in the rules."""

    def error_span(self, body, pc: int):
        """The rule line of the innermost generated line that failed (the line map), else the
        body's instruction at pc."""
        default = body.instructions[min(pc, len(body) - 1)].span if len(body) else None
        frames = self._generated_frames()
        if frames and frames[-1][0] is not None:
            return frames[-1][0]
        return default

    def _generated_frames(self) -> list:
        """(rule span, generated function name) of each generated-code frame of the exception
        being handled, outermost first. Only read when an error propagates: no cost otherwise."""
        import sys
        tb = sys.exc_info()[2]
        out = []
        while tb is not None:
            module = self.modules.get(tb.tb_frame.f_code.co_filename)
            if module is not None:
                code = tb.tb_frame.f_code
                out.append((module.span_at(tb.tb_lineno), code.co_name))
                position = next(itertools.islice(code.co_positions(), tb.tb_lasti // 2, None), None)
                if position is not None and None not in position:
                    out += [(span, "_F_" + name) for name, span in module.inlined_at(*position[::2][:1],
                                                                                  *position[2:])]
            tb = tb.tb_next
        return out

    def _with_callers(self, error: RuleError, st: State) -> RuleError:
        """Add the call chain to a rule error: the fns between the failing line and its
        statement (from the traceback), then the procs on the frame stack, each as FILE:LINE
        of its call (in what called it)."""
        callers = []
        frames = self._generated_frames()
        body_name = st.frames[-1][0] if st.frames else ""
        for (span, outer), (_, inner) in zip(reversed(frames[:-1]), reversed(frames[1:])):
            if span is not None and inner.startswith("_F_"):
                where = f"fn {outer[3:]}" if outer.startswith("_F_") else _body_words(body_name)
                callers.append(f"{span.file}:{span.line} (in {where})")
        for caller, callee in zip(reversed(st.frames[:-1]), reversed(st.frames[1:])):
            body, resume = self.code.get(caller[0]), caller[1]
            if body is None or not 0 < resume <= len(body):
                continue
            span = body.instructions[resume - 1].span
            callers.append(f"{span.file}:{span.line} (in {_body_words(caller[0])})")
        if not callers or not error.diagnostics:
            return error
        error.diagnostics[0] = replace(error.diagnostics[0], called_from=_collapsed(callers))
        return error


def _body_words(name: str) -> str:
    """A body's name as the designer wrote it: `play`, `setup` or `proc NAME`."""
    return name if name in ("play", "setup") else f"proc {name}"


def _collapsed(callers: list, most: int = 20) -> tuple:
    """Callers with a run of the same one (a recursion) said once, and at most `most` lines."""
    out: list = []
    for caller, run in itertools.groupby(callers):
        times = sum(1 for _ in run)
        out.append(caller + (f", {times} times" if times > 1 else ""))
    if len(out) > most:
        out = out[:most - 1] + [f"... and {len(out) - most + 1} more callers"]
    return tuple(out)
