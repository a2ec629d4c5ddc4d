"""Interpreter paths no other quick test reached, each with what a user sees: win rates per
bot in a sweep's measures, the bots' evaluation helpers at their edges, a rule error for a
field of none and for a turn of a player not at the table, and the labels of components
whose kind declares none."""
from __future__ import annotations

import math

import pytest

from boardwright.dsl.errors import RuleError
from boardwright.interpreter.bots.values import _logistic, leads
from boardwright.interpreter.playtest.intervals import measure_rows
from boardwright.interpreter.playtest.report import wilson

from conftest import SMALL_DATA, SMALL_HEADER, make_small_game, small_game_file


def record(bots, winners, first=0):
    return {"bots": bots, "winners": winners, "first_player": first, "turns": 4, "lead_changes": 0}


def test_seats_with_different_bots_get_a_win_rate_per_bot():
    # rotated seats: greedy wins both games it plays at seat 0 and loses at seat 1; a shared win is 1/2
    records = [record(["greedy", "random"], [0]), record(["random", "greedy"], [0]),
               record(["greedy", "random"], [0, 1]), record(["random", "greedy"], [1])]
    rows = measure_rows(records, 2)
    # greedy: 1 + 0 + 1/2 + 1 = 2.5 of 4 seats; random: 0 + 1 + 1/2 + 0 = 1.5 of 4
    assert rows["win rate greedy"] == (2.5 / 4, *wilson(2.5, 4))
    assert rows["win rate random"] == (1.5 / 4, *wilson(1.5, 4))
    assert list(rows)[:4] == ["win rate Player 1", "win rate Player 2", "win rate greedy", "win rate random"]
    same = measure_rows([record(["random", "random"], [0])], 2)
    assert "win rate random" not in same            # one bot at every seat: the seats' rates say it all


def test_leads_are_each_value_minus_the_mean_of_the_others():
    assert leads([3.0, 1.0, 2.0]) == [3 - 1.5, 1 - 2.5, 2 - 2]
    assert leads([7.0]) == [7.0]                    # alone: its own value


def test_the_logistic_of_a_huge_lead_is_certain_without_overflow():
    assert _logistic(0) == 0.5
    assert _logistic(1000.0) == 1.0 and _logistic(-1000.0) == 0.0      # math.exp(1000) would overflow
    assert _logistic(60.0) == pytest.approx(1.0) and _logistic(-60.0) == pytest.approx(math.exp(-60))


def play_to_error(tmp_path, rules: str) -> RuleError:
    game = make_small_game(tmp_path, SMALL_HEADER + rules)
    with pytest.raises(RuleError) as error:
        st = game.new_state(2, 1)
        while not st.finished:
            game.apply_index(st, 0)
    return error.value


def test_a_field_of_a_record_that_is_none_is_a_rule_error(tmp_path):
    err = play_to_error(tmp_path, """\
record Move { turn_no: int }
var latest: Move = none
play {
  turn 0 { choose n from [1, 2] }
  log "{latest.turn_no}"
}
""")
    assert "'.turn_no' of none" in str(err) and err.diagnostics[0].span.line == 8


def test_a_turn_of_a_player_not_at_the_table_is_a_rule_error(tmp_path):
    err = play_to_error(tmp_path, """\
var who: int = 5
play {
  turn who { choose n from [1, 2] }
}
""")
    assert "a turn for a player who is not at the table (5)" in str(err)


DATA = """\
provenance: test data
components:
  Tile:
    attributes: {name: str, size: int}
    items:
      - {name: Lake, size: 3}
  Chip:
    attributes: {size: int, worth: int}
    items:
      - {size: 2, worth: 9}
"""


def test_a_kind_without_a_label_is_shown_by_its_name_or_else_its_values(tmp_path):
    path = small_game_file(tmp_path, 'game "Tiny"\nplayers 2\ndata "cards.yaml"\nplay { turn 0 { choose n from [1] } }\n',
                           DATA)
    from boardwright.interpreter.compile.load import load_game
    game = load_game(path)
    assert [game.labels[c] for c in game.kind_ids["Tile"]] == ["Lake"]
    assert [game.labels[c] for c in game.kind_ids["Chip"]] == ["2 9"]


TEN_CARDS = SMALL_DATA.replace("rank: [1, 2, 3]", "rank: [1, 2, 3, 4, 5]")


@pytest.mark.parametrize("where", ["discard", "bottom of discard"])
def test_a_memoised_fn_sees_a_move_of_many_components_at_once(tmp_path, where):
    # Eight or more components moving between piles take the engine's bulk path (zones.move_all);
    # a memoised fn called before the move must not answer from its memo after it.
    from boardwright.interpreter.compile.load import load_game
    path = small_game_file(tmp_path, SMALL_HEADER + f"""\
zone deck: pile
zone discard: pile
fn in_deck() -> int = len([c for c in contents(deck)])     # a comprehension: memoised
setup {{
  move components(Card) to deck
}}
play {{
  log "{{in_deck()}}"
  move contents(deck) to {where}
  log "{{in_deck()}} {{len(contents(discard))}}"
}}
""", TEN_CARDS)
    assert load_game(path).new_state(2).log == ["10", "0 10"]
