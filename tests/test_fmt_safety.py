"""`boardwright fmt` never changes what a file means and never loses it: it reads the file as
the parser does (a lone carriage return ends no line, not even a comment), and rewrites it
at once through a temporary file (dsl/formatter.py, cli/authoring_commands.py)."""
from __future__ import annotations

import os
import stat

from boardwright.cli.main import main
from boardwright.dsl.formatter import format_checked, strip_spans
from boardwright.dsl.parser import parse_text

SNEAKY = 'game "G"\nplayers 2..2\nvar n: int = 0\nplay {\n  n += 1  # harmless\r  n += 100\n}\nscore p { "n": n }\n'
MESSY = 'game "G"\nplayers 2..2\nvar n: int = 0\nplay {\n n += 1\n}\nscore p { "n": n }\n'


def _tree(text):
    return strip_spans(parse_text(text, "t.game").items)


def test_a_lone_carriage_return_in_a_comment_stays_in_the_comment(tmp_path, capsys):
    path = tmp_path / "g.game"
    path.write_bytes(SNEAKY.encode("utf-8"))
    assert main(["fmt", str(path)]) == 0
    after = path.read_bytes().decode("utf-8")
    assert _tree(after) == _tree(SNEAKY)
    assert "n += 100" not in after.split("play {")[1].split("#")[0]
    assert format_checked(SNEAKY) == after


def test_a_lone_carriage_return_in_code_is_a_space():
    text = 'game "G"\rplayers 2..2\nvar n: int = 0\nplay {\n}\n'
    assert _tree(format_checked(text)) == _tree(text)


def test_fmt_of_a_read_only_file_is_a_clear_error_and_leaves_it(tmp_path, capsys, monkeypatch):
    path = tmp_path / "g.game"
    path.write_text(MESSY)
    path.chmod(0o444)
    if os.access(path, os.W_OK):        # root may write any file: be a user who may not
        real = os.access
        monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if mode == os.W_OK else real(p, mode, **kw))
    assert main(["fmt", str(path)]) == 2
    assert f"cannot write {path}: it is read-only" in capsys.readouterr().err
    assert path.read_text() == MESSY


def test_a_write_error_leaves_the_rule_file_whole(tmp_path, capsys, monkeypatch):
    path = tmp_path / "g.game"
    path.write_text(MESSY)

    def disk_full(fd):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "fsync", disk_full)
    assert main(["fmt", str(path)]) == 2
    assert "No space left on device; it is left unchanged" in capsys.readouterr().err
    assert path.read_text() == MESSY
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.game"]


def test_fmt_keeps_the_file_mode(tmp_path, capsys):
    path = tmp_path / "g.game"
    path.write_text(MESSY)
    path.chmod(0o640)
    assert main(["fmt", str(path)]) == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o640 and path.read_text() != MESSY


def test_fmt_of_a_file_that_is_not_utf8_is_a_positioned_error(tmp_path, capsys):
    path = tmp_path / "g.game"
    path.write_bytes(b'game "G\xff"\nplayers 2..2\nplay {\n}\n')
    assert main(["fmt", "--check", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:1:8: error" in err and "internal error" not in err
