"""Decisions worked out lazily offer exactly what decisions worked out at once offer, on every
bundled game and both test beds, and bots choose the same either way; and a comprehension's
invariant part (a call that does not read the comprehension's variable: analysis.invariants)
is worked out once per list with the same values as once per element.

The eager engine is the same game with `_decide_later` replaced by the plain `_decide` (the
option values worked out where play stops, as setup does): an independent way to the same
decisions."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from boardwright.dsl.errors import RuleError
from boardwright.interpreter.bots.registry import make_bot
from boardwright.interpreter.compile.load import load_game
from boardwright.interpreter.run import runtime
from conftest import make_small_game

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
GAMES = [("punto", None, 2), ("punto", "team", 4), ("point-city", None, 2), ("point-city", "solo-easy", 1),
         ("happy-city", None, 2), ("happy-city", "beginner", 2), ("urban-panic", None, 2),
         ("urban-panic", "advanced", 2), ("urban-panic", "party", 2),
         (str(EXAMPLES / "polyomino"), None, 2), (str(EXAMPLES / "kingdom"), None, 2)]


def _eager(st, player, slot, site, source, evaluate):
    """`_decide_later` that works the options out at once (runtime._decide)."""
    runtime._decide(st, source(st, st.frames[-1][2]), player, slot, site)


def _decisions(game, players: int, seed: int, eager: bool, limit: int = 40) -> list:
    """(option ids, labels, values, prompt, player) at each decision of a seeded random game
    (at most `limit` decisions). Lazily: each read from a copy made before anything asked for
    the options, after the original moved on (the copy must keep its own position's)."""
    saved = game.namespace["_decide_later"]
    if eager:
        game.namespace["_decide_later"] = _eager
    try:
        rng = random.Random(seed)
        st = game.new_state(players, seed)
        seen = []
        while not st.finished and len(seen) < limit:
            before = st.copy()
            index = rng.randrange(len(st.pending.values))
            game.apply_index(st, index)
            decision = game.decision(before)
            seen.append(([o.id for o in decision.options], [o.label for o in decision.options],
                         [o.value for o in decision.options], decision.prompt, decision.player, index))
        return seen
    finally:
        game.namespace["_decide_later"] = saved


@pytest.mark.parametrize("name,variant,players", GAMES, ids=[f"{Path(g).name}-{v}" for g, v, _ in GAMES])
def test_a_lazy_decision_offers_what_an_eager_one_offers(name, variant, players):
    game = load_game(name, variant)
    for seed in (1, 2):
        lazy = _decisions(game, players, seed, eager=False)
        eager = _decisions(game, players, seed, eager=True)
        assert len(lazy) == len(eager) > 5
        for step, (a, b) in enumerate(zip(lazy, eager)):
            assert a == b, f"seed {seed}, decision {step + 1}"


def _bot_choices(game, players: int, spec: str, seed: int, eager: bool, moves: int = 4) -> list:
    """The choices of bot `spec` at the first positions of a game where it plays every seat."""
    saved = game.namespace["_decide_later"]
    if eager:
        game.namespace["_decide_later"] = _eager
    try:
        st = game.new_state(players, seed)
        bot = make_bot(spec, f"same:{seed}", game)
        chosen = []
        while not st.finished and len(chosen) < moves:
            chosen.append(bot.choose(game, st))
            game.apply_index(st, chosen[-1])
        return chosen
    finally:
        game.namespace["_decide_later"] = saved


@pytest.mark.parametrize("name,players", [("punto", 2), ("happy-city", 2), (str(EXAMPLES / "kingdom"), 2),
                                          pytest.param(str(EXAMPLES / "polyomino"), 2, marks=pytest.mark.slow)])
def test_bots_choose_the_same_whether_decisions_are_lazy_or_eager(name, players):
    game = load_game(name)
    for spec in ("greedy", "mcts:iterations=12"):
        assert (_bot_choices(game, players, spec, 3, eager=False)
                == _bot_choices(game, players, spec, 3, eager=True)), spec


# ------------------------------------------------------------------ invariant parts of comprehensions

KEPT = """\
    game "Kept"
    players 2
    data "cards.yaml"
    var points: int per player = 0
    var seen: list of int per player = []
    fn ranks() -> list of int = [c.rank for c in components(Card)]
    fn above(n: int) -> list of int = [r for r in ranks() if r > n]
    play {
      for round in range(3) {
        for p in players {
          turn p {
            choose c from contents(supply) prompt "Take"
            # the kept part, above(points[p]), changes from one round to the next
            seen[p] = seen[p] + [len([r for r in ranks() if r in above(points[p])])]
            points[p] = points[p] + c.rank
            # nested: the inner list's kept part reads the outer variable
            log "{p}: {[len([s for s in ranks() if s in above(r)]) for r in ranks()]}"
            # a generator (all) with a kept part
            if all([r in ranks() for r in above(points[p])]) {
              points[p] = points[p] + 0
            }
          }
        }
      }
    }
    score p { "Points": points[p] }
    """


def test_an_invariant_part_of_a_comprehension_is_worked_out_afresh_each_time_it_runs(tmp_path):
    game = make_small_game(tmp_path, KEPT)
    ranks = sorted(game.components[c]["rank"] for c in game.kind_ids["Card"])      # 1,1,2,2,3,3
    st = game.new_state(2, 1)
    points = [0, 0]
    expected = [[], []]
    while not st.finished:
        p = st.pending.player
        card = st.pending.values[0]
        expected[p].append(sum(1 for r in ranks if r > points[p]))
        points[p] += game.components[card]["rank"]
        game.apply_index(st, 0)
    assert st.vars["seen"] == expected
    nested = [sum(1 for s in ranks if s > r) for r in [game.components[c]["rank"] for c in game.kind_ids["Card"]]]
    assert st.log[-1] == f"Player 2: {nested}"


GUARDED = """\
    game "Guarded"
    players 2
    data "cards.yaml"
    var picks: list of int per player = []
    fn item(xs: list of int, i: int) -> int = xs[i]
    play {
      turn 0 {
        choose c from contents(supply) prompt "Take"
        # item(picks[0], 5) would fail, but the guard (false for every card) never lets it be worked out
        picks[0] = [r for r in [1, 2] if len(picks[0]) > 5 and item(picks[0], 5) == r]
      }
      turn 1 {
        choose d from contents(supply) prompt "Take"
        # over an empty list the failing part is never worked out either
        picks[1] = [r for r in picks[0] if item(picks[1], 3) == r]
      }
    }
    """


def test_an_invariant_part_is_worked_out_only_where_the_rules_would_reach_it(tmp_path):
    game = make_small_game(tmp_path, GUARDED)
    st = game.new_state(2, 1)
    game.apply_index(st, 0)
    game.apply_index(st, 0)
    assert st.finished and st.vars["picks"] == [[], []]


def test_an_invariant_part_that_fails_fails_at_its_own_line(tmp_path):
    game = make_small_game(tmp_path, GUARDED.replace("len(picks[0]) > 5 and ", ""))
    st = game.new_state(2, 1)
    with pytest.raises(RuleError) as info:
        game.apply_index(st, 0)
    assert info.value.diagnostics[0].span.line == 5      # the fn's line, called from line 10
    assert info.value.diagnostics[0].called_from
