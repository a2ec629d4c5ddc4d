"""`choose ... by each P in SEATS` checks its seats as `by` does (interpreter/run/runtime.py
`_check_sealed_chooser`): a seat not at the table, none or a negative seat is a rule error at
the choose, exit 1, in simulate, play and check alike (never an internal error, never a
silent "last seat")."""
from __future__ import annotations

import io

import pytest

from boardwright.cli.main import main

GAME = 'game "S"\nplayers 2..2\nvar n: int = 0\nplay {{\n  choose b from [1, 2] by each p in {seats}\n' \
       '  n += 1\n}}\nscore p {{ "n": n }}\n'


@pytest.mark.parametrize("seats, shown", [("[7]", "player 8"), ("[none]", "none"), ("[0 - 1]", "seat -1"),
                                          ("[0, 7]", "player 8")])
@pytest.mark.parametrize("command", [["simulate", "--players", "2", "--games", "1"],
                                     ["check", "--players", "2", "--examples", "2"],
                                     ["play", "--players", "2", "--seats", "random,random"]])
def test_a_sealed_choice_for_a_seat_not_at_the_table_is_a_rule_error(tmp_path, capsys, monkeypatch, seats,
                                                                       shown, command):
    game = tmp_path / "s.game"
    game.write_text(GAME.format(seats=seats))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code = main([command[0], str(game), *command[1:]])
    out, err = capsys.readouterr()
    assert code == 1, out + err
    assert "internal error" not in out + err
    assert f"s.game:5:3: error: a choice for a player who is not at the table ({shown} in a 2-player game)" \
        in out + err


def test_a_seat_named_twice_chooses_once(tmp_path, capsys):
    game = tmp_path / "s.game"
    game.write_text(GAME.format(seats="[0, 0, 1]"))
    assert main(["simulate", str(game), "--players", "2", "--games", "1"]) == 0
