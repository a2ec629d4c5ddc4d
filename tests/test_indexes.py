"""The grid indexes the engine keeps as components move equal a from-scratch computation
after any sequence of moves, in the original state and in copies played on separately."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from boardwright.interpreter.run.builtins import IMPLEMENTATIONS, bounding_box

from conftest import cached_game, examples

GAMES = [("punto", None, 2), ("urban-panic", None, 2), ("happy-city", None, 2), ("point-city", None, 2)]
STEPS = {"all": [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)],
         "orthogonal": [(0, -1), (-1, 0), (1, 0), (0, 1)], "diagonal": [(-1, -1), (1, -1), (-1, 1), (1, 1)]}


def scratch(grid: dict) -> dict:
    """Everything the index answers, computed directly from the cells."""
    cells = sorted(grid, key=lambda c: (c[1], c[0]))
    out = {"occupied": cells, "size": sum(len(s) for s in grid.values()),
           "contents": [c for cell in cells for c in grid[cell]]}
    for adjacency, steps in STEPS.items():
        found = {(x + dx, y + dy) for (x, y) in grid for dx, dy in steps} - set(grid)
        out["frontier " + adjacency] = sorted(found, key=lambda c: (c[1], c[0]))
    for n in (1, 2, 3, 4, 5):
        out[f"lines {n}"] = [[(x + i * dx, y + i * dy) for i in range(n)]
                             for (x, y) in cells for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1))
                             if all((x + i * dx, y + i * dy) in grid for i in range(n))]
    if grid:
        out["box"] = (min(c[0] for c in grid), min(c[1] for c in grid), max(c[0] for c in grid), max(c[1] for c in grid))
    return out


def indexed(game, st, key) -> dict:
    call = lambda name, *args: IMPLEMENTATIONS[name](game, st, key, *args)
    out = {"occupied": list(call("occupied")), "size": call("size"), "contents": list(call("contents"))}
    for adjacency in STEPS:
        out["frontier " + adjacency] = list(call("frontier", adjacency))
    for n in (1, 2, 3, 4, 5):
        out[f"lines {n}"] = call("lines", n)
    if st.zones[key]:
        out["box"] = bounding_box(st, key)
    return out


def grids(st) -> list:
    return [k for k, v in st.zones.items() if type(v) is dict]


def check(game, st) -> None:
    for key in grids(st):
        assert indexed(game, st, key) == scratch(st.zones[key]), key
        grid = st.zones[key]
        for cell in list(grid)[:6]:     # every window through a cell is one of the lines
            through = IMPLEMENTATIONS["lines_through"](game, st, key, cell, 3)
            expected = [w for w in scratch(grid)["lines 3"] if cell in w]
            assert sorted(through) == sorted(expected)


@pytest.mark.slow
@pytest.mark.parametrize("name,variant,players", GAMES)
@settings(max_examples=examples(6), suppress_health_check=list(HealthCheck))
@given(data=hs.data())
def test_indexes_equal_a_recomputation_after_random_moves(name, variant, players, data):
    game = cached_game(name, variant)
    st = game.new_state(players, data.draw(hs.integers(0, 10_000), label="seed"))
    for step in range(data.draw(hs.integers(5, 60), label="steps")):
        if st.finished:
            break
        check(game, st)                 # asking builds the indexes the next moves update
        if step % 7 == 3:               # a copy shares the indexes: playing on it leaves ours right
            other = st.copy()
            if not other.finished:
                game.apply_index(other, data.draw(hs.integers(0, len(other.pending.values) - 1)))
                check(game, other)
        game.apply_index(st, data.draw(hs.integers(0, len(st.pending.values) - 1), label="choice"))
    check(game, st)
