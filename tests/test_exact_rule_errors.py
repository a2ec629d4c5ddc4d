"""Every rule error a game can stop with while it runs, shown whole and compared exactly: the
`FILE:LINE:COL: error: MESSAGE` line, the quoted rule line, the caret under the failing
expression, the call chain through fns and procs, the hint (docs/language.md "Diagnostics",
docs/cli.md "simulate"), and the limits of docs/security.md at their edge (N passes, N + 1
fails). Issue 26, round 10 (docs/testing.md "Round 10: out10b's area, exact outputs"):
mutants of the messages' words, their arguments and their numbers survived where tests
checked a message with `in`, or only its first line.

Expected texts are written here by hand from the rule text of each case (the line, the
column where the failing expression begins, its width) and from the message each rule
breaks; the body's line 1 is the file's line 4 (conftest.SMALL_HEADER).
"""
from __future__ import annotations

import textwrap

import pytest

from boardwright.dsl.errors import RuleError
from boardwright.interpreter.compile.load import load_game
from conftest import SMALL_HEADER, small_body_file


def shown(tmp_path, body: str, answers=(), players: int = 2, data: str | None = None) -> str:
    """The whole text of the rule error the game stops with (its file named g.game)."""
    path = small_body_file(tmp_path, body) if data is None else small_body_file(tmp_path, body, data)
    game = load_game(path)
    with pytest.raises(RuleError) as info:
        st = game.new_state(players, seed=1)
        for answer in answers:
            game.apply_index(st, answer)
        game.decision(st)           # options worked out when first asked for (Pending.later)
    return info.value.format().replace(str(path), "g.game")


def caret(line: str, part: str, nth: int = 0) -> str:
    """The rule line quoted and a caret under `part` (its nth appearance), as diagnostics show it."""
    start = -1
    for _ in range(nth + 1):
        start = line.index(part, start + 1)
    return f"    {line}\n    {' ' * start}{'^' * len(part)}"


def at(row: int, line: str, part: str, nth: int = 0) -> str:
    """`g.game:ROW:COL: error: ` for `part` of `line`."""
    start = -1
    for _ in range(nth + 1):
        start = line.index(part, start + 1)
    return f"g.game:{row}:{start + 1}: error: "


def error(row: int, line: str, part: str, message: str, *rest: str, nth: int = 0) -> str:
    """The whole text of a rule error at `part` of body line `line` (file line `row`)."""
    return "\n".join([at(row, line, part, nth) + message, caret(line, part, nth), *rest])


def last_statement_fails(tmp_path, declarations: str, statements: str, message: str, data: str | None = None):
    """`declarations`, then a play block of `statements` (indented by 2), whose last line stops
    the game with `message`, shown at that whole line."""
    body = declarations + "play {\n" + textwrap.indent(statements, "  ") + "\n}\n"
    row = 4 + body.count("\n") - 2
    line = "  " + statements.splitlines()[-1]
    assert shown(tmp_path, body, data=data) == error(row, line, line.strip(), message)


def test_a_rule_error_in_a_fn_names_the_fn_the_proc_and_the_play_line_that_called_it(tmp_path):
    """interpreter/run/rule_errors.py _with_callers: innermost first, each caller as FILE:LINE
    (in WHAT); runtime.py _divide: the message. Answer 0 makes n zero."""
    body = """\
        fn half(n: int) -> int = 10 // n
        proc step(n: int) { log "{half(n)}" }
        play {
          choose n from [0, 1] by 0
          step(n)
        }
        """
    assert shown(tmp_path, body, answers=[0]) == error(
        4, "fn half(n: int) -> int = 10 // n", "10 // n", "division by zero",
        "    called from g.game:5 (in proc step)", "    called from g.game:8 (in play)")


