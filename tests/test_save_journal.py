"""The web table's save on every move as a snapshot and an append-only journal (cli/saves.py
`Journal`): a move appends one line, the snapshot is rewritten only when the journal has
grown by half its moves, and whatever a kill leaves on the disk loads: a last line cut short
is dropped (with a note), a journal older than its snapshot is ignored, a damaged line
before the last is a clear error. Old saves (no journal) load as before."""
from __future__ import annotations

import json

import pytest

from boardwright.cli.saves import SAVE_FORMAT, DamagedFile, Journal, journal_path, read_saved
from boardwright.cli.web import table as web_table
from boardwright.cli.web.table import SAVE_NAME, open_table
from boardwright.interpreter.compile.load import load_game

from test_serve_tables import LONG_GAME


def counting_table(tmp_path, rounds: int, seats=("random", "random")):
    path = tmp_path / "count.game"
    path.write_text(LONG_GAME % rounds)
    table, _ = open_table(str(path), None, 2, list(seats), 1, tmp_path / "saves", load_game)
    return table, str(path)


def totals(moves: list) -> list:
    """Each player's total, added up from the moves (the game adds the number chosen)."""
    out = [0, 0]
    for move in moves:
        out[move["player"]] += int(move["id"])
    return out


def play(table, moves: int) -> None:
    for _ in range(moves):
        assert table.bot_move()


def test_a_resumed_table_has_every_move_and_plays_on_as_if_never_stopped(tmp_path):
    table, game = counting_table(tmp_path, 60)
    play(table, 100)
    snapshot = json.loads((tmp_path / "saves" / SAVE_NAME).read_text())
    assert len(snapshot["moves"]) == 64, "the snapshot was rewritten once, after 64 journal lines"
    assert len(journal_path(tmp_path / "saves" / SAVE_NAME).read_text().splitlines()) == 1 + 36
    resumed, was_saved = open_table(game, None, None, None, 1, tmp_path / "saves", load_game)
    assert was_saved and resumed.moves == table.moves
    assert resumed.st.vars["total"] == totals(table.moves)
    play(table, 20)
    play(resumed, 20)
    assert resumed.moves == table.moves, "the bots' random states came back from the journal"


def test_the_snapshot_is_rewritten_less_often_as_the_game_grows(tmp_path, monkeypatch):
    written = []
    monkeypatch.setattr(Journal, "snapshot", lambda journal, text, key: written.append(len(json.loads(text)["moves"])))
    monkeypatch.setattr(Journal, "append", lambda journal, entry: None)
    table, _ = counting_table(tmp_path, 300)
    play(table, 600)
    # By hand: at 0 moves, then every 64 moves until the snapshot holds 128, then when the
    # journal holds half the snapshot's moves: 192 (+64), 288 (+96), 432 (+144).
    assert written == [0, 64, 128, 192, 288, 432]


def test_an_undo_is_a_journal_line_and_survives_a_restart(tmp_path):
    table, game = counting_table(tmp_path, 40, seats=("human", "random"))
    for option in ("1", "3", "2"):
        table.choose(table.tokens["table"], len(table.moves), option)
        play(table, 1)
    table.undo(table.tokens["table"], len(table.moves))
    assert [m["id"] for m in table.moves if m["seat"] == "human"] == ["1", "3"]
    resumed, _ = open_table(game, None, None, None, 1, tmp_path / "saves", load_game)
    assert resumed.moves == table.moves and resumed.st.vars["total"] == totals(table.moves)


def cut_last_line(path, keep: int, then: bytes = b"") -> None:
    data = path.read_bytes()
    last = data.rstrip(b"\n").rfind(b"\n") + 1
    path.write_bytes(data[:last + keep] + then)


@pytest.mark.parametrize("keep,then", [(9, b""), (0, b"\0\0\0\n")])
def test_a_last_line_cut_short_by_a_kill_is_dropped_with_a_note(tmp_path, keep, then):
    table, game = counting_table(tmp_path, 20)
    play(table, 10)
    journal = journal_path(tmp_path / "saves" / SAVE_NAME)
    cut_last_line(journal, keep, then)          # the last move's line, written in part (or as zeros)
    notes: list = []
    resumed, _ = open_table(game, None, None, None, 1, tmp_path / "saves", load_game, notes=notes)
    assert resumed.moves == table.moves[:9]
    assert len(notes) == 1 and "cut short" in notes[0] and str(journal) in notes[0]
    play(resumed, 1)                            # and the table plays on, appending after it
    again, _ = open_table(game, None, None, None, 1, tmp_path / "saves", load_game)
    assert len(again.moves) == 10


def test_a_damaged_line_before_the_last_is_an_error_naming_the_journal_and_line(tmp_path):
    table, _ = counting_table(tmp_path, 20)
    play(table, 6)
    journal = journal_path(tmp_path / "saves" / SAVE_NAME)
    lines = journal.read_text().splitlines()
    lines[3] = lines[3][:-4]
    journal.write_text("\n".join(lines) + "\n")
    with pytest.raises(DamagedFile, match=r"line 4 of its journal .*table\.json\.journal is not JSON"):
        read_saved(str(tmp_path / "saves" / SAVE_NAME), SAVE_FORMAT, load_game)
    lines[3] = json.dumps({"at": 99, "moves": []})
    journal.write_text("\n".join(lines) + "\n")
    with pytest.raises(DamagedFile, match=r"line 4 of its journal .*'at' must be a move count from 0 to 2"):
        read_saved(str(tmp_path / "saves" / SAVE_NAME), SAVE_FORMAT, load_game)
    lines[3] = json.dumps({"at": 2, "moves": [{"player": 0, "id": "7"}]})
    journal.write_text("\n".join(lines) + "\n")
    with pytest.raises(DamagedFile, match=r"in its journal, move 3 \('7'\) is not one of the options"):
        read_saved(str(tmp_path / "saves" / SAVE_NAME), SAVE_FORMAT, load_game)


