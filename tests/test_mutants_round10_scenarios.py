"""Round 10, out10d's area (docs/testing.md "Round 10: out10d's area, exact outputs"): scenario
files' messages, whole. Every unmet expectation (what was expected, what happened) at its key,
bot puzzles, expected errors, the refusals of a starting state the game cannot hold and of keys
that are no names, each compared with `==` line by line on tiny games written here, whose
every figure is worked out from their rules. Shared helpers: tests/test_mutants_round10_playtest.py."""
from __future__ import annotations

import textwrap

import pytest

from test_mutants_round10_playtest import TINY, run, tiny  # noqa: F401 (tiny: a fixture)

# Cards of ranks 2, 2, 1, 3, 2 in data order (ids 0 to 4). `setup` stacks them on the deck in
# that order (id 4 on top), lays id 0 (a "card 2") face up on `shown`, and deals each seat the
# top card: seat 0 id 4 ("card 2"), seat 1 id 3 ("card 3"), a third seat id 2 ("card 1"). With
# two seats the deck keeps id 1 ("card 2") under id 2 ("card 1").
CARDS = """\
provenance: test
components:
  Card:
    label: "card {rank}"
    attributes: {rank: int}
    items:
      - {rank: 2}
      - {rank: 2}
      - {rank: 1}
      - {rank: 3}
      - {rank: 2}
"""

DEAL = """\
game "Little deal"
players 2..3
data "cards.yaml"
zone deck: stack hidden
zone hand: pile of Card per player owner
zone table: pile of Card
zone shown: pile of Card
var total: int per player = 0
var rounds: int = 0
setup {
  move components(Card) to deck
  move components(Card)[0] to shown
  for p in players {
    move top(deck) to hand[p]
    log "{p} is dealt a card"
  }
}
play {
  for p in players {
    turn p {
      choose c from contents(hand[p]) prompt "Play a card"
      total[p] += c.rank
      move c to table
      log "{p} plays {c}"
    }
  }
  finish "played out"
}
score p { "Points": total[p], "Cards": 0 }
invariant "the table holds at most one card": size(table) < 2
"""