# (statements of play: the last one fails, and the caret is under it whole; the message)
MESSAGES = [
    ('let z = 0\nlog "{7 % z}"',
     'division by zero'),
    ('let k = 1\nlog "{[10, 20, 30][k - 5]}"',
     'index -4 out of range'),
    ('let n = 0 - 2\nlog "{[1, 2, 3][1:n]}"',
     'slice bound -2 is negative'),
    ('let w = "b"\nlet v = case w { "a": 1 }',
     "no case for 'b'"),
    ('let n = 7\nlet v = case n { 1: 10 }',
     'no case for 7'),
    ('let xs = ["ab", 1]\nlog "{xs[0] * 2}"',
     "'*' needs numbers, not a text and a number [E404]"),
    ('let xs = [[1], 1]\nlog "{xs[1] - xs[0]}"',
     "'-' needs numbers, not a number and a list [E404]"),
    ('let xs = [(0, 1), 1]\nlog "{xs[0] // 2}"',
     "'//' needs numbers, not a cell and a number [E404]"),
    ('let xs = ["a", 1]\nlog "{xs[1] < xs[0]}"',
     "'<' needs numbers, not a number and a text [E404]"),
    ('let xs = [none, 1, "a"]\nlog "{xs[0] * 2}"',
     "'*' needs numbers, not none and a number [E404]"),
    ('let xs = [R(a: 1), 1]\nlog "{xs[1] % xs[0]}"',
     "'%' needs numbers, not a number and another value [E404]"),
    ('let xs = [true, "a"]\nlog "{xs[1] >= xs[0]}"',
     "'>=' needs numbers, not a text and a number [E404]"),
    ('let xs = ["a", 1]\nlog "{xs[0] + xs[1]}"',
     "'+' needs numbers, not a text and a number [E404]"),
    ('turn 2 { log "never" }',
     'a turn for a player who is not at the table (2)'),
    ('choose x from [1, 2] by 4',
     "a choice for a player who is not at the table (player 5 in a 2-player game): 'by' names one of 'players'"),
    ('choose x from [1, 2]',
     "no player to make this choice: use 'by PLAYER' or a 'turn'"),
    ('let xs = [1]\nchoose x from xs[1:] by 0',
     "nothing to choose from for 'x'"),
    ('fail "the deck holds {1 + 2} cards"',
     'the deck holds 3 cards'),
    ('let xs = [1]\nlog "{max(xs[1:])}"',
     'max of an empty list'),
    ('let xs = [1]\nlog "{min(xs[1:])}"',
     'min of an empty list'),
    ('let xs = [1]\nlog "{first(xs[1:])}"',
     'first of an empty list'),
    ('let xs = [1]\nlog "{last(xs[1:])}"',
     'last of an empty list'),
    ('log "{turns_played(3)}"',
     'turns_played of a player who is not at the table (3)'),
    ('let xs = [1]\nlog "{xs[3]}"',
     'rule failed: an index out of range: past the end of a list'),
]


@pytest.mark.parametrize("statements, message", MESSAGES, ids=[m[1][:40] for m in MESSAGES])
def test_each_rule_error_of_a_statement_is_shown_whole_at_its_statement(tmp_path, statements, message):
    """runtime.py, builtins.py: each message word for word, at the line and column of the
    failing statement, a caret as wide as it (the statements are lines 6 on of the file). A
    list of several kinds of values is typed `any`: its items are checked as they are used
    (docs/security.md), each kind named (a bool is a number)."""
    last_statement_fails(tmp_path, "record R { a: int }\n", statements, message)


BAG = "zone bag: stack\nzone hand: stack per player\nzone board: grid size 3 x 2\nvar pick: Card = none\n"
DEALT = BAG + "setup { for c in components(Card) { move c to bag } }\n"

