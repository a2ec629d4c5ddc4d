"""The interpreter on small rule files: decisions, state as data, visibility, rule errors."""
from __future__ import annotations

import json

import pytest

from boardwright.dsl.errors import IllegalMove, RuleError, UsageError
from boardwright.interpreter.run.state import State
from conftest import make_small_game as make


HIGH_CARD = """\
game "High card"
players 2..3
data "cards.yaml"
zone deck: stack hidden
zone hand: pile per player owner
zone played: pile
var total: int per player = 0
setup {
  for c in components(Card) { move c to deck }
  shuffle deck
  for p in players { move top(deck) to hand[p]  move top(deck) to hand[p] }
}
play {
  for p in players {
    turn p {
      choose c from contents(hand[p]) prompt "Play a card" label "{c} ({c.rank})"
      move c to played
      total[p] += c.rank
    }
  }
}
score p { "Ranks played": total[p] }
invariant "six cards": size(deck) + size(played) + sum([size(hand[p]) for p in players]) == 6
"""


def test_decisions_have_ids_labels_and_apply_by_either(tmp_path):
    game = make(tmp_path, HIGH_CARD)
    st = game.new_state(2, seed=5)
    d = game.decision(st)
    assert d.player == 0 and d.prompt == "Play a card"
    assert len(d.options) == 2
    first = d.options[0]
    assert first.label.endswith(f"({game.components[first.value]['rank']})")
    assert first.id == first.label.split(" (")[0].replace(" ", "-")
    game.apply(st, first.label)                 # by label
    d2 = game.decision(st)
    assert d2.player == 1
    game.apply(st, d2.options[1].id)            # by id
    assert st.finished
    result = game.result(st)
    assert result.scores[0] == game.components[first.value]["rank"]
    assert result.winners == tuple(p for p in (0, 1) if result.scores[p] == max(result.scores))


def test_illegal_move_is_refused_and_state_unchanged(tmp_path):
    game = make(tmp_path, HIGH_CARD)
    st = game.new_state(2, seed=5)
    before = st.copy()
    with pytest.raises(IllegalMove, match="not a legal option"):
        game.apply(st, "spades 99")
    with pytest.raises(IllegalMove):
        game.apply(st, 7)
    assert st == before


def test_player_count_outside_the_range_is_a_usage_error(tmp_path):
    game = make(tmp_path, HIGH_CARD)
    with pytest.raises(UsageError, match="2 to 3 players"):
        game.new_state(4)


def test_json_round_trip_is_exact_and_resumable(tmp_path):
    game = make(tmp_path, HIGH_CARD)
    st = game.new_state(3, seed=9)
    game.apply_index(st, 1)
    text = json.dumps(st.to_json())
    back = State.from_json(json.loads(text))
    assert back == st and back.loc == st.loc
    game.apply_index(back, 0)
    game.apply_index(st, 0)
    assert back == st


def test_copy_is_independent(tmp_path):
    game = make(tmp_path, HIGH_CARD)
    st = game.new_state(2, seed=1)
    twin = st.copy()
    game.apply_index(twin, 0)
    assert twin != st
    assert st.zones["played"] == [] and len(twin.zones["played"]) == 1
    assert st.vars["total"] == [0, 0]


def test_seed_decides_the_shuffle(tmp_path):
    game = make(tmp_path, HIGH_CARD)
    decks = {tuple(game.new_state(2, seed=s).zones["deck"]) for s in range(6)}
    assert len(decks) > 1
    assert game.new_state(2, seed=3).zones == game.new_state(2, seed=3).zones


def test_observation_hides_hidden_and_other_owners_zones(tmp_path):
    game = make(tmp_path, HIGH_CARD)
    st = game.new_state(2, seed=2)
    mine = game.observe(st, 0)
    theirs = game.observe(st, 1)
    assert mine["zones"]["deck"] == {"size": 2}
    assert isinstance(mine["zones"]["hand/0"], list) and len(mine["zones"]["hand/0"]) == 2
    assert mine["zones"]["hand/1"] == {"size": 2}
    assert theirs["zones"]["hand/0"] == {"size": 2}
    assert mine["decision"]["options"] and theirs["decision"]["options"] is None
    hidden = set(game.labels[c] for c in st.zones["deck"])
    assert not hidden & set(json.dumps(theirs).split('"'))


def test_invariants_are_evaluated(tmp_path):
    game = make(tmp_path, HIGH_CARD.replace("== 6", "== 5"))
    st = game.new_state(2, seed=2)
    failing = game.failing_invariants(st)
    assert [title for title, _ in failing] == ["six cards"]
    assert failing[0][1].line == HIGH_CARD.splitlines().index(
        next(l for l in HIGH_CARD.splitlines() if l.startswith("invariant"))) + 1


@pytest.mark.slow
def test_a_looping_rule_is_a_rule_error_with_its_location(tmp_path):
    game = make(tmp_path, """\
        game "Loop"
        players 1
        data "cards.yaml"
        var n: int = 0
        play {
          while true {
            n += 1
          }
        }
        """)
    with pytest.raises(RuleError) as info:
        game.new_state(1)
    diag = info.value.diagnostics[0]
    assert "loop" in diag.message and diag.span.line in (6, 7)


def test_runtime_problem_points_at_the_statement(tmp_path):
    game = make(tmp_path, """\
        game "Empty"
        players 1
        data "cards.yaml"
        zone deck: stack
        play {
          let c = top(deck)
        }
        """)
    with pytest.raises(RuleError) as info:
        game.new_state(1)
    diag = info.value.diagnostics[0]
    assert "empty zone 'deck'" in diag.message
    assert (diag.span.line, diag.span.column) == (6, 3)
    assert "let c = top(deck)" in info.value.format()


def test_grid_moves_respect_extent_and_stacking(tmp_path):
    game = make(tmp_path, """\
        game "Grid"
        players 1
        data "cards.yaml"
        zone board: grid extent 2 x 2
        play {
          let cards = components(Card)
          move cards[0] to board at (0, 0)
          move cards[1] to board at (1, 1)
          move cards[2] to board at (2, 0)
        }
        """)
    with pytest.raises(RuleError, match="outside the grid"):
        game.new_state(1)


def test_winners_tie_break_and_shared_victory(tmp_path):
    game = make(tmp_path, """\
        game "Ties"
        players 3
        data "cards.yaml"
        var points: int per player = 5
        var money: int per player = 0
        play { money[1] = 2  money[2] = 2 }
        score p { "Points": points[p] }
        tiebreak p { "Money": money[p] }
        """)
    st = game.new_state(3)
    assert st.finished
    assert game.result(st).winners == (1, 2)


def test_endless_recursion_is_a_rule_error_in_plain_words(tmp_path):
    game = make(tmp_path, """\
        game "Recursion"
        players 1
        data "cards.yaml"
        fn loop(n: int) -> int = loop(n + 1)
        play { log "{loop(1)}" }
        """)
    with pytest.raises(RuleError) as info:
        game.new_state(1)
    diag = info.value.diagnostics[0]
    # the failing line is the recursive call in the fn (line 4), called from itself and from play
    assert "call each other without end" in diag.message and diag.span.line == 4
    assert diag.called_from[-1].endswith("g.game:5 (in play)") and " times" in diag.called_from[0]
    assert len(diag.called_from) == 2
