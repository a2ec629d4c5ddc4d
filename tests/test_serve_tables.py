"""The web table with several tables and long games (cli/web/table.py): a bot thinking at one
table holds up no other table (each table has its own lock, the bot thinks in a thread, off
its table's lock), the engine's work counter is one per thread, and a long game keeps about
the square root of its length in states, not a state per move. Ordering is asserted with
events (what had happened when an answer came), never with timings."""
from __future__ import annotations

import gc
import math
import random
import threading

from web_support import new_table, request, secret_game, serving

from boardwright.cli.play import replay_states
from boardwright.cli.web import table as web_table
from boardwright.interpreter.compile.load import load_game
from boardwright.interpreter.run import limits
from boardwright.interpreter.run.state import State

HELD_AT_MOST = 20           # seconds a blocked bot waits before it gives up (only a broken lock reaches it)


def blocking_bot(table, seat: int):
    """Make the bot of `seat` think until released: (thinking, release, done) events."""
    thinking, release, done = threading.Event(), threading.Event(), threading.Event()
    bot = table.bots[seat]
    original = bot.choose

    def choose(game, st):
        thinking.set()
        release.wait(HELD_AT_MOST)
        try:
            return original(game, st)
        finally:
            done.set()
    bot.choose = choose
    return thinking, release, done


def test_a_bot_thinking_at_one_table_holds_up_no_other_table(tmp_path):
    busy = new_table(tmp_path / "busy", "punto", ["random", "human"], seed=2)
    other = new_table(tmp_path / "other", str(secret_game(tmp_path)), ["human", "human"])
    thinking, release, done = blocking_bot(busy, 0)
    answered = []
    try:
        with serving(busy, other) as server:
            assert thinking.wait(HELD_AT_MOST), "the busy table's bot never started"
            api = f"{server.url}/api/{other.tokens['table']}"
            # While the bot thinks: the other table's view, a move, its view again, a hint.
            answered.append(request(f"{api}/view")[0])
            answered.append(request(f"{api}/choose", {"move": 0, "option": 0})[0])
            answered.append(request(f"{api}/view")[1]["move"])
            answered.append(request(f"{api}/hint", {"move": 1})[0])
            # ... and the busy table's own page, which shows its bot thinking.
            mine = request(f"{server.url}/api/{busy.tokens['table']}/view")[1]
            answered.append((mine["move"], mine["thinking"]))
            still_thinking = not done.is_set()
            release.set()
            view, version = None, None
            for _ in range(100):            # long polls: until the bot's move reaches the page
                view = request(f"{server.url}/api/{busy.tokens['table']}/view"
                               + ("" if version is None else f"?after={version}"))[1]
                version = view["version"]
                if view["move"] == 1:
                    break
    finally:
        release.set()
    assert still_thinking, "the other table was answered only after the bot had finished"
    assert answered == [200, 200, 1, 200, (0, True)]
    assert view["move"] == 1 and busy.moves[0]["seat"] == "random"


def test_an_undo_while_the_bot_thinks_drops_its_answer(tmp_path):
    """The bot thinks on a copy: a table that changed meanwhile (here an undo of the human
    move it answers) does not take its choice, and the bot thinks again."""
    table = new_table(tmp_path, "punto", ["human", "random"], seed=4)
    thinking, release, done = blocking_bot(table, 1)
    try:
        with serving(table) as server:
            api = f"{server.url}/api/{table.tokens['table']}"
            assert request(f"{api}/choose", {"move": 0, "option": "0,0"})[0] == 200
            assert thinking.wait(HELD_AT_MOST)
            assert request(f"{api}/undo", {"move": 1})[0] == 200
            release.set()
            assert done.wait(HELD_AT_MOST)
            assert request(f"{api}/view")[1]["move"] == 0
    finally:
        release.set()
    assert table.moves == [] and len(table.states) == 1 and table.st.pending.player == 0


def test_the_work_counter_is_one_per_thread():
    """One game's engine resetting its budget (a new run) leaves another thread's count alone."""
    counted, other_reset, seen = threading.Event(), threading.Event(), []

    def busy():
        limits.reset_work()
        limits.charge(1000)
        counted.set()
        other_reset.wait(30)
        seen.append(limits.WORK.n)

    thread = threading.Thread(target=busy)
    thread.start()
    assert counted.wait(30)
    limits.reset_work()
    limits.charge(7)
    other_reset.set()
    thread.join(30)
    assert seen == [1000] and limits.WORK.n == 7
    limits.reset_work()


