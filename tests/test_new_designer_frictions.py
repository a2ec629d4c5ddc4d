"""Frictions a new designer met writing a drafting and tile-laying game from the docs alone
(docs/examples/terraces): a placement's piece shown as a number in texts and its misspelt
attributes found only in play; a grid sized by params drawn as floating; `simulate` asking
for --players of a game that allows one count; `options_exclude` refusing placement ids; a
scenario naming a per-player zone without its seat told the other seat's name."""
from __future__ import annotations

import io
import sys
import textwrap
from pathlib import Path

import pytest

from boardwright.cli.main import main
from boardwright.cli.render import render_table
from boardwright.interpreter.compile.load import load_game
from boardwright.interpreter.testing.scenario import run_scenario

ONE_KIND = """\
provenance: "test"
components:
  Tile:
    label: "{crop} {name}"
    attributes: {crop: str, name: str}
    items:
      - {crop: wheat, name: bar, shape: "##"}
"""

TWO_KINDS = ONE_KIND + """\
  Coin:
    label: "coin {worth}"
    attributes: {worth: int}
    items:
      - {worth: 1}
"""

TEXTS = """\
game "Texts"
players 1
data "d.yaml"
record R { m: placement, n: int }
zone g: grid of Tile size 3 x 3
LABEL
play {
  let m = first(placements_of(g, components(Tile), [(0, 0)]))
  let r = R(m: m, n: 1)
  log "piece {m.piece}; placement {m}; in a record {r.m.piece}; crop {m.piece.crop}"
  turn 0 { choose x from [m] label "{x.piece}" }
}
"""


def _game(tmp_path, data: str, rules: str):
    (tmp_path / "d.yaml").write_text(data)
    (tmp_path / "g.game").write_text(rules)
    return load_game(tmp_path / "g.game")


@pytest.mark.parametrize("data, label, shown", [
    pytest.param(ONE_KIND, "", "wheat bar", id="one kind: the piece is a Tile"),
    pytest.param(TWO_KINDS, "", "wheat bar", id="two kinds: the piece is any"),
    pytest.param(TWO_KINDS, 'label t: Tile = "tile {t.name}!"', "tile bar!", id="a declared label"),
])
def test_a_placements_piece_is_shown_by_its_label_in_texts_and_option_labels(tmp_path, data, label, shown):
    game = _game(tmp_path, data, TEXTS.replace("LABEL", label))
    st = game.new_state(1, seed=1)
    decision = game.decision(st)
    # the only placement of the bar covering (0, 0) on a 3 x 3 grid: across, anchored at (0, 0)
    assert st.log[-1] == (f"piece {shown}; placement {shown} at (0, 0) turned 0; "
                          f"in a record {shown}; crop wheat")
    assert [o.label for o in decision.options] == [shown]


@pytest.mark.parametrize("data, message", [
    pytest.param(ONE_KIND, "unknown attribute 'crap' of Tile", id="one kind"),
    pytest.param(TWO_KINDS, "unknown attribute 'crap' of a placement's piece: no component kind has it",
                 id="two kinds"),
])
def test_a_misspelt_attribute_of_a_placements_piece_is_refused_before_play(tmp_path, capsys, data, message):
    (tmp_path / "d.yaml").write_text(data)
    (tmp_path / "g.game").write_text(TEXTS.replace("LABEL", "").replace("{m.piece.crop}", "{m.piece.crap}"))
    code = main(["validate", str(tmp_path / "g.game")])
    out = "".join(capsys.readouterr())
    assert code == 1
    assert f"g.game:10:79: error: {message} [E304]" in out
    assert "hint: did you mean 'crop'?" in out


def test_a_grid_sized_by_params_is_drawn_at_its_size_when_empty(tmp_path):
    rules = textwrap.dedent("""\
        game "Sized"
        players 1
        data "d.yaml"
        param side = 3
        zone g: grid of Tile size side x side
        play { turn 0 { choose x from [1, 2] } }
        """)
    drawn = ONE_KIND.replace('label: "{crop} {name}"', 'label: "{crop} {name}"\n    glyph: "{name}"')
    game = _game(tmp_path, drawn, rules)
    table = render_table(game, game.observe(game.new_state(1, seed=1), 0)).splitlines()
    # as `size 3 x 3` written with numbers draws it: every cell, in a frame of 3 x 3
    assert table[1:] == ["g:", "        0   1   2 "] + ["      +---+---+---+", "    0 |   |   |   |",
                                                      "      +---+---+---+", "    1 |   |   |   |",
                                                      "      +---+---+---+", "    2 |   |   |   |",
                                                      "      +---+---+---+"]


