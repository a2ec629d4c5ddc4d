"""One named test per bug that issue 15 planted and the suite once let through, plus the
guarantees that hung on a single test. Each test here was run against its planted bug and
failed (docs/testing.md, "Honest tests", lists test -> bug). Expected values come from the
language reference (docs/language.md) and from the small rule files written below, never
from the engine's output."""
from __future__ import annotations

import itertools
import random
import textwrap
from collections import Counter

import pytest

from boardwright.dsl.errors import IllegalMove, RuleError, RuleFileError
from boardwright.dsl.loader import check_game
from boardwright.interpreter.bots.determinize import determinize
from boardwright.interpreter.testing.scenario import run_scenario

from conftest import SMALL_DATA, cached_game, make_small_game as make
from test_scenario_runner_expectations import WON, scenario

SIX = ["hearts 1", "hearts 2", "hearts 3", "spades 1", "spades 2", "spades 3"]


def labels(game, ids) -> list:
    return [game.labels[c] for c in ids]


# ---------------------------------------------------------------------------- 1. determinizing a `top` deck
def test_bot_determinizing_a_top_deck_does_not_see_the_order_below_the_top_card():
    """Point City's deck is `stack top`: everyone sees its top card, nobody the order
    below. Two states that differ only in that hidden order must determinize alike
    (the same bot seed), and the visible top card stays where it is."""
    game = cached_game("point-city")
    st = game.new_state(2, seed=3)
    deck = st.zones["deck"]
    assert game.zone_meta["deck"][1] == "top" and len(deck) > 10
    reordered = st.copy()
    # Reverse the hidden order within each tier: the deck is stacked by tier (the kind's
    # `back`), so which tier lies where is known; the order within a tier is not.
    below = reordered.zones["deck"][:-1]
    tier = [game.components[c]["tier"] for c in below]
    for t in set(tier):
        places = [i for i, x in enumerate(tier) if x == t]
        for i, c in zip(places, [below[i] for i in places][::-1]):
            reordered.zones["deck"][i] = c
    assert reordered.zones["deck"] != deck and reordered.zones["deck"][-1] == deck[-1]
    for seat in (0, 1):
        one = determinize(game, st, seat, random.Random(5))
        two = determinize(game, reordered, seat, random.Random(5))
        assert one.zones["deck"] == two.zones["deck"], "the determinized deck depends on the hidden order"
        assert one.zones["deck"][-1] == deck[-1], "the public top card moved"
        assert sorted(one.zones["deck"]) == sorted(deck)


def test_determinizing_keeps_every_visible_zone_and_resamples_the_rest():
    """Across the bundled games: zones the seat sees keep their order; a hidden stack keeps
    its contents but not (for some bot seed) its order."""
    for name in ("punto", "happy-city", "point-city", "urban-panic"):
        game = cached_game(name)
        st = game.new_state(game.max_players, seed=2)
        seat = 1
        reordered_somewhere = False
        for bot_seed in range(4):
            d = determinize(game, st, seat, random.Random(bot_seed))
            for key, zone in st.zones.items():
                if isinstance(zone, dict) or game.visible_to(key, seat):
                    assert d.zones[key] == zone, (name, key)
                else:
                    assert sorted(d.zones[key]) == sorted(zone), (name, key)
                    reordered_somewhere |= d.zones[key] != zone
        assert reordered_somewhere, name


# ---------------------------------------------------------------------------- 2. play --load and the variant
# (tests/test_save_load_roundtrips.py: test_a_saved_variant_game_resumes_as_that_variant)


# ---------------------------------------------------------------------------- 3. `==` between incompatible types
EQUALITY = """\
    game "Eq"
    players 2
    data "cards.yaml"
    zone deck: stack
    var n: int = 0
    play {
      for p in players {
        turn p {
          if %s { n = 1 }
        }
      }
    }
    """


