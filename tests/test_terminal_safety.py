"""Texts from user files never reach the terminal raw (cli/terminal.py, docs/security.md): a
title, a `log` text, a prompt, a label, a score line or a rule line quoted in an error that
holds `\\x1b]0;...\\x07`, `\\x1b[2J` or `\\x1b[31m` is shown with visible escapes in every
command's output."""
from __future__ import annotations

import io
import sys

import pytest

from boardwright.cli.main import main
from boardwright.cli.terminal import SafeStream, safe_text

EVIL = ('game "Evil\x1b]0;pwn\x07\x1b[2J"\nplayers 2..2\nvar n: int = 0\nplay {\n'
        '  log "say \x1b[31mred"\n'
        '  choose x from [1, 2] by 0 prompt "pick \x1b[31m\x08" label "L\x9b2J{x}"\n'
        '  n += x\n}\nscore p { "n\x1b[2J": n }\n')


def _raw_controls(text: str) -> list:
    return sorted({c for c in text if (ord(c) < 32 and c not in "\n\t") or 0x7F <= ord(c) < 0xA0})


@pytest.fixture
def evil(tmp_path):
    path = tmp_path / "evil.game"
    path.write_text(EVIL, encoding="utf-8")
    return path


def _run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out + err


@pytest.mark.parametrize("command", [
    ["validate"], ["info"], ["explain"], ["simulate", "--players", "2", "--games", "2"],
    ["check", "--players", "2", "--examples", "3"],
])
def test_no_command_writes_a_control_character_from_a_rule_file(capsys, evil, command):
    code, output = _run(capsys, command[0], evil, *command[1:])
    assert code in (0, 1), output
    assert "Evil\\x1b]0;pwn\\x07\\x1b[2J" in output
    assert _raw_controls(output) == []


def test_play_and_replay_show_titles_logs_prompts_and_labels_escaped(capsys, evil, tmp_path, monkeypatch):
    log = tmp_path / "game.log.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))
    code, output = _run(capsys, "play", evil, "--players", "2", "--seats", "human,random", "--log", log)
    assert code == 0, output
    for shown in ("say \\x1b[31mred", "pick \\x1b[31m\\x08", "L\\x9b2J1", "n\\x1b[2J"):
        assert shown in output
    assert _raw_controls(output) == []
    monkeypatch.setattr("sys.stdin", io.StringIO("n\nq\n"))
    code, output = _run(capsys, "replay", log)
    assert code == 0, output
    assert "say \\x1b[31mred" in output and _raw_controls(output) == []


def test_an_error_quoting_a_rule_line_shows_its_controls_escaped(capsys, tmp_path):
    bad = tmp_path / "bad.game"
    bad.write_text('game "G"\nplayers 2..2\nplay {\n  log "\x1b]0;pwn\x07 {nope}"\n}\n', encoding="utf-8")
    code, output = _run(capsys, "validate", bad)
    assert code == 1 and "unknown name 'nope'" in output
    assert "\\x1b]0;pwn\\x07" in output and _raw_controls(output) == []


def test_colours_are_ours_alone(monkeypatch):
    # play paints colour words itself: the user's escapes are shown, our colour codes are not.
    from boardwright.cli import play
    buffer = io.StringIO()
    monkeypatch.setattr(sys, "stdout", SafeStream(buffer))
    play._coloured_print("red 5 \x1b[2J")
    assert buffer.getvalue() == "\x1b[1;31mred 5\x1b[0m \\x1b[2J\n"


def test_safe_text_keeps_newlines_tabs_and_letters():
    assert safe_text("a\tb\nc é ☃ \u202e\x00\x7f") == "a\tb\nc é ☃ \\u202e\\x00\\x7f"
