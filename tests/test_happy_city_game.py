"""Happy City: the data's printed facts, the rule file's invariants under Hypothesis fuzzing
(and a planted rule bug they catch), the supermarket order, and a game played by a person
through `boardwright play`."""
from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter

import pytest

from boardwright.dsl.loader import GAMES_DIR
from boardwright.interpreter.compile.load import load_game
from boardwright.interpreter.testing.check import run_checks

from conftest import cached_game

FOLDER = GAMES_DIR / "happy-city"
COLOURS = {"green", "yellow", "purple", "blue", "orange"}


def cards(back: str) -> list:
    game = cached_game("happy-city")
    return [c for c in game.components if c["back"] == back]


def test_the_data_has_the_rulebooks_counts():
    counts = Counter(c["back"] for c in cached_game("happy-city").components)
    assert counts["light"] + counts["medium"] + counts["dark"] == 66
    assert (counts["light"], counts["medium"], counts["dark"]) == (28, 20, 18)
    assert counts["home"] == 12 and counts["pink"] == 18 and counts["red"] == 38
    assert counts["market"] == 10        # 5 cards, each listed with its coloured and its white side


def test_buildings_cost_what_their_deck_back_says_and_come_in_pairs():
    for back, (low, high) in {"light": (1, 3), "medium": (4, 5), "dark": (6, 9)}.items():
        deck = cards(back)
        assert all(low <= c["cost"] <= high for c in deck), back
        assert set(Counter(c["name"] for c in deck).values()) == {2}, back
    homes = Counter((c["name"], c["cost"], c["citizens"]) for c in cards("home"))
    assert homes == {("House", 1, 1): 4, ("Apartment block", 3, 2): 4, ("High-rise", 6, 3): 4}


def test_supermarkets_and_specials():
    coloured = [c for c in cards("market") if c["colour"] != "white"]
    assert sorted(c["colour"] for c in coloured) == sorted(COLOURS)
    assert all(c["income"] == 1 for c in cards("market"))
    specials = cards("pink") + cards("red")
    assert len({c["name"] for c in specials}) == 56
    assert all(c["needs"] and set(c["needs"]) <= COLOURS and c["colour"] == "white" for c in specials)
    effects = Counter(c["effect"] for c in cards("red"))
    assert {"gain_coins", "free_building", "free_home", "row_coins", "top_row_colours"} <= set(effects)
    assert all(c["effect"] == "nothing" for c in cards("pink"))
    assert all(bool(c["text"]) == (c["effect"] != "nothing") for c in specials)


@pytest.mark.slow
@pytest.mark.parametrize("variant", [None, "beginner"])
def test_invariants_hold_in_fuzzed_games(variant):
    game = cached_game("happy-city", variant)
    report = run_checks(game, [2, 3, 4, 5], examples=4, seed_value=3)
    assert report.failure is None, report.failure
    assert report.games == 4 and report.steps > 200
    assert len(game.spec.invariants) >= 6


@pytest.mark.slow
def test_a_planted_bug_in_the_unique_name_rule_is_caught(tmp_path):
    rules = (FOLDER / "happy-city.game").read_text()
    honest = "  coins[p] >= c.cost and has_room(p, 1) and c.name not in names(p)"
    assert honest in rules
    (tmp_path / "cards.yaml").write_text((FOLDER / "cards.yaml").read_text())
    (tmp_path / "happy-city.game").write_text(rules.replace(honest, "  coins[p] >= c.cost and has_room(p, 1)"))
    report = run_checks(load_game(tmp_path / "happy-city.game"), [2], examples=10, seed_value=1)
    assert report.failure is not None
    assert report.failure.prop == 'invariant "no city holds two cards of one name"'


def test_supermarkets_are_chosen_from_the_last_seat_backwards():
    game = cached_game("happy-city")
    st = game.new_state(5, seed=2)
    order = []
    while st.vars["round"] == 0:
        order.append(game.decision(st).player)
        game.apply_index(st, 0)
    assert order == [4, 3, 2, 1, 0]
    assert all(len(st.zones[f"city/{p}"]) == 1 for p in range(5)) and st.zones["supermarkets"] == []
    assert st.vars["coins"] == [3] * 5


@pytest.mark.slow
def test_a_person_can_play_a_whole_game_in_the_terminal():
    answers = "1\n" * 400
    run = subprocess.run([sys.executable, "-m", "boardwright", "play", "happy-city", "--players", "2",
                          "--seats", "human,random", "--seed", "3"],
                         input=answers, capture_output=True, text=True, timeout=120,
                         env={k: v for k, v in os.environ.items() if k != "LINES"})   # the whole table (xdist sets a height)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    for shown in ("Choose your supermarket", "display:\n  ", "homes:\n  ", "specials:\n  ", "needs ",
                  "city of Player 1:", "coins: Player 1: ", "happiness: Player 1: ",
                  "Reveal a building: from which deck?", "== Final scores", "Citizens x hearts"):
        assert shown in out, shown
    # the city is drawn in rows of five, each card with its colour
    assert "|Yellow supermarket |" in out or "|Orange supermarket |" in out
    assert "Traceback" not in run.stderr
