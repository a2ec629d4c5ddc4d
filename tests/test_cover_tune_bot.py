"""`tune --bot`'s report, its progress and its game runner on a cluster, in process and small:
the text and declaration of a report written by hand, the progress counts of a tiny search,
and the cluster's games (a fake Dask) equal to the same games played here, with the errors
of a missing Dask, an unreachable scheduler and a failing worker."""
from __future__ import annotations

import sys

import pytest

from boardwright.dsl.errors import UsageError
from boardwright.interpreter.compile.load import load_game
from boardwright.interpreter.playtest.simulate import remember_loaded
from boardwright.interpreter.playtest.tune_bot import GameRunner, declaration, format_tune, tune_bot

from test_bot_enhancements import RACE
from test_quick_cluster_and_pool import fake_dask

pytest.importorskip("optuna")

CANDIDATE = "mcts:iterations=12:width=0:depth=4"


@pytest.fixture()
def race(tmp_path):
    path = tmp_path / "race.game"
    path.write_text(RACE)
    game = load_game(path)
    ref = (str(path), None, ())
    remember_loaded(ref, game)
    return game, ref


def hand_report(best: bool = True) -> dict:
    confirmed = {"trial": 2, "spec": "mcts:iterations=50:width=4", "games": 100, "wins": 62.0, "win_rate": 0.62,
                 "ci95": (0.5221, 0.7093), "cpu_per_decision": 0.1234, "search_win_rate": 0.75, "over": False}
    return {"game": "Race", "variant": "short", "bot": "mcts", "opponent": "greedy", "budget": 0.25, "seed": 3,
            "trials": [{"state": s} for s in ("complete", "pruned", "over budget", "complete", "complete")],
            "games_per_trial": 8, "confirm_seed": 3 + 7_919, "confirmed": [confirmed],
            "best": confirmed if best else None}


def test_the_report_lists_the_trials_the_confirmation_and_the_declaration():
    text = format_tune(hand_report(), "boardwright tune race.game --bot mcts")
    assert text.splitlines() == [
        "Race (short): tuned mcts against greedy, 5 trials of up to 8 rotated games (seed 3), budget 0.25 CPU s per decision",
        "  trials: 3 complete, 1 pruned, 1 over budget",
        "  confirmed on 100 other games (seed 7922):",
        "    0.620 [0.522, 0.709]  0.123 CPU s  (search 0.750)  mcts:iterations=50:width=4",
        "# Tuned by `boardwright tune`: won 0.620 (95% interval 0.522 to 0.709) of",
        "# 100 rotated 2-player games against greedy (seed 7922), 0.123 CPU s per decision.",
        "# Rerun: boardwright tune race.game --bot mcts",
        'bot mcts "iterations=50:width=4"',
    ]


def test_each_over_budget_trial_says_what_it_cost_and_what_was_done():
    report = hand_report()
    report["trials"][2].update(trial=2, why="0.400 s per decision: 0.300 fixed + 1.00 ms per iteration; the fixed "
                                            "part alone is over the budget: not refitted")
    lines = format_tune(report, "x").splitlines()
    assert lines[1:4] == ["  trials: 3 complete, 1 pruned, 1 over budget",
                          "    trial 2 over budget: 0.400 s per decision: 0.300 fixed + 1.00 ms per iteration; "
                          "the fixed part alone is over the budget: not refitted",
                          "  confirmed on 100 other games (seed 7922):"]


def test_the_declaration_ends_with_a_newline_and_names_the_bot_and_its_settings():
    text = declaration(hand_report(), "x")
    assert text.endswith('\nbot mcts "iterations=50:width=4"\n') and text.count("\n") == 4


def test_a_report_without_a_best_candidate_says_what_to_raise():
    report = hand_report(best=False)
    report["confirmed"] = []
    lines = format_tune(report, "x").splitlines()
    assert lines[2] == "  confirmed on 0 other games (seed 7922):"
    assert lines[-1] == "  no candidate completed its games within the budget: raise --decision-seconds or --trials"


