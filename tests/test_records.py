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


# ----------------------------------------------------------------------------- tools
def test_the_editor_tools_know_records(tmp_path):
    from boardwright.cli.explain import explain
    from boardwright.cli.lsp import completions, hover_text
    from boardwright.dsl.formatter import format_checked
    from test_editors import GRAMMAR, _scopes_of
    path = small_body_file(tmp_path, "\n".join(RULES.splitlines()[3:]) + "\n")
    spec, _ = check_game(path)
    fields = {i.label: i.detail for i in completions(spec, None, "  let x = m.")}
    assert fields["where"] == "Placement.where: cell"
    assert fields["turn_no"] == "Placement.turn_no: int" and fields["right"] == "Pair.right: list of int"
    names = {i.label: i.detail for i in completions(spec, None, "  let x = ")}
    assert names["Placement"] == "record"
    assert "record Placement { card: Card, where: cell, turn_no: int }" in hover_text(spec, "Placement")
    assert hover_text(spec, "turn_no") == "field `turn_no` of record `Placement`: int"
    assert "choose" in hover_text(spec, "id") and "record NAME" in hover_text(spec, "record")
    text = explain(spec)
    assert "record Placement: card: Card, where: cell, turn_no: int" in text
    assert '(ids: "{m.card.rank}{m.card.suit}@{m.where.x}")' in text
    assert "Placement(turn_no: m.turn_no, where: (m.where.x + dx, m.where.y), card: m.card)" in text
    source = path.read_text()
    assert format_checked(source) == source
    messy = source.replace("record Pair { left: Placement, right: list of int }", "record Pair{left:Placement,\n"
                           "right :list of int,}").replace("\n        id ", "\n id ")
    assert format_checked(messy) == source.replace("record Pair { left: Placement, right: list of int }",
                                                   "record Pair { left: Placement,\n  right: list of int, }")
    import json
    grammar = json.loads(GRAMMAR.read_text(encoding="utf-8"))
    assert any(s.startswith("keyword") for s in _scopes_of("record", grammar))
    assert any(s.startswith("keyword") for s in _scopes_of("id", grammar))


# ----------------------------------------------------------------------------- scenarios
SCENARIO = """\
name: records and components in vars
game: g.game
players: 2
state:
  vars:
    latest: {latest}
    placed: [[{{card: hearts 1, where: {{cell: [0, 0]}}, turn_no: 0}}], []]
moves: ["2hearts@1"]
expect:
  vars:
    latest: {{card: hearts 2, where: {{cell: [11, 0]}}, turn_no: 1}}
    placed: [[{{card: hearts 1, where: {{cell: [0, 0]}}, turn_no: 0}}, {{card: hearts 2, where: {{cell: [1, 0]}}, turn_no: 1}}], []]
  options: ["1hearts@0", "2hearts@1", "3hearts@2"]
  log_includes: "Player 1 lays Placement(card: hearts 2, where: (1, 0), turn_no: 1)"
"""


def _scenario(tmp_path, latest: str, rules: str = RULES):
    from boardwright.interpreter.testing.scenario import run_scenario
    small_body_file(tmp_path, "\n".join(rules.splitlines()[3:]) + "\n")
    path = tmp_path / "s.scenario.yaml"
    path.write_text(SCENARIO.format(latest=latest))
    return run_scenario(path).failures


def test_a_scenario_sets_and_checks_record_vars(tmp_path):
    assert _scenario(tmp_path, "{card: spades 3, where: {cell: [4, 5]}, turn_no: 7}") == []
    # the expectation compares records field by field: a wrong turn number fails
    from boardwright.interpreter.testing.scenario import run_scenario
    path = tmp_path / "s.scenario.yaml"
    path.write_text(path.read_text().replace("cell: [11, 0]}, turn_no: 1}", "cell: [11, 0]}, turn_no: 2}"))
    [failure] = run_scenario(path).failures
    assert "vars: latest expected" in failure and "turn_no: 1)" in failure