# (declarations, statements of play: the last one fails, the message)
ZONE_MESSAGES = [
    # interpreter/run/builtins.py
    (BAG, 'log "{top(bag)}"', "top of the empty zone 'bag'"),
    (BAG, 'log "{top(hand[1])}"', "top of the empty zone 'hand[1]'"),
    (BAG, 'log "{details(pick)}"', "details of none"),
    (BAG, 'let sides = ["north", "east"][1:]\nlog "{reachable(board, (0, 0), sides, true)}"',
     "reachable needs 4 side attributes (north, east, south, west), got 1 [E606]"),
    (BAG, 'let sides = ["rank", "suit", "rank"][1:]\nlog "{linked_groups(board, \\"rank\\", sides, true)}"',
     "linked_groups needs 4 side attributes (north, east, south, west), got 2 [E606]"),
    (DEALT, 'let sides = ["rank", "rank", "n", "rank", "rank"][1:]\nmove top(bag) to board at (0, 0)\n'
            'move top(bag) to board at (1, 0)\nlog "{reachable(board, (0, 0), sides, true)}"',
     "spades 3 has no attribute 'n' [E304]"),
    # none shown as the rules write it
    (BAG + "var n_none: int = none\nvar seat_none: player = none\n", 'log "{[1, 2][n_none]}"', "index none out of range"),
    (BAG + "var n_none: int = none\nvar seat_none: player = none\n", 'let v = case n_none { 1: 10 }', "no case for none"),
    (BAG + "var n_none: int = none\nvar seat_none: player = none\n", 'turn seat_none { log "never" }', "a turn for a player who is not at the table (none)"),
    (BAG + "var n_none: int = none\nvar seat_none: player = none\n", 'log "{turns_played(seat_none)}"', "turns_played of a player who is not at the table (none)"),
    # interpreter/run/zones.py
    (BAG, "move pick to bag", "cannot move none: not a component"),
    (DEALT, "move top(bag) to board at (0, 0) turned 1", "spades 3 has no shape: it lies in one orientation (turned 0), not 1"),
    (DEALT, "move top(bag) to board at (2, 1)\nmove top(bag) to board at (2, 1)",
     "cell (2, 1) of 'board' is occupied and the grid is not 'stacked'"),
    (DEALT, "move top(bag) to board at (3, 1)", "cell (3, 1) is outside the grid 'board'"),
    (DEALT, "move top(bag) to board at (0, 2)", "cell (0, 2) is outside the grid 'board'"),
    (DEALT, "move top(bag) to board at (0, 0 - 1)", "cell (0, -1) is outside the grid 'board'"),
]


@pytest.mark.parametrize("declarations, statements, message", ZONE_MESSAGES, ids=[m[2][:40] for m in ZONE_MESSAGES])
def test_each_rule_error_of_a_zone_or_a_built_in_is_shown_whole_at_its_statement(
        tmp_path, declarations, statements, message):
    """builtins.py, zones.py: each message word for word, naming the zone as the rules write
    it, the component by its label and the cell as the rules write it, at its statement."""
    last_statement_fails(tmp_path, declarations, statements, message)


@pytest.mark.parametrize("func, call", [
    ("reachable", 'reachable(board, (0, 0), ["rank", "rank", "rank"], true)'),
    ("linked_groups", 'linked_groups(board, "rank", ["rank", "rank", "rank"], true)'),
])
def test_a_written_side_list_of_three_is_refused_before_the_game_runs(tmp_path, func, call):
    """dsl/check_expressions.py attribute_names: a side list written with 3 names (each one an
    attribute) is an E606 error of `validate` at the list, for `linked_groups` as for
    `reachable` (it passed the checker and stopped the game when it ran)."""
    from boardwright.dsl.errors import RuleFileError
    line = f"  let v = {call}"
    path = small_body_file(tmp_path, BAG + "play {\n" + line + "\n}\n")
    with pytest.raises(RuleFileError) as info:
        load_game(path)
    sides = '["rank", "rank", "rank"]'
    assert [d.format().replace(str(path), "g.game") for d in info.value.diagnostics] == [
        error(9, line, sides, f"{func} needs 4 side attributes (north, east, south, west), got 3 [E606]")]


PIECES = """\
provenance: test data
enums:
  Colour: [red, blue]
components:
  Piece:
    label: "{colour} {name}"
    attributes: {colour: Colour, name: str}
    cell_attributes: {pips: int}
    items:
      - {colour: red, name: bar, shape: [{at: [0, 0], pips: 1}, {at: [1, 0], pips: 2}]}
      - {colour: blue, name: dot, shape: [{at: [0, 0], pips: 5}]}
"""
BOARD = ("zone board: grid of Piece size 3 x 2\nzone floating: grid of Piece extent 2 x 2\n"
         "zone bag: pile of Piece\nvar pick: Piece = none\nvar none_seat: player = none\n"
         "setup { move components(Piece) to bag }\n")
