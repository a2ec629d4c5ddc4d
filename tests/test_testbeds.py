"""The two placement test beds of docs/examples (polyomino: a Blokus-Duo-like game; kingdom: a
Kingdomino-like game) against their plain-Python references: for seeded random games, the
engine and reference.py offer the same options in the same order at every decision and end
with the same scores. Also: the data files are what make_data.py writes, the rule files pass
`validate --strict`, and the example scenarios pass.

The quick tests play one polyomino game (the engine takes about half a second for it) and a
handful of kingdom games; the slow ones play more seeds."""
from __future__ import annotations

import importlib.util
import random
from functools import lru_cache
from pathlib import Path

import pytest

from boardwright.interpreter.compile.load import load_game
from boardwright.interpreter.run.shaped import SHAPE_IMPLEMENTATIONS
from boardwright.interpreter.testing.scenario import run_scenario

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
POLYOMINO = EXAMPLES / "polyomino"
KINGDOM = EXAMPLES / "kingdom"


def module(folder: Path, name: str):
    spec = importlib.util.spec_from_file_location(f"testbed_{folder.name}_{name}", folder / f"{name}.py")
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


@lru_cache(maxsize=None)
def engine(folder: Path, name: str = ""):
    return load_game(folder / f"{name or folder.name}.game")


@lru_cache(maxsize=None)
def reference(folder: Path):
    return module(folder, "reference")


# ------------------------------------------------------------------ normalised options

def polyomino_options(game, decision) -> list:
    """Each option (a placement) as (piece name, covered cells as a set)."""
    return [(game.components[option.value.piece]["name"], frozenset(option.value.cells))
            for option in decision.options]


def polyomino_cells_options(game, decision) -> list:
    """Each option of the per-cell version as (piece name, covered cells as a set), from the
    Shape data the engine loaded."""
    shapes = {game.components[c]["number"]: game.components[c] for c in game.kind_ids["Shape"]}
    out = []
    for option in decision.options:
        number, y, x = option.value
        shape = shapes[number]
        out.append((shape["piece"], frozenset((x + dx, y + dy) for dx, dy in zip(shape["xs"], shape["ys"]))))
    return out


def polyomino_reference_options(ref, game) -> list:
    return [(name, frozenset(cells)) for name, cells in map(ref.covered, game.options)]


def kingdom_options(game, decision) -> list:
    """A draft as the domino's number; a placement as (cell of the left half, cell of the
    right), told apart by the engine's `cell_attr` only for halves with different data (the
    reference puts the left half of a domino with equal halves first by x, then y)."""
    out = []
    for option in decision.options:
        if isinstance(option.value, int):                       # a component: a Tile
            out.append(int(game.components[option.value]["name"].removeprefix("domino ")))
        else:
            out.append(halves(game, option.value))
    return out


def halves(game, m) -> tuple:
    """(cell of the left half, cell of the right half) of a placement: the cell on which the
    engine's `cell_attr` shows the left half's terrain and crowns of the public tile list."""
    left, right = reference(KINGDOM).TILE[int(game.labels[m.piece].removeprefix("domino "))]
    a, b = sorted(m.cells)                                      # (x, y) order
    shown = [tuple(SHAPE_IMPLEMENTATIONS["cell_attr"](game, None, m, c, a) for a in ("terrain", "crowns"))
             for c in (a, b)]
    assert sorted(shown) == sorted([left, right]), "the placement shows other halves"
    return (a, b) if shown[0] == left else (b, a)


def kingdom_cells_options(game, decision) -> list:
    """The per-cell version: a draft as the Domino's number; a placement (a Spot record: turn,
    anchor, left, right) as (cell of the left half, cell of the right)."""
    return [game.components[o.value]["number"] if isinstance(o.value, int) else (tuple(o.value[2]), tuple(o.value[3]))
            for o in decision.options]


def kingdom_reference_options(ref, game) -> list:
    return list(game.options)


# ------------------------------------------------------------------ side by side

def play_side_by_side(folder: Path, seed: int, engine_options, reference_options, make_reference, name=""):
    """Play one random game in both; return (decisions, options offered in all)."""
    game, ref = engine(folder, name), reference(folder)
    rng = random.Random(f"testbeds:{folder.name}:{seed}")
    st = game.new_state(2, seed=seed)
    mine = make_reference(ref, seed)
    decisions = offered = 0
    while not st.finished:
        decision = game.decision(st)
        assert not mine.finished, f"seed {seed}: the reference ended before decision {decisions}"
        assert decision.player == mine.player, f"seed {seed}, decision {decisions}: who chooses"
        theirs, ours = engine_options(game, decision), reference_options(ref, mine)
        assert theirs == ours, f"seed {seed}, decision {decisions}: the options differ"
        index = rng.randrange(len(ours))
        game.apply_index(st, index)
        mine.apply(index)
        decisions, offered = decisions + 1, offered + len(ours)
    assert mine.finished, f"seed {seed}: the engine ended, the reference did not"
    assert list(game.result(st).scores) == mine.scores(), f"seed {seed}: the scores differ"
    return game.result(st), mine, decisions, offered


