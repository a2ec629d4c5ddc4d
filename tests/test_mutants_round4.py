"""Behaviour the fresh mutation sample of seed 26 (tests/mutation_sample.py, docs/testing.md
"Mutation testing") found unguarded: each test here was seen failing with its mutant planted
and passing without it. The mutant each one kills is named in its docstring."""
from __future__ import annotations

from conftest import cached_game

from boardwright.cli.web.looks import seat_view


def test_the_web_view_names_each_zone_and_its_owner():
    """cli/web/looks.py zone_view: the key "name" (the page's zone heading reads `zone.name`)."""
    game = cached_game("punto")
    st = game.new_state(2, 1)
    zones = {z["key"]: z for z in seat_view(game, st, 0, ["human", "human"])["zones"]}
    # punto.game declares: deck (a hidden stack per player), table (a grid), removed and out (piles)
    assert {key: (z["name"], z["owner"], z["kind"], z["visibility"]) for key, z in zones.items()} == {
        "deck/0": ("deck", 0, "stack", "hidden"), "deck/1": ("deck", 1, "stack", "hidden"),
        "table": ("table", None, "grid", "public"), "removed": ("removed", None, "pile", "public"),
        "out": ("out", None, "pile", "public")}


def test_a_hidden_zone_shows_only_its_size():
    """cli/web/looks.py zone_view: the key "size" of a hidden zone (the page shows how many
    cards lie face down)."""
    game = cached_game("punto")
    st = game.new_state(2, 1)
    zones = {z["key"]: z for z in seat_view(game, st, 0, ["human", "human"])["zones"]}
    for key in ("deck/0", "deck/1"):
        assert zones[key]["hidden"] is True and "items" not in zones[key]
        assert zones[key]["size"] == len(st.zones[key]) > 0
