"""Urban Panic's bot heuristic (games/urban-panic/urban-panic.game, `heuristic p`) against an
independent computation of what docs/games/urban-panic.md says it is, at every decision of
random games: the linked city's score if the game ended now, the free road ends, the hope
that residents and jobs still find each other while the city and the stacks have room, and
what the reserve and the display promise."""
from __future__ import annotations

import random

import pytest

from boardwright.dsl.loader import GAMES_DIR
from boardwright.interpreter.compile.load import load_game
from boardwright.interpreter.testing.scenario import scenario_position
from boardwright.interpreter.testing.scenario_file import load_scenario

from conftest import cached_game

SIDES = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}
OPPOSITE = {"north": "south", "east": "west", "south": "north", "west": "east"}
CENTRE = (2, 2)
CELLS = 24
FLOOR = -5


def tile_at(game, st, p, cell):
    stack = st.zones[f"city/{p}"].get(cell)
    return game.components[stack[-1]] if stack else None


def linked_cells(game, st, p):
    """The cells linked to the centre: neighbours joined by a road on both sides of their edge."""
    seen, todo = {CENTRE}, [CENTRE]
    while todo:
        c = todo.pop()
        here = tile_at(game, st, p, c)
        for side, (dx, dy) in SIDES.items():
            d = (c[0] + dx, c[1] + dy)
            there = tile_at(game, st, p, d)
            if d in seen or there is None or not there[OPPOSITE[side]]:
                continue
            if c == CENTRE or here[side]:
                seen.add(d)
                todo.append(d)
    return sorted(seen - {CENTRE})


def open_ends(game, st, p, linked):
    ends = set()
    for c in [CENTRE] + linked:
        here = tile_at(game, st, p, c)
        for side, (dx, dy) in SIDES.items():
            d = (c[0] + dx, c[1] + dy)
            if (c == CENTRE or here[side]) and 0 <= d[0] < 5 and 0 <= d[1] < 5 \
                    and d != CENTRE and tile_at(game, st, p, d) is None:
                ends.add(d)
    return len(ends)


def value_now(t, n):
    residents, jobs, environment, income, satisfaction = t
    return (residents + min(residents, jobs) + environment + income - max(0, jobs - residents)
            + satisfaction - 3 * max(0, residents - jobs) - (CELLS - n))


def expected_heuristic(game, st, p, hope):
    legend = {game.components[i]["building"]: game.components[i] for i in game.kind_ids["Legend"]}
    tracks = ("residents", "jobs", "environment", "income", "satisfaction")

    def row(tile):
        return [legend[tile["building"]][k] for k in tracks]

    def keeps_floor(tile):
        return all(st.vars[k][p] + d >= FLOOR for k, d in zip(tracks[2:], row(tile)[2:]))

    linked = linked_cells(game, st, p)
    t = [sum(col) for col in zip(*([row(tile_at(game, st, p, c)) for c in linked] or [[0] * 5]))]
    n, ends = len(linked), open_ends(game, st, p, linked)
    stacks = len(st.zones["stacks"])

    def outlook(t, n, ends):
        room = 0 if ends == 0 else min(CELLS - n, stacks // (2 * st.players))
        unmatched = 4 * max(0, t[0] - t[1]) + 2 * max(0, t[1] - t[0])
        return 4 * value_now(t, n) + 4 * hope * unmatched * room // (100 * CELLS)

    def gain(tile):
        return outlook([a + b for a, b in zip(t, row(tile))], n + 1, 1) - outlook(t, n, 1)

    value = outlook(t, n, ends) + 12 * min(3, ends)
    if ends:
        reserve = [game.components[i] for i in st.zones[f"reserve/{p}"]]
        display = [game.components[i] for i in st.zones["display"]]
        value += sum(max(0, gain(x)) for x in reserve if keeps_floor(x)) // 2
        value += max([0] + [gain(x) for x in display if keeps_floor(x)]) // 4
    return value


@pytest.mark.slow
@pytest.mark.parametrize("hope", [None, 0, 37])
def test_the_heuristic_is_what_the_docs_say(hope):
    game = load_game(GAMES_DIR / "urban-panic" / "urban-panic.game")
    if hope is not None:
        game.set_params({"hope": str(hope)})
    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        st = game.new_state(2, seed)
        while not st.finished:
            for p in range(2):
                assert game.heuristic(st, p) == expected_heuristic(game, st, p, 100 if hope is None else hope)
                checked += 1
            st = game.apply_index(st, rng.randrange(len(st.pending.values)))
    assert checked > 500


def test_a_closed_network_hopes_for_nothing():
    """The puzzle keep-a-road-end-open, its factory built at the network's last road end: the
    city can link no tile any more, so its jobs without residents are judged as they score."""
    game = cached_game("urban-panic")
    data = load_scenario(GAMES_DIR / "urban-panic" / "scenarios" / "puzzles" / "keep-a-road-end-open.scenario.yaml")
    st = scenario_position(game, data)
    game.apply(st, "2,0")
    linked = linked_cells(game, st, 0)
    assert open_ends(game, st, 0, linked) == 0 and (2, 0) in linked     # the premise
    assert game.heuristic(st, 0) == expected_heuristic(game, st, 0, 100)
    assert game.heuristic(st, 0) == 4 * value_now([0, 3, 2, 3, 1], 2)  # factory + park NS