BAR = "first([q for q in contents(bag) if q.name == \"bar\"])"
DOT = "first([q for q in contents(bag) if q.name == \"dot\"])"

# (statements of play: the last one fails, the message)
SHAPE_MESSAGES = [
    # interpreter/run/shaped.py
    ('log "{turns(pick)}"', "none is not a component, so it has no shape"),
    (f'let b = {BAR}\nmove b to board at (0, 0) turned 4', "red bar has 4 orientations (0 to 3), not 4"),
    (f'let d = {DOT}\nmove d to board at (0, 0) turned 1', "blue dot has 1 orientation (0 to 0), not 1"),
    (f'let b = {BAR}\nlet d = {DOT}\nmove d to board at (1, 1)\nmove b to board at (0, 1)',
     "red bar does not fit at (0, 1): cell (1, 1) of 'board' is occupied and the grid is not 'stacked'"),
    (f'let b = {BAR}\nmove b to board at (2, 0)',
     "red bar does not fit at (2, 0) turned 0: it would reach outside the grid 'board'"),
    (f'let b = {BAR}\nmove b to board at (2, 1) turned 1',
     "red bar does not fit at (2, 1) turned 1: it would reach outside the grid 'board'"),
    (f'let b = {BAR}\nmove b to floating at (0, 0) turned 1\nmove {DOT} to floating at (2, 0)',
     "blue dot does not fit at (2, 0) turned 0: it would reach outside the grid 'floating'"),
    (f'let b = {BAR}\nlet p = first(placements_of(board, [b], [(1, 1)]))\nlog "{{cell_attr(p, (0, 0), \\"pips\\")}}"',
     "red bar laid at (0, 1) turned 0 does not cover (0, 0)"),
    (f'let b = {BAR}\nfail "{{first(placements_of(board, [b], [(1, 1)]))}} / {{[b][1:]}}"',
     "red bar at (0, 1) turned 0 / []"),
    ('let pieces = [pick]\nlog "{placements_of(board, pieces, [(0, 0)])}"',
     "none is not a component, so it has no shape"),
    ('let ways = ["orthogonal", "sideways"]\nlog "{neighbours((0, 0), ways[1])}"',
     "unknown adjacency 'sideways': use \"orthogonal\", \"diagonal\" or \"all\" [E606]"),
]


@pytest.mark.parametrize("statements, message", SHAPE_MESSAGES, ids=[m[1][:40] for m in SHAPE_MESSAGES])
def test_each_rule_error_of_a_piece_with_a_shape_is_shown_whole_at_its_statement(tmp_path, statements, message):
    """shaped.py: the piece by its label, the anchor, the orientation (0 when none is given),
    the grid as the rules name it; orientations counted in words (1 orientation, 4 orientations:
    the bar's two halves differ, docs/language.md "Cells with their own data")."""
    last_statement_fails(tmp_path, BOARD, statements, message, data=PIECES)


def test_an_operator_on_values_of_several_kinds_computes_what_numbers_give(tmp_path):
    """runtime.py _untyped: numbers (and bools, which are numbers) among other kinds of values
    are added, subtracted, compared and multiplied as numbers, each operand in its place
    (the mutant `_ORDERINGS[op](b)` of seed 301); two texts are joined. The
    values are shown by a `fail` (a bool as yes or no)."""
    body = """\
        play {
          let xs = [5, "ab"]
          let ys = [true, "ab"]
          fail "{xs[0] - 2} {ys[0] - xs[0]} {xs[0] < 6} {xs[0] < 5} {xs[0] > 4} {xs[0] > 5} {xs[0] >= 5} {xs[0] >= 6} {xs[0] <= 5} {xs[0] <= 4} {xs[0] * xs[0]} {xs[0] + ys[0]} {xs[1] + xs[1]} {xs[0] // 2} {xs[0] % 3}"
        }
        """
    line = textwrap.dedent(body).splitlines()[3]
    assert shown(tmp_path, body) == error(
        7, line, line.strip(), "3 -4 yes no yes no yes no yes no 25 6 abab 2 2")


