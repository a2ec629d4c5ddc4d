"""The command line: play driven through stdin, simulate, test and bench."""
from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from boardwright.cli.main import main
from boardwright.dsl.loader import bundled_games, resolve_game, variants_of

from conftest import scenario_paths


def run(capsys, *argv, stdin: str | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_play_reasks_an_invalid_entry_and_quits_cleanly_at_end_of_input(capsys, monkeypatch):
    code, out, err = run(capsys, "play", "punto", "--players", "2", "--seats", "human,random", "--seed", "3",
                         stdin="1\nnonsense\n99\n2\n", monkeypatch=monkeypatch)
    assert code == 0 and err == ""
    assert "Player 1, your move. Place" in out
    assert out.count("is not one of the options") == 2
    assert "Player 2 (random): Place" in out
    assert out.rstrip().endswith("Input ended: the game is abandoned.")


def test_play_to_the_end_between_bots_prints_the_result(capsys):
    code, out, _ = run(capsys, "play", "punto", "--players", "2", "--seats", "random,random", "--seed", "4")
    assert code == 0 and "== Final scores" in out and ("Winner:" in out or "draw" in out)


def test_play_rejects_a_seat_list_of_the_wrong_length(capsys):
    code, _, err = run(capsys, "play", "punto", "--players", "3", "--seats", "human,random")
    assert code == 2 and "2 seats for 3 players" in err


@pytest.mark.parametrize("command", [("simulate", "--bots", "gredy"), ("play", "--seats", "human,gredy")])
def test_a_misspelt_bot_is_named_before_the_count_is_judged(capsys, command):
    # One name for two seats: the typo is the problem a newcomer must hear about.
    name, flag, value = command
    code, _, err = run(capsys, name, "punto", "--players", "3", flag, value)
    assert code == 2 and "unknown bot 'gredy'" in err and "did you mean 'greedy'" in err


def test_simulate_json_has_the_promised_keys_and_repeats(capsys):
    args = ("simulate", "punto", "--players", "3", "--games", "4", "--seed", "1", "--json")
    code, out, _ = run(capsys, *args)
    first = json.loads(out)
    assert code == 0
    for key in ("games", "players", "wins", "draws", "scores", "turns", "seconds"):
        assert key in first
    assert first["games"] == 4 and first["players"] == 3 and len(first["wins"]) == 3
    assert sum(first["wins"]) + first["draws"] == pytest.approx(4)
    assert {"mean", "min", "max"} <= set(first["turns"]) and first["turns"]["min"] <= first["turns"]["max"]
    _, again, _ = run(capsys, *args)
    second = json.loads(again)
    first.pop("seconds"), second.pop("seconds")
    assert first == second


def test_simulate_team_variant_splits_shared_wins(capsys):
    code, out, _ = run(capsys, "simulate", "punto", "--variant", "team", "--players", "4",
                       "--games", "2", "--seed", "2", "--json")
    report = json.loads(out)
    assert code == 0 and report["wins"][0] == report["wins"][2] and report["wins"][1] == report["wins"][3]


@pytest.mark.parametrize("argv,message", [
    (["simulate", "punto", "--players", "5", "--games", "1"], "2 to 4 players, not 5"),
    (["simulate", "nowhere", "--players", "2"], "no game 'nowhere'"),
    (["simulate", "punto", "--variant", "teem", "--players", "4"], "did you mean 'team'"),
    (["simulate", "punto", "--players", "2", "--bots", "random,genius"], "unknown bot 'genius'"),
])
def test_usage_errors_exit_2_without_traceback(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and message in err and "Traceback" not in err


def test_bad_argument_types_exit_2(capsys):
    with pytest.raises(SystemExit) as info:
        main(["simulate", "punto", "--players", "two"])
    assert info.value.code == 2
    assert "expected a whole number" in capsys.readouterr().err


@pytest.mark.slow
def test_test_command_passes_bundled_scenarios_and_fails_a_broken_one(capsys, tmp_path):
    code, out, _ = run(capsys, "test", str(scenario_paths()[0].parent))
    assert code == 0 and " 0 failed" in out
    bad = tmp_path / "bad.scenario.yaml"
    bad.write_text("game: punto\nplayers: 2\nexpect:\n  finished: true\n")
    code, out, _ = run(capsys, "test", str(bad))
    assert code == 1 and "FAIL" in out and "finished: expected True, got False" in out


def test_bench_reports_speed_and_load_time(capsys):
    code, out, _ = run(capsys, "bench", "punto", "--players", "2", "--games", "2", "--mcts-iterations", "10", "--json")
    report = json.loads(out)
    assert code == 0 and report["playouts_per_second"] > 0 and report["load_and_check_ms"] > 0
    assert report["decisions_per_second"] > 0 and report["mcts_iterations_per_second"] > 0


def test_bench_times_as_many_loads_as_asked_and_shows_their_median(capsys, monkeypatch):
    import itertools
    from types import SimpleNamespace

    from boardwright.cli import playtest_commands
    from boardwright.interpreter.playtest import bench
    real_load, loads = playtest_commands.load_game, []
    monkeypatch.setattr(playtest_commands, "load_game", lambda *a: loads.append(a) or real_load(*a))
    # the clock read before and after each load: the loads last 1, 3 and 5 s; median 3 s
    clock = itertools.chain([0, 1, 10, 13, 20, 25], itertools.count(100))
    monkeypatch.setattr(bench, "time", SimpleNamespace(perf_counter=lambda: next(clock)))
    code, out, _ = run(capsys, "bench", "punto", "--games", "1", "--mcts-iterations", "2", "--loads", "3", "--json")
    report = json.loads(out)
    assert code == 0 and loads == [("punto", None)] * 3
    assert report["first_load_ms"] == 1000 and report["load_and_check_ms"] == 3000


@pytest.mark.slow
def test_bench_without_a_game_measures_every_bundled_game_and_variant(capsys):
    # one timed load per game (--loads 1): the table, not the timing, is what is checked here
    code, out, _ = run(capsys, "bench", "--games", "1", "--mcts-iterations", "5", "--loads", "1")
    rows = out.splitlines()
    expected = sum(1 + len(variants_of(resolve_game(g))) for g in bundled_games())
    assert code == 0 and rows[0].split()[:2] == ["game", "players"] and len(rows) == 1 + expected
    assert any(r.startswith("Punto (Team game)") and r.split()[3] == "4" for r in rows)


@pytest.mark.slow
def test_python_dash_m_runs_the_command_line():
    done = subprocess.run([sys.executable, "-m", "boardwright", "validate", "punto"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "ok: punto" in done.stdout