@pytest.mark.parametrize("latest, message", [
    ("{card: spades 3, where: {cell: [4, 5]}}", "the Placement of 'latest' needs the field turn_no"),
    ("{card: spades 3, where: {cell: [4, 5]}, turn_no: 7, colour: red}", "Placement has no field 'colour'"),
    ("{card: spades 9, where: {cell: [4, 5]}, turn_no: 7}", "no Card is labelled 'spades 9'"),
    ("{card: spades 3, where: {cell: [4, 5]}, turn_no: seven}", "'latest' holds whole numbers, not `seven`"),
    ("7", "'latest' holds a Placement record: write a mapping of its fields {card: ..., where: ..., turn_no: ...}"),
])
def test_a_wrong_record_in_a_scenario_is_explained_at_its_line(tmp_path, latest, message):
    [failure] = _scenario(tmp_path, latest)
    assert message in failure and "s.scenario.yaml:6:" in failure, failure


def test_a_scenario_sets_a_component_var_by_label(tmp_path):
    from boardwright.interpreter.testing.scenario import run_scenario
    rules = RULES.replace("var same: bool = false", "var same: bool = false\nvar favourite: Card = none")
    small_body_file(tmp_path, "\n".join(rules.splitlines()[3:]) + "\n")
    path = tmp_path / "s.scenario.yaml"
    path.write_text("name: a card var\ngame: g.game\nplayers: 2\nstate:\n  vars: {favourite: Spades 2}\n"
                    "moves: []\nexpect:\n  vars: {favourite: spades 2}\n")
    assert run_scenario(path).failures == []
    path.write_text(path.read_text().replace("expect:\n  vars: {favourite: spades 2}", "expect:\n  vars: {favourite: spades 1}"))
    [failure] = run_scenario(path).failures
    assert "favourite expected 'spades 1'" in failure


def test_a_simultaneous_choice_of_records_uses_its_id_clause(tmp_path):
    path = small_body_file(tmp_path, """\
        record Bid { amount: int, bluff: bool }
        var bids: list of Bid = []
        play {
          choose b from [Bid(amount: a, bluff: f) for a in range(2) for f in [true, false]] by each q in players
            id "{b.amount}{b.bluff}" label "bid {b.amount}"
          bids = b
          log "{b[0]} / {b[1]}"
        }
        """)
    from boardwright.interpreter.compile.load import load_game
    game = load_game(path)
    st = game.new_state(2, seed=0)
    assert [o.id for o in game.decision(st).options] == ["0yes", "0no", "1yes", "1no"]
    st = game.apply(game.apply(st, "1yes"), "0no")
    assert st.history == ["1yes", "0no"] and st.vars["bids"] == [(1, True), (0, False)]
    assert st.log[-1] == "Bid(amount: 1, bluff: yes) / Bid(amount: 0, bluff: no)"


def test_set_refuses_a_record_param_in_words(tmp_path):
    from boardwright.dsl.errors import UsageError
    from boardwright.interpreter.compile.load import load_game
    game = load_game(small_body_file(tmp_path, """\
        record Start { seat: player, spot: cell }
        param origin = Start(seat: 1, spot: (2, 3))
        var n: int = 0
        play { n = origin.spot.x + origin.seat }
        """))
    assert game.new_state(2).vars["n"] == 3
    with pytest.raises(UsageError) as caught:
        game.set_params({"origin": "3"})
    assert str(caught.value).startswith("--set origin: 'origin' is a Start, which --set cannot give")


def test_records_with_equal_ids_are_numbered_alike_in_options_and_history(tmp_path):
    # two copies of each card: records of copies have the same fields' ids, so the ids are
    # numbered ('#2') in the options, and the history names the copy that was chosen
    data = "provenance: test\ncomponents:\n  Card:\n    label: \"card {rank}\"\n    attributes: {rank: int}\n" \
           "    items:\n      - product: {rank: [1, 2]}\n        copies: 2\n"
    path = small_body_file(tmp_path, """\
        record Pick { card: Card, bonus: int }
        zone deck: stack
        var picked: list of Pick = []
        setup { move components(Card) to deck }
        play {
          for p in players {
            turn p {
              choose m from [Pick(card: c, bonus: 0) for c in contents(deck)]
              picked = picked + [m]
            }
          }
        }
        """, data)
    from boardwright.interpreter.compile.load import load_game
    game = load_game(path)
    st = game.new_state(2, seed=0)
    assert [o.id for o in game.decision(st).options] == ["card-1/0", "card-1/0#2", "card-2/0", "card-2/0#2"]
    st = game.apply(st, "card-1/0#2")
    assert st.history == ["card-1/0#2"] and st.vars["picked"] == [(game.kind_ids["Card"][1], 0)]
    st = game.apply_index(st, 3)
    assert st.history == ["card-1/0#2", "card-2/0#2"]
