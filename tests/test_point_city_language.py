"""The general constructs added for Point City, each on a small rule file of its own:
multiset built-ins (occurrences, without, minus), join, turns_played; `label` declarations
(components shown as the state says: double-sided cards); `opponent` score sheets (a scripted
opponent without a seat); scenario values for `per KIND` vars and opponent expectations; the
renderer's framed multi-line grid cells and grouped piles."""
from __future__ import annotations

import textwrap

import pytest

from boardwright.cli.render import render_grid, render_result, render_table
from boardwright.dsl.errors import RuleFileError
from boardwright.interpreter.compile.load import load_game
from boardwright.interpreter.testing.scenario import run_scenario

DATA = """\
provenance: test data for the Point City constructs
enums:
  Res: [wood, ore, wild]
components:
  Tile:
    label: "{name}"
    attributes: {name: str, back: Res, worth: int}
    items:
      - {name: Ace, back: wood, worth: 3}
      - {name: Bee, back: ore, worth: 1}
      - {name: Cat, back: wood, worth: 2}
"""


def make(tmp_path, rules: str, name: str = "g.game"):
    (tmp_path / "tiles.yaml").write_text(DATA)
    path = tmp_path / name
    path.write_text(textwrap.dedent(rules))
    return path


def run_log(tmp_path, body: str, players: int = 1) -> list[str]:
    path = make(tmp_path, f"""\
        game "T"
        players 1..2
        data "tiles.yaml"
        play {{
          turn 0 {{
            {body}
          }}
        }}
        """)
    game = load_game(path)
    st = game.new_state(players, 1)
    assert st.finished
    return st.log


# ---------------------------------------------------------------------------- built-ins
def test_multiset_builtins(tmp_path):
    log = run_log(tmp_path, """
            log "{occurrences([wood, ore, wood], wood)} {occurrences([wood], wild)} {occurrences([], ore)}"
            log "{without([wood, ore, wood], wood)} {without([ore], wood)} {without([], wood)}"
            log "{minus([wood, ore, wood, wild], [wood, wild, wild])} {minus([ore], [])}"
            log "{sorted(minus([3, 1, 2, 1], [1]))}"
    """)
    assert log == ["2 0 0", "[ore, wood] [ore] []", "[ore, wood] [ore]", "[1, 2, 3]"]


def test_join_and_turns_played(tmp_path):
    log = run_log(tmp_path, """
            let words = join(["{r}" for r in [wood, ore]], " + ")
            let nothing = join([], ", ")
            log "{words}|{nothing}|{turns_played(0)}"
    """)
    assert log == ["wood + ore||1"]


def test_builtin_argument_types_are_checked(tmp_path):
    path = make(tmp_path, """\
        game "T"
        players 1
        data "tiles.yaml"
        play { log "{occurrences(3, wood)} {join([1, 2], \\",\\")} {minus([wood], 2)} {turns_played(\\"x\\")}" }
        """)
    with pytest.raises(RuleFileError) as err:
        load_game(path)
    text = err.value.format()
    assert "occurrences(list, value): expected a list, got int" in text
    assert "join(list of str, str): expected a list of str, got list of int" in text
    assert "minus(list, list): expected a list, got int" in text
    assert "turns_played(player): expected an int, got str" in text


def test_turns_played_of_a_missing_seat_is_a_rule_error(tmp_path):
    path = make(tmp_path, """\
        game "T"
        players 1
        data "tiles.yaml"
        play { log "{turns_played(3)}" }
        """)
    from boardwright.dsl.errors import RuleError
    with pytest.raises(RuleError, match="not at the table"):
        load_game(path).new_state(1, 1)


# ---------------------------------------------------------------------------- label
FLIPPING = """\
game "Flip"
players 1
data "tiles.yaml"
zone pile_: pile of Tile public
zone row: grid of Tile size 3 x 1
var up: bool per Tile = false
label t: Tile = if up[t] then "{t.name} ({t.worth})" else "back: {t.back}"
setup { for i in range(3) { move components(Tile)[i] to row at (i, 0) } }
play {
  turn 0 {
    choose t from contents(row) prompt "Turn a tile"
    up[t] = true
    log "turned {t}"
    move t to pile_
    choose u from contents(row) prompt "Take a tile"
    log "took {u}"
  }
}
"""