# ---------------------------------------------------------------------------- the limits at their edge

def _runs(tmp_path, body: str):
    """None if the game runs to its first decision, else the message it stops with."""
    game = load_game(small_body_file(tmp_path, body))
    try:
        game.new_state(2, seed=1)
    except RuleError as caught:
        return caught.diagnostics[0].message
    return None


@pytest.mark.parametrize("last, message", [
    (999_999, None),
    (1_000_000, "a range of 1,000,001 items: at most 1,000,000 (the limit of docs/security.md)"),
])
def test_a_range_of_a_million_items_is_allowed_and_one_more_is_not(tmp_path, last, message):
    """limits.py MAX_ELEMENTS (docs/security.md: 1,000,000 items of one range)."""
    assert _runs(tmp_path, f"play {{\n  let r = range(0, {last} + 1)\n  choose x from [1, 2] by 0\n}}\n") == message


@pytest.mark.parametrize("extra, message", [
    (0, None),
    (1, "the rules did more than 5,000,000 items of work without a decision (the limit of docs/security.md): "
        "a list, range, comprehension, membership test or chain of fn calls is far too large"),
])
def test_five_million_items_of_work_are_allowed_and_one_more_is_not(tmp_path, extra, message):
    """limits.py MAX_WORK (docs/security.md: 5,000,000 items built between two decisions):
    five ranges of a million items each are the whole budget."""
    ranges = "".join(f"  let r{i} = range(1000000)\n" for i in range(5))
    more = f"  let s = range({extra})\n" if extra else ""
    assert _runs(tmp_path, f"play {{\n{ranges}{more}  choose x from [1, 2] by 0\n}}\n") == message


@pytest.mark.parametrize("digits_a, digits_b, message", [
    (500, 500, None),            # 10**499 * 10**499 = 10**998: 999 digits
    (500, 501, None),            # 10**999: 1,000 digits
    (501, 501, "an integer of more than 1,000 digits (the limit of docs/security.md)"),   # 1,001 digits
])
def test_a_product_of_a_thousand_digits_is_allowed_and_one_of_a_thousand_and_one_is_not(
        tmp_path, digits_a, digits_b, message):
    """limits.py MAX_INT_DIGITS (docs/security.md: 1,000 digits of an integer a product makes,
    of two values not written as one literal)."""
    a, b = "1" + "0" * (digits_a - 1), "1" + "0" * (digits_b - 1)
    body = f"play {{\n  let a = {a}\n  let b = {b}\n  let n = a * b\n  choose x from [1, 2] by 0\n}}\n"
    assert _runs(tmp_path, body) == message


@pytest.mark.parametrize("rounds, message", [
    (500, None),
    (501, "no decision after 500 steps: the rules seem to loop forever"),
])
def test_a_loop_of_as_many_rounds_as_the_step_limit_runs_and_one_more_round_does_not(
        tmp_path, monkeypatch, rounds, message):
    """codegen.py count_round (`_rounds > _STEP_LIMIT`): a loop inside one block may go
    round STEP_LIMIT times (lowered to 500 here, as in test_guards_rules.py)."""
    from boardwright.interpreter.run import engine
    game = load_game(small_body_file(tmp_path, f"var k: int = 0\nplay {{\n  while k < {rounds} {{ k += 1 }}\n"
                                                "  choose x from [1, 2] by 0\n}\n"))
    monkeypatch.setattr(engine, "STEP_LIMIT", 500)
    monkeypatch.setitem(game.namespace, "_STEP_LIMIT", 500)
    try:
        game.new_state(2, seed=1)
        found = None
    except RuleError as caught:
        found = caught.diagnostics[0].message
    assert found == message


