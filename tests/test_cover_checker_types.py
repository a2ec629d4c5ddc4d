"""The checker's type errors and declaration conflicts, each on a tiny rule file.

Expected messages are the ones docs/language.md and docs/diagnostics.md promise, and the
types follow dsl/types.py's rules (a player is a seat number, `none` fits anywhere).
"""
from __future__ import annotations

import pytest

from boardwright.dsl.errors import RuleFileError
from boardwright.dsl.loader import check_game
from conftest import SMALL_DATA, small_body_file

def diagnostics(tmp_path, body: str) -> list:
    """The checker's findings on SMALL_HEADER + body (the body's line 1 is the file's line 4)."""
    with pytest.raises(RuleFileError) as info:
        check_game(small_body_file(tmp_path, body))
    return info.value.diagnostics


def messages(tmp_path, body: str) -> list[str]:
    return [d.message for d in diagnostics(tmp_path, body)]


def only(tmp_path, body: str):
    found = diagnostics(tmp_path, body)
    assert len(found) == 1, [d.message for d in found]
    return found[0]


def checks(tmp_path, body: str) -> None:
    check_game(small_body_file(tmp_path, body))


# ----------------------------------------------------------------------------- == and !=
@pytest.mark.parametrize("op, verdict", [("==", "false"), ("!=", "true")])
def test_comparing_incompatible_types_is_reported(tmp_path, op, verdict):
    diag = only(tmp_path, f'play {{ if 1 {op} "one" {{ finish }} }}\n')
    assert diag.message == f"comparing int with str is always {verdict}"
    assert (diag.span.line, diag.span.column) == (4, 11)


def test_comparing_a_component_with_a_number_is_reported(tmp_path):
    diag = only(tmp_path, "fn f(c: Card) -> bool = c == 3\nplay { }\n")
    assert diag.message == "comparing Card with int is always false"


def test_comparing_a_player_with_an_int_is_fine(tmp_path):
    checks(tmp_path, "play { for p in players { if p == 0 { finish } } }\n")


# ----------------------------------------------------------------------------- in
def test_in_needs_a_list_on_the_right(tmp_path):
    diag = only(tmp_path, "play { if 1 in 2 { finish } }\n")
    assert diag.message == "'in' needs a list on the right, not int"
    assert diag.span.column == 16  # the right operand


def test_not_in_needs_a_list_on_the_right(tmp_path):
    assert messages(tmp_path, 'play { if 1 not in "abc" { finish } }\n') == [
        "'not in' needs a list on the right, not str"]


def test_an_element_of_another_type_is_never_in_a_list(tmp_path):
    assert messages(tmp_path, 'play { if "a" in [1, 2] { finish } }\n') == [
        "a str is never in a list of int"]


# ----------------------------------------------------------------------------- ordering
@pytest.mark.parametrize("op", ["<", "<=", ">", ">="])
def test_ordering_compares_numbers_only(tmp_path, op):
    diag = only(tmp_path, f'play {{ if "a" {op} 1 {{ finish }} }}\n')
    assert diag.message == f"'{op}' compares numbers, not str"
    assert diag.span.column == 11  # the offending (left) side


def test_ordering_reports_each_bad_side(tmp_path):
    assert messages(tmp_path, "play { if true < [1] { finish } }\n") == [
        "'<' compares numbers, not bool", "'<' compares numbers, not list of int"]


# ----------------------------------------------------------------------------- arithmetic
def test_cannot_add_a_single_item_to_a_list(tmp_path):
    diag = only(tmp_path, "play { let xs = [1] + 2\nlog \"{xs}\" }\n")
    assert diag.message == "cannot add list of int and int"
    assert diag.hint == "wrap a single item in [ ]"


def test_lists_add_up_to_a_list(tmp_path):
    checks(tmp_path, 'play { let xs: list of int = [1] + [2, 3]\nlog "{xs}" }\n')


def test_cannot_add_text_and_a_number(tmp_path):
    diag = only(tmp_path, 'play { let s = "score " + 1\nlog "{s}" }\n')
    assert diag.message == "cannot add str and int"
    assert diag.hint == 'put the value in a placeholder instead: "text {value}"'