def test_a_label_shows_components_as_the_state_says(tmp_path):
    game = load_game(make(tmp_path, FLIPPING))
    st = game.new_state(1, 1)
    decision = game.decision(st)
    assert [o.label for o in decision.options] == ["back: wood", "back: ore", "back: wood"]
    assert [o.id for o in decision.options] == ["ace", "bee", "cat"]      # ids stay the data labels
    assert game.observe(st, 0)["zones"]["row"] == {"0,0": ["back: wood"], "1,0": ["back: ore"],
                                                   "2,0": ["back: wood"]}
    game.apply(st, "bee")
    assert st.log[-1] == "turned Bee (1)"
    assert game.observe(st, 0)["zones"]["pile_"] == ["Bee (1)"]
    assert game.label_of(st, 1) == "Bee (1)" and game.labels[1] == "Bee"
    game.apply(st, "back: wood")        # a label picks the first of equal ones
    assert st.log[-1] == "took back: wood"


def test_a_label_is_checked_and_a_variant_replaces_it(tmp_path):
    make(tmp_path, FLIPPING, "flip.game")
    bad = make(tmp_path, FLIPPING.replace("label t: Tile =", "label t: Tiles =")
               .replace('"back: {t.back}"', '"back"'), "bad.game")
    with pytest.raises(RuleFileError) as err:
        load_game(bad)
    assert "unknown component kind 'Tiles'" in err.value.format() and "did you mean 'Tile'" in err.value.format()
    wrong = make(tmp_path, FLIPPING.replace('if up[t] then "{t.name} ({t.worth})" else "back: {t.back}"',
                                            "t.worth"), "wrong.game")
    with pytest.raises(RuleFileError, match="the label of Tile should be str, not int"):
        load_game(wrong)
    twice = make(tmp_path, FLIPPING + 'label t: Tile = "x"\n', "twice.game")
    with pytest.raises(RuleFileError, match="the label of Tile is declared twice"):
        load_game(twice)
    make(tmp_path, 'variant "Plain" extends "flip.game"\nlabel t: Tile = "tile {t.name}"\n', "plain.game")
    game = load_game(tmp_path / "flip.game", "plain")
    st = game.new_state(1, 1)
    assert [o.label for o in game.decision(st).options] == ["tile Ace", "tile Bee", "tile Cat"]


def test_a_label_that_fails_is_a_rule_error_not_a_crash(tmp_path):
    from boardwright.dsl.errors import RuleError
    game = load_game(make(tmp_path, FLIPPING.replace('"back: {t.back}"', '"{[1][5]}"')))
    st = game.setup_state(1, 1)
    with pytest.raises(RuleError, match="out of range"):
        game.observe(st, 0)


# ---------------------------------------------------------------------------- opponent
SOLO = """\
game "Race"
players 1
data "tiles.yaml"
param target = 5
var mine: int per player = 0
play { turn 0 { choose n from [4, 5, 6] prompt "How many?"  mine[0] = n } }
score p { "Mine": mine[p] }
opponent "The robot" {
  "Base": target - 1
  "Bonus": 1
}
"""


@pytest.mark.parametrize("n,won", [(4, False), (5, False), (6, True)])
def test_an_opponent_must_be_beaten(tmp_path, n, won):
    game = load_game(make(tmp_path, SOLO))
    st = game.new_state(1, 1)
    game.apply(st, str(n))
    result = game.result(st)
    assert result.opponents == (("The robot", {"Base": 4, "Bonus": 1}),)
    assert result.winners == ((0,) if won else ())
    text = render_result(game, result)
    assert "The robot" in text and "Bonus" in text
    assert ("Winner: Player 1" in text) == won and ("Winner: The robot" in text) == (not won)


def test_opponent_lines_are_checked_and_winners_still_decide(tmp_path):
    bad = make(tmp_path, SOLO.replace('"Bonus": 1', '"Bonus": "one"'), "bad.game")
    with pytest.raises(RuleFileError, match="an opponent's score line should be int, not str"):
        load_game(bad)
    twice = make(tmp_path, SOLO + 'opponent "The robot" { "X": 1 }\n', "twice.game")
    with pytest.raises(RuleFileError, match='opponent "The robot" is declared twice'):
        load_game(twice)
    chosen = load_game(make(tmp_path, SOLO + "winners = [0]\n", "chosen.game"))
    st = chosen.new_state(1, 1)
    chosen.apply(st, "4")
    assert chosen.result(st).winners == (0,)


