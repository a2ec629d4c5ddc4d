"""Rules that never reach a decision are stopped after STEP_LIMIT steps, with the position of
the looping rule, whichever way the engine runs them (plain, or counting rule coverage)."""
from __future__ import annotations

import threading

import pytest

from boardwright.dsl.errors import RuleError
from boardwright.interpreter.run import engine
from boardwright.interpreter.testing.coverage import Coverage

from conftest import make_small_game

HEADER = 'game "Endless"\nplayers 2\ndata "cards.yaml"\nvar rounds: int = 0\n'
# Each holds a choice, so it runs block by block through the engine's own loop; the choice is
# never reached (two players), so no decision ever stops it.
LOOP = HEADER + """\
play {
  while rounds >= 0 {
    rounds += 1
    if player_count > 2 { turn 0 { choose x from [1, 2] prompt "Pick" } }
  }
}
"""
RECURSION = HEADER + """\
proc again() {
  rounds += 1
  if player_count > 2 { turn 0 { choose x from [1, 2] prompt "Pick" } }
  again()
}
play { again() }
"""
# Without a choice in it the procedure runs to its end at once (`Game.call`), by its own loop.
PLAIN_RECURSION = HEADER + """\
proc again() {
  rounds += 1
  again()
}
play { again() }
"""


def within(seconds: float, action):
    """What `action()` returns or raises, failing the test if it runs longer than `seconds`
    (an unguarded endless rule would otherwise hang the suite)."""
    outcome = {}

    def run():
        try:
            outcome["value"] = action()
        except BaseException as exc:    # handed to the test below
            outcome["error"] = exc

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"still running after {seconds} s: the step limit did not stop it"
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


@pytest.mark.parametrize("rules, lines", [(LOOP, (6, 7, 8)), (RECURSION, (6, 7, 8)), (PLAIN_RECURSION, (6, 7))],
                         ids=["loop", "recursion", "recursion-without-choices"])
@pytest.mark.parametrize("counted", [False, True], ids=["plain", "counting-coverage"])
def test_rules_without_a_decision_stop_at_the_step_limit(tmp_path, monkeypatch, rules, lines, counted):
    monkeypatch.setattr(engine, "STEP_LIMIT", 500)
    game = make_small_game(tmp_path, rules)
    if counted:
        game.coverage = Coverage()
    with pytest.raises(RuleError) as caught:
        within(20, lambda: game.new_state(2, 1))
    diagnostic = caught.value.diagnostics[0]
    assert "no decision after 500 steps" in diagnostic.message
    assert diagnostic.span.line in lines
