"""Errors and diagnostics: every problem a user can cause is reported with a position.

`Diagnostic` is one message tied to a file, line and column; `BoardwrightError` is the root
of every error the engine raises on purpose and carries one or more diagnostics. The CLI
prints them as `PATH:LINE:COL: error: MESSAGE`, then the source line and a caret.
"""
from __future__ import annotations

import difflib
import errno
import heapq
import os
import stat
from dataclasses import dataclass
from functools import partial
from pathlib import Path


@dataclass(frozen=True)
class Span:
    """A region of a source file (1-based lines and columns; end is exclusive)."""
    file: str
    line: int
    column: int
    end_line: int
    end_column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


# C0 controls but tab and newline, DEL, the C1 controls (U+009B is a CSI on some terminals),
# the bidirectional overrides and isolates (they reorder what a line seems to say), and the
# UTF-16 surrogates (a YAML or JSON `"\\ud800"` reads as one; no encoding can write it).
_UNSAFE = [c for c in range(0x20) if c not in (0x09, 0x0A)] + list(range(0x7F, 0xA0)) \
    + list(range(0x202A, 0x202F)) + list(range(0x2066, 0x206A)) + list(range(0xD800, 0xE000))
_ESCAPES = {c: (f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}") for c in _UNSAFE}


def safe_text(text: str) -> str:
    """`text` with every control character but newline and tab shown as a visible escape
    (`\\x01`): the quoted line of a diagnostic, and everything the CLI prints (cli/terminal.py)."""
    return text.translate(_ESCAPES)


NO_SPAN = Span("<unknown>", 0, 0, 0, 0)

# Text of every file parsed in this process, so diagnostics can quote lines of any file.
SOURCES: dict[str, str] = {}


@dataclass(frozen=True)
class Diagnostic:
    span: Span
    message: str
    hint: str = ""
    severity: str = "error"         # "error", "warning", or "note" (a note explains the one before it)
    code: str = ""                  # found from the message if not given (dsl/codes.py)
    called_from: tuple = ()         # a runtime error's callers, innermost first: "FILE:LINE (in WHAT)"

    def __post_init__(self):
        if not self.code and self.severity != "note":
            from .codes import code_of
            object.__setattr__(self, "code", code_of(self.message))

    def format(self, source: str | None = None) -> str:
        """Render as `path:line:col: error: message [CODE]`, the quoted line and a caret."""
        text = f"{self.span}: {self.severity}: {self.message}" + (f" [{self.code}]" if self.code else "")
        line = _source_line(self.span, source)
        if line is not None:
            width = 1
            if self.span.end_line == self.span.line and self.span.end_column > self.span.column:
                width = self.span.end_column - self.span.column
            text += f"\n    {safe_text(line)}\n    " + _caret(line, self.span.column - 1, width)
        for caller in self.called_from:
            text += f"\n    called from {caller}"
        if self.hint:
            text += f"\n    hint: {self.hint}"
        return text

    def as_json(self) -> dict:
        return {"file": self.span.file, "line": self.span.line, "column": self.span.column,
                "end_line": self.span.end_line, "end_column": self.span.end_column,
                "severity": self.severity, "code": self.code, "message": self.message, "hint": self.hint,
                **({"called_from": list(self.called_from)} if self.called_from else {})}


def _caret(line: str, start: int, width: int) -> str:
    """The caret under `width` characters of `line` from `start`, as the line is shown: a
    control character before or under it is shown as its escape (`\\x01`, four columns)."""
    marked = line[start:start + width]
    before = len(safe_text(line[:start])) + max(0, start - len(line))
    return " " * before + "^" * (len(safe_text(marked)) + width - len(marked))


def _source_line(span: Span, source: str | None) -> str | None:
    if span.line <= 0:
        return None
    if source is None:
        source = SOURCES.get(span.file)
    if source is None:
        try:
            source = read_regular(Path(span.file)).decode("utf-8")
        except (OSError, UnicodeDecodeError):
            return None
    lines = source_lines(source)
    if span.line > len(lines):
        return None
    return lines[span.line - 1].expandtabs(1)


_LINES: list = [None, []]      # the last text split into lines, and its lines


def source_lines(source: str) -> list[str]:
    """`source.splitlines()`, kept for the last text asked about: a file with thousands of
    errors quotes a line for each, and splitting the whole text for every one of them was
    quadratic (a 2 MB rule file took minutes to report)."""
    if _LINES[0] is not source:
        _LINES[:] = [source, source.splitlines()]
    return _LINES[1]


class BoardwrightError(Exception):
    """Root of all deliberate errors. Holds one or more diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic] | Diagnostic | str):
        if isinstance(diagnostics, str):
            diagnostics = [Diagnostic(NO_SPAN, diagnostics)]
        elif isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(d.message for d in self.diagnostics))

    def format(self) -> str:
        return "\n".join(d.format() if d.span.line else f"error: {d.message}"
                         + (f"\n    hint: {d.hint}" if d.hint else "")
                         for d in self.diagnostics)


class RuleFileError(BoardwrightError):
    """A rule file does not parse or does not check."""


class DataError(BoardwrightError):
    """A component data file is not valid YAML or does not match its schema."""


class RuleError(BoardwrightError):
    """A rule failed while the game ran (a loop past the step limit, a move from nowhere...).
    `replay`, set by simulate, tells which game and decision failed."""

    replay = None

    def format(self) -> str:
        text = super().format()
        return text + f"\n    {self.replay.describe()}" if self.replay is not None else text


class InvariantError(RuleError):
    """An invariant that raised an error instead of giving true or false (`title` names it)."""

    def __init__(self, title: str, error: BoardwrightError):
        super().__init__(error.diagnostics)
        self.title = title


class IllegalMove(BoardwrightError):
    """A move that is not among the options of the current decision."""


class UsageError(BoardwrightError):
    """A bad command-line argument or a missing file."""


LISTED = 20                 # names a message lists before saying how many more there are
SUGGESTED_AMONG = 5_000     # candidates a did-you-mean compares with (a data file may declare 100,000)


def listing(names) -> str:
    """Names for a message (an enum's members, a kind's attributes): the first LISTED, then
    how many more, so that a message never repeats a list of a file without bound."""
    names = list(names)
    more = len(names) - LISTED
    return ", ".join(map(str, names[:LISTED])) + (f", ... ({more:,} more)" if more > 0 else "")


def counted(n: int, noun: str) -> str:
    """A count and its noun for a message: "1 choice", "3 choices" (plural unless the count is 1)."""
    return f"{n} {noun}" + ("" if n == 1 else "s")


SHOWN_NAME = 200            # characters of a name a user typed that a message quotes back


def clipped(text) -> str:
    """A name or value a user typed, as a message quotes it back: at most SHOWN_NAME characters
    (a 100,000-character argument is not echoed whole)."""
    text = str(text)
    return text if len(text) <= SHOWN_NAME else text[:SHOWN_NAME] + f"... ({len(text):,} characters)"


def _unlikeness(name: str, candidate: str) -> tuple:
    same = 0
    for a, b in zip(name, candidate):
        if a != b:
            break
        same += 1
    return -same, abs(len(candidate) - len(name))


def did_you_mean(name: str, candidates) -> str:
    candidates = list(candidates)
    if len(candidates) > SUGGESTED_AMONG:       # those that begin most alike, then are about as long
        candidates = heapq.nsmallest(SUGGESTED_AMONG, candidates, key=partial(_unlikeness, name))
    close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else ""


MAX_SOURCE_BYTES = 16 * 1024 * 1024     # a rule, data or scenario file


def read_regular(path: Path, limit: int = MAX_SOURCE_BYTES) -> bytes:
    """A file's bytes, only from a regular file of at most `limit` bytes: a FIFO, a device
    (a link to /dev/zero) or a folder is an OSError at once, never a read that blocks or
    never ends."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(f.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        raw = f.read(limit + 1)
    if len(raw) > limit:
        raise OSError(errno.EFBIG, f"larger than {limit // (1024 * 1024)} MB", str(path))
    return raw


def read_source(path: Path, error=RuleFileError, what: str = "") -> str:
    """A source file's text: UTF-8, a byte-order mark dropped; bytes that are not UTF-8 are
    an `error` at their line and column, with the line quoted. Only a regular file of at
    most MAX_SOURCE_BYTES is read (read_regular: OSError otherwise)."""
    raw = read_regular(path)
    body = raw[3:] if raw.startswith(b"\xef\xbb\xbf") else raw
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as exc:
        line_start = body.rfind(b"\n", 0, exc.start) + 1
        line = body.count(b"\n", 0, exc.start) + 1
        column = len(body[line_start:exc.start].decode("utf-8", "replace")) + 1
        end = body.find(b"\n", exc.start)
        quoted = body[line_start:end if end >= 0 else len(body)].decode("utf-8", "replace")
        SOURCES[str(path)] = "\n" * (line - 1) + quoted
        raise error(Diagnostic(Span(str(path), line, column, line, column + 1),
                                       f"{what}not UTF-8 text: byte 0x{body[exc.start]:02x} {exc.reason}",
                                       "save the file as UTF-8")) from None