def test_a_game_without_opponents_keeps_its_result(tmp_path):
    game = load_game(make(tmp_path, SOLO.split("opponent")[0]))
    st = game.new_state(1, 1)
    game.apply(st, "4")
    assert game.result(st).opponents == () and game.result(st).winners == (0,)


# ---------------------------------------------------------------------------- scenarios
def test_scenarios_set_and_expect_per_component_values_and_opponent_lines(tmp_path):
    make(tmp_path, FLIPPING, "flip.game")
    make(tmp_path, SOLO, "race.game")
    (tmp_path / "a.scenario.yaml").write_text(textwrap.dedent("""\
        game: flip.game
        state:
          vars: {up: {Cat: true}}
        expect:
          options: ["back: wood", "back: ore", "Cat (2)"]
          vars: {up: {Cat: true, Ace: false}}
        """))
    assert run_scenario(tmp_path / "a.scenario.yaml").passed
    (tmp_path / "b.scenario.yaml").write_text(textwrap.dedent("""\
        game: flip.game
        expect:
          vars: {up: {Cat: true, Dog: true}}
        """))
    failures = "\n".join(run_scenario(tmp_path / "b.scenario.yaml").failures)
    assert "up of Cat expected True, is False" in failures and "no Tile labelled 'Dog'" in failures
    (tmp_path / "c.scenario.yaml").write_text(textwrap.dedent("""\
        game: flip.game
        state:
          vars: {up: {Dog: true}}
        """))
    assert "no Tile labelled 'Dog'" in run_scenario(tmp_path / "c.scenario.yaml").failures[0]
    (tmp_path / "d.scenario.yaml").write_text(textwrap.dedent("""\
        game: race.game
        moves: ["6"]
        expect:
          opponents:
            The robot: {Base: 4, total: 5}
        """))
    assert run_scenario(tmp_path / "d.scenario.yaml").passed
    (tmp_path / "e.scenario.yaml").write_text(textwrap.dedent("""\
        game: race.game
        moves: ["6"]
        expect:
          opponents:
            The robot: {Base: 3, total: 6}
            Nobody: {total: 0}
        """))
    failures = "\n".join(run_scenario(tmp_path / "e.scenario.yaml").failures)
    assert "line 'Base': expected 3, got 4" in failures and "line 'total': expected 6, got 5" in failures
    assert "no opponent 'Nobody'" in failures


# ---------------------------------------------------------------------------- rendering
def test_multi_line_cells_are_drawn_in_a_frame():
    lines = render_grid({"0,0": ["Mill\n2 points"], "1,0": ["wood"]})
    text = "\n".join(lines)
    assert "|Mill    |wood    |" in text and "|2 points|        |" in text and lines[1].startswith("      +")
    assert render_grid({"0,0": ["a"], "1,0": ["b"]})[1].split() == ["0", "a", "b"]     # one line: as before


def test_equal_components_of_a_pile_are_counted(tmp_path):
    game = load_game(make(tmp_path, FLIPPING.replace('else "back: {t.back}"', 'else "tile"')))
    st = game.setup_state(1, 1)
    for c in range(3):
        game.move(st, c, "pile_", None, False)
    assert "pile_: 3 x tile" in render_table(game, game.observe(st, 0))


def test_a_one_player_game_says_so_when_asked_for_more(tmp_path):
    from boardwright.dsl.errors import UsageError
    game = load_game(make(tmp_path, SOLO))
    with pytest.raises(UsageError, match=r"^Race is for 1 player, not 2$"):
        game.setup_state(2, 1)


def test_a_label_that_shows_its_own_component_through_a_function_does_not_loop(tmp_path):
    rules = FLIPPING.replace('label t: Tile = if up[t] then "{t.name} ({t.worth})" else "back: {t.back}"',
                             'fn shown(t: Tile) -> str = "[{t}]"\nlabel t: Tile = shown(t)')
    game = load_game(make(tmp_path, rules))
    st = game.new_state(1, 1)
    assert [o.label for o in game.decision(st).options] == ["[Ace]", "[Bee]", "[Cat]"]