LONG_GAME = """\
game "Counting"
players 2
var total: int per player = 0 "Total"
play {
  for round in range(%d) {
    for p in players {
      turn p {
        choose n from [1, 2, 3] prompt "Add"
        total[p] += n
      }
    }
  }
}
score p { "Total": total[p] }
"""


def states_alive() -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if type(o) is State)


def test_a_long_bot_game_keeps_about_the_square_root_of_its_length_in_states(tmp_path, monkeypatch):
    rounds = 200                                    # 400 moves
    path = tmp_path / "count.game"
    path.write_text(LONG_GAME % rounds)
    table = new_table(tmp_path, str(path), ["random", "random"])
    # (the save on every move is not what this measures: written to memory, not the disk)
    monkeypatch.setattr(web_table.Journal, "snapshot", lambda journal, text, key: None)
    monkeypatch.setattr(web_table.Journal, "append", lambda journal, entry: None)
    before = states_alive()
    while table.bot_move():
        pass
    moves = 2 * rounds
    assert table.st.finished and len(table.moves) == moves == len(table.states) - 1
    # A copy every 32 moves (the spacing of a game this short), and the game's own state.
    kept = states_alive() - before
    assert kept <= moves // 32 + 1, f"{kept} more states kept after {moves} moves"
    # Each past state is still there, as the moves made it (the totals added up by hand).
    for step in (0, 1, 37, 64, 300, moves - 1, moves):
        assert_totals(table.states[step], table.moves[:step])
    # An undo back to move 250: the sequence shrinks to it, and grows again from there.
    table.st = table.states.back_to(250)
    assert len(table.states) == 251 and len(table.moves) == 250 and table.states[250] is table.st
    assert_totals(table.st, table.moves)
    while table.bot_move():
        pass
    assert len(table.states) == moves + 1 and table.st.finished
    assert_totals(table.states[260], table.moves[:260])


def assert_totals(st, moves) -> None:
    expected = [0, 0]
    for m in moves:
        expected[m["player"]] += int(m["id"])
    assert len(st.history) == len(moves) and st.vars["total"][:2] == expected, len(moves)


def test_the_copies_kept_grow_as_the_square_root_of_a_growing_game(tmp_path):
    """The spacing between kept copies doubles whenever more than twice as many copies as the
    spacing are kept, so a game of n moves keeps at most about 2 * sqrt(2n) (here with a
    spacing that starts at 2, so that a short game shows it)."""
    path = tmp_path / "count.game"
    path.write_text(LONG_GAME % 300)
    game = load_game(path)
    st = game.new_state(2, 1)
    moves: list = []
    states = replay_states(game, {"players": 2, "seed": 1, "moves": moves})
    states.spacing = 2
    rng = random.Random(1)
    while not st.finished:
        decision = game.decision(st)
        index = rng.randrange(len(decision.options))
        moves.append({"id": decision.options[index].id, "player": decision.player})
        game.apply_index(st, index)
        states.grown(st)
        n = len(moves)
        assert len(states.checkpoints) <= 2 * math.isqrt(2 * n) + 2, n
        assert len(states.checkpoints) == n // states.spacing + 1, n
    assert states.spacing > 2 and len(moves) == 600
    for step in (0, 3, 255, 256, 257, 599, 600):
        assert_totals(states[step], moves[:step])
    assert_totals(states.back_to(301), moves)
    assert len(moves) == 301 and len(states.checkpoints) == 301 // states.spacing + 1


def test_a_human_move_made_while_the_bots_task_is_ending_still_wakes_the_bot(tmp_path, monkeypatch):
    """The server's bot task ends when bot_move finds no bot to move; a human move that lands
    between that answer and the task's end must still get the bot its turn (under load, the
    bot stalled and the page waited forever)."""
    import time
    path = tmp_path / "count.game"
    path.write_text(LONG_GAME % 3)
    table = new_table(tmp_path, str(path), ["random", "human"])
    real = table.bot_move

    def bot_move_then_the_human_moves():
        moved = real()
        if not moved and len(table.moves) == 1:
            table.choose(table.tokens["table"], 1, 0)    # the human's move, before the task ends
        return moved
    monkeypatch.setattr(table, "bot_move", bot_move_then_the_human_moves)
    with serving(table):
        deadline = time.monotonic() + 30
        while len(table.moves) < 3 and time.monotonic() < deadline:
            time.sleep(0.02)
    assert [m["seat"] for m in table.moves[:3]] == ["random", "human", "random"]