@pytest.mark.parametrize("test, left, right, always", [
    ('p == "red"', "player", "str", "false"),
    ('p != "red"', "player", "str", "true"),
    ("n == (0, 0)", "int", "cell", "false"),
    ("top(deck) == 3", "Card", "int", "false"),
    ("n != true", "int", "bool", "true"),
])
def test_checker_reports_equality_between_incompatible_types(tmp_path, test, left, right, always):
    (tmp_path / "cards.yaml").write_text(SMALL_DATA)
    path = tmp_path / "eq.game"
    path.write_text(textwrap.dedent(EQUALITY % test))
    with pytest.raises(RuleFileError) as info:
        check_game(path)
    messages = [(d.span.line, d.message) for d in info.value.diagnostics]
    assert (9, f"comparing {left} with {right} is always {always}") in messages, messages


def test_checker_accepts_equality_between_compatible_types(tmp_path):
    (tmp_path / "cards.yaml").write_text(SMALL_DATA)
    path = tmp_path / "eq.game"
    path.write_text(textwrap.dedent(EQUALITY % "p == next(p) or n != 2 or top(deck) == top(deck)"))
    check_game(path)


# ---------------------------------------------------------------------------- 4. option index == number of options
HIGH_CARD = """\
    game "High card"
    players 2
    data "cards.yaml"
    zone hand: pile per player owner
    zone played: pile
    setup {
      let cards = components(Card)
      for i in range(3) { move cards[i] to hand[0]  move cards[i + 3] to hand[1] }
    }
    play {
      for p in players {
        turn p { choose c from contents(hand[p]) prompt "Play a card"  move c to played }
      }
    }
    """


def test_an_option_index_equal_to_the_number_of_options_is_refused(tmp_path):
    game = make(tmp_path, HIGH_CARD)
    st = game.new_state(2)
    assert len(st.pending.values) == 3            # three cards in seat 0's hand
    before = st.copy()
    for index in (3, 4, -1):
        with pytest.raises(IllegalMove, match="not a legal option"):
            game.apply(st, index)
        assert st == before
    game.apply(st, 2)                             # the last option is a legal index
    assert labels(game, st.zones["played"]) == ["hearts 3"]


def test_play_refuses_an_option_number_one_past_the_last(capsys, monkeypatch, tmp_path):
    import io
    import sys
    from boardwright.cli.main import main
    make(tmp_path, HIGH_CARD)
    # Seat 0 has three options, numbered 1 to 3: 4 is refused, 0 too, and 3 plays the third.
    monkeypatch.setattr(sys, "stdin", io.StringIO("4\n0\n3\n1\n"))
    code = main(["play", str(tmp_path / "g.game"), "--seats", "human,human"])
    out = capsys.readouterr().out
    assert code == 0
    assert "'4' is not one of the options: type 1 to 3" in out
    assert "'0' is not one of the options" in out
    assert "Traceback" not in out


def test_a_scenario_move_by_a_position_past_the_last_option_fails(tmp_path):
    path = tmp_path / "past.scenario.yaml"
    path.write_text("game: punto\nplayers: 2\nseed: 1\nmoves: [%d]\n" % 0)
    count = len(cached_game("punto").new_state(2, 1).pending.values)
    assert run_scenario(path).passed
    path.write_text("game: punto\nplayers: 2\nseed: 1\nmoves: [%d]\n" % count)
    outcome = run_scenario(path)
    assert not outcome.passed and "not a legal option" in outcome.failures[0]
    path.write_text("game: punto\nplayers: 2\nseed: 1\nmoves: [%d]\n" % (count - 1))
    assert run_scenario(path).passed


# ---------------------------------------------------------------------------- 5. a non-stacked cell twice
def grid_game(tmp_path, options: str, second_cell: str):
    return make(tmp_path, f"""\
        game "Grid"
        players 1
        data "cards.yaml"
        zone board: grid {options}
        play {{
          let cards = components(Card)
          move cards[0] to board at (0, 0)
          move cards[1] to board at {second_cell}
        }}
        """)


