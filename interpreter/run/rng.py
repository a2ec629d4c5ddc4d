"""A small seeded random number generator whose whole state is one integer (SplitMix64).

Keeping the state a single int makes a game state cheap to copy and exact to serialize.
"""
from __future__ import annotations

MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    return (int(seed) * 0x2545F4914F6CDD1D + 0x9E3779B97F4A7C15) & MASK


def next_value(state: int) -> tuple[int, int]:
    """Advance the state; return (new state, 64-bit output)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def shuffle_in_place(st, items: list) -> None:
    state = st.rng
    for i in range(len(items) - 1, 0, -1):
        # next_value, inlined: a shuffle of a deck draws many
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        j = (z ^ (z >> 31)) % (i + 1)
        items[i], items[j] = items[j], items[i]
    st.rng = state
