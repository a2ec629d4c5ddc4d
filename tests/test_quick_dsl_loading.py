"""Loading rule files: a variant of a bundled game named by its name (docs/language.md,
"variant ... extends": `extends "punto"`), `--variant base`, enums declared twice or sharing a
member (docs/language.md, "enum": "each member belongs to one enum"), and data paths that
cannot be opened (docs/language.md: no path that leads out of the game's folder)."""
from __future__ import annotations

import os

import pytest

from boardwright.dsl.errors import RuleFileError
from boardwright.interpreter.compile.load import load_game

from conftest import cached_game, small_body_file


def messages(path) -> list:
    with pytest.raises(RuleFileError) as info:
        load_game(path)
    return [d.message for d in info.value.diagnostics]


VARIANT = 'variant "Short" extends "punto"\nparam win_length = 3\n'


def test_a_variant_extends_a_bundled_game_by_its_name(tmp_path):
    path = tmp_path / "short.game"
    path.write_text(VARIANT)
    game = load_game(path)
    st = game.new_state(2, seed=1)
    assert game.title == "Punto" and game.variant == "Short"
    assert st.vars["win_length"] == 3                       # Punto's own is 5 at 2 players
    assert cached_game("punto").new_state(2, seed=1).vars["win_length"] == 5


def test_variant_base_is_the_base_game_itself():
    game = load_game("punto", "base")
    assert game.variant is None and game.title == "Punto"


def test_an_enum_declared_again_with_other_members_is_an_error(tmp_path):
    # conftest's SMALL_DATA declares enum Suit [hearts, spades]
    path = small_body_file(tmp_path, "enum Suit { hearts, clubs }\nplay { }\n")
    assert "enum 'Suit' is declared with other members elsewhere" in messages(path)


def test_an_enum_member_belongs_to_one_enum(tmp_path):
    path = small_body_file(tmp_path, "enum Colour { red, hearts }\nplay { }\n")
    assert "'hearts' is already a member of enum 'Suit'" in messages(path)


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
def test_a_data_path_through_a_symlink_loop_cannot_be_opened(tmp_path):
    os.symlink(tmp_path / "loop", tmp_path / "loop")
    path = tmp_path / "g.game"
    path.write_text('game "Tiny"\nplayers 2\ndata "loop/cards.yaml"\nplay { }\n')
    [message] = messages(path)
    assert message.startswith("data file 'loop/cards.yaml' cannot be opened: ")
