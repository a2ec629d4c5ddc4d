"""Texts from user files made safe for a terminal: the one place every CLI output passes.

A game title, a `log` text, a prompt, a data label or a rule line quoted in an error comes
from a file someone else may have written. Written raw, `\\x1b]0;...\\x07` retitles the
terminal window, `\\x1b[2J` clears it, `\\x1b[31m` paints everything after it, and a lone
`\\r` overwrites what a line said. `main` (cli/main.py) wraps standard output and standard
error in `SafeStream` for the whole command, so every `print` shows such characters as
visible escapes (`\\x1b`) instead; newlines and tabs pass. Boardwright's own control
sequences (the colours of `play`, the progress bar's `\\r`) are written with `write_control`,
after the text they paint has been made safe. The escapes are dsl/errors.py's `safe_text`,
which also shows the quoted line of a diagnostic (and places its caret) before any stream.
"""
from __future__ import annotations

import contextlib
import sys

from ..dsl.errors import safe_text   # the escapes, shared with the quoted lines of diagnostics


class SafeStream:
    """A text stream whose `write` shows control characters as escapes (see safe_text);
    everything else (isatty, flush, encoding, buffer) is the wrapped stream's."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(safe_text(text))

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def write_control(self, text: str) -> int:
        """Write Boardwright's own text, control sequences included, as it is."""
        return self._stream.write(text)

    def __getattr__(self, name):
        return getattr(self._stream, name)


def write_control(stream, text: str) -> None:
    """Write our own control sequences to `stream`, a SafeStream or any other."""
    getattr(stream, "write_control", stream.write)(text)


@contextlib.contextmanager
def safe_output():
    """Standard output and standard error made safe (SafeStream) while the block runs."""
    saved = sys.stdout, sys.stderr
    if not isinstance(sys.stdout, SafeStream):
        sys.stdout = SafeStream(sys.stdout)
    if not isinstance(sys.stderr, SafeStream):
        sys.stderr = SafeStream(sys.stderr)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved
