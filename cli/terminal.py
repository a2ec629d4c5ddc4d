"""Texts from user files made safe for a terminal: the one place every CLI output passes.

A game title, a `log` text, a prompt, a data label or a rule line quoted in an error comes
from a file someone else may have written. Written raw, `\\x1b]0;...\\x07` retitles the
terminal window, `\\x1b[2J` clears it, `\\x1b[31m` paints everything after it, and a lone
`\\r` overwrites what a line said. `main` (cli/main.py) wraps standard output and standard
error in `SafeStream` for the whole command, so every `print` shows such characters as
visible escapes (`\\x1b`) instead; newlines and tabs pass. Boardwright's own control
sequences (the colours of `play`, the progress bar's `\\r`) are written with `write_control`,
after the text they paint has been made safe.
"""
from __future__ import annotations

import contextlib
import sys

# C0 controls but tab and newline, DEL, the C1 controls (U+009B is a CSI on some terminals),
# the bidirectional overrides and isolates (they reorder what a line seems to say), and the
# UTF-16 surrogates (a YAML or JSON `"\\ud800"` reads as one; no encoding can write it).
_UNSAFE = [c for c in range(0x20) if c not in (0x09, 0x0A)] + list(range(0x7F, 0xA0)) \
    + list(range(0x202A, 0x202F)) + list(range(0x2066, 0x206A)) + list(range(0xD800, 0xE000))
_TABLE = {c: (f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}") for c in _UNSAFE}


def safe_text(text: str) -> str:
    """`text` with every control character but newline and tab shown as a visible escape."""
    return text.translate(_TABLE)


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
