"""A scenario's `state: vars:` values checked against each var's declared type: a value of the
wrong kind is a failure that names the var, the type it holds and the value given, at the
line of the value; a value of the right kind is set (read back through `expect: vars:`)."""
from __future__ import annotations

import pytest

from boardwright.interpreter.testing.scenario import run_scenario

from conftest import small_body_file

BODY = """\
zone deck: stack
var nums: list of int = []
var flag: bool = false
var word: str = ""
var spot: cell = (0, 0)
var fav: Card = none
setup {
  move components(Card) to deck
}
play {
  for p in players {
    turn p { choose c from contents(deck) prompt "Draw" }
  }
}
"""


def failures(tmp_path, name: str, value: str, expect: str | None = None) -> list[str]:
    small_body_file(tmp_path, BODY)
    path = tmp_path / "s.scenario.yaml"
    path.write_text(f"name: typed vars\ngame: g.game\nplayers: 2\nstate:\n  vars:\n    {name}: {value}\n"
                    f"moves: []\nexpect:\n  vars:\n    {name}: {expect if expect is not None else value}\n")
    return run_scenario(path).failures


@pytest.mark.parametrize("name, value, message", [
    ("nums", "3", "'nums' holds a list of int: write a list, not `3`"),
    ("nums", "[1, two]", "'nums' holds whole numbers, not `two`"),
    ("flag", "1", "'flag' holds true or false, not `1`"),
    ("word", "[a]", "'word' holds texts, not"),
    ("spot", "[1, 2]", "'spot' holds cells, written {cell: [x, y]}, not"),
    ("fav", "99", "'fav' holds a Card, given by its label or its number (0 is the first component of the data), "
                  "not `99`"),
    ("fav", "true", "'fav' holds a Card, given by its label or its number"),
])
def test_a_value_of_the_wrong_type_is_a_failure_at_its_line(tmp_path, name, value, message):
    [failure] = failures(tmp_path, name, value)
    assert message in failure and "s.scenario.yaml:6:" in failure, failure


@pytest.mark.parametrize("name, value", [
    ("nums", "[4, 5]"), ("flag", "true"), ("word", "hello"), ("spot", "{cell: [2, 3]}"), ("fav", "spades 2"),
    ("fav", "3"),      # by its number: the fourth card of the data, spades 1
])
def test_a_value_of_the_right_type_is_set(tmp_path, name, value):
    assert failures(tmp_path, name, value) == []


def test_a_component_by_number_is_the_component_with_that_label(tmp_path):
    # the data's order: hearts 1, 2, 3, then spades 1, 2, 3
    assert failures(tmp_path, "fav", "3", expect="spades 1") == []
    [failure] = failures(tmp_path, "fav", "3", expect="hearts 1")
    assert "vars: fav expected" in failure, failure
