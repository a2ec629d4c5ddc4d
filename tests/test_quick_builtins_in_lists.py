"""Built-ins and component attributes where the compiler cannot use its inline forms: inside
the list a comprehension runs over (no assignment expressions there), or with arguments that
are not plain names. Each must give what docs/language.md ("Built-in functions") says, the
same as its inline form elsewhere, and a rule error where the docs promise one."""
from __future__ import annotations

import pytest

from boardwright.dsl.errors import RuleError

from conftest import make_small_game

# The six cards of conftest.SMALL_DATA (hearts and spades 1-3). Setup puts components(Card)[4]
# on the board at (0, 0) and components(Card)[1] on top of it, the rest in the deck.
RULES = """\
game "Tiny"
players 2
data "cards.yaml"
zone deck: stack
zone board: grid stacked
var none_card: Card = none
var result: {type} = none
var expected: {type} = none
setup {{
  move components(Card)[4] to board at (0, 0)
  move components(Card)[1] to board at (0, 0)
  move [c for c in components(Card) if c != components(Card)[4] and c != components(Card)[1]] to deck
}}
play {{
  result = {expr}
  expected = {inline}
}}
"""


def values(tmp_path, expr: str, inline: str, type_: str):
    game = make_small_game(tmp_path, RULES.format(type=type_, expr=expr, inline=inline))
    st = game.new_state(2, seed=1)
    return st.vars["result"], st.vars["expected"]


def failure(tmp_path, expr: str, type_: str) -> str:
    game = make_small_game(tmp_path, RULES.format(type=type_, expr=expr, inline="none"))
    with pytest.raises(RuleError) as info:
        game.new_state(2, seed=1)
    return info.value.diagnostics[0].message


def test_index_of_a_computed_list_is_the_position_or_minus_one(tmp_path):
    # docs: "Position of a value in a list (0-based), -1 if absent"
    got, _ = values(tmp_path, "[index_of([r * 10 for r in [1, 2, 3]], 20), index_of([r * 10 for r in [1, 2]], 5)]",
                    "none", "list of int")
    assert got == [1, -1]


def test_stack_at_lists_a_cell_bottom_to_top_and_an_empty_cell_as_empty(tmp_path):
    got, want = values(tmp_path, "stack_at(board, (0, 0)) + stack_at(board, (5, 5))",
                       "[components(Card)[4], components(Card)[1]]", "list of Card")
    assert got == want and len(got) == 2


def test_top_and_top_at_inside_a_comprehensions_list(tmp_path):
    got, want = values(tmp_path, "[c for c in [top(deck), top_at(board, (0, 0)), top_at(board, (1, 1))]]",
                       "[top(deck), top_at(board, (0, 0)), none]", "list of Card")
    assert got == want and got[1] is not None and got[2] is None


def test_attributes_of_computed_components_inside_a_comprehensions_list(tmp_path):
    # components(Card)[1] is hearts 2 (the data's product: hearts 1-3, then spades 1-3)
    got, _ = values(tmp_path, "[r for r in [top_at(board, (0, 0)).rank, components(Card)[1].rank, "
                              "[c for c in contents(deck)][0].rank]]", "none", "list of int")
    assert got[:2] == [2, 2] and got[2] in (1, 2, 3)


def test_an_attribute_of_none_is_a_rule_error_in_a_comprehensions_list_too(tmp_path):
    assert failure(tmp_path, "[r for r in [none_card.rank]]", "list of int") == "'.rank' of none"
    assert failure(tmp_path, "[r for r in [top_at(board, (3, 3)).rank]]", "list of int") == "'.rank' of none"
    assert failure(tmp_path, "[r for r in [first([none_card]).rank]]", "list of int") == "'.rank' of none"


def test_indexing_a_computed_list(tmp_path):
    got, _ = values(tmp_path, "[r for r in [[7, 8], [9]][len([1])]]", "none", "list of int")
    assert got == [9]
    assert failure(tmp_path, "[r for r in [[7, 8], [9]][len([1]) - 2]]", "list of int") == "index -1 out of range"


def test_fits_on_an_unbounded_grid_keeps_every_cell(tmp_path):
    # docs: fits is "always true for an unbounded grid"
    got, _ = values(tmp_path, "[c for c in [(0, 0), (9, -9), (100, 3)] if fits(board, c)]", "none", "list of cell")
    assert got == [(0, 0), (9, -9), (100, 3)]
