"""`boardwright sweep` and its param ranges: the same seeds at every value, every measure with
its interval (checked against the games' own CSV rows), the same table on 1 or 2 workers,
and a clear usage error for every bad range."""
from __future__ import annotations

import csv
from collections import defaultdict
from pathlib import Path

import pytest

from conftest import main_json as _json, run_main as run
from boardwright.dsl.errors import UsageError
from boardwright.interpreter.playtest.param_ranges import parse_range
from boardwright.interpreter.playtest.report import wilson

RACE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "head-start-race" / "race.game"
SWEEP = ["sweep", str(RACE), "--players", "2", "--games", "40", "--set", "goal=10"]




def test_ranges_by_hand():
    assert parse_range("k=-3..3").values() == [-3, -2, -1, 0, 1, 2, 3]
    assert parse_range("k=0..10:5").values() == [0, 5, 10]
    assert parse_range("k=2..9:3").values() == [2, 5, 8]
    assert parse_range("c=0.5..1.5:0.5").values() == [0.5, 1.0, 1.5]
    assert parse_range("c=0.5..1.5").kind == "real" and parse_range("c=0.5..1.5").values() == []
    assert parse_range("f=true,false").values() == [True, False]
    assert parse_range("e=red,pink").values() == ["red", "pink"]


def test_sweep_plays_the_same_seeds_at_every_value_and_measures_them(capsys, tmp_path):
    path = tmp_path / "games.csv"
    report = _json(capsys, *SWEEP, "--set", "head_start=0..8:4", "--csv", str(path))
    assert [p["params"] for p in report["points"]] == [{"head_start": 0}, {"head_start": 4}, {"head_start": 8}]
    rows = defaultdict(list)
    for row in csv.DictReader(open(path, encoding="utf-8")):
        rows[row["config"]].append(row)
    seeds = [[r["seed"] for r in rows[name]] for name in ("head_start=0", "head_start=4", "head_start=8")]
    assert seeds[0] == seeds[1] == seeds[2] and len(seeds[0]) == 40       # common random numbers
    for point, name in zip(report["points"], ("head_start=0", "head_start=4", "head_start=8")):
        hare_wins = sum(1 for r in rows[name] if r["winner_seats"] == "0")
        measured = point["measures"]["win rate Player 1"]
        assert measured["value"] == pytest.approx(hare_wins / 40)
        assert measured["ci95"] == list(wilson(hare_wins, 40))
        gaps = [int(r["measure_gap"]) for r in rows[name]]
        assert point["measures"]["gap"]["value"] == pytest.approx(sum(gaps) / 40, abs=1e-4)
    # A longer head start helps the tortoise: with the same dice, never fewer wins.
    rates = [p["measures"]["win rate Player 2"]["value"] for p in report["points"]]
    assert rates == sorted(rates) and rates[0] < rates[-1]


def test_sweep_is_the_same_on_one_or_two_workers(capsys):
    args = [*SWEEP, "--set", "head_start=2,5"]
    assert _json(capsys, *args) == _json(capsys, *args, "--workers", "2")


def test_sweep_table_and_plot(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    plot = tmp_path / "sweep.png"
    code, out, _ = run(capsys, *SWEEP, "--set", "head_start=0..2", "--plot", str(plot))
    assert code == 0
    assert "sweep of head_start, 40 games per value" in out
    assert "head_start=0" in out and "head_start=2" in out
    assert any(line.strip().startswith("tortoise ahead") for line in out.splitlines())
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("setting, words", [
    ("head_start=5..2", "the low end 5 is above the high end 2; write head_start=2..5"),
    ("head_start=1..x", "expected LOW..HIGH or LOW..HIGH:STEP with numbers"),
    ("head_start=0..4:0", "the step must be above 0"),
    ("head_start=0.5..2.5", "params are whole numbers, true/false or enum members, not reals"),
    ("head_strat=0..4", "no param 'head_strat' in Head start race; params: head_start, goal; did you mean 'head_start'?"),
    ("head_start", "expects NAME=LOW..HIGH"),
    ("head_start=1,,2", "an empty value in the list"),
    ("head_start=0..1000000", "more than 10,000 values"),
])
def test_bad_ranges_are_usage_errors(capsys, setting, words):
    code, out, err = run(capsys, *SWEEP, "--set", setting)
    assert code == 2 and out == ""
    assert words in err and "Traceback" not in err


def test_sweep_without_a_range_says_what_it_needs(capsys):
    code, _, err = run(capsys, "sweep", str(RACE), "--players", "2")
    assert code == 2 and "sweep needs a range: --set NAME=LOW..HIGH" in err


def test_a_range_twice_is_refused():
    from boardwright.interpreter.playtest.param_ranges import parse_ranges
    with pytest.raises(UsageError, match="names 'k' twice"):
        parse_ranges(["k=1..2", "k=3..4"])


@pytest.mark.slow
def test_sweep_and_tune_on_a_dask_cluster_equal_the_serial_run(capsys):
    pytest.importorskip("optuna")
    distributed = pytest.importorskip("dask.distributed")
    sweep = [*SWEEP, "--set", "head_start=2,5"]
    tune = ["tune", str(RACE), "--players", "2", "--set", "goal=10", "--param", "head_start=0..8",
            "--goal", "first-player=0.5", "--budget", "200", "--games", "20", "-q"]
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        for args in (sweep, tune):
            assert _json(capsys, *args) == _json(capsys, *args, "--cluster", cluster.scheduler_address)
