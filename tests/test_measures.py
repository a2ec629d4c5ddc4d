"""The rule file's `measure "NAME" = EXPR` and the statistics of intervals.py: values checked
against the game's own score lines and against hand computations."""
from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import pytest

from conftest import run_main as run
from boardwright.dsl.formatter import format_source
from boardwright.interpreter.compile.load import load_game
from boardwright.interpreter.playtest.intervals import measure_rows, proportion
from boardwright.interpreter.playtest.report import mean_interval, t_quantile
from boardwright.interpreter.playtest.simulate import simulate_records

RACE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "head-start-race" / "race.game"



@pytest.mark.parametrize("df, table", [(4, 2.7764), (10, 2.2281), (30, 2.0423), (100, 1.9840)])
def test_t_quantile_matches_the_printed_table(df, table):
    assert t_quantile(df) == pytest.approx(table, abs=0.002)


def test_mean_interval_by_hand():
    # 1..5: mean 3, sample sd sqrt(2.5) (divisor n - 1), t(0.975, 4) = 2.7764.
    half = 2.7764 * math.sqrt(2.5) / math.sqrt(5)
    mean, low, high = mean_interval([1, 2, 3, 4, 5])
    assert mean == 3
    assert low == pytest.approx(3 - half, abs=1e-3) and high == pytest.approx(3 + half, abs=1e-3)


def test_a_proportion_is_the_share_with_its_wilson_interval():
    share, low, high = proportion(30, 100)
    assert share == 0.3
    assert (low, high) == pytest.approx((0.2189, 0.3958), abs=1e-4)     # Wilson, worked out by hand


def test_measures_are_worked_out_at_the_end_of_each_game():
    game = load_game(RACE)
    game.set_params({"goal": "12", "head_start": "4"})
    records = simulate_records(game, 2, 40, 3, ["random", "random"])
    for r in records:
        hare, tortoise = r["lines"][0]["position"], r["lines"][1]["position"]
        assert r["measures"] == {"gap": hare - tortoise, "tortoise ahead": int(tortoise > hare)}
    rows = measure_rows(records, 2)
    gaps = [r["lines"][0]["position"] - r["lines"][1]["position"] for r in records]
    assert rows["gap"][0] == pytest.approx(sum(gaps) / len(gaps))
    assert rows["win rate Player 1"][0] == sum(1 for r in records if r["winners"] == [0]) / 40


def test_simulate_reports_measures_in_text_json_and_csv(capsys, tmp_path):
    args = ["simulate", str(RACE), "--players", "2", "--games", "30", "--set", "goal=12"]
    code, out, _ = run(capsys, *args, "--json", "--csv", str(tmp_path / "g.csv"))
    assert code == 0
    report = json.loads(out)
    rows = list(csv.DictReader(open(tmp_path / "g.csv", encoding="utf-8")))
    gaps = [int(row["measure_gap"]) for row in rows]
    assert [int(row["position_0"]) - int(row["position_1"]) for row in rows] == gaps
    assert report["measures"]["gap"]["mean"] == pytest.approx(sum(gaps) / 30, abs=1e-4)
    low, high = report["measures"]["gap"]["ci95"]
    assert low < report["measures"]["gap"]["mean"] < high
    code, out, _ = run(capsys, *args)
    assert 'measure "gap":' in out and 'measure "tortoise ahead":' in out


def test_compare_tests_a_measure(capsys):
    code, out, _ = run(capsys, "compare", str(RACE), "--players", "2", "--games", "30", "--set", "head_start=0",
                       "--set", "head_start=8")
    assert code == 0
    line = next(line for line in out.splitlines() if 'measure "gap"' in line)
    assert line.rstrip().endswith("*")          # a head start of 8 shrinks the gap: significant


def test_explain_and_fmt_know_measures(capsys):
    code, out, _ = run(capsys, "explain", str(RACE))
    assert "Measures (reported by simulate, compare, sweep and tune)" in out
    assert "gap = pos[0] - pos[1]" in out
    text = RACE.read_text(encoding="utf-8")
    assert format_source(text) == text
    assert format_source(text.replace('measure "gap" = pos[0] - pos[1]', 'measure "gap"   =pos[0]-pos[1]')) == text
