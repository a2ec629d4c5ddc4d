"""The bundled scenarios pass, and the scenario runner really detects failures."""
from __future__ import annotations

import shutil
import textwrap

import pytest

from boardwright.interpreter.testing import scenario
from boardwright.interpreter.testing.scenario import run_scenario

from conftest import cached_game, scenario_paths

PUNTO_SCENARIOS = [p for p in scenario_paths() if p.parent.parent.name == "punto"]


@pytest.mark.slow
@pytest.mark.parametrize("path", scenario_paths(), ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_bundled_scenario_passes(path, monkeypatch):
    # The 140 scenarios name 12 games and variants: each is loaded once a worker, not once a
    # scenario (loading is tested on its own, and run_scenario's own load by the tests below).
    monkeypatch.setattr(scenario, "load_game", cached_game)
    outcome = run_scenario(path)
    assert outcome.passed, "\n".join(outcome.failures)


def test_punto_ships_the_required_scenarios():
    names = {p.name.removesuffix(".scenario.yaml") for p in PUNTO_SCENARIOS}
    for required in ("cover-lower-card", "equal-card-refused", "extent-six-by-six", "five-in-a-row-wins",
                     "four-in-a-row-not-enough", "mixed-colours-do-not-win", "stuck-most-lines-win",
                     "stuck-tie-fewer-points", "removed-card-stays-out"):
        assert required in names


def write(tmp_path, text: str):
    path = tmp_path / "case.scenario.yaml"
    path.write_text(textwrap.dedent(text))
    return path


WIN = """\
    name: five in a row
    game: punto
    players: 2
    state:
      zones:
        table: {"0,0": [red 2], "1,0": [red 9], "2,0": [red 3], "3,0": [red 4]}
      top:
        deck/0: [red 5]
    moves: ["4,0"]
    expect:
      zones:
        removed: [%s]
      vars: {wins: %s}
    """


def test_a_wrong_expectation_fails_with_a_readable_report(tmp_path):
    assert run_scenario(write(tmp_path, WIN % ("red 9", "[1, 0]"))).passed
    outcome = run_scenario(write(tmp_path, WIN % ("red 5", "[0, 1]")))
    assert not outcome.passed
    text = "\n".join(outcome.failures)
    assert "removed expected ['red 5']" in text and "wins expected [0, 1]" in text


def test_option_expectations_fail_when_wrong(tmp_path):
    outcome = run_scenario(write(tmp_path, """\
        game: punto
        players: 2
        state:
          zones:
            table: {"0,0": [green 5]}
          top:
            deck/0: [red 5]
        expect:
          options_include: ["0,0"]
          options_exclude: ["1,1"]
        """))
    assert len(outcome.failures) == 2


def test_unexpected_error_and_missing_error_are_failures(tmp_path):
    bad_move = run_scenario(write(tmp_path, "game: punto\nplayers: 2\nmoves: ['9,9']\n"))
    assert not bad_move.passed and "not a legal option" in bad_move.failures[0]
    no_error = run_scenario(write(tmp_path, "game: punto\nplayers: 2\nexpect:\n  error: boom\n"))
    assert not no_error.passed and "none was raised" in no_error.failures[0]


def test_a_malformed_scenario_is_reported_with_its_line(tmp_path):
    outcome = run_scenario(write(tmp_path, "game: punto\nplayers: two\n"))
    assert not outcome.passed and ":2:" in outcome.failures[0]


def test_scenarios_can_name_a_game_folder_beside_them(tmp_path):
    shutil.copytree(PUNTO_SCENARIOS[0].parent.parent, tmp_path / "mygame")
    path = tmp_path / "local.scenario.yaml"
    path.write_text("game: mygame\nplayers: 2\nexpect:\n  player: 0\n")
    assert run_scenario(path).passed
