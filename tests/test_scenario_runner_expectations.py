"""The scenario runner tested against itself: for every kind of expectation the scenario
format supports (docs/scenarios.md, `expect`), the right value passes and a wrong value
fails, with a reason that names the expectation, what was expected and what was found, at
the line of the key. The right values are worked out from the rules, never copied from a
run: each position below says why.

A test at the end checks that this file covers every key of the format's schema, so a new
kind of expectation cannot be added without a test here."""
from __future__ import annotations

import textwrap

import pytest

from boardwright.interpreter.run import engine
from boardwright.interpreter.testing.scenario import run_scenario
from boardwright.interpreter.testing.scenario_file import SCHEMA

from conftest import SMALL_DATA

# Punto, 2 players (seat 0 plays red and blue, seat 1 green and yellow). The table holds a
# green 3; seat 0 covers it with blue 5 (higher), so seat 1 must now place its green 2. A
# green 2 cannot cover the blue 5, so its options are the 8 cells around (0, 0), all within
# the 6 x 6 extent. Nobody has won a round; round 1 is being played; each seat has begun
# one turn.
COVERED = """\
name: runner self-test
game: punto
players: 2
seed: 7
state:
  zones:
    table: {"0,0": [green 3]}
  top:
    deck/0: [blue 5, red 1]
    deck/1: [green 2]
moves: ["(0, 0) on green 3"]
"""
AROUND = ["-1,-1", "0,-1", "1,-1", "-1,0", "1,0", "-1,1", "0,1", "1,1"]

# Punto, 2 players: red 2, red 9, red 3, red 4 lie in a row and seat 0 has red 5 on top: a
# red five at (4, 0) or (-1, 0) wins the round (5 in a row of one of seat 0's colours).
# Seat 0 already won a round, so that move wins the match (2 round wins).
ABOUT_TO_WIN = """\
name: runner self-test
game: punto
players: 2
seed: 1
state:
  zones:
    table: {"0,0": [red 2], "1,0": [red 9], "2,0": [red 3], "3,0": [red 4]}
  top:
    deck/0: [red 5]
  vars: {wins: [1, 0]}
"""
WON = ABOUT_TO_WIN + 'moves: ["4,0"]\n'

# Point City's easy solo bot: 1 point per permanent resource symbol, 3 per civic token; the
# printed points of Wind Turbine and Hydro Dam are 1 each, the other cards 0
# (games/point-city/scenarios/solo-easy-scoring.scenario.yaml derives it from the rulebook).
SOLO = """\
name: runner self-test
game: point-city
variant: solo-easy
players: 1
seed: 1
state:
  zones:
    bot_city: [Solar Panels, Wind Turbine, Biogas Plant, Hydro Dam, Park, School]
    bot_tokens: [5 points, 7 points]
    bot_resources: [Town Hall, Wetland]
"""
BOT = '{"The bot": {Buildings: 2, Permanent resources: 5, Civic tokens: 6, Universal cards: 0, total: 13}}'

