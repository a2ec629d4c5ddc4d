"""`check` finds planted bugs and shrinks them to short games that `test` replays;
coverage reports dead rules; the pytest plugin collects scenarios."""
from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap

import pytest
import yaml

from boardwright.cli.main import main
from boardwright.dsl.loader import GAMES_DIR
from boardwright.interpreter.compile.load import load_game
from boardwright.interpreter.testing.check import failure_scenario, run_checks
from boardwright.interpreter.testing.coverage import coverage_report, measure_coverage
from boardwright.interpreter.testing.scenario import run_scenario

from conftest import all_game_variants, cached_game

PUNTO = (GAMES_DIR / "punto" / "punto.game").read_text()


def planted(tmp_path, old: str, new: str):
    assert old in PUNTO
    (tmp_path / "cards.yaml").write_text((GAMES_DIR / "punto" / "cards.yaml").read_text())
    path = tmp_path / "punto.game"
    path.write_text(PUNTO.replace(old, new, 1))
    return path


PLANTED = {
    "wrong bound": ("extent table_side x table_side", "extent 7 x 7", "fit in table_side x table_side"),
    "equal card may cover": ("top_at(table, c).value < card.value", "top_at(table, c).value <= card.value",
                             "covered card is lower"),
    "card leaves no trace": ("        move card to table at spot\n",
                             "        if top_at(table, spot) != none { move top_at(table, spot) to lost }\n"
                             "        move card to table at spot\n", "exactly one place"),
}


@pytest.mark.slow
@pytest.mark.parametrize("bug", sorted(PLANTED))
def test_check_finds_a_planted_bug_and_writes_a_short_replayable_scenario(tmp_path, capsys, bug):
    old, new, invariant = PLANTED[bug]
    path = planted(tmp_path, old, new)
    if "lost" in new:
        path.write_text(path.read_text().replace("zone out: pile", "zone lost: pile\nzone out: pile"))
    out = tmp_path / "found.scenario.yaml"
    code = main(["check", str(path), "--players", "2", "--examples", "25", "--seed", "1", "--out", str(out)])
    printed = capsys.readouterr().out
    assert code == 1
    assert "FAILED: invariant" in printed and invariant in printed
    scenario = yaml.safe_load(out.read_text())
    assert len(scenario["moves"]) <= 10
    outcome = run_scenario(out)
    assert not outcome.passed and invariant in "\n".join(outcome.failures)


@pytest.mark.slow
def test_check_finds_a_missing_refill_and_shrinks_it(tmp_path):
    folder = tmp_path / "urban-panic"
    shutil.copytree(GAMES_DIR / "urban-panic", folder, ignore=shutil.ignore_patterns("scenarios"))
    rules = (folder / "urban-panic.game").read_text()
    old = "  architect_done = true\n  log \"{p} takes {t}\"\n  if refill_at_once { refill() }\n"
    assert rules.count(old) == 1
    (folder / "urban-panic.game").write_text(rules.replace(old, old.replace("  if refill_at_once { refill() }\n", "")))
    report = run_checks(load_game(folder / "urban-panic.game"), [2], examples=10, seed_value=1)
    assert report.failure is not None and "refilled at once" in report.failure.prop
    assert len(report.failure.choices) <= 10
    out = tmp_path / "refill.scenario.yaml"
    out.write_text(failure_scenario(report, str(folder / "urban-panic.game"), None))
    outcome = run_scenario(out)
    assert not outcome.passed and "refilled at once" in "\n".join(outcome.failures)


@pytest.mark.slow
def test_check_passes_on_the_bundled_rules(capsys):
    code = main(["check", "punto", "--examples", "3", "--seed", "2"])
    out = capsys.readouterr().out
    assert code == 0 and out.startswith("ok: Punto") and "properties held after every step" in out


@pytest.mark.slow
def test_check_reports_a_rule_error_in_a_rarely_chosen_option(tmp_path):
    path = planted(tmp_path, "        move card to table at spot\n",
                   "        if spot == (0, -1) { fail \"boom at {spot}\" }\n        move card to table at spot\n")
    report = run_checks(load_game(path), [2], examples=20, seed_value=3)
    assert report.failure is not None
    assert report.failure.prop == "every offered option applies without error"
    assert "boom at (0, -1)" in report.failure.detail and len(report.failure.choices) <= 3


