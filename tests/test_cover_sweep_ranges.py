"""`sweep --set` and `tune --param` ranges (interpreter/playtest/param_ranges.py) and the
sweep's table (interpreter/playtest/sweep.py), in process: the values a range holds and how
they are written back, the ranges refused before any game, and the table of a report
written by hand (expected text worked out from the report, column by column)."""
from __future__ import annotations

import pytest

from boardwright.dsl.errors import UsageError
from boardwright.interpreter.playtest.param_ranges import check_params, parse_range
from boardwright.interpreter.playtest.sweep import format_sweep

from conftest import make_small_game


def test_a_list_of_numbers_holds_whole_numbers_and_reals_as_written():
    r = parse_range("x=1,2.5,-3,.5")
    assert r.kind == "choice" and r.values() == [1, 2.5, -3, 0.5]
    assert [type(v) for v in r.values()] == [int, float, int, float]


def test_booleans_are_written_back_as_the_language_writes_them():
    r = parse_range("fast=true,false")
    assert [r.text(v) for v in r.values()] == ["true", "false"]
    assert parse_range("k=2..4").text(3.0) == "3"          # a whole number of an int range
    assert parse_range("c=0.5..1.5:0.5").text(1.0) == "1.0"  # a real stays a real


@pytest.mark.parametrize("item, words", [
    ("k=0..1000000000000000000:100000000000000000", "at most 18 digits"),      # 11 values, but 19 digits
    ("c=-1000000000000000000.0..0.5", "at most 18 digits"),                    # a real range without a step
    ("e=red,pink,red", "e=red,pink,red: a value is listed twice"),
])
def test_ranges_that_cannot_be_played_are_usage_errors(item, words):
    with pytest.raises(UsageError, match=words):
        parse_range(item)


def test_seventeen_digits_are_still_a_range():
    r = parse_range("k=0..99999999999999999:99999999999999999")
    assert r.values() == [0, 99999999999999999]


RULES = """\
game "Params"
players 2
param fast = false
param rounds = 3
play {
  for p in players { turn p { choose n from [1, 2] } }
}
"""


def test_a_number_range_for_a_param_that_is_not_a_number_is_refused(tmp_path):
    game = make_small_game(tmp_path, RULES)
    with pytest.raises(UsageError, match=r"--set fast: 'fast' is not a number \(its default is bool\); "
                                         r"list its values instead, e\.g\. fast=a,b"):
        check_params(game, [parse_range("fast=0..1")])
    check_params(game, [parse_range("rounds=1..4"), parse_range("fast=true,false")])     # accepted
    with pytest.raises(UsageError):
        check_params(game, [parse_range("fast=1,2")])        # not booleans: the type check of --set


def hand_report() -> dict:
    win = {"value": 0.5, "ci95": [0.2366, 0.7634]}
    return {"game": "Race", "variant": None, "players": 2, "games": 12, "seed": 4, "bots": ["random", "random"],
            "rotate": False, "params": ["goal"], "fixed": {"head": 1},
            "points": [{"params": {"goal": 5}, "measures": {"win rate A": win, "gap": {"value": -1.25, "ci95": [-2, -0.5]}}},
                       {"params": {"goal": 10}, "measures": {"win rate A": {"value": 0.25, "ci95": [0.0893, 0.5323]}}}],
            "seconds": 1.26}


def test_the_sweep_table_has_a_column_per_value_and_a_dash_where_a_measure_is_missing():
    lines = format_sweep(hand_report()).splitlines()
    # the widest cell, "-1.250 (-2.000..-0.500)", has 23 characters: columns of 25; the widest
    # measure name, "win rate A", has 10 (more than "measure"): a first column of 12
    assert lines[0] == "Race: sweep of goal, 12 games per value, 2 players, seed 4"
    assert lines[1] == "  bots: random at every seat; the same seeds at every value; head=1"
    assert lines[2] == "  " + "measure".ljust(12) + "goal=5".rjust(25) + "goal=10".rjust(25)
    assert lines[3] == "  " + "win rate A".ljust(12) + "0.500 (0.237..0.763)".rjust(25) + "0.250 (0.089..0.532)".rjust(25)
    assert lines[4] == "  " + "gap".ljust(12) + "-1.250 (-2.000..-0.500)".rjust(25) + "-".rjust(25)
    assert lines[5:] == ["  each cell: the value (a share of games, or a mean) and its 95% interval; win rates",
                         "  count a shared win 1/k; length is in turns", "  1.3 s"]


def test_the_sweep_table_names_the_bots_of_each_seat_when_they_differ():
    report = dict(hand_report(), bots=["random", "greedy"], fixed={}, variant="short")
    lines = format_sweep(report).splitlines()
    assert lines[0].startswith("Race (short): sweep of goal")
    assert lines[1] == "  bots: random,greedy; the same seeds at every value"
