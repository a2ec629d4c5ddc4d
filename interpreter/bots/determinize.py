"""Determinizing: a copy of a position in which what a seat cannot see is resampled.

A bot sees only what its seat may see: before it looks ahead, `determinize` reorders every
zone hidden from its seat from a canonical order with the bot's own RNG and gives the copy
a fresh RNG seed, so nothing it decides depends on hidden order or on future chance.
"""
from __future__ import annotations

import random


def determinize(game, st, seat: int, rng: random.Random):
    """A copy of `st` in which what `seat` cannot see is resampled: the hidden components of
    each zone it cannot see (a grid's too, cell by cell) change places, but only with
    components it cannot tell apart (of a kind whose data declares a `back`: alike in those
    attributes; and alike in every per-component variable), so a deck stacked by tier stays
    stacked by tier."""
    if st.pending is not None:
        st.pending.values   # worked out before the copy changes: the options of the true position
    d = st.copy()
    for key, zone in d.zones.items():
        if not zone or game.visible_to(key, seat):
            continue
        top = game.zone_meta[key.split("/")[0]][1] == "top"    # the top component is seen
        if type(zone) is list:
            _reshuffle(game, d, [(zone, index) for index in range(len(zone) - top)], rng)
        else:
            # (a grid's view shows only its size when the seat cannot see it, `top` or not)
            _reshuffle(game, d, [(stack, index) for stack in zone.values() for index in range(len(stack))], rng)
            for cell, stack in zone.items():
                for c in stack:
                    d.loc[c] = (key, cell)
            d.cache.pop(key, None)  # the grid's index, rebuilt when next asked for
    if d.sealed is not None:        # the others' sealed choices are not known: they choose again
        d.sealed = d.sealed.only_for(seat)
    d.rng = rng.getrandbits(64)
    d.quiet = True                  # imagined: its log is never read (State.quiet)
    return d


def _reshuffle(game, d, places: list, rng: random.Random) -> None:
    """Shuffle the components at `places` ((list, index) pairs) among those that look alike."""
    if len(places) < 2:
        return
    told_apart_by = _varying_vars(game, d, [stack[index] for stack, index in places])
    groups: dict = {}               # what the seat can tell -> places
    for place in places:
        c = place[0][place[1]]
        look = game.backs[c]
        if told_apart_by:
            look = (look, repr([d.vars[v][c] for v in told_apart_by]))
        groups.setdefault(look, []).append(place)
    for group in groups.values():
        components = sorted(stack[index] for stack, index in group)
        rng.shuffle(components)
        for (stack, index), c in zip(group, components):
            stack[index] = c


_PLAIN_TYPES = (int, str, bool, type(None))     # equal values of one of these have equal reprs


def _varying_vars(game, d, components: list) -> list:
    """The per-component variables whose values can tell `components` apart: all but those
    holding one plain value for every one of them (a deck's owner), which cannot split a
    group and need not be compared card by card."""
    varying = []
    for name in game.per_component_vars:
        column = d.vars[name]
        first = column[components[0]]
        kind = type(first)
        if kind not in _PLAIN_TYPES or any(type(column[c]) is not kind or column[c] != first
                                           for c in components):
            varying.append(name)
    return varying


def blindfold(game, st, seat, rng: random.Random):
    """A copy of `st` in which every component `seat` (None: a spectator) cannot see is dealt
    again among all the places hidden from it, across zones: each such place gets a component
    of the kind and back its own had (what the seat sees of it), drawn from every hidden one.
    Unlike `determinize`, which keeps each hidden zone's components (a bot may know which
    cards a hand holds, not their order), nothing here depends on where the hidden components
    really lie: only on which components are hidden and how many of each back lie in each
    hidden place. None when a hidden grid holds a piece with a shape (its cells would change)."""
    if st.pending is not None:
        st.pending.values
    d = st.copy()
    kinds = {c: kind for kind, ids in game.kind_ids.items() for c in ids}
    groups: dict = {}               # (kind, back) -> [(container, index, zone key, cell)]
    for key, zone in d.zones.items():
        if not zone or game.visible_to(key, seat):
            continue
        if type(zone) is list:
            top = game.zone_meta[key.split("/")[0]][1] == "top"    # the top component is seen
            places = [(zone, index, key, None) for index in range(len(zone) - top)]
        else:
            places = [(stack, index, key, cell) for cell, stack in zone.items() for index in range(len(stack))]
            if any(len(d.loc[stack[index]]) == 4 for stack, index, _, _ in places):
                return None
            d.cache.pop(key, None)  # the grid's index, rebuilt when next asked for
        for place in places:
            c = place[0][place[1]]
            groups.setdefault((kinds.get(c), game.backs[c]), []).append(place)
    for group in groups.values():
        components = sorted(container[index] for container, index, _, _ in group)
        rng.shuffle(components)
        for (container, index, key, cell), c in zip(group, components):
            container[index] = c
            d.loc[c] = (key, cell)
    d.memo.clear()
    if d.sealed is not None:
        d.sealed = d.sealed.only_for(seat)
    d.rng = rng.getrandbits(64)
    d.quiet = True
    return d
