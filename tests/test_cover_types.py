"""The static types of dsl/types.py, case by case from the rules in its docstrings and in
docs/language.md (Types): a player is a seat number, `none` fits every type, `any` fits
and accepts everything, lists and zones are compatible when what they hold is."""
from __future__ import annotations

import pytest

from boardwright.dsl.types import (ANY, BOOL, CELL, INT, NONE, PLAYER, STR, compatible, element, is_grid,
                                   is_list, is_zone, list_of, numeric, unify, zone_holds)


@pytest.mark.parametrize("expected, actual, fits", [
    (INT, INT, True),
    (INT, STR, False),
    (STR, INT, False),
    (INT, ANY, True),
    (ANY, STR, True),
    (CELL, NONE, True),             # none fits every type
    (NONE, CELL, False),            # ... but a cell does not fit where none is required
    (INT, PLAYER, True),            # players are seat numbers
    (PLAYER, INT, True),
    (BOOL, INT, False),
    (list_of(INT), list_of(PLAYER), True),
    (list_of(INT), list_of(STR), False),
    (list_of(INT), INT, False),
    (INT, list_of(INT), False),
    (list_of(list_of(INT)), list_of(list_of(ANY)), True),
    ("zone of Card", "zone of Card", True),
    ("zone of Card", "zone of any", True),
    ("zone of Card", "zone of Coin", False),
    ("zone of Card", "grid of Card", False),     # a stack is not a grid
    ("grid of Card", "zone of Card", False),
    ("grid of Card", "grid of Card", True),
    ("zone of Card", "Card", False),
    ("Card", "zone of Card", False),
    ("grid of Card", "grid", False),            # a component kind may be called grid (not reserved)
    ("grid", "grid of Card", False),
])
def test_compatible(expected, actual, fits):
    assert compatible(expected, actual) is fits


@pytest.mark.parametrize("a, b, common", [
    (INT, INT, INT),
    (INT, NONE, INT),               # a branch that may be none keeps the other branch's type
    (NONE, CELL, CELL),
    (ANY, STR, STR),
    (STR, ANY, STR),
    (INT, PLAYER, INT),             # seat numbers and numbers: numbers
    (PLAYER, INT, INT),
    (PLAYER, PLAYER, PLAYER),
    (INT, STR, ANY),                # nothing in common
    (list_of(INT), list_of(PLAYER), list_of(INT)),
    (list_of(NONE), list_of(CELL), list_of(CELL)),
    (list_of(INT), list_of(STR), list_of(ANY)),
    (list_of(INT), INT, ANY),
    ("zone of Card", "grid of Card", ANY),
])
def test_unify(a, b, common):
    assert unify(a, b) == common


def test_lists_and_their_elements():
    assert list_of(INT) == "list of int" and list_of(list_of(CELL)) == "list of list of cell"
    assert is_list("list of int") and not is_list("int") and not is_list("zone of Card")
    assert element("list of list of cell") == "list of cell"
    assert element(INT) == ANY


def test_zones_and_what_they_hold():
    assert is_zone("zone of Card") and is_zone("grid of Tile")
    assert not is_zone("Card") and not is_zone("list of zone of Card")
    assert is_grid("grid of Tile") and not is_grid("zone of Tile")
    assert zone_holds("zone of Card") == "Card"
    assert zone_holds("grid of list of Tile") == "list of Tile"      # only the first ' of ' splits
    assert zone_holds("Card") == ANY


@pytest.mark.parametrize("t, is_number", [(INT, True), (PLAYER, True), (ANY, True), (BOOL, False),
                                          (STR, False), (NONE, False), (list_of(INT), False)])
def test_numeric(t, is_number):
    assert numeric(t) is is_number
