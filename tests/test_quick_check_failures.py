"""Quick counterparts of the slow `check` tests (tests/test_check.py) on a tiny rule file.
docs/cli.md (`check`): a rule error fails "every offered option applies without error";
`--max-steps N` stops checking a game after N decisions; `--out FILE` writes the failing
game as a scenario that `boardwright test` fails the same way."""
from __future__ import annotations

import yaml

from boardwright.interpreter.compile.load import load_game
from boardwright.interpreter.testing.check import UNIVERSAL, failure_scenario, reproduction_scenario, run_checks
from boardwright.interpreter.testing.scenario import run_scenario

from conftest import small_body_file

# Each player picks 1 or 2 in turn, three rounds: six decisions a game.
ROUNDS = """\
var picked: int = 0
play {{
  for r in range(3) {{
    for p in players {{
      turn p {{
        choose x from [1, 2] prompt "Pick"
        {after}
      }}
    }}
  }}
}}
{extra}
"""


def build(tmp_path, after: str = "", extra: str = ""):
    return load_game(small_body_file(tmp_path, ROUNDS.format(after=after, extra=extra)))


def test_a_rule_error_in_setup_fails_the_first_property_with_no_choices(tmp_path):
    game = load_game(small_body_file(tmp_path, 'setup { fail "no table" }\n' + ROUNDS.format(after="", extra="")))
    report = run_checks(game, [2], examples=3, seed_value=0)
    assert report.failure is not None and report.failure.prop == UNIVERSAL[0]
    assert "no table" in report.failure.detail and report.failure.choices == []
    assert report.failure.where.endswith(":4"), "the failing line of the rule file (its line 4)"


def test_max_steps_stops_each_game_early(tmp_path):
    game = build(tmp_path)
    report = run_checks(game, [2], examples=3, seed_value=1, max_steps=2)
    assert report.failure is None
    assert report.games == 0, "no game ran to its end: each stopped after 2 of its 6 decisions"
    full = run_checks(game, [2], examples=3, seed_value=1)
    assert full.failure is None and full.games >= 1


def test_the_failing_game_becomes_a_scenario_that_fails_the_same_way(tmp_path):
    game = build(tmp_path, after="picked = x", extra='invariant "never two": picked != 2\n')
    report = run_checks(game, [2], examples=10, seed_value=1)
    assert report.failure is not None and report.failure.prop == 'invariant "never two"'
    text = failure_scenario(report, "g.game", None)
    data = yaml.safe_load(text)
    assert data["game"] == "g.game" and "variant" not in data and data["players"] == 2
    assert data["expect"] == {"invariants": True, "properties": True}
    assert data["name"].startswith('found by check: invariant "never two"')
    path = tmp_path / "found.scenario.yaml"
    path.write_text(text)
    outcome = run_scenario(path)
    assert not outcome.passed and "never two" in "\n".join(outcome.failures)


def test_a_reproduction_names_its_variant():
    data = yaml.safe_load(reproduction_scenario("n", "d", "punto", "team", 4, 9, ["1,0", 2]))
    assert data == {"name": "n", "description": "d", "game": "punto", "variant": "team", "players": 4,
                    "seed": 9, "moves": ["1,0", 2], "expect": {"invariants": True, "properties": True}}
