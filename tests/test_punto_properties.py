"""Hypothesis properties of Punto, checked in Python independently of the rule file's own
invariants. Hypothesis draws every choice, so a failure shrinks to a short game."""
from __future__ import annotations

from collections import Counter

import pytest

from hypothesis import given, settings
from hypothesis import strategies as strategies

from conftest import cached_game, examples

PROPERTY_SETTINGS = settings(max_examples=examples(20))
COLOURS = {2: [{"red", "blue"}, {"green", "yellow"}], 3: [{"red"}, {"blue"}, {"green"}],
           4: [{"red"}, {"blue"}, {"green"}, {"yellow"}]}


def every_card_once(game, st) -> bool:
    seen = Counter()
    for zone in st.zones.values():
        stacks = zone.values() if isinstance(zone, dict) else [zone]
        for stack in stacks:
            seen.update(stack)
    return sorted(seen) == list(range(72)) and set(seen.values()) == {1}


def within_extent(st) -> bool:
    cells = st.zones["table"]
    if not cells:
        return True
    xs, ys = [x for x, _ in cells], [y for _, y in cells]
    return max(xs) - min(xs) < 6 and max(ys) - min(ys) < 6


def covered_lower(game, st) -> bool:
    for stack in st.zones["table"].values():
        values = [game.components[c]["value"] for c in stack]
        if any(a >= b for a, b in zip(values, values[1:])):
            return False
    return True


def completed_line(game, st, length: int, players: int) -> bool:
    table = st.zones["table"]
    colour = {cell: game.components[stack[-1]]["colour"] for cell, stack in table.items()}
    owned = set().union(*COLOURS[players])
    for (x, y), c in colour.items():
        if c not in owned:
            continue
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            if all(colour.get((x + i * dx, y + i * dy)) == c for i in range(length)):
                return True
    return False


def play_with(data, players: int, steps: int):
    game = cached_game("punto")
    seed = data.draw(strategies.integers(0, 2**16), label="seed")
    st = game.new_state(players, seed)
    yield game, st
    for _ in range(steps):
        if st.finished:
            return
        n = len(st.pending.values)
        game.apply_index(st, data.draw(strategies.integers(0, n - 1), label="choice"))
        yield game, st


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(strategies.data(), strategies.sampled_from([2, 3, 4]))
def test_every_card_is_in_exactly_one_place(data, players):
    for game, st in play_with(data, players, 150):
        assert every_card_once(game, st)


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(strategies.data(), strategies.sampled_from([2, 3, 4]))
def test_table_never_exceeds_six_by_six(data, players):
    for game, st in play_with(data, players, 150):
        assert within_extent(st)


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(strategies.data(), strategies.sampled_from([2, 3, 4]))
def test_a_covered_card_is_always_lower(data, players):
    for game, st in play_with(data, players, 150):
        assert covered_lower(game, st)


def line_after_move(game, before, index: int, players: int) -> bool:
    """Whether placing the decision's card at the chosen cell completes a line of the
    mover's colour, worked out here from the table before the move."""
    p = before.pending.player
    card = before.zones[f"deck/{p}"][-1]
    spot = before.pending.values[index]
    after = before.copy()
    after.zones["table"] = {cell: list(stack) for cell, stack in before.zones["table"].items()}
    after.zones["table"].setdefault(spot, []).append(card)
    colour = game.components[card]["colour"]
    return colour in COLOURS[players][p] and completed_line(game, after, 5 if players == 2 else 4, players)


def check_round_ends_on_a_line(game, before, index: int, st, players: int) -> bool:
    """A move that completes a line ends the round at once with a round won by the mover
    (the match may end with it); returns whether the move completed one."""
    p = before.pending.player
    if not line_after_move(game, before, index, players):
        return False
    assert st.vars["wins"][p] == before.vars["wins"][p] + 1, "the line did not win the round"
    assert st.finished or st.vars["rounds"] == before.vars["rounds"] + 1, "play went on after the line"
    assert st.finished or not st.zones["table"], "the next round did not start from an empty table"
    return True


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(strategies.data(), strategies.sampled_from([2, 3, 4]))
def test_a_round_ends_on_its_first_completed_line(data, players):
    game = cached_game("punto")
    seed = data.draw(strategies.integers(0, 2**16), label="seed")
    st = game.new_state(players, seed)
    length = 5 if players == 2 else 4
    for _ in range(150):
        if st.finished:
            break
        assert not completed_line(game, st, length, players), "play went on past a completed line"
        before = st.copy()
        index = data.draw(strategies.integers(0, len(st.pending.values) - 1), label="choice")
        game.apply_index(st, index)
        check_round_ends_on_a_line(game, before, index, st, players)


def test_the_checks_themselves_detect_violations(punto):
    """The property checks above are not vacuous: each rejects a state that breaks it."""
    st = punto.new_state(2, 1)
    assert every_card_once(punto, st) and within_extent(st) and covered_lower(punto, st)
    broken = st.copy()
    broken.zones["deck/0"].append(broken.zones["deck/0"][0])
    assert not every_card_once(punto, broken)
    wide = st.copy()
    wide.zones["table"] = {(0, 0): [0], (6, 0): [1]}
    assert not within_extent(wide)
    red = [c for c in range(72) if punto.components[c]["colour"] == "red"]
    high_low = st.copy()
    high_low.zones["table"] = {(0, 0): [red[17], red[0]]}       # red 9 under red 1
    assert not covered_lower(punto, high_low)
    line = st.copy()
    line.zones["table"] = {(i, 0): [red[2 * i]] for i in range(5)}
    assert completed_line(punto, line, 5, 2)


def test_the_round_end_check_sees_a_completing_move_and_a_round_that_goes_on(punto):
    """Seat 0 has red 2, 9, 3, 4 in a row and red 5 on top of its deck: (4, 0) completes
    the five, any other cell does not. The check passes on the engine's real move, and fails
    on a copy of the state where the round went on (a planted `the line is ignored`)."""
    from boardwright.interpreter.testing.scenario import apply_starting_state
    st = punto.setup_state(2, 1)
    apply_starting_state(punto, st, {"zones": {"table": {"0,0": ["red 2"], "1,0": ["red 9"], "2,0": ["red 3"],
                                                         "3,0": ["red 4"]}},
                                     "top": {"deck/0": ["red 5"]}})
    punto.start(st)
    cells = list(st.pending.values)
    winning = cells.index((4, 0))
    elsewhere = cells.index((1, 1))
    assert not line_after_move(punto, st, elsewhere, 2)
    before, after = st.copy(), st.copy()
    punto.apply_index(after, winning)
    assert check_round_ends_on_a_line(punto, before, winning, after, 2)
    ignored = before.copy()
    ignored.pending = None
    ignored.zones["table"][(4, 0)] = [before.zones["deck/0"][-1]]
    with pytest.raises(AssertionError, match="did not win the round"):
        check_round_ends_on_a_line(punto, before, winning, ignored, 2)
