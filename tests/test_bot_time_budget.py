"""`mcts:seconds=T` searches as many iterations as fit in T seconds, then stops: checked
with a fake clock, so the test depends on no machine's speed."""
from __future__ import annotations

from boardwright.interpreter.bots import mcts as bots
from boardwright.interpreter.bots.mcts import MCTSBot

from conftest import cached_game


class TickingClock:
    """A perf_counter that moves one second each time it is read."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def test_a_time_budget_stops_the_search_and_replaces_the_iteration_count(monkeypatch):
    game = cached_game("punto")
    st = game.new_state(2, 4)
    monkeypatch.setattr(bots.time, "perf_counter", TickingClock())
    # The deadline is read once when the search starts, then once before each iteration:
    # with 5 seconds, iterations run while the clock reads 2, 3, 4 and 5 seconds.
    root = MCTSBot(1, iterations=300, seconds=5).search(game, st)
    assert root.visits == 4
    monkeypatch.setattr(bots.time, "perf_counter", TickingClock())
    assert MCTSBot(1, iterations=300).search(game, st).visits == 300   # no time budget: the count
