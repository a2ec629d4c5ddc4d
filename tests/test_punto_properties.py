"""Hypothesis properties of Punto, checked in Python independently of the rule file's own
invariants. Hypothesis draws every choice, so a failure shrinks to a short game."""
from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as strategies

from conftest import cached_game

PROPERTY_SETTINGS = settings(max_examples=8, deadline=None, derandomize=True, database=None,
                             suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
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


@PROPERTY_SETTINGS
@given(strategies.data(), strategies.sampled_from([2, 3, 4]))
def test_every_card_is_in_exactly_one_place(data, players):
    for game, st in play_with(data, players, 150):
        assert every_card_once(game, st)


@PROPERTY_SETTINGS
@given(strategies.data(), strategies.sampled_from([2, 3, 4]))
def test_table_never_exceeds_six_by_six(data, players):
    for game, st in play_with(data, players, 150):
        assert within_extent(st)


@PROPERTY_SETTINGS
@given(strategies.data(), strategies.sampled_from([2, 3, 4]))
def test_a_covered_card_is_always_lower(data, players):
    for game, st in play_with(data, players, 150):
        assert covered_lower(game, st)


@PROPERTY_SETTINGS
@given(strategies.data(), strategies.sampled_from([2, 3, 4]))
def test_a_round_ends_on_its_first_completed_line(data, players):
    length = 5 if players == 2 else 4
    for game, st in play_with(data, players, 150):
        rounds_before = st.vars["rounds"]
        assert not completed_line(game, st, length, players), "play went on past a completed line"
    assert st.vars["rounds"] >= rounds_before


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