def test_simulate_takes_the_games_only_player_count_and_asks_for_one_otherwise(tmp_path, capsys):
    rules = "game \"Solo\"\nplayers 2\nplay { turn 0 { choose x from [1, 2] } }\n"
    (tmp_path / "g.game").write_text(rules)
    assert main(["simulate", str(tmp_path / "g.game"), "--games", "2", "--json"]) == 0
    assert '"players": 2' in capsys.readouterr().out
    (tmp_path / "g.game").write_text(rules.replace("players 2", "players 2..4"))
    for command in (["simulate"], ["sweep", "--set", "x=1..2"]):
        assert main([command[0], str(tmp_path / "g.game"), *command[1:]]) == 2
        assert "Solo is for 2 to 4 players: say how many with --players N" in capsys.readouterr().err


SCENARIO = """\
name: exclusions written as placement ids
game: g.game
players: 1
expect:
  options_include: ["wheat-bar@0,0t0"]
  options_exclude: [EXCLUDED]
"""


@pytest.mark.parametrize("excluded, passes", [
    ('"wheat-bar@1,0t0"', True),        # a placement id of another anchor: could be offered
    ('"wheat-bar@1,1t1"', True),        # upright elsewhere: could be offered
    ('"wheat-bra@1,0t0"', False),       # a typo still fails
])
def test_options_exclude_takes_placement_ids(tmp_path, excluded, passes):
    rules = textwrap.dedent("""\
        game "Ids"
        players 1
        data "d.yaml"
        zone g: grid of Tile size 3 x 3
        play { turn 0 { choose m from placements_of(g, components(Tile), [(0, 0)]) } }
        """)
    _game(tmp_path, ONE_KIND, rules)
    (tmp_path / "s.scenario.yaml").write_text(SCENARIO.replace("EXCLUDED", excluded))
    outcome = run_scenario(tmp_path / "s.scenario.yaml")
    assert outcome.passed == passes, outcome.failures


@pytest.mark.parametrize("where", ["state", "expect"])
def test_a_per_player_zone_named_without_its_seat_is_told_how_to_name_it(tmp_path, where):
    rules = textwrap.dedent("""\
        game "Seats"
        players 2
        data "d.yaml"
        zone garden: grid of Tile size 3 x 3 per player
        play { turn 0 { choose x from [1, 2] } }
        """)
    _game(tmp_path, ONE_KIND, rules)
    (tmp_path / "s.scenario.yaml").write_text(f"game: g.game\nplayers: 2\n{where}: {{zones: {{garden: {{}}}}}}\n")
    failures = "\n".join(run_scenario(tmp_path / "s.scenario.yaml").failures)
    assert "no zone 'garden'" in failures
    assert "'garden' is one zone per seat: write garden/0 for seat 0 (garden/0, garden/1)" in failures
    assert "did you mean 'garden/1'" not in failures


CHECKED = """\
game "Checked"
players 2
data "d.yaml"
zone deck: stack
zone garden: grid of Tile size 3 x 3 per player
fn first_free(p: player) -> bool = empty(garden[p])
fn where(t: Tile) -> int = index_of(contents(deck), t)
fn areas(p: player) -> int = len(groups(garden[p], "crop"))
play { turn 0 { choose x from [1, 2] } }
"""


@pytest.mark.parametrize("old, new, message, hint", [
    ("empty(garden[p])", "garden[p] == none", "comparing a zone with none is always false: a zone is never none",
     "ask empty(garden[p]) whether it holds nothing"),
    ("empty(garden[p])", "none != deck", "comparing a zone with none is always true: a zone is never none",
     "ask not empty(deck) whether it holds anything"),
    ("contents(deck), t", "deck, t", "index_of(list, value): expected a list, got zone of Tile",
     "a zone is not a list: write contents(deck)"),
    ("empty(garden[p])", "empty(garden)", "empty(zone): expected a zone, got list of grid of Tile",
     "'garden' is one zone per player: pick one, e.g. garden[p]"),
    ("len(groups(garden[p]", "len(groups(garden", "groups(grid, str[, adjacency]): expected a grid zone, got list of grid of Tile",
     "'garden' is one zone per player: pick one, e.g. garden[p]"),
    ('"crop"', "crop", "unknown name 'crop'",
     "'crop' is an attribute: read it as COMPONENT.crop, or name it in quotes, \"crop\", where a built-in "
     "takes its name"),
])
def test_a_new_designers_slips_are_refused_with_what_to_write(tmp_path, capsys, old, new, message, hint):
    (tmp_path / "d.yaml").write_text(ONE_KIND)
    assert CHECKED.count(old) == 1
    (tmp_path / "g.game").write_text(CHECKED.replace(old, new))
    assert main(["validate", str(tmp_path / "g.game")]) == 1
    out = "".join(capsys.readouterr())
    assert f"error: {message} [E" in out
    assert f"    hint: {hint}\n" in out


def test_the_slips_game_is_valid_as_written(tmp_path, capsys):
    (tmp_path / "d.yaml").write_text(ONE_KIND)
    (tmp_path / "g.game").write_text(CHECKED)
    assert main(["validate", str(tmp_path / "g.game")]) == 0


