"""Grid sizes from params (issue 28): a variant of a bundled game that changes a board's size
through a param validates, simulates and passes `check`, because the zone, the rules and the
invariants that depend on the size are all written in terms of that param.

The variants are written to a temporary folder, next to nothing: `extends "NAME"` reads the
bundled game."""
from __future__ import annotations

import random

import pytest

from boardwright.dsl.loader import GAMES_DIR

from boardwright.cli.main import main
from boardwright.interpreter.compile.load import load_game

BIG_PUNTO = 'variant "Big table" extends "punto"\nparam table_side = 8\n'
LONG_ROWS = 'variant "Long rows" extends "happy-city"\nparam row_length = 4\nparam city_limit = 12\n'


def random_playouts(path, players: int, games: int, watch) -> None:
    """Play `games` random games of the rule file, calling `watch(state)` after every move."""
    game = load_game(str(path))
    for seed in range(games):
        rng = random.Random(seed)
        st = game.new_state(players, seed)
        while (decision := game.decision(st)) is not None:
            game.apply(st, rng.choice(decision.options).id)
            watch(st)


def span(cells, axis: int) -> int:
    return max(c[axis] for c in cells) - min(c[axis] for c in cells) + 1


def validate_simulate_check(tmp_path, capsys, text: str, games: int, examples: int, title: str):
    """Write the variant, then validate, simulate and check it (2 players): all pass."""
    path = tmp_path / "variant.game"
    path.write_text(text)
    assert main(["validate", str(path)]) == 0
    assert main(["simulate", str(path), "--games", str(games), "--players", "2", "--seed", "1"]) == 0
    assert main(["check", str(path), "--players", "2", "--examples", str(examples), "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert f"ok: {title}" in out and "internal error" not in out
    return path


@pytest.mark.slow
def test_punto_on_an_8_by_8_table_validates_simulates_and_passes_check(tmp_path, capsys):
    path = validate_simulate_check(tmp_path, capsys, BIG_PUNTO, 3, 6, "Punto (Big table)")
    # the larger extent is really used: random play spreads wider than the rulebook's 6, never past 8
    widest = []
    random_playouts(path, 2, 3, lambda st: widest.append(
        max(span(st.zones["table"], 0), span(st.zones["table"], 1)) if st.zones["table"] else 0))
    assert max(widest) == 8


@pytest.mark.slow
def test_happy_city_with_rows_of_four_and_twelve_cards_fills_a_third_row(tmp_path, capsys):
    path = validate_simulate_check(tmp_path, capsys, LONG_ROWS, 2, 4, "Happy City (Long rows)")
    # 12 cards in rows of 4: three rows, x from 0 to 3 (a hand count, not the engine's)
    cells = set()
    random_playouts(path, 2, 2, lambda st: cells.update(c for p in range(2) for c in st.zones[f"city/{p}"]))
    assert max(y for _, y in cells) == 2 and max(x for x, _ in cells) == 3


@pytest.mark.parametrize("value", ["0", "-3"])
def test_a_zone_size_param_below_1_is_a_rule_error_at_the_zone(capsys, value):
    assert main(["simulate", "punto", "--players", "2", "--games", "1", "--set", f"table_side={value}"]) == 1
    err = capsys.readouterr().err
    rows = (GAMES_DIR / "punto" / "punto.game").read_text(encoding="utf-8").splitlines()
    line = next(i for i, row in enumerate(rows, 1) if row.startswith("zone table:"))
    assert f"punto.game:{line}:26: error: 'extent' of zone 'table' needs whole numbers of at least 1, " \
           f"but the param 'table_side' is {value}" in err


def test_one_game_with_its_size_param_set_again_plays_on_the_new_size():
    # `sweep` sets params on one loaded game between its points: the grid's shape, kept per
    # params' values (Zones.grid_shape), must follow. Punto's table is table_side cells wide.
    game = load_game("punto")
    widths = {}
    for side in (6, 8, 6):
        game.set_params({"table_side": str(side)})
        st = game.new_state(2, 1)
        rng, widest = random.Random(side), 0
        while (decision := game.decision(st)) is not None and len(st.history) < 400:
            game.apply(st, rng.choice(decision.options).id)
            if cells := list(st.zones["table"]):     # the occupied area at this moment
                widest = max(widest, span(cells, 0), span(cells, 1))
        widths.setdefault(side, set()).add(widest)
    assert max(widths[6]) <= 6 and max(widths[8]) > 6