# (expectation, position, the right value, a wrong value, what the failure must say)
CASES = [
    ("player", COVERED, "1", "0", "player: expected seat 0 to choose, got 1"),
    ("prompt", COVERED, '"Place green 2"', '"Place red 1"', "prompt: expected 'Place red 1', got 'Place green 2'"),
    ("options", COVERED, str(AROUND), str(AROUND[:-1] + ["0,0"]), "options: expected ["),
    ("options", COVERED, str(AROUND[::-1]), str(AROUND[:-1]), "options: expected ["),
    ("options_include", COVERED, '["1,1", "-1,-1"]', '["1,1", "0,0"]', "options: expected '0,0' among the options: "),
    ("options_exclude", COVERED, '["0,0", "2,2"]', '["2,2", "1,1"]', "options: '1,1' should not be offered"),
    ("zones", COVERED, '{table: {"0,0": [green 3, blue 5]}, removed: []}', '{table: {"0,0": [blue 5, green 3]}}',
     "zones: table expected {'0,0': ['blue 5', 'green 3']}, holds {'0,0': ['green 3', 'blue 5']}"),
    ("zones", COVERED, '{table: {"0,0": [green 3, blue 5]}, removed: []}', "{removed: [red 9]}",
     "zones: removed expected ['red 9'], holds []"),
    ("zones", WON, '{removed: [red 9]}', "{removed: [red 5]}", "zones: removed expected ['red 5'], holds ['red 9']"),
    # blue 5 was played from the top of seat 0's deck: red 1, put under it, is on top now
    ("top", COVERED, "{deck/0: [red 1]}", "{deck/0: [blue 5]}",
     "top: deck/0 expected ['blue 5'] on top (top first), has ['red 1']"),
    ("vars", COVERED, "{wins: [0, 0], rounds: 1}", "{wins: [0, 0], rounds: 2}", "vars: rounds expected 2, is 1"),
    ("vars", COVERED, "{owner: {green 3: 1, blue 5: 0}}", "{owner: {green 3: 0}}",
     "vars: owner of green 3 expected 0, is 1"),
    ("turns", COVERED, "[1, 1]", "[1, 0]", "turns: expected [1, 0], got [1, 1]"),
    ("finished", COVERED, "false", "true", "finished: expected True, got False"),
    ("finished", WON, "true", "false", "finished: expected False, got True"),
    ("scores", WON, "[2, 0]", "[1, 0]", "scores: expected [1, 0], got [2, 0]"),
    ("lines", WON, "[{Rounds won: 2}, {Rounds won: 0}]", "[{Rounds won: 2}, {Rounds won: 1}]",
     "score line 'Rounds won' of seat 1: expected 1, got 0"),
    ("winners", WON, "[0]", "[1]", "winners: expected seats [1], got [0]"),
    ("winners", COVERED, "[]", "[0]", "winners: expected seats [0], got []"),
    ("log_includes", WON, '"wins round 1 with a line of red"', '"wins round 2"', "log: no line contains 'wins round 2'"),
    ("endings", WON, "[]", '["round guard"]', "endings: expected ['round guard'], got []"),
    ("opponents", SOLO, BOT, BOT.replace("Buildings: 2", "Buildings: 3"),
     "opponent 'The bot', line 'Buildings': expected 3, got 2"),
    ("opponents", SOLO, BOT, BOT.replace("total: 13", "total: 14"), "opponent 'The bot', line 'total': expected 14, got 13"),
    ("opponents", SOLO, BOT, '{"The robot": {total: 13}}', "opponents: no opponent 'The robot'; opponents: The bot"),
    ("bot_chooses", ABOUT_TO_WIN, '{bots: greedy, one_of: ["4,0", "-1,0"], seeds: 2}',
     '{bots: greedy, one_of: ["1,1", "0,-1"]}', "bot_chooses: greedy (seed 0) chose "),
    ("bot_chooses", ABOUT_TO_WIN, '{bots: greedy, one_of: ["4,0", "-1,0"]}', '{bots: greedy, one_of: ["9,9", "4,0"]}',
     "bot_chooses: '9,9' is not an option"),
    ("bot_chooses", WON, None, '{bots: greedy, one_of: ["4,0"]}', "bot_chooses: there is no decision to make"),
]


def scenario(tmp_path, position: str, key: str, value: str):
    """The position with one expectation; returns the path and the line of the key."""
    text = position + f"expect:\n  {key}: {value}\n"
    path = tmp_path / "self.scenario.yaml"
    path.write_text(text)
    return path, text.count("\n")


