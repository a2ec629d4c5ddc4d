"""Worker processes forked from this one, for the work that runs games side by side (simulated
games, root-parallel search), ended without leaving a process behind.

A pool whose work ended normally is closed, and its workers finish and exit on their own: a
worker terminated while it holds the task queue's lock can leave another, and the pool, waiting
for it forever (seen when the parent is itself a pytest-xdist worker). Only when the work
stops early (an error, Ctrl-C) are the workers terminated.

A worker ends in its own `_bootstrap`, never back in the code that forked it: if
`os._exit` is wrapped (coverage.py's `_exit` patch, a profiler) and the wrapper raises, the
worker would otherwise return from the fork as a second copy of its caller (a test runner
reporting its tests twice, a command printing its results twice).
"""
from __future__ import annotations

import os
import signal
from contextlib import contextmanager
from functools import lru_cache


@lru_cache(maxsize=None)
def _worker_context():
    """The fork context of our pools (built on first use: multiprocessing takes a while to import)."""
    import multiprocessing.context
    import posix

    class WorkerProcess(multiprocessing.context.ForkProcess):
        """A forked worker process that exits here, whatever `os._exit` has become."""

        def _bootstrap(self, parent_sentinel=None):
            code = 1
            try:
                code = super()._bootstrap(parent_sentinel)
                os._exit(code)          # as multiprocessing ends a forked worker (wrappers run here)
            finally:
                posix._exit(code)       # the real exit, if a wrapper raised instead of exiting

    class WorkerContext(multiprocessing.context.ForkContext):
        Process = WorkerProcess

    return WorkerContext()


def _ignore_interrupts() -> None:
    """Worker processes leave Ctrl-C to the parent, which stops them without tracebacks."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def forked_pool(workers: int):
    """A multiprocessing pool of `workers` forked processes that ignore Ctrl-C (the parent
    handles it); closed and joined when the block ends, terminated first if it raised."""
    # Forked workers inherit SIGINT ignored, so a Ctrl-C that lands before their initializer
    # runs cannot reach them either; the parent's own handler comes back at once.
    parent_handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        pool = _worker_context().Pool(workers, initializer=_ignore_interrupts)
    finally:
        signal.signal(signal.SIGINT, parent_handler)
    try:
        yield pool
    except BaseException:
        pool.terminate()
        raise
    else:
        pool.close()
    finally:
        pool.join()
