"""Only regular files are read, and only up to a size (dsl/errors.py `read_regular`): a FIFO or
a link to /dev/zero named `*.game` beside a game (variant discovery reads every `*.game`)
never blocks or exhausts validate, info or fmt --check."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from boardwright.cli.main import main

GAME = 'game "G"\nplayers 2..2\nvar n: int = 0\nplay {\n  n += 1\n}\nscore p { "n": n }\n'


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "g.game").write_text(GAME)
    os.mkfifo(tmp_path / "pipe.game")
    (tmp_path / "zero.game").symlink_to("/dev/zero")
    return tmp_path


@pytest.mark.parametrize("argv, shown", [(["validate", "g.game"], "ok: g.game: G"),
                                         (["info", "g.game"], "variants: none"),
                                         (["fmt", "--check", "."], "ok: 1 file already in the canonical layout"),
                                         (["validate", "g.game", "--variant", "pipe"], "no variant 'pipe'")])
def test_a_fifo_or_a_device_named_like_a_game_is_never_read(folder, argv, shown):
    done = subprocess.run([sys.executable, "-m", "boardwright", *argv], cwd=folder, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode in (0, 2), done.stderr
    assert shown in done.stdout + done.stderr


def test_a_data_file_that_is_a_fifo_is_an_error_not_a_hang(tmp_path):
    (tmp_path / "d.game").write_text('game "D"\nplayers 2..2\ndata "d.yaml"\nplay {\n}\n')
    os.mkfifo(tmp_path / "d.yaml")
    done = subprocess.run([sys.executable, "-m", "boardwright", "validate", "d.game"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "d.game:3:1: error: data file 'd.yaml'" in done.stderr


def test_a_huge_rule_file_is_refused_before_it_is_read_whole(tmp_path, capsys):
    path = tmp_path / "big.game"
    path.write_text(GAME + "#" * (17 * 1024 * 1024))
    assert main(["validate", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"cannot read {path}: larger than 16 MB" in err
