"""`extends "NAME"` with a bundled game's name means the bundled game, never a file or folder of
that name in the current folder (dsl/loader.py `variant_base`); a file of the game's own
folder is named with `.game` or `./`."""
from __future__ import annotations

from boardwright.cli.main import main

FAKE = 'game "Fake Punto"\nplayers 2..2\nparam rounds_to_win = 1\nvar n: int = 0\nplay {\n}\nscore p { "n": n }\n'


def test_a_folder_named_like_a_bundled_game_in_the_current_folder_is_not_the_base(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "punto").mkdir()
    (tmp_path / "punto" / "punto.game").write_text(FAKE)
    (tmp_path / "v.game").write_text('variant "V" extends "punto"\nparam rounds_to_win = 3\n')
    assert main(["validate", "v.game"]) == 0
    assert "ok: v.game: Punto (V)" in capsys.readouterr().out


def test_a_file_named_like_a_bundled_game_in_the_current_folder_is_not_the_base(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "punto").write_text(FAKE)
    (tmp_path / "v.game").write_text('variant "V" extends "punto"\nparam rounds_to_win = 3\n')
    code = main(["info", "v.game"])
    out = capsys.readouterr().out
    assert code == 0 and "Punto" in out and "Fake" not in out


def test_a_local_base_is_named_with_its_suffix(tmp_path, capsys, monkeypatch):
    (tmp_path / "punto.game").write_text(FAKE)
    (tmp_path / "v.game").write_text('variant "V" extends "punto.game"\nparam rounds_to_win = 3\n')
    assert main(["validate", str(tmp_path / "v.game")]) == 0
    assert "Fake Punto (V)" in capsys.readouterr().out
