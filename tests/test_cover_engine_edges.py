"""The engine's edges: option ids by type (docs/language.md, `choose`), moves it refuses,
what each seat observes of hidden grids and `top` zones, a finished game, sealed choices
shown to their own seat.
"""
from __future__ import annotations

import pytest

from boardwright.dsl.errors import IllegalMove, RuleError
from boardwright.interpreter.compile.load import load_game
from conftest import small_body_file

def build(tmp_path, body: str):
    return load_game(small_body_file(tmp_path, body))


def first_decision(tmp_path, options: str, var_type: str):
    game = build(tmp_path, f"""\
        var picked: {var_type} = none
        play {{ turn 0 {{ choose x from {options} prompt "Pick" \n picked = x }} }}
        """)
    st = game.new_state(2, seed=1)
    return game, st


# ----------------------------------------------------------------------------- option ids
@pytest.mark.parametrize("options, var_type, ids", [
    ("[[1, 2], [3]]", "list of int", ["1", "2"]),          # lists have no readable id: numbered
    ("[(0, 1), none]", "cell", ["0,1", "none"]),
    ("players", "player", ["p1", "p2"]),
    ("[true, false]", "bool", ["yes", "no"]),
    ('["north", "south"]', "str", ["north", "south"]),
])
def test_option_ids_by_type(tmp_path, options, var_type, ids):
    game, st = first_decision(tmp_path, options, var_type)
    assert game.option_ids(st) == ids
    game.apply(st, ids[1])
    assert st.finished


def test_a_list_option_is_chosen_by_its_number(tmp_path):
    game, st = first_decision(tmp_path, "[[1, 2], [3]]", "list of int")
    game.apply(st, "2")
    assert st.vars["picked"] == [3]


def test_an_option_is_found_by_its_label_in_any_case(tmp_path):
    game = build(tmp_path, """\
        zone hand: pile
        var picked: Card = none
        setup { move components(Card) to hand }
        play { turn 0 { choose c from contents(hand) prompt "Pick" \n picked = c } }
        """)
    st = game.new_state(2, seed=1)
    game.apply(st, "SPADES 2")
    assert game.labels[st.vars["picked"]] == "spades 2"


def test_an_illegal_option_lists_at_most_twelve_options(tmp_path):
    game, st = first_decision(tmp_path, "range(20)", "int")
    with pytest.raises(IllegalMove) as info:
        game.apply(st, "25")
    message = str(info.value)
    assert message.startswith("'25' is not a legal option for \"Pick\"; options: 0 (0), 1 (1),")
    assert "11 (11) ..." in message and "12 (12)" not in message


def test_a_finished_game_has_no_decision_to_make(tmp_path):
    game, st = first_decision(tmp_path, "[1, 2]", "int")
    game.apply(st, "1")
    assert st.finished
    with pytest.raises(IllegalMove, match="the game is over: there is no decision to make"):
        game.apply(st, "1")


# ----------------------------------------------------------------------------- moves refused
def rule_error(tmp_path, body: str) -> str:
    game = build(tmp_path, body)
    with pytest.raises(RuleError) as info:
        game.new_state(2, seed=1)
    return info.value.diagnostics[0].message


def test_moving_nothing_is_refused(tmp_path):
    message = rule_error(tmp_path, """\
        zone board: grid
        zone bag: pile
        play { move top_at(board, (0, 0)) to bag }
        """)
    assert message == "cannot move none: not a component"


def test_a_move_to_a_grid_at_no_cell_is_refused(tmp_path):
    message = rule_error(tmp_path, """\
        zone board: grid
        var spot: cell = none
        play { move components(Card)[0] to board at spot }
        """)
    assert message == "a move to the grid 'board' needs a cell"


def test_a_move_outside_a_sized_grid_is_refused(tmp_path):
    message = rule_error(tmp_path, """\
        zone board: grid size 2 x 2
        play { move components(Card)[0] to board at (2, 0) }
        """)
    assert message == "cell (2, 0) is outside the grid 'board'"


# ----------------------------------------------------------------------------- what a seat sees
def test_hidden_grids_show_their_size_and_top_zones_their_top(tmp_path):
    game = build(tmp_path, """\
        zone secret: grid hidden
        zone deck: stack top
        zone empty_deck: stack top
        setup {
          move components(Card)[0] to secret at (0, 0)
          move components(Card)[1] to secret at (1, 0)
          move components(Card)[2] to deck
          move components(Card)[3] to deck
        }
        play { turn 0 { choose x from [1, 2] prompt "Pick" } }
        """)
    st = game.new_state(2, seed=1)
    seen = game.observe(st, 0)["zones"]
    assert seen["secret"] == {"size": 2}
    assert seen["deck"] == {"size": 2, "top": "spades 1"}     # items: hearts 1-3, then spades 1-3
    assert seen["empty_deck"] == {"size": 0, "top": None}


def test_labelled_maps_lists_of_components(tmp_path):
    game, st = first_decision(tmp_path, "[1, 2]", "int")
    assert game.labelled(st, [0, [3], None]) == ["hearts 1", ["spades 1"], None]


# ----------------------------------------------------------------------------- sealed choices
SEALED = """\
var bids: list of int = []
play {
  choose bid from range(3) by each p in players prompt "Bid" label "{bid} coins"
  bids = bid
}
"""


def test_a_sealed_choice_is_shown_to_its_own_seat_only_once_made(tmp_path):
    game = build(tmp_path, SEALED)
    st = game.new_state(2, seed=1)
    assert game.sealed_choice_label(st, 0) is None
    game.apply(st, "2")
    assert game.sealed_choice_label(st, 0) == "2 coins"
    assert game.sealed_choice_label(st, 1) is None
    game.apply(st, "1")
    assert st.vars["bids"] == [2, 1]


def test_a_sealed_choice_without_a_label_shows_its_value(tmp_path):
    game = build(tmp_path, SEALED.replace(' label "{bid} coins"', ""))
    st = game.new_state(2, seed=1)
    game.apply(st, "1")
    assert game.sealed_choice_label(st, 0) == "1"