@pytest.mark.parametrize("options", ["size 3 x 3", "extent 3 x 3", ""])
def test_a_cell_of_a_non_stacked_grid_cannot_be_occupied_twice(tmp_path, options):
    game = grid_game(tmp_path, options, "(0, 0)")
    with pytest.raises(RuleError, match=r"cell \(0, 0\) of 'board' is occupied") as info:
        game.new_state(1)
    assert info.value.diagnostics[0].span.line == 8        # the second move
    other = grid_game(tmp_path, options, "(1, 0)").new_state(1)
    assert {cell: labels(game, stack) for cell, stack in other.zones["board"].items()} == \
        {(0, 0): ["hearts 1"], (1, 0): ["hearts 2"]}


def test_a_stacked_grid_takes_a_second_component_on_top(tmp_path):
    st = grid_game(tmp_path, "stacked size 3 x 3", "(0, 0)").new_state(1)
    game = grid_game(tmp_path, "stacked size 3 x 3", "(0, 0)")
    assert {cell: labels(game, stack) for cell, stack in st.zones["board"].items()} == \
        {(0, 0): ["hearts 1", "hearts 2"]}


# ---------------------------------------------------------------------------- 6. `move X to bottom of Z`
def test_move_to_bottom_of_puts_the_component_underneath(tmp_path):
    # components(Card) lists the cards in data order: hearts 1, 2, 3, spades 1, 2, 3.
    game = make(tmp_path, """\
        game "Bottom"
        players 1
        data "cards.yaml"
        zone deck: stack
        zone hand: pile
        setup {
          let cards = components(Card)
          for i in range(5) { move cards[i] to deck }
          move cards[5] to bottom of deck
          move top(deck) to bottom of deck
          move cards[0] to hand
          move cards[0] to bottom of deck
          move cards[3] to top of hand
          move [cards[1], cards[2]] to bottom of hand
        }
        play { }
        """)
    st = game.new_state(1)
    # The deck, bottom to top: h1 h2 h3 s1 s2; s3 goes underneath (s3 h1 h2 h3 s1 s2), then
    # the top card s2 (s2 s3 h1 h2 h3 s1); h1 leaves for the hand and comes back underneath
    # (h1 s2 s3 h2 h3 s1). Then s1 goes to the hand, and h2 and h3 together under it.
    assert labels(game, st.zones["deck"]) == ["hearts 1", "spades 2", "spades 3"]
    hand = labels(game, st.zones["hand"])
    assert sorted(hand[:2]) == ["hearts 2", "hearts 3"] and hand[2] == "spades 1"


# ---------------------------------------------------------------------------- 7. the runner and `winners:`
def test_scenario_runner_checks_winners(tmp_path):
    """Punto (rulebook): a line of five of your colour wins the round, two rounds win the
    match. Seat 0 (red and blue at 2 players) had one round and completes a red five."""
    path, line = scenario(tmp_path, WON, "winners", "[0]")
    assert run_scenario(path).passed
    for wrong in ("[1]", "[]", "[0, 1]"):
        path, line = scenario(tmp_path, WON, "winners", wrong)
        outcome = run_scenario(path)
        assert not outcome.passed, wrong
        assert f"winners: expected seats {wrong}, got [0]" in outcome.failures[0]
        assert f":{line}:3:" in outcome.failures[0]          # the `winners:` line


# ---------------------------------------------------------------------------- 8. `finish` stops the rules
FINISH = """\
    game "Finish"
    players 2
    data "cards.yaml"
    zone deck: stack
    var reached: int = 0
    var calls_ended: int = 0
    var loops_ended: int = 0
    proc deep(k: int) {
      for i in range(3) {
        reached += 1
        if reached == k { finish "stopped" }
      }
      calls_ended += 1
    }
    setup { for c in components(Card) { move c to deck } }
    play {
      while true {
        deep(%d)
        loops_ended += 1
      }
      loops_ended += 100
    }
    score p { "Reached": reached }
    """


