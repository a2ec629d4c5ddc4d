"""`simulate --cluster` without a real Dask cluster (a stand-in scheduler that runs each batch
in this process), and the forked worker pool stopped early. docs/cli.md: the results on a
cluster are the serial results; workers that lack Boardwright are told to install it;
docs: processes.forked_pool terminates its workers when the work stops early."""
from __future__ import annotations

import sys
import types

import pytest

from boardwright.dsl.errors import UsageError
from boardwright.interpreter.playtest import simulate
from boardwright.interpreter.run.processes import forked_pool

from conftest import make_small_game

# Players take turns taking a card of their choice until the deck is empty.
RULES = """\
game "Tiny"
players 2
data "cards.yaml"
zone deck: stack
zone hand: pile per player
var points: int per player = 0
setup { move components(Card) to deck }
play {
  let p = 0
  while not empty(deck) {
    turn p {
      choose card from contents(deck) prompt "Take a card"
      move card to hand[p]
      points[p] += card.rank
    }
    p = next(p)
  }
}
score p { "Points": points[p] }
"""


class FakeFuture:
    def __init__(self, fn, args, fail):
        self.fn, self.args, self.fail = fn, args, fail

    def result(self):
        if self.fail is not None:
            raise self.fail
        return self.fn(*self.args)


def fake_dask(monkeypatch, log: list, fail: Exception | None = None):
    """dask.distributed with a Client that runs every mapped call here, in reverse order (so
    the runner must put the games back in order)."""
    class Client:
        def __init__(self, address, timeout):
            log.append(("connect", address))

        def map(self, fn, *columns, pure):
            log.append(("map", len(columns[0]), pure))
            return [FakeFuture(fn, args, fail) for args in zip(*columns)]

        def close(self):
            log.append(("close",))

    distributed = types.ModuleType("dask.distributed")
    distributed.Client = Client
    distributed.as_completed = lambda futures: list(reversed(futures))
    dask = types.ModuleType("dask")
    dask.distributed = distributed
    monkeypatch.setitem(sys.modules, "dask", dask)
    monkeypatch.setitem(sys.modules, "dask.distributed", distributed)


@pytest.fixture
def tiny(tmp_path, monkeypatch):
    game = make_small_game(tmp_path, RULES)
    ref = ("tiny-for-cluster-test", None, ())
    monkeypatch.setitem(simulate._LOADED, ref, game)
    return game, ref


def test_games_on_a_cluster_equal_the_serial_games(tiny, monkeypatch):
    game, ref = tiny
    log: list = []
    fake_dask(monkeypatch, log)
    done = []
    specs = ["random", "greedy"]
    on_cluster = simulate.simulate_records(game, 2, 12, 5, specs, rotate=True, cluster="tcp://sched:8786", ref=ref,
                                           progress=lambda n, total: done.append((n, total)))
    serial = simulate.simulate_records(game, 2, 12, 5, specs, rotate=True)
    assert on_cluster == serial
    assert [r["index"] for r in on_cluster] == list(range(12))
    # 12 games in batches of at least 12 // 10 = 1 game; progress reaches 12 of 12; the client is closed
    assert log[0] == ("connect", "tcp://sched:8786") and log[1][0] == "map" and log[1][2] is False
    assert done[-1] == (12, 12) and log[-1] == ("close",)


def test_workers_without_boardwright_are_told_to_install_it(tiny, monkeypatch):
    game, ref = tiny
    log: list = []
    fake_dask(monkeypatch, log, ModuleNotFoundError("No module named 'boardwright'"))
    with pytest.raises(UsageError) as info:
        simulate.simulate_records(game, 2, 3, 0, ["random", "random"], cluster="tcp://sched:8786", ref=ref)
    message = str(info.value)
    assert "the Dask workers of tcp://sched:8786 cannot run Boardwright" in message
    assert "No module named 'boardwright'" in message and "pip install boardwright" in message
    assert log[-1] == ("close",), "the client is closed even when a worker fails"


def test_other_worker_failures_pass_unchanged(tiny, monkeypatch):
    game, ref = tiny
    boom = RuntimeError("disk full")
    fake_dask(monkeypatch, [], boom)
    with pytest.raises(RuntimeError) as info:
        simulate.simulate_records(game, 2, 2, 0, ["random", "random"], cluster="tcp://sched:8786", ref=ref)
    assert info.value is boom
    assert simulate.worker_failure("x", ImportError("cannot import name 'y'")).__class__ is UsageError


def test_a_pool_whose_work_raised_is_terminated():
    with pytest.raises(KeyError):
        with forked_pool(1) as pool:
            assert pool.apply(abs, (-3,)) == 3
            raise KeyError("stop")
    with pytest.raises(ValueError, match="Pool not running"):
        pool.apply(abs, (-3,))
    assert all(not worker.is_alive() for worker in pool._pool), "no worker left behind"


def test_a_worker_loads_the_game_once_with_the_settings_of_its_ref(monkeypatch):
    # A worker that has not seen the game loads it by its ref (target, variant, sorted
    # settings) and applies the settings: Punto's win_length is 5 at 2 players, set to 4 here.
    monkeypatch.setattr(simulate, "_LOADED", {})
    ref = ("punto", None, (("win_length", 4),))
    game = simulate._load(ref)
    assert game.new_state(2, seed=1).vars["win_length"] == 4
    assert simulate._load(ref) is game, "loaded once per process"
    batch = simulate._play_batch_args((ref, 2, 7, [1], ["random", "random"], False))
    assert [r["index"] for r in batch] == [1]
    assert batch == simulate.simulate_records(game, 2, 2, 7, ["random", "random"])[1:]


def test_a_pool_whose_work_ended_lets_its_workers_finish_what_they_hold():
    # Closed, not terminated: a task still running when the block ends is finished, not killed.
    import time

    from boardwright.interpreter.run.processes import _worker_context
    # The fork context is built once a process: built again here, so that this measured test runs
    # its lines whatever test of this worker built it first (unmeasured ones run before it).
    _worker_context.cache_clear()
    with forked_pool(1) as pool:
        pending = pool.apply_async(time.sleep, (0.2,))
    assert pending.ready() and pending.successful()


def test_a_forked_worker_never_returns_into_the_code_that_forked_it(tmp_path, monkeypatch):
    # A wrapped os._exit that raises (as coverage.py's chain of `_exit` patches once did with a
    # RecursionError) must not send a worker back here as a second copy of this test.
    import os
    import posix
    parent = os.getpid()

    def failing_exit(code):
        raise RecursionError("a wrapper of os._exit failed")

    monkeypatch.setattr(os, "_exit", failing_exit)
    try:
        with forked_pool(2) as pool:
            assert pool.map(abs, [-1, -2, -3]) == [1, 2, 3]
    finally:
        if os.getpid() != parent:        # a worker came back into this test: say so, and end it
            (tmp_path / f"worker-{os.getpid()}-came-back").write_text("")
            posix._exit(0)
    assert list(tmp_path.iterdir()) == []