def test_coverage_reports_an_unreachable_rule_and_a_common_one(tmp_path):
    path = planted(tmp_path, "proc settle_stuck_round() {\n",
                   "proc settle_stuck_round() {\n  if player_count > 9 { log \"never\" }\n")
    game = load_game(path)
    report = coverage_report(game, measure_coverage(game, [2], games=2, seed=1))
    never = [s["source"] for s in report["never_ran"]]
    assert any('log "never"' in source for source in never)
    ran = {s["source"]: s["count"] for s in report["statement_counts"]}
    assert ran["move card to table at spot"] > 50
    assert any(b["branch"] == "then" and "player_count > 9" in b["source"] for b in report["branches_never_taken"])
    assert report["decisions"][0]["count"] > 50


def test_coverage_lists_neutral_rules_unused_at_two_players(capsys):
    code = main(["simulate", "punto", "--players", "2", "--games", "2", "--coverage"])
    out = capsys.readouterr().out
    assert code == 0 and "move played[i] to out" in out and "statements run:" in out


@pytest.mark.slow
def test_pytest_plugin_collects_scenarios_and_reports_failures(tmp_path):
    # In the checkout, pyproject's addopts would start two xdist workers and coverage in the
    # child (4 times its CPU time; and a second pytest-cov writing where this run's measurements
    # go): the plugin is under test here, not those, so the child runs in one process, unmeasured.
    # The bot puzzles of the folder's `puzzles/` are collected but deselected: their searches
    # take most of the time and test_scenarios runs them.
    good = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "0", "--no-cov", "-k", "not puzzles",
                           str(GAMES_DIR / "punto" / "scenarios")],
                          capture_output=True, text=True, timeout=300)
    puzzles = len(list((GAMES_DIR / "punto" / "scenarios" / "puzzles").glob("*.scenario.yaml")))
    others = len(list((GAMES_DIR / "punto" / "scenarios").glob("*.scenario.yaml")))
    assert puzzles >= 3 and others >= 20
    assert good.returncode == 0 and f"{others} passed, {puzzles} deselected" in good.stdout, good.stdout[-2000:]
    bad = tmp_path / "wrong.scenario.yaml"
    bad.write_text(textwrap.dedent("""\
        name: a wrong expectation
        game: punto
        players: 2
        expect:
          player: 1
        """))
    failed = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(bad)],
                            capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert failed.returncode == 1
    assert "wrong.scenario.yaml" in failed.stdout and "expected seat 1 to choose" in failed.stdout


@pytest.mark.slow
@pytest.mark.parametrize("name,variant", all_game_variants())
def test_check_passes_on_every_bundled_game_and_variant(name, variant):
    game = cached_game(name, variant)
    counts = list(range(game.min_players, game.max_players + 1))
    report = run_checks(game, counts, examples=2, seed_value=5)
    assert report.failure is None, report.failure
    assert report.games == 2 and report.steps > 0


def test_an_invariant_that_raises_is_reported_as_that_invariant(tmp_path, capsys):
    # Index past the end of the table's cells once the first card lies: an error, not false.
    path = planted(tmp_path, 'invariant "a round ends on its first completed line":',
                   'invariant "the first cell is indexable": '
                   '[c for c in occupied(table)][5] == (0, 0)\n'
                   'invariant "a round ends on its first completed line":')
    code = main(["check", str(path), "--players", "2", "--examples", "5", "--seed", "1"])
    printed = capsys.readouterr().out
    assert code == 1
    assert 'FAILED: invariant "the first cell is indexable"' in printed
    assert "raised an error" in printed
    assert "every offered option applies without error" not in printed


@pytest.mark.slow
def test_check_leaves_no_hypothesis_folder_and_writes_relative_paths(tmp_path, capsys, monkeypatch):
    path = planted(tmp_path, "extent table_side x table_side", "extent 7 x 7")
    work = tmp_path / "work"
    (work / "out").mkdir(parents=True)
    store = tmp_path / "store"
    monkeypatch.chdir(work)
    monkeypatch.delenv("HYPOTHESIS_STORAGE_DIRECTORY", raising=False)
    monkeypatch.setenv("BOARDWRIGHT_HYPOTHESIS_DIR", str(store))
    code = main(["check", str(path), "--players", "2", "--examples", "25", "--seed", "1",
                 "--out", "out/found.scenario.yaml"])
    capsys.readouterr()
    assert code == 1
    assert not (work / ".hypothesis").exists()
    scenario = yaml.safe_load((work / "out" / "found.scenario.yaml").read_text())
    assert scenario["game"] == "../../punto.game"
    monkeypatch.chdir(tmp_path)
    assert not run_scenario(work / "out" / "found.scenario.yaml").passed    # found from elsewhere too
