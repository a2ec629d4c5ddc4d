"""Rule errors at run time: each impossible request docs/language.md promises to stop the
game does, with its message at the rule line (not a Python traceback).
"""
from __future__ import annotations

import pytest

from boardwright.dsl.errors import RuleError
from boardwright.interpreter.compile.load import load_game
from conftest import small_body_file

def build(tmp_path, body: str):
    return load_game(small_body_file(tmp_path, body))


def rule_error(tmp_path, body: str, answers=()):
    """The first diagnostic of the RuleError the game stops with (the body's line 1 is line 4)."""
    game = build(tmp_path, body)
    with pytest.raises(RuleError) as info:
        st = game.new_state(2, seed=1)
        for answer in answers:
            game.apply_index(st, answer)
    return info.value.diagnostics[0]


def test_an_attribute_of_none(tmp_path):
    diag = rule_error(tmp_path, """\
        zone board: grid
        play { let c = top_at(board, (0, 0))
        log "{c.rank}" }
        """)
    assert diag.message == "'.rank' of none"
    assert diag.span.line == 6


def test_an_attribute_of_a_parameter_that_is_none(tmp_path):
    diag = rule_error(tmp_path, """\
        fn rank_of(c: Card) -> int = c.rank
        play { log "{rank_of(none)}" }
        """)
    assert diag.message == "'.rank' of none"


def test_an_attribute_of_the_top_of_an_empty_cell(tmp_path):
    diag = rule_error(tmp_path, """\
        zone board: grid
        play { log "{top_at(board, (1, 1)).rank}" }
        """)
    assert diag.message == "'.rank' of none"


@pytest.mark.parametrize("index, message", [
    ("3", "rule failed: an index out of range: past the end of a list"),
    ("0 - 1", "index -1 out of range"),
])
def test_an_index_outside_the_list(tmp_path, index, message):
    diag = rule_error(tmp_path, f"""\
        play {{
          let xs = [10, 20, 30]
          let i = {index}
          log "{{xs[i]}}"
        }}
        """)
    assert diag.message == message
    assert diag.span.line == 7


def test_an_index_of_none(tmp_path):
    diag = rule_error(tmp_path, """\
        var pick: int = none
        play { log "{[1, 2][pick]}" }
        """)
    assert diag.message == "index None out of range" or diag.message == "index none out of range"


def test_a_negative_slice_bound(tmp_path):
    diag = rule_error(tmp_path, """\
        play {
          let n = 0 - 1
          let tail = [1, 2, 3][n:]
          log "{tail}"
        }
        """)
    assert diag.message == "slice bound -1 is negative"
    assert diag.span.line == 6


@pytest.mark.parametrize("op", ["//", "%"])
def test_division_by_zero(tmp_path, op):
    diag = rule_error(tmp_path, f"""\
        play {{
          let zero = 0
          log "{{7 {op} zero}}"
        }}
        """)
    assert diag.message == "division by zero"
    assert diag.span.line == 6


def test_a_case_without_a_matching_arm(tmp_path):
    diag = rule_error(tmp_path, """\
        play {
          let n = 3
          let worth = case n { 1: 10, 2: 20 }
          log "{worth}"
        }
        """)
    assert diag.message == "no case for 3"


def test_assigning_past_the_end_of_a_per_player_var(tmp_path):
    diag = rule_error(tmp_path, """\
        var points: int per player = 0
        play {
          let seat = 5
          points[seat] = 1
        }
        """)
    assert diag.message == "index 5 out of range for 'points'"
    assert diag.span.line == 7


def test_a_turn_for_a_player_not_at_the_table(tmp_path):
    diag = rule_error(tmp_path, """\
        play { turn 2 { log "never" } }
        """)
    assert diag.message == "a turn for a player who is not at the table (2)"


def test_a_choice_by_a_player_not_at_the_table(tmp_path):
    diag = rule_error(tmp_path, """\
        play { choose x from [1, 2] by 4 prompt "Pick" }
        """)
    assert diag.message == ("a choice for a player who is not at the table (player 5 in a 2-player game): "
                            "'by' names one of 'players'")


def test_a_choice_outside_a_turn_needs_a_player(tmp_path):
    diag = rule_error(tmp_path, """\
        play { choose x from [1, 2] prompt "Pick" }
        """)
    assert diag.message == "no player to make this choice: use 'by PLAYER' or a 'turn'"


@pytest.mark.parametrize("options", ["[1, 2]", "[1, 1, 2]", "[[1], [1], [2]]"])
def test_setup_runs_without_choices(tmp_path, options):
    diag = rule_error(tmp_path, f"""\
        proc pick() {{ choose x from {options} by 0 prompt "Pick" }}
        setup {{ pick() }}
        play {{ }}
        """)
    assert diag.message == "setup runs without choices: make this choice at the start of 'play'"


def test_repeated_options_are_offered_once_in_first_seen_order(tmp_path):
    game = build(tmp_path, """\
        play { turn 0 { choose x from [3, 1, 3, 2, 1] prompt "Pick" } }
        """)
    st = game.new_state(2, seed=1)
    assert [o.value for o in game.decision(st).options] == [3, 1, 2]


def test_repeated_list_options_are_offered_once(tmp_path):
    game = build(tmp_path, """\
        play { turn 0 { choose xs from [[1, 2], [3], [1, 2]] prompt "Pick" } }
        """)
    st = game.new_state(2, seed=1)
    assert [list(o.value) for o in game.decision(st).options] == [[1, 2], [3]]


def test_the_log_keeps_its_latest_entries(tmp_path):
    game = build(tmp_path, """\
        play {
          for i in range(250) { log "line {i}" }
          turn 0 { choose x from [1, 2] prompt "Pick" }
        }
        """)
    st = game.new_state(2, seed=1)
    # The log is capped: past 200 entries the oldest 100 go, so 250 lines leave 150.
    assert st.log[-1] == "line 249"
    assert len(st.log) == 150
    assert st.log[0] == "line 100"


def test_an_index_computed_below_zero(tmp_path):
    diag = rule_error(tmp_path, """\
        play {
          let k = 1
          log "{[10, 20, 30][k - 5]}"
        }
        """)
    assert diag.message == "index -4 out of range"


def test_an_attribute_of_a_computed_none(tmp_path):
    diag = rule_error(tmp_path, """\
        zone bag: stack
        setup { for c in components(Card) { move c to bag } }
        play {
          let k = 1
          log "{(if k > 0 then none else top(bag)).rank}"
        }
        """)
    assert diag.message == "'.rank' of none"
    assert diag.span.line == 8
