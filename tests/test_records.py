"""Records (`record NAME { field: type, ... }`): checked by the checker with positioned errors,
compiled as tuples of their fields in declaration order, usable in lists, `==`, fns, vars (per
player too), params and as `choose` options with an `id` clause; shown in labels and logs;
round-tripped through pickle (bot workers), state JSON (saves) and scenarios. Expected values
are written out by hand from the rules below."""
from __future__ import annotations

import json
import pickle

import pytest

from boardwright.dsl.errors import RuleError, RuleFileError
from boardwright.dsl.loader import check_game
from boardwright.interpreter.run import records
from boardwright.interpreter.run.state import State

from conftest import SMALL_HEADER, make_small_game, small_body_file

RULES = SMALL_HEADER + """\
record Placement { card: Card, where: cell, turn_no: int }
record Pair { left: Placement, right: list of int }
param origin = Placement(card: none, where: (0, 0), turn_no: 0)
zone deck: stack
var latest: Placement = none
var placed: list of Placement per player = []
var same: bool = false
var seen: bool = false
var second: int = 0
setup {
  move components(Card) to deck
}
fn shifted(m: Placement, dx: int) -> Placement =
  Placement(turn_no: m.turn_no, where: (m.where.x + dx, m.where.y), card: m.card)
play {
  for p in players {
    turn p {
      choose m from [Placement(card: contents(deck)[i], where: (i, p), turn_no: turns_played(p)) for i in range(3)]
        id "{m.card.rank}{m.card.suit}@{m.where.x}" label "{m.card} at {m.where}"
      latest = shifted(m, 10)
      placed[p] = placed[p] + [m]
      same = shifted(latest, -10) == m and m in placed[p] and origin != m
      seen = Pair(left: m, right: [1, 2]).left.where == m.where
      second = Pair(right: [5, 6], left: origin).right[1]
      log "{current} lays {m}"
    }
  }
}
score p { "Moves": len(placed[p]) }
"""


@pytest.fixture
def game(tmp_path):
    return make_small_game(tmp_path, RULES)


def test_records_are_built_read_compared_and_kept_in_vars(game):
    st = game.new_state(2, seed=1)
    options = game.decision(st).options
    # the deck holds the six cards in data order: hearts 1-3 first
    assert [o.id for o in options] == ["1hearts@0", "2hearts@1", "3hearts@2"]
    assert [o.label for o in options] == ["hearts 1 at (0, 0)", "hearts 2 at (1, 0)", "hearts 3 at (2, 0)"]
    st = game.apply(st, "2hearts@1")
    hearts2 = game.kind_ids["Card"][1]
    assert st.vars["latest"] == (hearts2, (11, 0), 1)          # where shifted by 10, turn 1
    assert st.vars["latest"].as_dict() == {"card": hearts2, "where": (11, 0), "turn_no": 1}
    assert st.vars["placed"][0] == [(hearts2, (1, 0), 1)] and st.vars["placed"][1] == []
    assert st.vars["same"] is True and st.vars["seen"] is True and st.vars["second"] == 6
    assert st.log[-1] == "Player 1 lays Placement(card: hearts 2, where: (1, 0), turn_no: 1)"
    assert st.vars["origin"] == (None, (0, 0), 0)


def test_the_id_clause_names_the_options_in_the_history(game):
    st = game.apply(game.new_state(2, seed=1), "3hearts@2")
    st = game.apply(st, 0)              # by position: the id is still the written one
    assert st.history == ["3hearts@2", "1hearts@0"]


def test_two_options_with_one_written_id_are_a_rule_error_naming_it(tmp_path):
    game = make_small_game(tmp_path, RULES.replace('id "{m.card.rank}{m.card.suit}@{m.where.x}"', 'id "{m.card.suit}"'))
    st = game.new_state(2, seed=1)
    with pytest.raises(RuleError) as caught:
        game.decision(st)
    message = caught.value.diagnostics[0].message
    assert "two options have the id 'hearts' (options 1 and 2)" in message
    with pytest.raises(RuleError):
        game.apply_index(st, 2)


def test_without_an_id_clause_a_record_option_id_joins_its_fields_ids(tmp_path):
    game = make_small_game(tmp_path, RULES.replace(' id "{m.card.rank}{m.card.suit}@{m.where.x}"', ''))
    ids = [o.id for o in game.decision(game.new_state(2, seed=1)).options]
    assert ids == ["hearts-1/0,0/1", "hearts-2/1,0/1", "hearts-3/2,0/1"]


