"""Behaviour the mutation samples of round 7 found unguarded (tests/mutation_sample.py, seeds 101
and up for exploration, 29 fresh; docs/testing.md "Mutation testing"): each test here was seen
failing with its mutant planted and passing without it. The mutants each one kills are named in
its docstring."""
from __future__ import annotations

import pytest


def test_a_seats_web_view_is_everything_it_sees_and_nothing_more(tmp_path):
    """cli/web/looks.py seat_view, zone_view, var_lines, option_targets and live scores: the
    whole view of the first seat of web_support's secret game before the first move, written
    out by hand from the rules (four cards in each hand, seat 0 to play one of its own; the
    other hand shown as its size only; plays per player; one score line). Kills the string
    mutants of its keys ("title", "size", "hidden", ...), a view that drops a part, an owner
    read wrong and options pointing at the wrong place."""
    from boardwright.cli.web.looks import seat_view
    from web_support import new_table, secret_game
    table = new_table(tmp_path, str(secret_game(tmp_path)), ["human", "human"])
    game, st = table.game, table.st
    ids = [option.id for option in game.decision(st).options]
    cards = ["Aardvark", "Bison", "Cobra", "Dingo"]
    players = [{"seat": 0, "name": "Player 1", "plays": "human"}, {"seat": 1, "name": "Player 2", "plays": "human"}]
    expected = {
        "title": "Secret hands", "variant": None, "seat": 0, "finished": False, "turn": 1, "move": 0,
        "players": players, "current": 0,
        "zones": [
            {"key": "hand/0", "name": "hand", "owner": 0, "kind": "pile", "visibility": "owner",
             "items": [{"label": name} for name in cards], "size": 4},
            {"key": "hand/1", "name": "hand", "owner": 1, "kind": "pile", "visibility": "owner",
             "hidden": True, "size": 4},
            {"key": "played", "name": "played", "owner": None, "kind": "pile", "visibility": "public",
             "items": [], "size": 0}],
        "vars": [{"name": "plays", "title": "Cards played", "per_player": ["0", "0"]}],
        "log": [],
        "decision": {"player": 0, "prompt": "Play a card", "options": [
            {"index": i, "id": ids[i], "label": name, "targets": [{"zone": "hand/0", "pos": i}]}
            for i, name in enumerate(cards)]},
        "scores": {"titles": ["Cards played"], "players": [
            {"seat": p, "name": f"Player {p + 1}", "lines": ["0"], "total": "0"} for p in range(2)]},
    }
    assert seat_view(game, st, 0, ["human", "human"]) == expected
    # The other seat sees its own hand, not seat 0's, and whose turn it is without the options.
    other = seat_view(game, st, 1, ["human", "human"])
    assert [z.get("hidden", False) for z in other["zones"]] == [True, False, False]
    assert [item["label"] for item in other["zones"][1]["items"]] == ["Egret", "Falcon", "Gecko", "Heron"]
    assert other["decision"] == {"player": 0, "prompt": None, "options": None} and other["seat"] == 1
