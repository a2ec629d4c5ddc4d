"""Point City's deck against the printed cards.

The tables below were transcribed by hand from the public fan transcription of the printed
deck (shared/reference/PointCityCards.tsv, outside the repository): they are facts about the
printed cards, written here as literals and never computed from games/point-city/cards.yaml.
The test computes the same tables from our data file and compares.

Cost make-up: the amounts of the distinct resources in a cost, largest first ("3+2" is three
of one resource and two of another; "4" is four of one).
"""
from collections import Counter

import yaml

from boardwright.dsl.loader import GAMES_DIR

CARDS = GAMES_DIR / "point-city" / "cards.yaml"
BASICS = ("society", "economy", "energy", "environment", "industry")

# (kind, cost make-up, printed points) -> number of cards, per tier.
MAKEUP_POINTS = {
    1: {("civic", "3", 0): 10, ("points", "1+1", 4): 5, ("producer", "1+1", 0): 30,
        ("producer", "2", 1): 10, ("producer", "2+1", 2): 10},
    2: {("civic", "4", 0): 10, ("points", "2+1", 4): 5, ("points", "2+2", 5): 5,
        ("producer", "2+1", 0): 10, ("producer", "2+2", 1): 10, ("producer", "3+2", 2): 10},
    3: {("civic", "5", 0): 10, ("points", "2+2", 4): 5, ("points", "3+2", 5): 5, ("points", "4+3", 7): 5,
        ("producer", "2+2", 1): 5, ("producer", "3+2", 2): 10, ("producer", "3+3", 3): 5},
}

# (kind, resource side) -> number of cards, per tier.
SIDES = {
    1: {**{("producer", r): 10 for r in BASICS}, **{("civic", r): 2 for r in BASICS},
        **{("points", r): 1 for r in BASICS}},
    2: {**{("producer", r): 6 for r in BASICS}, ("civic", "universal"): 10, ("points", "universal"): 10},
    3: {**{("producer", r): 4 for r in BASICS}, ("civic", "universal"): 10,
        **{("points", r): 1 for r in BASICS}, ("points", "universal"): 10},
}

CARDS_PER_TIER = {1: 65, 2: 50, 3: 45}
POINTS_PER_TIER = {1: 50, 2: 75, 3: 120}
# Resource symbols over all the costs of a tier, per resource: the same for all five.
COST_SYMBOLS_PER_RESOURCE = {1: 30, 2: 39, 3: 46}
# How many cards of a tier have a cost of one resource only / of two resources.
DISTINCT_COST_RESOURCES = {1: {1: 20, 2: 45}, 2: {1: 10, 2: 40}, 3: {1: 10, 2: 35}}


def buildings():
    return [c for c in yaml.safe_load(CARDS.read_text())["components"]["Card"]["items"] if c["tier"]]


def kind(card) -> str:
    return "civic" if card["civic"] else "producer" if card["makes"] else "points"


def makeup(cost: list) -> str:
    return "+".join(str(n) for n in sorted(Counter(cost).values(), reverse=True))


def test_tier_sizes_and_printed_points():
    cards = buildings()
    assert Counter(c["tier"] for c in cards) == CARDS_PER_TIER
    assert {t: sum(c["points"] for c in cards if c["tier"] == t) for t in (1, 2, 3)} == POINTS_PER_TIER


def test_kind_cost_make_up_and_points_per_tier():
    cards = buildings()
    for tier, expected in MAKEUP_POINTS.items():
        found = Counter((kind(c), makeup(c["cost"]), c["points"]) for c in cards if c["tier"] == tier)
        assert found == expected, tier


def test_resource_sides_per_tier_and_kind():
    cards = buildings()
    for tier, expected in SIDES.items():
        found = Counter((kind(c), c["gives"][0]) for c in cards if c["tier"] == tier)
        assert found == expected, tier


def test_cost_symbols_per_resource_and_distinct_resources_per_cost():
    cards = buildings()
    for tier in (1, 2, 3):
        costs = [c["cost"] for c in cards if c["tier"] == tier]
        symbols = Counter(r for cost in costs for r in cost)
        assert symbols == {r: COST_SYMBOLS_PER_RESOURCE[tier] for r in BASICS}, tier
        assert Counter(len(set(cost)) for cost in costs) == DISTINCT_COST_RESOURCES[tier], tier


def test_a_producer_makes_its_sides_resource_and_never_costs_it():
    producers = sum(n for table in MAKEUP_POINTS.values() for (k, _, _), n in table.items() if k == "producer")
    assert sum(kind(c) == "producer" for c in buildings()) == producers == 100
    for c in buildings():
        if kind(c) == "producer":
            assert c["makes"] == [c["gives"][0]], c["name"]
            assert c["gives"][0] not in c["cost"], c["name"]


def test_the_provenance_names_the_transcription_and_marks_what_is_ours():
    from boardwright.dsl.data import load_data
    data = load_data(str(CARDS))
    assert "PointCityCards.tsv" in data.provenance
    printed = [p for p in data.provenance_parts if not p["representative"]]
    assert any("cost make-up" in p["what"] and "PointCityCards.tsv" in p["source"] for p in printed)
    assert "card names and token texts" in data.representative