def test_texts_add_up(tmp_path):
    checks(tmp_path, 'play { let s = "a" + "b"\nlog "{s}" }\n')


@pytest.mark.parametrize("op", ["-", "*", "//", "%"])
def test_arithmetic_needs_numbers(tmp_path, op):
    diag = only(tmp_path, f'play {{ let n = true {op} 1\nlog "{{n}}" }}\n')
    assert diag.message == f"'{op}' needs numbers, not bool"


def test_negation_needs_a_number(tmp_path):
    assert messages(tmp_path, 'play { let n = -"x"\nlog "{n}" }\n') == ["'-' needs a number, not str"]


def test_not_needs_a_bool(tmp_path):
    assert messages(tmp_path, "play { if not 3 { finish } }\n") == [
        "the operand of 'not' should be bool, not int"]


# ----------------------------------------------------------------------------- let
def test_a_let_may_not_reuse_a_local_name(tmp_path):
    diag = only(tmp_path, 'play {\n  let a = 1\n  let a = 2\n  log "{a}"\n}\n')
    assert diag.message == "'a' is already defined here"
    assert diag.hint == "assign it with 'a = ...'"
    assert diag.span.line == 6


def test_a_let_may_not_hide_a_declaration(tmp_path):
    diag = only(tmp_path, 'var total: int = 0\nplay { let total = 1\nlog "{total}" }\n')
    assert diag.message == "'total' would hide a declaration of the game"
    assert diag.hint == "choose another name"


def test_a_let_in_an_inner_block_sees_the_outer_name(tmp_path):
    assert "'a' is already defined here" in messages(
        tmp_path, 'play {\n  let a = 1\n  if a > 0 { let a = 2\n log "{a}" }\n}\n')


# ----------------------------------------------------------------------------- zone options
def test_a_grid_has_either_size_or_extent(tmp_path):
    assert messages(tmp_path, "zone b: grid size 3 x 3 extent 3 x 3\nplay { }\n") == [
        "a grid has either a fixed 'size' or a floating 'extent', not both"]


def test_blocked_cells_need_a_fixed_size(tmp_path):
    assert messages(tmp_path, "zone b: grid extent 3 x 3 blocked (1, 1)\nplay { }\n") == [
        "blocked cells need a grid of fixed 'size'"]


def test_a_zone_has_one_visibility(tmp_path):
    diag = only(tmp_path, "zone s: stack hidden public\nplay { }\n")
    assert diag.message == "a zone has one visibility"
    assert diag.span.column == 22  # the second visibility


def test_a_stack_has_no_size(tmp_path):
    diag = only(tmp_path, "zone s: stack size 3 x 3\nplay { }\n")
    assert diag.message == "unknown option 'size' for a stack"
    assert diag.hint == "did you mean 'hidden'?" or diag.hint.startswith("options: public, hidden, owner, top")


def test_an_option_with_the_wrong_shape(tmp_path):
    assert messages(tmp_path, "zone b: grid stacked 3 x 3\nplay { }\n") == [
        "option 'stacked' takes no value"]


def test_a_shape_names_an_int_param(tmp_path):
    assert messages(tmp_path, 'param side = "big"\nzone b: grid size side x side\nplay { }\n') == [
        "'side' in option 'size' is not an int param"]


def test_a_shape_may_use_an_int_param(tmp_path):
    checks(tmp_path, "param side = 4\nzone b: grid size side x side\nplay { }\n")


def test_an_unknown_zone_kind(tmp_path):
    diag = only(tmp_path, "zone s: stak\nplay { }\n")
    assert diag.message == "unknown zone kind 'stak'"
    assert diag.hint == "did you mean 'stack'?"


# ----------------------------------------------------------------------------- at run time
def test_choosing_from_an_empty_list_is_a_rule_error(tmp_path):
    from boardwright.dsl.errors import RuleError
    from boardwright.interpreter.compile.load import load_game

    # docs/language.md: choosing from nothing is an error, so rules check first. The options
    # are worked out when first asked for (Pending.later): the error comes then, at the choose.
    path = small_body_file(tmp_path, """\
        zone hand: pile
        play {
          turn 0 {
            choose c from contents(hand) prompt "Play"
            move c to hand
          }
        }
        """)
    game = load_game(path)
    st = game.new_state(2, seed=1)
    with pytest.raises(RuleError) as info:
        game.decision(st)
    diag = info.value.diagnostics[0]
    assert diag.message == "nothing to choose from for 'c'"
    assert diag.span.line == 7  # the choose line