def test_a_kill_between_the_snapshot_and_its_new_journal_loses_nothing(tmp_path, monkeypatch):
    table, game = counting_table(tmp_path, 60)
    play(table, 63)
    old_journal = journal_path(tmp_path / "saves" / SAVE_NAME).read_bytes()
    play(table, 1)                              # the 64th line: a new snapshot and a new journal
    snapshot = json.loads((tmp_path / "saves" / SAVE_NAME).read_text())
    assert len(snapshot["moves"]) == 64
    journal_path(tmp_path / "saves" / SAVE_NAME).write_bytes(old_journal)   # as if killed before its write
    resumed, _ = open_table(game, None, None, None, 1, tmp_path / "saves", load_game)
    assert resumed.moves == table.moves, "the old journal is ignored: the snapshot holds every move"


def test_a_save_without_a_journal_loads_as_before(tmp_path):
    table, game = counting_table(tmp_path, 20)
    play(table, 5)
    path = tmp_path / "saves" / SAVE_NAME
    old = {k: v for k, v in json.loads(table.save_text(table.tokens["table"])).items()}
    assert "journal" not in old
    path.write_text(json.dumps(old))            # a save of an older version; its folder's journal is not its
    _game, setup, st, _ = read_saved(str(path), SAVE_FORMAT, load_game)
    assert setup["moves"] == table.moves and st.vars["total"] == totals(table.moves)


def test_the_writes_of_two_changes_are_made_in_the_order_the_changes_were(tmp_path, monkeypatch):
    table, _ = counting_table(tmp_path, 20, seats=("human", "random"))
    seen = []
    append = Journal.append
    monkeypatch.setattr(Journal, "append", lambda journal, entry: (seen.append(entry["at"]), append(journal, entry)))
    table.choose(table.tokens["table"], 0, "2")
    with table._lock:                           # a change queued but not yet written ...
        table._apply(0)
    table.undo(table.tokens["table"], 2)        # ... is written before the next one
    assert seen == [0, 1, 0]
    assert web_table.read_saved(str(tmp_path / "saves" / SAVE_NAME), SAVE_FORMAT, load_game)[1]["moves"] == []


PLAYS_UNTIL_KILLED = """
import sys
from pathlib import Path
from boardwright.cli.web.table import open_table
from boardwright.interpreter.compile.load import load_game
table, _ = open_table(sys.argv[1], None, 2, ["random", "random"], 1, Path(sys.argv[2]), load_game)
print("playing", flush=True)
while table.bot_move():
    pass
"""


@pytest.mark.slow
@pytest.mark.parametrize("after", [0.3, 0.7, 1.1])
def test_a_table_killed_at_any_moment_resumes(tmp_path, after):
    import os
    import signal
    import subprocess
    import sys
    import time
    path = tmp_path / "count.game"
    path.write_text(LONG_GAME % 5000)
    player = subprocess.Popen([sys.executable, "-c", PLAYS_UNTIL_KILLED, str(path), str(tmp_path / "saves")],
                              stdout=subprocess.PIPE, text=True, env=dict(os.environ))
    assert player.stdout.readline() == "playing\n"
    time.sleep(after)
    player.send_signal(signal.SIGKILL)
    player.wait(timeout=60)
    player.stdout.close()
    resumed, was_saved = open_table(str(path), None, None, None, 1, tmp_path / "saves", load_game, notes=[])
    assert was_saved and len(resumed.moves) > 0
    assert resumed.st.vars["total"] == totals(resumed.moves)


@pytest.mark.parametrize("answers,moves", [(["1", "3", "undo"], 2), (["1", "3", "undo", "2"] + ["1"] * 20, 44)])
def test_a_play_log_left_by_a_crash_is_its_file_and_journal_and_replays_every_move(tmp_path, answers, moves):
    from boardwright.cli.play import Session
    from boardwright.cli.saves import LOG_FORMAT
    path = tmp_path / "count.game"
    path.write_text(LONG_GAME % 100)
    game, log = load_game(str(path)), tmp_path / "game.log.json"
    answers = list(answers)             # fewer journal lines than a snapshot waits for

    class Killed(Exception):
        """The process killed: nothing after it runs (Ctrl-C would write the log whole)."""

    def ask(prompt=""):
        if not answers:
            raise Killed
        return answers.pop(0)
    setup = {"game": str(path), "variant": None, "params": {}, "players": 2, "seed": 1,
             "seats": ["human", "random"], "log": str(log)}
    session = Session(game, setup, game.new_state(2, 1), out=lambda text: None, ask=ask)
    with pytest.raises(Killed):
        session.run()
    assert len(json.loads(log.read_text())["moves"]) < len(session.moves) == moves, "the rest is in the journal"
    _game, logged, st, _ = read_saved(str(log), LOG_FORMAT, load_game)
    assert logged["moves"] == session.moves and st.vars["total"] == totals(session.moves)
    assert [m["id"] for m in session.moves if m["seat"] == "human"][:2] == ["1", "2"][:moves // 2], "the undo is in it"
