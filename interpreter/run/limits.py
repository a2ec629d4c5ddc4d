"""The resource limits of the rule language (docs/security.md): what one rule may build.

A rule file from a stranger must not exhaust the player's memory or hang the program. The
step limit (interpreter/run/engine.py) bounds the statements run between two decisions; these
bound what one expression may build, and the work all of them do between two decisions.
Each is checked where a value could grow past it (a range, a list or text joined to
another, a product of two integers, a comprehension over several lists), so the common
operations cost nothing extra. Exceeding one is a rule error at the line that did it.
"""
from __future__ import annotations

import threading


class Problem(Exception):
    """A rule asked for something impossible (top of an empty stack, first of [], a list past
    its limit); the engine reports it at the rule line."""


def shown(value) -> str:
    """A value in a message as the rules write it: `none`, `true`, `false`; others as Python
    shows them (a number, a cell `(0, 1)`, a text in quotes)."""
    return "none" if value is None else "true" if value is True else "false" if value is False else repr(value)


def zone_named(key: str) -> str:
    """A zone's key as the rules write the zone in a message: `hand[1]` for the key `hand/1`."""
    name, _, seat = key.partition("/")
    return f"{name}[{seat}]" if seat else name

MAX_ELEMENTS = 1_000_000        # items of one list or range, characters of one text
MAX_INT_DIGITS = 1_000          # digits of an integer a product may make
MAX_WORK = 5_000_000            # items built or visited between two decisions
_MAX_INT_BITS = int(MAX_INT_DIGITS * 3.3219280948873626)    # log2(10) bits per digit


class _Work(threading.local):
    n = 0                       # items counted since the engine last ran (reset by Game.run)


# One count per thread: the web table (cli/web/) runs several games' engines in threads side
# by side, and one game's reset must not clear, nor its work fill, another game's budget.
WORK = _Work()


def reset_work() -> None:
    """A fresh budget for this thread's engine (Game.run, the options of a decision)."""
    WORK.n = 0


def charge(count: int) -> None:
    """Count `count` items of work; a rule error past MAX_WORK."""
    work = WORK.n + count
    WORK.n = work
    if work > MAX_WORK:
        WORK.n = 0
        raise Problem(f"the rules did more than {MAX_WORK:,} items of work without a decision "
                      "(the limit of docs/security.md): a list, range, comprehension, membership test or chain of fn calls "
                      "is far too large")


def elements(count: int, what: str) -> None:
    if count > MAX_ELEMENTS:
        unit = "characters" if what == "a text" else "items"
        raise Problem(f"{what} of {count:,} {unit}: at most {MAX_ELEMENTS:,} (the limit of docs/security.md)")
    charge(count)


SHORT_LIST = 64                 # membership in a list this short is not counted as work


def member(item, items) -> bool:
    """`item in items` for a long list: every item it compares with is work (a comprehension
    asking membership of a long list on each step is quadratic)."""
    charge(len(items))
    return item in items


def kept_set(items):
    """The set of a list that a comprehension asks membership of at every step (a kept
    invariant part, compile/comprehensions.py): built once, its items counted as work once."""
    if len(items) >= SHORT_LIST:
        charge(len(items))
    return frozenset(items)


def bounded_range(a, b=None):
    low, high = (0, a) if b is None else (a, b)
    elements(high - low, "a range")
    return list(range(low, high))


def concat(a, b):
    """`a + b` of two lists or texts that may each be long (doubling is the memory bomb)."""
    if type(a) is int or type(b) is int:
        return a + b
    count = len(a) + len(b)
    work = WORK.n + count
    if count > MAX_ELEMENTS or work > MAX_WORK:     # the checks of elements(), inlined: a hot path
        elements(count, "a text" if type(a) is str else "a list")
    WORK.n = work
    return a + b


SMALL_FACTOR = 1 << (_MAX_INT_BITS // 2)     # two factors below this never make too long a product


def multiply(a, b):
    """`a * b` of two integers that may each be large (squaring is the memory bomb)."""
    if type(a) is int and type(b) is int and a.bit_length() + b.bit_length() > _MAX_INT_BITS:
        raise Problem(f"an integer of more than {MAX_INT_DIGITS:,} digits (the limit of docs/security.md)")
    return a * b


def bounded_text(text: str) -> str:
    if len(text) > MAX_ELEMENTS:
        raise Problem(f"a text of {len(text):,} characters: at most {MAX_ELEMENTS:,} "
                      "(the limit of docs/security.md)")
    return text


def inner(items):
    """The list of an inner `for` of a comprehension: its length is counted as work."""
    if type(items) is list or type(items) is str:
        work = WORK.n + len(items)
        if work > MAX_WORK:
            charge(len(items))
        WORK.n = work
    return items
