"""What keeps judging an option close to the cost of its rules: positions a bot imagines
write no log lines (State.quiet), grid indexes update owner frontiers by the cells that
change (kept beside them as sets) and sort their occupied cells only when asked, and
`any_placement` first tries the placement that answered last time. Each must leave every
answer as a from-scratch computation gives it."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from boardwright.interpreter.bots.determinize import determinize
from boardwright.interpreter.bots.registry import make_bot
from boardwright.interpreter.bots.values import _own_value
from boardwright.interpreter.compile.load import load_game
from boardwright.interpreter.run.builtins import IMPLEMENTATIONS
from conftest import make_small_game

POLYOMINO = Path(__file__).resolve().parent.parent / "docs" / "examples" / "polyomino" / "polyomino.game"
STEPS = {"orthogonal": ((0, -1), (-1, 0), (1, 0), (0, 1)), "diagonal": ((-1, -1), (1, -1), (-1, 1), (1, 1))}


@pytest.fixture(scope="module")
def polyomino():
    return load_game(str(POLYOMINO))


def owned_frontier(game, grid: dict, adjacency: str, colour: str) -> list:
    """The empty cells next to a cell whose top piece has `colour`, row by row (from the grid)."""
    found = {(x + dx, y + dy) for (x, y), stack in grid.items() if game.components[stack[-1]]["colour"] == colour
             for dx, dy in STEPS[adjacency]} - set(grid)
    return sorted(found, key=lambda c: (c[1], c[0]))


def check_index(game, st) -> None:
    """The board's index answers as the grid itself does: frontiers (and their sets), cells."""
    grid = st.zones["board"]
    for colour in ("violet", "orange"):
        for adjacency in STEPS:
            kept = IMPLEMENTATIONS["frontier"](game, st, "board", adjacency, "colour", colour)
            assert kept == owned_frontier(game, grid, adjacency, colour), (colour, adjacency)
    idx = st.cache["board"]
    for key, cells in idx.frontiers.items():
        if key in idx.frontier_sets:
            assert idx.frontier_sets[key] == set(cells), key
    assert idx.cells == sorted(grid, key=lambda c: (c[1], c[0]))


def placement_args(game, st, p: int) -> tuple:
    corners = IMPLEMENTATIONS["frontier"](game, st, "board", "diagonal", "colour", st.vars["colours"][p])
    sides = IMPLEMENTATIONS["frontier"](game, st, "board", "orthogonal", "colour", st.vars["colours"][p])
    return (st.zones[f"reserve/{p}"], corners or [st.vars["starts"][p]], sides)


def test_indexes_and_any_placement_in_a_game_and_the_positions_next_door(polyomino):
    game = polyomino
    rng = random.Random(5)
    st = game.new_state(2, 5)
    asked = noes = 0
    while not st.finished:
        check_index(game, st)
        options = len(st.pending.values)
        for i in rng.sample(range(options), min(12, options)):
            trial = st.copy()           # a position next door: its index derived from ours
            game.apply_index(trial, i)
            if trial.finished:
                continue
            check_index(game, trial)
            for p in (0, 1):            # the answer of last time is tried first: still right?
                pieces, targets, avoid = placement_args(game, trial, p)
                # also narrower questions, often answered no: one target, the largest piece
                for question in ((pieces, targets, avoid), (pieces, targets[-1:], avoid),
                                 (pieces[-1:], targets, avoid), (pieces, targets, avoid + targets[1:])):
                    whole = IMPLEMENTATIONS["placements_of"](game, trial, "board", *question)
                    assert IMPLEMENTATIONS["any_placement"](game, trial, "board", *question) == bool(whole)
                    asked += 1
                    noes += not whole
                # the last answer, on free targets but some of its other cells now kept off
                big = pieces[-1:]
                found = IMPLEMENTATIONS["placements_of"](game, trial, "board", big, targets, avoid)
                if found:
                    game.witnesses.clear()
                    assert IMPLEMENTATIONS["any_placement"](game, trial, "board", big, targets, avoid)
                    kept_off = avoid + [c for c in found[0].cells if c not in targets]
                    whole = IMPLEMENTATIONS["placements_of"](game, trial, "board", big, targets, kept_off)
                    assert IMPLEMENTATIONS["any_placement"](game, trial, "board", big, targets, kept_off) == bool(whole)
                    noes += not whole
        check_index(game, st)           # the copies' moves left our index alone
        game.apply_index(st, rng.randrange(options))
    assert asked > 800 and noes > 50


def test_greedy_values_equal_those_judged_on_rebuilt_indexes(polyomino):
    """Greedy's value of each option equals the heuristic of the position the option leads to
    worked out with no index kept from before (every grid index rebuilt from the grid) and
    no answer of last time to try first."""
    game = polyomino
    st = game.new_state(2, 11)
    bots = [make_bot("random", f"11:{p}") for p in range(2)]
    for _ in range(10):
        game.apply_index(st, bots[st.pending.player].choose(game, st))
    seat = st.pending.player
    greedy = make_bot("greedy", 3, game)
    values = greedy.values(game, st)
    expected = []
    for i in range(len(st.pending.values)):
        trial = st.copy()
        trial.cache.clear()
        game.witnesses.clear()
        game.apply_index(trial, i)
        assert not trial.finished and trial.pending.player != seat
        expected.append(_own_value(game, trial, seat))
    assert len(values) > 100 and values == expected


LOGGED = """\
    game "Logged"
    players 2
    data "cards.yaml"
    var points: int per player = 0
    play {
      for round in range(2) {
        for p in players {
          turn p {
            choose c from contents(supply) prompt "Take a card"
            move c to supply
            points[p] = points[p] + c.rank
            log "{p} takes {c}"
            log "drawn: {shuffled([1, 2, 3, 4, 5, 6, 7, 8])}"
          }
        }
      }
    }
    score p { "Points": points[p] }
    """


def test_an_imagined_position_writes_no_log_unless_the_text_draws_random_numbers(tmp_path):
    game = make_small_game(tmp_path, LOGGED)
    st = game.new_state(2, 4)
    imagined = determinize(game, st, 0, random.Random(1))
    told = imagined.copy()
    told.quiet = False                  # the same position, as real play would have it
    assert imagined.quiet and not st.quiet and imagined.copy().quiet
    game.apply_index(imagined, 2)
    game.apply_index(told, 2)
    # the plain line is left out; the one that draws random numbers is written, so the
    # random numbers drawn after it are the same
    assert told.log[0].startswith("Player 1 takes ") and told.log[1].startswith("drawn: ")
    assert len(told.log) == 2 and len(imagined.log) == 1 and imagined.log[0] == told.log[1]
    assert imagined.rng == told.rng and imagined.vars == told.vars and imagined.history == told.history
    # real play logs both lines
    game.apply_index(st, 2)
    assert len(st.log) == 2 and not st.quiet