def test_the_step_limit_is_shown_whole_with_its_hint_and_its_number_in_thousands(tmp_path, monkeypatch):
    """engine.py _loop_error: the number as docs/security.md writes it (2,000,000; lowered to
    1,500 here), at the loop that was running (docs/language.md "Step limit"), with what to
    check."""
    from boardwright.interpreter.run import engine
    body = "var k: int = 0\nplay {\n  while k >= 0 { k += 1 }\n}\n"
    game = load_game(small_body_file(tmp_path, body))
    monkeypatch.setattr(engine, "STEP_LIMIT", 1500)
    monkeypatch.setitem(game.namespace, "_STEP_LIMIT", 1500)
    with pytest.raises(RuleError) as caught:
        game.new_state(2, seed=1)
    line = "  while k >= 0 { k += 1 }"
    assert caught.value.format().replace(str(tmp_path / "g.game"), "g.game") == error(
        6, line, line.strip(), "no decision after 1,500 steps: the rules seem to loop forever",
        "    hint: check that every loop moves towards its end")


# ---------------------------------------------------------------------------- decisions

def test_two_options_with_one_written_id_are_a_rule_error_at_the_choose(tmp_path):
    """decisions.py written_ids: the shared id and the two options (counted from 1) that share
    it, at the choose; x % 2 gives 1, 0, 1."""
    line = '  choose x from [1, 2, 3] by 0 id "{x % 2}"'
    assert shown(tmp_path, "play {\n" + line + "\n}\n") == error(
        5, line, line.strip(), "two options have the id '1' (options 1 and 3): "
                               "the id clause of a choose must tell every option apart (without it, "
                               "equal ids are numbered: 'red-5', 'red-5#2')")


@pytest.mark.parametrize("seats, who", [
    ("[0, 5]", "player 6"), ("[0, 0 - 1]", "seat -1"), ("[0, none_seat]", "none")])
def test_a_sealed_choice_for_a_seat_not_at_the_table_names_the_seat(tmp_path, seats, who):
    """runtime.py _check_sealed_chooser (docs/language.md "choose ... by each"): a seat shown
    as a player (counted from 1), a negative seat as such, none as none."""
    line = f"  choose b from [1, 2] by each p in {seats}"
    assert shown(tmp_path, "var none_seat: player = none\nplay {\n" + line + "\n}\n") == error(
        6, line, line.strip(), f"a choice for a player who is not at the table ({who} in a 2-player game): "
                               "'by each' takes its seats from 'players'")


@pytest.mark.parametrize("count, more", [(12, ""), (13, " ...")])
def test_an_illegal_choice_lists_twelve_options_whole_and_says_when_there_are_more(tmp_path, count, more):
    """decisions.py option_index: the choice as given, the prompt, then `ID (LABEL)` of at most
    12 options, and " ..." only past 12."""
    from boardwright.dsl.errors import IllegalMove
    game = load_game(small_body_file(tmp_path, f'play {{ choose n from range({count}) by 0 prompt "Pick one" label "#{{n}}" }}\n'))
    st = game.new_state(2, seed=1)
    with pytest.raises(IllegalMove) as caught:
        game.apply(st, "99")
    listed = ", ".join(f"{i} (#{i})" for i in range(12))
    assert str(caught.value) == f"'99' is not a legal option for \"Pick one\"; options: {listed}{more}"


@pytest.mark.parametrize("decisions, stopped", [(1000, False), (1001, True)])
def test_a_game_may_take_as_many_decisions_as_the_limit_and_not_one_more(tmp_path, monkeypatch, decisions, stopped):
    """decisions.py DECISION_LIMIT (docs/security.md: 100,000 decisions in one game; lowered
    to 1,000 here): the message in thousands, at the choose of the last decision, with what to
    check."""
    from boardwright.interpreter.run import decisions as module
    monkeypatch.setattr(module, "DECISION_LIMIT", 1000)
    line = "  while true { choose x from [1, 2] by 0 }"
    game = load_game(small_body_file(tmp_path, "play {\n" + line + "\n}\n"))
    st = game.new_state(2, seed=1)
    for _ in range(decisions - 1):
        game.apply_index(st, 0)
    if not stopped:
        game.apply_index(st, 0)
        assert len(st.history) == 1000 and st.pending is not None
        return
    with pytest.raises(RuleError) as caught:
        game.apply_index(st, 0)
    part = "choose x from [1, 2] by 0"
    assert caught.value.format().replace(str(tmp_path / "g.game"), "g.game") == error(
        5, line, part, "the game did not end after 1,000 decisions; the last was made here",
        "    hint: check that the play block reaches its end or a 'finish' whatever the players choose")