# ----------------------------------------------------------------------------- declarations
def test_a_built_in_name_cannot_be_redeclared(tmp_path):
    diag = only(tmp_path, "var current: int = 0\nplay { }\n")
    assert diag.message == "'current' is a built-in name and cannot be redeclared"
    assert diag.hint == "choose another name"


def test_an_enum_member_cannot_be_redeclared(tmp_path):
    assert messages(tmp_path, "param hearts = 3\nplay { }\n") == [
        "'hearts' is already a member of enum 'Suit'"]


def test_per_names_player_or_a_component_kind(tmp_path):
    diag = only(tmp_path, "var points: int per Cart = 0\nplay { }\n")
    assert diag.message == "'per Cart': expected 'per player' or 'per' a component kind"
    assert diag.hint == "did you mean 'Card'?"


def test_a_parameter_declared_twice(tmp_path):
    assert messages(tmp_path, "fn f(a: int, a: int) -> int = a\nplay { }\n") == [
        "parameter 'a' is declared twice"]


def test_a_procedure_is_not_a_value(tmp_path):
    assert messages(tmp_path, 'proc deal() { }\nplay { let x = deal()\nlog "{x}" }\n') == [
        "'deal' is a procedure: call it as a statement"]


def test_components_takes_one_kind(tmp_path):
    assert messages(tmp_path, 'play { let xs = components(Suit)\nlog "{xs}" }\n') == [
        "components(KIND) takes one component kind"]


# ----------------------------------------------------------------------------- statements
def test_only_lists_can_be_sliced(tmp_path):
    diag = only(tmp_path, 'play { let n = 5\nlet m = n[1:]\nlog "{m}" }\n')
    assert diag.message == "int cannot be sliced"
    assert diag.hint == "slices take lists: items[start:stop]"


def test_an_indexed_assignment_needs_a_list(tmp_path):
    assert messages(tmp_path, "var total: int = 0\nplay { total[0] = 1 }\n") == [
        "'total' is int, not indexable"]


def test_an_index_is_an_int_a_player_or_a_component(tmp_path):
    assert messages(tmp_path, 'play { let xs = [1, 2]\nlet x = xs["a"]\nlog "{x}" }\n') == [
        "an index must be an int, a player or a component, not str"]


def test_a_zone_holds_one_kind(tmp_path):
    data = SMALL_DATA + "  Coin:\n    attributes: {worth: int}\n    items:\n      - worth: 1\n"
    path = small_body_file(tmp_path, "zone purse: pile of Coin\nplay { move components(Card)[0] to purse }\n", data)
    with pytest.raises(RuleFileError) as info:
        check_game(path)
    assert [d.message for d in info.value.diagnostics] == ["'purse' holds Coin, not Card"]


def test_bottom_of_is_for_stacks_and_piles(tmp_path):
    assert messages(tmp_path, "zone board: grid\nplay { move components(Card)[0] to bottom of board at (0, 0) }\n") == [
        "'bottom of' is for stacks and piles"]


def test_the_name_of_each_chooser_must_be_new(tmp_path):
    diag = only(tmp_path, 'play { let q = 1\nchoose bid from [q, 2] by each q in players prompt "Bid" }\n')
    assert diag.message == "'q' is already defined here"
    assert diag.span.line == 5


def test_a_loop_over_a_number_is_refused(tmp_path):
    assert messages(tmp_path, 'play { for i in 3 { log "{i}" } }\n') == ["expected a list, got int"]


def test_a_loop_over_a_zone_asks_for_its_contents(tmp_path):
    diag = only(tmp_path, 'zone bag: pile\nplay { for c in bag { log "{c}" } }\n')
    assert diag.message == "zone of Card is a zone, not a list"
    assert diag.hint == "iterate over contents(bag)"