def test_a_record_pickles_by_its_fields_even_where_its_class_is_not_known_yet(game):
    st = game.apply(game.new_state(2, seed=1), "2hearts@1")
    data = pickle.dumps(st)
    records._TYPES.clear()              # as in a fresh worker process
    back = pickle.loads(data)
    value = back.vars["latest"]
    assert value.as_dict() == st.vars["latest"].as_dict() and type(value).__name__ == "Placement"
    assert back == st and hash(value) == hash(st.vars["latest"])
    # a game whose record has other fields refuses the value instead of misreading it
    with pytest.raises(ValueError):
        records._rebuild("Placement", ("card", "where"), (1, (0, 0), 3))
    nxt = game.apply(back, 0)           # the unpickled state plays on
    assert nxt.vars["placed"][1] == [(game.kind_ids["Card"][0], (0, 1), 1)]


def test_a_record_survives_the_state_json_of_saves(game):
    st = game.apply(game.new_state(2, seed=1), "2hearts@1")
    text = json.dumps(st.to_json(), sort_keys=True)
    back = State.from_json(json.loads(text))
    assert back == st and back.vars["latest"].as_dict() == st.vars["latest"].as_dict()
    assert json.dumps(back.to_json(), sort_keys=True) == text


def test_the_play_screen_shows_record_vars_in_words(game):
    st = game.apply(game.new_state(2, seed=1), "1hearts@0")
    seen = game.observe(st, 0)["vars"]
    assert seen["latest"] == "Placement(card: hearts 1, where: (10, 0), turn_no: 1)"
    assert seen["placed"] == ["[Placement(card: hearts 1, where: (0, 0), turn_no: 1)]", "[]"]


# ----------------------------------------------------------------------------- checker
CHECKS = [
    # (declarations, a play body line, message, line, column)
    ("record P { a: int, b: cell }", "let v = P(a: 1, c: (0, 0))", "unknown field 'c' of record P", 6, 19),
    ("record P { a: int, b: cell }", "let v = P(a: 1)", "P(...) is missing the field 'b'", 6, 11),
    ("record P { a: int, b: cell }", "let v = P(a: 1, b: (0, 0), a: 2)", "field 'a' of P is given twice", 6, 30),
    ("record P { a: int, b: cell }", "let v = P(a: true, b: (0, 0))", "field 'a' of P should be int, not bool", 6, 16),
    ("record P { a: int, b: cell }", "let v = P(a: 1, b: (0, 0)).z", "unknown field 'z' of record P", 6, 30),
    ("record P { a: int, b: cell }", "let v = Q(a: 1)", "unknown record 'Q'", 6, 11),
    ("record P { a: int, b: cell }", "let v: P = (1, 2)", "the value of 'v' should be P, not cell", 6, 14),
    ("record Card { a: int }", "let v = 1", "'Card' is a component kind and cannot be redeclared as a record", 4, 1),
    ("record Suit { a: int }", "let v = 1", "'Suit' is an enum and cannot be redeclared as a record", 4, 1),
    ("record P { a: int, a: str }", "let v = 1", "field 'a' of record P is declared twice", 4, 20),
    ("record P { a: int }\nrecord P { b: int }", "let v = 1", "'P' is declared twice in this file", 5, 1),
    ("record P { a: Colour }", "let v = 1", "unknown type 'Colour'", 4, 15),
    ("record P { at: int }", "let v = 1", "'at' is a reserved word of the language and cannot name a record field", 4, 12),
    ("record list { a: int }", "let v = 1", "'list' is a reserved word of the language and cannot name a record", 4, 8),
]


@pytest.mark.parametrize("decls, line, message, at_line, at_column", CHECKS, ids=[c[2][:40] for c in CHECKS])
def test_the_checker_explains_a_wrong_record_at_its_place(tmp_path, decls, line, message, at_line, at_column):
    path = small_body_file(tmp_path, decls + "\nplay {\n  " + line + "\n}\n")
    with pytest.raises(RuleFileError) as caught:
        check_game(path)
    found = [d for d in caught.value.diagnostics if message in d.message]
    assert found, [d.message for d in caught.value.diagnostics]
    d = found[0]
    assert d.code, d.message
    assert (d.span.line, d.span.column) == (at_line, at_column), d.format()


def test_records_work_as_fn_params_returns_and_list_items(tmp_path):
    path = small_body_file(tmp_path, """\
        record Score { who: player, points: int }
        fn best(xs: list of Score) -> Score = xs[index_of([x.points for x in xs], max([x.points for x in xs]))]
        var leader: Score = none
        play {
          leader = best([Score(who: p, points: 10 - p * 3) for p in players])
          log "{leader.who} leads with {leader.points}"
        }
        """)
    from boardwright.interpreter.compile.load import load_game
    st = load_game(path).new_state(2, seed=0)
    assert st.vars["leader"] == (0, 10) and st.log[-1] == "Player 1 leads with 10"
