"""Language constructs added for Happy City, each tested on a small game of its own:
data `defaults` and `details`, the `details()` built-in, `none` among component options,
and how `play` shows described piles and face-up discard piles."""
from __future__ import annotations

import textwrap

import pytest

from boardwright.cli.render import render_table
from boardwright.dsl.data import load_data
from boardwright.dsl.errors import DataError, RuleFileError
from boardwright.interpreter.compile.load import load_game
from boardwright.interpreter.run.labels import describe

DATA = """\
provenance: "Invented for this test."
enums:
  Colour: [red, blue, plain]
components:
  Card:
    label: "{name}"
    details: "[cost {cost}, ]{colour}[ | needs {needs}][ | {text}]"
    attributes:
      name: str
      colour: Colour
      cost: int
      needs: list of Colour
      text: str
    defaults: {colour: plain, cost: 0, needs: [], text: ""}
    items:
      - {name: Mill, colour: red, cost: 3, copies: 2}
      - {name: Well, needs: [red, red, blue], text: "gain 2 coins"}
      - {name: Gate, colour: blue, cost: 2, needs: [red]}
"""

GAME = """\
game "Market"
players 2
data "cards.yaml"
zone deck: stack hidden
zone offer: pile public
zone used: stack top
var picked: Card = none
setup {
  move components(Card) to deck
  move [c for c in components(Card) if c.name != "Gate"] to offer
}
play {
  turn 0 {
    choose c from [none] + contents(offer) prompt "Take a card?"
      label "{if_none(c)}"
    picked = c
    if c != none { move c to used }
  }
}
fn if_none(c: Card) -> str = if c == none then "Take nothing" else "Take {c}: {details(c)}"
"""


def write_game(tmp_path, rules: str = GAME, data: str = DATA):
    (tmp_path / "cards.yaml").write_text(textwrap.dedent(data), encoding="utf-8")
    path = tmp_path / "market.game"
    path.write_text(textwrap.dedent(rules), encoding="utf-8")
    return path


# ---------------------------------------------------------------- defaults
def test_defaults_fill_the_attributes_an_item_leaves_out(tmp_path):
    (tmp_path / "cards.yaml").write_text(DATA)
    kind = load_data(tmp_path / "cards.yaml").kinds["Card"]
    mill, _, well, gate = kind.items
    assert mill == {"name": "Mill", "colour": "red", "cost": 3, "needs": [], "text": ""}
    assert well == {"name": "Well", "colour": "plain", "cost": 0, "needs": ["red", "red", "blue"],
                    "text": "gain 2 coins"}
    assert gate["needs"] == ["red"] and gate["colour"] == "blue"


def test_a_default_for_an_unknown_attribute_is_an_error_at_its_line(tmp_path):
    (tmp_path / "cards.yaml").write_text(DATA.replace("defaults: {colour: plain,", "defaults: {colr: plain,"))
    with pytest.raises(DataError) as info:
        load_data(tmp_path / "cards.yaml")
    messages = [(d.message, d.hint, d.span.line) for d in info.value.diagnostics]
    assert ("a default for the unknown attribute 'colr' of Card", "did you mean 'colour'?", 14) in messages
    # the items that rely on the default report the attribute they miss
    assert any("no value for 'colour'" in m for m, _, _ in messages)


def test_a_default_of_the_wrong_type_is_reported_once_at_the_default(tmp_path):
    (tmp_path / "cards.yaml").write_text(DATA.replace("cost: 0, needs", "cost: free, needs"))
    with pytest.raises(DataError) as info:
        load_data(tmp_path / "cards.yaml")
    diags = info.value.diagnostics
    assert [d.message for d in diags if "cost" in d.message] == [
        "Card.cost (default): expected an integer, got 'free'"]
    assert diags[0].span.line == 14


# ---------------------------------------------------------------- details
def test_details_fill_placeholders_join_lists_and_drop_empty_sections():
    text = "[cost {cost}, ]{colour}[ | needs {needs}][ | {text}]"
    assert describe(text, {"cost": 3, "colour": "red", "needs": [], "text": ""}) == "cost 3, red"
    assert describe(text, {"cost": 0, "colour": "plain", "needs": ["red", "blue"], "text": "go"}) == \
        "plain | needs red, blue | go"
    assert describe(None, {"cost": 1}) == ""


def test_details_naming_an_unknown_attribute_is_an_error(tmp_path):
    (tmp_path / "cards.yaml").write_text(DATA.replace("[ | {text}]", "[ | {txt}]"))
    with pytest.raises(DataError) as info:
        load_data(tmp_path / "cards.yaml")
    (diag,) = info.value.diagnostics
    assert diag.message == "Card.details names the unknown attribute 'txt'" and diag.hint == "did you mean 'text'?"
    assert diag.span.line == 7


def test_details_builtin_and_none_among_component_options(tmp_path):
    game = load_game(write_game(tmp_path))
    st = game.new_state(2, seed=1)
    decision = game.decision(st)
    assert [o.id for o in decision.options] == ["none", "mill", "mill#2", "well"]
    assert [o.label for o in decision.options] == [
        "Take nothing", "Take Mill: cost 3, red", "Take Mill: cost 3, red",
        "Take Well: plain | needs red, red, blue | gain 2 coins"]
    game.apply(st, "none")
    assert st.finished and st.vars["picked"] is None


def test_details_of_a_non_component_is_refused_by_the_checker(tmp_path):
    with pytest.raises(RuleFileError) as info:
        load_game(write_game(tmp_path, GAME + 'fn wrong() -> str = details(3)\n'))
    assert "details(component): expected a component, got int" in info.value.format()


def test_observation_describes_shown_piles_only(tmp_path):
    game = load_game(write_game(tmp_path))
    st = game.new_state(2, seed=1)
    seen = game.observe(st, 1)
    assert seen["details"] == {"offer": ["cost 3, red", "cost 3, red", "plain | needs red, red, blue | gain 2 coins"]}
    assert "deck" not in seen["details"]        # hidden: not even its details
    game.apply(st, "well")
    seen = game.observe(st, 0)
    assert "used" not in seen["details"]        # a `top` pile shows only its top label


def test_play_lists_described_components_once_with_their_count(tmp_path):
    game = load_game(write_game(tmp_path))
    st = game.new_state(2, seed=1)
    text = render_table(game, game.observe(st, 0))
    assert "offer:\n  2 x Mill — cost 3, red\n  Well — plain | needs red, red, blue | gain 2 coins" in text
    assert "deck: 1 face down" in text
    game.apply(st, "mill")
    text = render_table(game, game.observe(st, 0))
    assert "used: 1, top: Mill" in text and "face down, top" not in text