@pytest.mark.slow
@pytest.mark.parametrize("key, position, right, wrong, reason", CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_a_right_expectation_passes_and_a_wrong_one_fails_with_its_reason(tmp_path, key, position, right, wrong,
                                                                          reason):
    if right is not None:
        path, _ = scenario(tmp_path, position, key, right)
        outcome = run_scenario(path)
        assert outcome.passed, "\n".join(outcome.failures)
    path, line = scenario(tmp_path, position, key, wrong)
    outcome = run_scenario(path)
    assert not outcome.passed
    text = "\n".join(outcome.failures)
    assert reason in text, text
    assert f"self.scenario.yaml:{line}:3: error: " in text, text      # at the key's line


def test_a_right_options_list_may_name_labels_instead_of_ids(tmp_path):
    labels = '["(-1, -1)", "(0, -1)", "(1, -1)", "(-1, 0)", "(1, 0)", "(-1, 1)", "(0, 1)", "(1, 1)"]'
    path, _ = scenario(tmp_path, COVERED, "options", labels)
    assert run_scenario(path).passed
    path, _ = scenario(tmp_path, COVERED, "options", labels.replace('"(1, 1)"', '"(2, 2)"'))
    assert not run_scenario(path).passed


def test_every_failing_expectation_is_reported_not_only_the_first(tmp_path):
    path = tmp_path / "many.scenario.yaml"
    path.write_text(COVERED + "expect:\n  player: 0\n  turns: [2, 2]\n  finished: true\n  scores: [1, 1]\n")
    outcome = run_scenario(path)
    assert [f.split(": error: ")[1].split(":")[0] for f in outcome.failures] == \
        ["player", "finished", "turns", "scores"]


# ---------------------------------------------------------------------------- error
def test_an_expected_error_passes_when_raised_and_fails_otherwise(tmp_path):
    path = tmp_path / "error.scenario.yaml"
    path.write_text(COVERED.replace('moves: ["(0, 0) on green 3"]', 'moves: ["(0, 0) on green 3", "0,0"]')
                    + 'expect:\n  error: "not a legal option"\n')
    assert run_scenario(path).passed                # green 2 cannot cover blue 5
    path.write_text(path.read_text().replace('"not a legal option"', '"no such cell"'))
    outcome = run_scenario(path)
    assert not outcome.passed
    assert "expected an error containing 'no such cell', got one while playing move 2" in outcome.failures[0]
    path.write_text(COVERED + 'expect:\n  error: "not a legal option"\n')
    outcome = run_scenario(path)
    assert not outcome.passed
    assert "expected an error containing 'not a legal option', but none was raised" in outcome.failures[0]
    assert ":13:3: error: " in outcome.failures[0]


# ---------------------------------------------------------------------------- invariants
INVARIANT_GAME = """\
    game "Invariant"
    players 2
    data "cards.yaml"
    zone deck: stack
    var level: int = 0
    setup { for c in components(Card) { move c to deck } }
    play { turn 0 { choose c from contents(deck) } }
    invariant "level stays between 0 and 3": level >= 0 and level <= 3
    """


def test_invariants_true_passes_when_they_hold_and_fails_with_the_broken_one(tmp_path):
    (tmp_path / "cards.yaml").write_text(SMALL_DATA)
    (tmp_path / "g.game").write_text(textwrap.dedent(INVARIANT_GAME))
    path = tmp_path / "inv.scenario.yaml"
    path.write_text("game: g.game\nstate:\n  vars: {level: 3}\nexpect:\n  invariants: true\n")
    assert run_scenario(path).passed
    path.write_text("game: g.game\nstate:\n  vars: {level: 4}\nexpect:\n  invariants: true\n")
    outcome = run_scenario(path)
    assert not outcome.passed
    assert "invariant 'level stays between 0 and 3'" in outcome.failures[0] and "does not hold" in outcome.failures[0]
    assert "g.game:8" in outcome.failures[0] and "inv.scenario.yaml:5:3: error: " in outcome.failures[0]
    path.write_text("game: g.game\nstate:\n  vars: {level: 4}\nexpect:\n  invariants: false\n")
    assert run_scenario(path).passed                # `false` asks nothing


# ---------------------------------------------------------------------------- properties
def test_properties_true_passes_and_fails_when_a_view_shows_a_hidden_deck(tmp_path, monkeypatch):
    path = tmp_path / "props.scenario.yaml"
    path.write_text(COVERED + "expect:\n  properties: true\n")
    assert run_scenario(path).passed
    honest = engine.Game.observe

    def leaky(self, st, player):            # a planted engine bug: seat 0 sees seat 1's deck
        seen = honest(self, st, player)
        if player == 0 and "deck/1" in st.zones:
            seen["zones"]["deck/1"] = [self.labels[c] for c in st.zones["deck/1"]]
        return seen
    monkeypatch.setattr(engine.Game, "observe", leaky)
    outcome = run_scenario(path)
    assert not outcome.passed
    assert "property failed" in outcome.failures[0] and "player 0 sees the contents of 'deck/1'" in outcome.failures[0]
    assert "props.scenario.yaml:13:3: error: " in outcome.failures[0]


# ---------------------------------------------------------------------------- every key covered
def test_this_file_covers_every_kind_of_expectation():
    covered = {case[0] for case in CASES} | {"error", "invariants", "properties"}
    assert covered == set(SCHEMA["properties"]["expect"]["properties"])