@pytest.mark.parametrize("k", [1, 2, 5])
def test_finish_stops_the_rules_at_once_from_inside_a_loop_in_a_procedure(tmp_path, k):
    game = make(tmp_path, FINISH % k)
    st = game.new_state(2)
    assert st.finished and st.pending is None
    # deep() counts 3 a call: the calls before the one that reaches k ran to their end.
    assert st.vars["reached"] == k
    assert st.vars["calls_ended"] == st.vars["loops_ended"] == (k - 1) // 3
    assert list(st.endings) == ["stopped"]
    assert game.result(st).scores == (k, k)


def test_finish_ends_a_game_before_the_next_decision(tmp_path):
    game = make(tmp_path, """\
        game "Finish before choosing"
        players 2
        data "cards.yaml"
        zone deck: stack
        var chosen: int = 0
        setup { for c in components(Card) { move c to deck } }
        play {
          turn 0 { choose c from contents(deck)  chosen += 1 }
          finish
          turn 1 { choose c from contents(deck)  chosen += 1 }
        }
        """)
    st = game.new_state(2)
    assert st.pending.player == 0
    game.apply_index(st, 0)
    assert st.finished and st.pending is None and game.decision(st) is None
    assert st.vars["chosen"] == 1 and list(st.turns) == [1, 0]


# ---------------------------------------------------------------------------- guarantees on one test each
SHUFFLED = """\
    game "Shuffle"
    players 1
    data "cards.yaml"
    zone deck: stack
    zone later: stack
    setup {
      let cards = components(Card)
      for i in range(3) { move cards[i] to deck  move cards[i + 3] to later }
      shuffle deck
    }
    play {
      shuffle later
    }
    """


def test_shuffle_reaches_every_order_about_equally_often(tmp_path):
    """600 seeds shuffle three cards in setup and three in play: each of the 6 orders is
    expected 100 times; a shuffle that does nothing, always swaps the same way or ignores
    the seed puts all 600 on one or two orders. Bounds: 100 +- 45 (about 5 standard
    deviations of a binomial(600, 1/6), so a fair shuffle never trips them)."""
    game = make(tmp_path, SHUFFLED)
    setup_orders, play_orders = Counter(), Counter()
    for seed in range(600):
        st = game.new_state(1, seed)
        setup_orders[tuple(st.zones["deck"])] += 1
        play_orders[tuple(st.zones["later"])] += 1
    for orders, cards in ((setup_orders, [0, 1, 2]), (play_orders, [3, 4, 5])):
        assert set(orders) == set(itertools.permutations(cards))
        assert all(55 <= n <= 145 for n in orders.values()), orders


def test_shuffle_depends_on_the_seed_and_only_on_it(tmp_path):
    game = make(tmp_path, SHUFFLED)
    assert game.new_state(1, 7).zones == game.new_state(1, 7).zones
    assert len({tuple(game.new_state(1, s).zones["deck"]) for s in range(8)}) > 2
    # The play-time shuffle draws from the state's generator, where setup left it.
    orders = set()
    for change in range(8):
        st = game.setup_state(1, 4)
        st.rng ^= change * 0x9E3779B97F4A7C15 % 2**64
        orders.add(tuple(game.start(st).zones["later"]))
    assert len(orders) > 2


def test_the_bundled_decks_are_shuffled_by_the_seed():
    """Punto shuffles each deck, Happy City its building decks, Urban Panic its stacks:
    different seeds give different orders of the same cards."""
    for name, key in (("punto", "deck/0"), ("happy-city", "deck_light"), ("urban-panic", "stacks"),
                      ("point-city", "deck")):
        game = cached_game(name)
        a, b = game.setup_state(2, 1), game.setup_state(2, 2)
        assert len(a.zones[key]) == len(b.zones[key]) > 5 and a.zones[key] != b.zones[key], name


INVARIANTS = """\
    game "Invariants"
    players 1
    data "cards.yaml"
    zone deck: stack
    var a: int = 0
    var b: int = 0
    var c: int = 0
    setup { for x in components(Card) { move x to deck } }
    play { }
    invariant "first": a == 0
    invariant "second": b == 0
    invariant "third": c == 0
    """


