"""`play --log`: a person's move is on disk as soon as it is made; bots' moves are written in
batches (each time the log has grown by a tenth), so a long bot stretch does not rewrite the
whole file after every move (cli/play.py `Session.play`, docs/security.md "Nothing is lost")."""
from __future__ import annotations

import io
import json
import sys

from boardwright.cli import saves
from boardwright.cli.main import main
from boardwright.interpreter.compile.load import load_game

# Seat 0 (a person) moves once, then seat 1 (a bot) a hundred times; three rounds.
MOSTLY_BOTS = """\
game "Mostly bots"
players 2
var n: int = 0
play {
  for r in range(3) {
    turn 0 { choose x from [1, 2] prompt "You" n += x }
    for i in range(100) { turn 1 { choose y from [1, 2] prompt "Bot" n += y } }
  }
}
score p { "n": n }
"""


def test_a_persons_move_is_on_disk_at_once_and_bot_moves_are_batched(tmp_path, capsys, monkeypatch):
    game = tmp_path / "mostly-bots.game"
    game.write_text(MOSTLY_BOTS)
    log = tmp_path / "game.log.json"
    on_disk: list[int] = []             # the moves the file and its journal hold after each write
    write = saves.JournaledFile.write

    def recorded(writer, data):
        write(writer, data)
        on_disk.append(len(saves.read_saved(str(log), saves.LOG_FORMAT, load_game)[1]["moves"]))
    monkeypatch.setattr(saves.JournaledFile, "write", recorded)
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n1\n1\n"))
    assert main(["play", str(game), "--seats", "human,random", "--log", str(log)]) == 0
    capsys.readouterr()
    moves = json.loads(log.read_text())["moves"]    # at the end: one whole file, no journal
    assert not saves.journal_path(log).exists() and "journal" not in json.loads(log.read_text())
    assert len(moves) == 303
    # The person's moves are moves 1, 102 and 203: each is written before any bot moves after it.
    assert [m["seat"] for m in moves].count("human") == 3
    assert {1, 102, 203} <= set(on_disk), on_disk
    # Between the person's first and second moves, 100 bot moves: written while the log is
    # short (each of moves 2 to 10), then when it has grown by more than a tenth: by hand,
    # 12, 14, 16, 18, 20, 23, 26, 29, 32, 36, 40, 45, 50, 56, 62, 69, 76, 84, 93 and then 101
    # before the person is asked.
    stretch = [count for count in on_disk if 1 < count <= 101]
    assert stretch == [*range(2, 11), 12, 14, 16, 18, 20, 23, 26, 29, 32, 36, 40, 45, 50, 56, 62, 69, 76, 84, 93, 101]


KILLED_WHILE_WRITING = """
import os, signal, sys
from boardwright.cli import saves
saves.write_atomically(sys.argv[1], "old")
real_fsync = os.fsync
os.fsync = lambda fd: (os.kill(os.getpid(), signal.SIGTERM), real_fsync(fd))
saves.write_atomically(sys.argv[1], "new")
print("after the write")
"""


def test_a_termination_during_a_write_leaves_no_temporary_file(tmp_path):
    import os
    import subprocess
    log = tmp_path / "game.log.json"
    done = subprocess.run([sys.executable, "-c", KILLED_WHILE_WRITING, str(log)], capture_output=True, text=True,
                          env=dict(os.environ), timeout=60)
    # SIGTERM (the default action) ends the process once the write is complete, not during it
    assert done.returncode == -15 and "after the write" not in done.stdout
    assert [p.name for p in tmp_path.iterdir()] == ["game.log.json"] and log.read_text() == "new"