# ---------------------------------------------------------------------------- through the commands

CHAIN = """\
    fn half(n: int) -> int = 10 // n
    proc step(n: int) { log "{half(n)}" }
    play {
      choose n from [0] by 0
      step(n)
    }
    """
CHAIN_ERROR = [
    "g.game:4:26: error: division by zero",
    "    fn half(n: int) -> int = 10 // n",
    "                             ^^^^^^^",
    "    called from g.game:5 (in proc step)",
    "    called from g.game:8 (in play)",
]


def test_simulate_shows_the_rule_error_whole_with_the_game_that_failed_and_test_replays_it(tmp_path, capsys, monkeypatch):
    """docs/cli.md "simulate": the rule line, the call chain, then the game's number, its seed
    (S * 1000003 + i: 1000003 for game 1 of seed 1), the decision and the choices so far (the
    only option, 0); `--out` writes them as a scenario, and `boardwright test` fails on it with
    the same error under the move that raised it (docs/scenarios.md)."""
    from conftest import run_main
    small_body_file(tmp_path, textwrap.dedent(CHAIN))
    monkeypatch.chdir(tmp_path)
    code, out, err = run_main(capsys, "simulate", "g.game", "--players", "2", "--games", "3", "--seed", "1",
                              "--out", "found.scenario.yaml", "--quiet")
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        "scenario written to found.scenario.yaml: replay it with 'boardwright test found.scenario.yaml'",
        *CHAIN_ERROR,
        "    in game 1 of the simulation (2 players, seed 1000003), at decision 1 (the choices so far: 0)"]
    code, out, err = run_main(capsys, "test", "found.scenario.yaml")
    assert code == 1
    assert (out + err).splitlines() == [
        "FAIL found.scenario.yaml: found by simulate: game 1, decision 1",
        "     found.scenario.yaml:7:3: error: unexpected error while playing move 1 ('0')",
        "         - '0'",
        "           ^^^",
        *("     " + line for line in CHAIN_ERROR),
        "0 passed, 1 failed"]


def test_an_integer_too_long_to_show_is_a_rule_error_in_the_languages_words(tmp_path):
    """builtins.py _in_rule_words: Python refuses to turn an integer of more than 4,300 digits
    into text; the rule error says so, pointing at docs/security.md. 2 ** 15000 (4,516
    digits) is made by doubling, which no limit counts (docs/security.md)."""
    body = "var x: int = 1\nplay {\n  for i in range(15000) { x = x + x }\n  log \"{x}\"\n}\n"
    line = '  log "{x}"'
    assert shown(tmp_path, body) == error(
        7, line, line.strip(), "rule failed: an integer of more than 4,300 digits cannot be shown (docs/security.md)")


def test_a_score_line_that_fails_is_a_rule_error_at_the_line(tmp_path):
    """game.py _line_values: a score line worked out when the game ends stops it with the
    message at the score line's declaration."""
    body = 'var xs: list of int = [1]\nplay { }\nscore p { "Total": xs[0] // (xs[0] - 1) }\n'
    game = load_game(small_body_file(tmp_path, body))
    st = game.new_state(2, seed=1)
    with pytest.raises(RuleError) as caught:
        game.result(st)
    line = 'score p { "Total": xs[0] // (xs[0] - 1) }'
    assert caught.value.format().replace(str(tmp_path / "g.game"), "g.game") == error(
        6, line, '"Total": xs[0] // (xs[0] - 1)', "division by zero")
