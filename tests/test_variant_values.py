"""Bots value what the variant being played scores: a variant that replaces `score` but keeps
the base's heuristic is judged by the heuristic plus the variant's score beyond the base's,
in heuristic units a point (interpreter/compile/variant_values.py)."""
from __future__ import annotations

import textwrap

from boardwright.interpreter.bots.registry import make_bot
from boardwright.interpreter.compile.load import load_game
from conftest import SMALL_DATA

BASE = """\
    game "Ranks"
    players 2
    data "cards.yaml"
    zone hand: pile of Card per player
    play {
      for round in range(2) {
        for p in players {
          turn p {
            choose c from contents(supply) prompt "Take"
            move c to hand[p]
          }
        }
      }
    }
    fn ranks(p: player) -> int = sum([c.rank for c in contents(hand[p])])
    score p { "Ranks": ranks(p) }
    heuristic p = 3 * ranks(p) + size(hand[p])
    """

SPADES = """\
    variant "Spades" extends "g.game"
    score p {
      "Ranks": ranks(p)
      "Spades": 10 * len([c for c in contents(hand[p]) if c.suit == spades])
    }
    """


def _write(tmp_path, variant: str):
    (tmp_path / "cards.yaml").write_text(SMALL_DATA)
    (tmp_path / "g.game").write_text(textwrap.dedent(BASE))
    (tmp_path / "v.game").write_text(textwrap.dedent(variant))
    return load_game(tmp_path / "v.game")


def test_greedy_values_a_score_line_that_only_the_variant_has(tmp_path):
    game = _write(tmp_path, SPADES)
    st = game.new_state(2, seed=1)
    values = make_bot("greedy", 1, game).values(game, st)
    # The heuristic counts 3 a rank point, plus the number of cards: every random game ends
    # with two cards a hand, so the scale measured at the ends of games is exactly 3. A spade
    # is worth 10 points more in the variant: 30 heuristic units.
    cards = [game.components[c] for c in st.pending.values]
    assert values == [3 * c["rank"] + 1 + (30 if c["suit"] == "spades" else 0) for c in cards]
    assert game.heuristic.scale == [3.0]
    best = cards[make_bot("greedy", 1, game).choose(game, st)]
    assert best["suit"] == "spades" and best["rank"] == 3


def test_a_variant_that_restates_the_heuristic_is_judged_by_its_own(tmp_path):
    game = _write(tmp_path, SPADES + "heuristic p = ranks(p)\n")
    st = game.new_state(2, seed=1)
    values = make_bot("greedy", 1, game).values(game, st)
    assert values == [game.components[c]["rank"] for c in st.pending.values]


def test_a_variant_that_keeps_the_score_is_judged_by_the_heuristic_alone(tmp_path):
    game = _write(tmp_path, 'variant "Same" extends "g.game"\nplayers 2\n')
    st = game.new_state(2, seed=1)
    values = make_bot("greedy", 1, game).values(game, st)
    assert values == [3 * game.components[c]["rank"] + 1 for c in st.pending.values]
    assert not hasattr(game.heuristic, "scale")


def test_a_base_sheet_the_variant_makes_meaningless_leaves_the_heuristic_alone(tmp_path):
    # The variant turns the fn the base's sheet adds up into a bool: that sheet no longer
    # checks, which is no error of the variant's; the bots judge by the heuristic alone.
    base = BASE.replace('score p { "Ranks": ranks(p) }',
                        'fn bonus(p: player) -> int = 0\n    score p { "Ranks": ranks(p) + bonus(p) }')
    (tmp_path / "cards.yaml").write_text(SMALL_DATA)
    (tmp_path / "g.game").write_text(textwrap.dedent(base))
    (tmp_path / "v.game").write_text(textwrap.dedent("""\
        variant "No bonus" extends "g.game"
        fn bonus(p: player) -> bool = true
        score p { "Ranks": ranks(p) }
        """))
    game = load_game(tmp_path / "v.game")
    st = game.new_state(2, seed=1)
    assert not hasattr(game.heuristic, "scale")
    values = make_bot("greedy", 1, game).values(game, st)
    assert values == [3 * game.components[c]["rank"] + 1 for c in st.pending.values]
