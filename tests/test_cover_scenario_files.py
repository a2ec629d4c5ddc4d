"""Scenario files the runner cannot use as written: unreadable, not UTF-8, or asking for a
state the game cannot have. Each is a failed scenario with a message, never a crash."""
from __future__ import annotations

import pytest

from boardwright.dsl.errors import DataError
from boardwright.interpreter.testing.scenario import run_scenario
from boardwright.interpreter.testing.scenario_file import load_scenario

PUNTO_START = """\
name: a position
game: punto
players: 2
seed: 1
"""


def test_a_scenario_that_is_not_utf8_is_a_failure_with_a_reason(tmp_path):
    path = tmp_path / "latin.scenario.yaml"
    path.write_bytes(PUNTO_START.encode() + b"description: caf\xe9\n")
    outcome = run_scenario(path)
    assert not outcome.passed
    assert outcome.failures[0].startswith(f"{path}:5:17: error: the scenario is not UTF-8 text: byte 0xe9")
    assert outcome.failures[0].endswith("hint: save the file as UTF-8")


def test_a_folder_named_like_a_scenario_cannot_be_read(tmp_path):
    path = tmp_path / "folder.scenario.yaml"
    path.mkdir()
    outcome = run_scenario(path)
    assert not outcome.passed
    assert outcome.failures == [f"error: cannot read scenario {path}: Is a directory"]


def test_load_scenario_returns_the_data(tmp_path):
    path = tmp_path / "ok.scenario.yaml"
    path.write_text(PUNTO_START + "expect:\n  player: 0\n")
    data = load_scenario(path)
    assert data["game"] == "punto" and data["expect"] == {"player": 0}


def test_load_scenario_refuses_a_file_against_the_schema(tmp_path):
    path = tmp_path / "bad.scenario.yaml"
    path.write_text(PUNTO_START + "expect:\n  player: first\n")
    with pytest.raises(DataError):
        load_scenario(path)


def test_top_needs_a_stack_zone(tmp_path):
    path = tmp_path / "top.scenario.yaml"
    path.write_text(PUNTO_START + "state:\n  top:\n    table: [blue 5]\nexpect:\n  player: 0\n")
    outcome = run_scenario(path)
    assert not outcome.passed
    failure = outcome.failures[0]
    assert "scenario: 'top' needs a stack zone, not 'table'" in failure
    assert f"{path}:7:" in failure            # at the zone's key, line 7 of the file
