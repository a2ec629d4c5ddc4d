"""A proc named like a block (`setup`, `play`) would share the block's compiled body and run as
it: the checker refuses it at the proc, in validate and play alike (dsl/checker.py)."""
from __future__ import annotations

import pytest

from boardwright.cli.main import main

GAME = ('game "S"\nplayers 2..2\nvar n: int = 0\nproc {name}() {{\n  n += 5\n}}\n'
        'play {{\n  n += 1\n}}\nscore p {{ "n": n }}\n')


@pytest.mark.parametrize("name", ["setup", "play"])
@pytest.mark.parametrize("command", [["validate"], ["play", "--players", "2", "--seats", "random,random"]])
def test_a_proc_named_like_a_block_is_refused_at_the_proc(tmp_path, capsys, name, command):
    game = tmp_path / "p.game"
    game.write_text(GAME.format(name=name))
    code = main([command[0], str(game), *command[1:]])
    out, err = capsys.readouterr()
    assert code == 1, out + err
    assert (f"p.game:4:1: error: '{name}' is the name of the {name} block and cannot be redeclared as a proc "
            "[E206]") in err


def test_a_variant_cannot_turn_a_proc_into_the_setup(tmp_path, capsys):
    (tmp_path / "base.game").write_text(GAME.format(name="bonus"))
    variant = tmp_path / "v.game"
    variant.write_text('variant "V" extends "base.game"\nproc setup() {\n  n += 5\n}\n')
    assert main(["validate", str(variant)]) == 1
    assert "v.game:2:1: error: 'setup' is the name of the setup block" in capsys.readouterr().err
