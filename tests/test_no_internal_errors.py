"""Bad inputs that used to end in "internal error" (exit 3) get a clear message and exit 1 or 2:
names the system refuses, `new` where it cannot create, out-of-range counts, an empty --log,
and compare of games that make no decision."""
from __future__ import annotations

import pytest

from boardwright.cli.main import main


def _run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "internal error" not in out + err
    return code, out + err


@pytest.mark.parametrize("command", ["validate", "info", "explain", "compile"])
def test_a_target_name_too_long_for_the_system(capsys, command):
    code, output = _run(capsys, command, "a" * 5000)
    assert code == 2 and "no game 'aaaa" in output and len(output) < 1000


def test_a_variant_name_too_long_for_the_system(capsys):
    code, output = _run(capsys, "simulate", "punto", "--players", "2", "--variant", "b" * 300)
    assert code == 2 and "no variant 'bbbb" in output


def test_new_with_a_name_too_long(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, output = _run(capsys, "new", "b" * 300)
    assert code == 2 and "at most 100 characters" in output


def test_new_over_a_dangling_symlink(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "dang").symlink_to(tmp_path / "nowhere")
    code, output = _run(capsys, "new", "dang")
    assert code == 2 and "dang already exists" in output
    assert not (tmp_path / "nowhere").exists()


def test_new_where_nothing_can_be_made(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    from pathlib import Path

    def read_only(self, *args, **kwargs):
        raise PermissionError(13, "Permission denied", str(self))
    monkeypatch.setattr(Path, "mkdir", read_only)
    code, output = _run(capsys, "new", "mine")
    assert code == 2 and "cannot create mine: Permission denied" in output


@pytest.mark.parametrize("value", ["2147483648", "9" * 5000])
def test_a_count_too_large(capsys, value):
    from boardwright.cli.main import build_parser
    with pytest.raises(SystemExit) as exit_:       # refused while parsing: no game is played
        build_parser().parse_args(["simulate", "punto", "--players", "2", "--games", value])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "argument --games: expected" in err and len(err) < 2000


def test_an_empty_log_name(capsys):
    code, output = _run(capsys, "play", "punto", "--players", "2", "--seats", "random,random", "--log", "")
    assert code == 2 and "--log needs a file name" in output


def test_compare_of_games_that_make_no_decision(tmp_path, capsys):
    (tmp_path / "z.game").write_text('game "Z"\nplayers 2..2\nvar n: int = 0\nplay {\n}\nscore p { "n": n }\n')
    (tmp_path / "z2.game").write_text('variant "Z2" extends "z.game"\nparam q = 1\n')
    code, output = _run(capsys, "compare", tmp_path / "z.game", "--variant", "base", "--variant", "z2",
                        "--players", "2", "--games", "3", "--quiet")
    assert code == 0 and "options per decision" in output


def test_an_os_error_from_a_command_is_a_usage_error(capsys, monkeypatch):
    from boardwright.cli import main as cli_main

    def refused(args):
        raise OSError(36, "File name too long", "x" * 5000)
    monkeypatch.setitem(cli_main.COMMANDS, "validate", refused)
    code, output = _run(capsys, "validate", "punto")
    assert code == 2 and "boardwright: error: xxxx" in output and "File name too long" in output
    assert len(output) < 500


@pytest.mark.parametrize("title", ['A\x00B', 'A\\x00B', 'A\\ud800B', 'A\\N{BLACK STAR}', 'A\\qB'])
@pytest.mark.parametrize("command", [["validate"], ["simulate", "--players", "2", "--games", "2"],
                                     ["play", "--players", "2", "--seats", "random,random"]])
def test_a_title_with_a_nul_or_an_escape_the_language_lacks(tmp_path, capsys, title, command):
    # Only the language's escapes (\" \\ \n \t) are read: not Python's \x00, \ud800 or \N{...}.
    game = tmp_path / "t.game"
    game.write_text(f'game "{title}"\nplayers 2..2\nvar n: int = 0\nplay {{\n}}\nscore p {{ "n": n }}\n')
    code, output = _run(capsys, command[0], game, *command[1:])
    assert code == 1 and "t.game:1:6: error: invalid escape in string" in output