@pytest.mark.parametrize("broken", [[], ["a"], ["b"], ["c"], ["a", "c"], ["a", "b", "c"]])
def test_every_invariant_is_checked_the_last_one_too(tmp_path, broken):
    game = make(tmp_path, INVARIANTS)
    st = game.new_state(1)
    for name in broken:
        st.vars[name] = 1
    titles = {"a": "first", "b": "second", "c": "third"}
    failing = game.failing_invariants(st)
    assert [title for title, _ in failing] == [titles[n] for n in broken]
    assert [span.line for _, span in failing] == [10 + "abc".index(n) for n in broken]


def test_the_scenario_runner_and_check_see_the_last_invariant(tmp_path):
    make(tmp_path, INVARIANTS)
    path = tmp_path / "last.scenario.yaml"
    path.write_text("game: g.game\nstate:\n  vars: {c: 1}\nexpect:\n  invariants: true\n")
    outcome = run_scenario(path)
    assert not outcome.passed and "invariant 'third'" in outcome.failures[0]
    path.write_text("game: g.game\nstate:\n  vars: {b: 0}\nexpect:\n  invariants: true\n")
    assert run_scenario(path).passed
    # `boardwright check` asks the same question after every step.
    from boardwright.interpreter.testing.check import PropertyFailed, invariant_properties
    game = make(tmp_path, INVARIANTS)
    st = game.new_state(1)
    invariant_properties(game, st)
    st.vars["c"] = 1
    with pytest.raises(PropertyFailed, match='invariant "third"'):
        invariant_properties(game, st)


OWNER = """\
    game "Hands"
    players 2..4
    data "cards.yaml"
    zone hand: pile per player owner
    zone open: pile per player
    zone deck: stack hidden
    setup {
      let cards = components(Card)
      for p in players { move cards[p] to hand[p] }
      move cards[5] to open[0]
      move cards[4] to deck
    }
    play { for p in players { turn p { choose c from contents(hand[p]) } } }
    """


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_seat_sees_its_own_owner_zone_and_no_other(tmp_path, players):
    game = make(tmp_path, OWNER)
    st = game.new_state(players)
    for viewer in list(range(players)) + [None]:
        zones = game.observe(st, viewer)["zones"]
        for owner in range(players):
            if owner == viewer:
                assert zones[f"hand/{owner}"] == [SIX[owner]]
            else:
                assert zones[f"hand/{owner}"] == {"size": 1}, (viewer, owner)
            assert game.visible_to(f"hand/{owner}", viewer) == (owner == viewer)
            assert zones[f"open/{owner}"] == (["spades 3"] if owner == 0 else [])
        assert zones["deck"] == {"size": 1}
        shown = repr(game.observe(st, viewer))
        for owner in range(players):
            assert (SIX[owner] in shown) == (owner == viewer), (viewer, owner)


def test_determinizing_keeps_the_seats_own_owner_zone_and_reorders_the_others(tmp_path):
    """Seat 1 cannot see seat 0's hand: its determinized copies reorder it; seat 0's copies
    never change seat 0's own hand."""
    game = make(tmp_path, OWNER.replace("move cards[p] to hand[p]",
                                        "move cards[p] to hand[p]  move cards[p + 2] to hand[p]"))
    st = game.new_state(2)
    assert labels(game, st.zones["hand/0"]) == ["hearts 1", "hearts 3"]
    seen_by_1 = {tuple(determinize(game, st, 1, random.Random(s)).zones["hand/0"]) for s in range(20)}
    assert len(seen_by_1) == 2 and all(sorted(h) == sorted(st.zones["hand/0"]) for h in seen_by_1)
    seen_by_0 = {tuple(determinize(game, st, 0, random.Random(s)).zones["hand/0"]) for s in range(20)}
    assert seen_by_0 == {tuple(st.zones["hand/0"])}