@pytest.fixture
def deal(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cards.yaml").write_text(CARDS)
    (tmp_path / "deal.game").write_text(DEAL)
    return tmp_path



# ---------------------------------------------------------------------------- scenario files
def scenario(folder, name: str, text: str) -> str:
    (folder / name).write_text(textwrap.dedent(text))
    return name


def caret(line: int, column: int, quoted: str, width: int, file: str) -> list[str]:
    """A failure's position as `test` prints it: FILE:LINE:COL, the line, carets under it."""
    return [f"     {file}:{line}:{column}: error: ", f"           {quoted}", "           " + "^" * width]


def test_every_unmet_expectation_says_what_was_expected_and_what_happened_at_its_key(deal, capsys):
    """A 3-seat game where seat 0 played its "card 2": every expectation is wrong, and each
    failure is one whole message at its key (docs/scenarios.md): the options offered to seat 1
    (its one "card 3"), the seat to choose, the prompt, the game not over, the table's card, the
    hand of seat 1, the vars, the turns so far ([1, 1, 0]: seat 1's turn has begun), no ending
    yet, the scores, a score line and the winners as they stand. Kills any changed word of
    these messages (`"LINES"` of the key read, seed 1001's census)."""
    name = scenario(deal, "wrong.scenario.yaml", """\
        name: every expectation wrong
        game: deal.game
        players: 3
        moves: ["card 2"]
        expect:
          player: 0
          prompt: "Pass"
          options: ["card 9"]
          options_include: ["card 8"]
          options_exclude: ["card 3"]
          finished: true
          zones:
            table: [card 3]
            hand/1: [card 1]
          vars: {total: [1, 0, 0], rounds: 2}
          turns: [0, 0, 0]
          endings: ["played out"]
          log_includes: ["Player 1 plays"]
          scores: [9, 9, 9]
          lines: [{Points: 5}]
          winners: [2]
          invariants: true
        """)

    def at(line, key, message, quoted):
        head, shown, marks = caret(line, 3, quoted, len(key), name)
        return [head + message, shown, marks]

    options = 'options: ["card 9"]'
    vars_line = "vars: {total: [1, 0, 0], rounds: 2}"
    code, lines, err = run(capsys, "test", name)
    assert (code, err) == (1, "")
    assert lines == ["FAIL wrong.scenario.yaml: every expectation wrong",
                     *at(8, "options", "options: expected ['card 9'], offered card 3", options),
                     *at(8, "options", "options: expected 'card 8' among the options: card 3", options),
                     *at(8, "options", "options: 'card 3' should not be offered (options: card 3)", options),
                     *at(6, "player", "player: expected seat 0 to choose, got 1", "player: 0"),
                     *at(7, "prompt", "prompt: expected 'Pass', got 'Play a card'", 'prompt: "Pass"'),
                     *at(11, "finished", "finished: expected True, got False", "finished: true"),
                     *at(12, "zones", "zones: table expected ['card 3'], holds ['card 2']", "zones:"),
                     *at(12, "zones", "zones: hand/1 expected ['card 1'], holds ['card 3']", "zones:"),
                     *at(15, "vars", "vars: total expected [1, 0, 0], is [2, 0, 0]", vars_line),
                     *at(15, "vars", "vars: rounds expected 2, is 0", vars_line),
                     *at(16, "turns", "turns: expected [0, 0, 0], got [1, 1, 0]", "turns: [0, 0, 0]"),
                     *at(17, "endings", "endings: expected ['played out'], got []", 'endings: ["played out"]'),
                     *at(19, "scores", "scores: expected [9, 9, 9], got [2, 0, 0]", "scores: [9, 9, 9]"),
                     *at(20, "lines", "score line 'Points' of seat 0: expected 5, got 2", "lines: [{Points: 5}]"),
                     *at(21, "winners", "winners: expected seats [2], got [0]", "winners: [2]"),
                     "0 passed, 1 failed"]


def test_names_the_game_lacks_and_a_finished_game_are_unmet_expectations_at_their_key(deal, capsys):
    """Two seats, both cards played, the game over: a zone and a var the game lacks (with the
    names it has), the ending it had, the last log lines, an opponent sheet it lacks, a bot puzzle
    with no decision left (it pointed at the first key), and the broken invariant (two cards on
    the table) with the rule's place. `properties: true` holds."""
    name = scenario(deal, "over.scenario.yaml", """\
        name: more wrong expectations
        game: deal.game
        moves: ["card 2", "card 3"]
        expect:
          zones:
            tabel: [card 3]
          vars: {totl: 1}
          endings: ["ran out"]
          log_includes: nobody plays
          invariants: true
          properties: true
          opponents: {Bank: {total: 3}}
          bot_chooses: {one_of: ["card 1"], bots: random}
        """)

    def at(line, key, message, quoted):
        head, shown, marks = caret(line, 3, quoted, len(key), name)
        return [head + message, shown, marks]

    assert run(capsys, "test", name) == (1, [
        "FAIL over.scenario.yaml: more wrong expectations",
        *at(5, "zones", "zones: no zone 'tabel'; zones: deck, hand/0, hand/1, table, shown, supply (did you mean 'table'?)", "zones:"),
        *at(7, "vars", "vars: no variable 'totl'; variables: total, rounds", "vars: {totl: 1}"),
        *at(8, "endings", "endings: expected ['ran out'], got ['played out']", 'endings: ["ran out"]'),
        *at(9, "log_includes", "log: no line contains 'nobody plays'; log ends "       # its last 3 of 4 lines
            "['Player 2 is dealt a card', 'Player 1 plays card 2', 'Player 2 plays card 3']",
            "log_includes: nobody plays"),
        *at(12, "opponents", "opponents: no opponent 'Bank'; opponents: none", "opponents: {Bank: {total: 3}}"),
        *at(13, "bot_chooses", "bot_chooses: there is no decision to make",
            'bot_chooses: {one_of: ["card 1"], bots: random}'),
        *at(10, "invariants", "invariant 'the table holds at most one card' (deal.game:30:1) does not hold",
            "invariants: true"),
        "0 passed, 1 failed"], "")


def test_a_bot_puzzle_says_which_bot_chose_what_and_which_options_are_not_options(deal, capsys):
    """Seat 0's first decision offers only its "card 2" (id `card-2`): the puzzle's "card 3" is no
    option, and each seed of each bot chose card-2."""
    name = scenario(deal, "puzzle.scenario.yaml", """\
        name: a puzzle nobody solves
        game: deal.game
        expect:
          bot_chooses: {one_of: ["card 3"], bots: [random, greedy], seeds: 2}
        """)
    quoted = 'bot_chooses: {one_of: ["card 3"], bots: [random, greedy], seeds: 2}'
    failures = ["bot_chooses: 'card 3' is not an option (card-2)"] + [
        f"bot_chooses: {bot} (seed {seed}) chose card-2 (card 2); expected one of ['card 3']"
        for bot in ("random", "greedy") for seed in (0, 1)]
    lines = ["FAIL puzzle.scenario.yaml: a puzzle nobody solves"]
    for failure in failures:
        head, shown, marks = caret(4, 3, quoted, len("bot_chooses"), name)
        lines += [head + failure, shown, marks]
    assert run(capsys, "test", name) == (1, lines + ["0 passed, 1 failed"], "")


def test_an_expected_error_that_did_not_come_or_differs_and_an_unexpected_one(deal, capsys):
    """Whole failures of `error:`: none raised; another raised while playing move 2 (with the
    engine's own message after it); and a move not offered when no error was expected, pointed
    at the move. A file without `name:` is named by its file name."""
    none = scenario(deal, "none.scenario.yaml", """\
        name: an error expected
        game: deal.game
        moves: ["card 2"]
        expect:
          error: "not an option"
        """)
    other = scenario(deal, "other.scenario.yaml", """\
        game: deal.game
        moves: ["card 2", "card 9"]
        expect:
          error: "step limit"
        """)
    unexpected = scenario(deal, "unexpected.scenario.yaml", """\
        game: deal.game
        moves: ["card 2", "card 9"]
        """)
    engine = """     error: 'card 9' is not a legal option for "Play a card"; options: card-3 (card 3)"""
    assert run(capsys, "test", none, other, unexpected) == (1, [
        "FAIL none.scenario.yaml: an error expected",
        "     none.scenario.yaml:5:3: error: expected an error containing 'not an option', but none was raised",
        '           error: "not an option"',
        "           ^^^^^",
        "FAIL other.scenario.yaml: other.scenario.yaml",
        "     other.scenario.yaml:4:3: error: expected an error containing 'step limit', got one while playing "
        "move 2 ('card 9')",
        '           error: "step limit"',
        "           ^^^^^",
        engine,
        "FAIL unexpected.scenario.yaml: unexpected.scenario.yaml",
        "     unexpected.scenario.yaml:2:19: error: unexpected error while playing move 2 ('card 9')",
        '         moves: ["card 2", "card 9"]',
        "                           ^^^^^^^^",
        engine,
        "0 passed, 3 failed"], "")


def test_a_card_laid_out_is_taken_from_a_zone_nobody_sees(deal, capsys):
    """Laying a "card 2" on the table takes the one in the hidden deck (id 1), not the lower
    id 0 lying face up on `shown` nor seat 0's (docs/scenarios.md: "preferably one from a zone
    nobody sees"; seed 33: the hidden-first order dropped, `and False`)."""
    name = scenario(deal, "place.scenario.yaml", """\
        name: a card laid out comes from the deck
        game: deal.game
        state:
          zones:
            table: [card 2]
        expect:
          zones: {shown: [card 2], deck: [card 1], table: [card 2], hand/0: [card 2]}
        """)
    assert run(capsys, "test", name) == (0, ["PASS place.scenario.yaml: a card laid out comes from the deck",
                                             "1 passed, 0 failed"], "")


def test_scenario_position_plays_the_scenarios_players_seed_layout_and_moves(deal):
    """`scenario_position` (the tests' way to a scenario's position) seats `players` (seed 32:
    `"PLAYERS"` read the minimum, 2), lays out the state and plays the moves."""
    from boardwright.interpreter.compile.load import load_game
    from boardwright.interpreter.testing.scenario import scenario_position
    game = load_game("deal.game")
    st = scenario_position(game, {"players": 3, "seed": 5, "state": {"vars": {"rounds": 4}}, "moves": ["card 2"]})
    assert (st.players, st.vars["rounds"], st.vars["total"], st.pending.player) == (3, 4, [2, 0, 0], 1)
    assert [game.labels[c] for c in st.zones["hand/2"]] == ["card 1"]


def test_a_misspelt_key_is_refused_with_the_keys_and_a_did_you_mean(deal, capsys):
    """docs/scenarios.md's example of a misspelt key, whole: the known keys and the hint
    (seed 30: the hint dropped, `None`)."""
    name = scenario(deal, "key.scenario.yaml", """\
        name: bad key
        game: deal.game
        expect:
          winner: [0]
        """)
    keys = ("options, options_include, options_exclude, player, prompt, zones, top, vars, scores, lines, winners, "
            "finished, error, turns, log_includes, invariants, endings, properties, opponents, bot_chooses")
    assert run(capsys, "test", name) == (1, [
        "FAIL key.scenario.yaml: key.scenario.yaml",
        f"     key.scenario.yaml:4:3: error: scenario: unknown key 'winner' in expect; keys: {keys}",
        "           winner: [0]",
        "           ^^^^^^",
        "         hint: did you mean 'winners'?",
        "0 passed, 1 failed"], "")


def test_a_key_given_twice_or_not_a_name_is_refused_with_its_hint(deal, capsys):
    """Keys YAML reads as no name (`yes:` is true) and a key given twice: each at its place, in
    the scenario's words, with the hint that says what to do (seed 30: every hint dropped)."""
    name = scenario(deal, "keys.scenario.yaml", """\
        name: twice
        game: deal.game
        name: again
        expect:
          yes: 1
        """)
    assert run(capsys, "test", name) == (1, [
        "FAIL keys.scenario.yaml: keys.scenario.yaml",
        "     keys.scenario.yaml:3:1: error: scenario: the key 'name' is given twice",
        "         name: again",
        "         ^^^^",
        "         hint: first given at line 1",
        "     keys.scenario.yaml:5:3: error: scenario: the key 'yes' is not a name",
        "           yes: 1",
        "           ^^^",
        "         hint: quote it to make it a name",
        "0 passed, 1 failed"], "")


VALUES = """\
game "Values"
players 2
data "cards.yaml"
enum Suit { hearts, spades }
record Pick { card: Card, spot: cell, n: int }
zone deck: stack hidden
zone board: grid of Card
var flag: bool = false
var word: str = ""
var who: player = 0
var spot: cell = (0, 0)
var suit: Suit = hearts
var held: Card = none
var pick: Pick = none
var ranks: list of int = []
var mark: int per Card = 0
var total: int per player = 0
setup {
  move components(Card) to deck
}
play {
  turn 0 {
    choose n from [1]
  }
}
score p { "n": 0 }
"""

VARS = "flag, word, who, spot, suit, held, pick, ranks, mark, total"
WHOLE_PICK = "{card: ..., spot: ..., n: ...}"

# (the state's line, the text the carets stand under (its first place; the last for "m"), the
# message, the hint): each a value the game's declarations refuse, in the scenario's words.
BAD_STATES = [
    ("vars: {flag: 1}", "flag", "'flag' holds true or false, not `1`", ""),
    ("vars: {word: 3}", "word", "'word' holds texts, not `3` [E504]", ""),
    ("vars: {who: 2}", "who", "'who' holds seats, from 0 to 1, not `2`", ""),
    ("vars: {spot: [1, 2]}", "spot", "'spot' holds cells, written {cell: [x, y]}, not `[1, 2]`", ""),
    ("vars: {suit: clubs}", "suit", "'suit' holds Suit members (hearts, spades), not `clubs`", ""),
    ("vars: {held: card 7}", "held", "'held' holds a Card: no Card is labelled 'card 7'", "did you mean 'card 3'?"),
    ("vars: {held: 9}", "held", "'held' holds a Card, given by its label or its number (0 is the first component "
     "of the data), not `9`", ""),
    ("vars: {pick: 3}", "pick", f"'pick' holds a Pick record: write a mapping of its fields {WHOLE_PICK}, not `3`",
     ""),
    ("vars: {pick: {card: card 1, spot: {cell: [0, 0]}, m: 1}}", "m",
     "Pick has no field 'm'; fields: card, spot, n [E304]", ""),
    ("vars: {pick: {card: card 1}}", "pick", "the Pick of 'pick' needs the fields spot, n", f"write {WHOLE_PICK}"),
    ("vars: {pick: {card: card 1, n: 2}}", "pick", "the Pick of 'pick' needs the field spot", f"write {WHOLE_PICK}"),
    ("vars: {ranks: 3}", "ranks", "'ranks' holds a list of int: write a list, not `3`", ""),
    ("vars: {ranks: [1, x]}", "x", "'ranks' holds whole numbers, not `x`", ""),
    ("vars: {mark: 3}", "mark", "'mark' is an int per Card: write a mapping from Card labels to values, not `3`",
     "e.g. {LABEL: VALUE}"),
    ("vars: {mark: {card 9: 1}}", "card 9", "no Card labelled 'card 9' for the variable 'mark'",
     "did you mean 'card 3'?"),
    ("vars: {total: [1]}", "total", "'total' is an int per player: write a list of 2 values, one per seat, "
     "not `[1]`", ""),
    ("vars: {total: {card 1: 1}}", "total", "'total' is an int per player: write a list of 2 values, one per seat, "
     'not `{"card 1": 1}`', ""),
    ("vars: {totl: 1}", "totl", f"no variable 'totl'; variables: {VARS}", "did you mean 'total'?"),
    ('zones: {deck: {"0,0": [card 1]}}', "deck", "'deck' is a stack or pile: write its labels as a list, bottom "
     'to top, not `{"0,0": ["card 1"]}`', ""),
    ("zones: {board: [card 1]}", "board", "'board' is a grid: write it as a mapping from cells \"x,y\" to labels, "
     'not `["card 1"]`', 'e.g. {"0,0": [red 5]}; {} is an empty grid'),
    ('zones: {board: {"0,0,1": [card 1]}}', '"0,0,1"', "'board': a cell key is two integers `x,y`, got `0,0,1`", ""),
    ("zones: {deck: [card 1, card 1]}", "card 1]", "no free component labelled 'card 1'",
     "every component with this label is already placed elsewhere in the scenario"),
    ("zones: {deck: [card 8]}", "card 8", "no free component labelled 'card 8'", "did you mean 'card 3'?"),
    ("top: {board: [card 1]}", "board", "'top' needs a stack zone, not 'board'", ""),
    ("zones: {dek: [card 1]}", "dek", "no zone 'dek'; zones: deck, board, supply", "did you mean 'deck'?"),
]


@pytest.mark.parametrize("state, under, message, hint", BAD_STATES)
def test_a_starting_state_the_game_cannot_hold_is_refused_at_its_place_in_the_scenarios_words(
        tmp_path, monkeypatch, capsys, state, under, message, hint):
    """Every refusal of a laid-out value (scenario.py and scenario_values.py), whole: the place
    (the key, or the item), the message naming the var, its type and what to write, the hint."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cards.yaml").write_text(CARDS)
    (tmp_path / "values.game").write_text(VALUES)
    (tmp_path / "v.scenario.yaml").write_text(f"game: values.game\nstate:\n  {state}\n")
    quoted = "  " + state
    column = quoted.rindex(under) + 1 if under == "m" else quoted.index(under) + 1
    width = len(under.rstrip("]"))
    expected = ["FAIL v.scenario.yaml: v.scenario.yaml",
                f"     v.scenario.yaml:3:{column}: error: scenario: {message}",
                f"         {quoted}",
                "         " + " " * (column - 1) + "^" * width]
    assert run(capsys, "test", "v.scenario.yaml") == (
        1, expected + ([f"         hint: {hint}"] if hint else []) + ["0 passed, 1 failed"], "")


def test_an_invariant_that_raises_in_a_scenario_is_a_failure_with_the_rule_error_under_it(tiny, capsys):
    """`invariants: true` where the invariant itself fails with a rule error (an index past a
    one-item list once the first seat has a point): the failure at the key, then the rule error
    as the engine words it, indented under it (seed 1001's census: the failure split on
    `"XX\\nXX"` put the error's lines into the head)."""
    (tiny / "tiny.game").write_text(TINY.replace("pts[0] <= 1", "[1][pts[0]] == 1"))
    name = scenario(tiny, "raises.scenario.yaml", """\
        name: an invariant that raises
        game: tiny.game
        moves: ["1"]
        expect:
          invariants: true
        """)
    assert run(capsys, "test", name) == (1, [
        "FAIL raises.scenario.yaml: an invariant that raises",
        "     raises.scenario.yaml:5:3: error: invariants: a rule error while checking them:",
        "           invariants: true",
        "           ^^^^^^^^^^",
        "     tiny.game:27:1: error: rule failed: an index out of range: past the end of a list",
        '         invariant "points stay small": [1][pts[0]] == 1',
        "         " + "^" * len('invariant "points stay small": [1][pts[0]] == 1'),
        "0 passed, 1 failed"], "")


def test_a_bug_of_boardwrights_in_a_scenario_is_a_failure_that_says_so_and_the_run_goes_on(deal, capsys,
                                                                                          monkeypatch):
    """An exception of Boardwright's own while a scenario runs (planted in the expectations'
    check) is that scenario's failure, at the file's start, saying whose bug it is and asking for
    a report; the next scenario still runs (seed 1002: the sentence in `"XX...XX"`)."""
    from boardwright.interpreter.testing import scenario as module

    def broken(game, st, expect):
        raise RuntimeError("planted")
    monkeypatch.setattr(module, "check_expectations", broken)
    name = scenario(deal, "bug.scenario.yaml", """\
        name: a bug
        game: deal.game
        """)
    assert run(capsys, "test", name, "missing.scenario.yaml") == (2, [
        "FAIL bug.scenario.yaml: a bug",
        "     bug.scenario.yaml:1:1: error: internal error: RuntimeError: planted (a bug in Boardwright, not in this "
        "scenario; please report it)",
        "         name: a bug",
        "         ^",
        "FAIL missing.scenario.yaml: no such scenario file",
        "0 passed, 2 failed"], "")



def test_a_character_yaml_refuses_is_pointed_at_where_it_stands(deal, capsys):
    """A control character in a scenario: the reader's words, at its line and column (it was
    reported at 1:1 with the reader's own name for the text, `in "<unicode string>", position
    23`; seed 1002's survivor moved that fallback place unseen)."""
    (deal / "ctl.scenario.yaml").write_text("game: deal.game\nname: a\x01b\n")
    assert run(capsys, "test", "ctl.scenario.yaml") == (1, [
        "FAIL ctl.scenario.yaml: ctl.scenario.yaml",
        "     ctl.scenario.yaml:2:8: error: invalid YAML: unacceptable character #x0001: special characters are "
        "not allowed [E702]",
        "         name: a\\x01b",
        "                ^^^^",        # under the four columns of the escape
        "0 passed, 1 failed"], "")


def test_an_exclusion_with_a_word_no_option_uses_names_it_and_a_close_word_only_if_there_is_one(tmp_path):
    """scenario_options.never_offered: an `options_exclude` entry of an offered label's form whose
    word no option, component or player uses names that word, and adds a did-you-mean only when
    a known word is close (seed 34's survivor printed " (None)" after a word nothing is close to)."""
    from boardwright.interpreter.testing.scenario_options import never_offered
    from conftest import make_small_game
    game = make_small_game(tmp_path, """\
        game "Tiny"
        players 2
        data "cards.yaml"
        zone hand: pile of Card
        setup { move components(Card) to hand }
        play { choose c from contents(hand) by 0 }
        """)
    st = game.new_state(2, seed=1)
    labels = ["hearts 1", "hearts 2"]
    assert never_offered(game, st, "qqzzx 1", ["hearts-1", "hearts-2"], labels) == [
        "options_exclude: 'qqzzx 1' could never be offered here: no option, component or player uses "
        "the word 'qqzzx'"]
    assert never_offered(game, st, "heartz 1", ["hearts-1", "hearts-2"], labels) == [
        "options_exclude: 'heartz 1' could never be offered here: no option, component or player uses "
        "the word 'heartz' (did you mean 'hearts'?)"]