def polyomino_game(seed: int, cells: bool = False):
    return play_side_by_side(POLYOMINO, seed, polyomino_cells_options if cells else polyomino_options,
                             polyomino_reference_options, lambda ref, s: ref.Polyomino(s),
                             "polyomino_cells" if cells else "")


def kingdom_game(seed: int, cells: bool = False):
    return play_side_by_side(KINGDOM, seed, kingdom_cells_options if cells else kingdom_options,
                             kingdom_reference_options, lambda ref, s: ref.Game(s), "kingdom_cells" if cells else "")


def test_polyomino_engine_and_reference_agree_on_one_game():
    result, mine, decisions, offered = polyomino_game(0)
    assert decisions > 20 and offered / decisions > 100      # a large-branching game


def test_polyomino_per_cell_version_and_reference_agree_on_one_game():
    result, mine, decisions, offered = polyomino_game(1, cells=True)
    assert decisions > 20 and offered / decisions > 100


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1, 9))
def test_polyomino_engine_and_reference_agree(seed):
    polyomino_game(seed)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2, 5))
def test_polyomino_per_cell_version_and_reference_agree(seed):
    polyomino_game(seed, cells=True)


@pytest.mark.parametrize("seed", range(6))
def test_kingdom_engine_and_reference_agree(seed):
    result, mine, decisions, offered = kingdom_game(seed)
    assert sorted(result.winners) == mine.winners()          # the tie-breaks too


@pytest.mark.parametrize("seed", range(3))
def test_kingdom_per_cell_version_and_reference_agree(seed):
    result, mine, decisions, offered = kingdom_game(seed, cells=True)
    assert sorted(result.winners) == mine.winners()


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6, 60))
def test_kingdom_engine_and_reference_agree_on_more_seeds(seed):
    result, mine, _, _ = kingdom_game(seed)
    assert sorted(result.winners) == mine.winners()


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3, 20))
def test_kingdom_per_cell_version_and_reference_agree_on_more_seeds(seed):
    result, mine, _, _ = kingdom_game(seed, cells=True)
    assert sorted(result.winners) == mine.winners()


def test_kingdom_seeds_deal_different_dominoes():
    """The reference follows the engine's random generator: other seeds, other draws."""
    ref = reference(KINGDOM)
    assert ref.Game(1).options != ref.Game(2).options or ref.Game(1).deck != ref.Game(2).deck


# ------------------------------------------------------------------ files of the folders

@pytest.mark.parametrize("folder,data", [(POLYOMINO, "pieces.yaml"), (KINGDOM, "dominoes.yaml")],
                         ids=["polyomino", "kingdom-cells"])
def test_the_data_file_is_what_make_data_writes(folder, data):
    assert module(folder, "make_data").render() == (folder / data).read_text(encoding="utf-8")


@pytest.mark.parametrize("folder,data", [(POLYOMINO, "shapes.yaml"), (KINGDOM, "tiles.yaml")],
                         ids=["polyomino", "kingdom"])
def test_the_shapes_data_file_is_what_make_data_writes(folder, data):
    assert module(folder, "make_data").render_shapes() == (folder / data).read_text(encoding="utf-8")


def test_polyomino_data_has_the_21_free_polyominoes_in_all_their_orientations():
    data = module(POLYOMINO, "make_data")
    sizes = sorted(len(data.cells_of(rows)) for _, rows in data.PIECES)
    assert sizes == [1, 2, 3, 3] + [4] * 5 + [5] * 12
    assert sum(len(data.orientations(rows)) for _, rows in data.PIECES) == 91
    shapes = {frozenset(s) for _, rows in data.PIECES for s in data.orientations(rows)}
    assert len(shapes) == 91                                   # no orientation twice, no piece twice


@pytest.mark.parametrize("folder,name", [(POLYOMINO, "polyomino"), (POLYOMINO, "polyomino_cells"), (KINGDOM, "kingdom"),
                                         (KINGDOM, "kingdom_cells")],
                         ids=["polyomino", "polyomino-cells", "kingdom", "kingdom-cells"])
def test_the_rule_file_has_no_warnings(folder, name):
    game = load_game(folder / f"{name}.game", warnings=True)
    assert game.spec.warnings == []


@pytest.mark.parametrize("path", sorted(POLYOMINO.glob("scenarios/**/*.scenario.yaml")) + sorted(KINGDOM.glob("scenarios/**/*.scenario.yaml")),
                         ids=lambda p: f"{p.relative_to(EXAMPLES).parts[0]}-{p.parent.name}-{p.stem}")
def test_the_example_scenarios_pass(path):
    outcome = run_scenario(path)
    assert outcome.passed, outcome.failures
