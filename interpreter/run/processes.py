"""Worker processes forked from this one, for the work that runs games side by side (simulated
games, root-parallel search), ended without leaving a process behind.

A pool whose work ended normally is closed, and its workers finish and exit on their own: a
worker terminated while it holds the task queue's lock can leave another, and the pool, waiting
for it forever (seen when the parent is itself a pytest-xdist worker). Only when the work
stops early (an error, Ctrl-C) are the workers terminated.
"""
from __future__ import annotations

import signal
from contextlib import contextmanager


def _ignore_interrupts() -> None:
    """Worker processes leave Ctrl-C to the parent, which stops them without tracebacks."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def forked_pool(workers: int):
    """A multiprocessing pool of `workers` forked processes that ignore Ctrl-C (the parent
    handles it); closed and joined when the block ends, terminated first if it raised."""
    import multiprocessing
    # Forked workers inherit SIGINT ignored, so a Ctrl-C that lands before their initializer
    # runs cannot reach them either; the parent's own handler comes back at once.
    parent_handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        pool = multiprocessing.get_context("fork").Pool(workers, initializer=_ignore_interrupts)
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