def test_play_names_the_option_a_label_typed_with_other_spacing_means(tmp_path, capsys, monkeypatch):
    (tmp_path / "g.game").write_text('game "Spots"\nplayers 1\n'
                                     'play { turn 0 { choose c from [(0, 0), (10, 0)] prompt "Pick" } }\n')
    monkeypatch.setattr(sys, "stdin", io.StringIO("(0,0)\n(5,5)\nquit\n"))
    main(["play", str(tmp_path / "g.game")])
    out = " ".join(capsys.readouterr().out.split())        # the screen's line breaks aside
    assert "'(0,0)' is not one of the options: type 1 to 2, an id, a label or a group's name; 'help' lists the " \
           "commands. Did you mean '(0, 0)'? (type it as shown, spaces included)" in out
    # an entry that is no option however it is spaced gets no suggestion
    assert "'(5,5)' is not one of the options: type 1 to 2, an id, a label or a group's name; 'help' lists the " \
           "commands. >" in out


ROW = """\
game "Row"
players 1
data "d.yaml"
zone deck: stack
zone row: stack
zone g: grid of Tile size 3 x 3
setup { move components(Tile) to deck }
play { turn 0 { choose x from [1, 2] } }
"""

MANY = ONE_KIND.replace('- {crop: wheat, name: bar, shape: "##"}',
                        '- {product: {crop: [wheat, grape, rye]}, name: bar, shape: "##"}')


@pytest.mark.parametrize("top, failure", [
    pytest.param("{row: [rye bar, grape bar]}", None, id="the top two, top first"),
    pytest.param("{row: [rye bar, grape bar, wheat bar]}", None, id="the whole stack"),
    pytest.param("{row: [grape bar, rye bar]}",
                 "top: row expected ['grape bar', 'rye bar'] on top (top first), has ['rye bar', 'grape bar']",
                 id="the same labels in another order fail"),
    pytest.param("{g: [rye bar]}", "top: 'g' is not a stack or pile", id="a grid"),
    pytest.param("{rwo: [rye bar]}", "top: 'rwo' is not a stack or pile; zones: deck, row, g, supply (did you "
                                     "mean 'row'?)", id="a misspelt zone"),
])
def test_expect_top_checks_a_stacks_order_top_first(tmp_path, top, failure):
    _game(tmp_path, MANY, ROW)
    (tmp_path / "s.scenario.yaml").write_text(
        "game: g.game\nstate: {zones: {row: [wheat bar, grape bar, rye bar]}}\n"   # bottom to top
        f"expect: {{zones: {{row: [rye bar, wheat bar, grape bar]}}, top: {top}}}\n")
    failures = run_scenario(tmp_path / "s.scenario.yaml").failures
    if failure is None:
        assert failures == []
    else:
        assert len(failures) == 1 and failure in failures[0]


TERRACES = Path(__file__).resolve().parent.parent / "docs" / "examples" / "terraces"


def test_terraces_and_its_variant_pass_validate_strict(capsys):
    assert main(["validate", "--strict", str(TERRACES)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"ok: {TERRACES}: Terraces", f"ok: {TERRACES} --variant big: Terraces (Big gardens)"]


@pytest.mark.parametrize("path", sorted(TERRACES.glob("scenarios/*.scenario.yaml")), ids=lambda p: p.name)
def test_the_terraces_scenarios_pass(path):
    outcome = run_scenario(path)
    assert outcome.passed, outcome.failures


@pytest.mark.parametrize("line, hint", [
    ("param sid = 4", "the base game has no param 'sid' to replace; did you mean 'side'?"),
    ("var coin: int = 0", "the base game has no var 'coin' to replace; did you mean 'coins'?"),
    ("param extra = 4", "remove it, or use it in a rule"),          # near no name of the base
    ("fn totl() -> int = 0", "the base game has no fn 'totl' to replace; did you mean 'total'?"),
    ("proc deall() { }", "the base game has no proc 'deall' to replace; did you mean 'deal'?"),
])
def test_a_variants_unused_name_near_one_of_the_bases_is_taken_for_a_misspelt_replacement(tmp_path, capsys,
                                                                                             line, hint):
    (tmp_path / "d.yaml").write_text(ONE_KIND)
    (tmp_path / "g.game").write_text(textwrap.dedent("""\
        game "Base"
        players 1
        data "d.yaml"
        param side = 3
        var coins: int = 0
        zone g: grid of Tile size side x side
        fn total() -> int = coins + side
        proc deal() { coins += 1 }
        play { deal()
               turn 0 { choose x from [total()] } }
        """))
    (tmp_path / "v.game").write_text(f'variant "V" extends "g.game"\n{line}\n')
    assert main(["validate", str(tmp_path / "v.game")]) == 0
    assert f"    hint: {hint}\n" in "".join(capsys.readouterr())