def test_the_progress_counts_every_game_once_and_ends_at_the_total(race):
    game, ref = race
    calls: list = []
    report = tune_bot(game, ref, "mcts", trials=2, games=4, batch=2, confirm=3, confirm_games=2, seed=3, budget=10.0,
                      progress=lambda done, total: calls.append((done, total)))
    total = 2 * 4 + 3 * 2               # the most games the search may play: 3 confirmations planned
    assert {t for _, t in calls} == {total}
    assert [d for d, _ in calls] == sorted(d for d, _ in calls) and calls[-1] == (total, total)
    # each batch of 2 games ticks by 2 (a pruned or over-budget trial adds its unplayed games at once)
    assert calls[0][0] == 2
    # two trials give at most two candidates to confirm: the bar still ends full
    assert len(report["confirmed"]) <= 2 and calls[-2][0] <= total - 2


@pytest.mark.parametrize("budget", [0.0, -1.0, float("inf"), float("nan")])
def test_a_budget_that_is_not_a_positive_number_is_a_usage_error(race, budget):
    game, ref = race
    with pytest.raises(UsageError, match="positive number of CPU seconds"):
        tune_bot(game, ref, "mcts", trials=1, games=2, batch=2, budget=budget)


def test_the_cluster_plays_the_same_games_as_this_process(race, monkeypatch):
    game, ref = race
    log: list = []
    fake_dask(monkeypatch, log)
    with GameRunner(game, ref, cluster="tcp://sched:8786") as runner:
        remote = runner.play(5, [0, 1, 2], CANDIDATE, "random", 10.0)
    with GameRunner(game, ref) as here:
        local = here.play(5, [0, 1, 2], CANDIDATE, "random", 10.0)
    assert [r["index"] for r in remote] == [0, 1, 2]    # the fake cluster answers in reverse order
    assert [(r["share"], r["decisions"]) for r in remote] == [(r["share"], r["decisions"]) for r in local]
    assert log[0] == ("connect", "tcp://sched:8786") and log[-1] == ("close",)


def test_a_cluster_without_dask_says_what_to_install(race, monkeypatch):
    game, ref = race
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    with pytest.raises(UsageError, match=r"--cluster needs Dask: pip install 'boardwright\[cluster\]'"):
        GameRunner(game, ref, cluster="tcp://sched:8786").__enter__()


def test_an_unreachable_scheduler_is_named_in_the_error(race, monkeypatch):
    game, ref = race
    fake_dask(monkeypatch, [])

    def refuse(address, timeout):
        raise OSError("connection refused")

    monkeypatch.setattr(sys.modules["dask.distributed"], "Client", refuse)
    with pytest.raises(UsageError, match="cannot reach the Dask scheduler at tcp://nowhere:1: connection refused"):
        GameRunner(game, ref, cluster="tcp://nowhere:1").__enter__()


def test_a_failing_worker_is_reported_as_the_workers_problem(race, monkeypatch):
    game, ref = race
    log: list = []
    fake_dask(monkeypatch, log, fail=ModuleNotFoundError("No module named 'boardwright'"))
    with pytest.raises(UsageError) as error:
        with GameRunner(game, ref, cluster="tcp://sched:8786") as runner:
            runner.play(5, [0, 1], CANDIDATE, "random", 10.0)
    assert "the Dask workers of tcp://sched:8786 cannot run Boardwright" in str(error.value)
    assert log[-1] == ("close",)        # the client is closed on the way out



def test_a_pool_of_two_workers_plays_the_same_games_as_this_process(race):
    game, ref = race
    with GameRunner(game, ref, workers=2) as pooled:
        assert pooled.pool is not None
        remote = pooled.play(5, [0, 1, 2], CANDIDATE, "random", 10.0)
    with GameRunner(game, ref) as here:
        assert here.pool is None and here.client is None
        local = here.play(5, [0, 1, 2], CANDIDATE, "random", 10.0)
    assert [(r["index"], r["share"], r["decisions"]) for r in remote] == \
        [(r["index"], r["share"], r["decisions"]) for r in local]
