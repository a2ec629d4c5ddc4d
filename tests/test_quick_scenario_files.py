"""Scenario files read against their schema (docs/scenarios.md, "Keys": "Any other key, or a
value of the wrong type, is an error that points at its line"), and the pytest plugin that
collects them ("pytest collects scenario files too ... each as one test"), driven in this
process instead of in a pytest subprocess (the slow test in tests/test_check.py)."""
from __future__ import annotations

import pytest

from boardwright.interpreter.testing import pytest_plugin
from boardwright.interpreter.testing.scenario import run_scenario

PASSING = "name: seat 0 starts\ngame: punto\nplayers: 2\nexpect:\n  player: 0\n"
FAILING = "name: a wrong expectation\ngame: punto\nplayers: 2\nexpect:\n  player: 1\n"


def failures_of(tmp_path, text: str) -> list:
    path = tmp_path / "f.scenario.yaml"
    path.write_text(text)
    outcome = run_scenario(path)
    assert not outcome.passed
    return [f.replace(str(path), "F") for f in outcome.failures]


def test_invalid_yaml_points_at_its_line(tmp_path):
    [failure] = failures_of(tmp_path, "name: x\ngame: [punto\nplayers: 2\n")
    assert failure.startswith("F:3:") and "invalid YAML" in failure


def test_the_game_key_is_required(tmp_path):
    [failure] = failures_of(tmp_path, "name: no game\nplayers: 2\n")
    assert failure.startswith("F:1:1: error: scenario: the file needs the key 'game'")


def test_a_scenario_that_is_not_a_mapping(tmp_path):
    [failure] = failures_of(tmp_path, "- game: punto\n")
    assert "error: scenario: this value must be a mapping (key: value lines), not [{'game': 'punto'}]" in failure


def test_a_value_out_of_its_range(tmp_path):
    [failure] = failures_of(tmp_path, "game: punto\nplayers: 0\n")
    assert failure.startswith("F:2:10: error: scenario: 'players' must be at least 1, not `0`")


# ------------------------------------------------------------------ the pytest plugin

def collect(request, path):
    node = pytest_plugin.pytest_collect_file(request.session, path)
    assert isinstance(node, pytest_plugin.ScenarioFile)
    [item] = list(node.collect())
    return item


def test_the_plugin_collects_only_scenario_files(request, tmp_path):
    other = tmp_path / "notes.yaml"
    other.write_text("game: punto\n")
    assert pytest_plugin.pytest_collect_file(request.session, other) is None


def test_a_passing_scenario_is_one_passing_test(request, tmp_path):
    path = tmp_path / "starts.scenario.yaml"
    path.write_text(PASSING)
    item = collect(request, path)
    assert item.name == "starts"
    item.runtest()                                          # raises nothing
    assert item.reportinfo() == (path, 0, "scenario: starts")


def test_a_failing_scenario_reports_its_file_and_the_failed_expectation(request, tmp_path):
    path = tmp_path / "wrong.scenario.yaml"
    path.write_text(FAILING)
    item = collect(request, path)
    with pytest.raises(pytest_plugin.ScenarioFailed) as info:
        item.runtest()
    report = item.repr_failure(info)
    lines = report.splitlines()
    assert lines[0] == f"scenario {path}: a wrong expectation"
    assert any("expected seat 1 to choose" in line for line in lines[1:])
    assert all(line.startswith("  ") for line in lines[1:])
    assert "expected seat 1 to choose" in str(info.value)


def test_other_errors_are_reported_as_pytest_reports_them(request, tmp_path):
    path = tmp_path / "other.scenario.yaml"
    path.write_text(PASSING)
    item = collect(request, path)
    try:
        raise ValueError("not a scenario failure")
    except ValueError:
        info = pytest.ExceptionInfo.from_current()
    assert "not a scenario failure" in str(item.repr_failure(info))
