"""A progress bar with an ETA on standard error, drawn only where someone watches it.

`progress_bar(stream, quiet)` returns a `(done, total)` callback: on a terminal it redraws
one line (`[#####.....] 40/100 games, 3.2 s, about 4.8 s left`); when the stream is not a
terminal (a pipe, a file, CI), or with `--quiet`, it draws nothing.
"""
from __future__ import annotations

import time

from .terminal import write_control


class ProgressBar:
    WIDTH = 30

    def __init__(self, stream, clock=time.monotonic):
        self.stream, self.clock = stream, clock
        self.start = clock()
        self.drawn = False

    def __call__(self, done: int, total: int, note: str = "") -> None:
        """Redraw the bar; `note` (e.g. `tune`'s best so far) follows it on the line."""
        elapsed = self.clock() - self.start
        filled = self.WIDTH * done // total if total else self.WIDTH
        text = f"\r  [{'#' * filled}{'.' * (self.WIDTH - filled)}] {done}/{total} games, {elapsed:.1f} s"
        if 0 < done < total:
            text += f", about {format_duration(elapsed / done * (total - done))} left"
        if note:
            text += f"; {note}"[:120]
        write_control(self.stream, f"{text:<78}" + ("" if done < total else "\n"))     # blanks over a longer line
        self.stream.flush()
        self.drawn = done < total

    def clear(self) -> None:
        """End an unfinished bar's line (before an error or an interruption is printed)."""
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
            self.drawn = False


def format_duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.0f} s" if seconds >= 10 else f"{seconds:.1f} s"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest:02d} s"


def progress_bar(stream, quiet: bool = False):
    """A ProgressBar on a terminal, else None (nothing drawn)."""
    if quiet or not stream.isatty():
        return None
    return ProgressBar(stream)
