"""Point City as written in games/point-city: its data, its setup by player count, whole games
at every count and variant (17 turns each, 14 cards left), the legal pairs compared with an
independent brute-force oracle, Hypothesis fuzzing of the rule file's invariants, and
`play` in the terminal for the solo game."""
from __future__ import annotations

import io
import random
import sys
from collections import Counter
from functools import lru_cache

import pytest
import yaml

from boardwright.cli.main import main
from boardwright.dsl.loader import GAMES_DIR
from boardwright.interpreter.testing.check import run_checks

from conftest import cached_game

FOLDER = GAMES_DIR / "point-city"
BASICS = ["environment", "society", "industry", "energy", "economy"]
SOLO = ["solo-easy", "solo-medium", "solo-hard", "solo-german"]
COUNTS = [(None, 2), (None, 3), (None, 4)] + [(v, 1) for v in SOLO]


# ---------------------------------------------------------------------------- data
def test_the_data_has_the_published_counts_and_says_what_is_representative():
    data = yaml.safe_load((FOLDER / "cards.yaml").read_text())
    assert "transcription" in data["provenance"]["text"]
    assert any(part["representative"] for part in data["provenance"]["parts"])
    cards = data["components"]["Card"]["items"]
    tiers = Counter(c["tier"] for c in cards)
    assert tiers == {0: 4, 1: 65, 2: 50, 3: 45}
    kinds = Counter((c["tier"], "civic" if c["civic"] else "makes" if c["makes"] else "points") for c in cards
                    if c["tier"])
    assert kinds == {(1, "makes"): 50, (1, "civic"): 10, (1, "points"): 5, (2, "makes"): 30, (2, "civic"): 10,
                     (2, "points"): 10, (3, "makes"): 20, (3, "civic"): 10, (3, "points"): 15}
    for c in cards:
        assert 1 <= len(c["gives"]) <= 2 and len(set(c["gives"])) == 1, c["name"]
        assert "universal" not in c["cost"] and (c["points"] == 0 or not c["civic"])
        if c["makes"]:
            assert c["makes"] == [c["gives"][0]], c["name"]     # a producer makes its resource side's resource
    assert Counter(c["gives"][0] for c in cards if c["tier"] == 1) == {r: 13 for r in BASICS}
    assert sum(c["gives"] == ["universal"] for c in cards if c["tier"] in (2, 3)) == 40
    assert sum(c["starts"] for c in cards) == 1 and all(c["gives"] == ["universal"] for c in cards if not c["tier"])
    assert len({c["name"] for c in cards}) == 164
    tokens = data["components"]["Token"]["items"]
    assert len(tokens) == 22
    assert Counter(t["kind"] for t in tokens) == {"flat": 2, "per_resource": 6, "pair": 10, "threshold": 2,
                                                  "missing": 1, "full_set": 1}


# ---------------------------------------------------------------------------- setup
@pytest.mark.parametrize("players,sizes,shown", [(2, (40, 24, 18), 10), (3, (52, 36, 28), 12),
                                                 (4, (64, 48, 38), 14)])
def test_setup_follows_the_removal_table(players, sizes, shown):
    game = cached_game("point-city")
    st = game.setup_state(players, 5)
    deck = [game.components[c]["tier"] for c in st.zones["deck"]]
    market = [game.components[c]["tier"] for stack in st.zones["market"].values() for c in stack]
    assert len(market) == 16 and set(market) == {1}                  # dealt from the top: tier 1
    used = Counter(deck + market)
    assert (used[1], used[2], used[3]) == sizes
    assert deck == sorted(deck, reverse=True)                        # tier 3 at the bottom, tier 1 on top
    assert len(st.zones["civic_tokens"]) == shown and len(st.zones["token_box"]) == 22 - shown
    assert all(st.vars["face"][c] == "resource" for c in st.zones["deck"])
    starts = [st.zones[f"resources/{p}"] for p in range(players)]
    assert all(len(s) == 1 for s in starts)
    holder = [p for p in range(players) if game.components[starts[p][0]]["starts"]]
    assert holder == [st.vars["_starter"]]


def test_solo_setup_gives_you_the_start_card_and_places_the_markers():
    game = cached_game("point-city", "solo-medium")
    st = game.setup_state(1, 9)
    assert st.vars["_starter"] == 0 and game.components[st.zones["resources/0"][0]]["starts"]
    assert (st.vars["_bot_column"], st.vars["_bot_row"]) == (0, 1)
    assert len(st.zones["civic_tokens"]) == 10 and len(st.zones["deck"]) == 66


# ---------------------------------------------------------------------------- whole games
def play_out(game, players, seed, rng):
    st = game.new_state(players, seed)
    while not st.finished:
        game.apply_index(st, rng.randrange(len(st.pending.values)))
    return st


@pytest.mark.parametrize("variant,players", COUNTS, ids=[f"{v or 'base'}-{p}p" for v, p in COUNTS])
def test_every_player_plays_17_turns_and_14_cards_stay(variant, players):
    game = cached_game("point-city", variant)
    st = play_out(game, players, 2, random.Random(players))
    assert st.turns == [17] * players
    assert sum(len(s) for s in st.zones["market"].values()) == 14 and not st.zones["deck"]
    assert st.vars["_over"] and not st.vars["_stuck"]
    assert game.failing_invariants(st) == []
    result = game.result(st)
    if variant is None:
        assert result.opponents == ()
    else:
        assert len(st.zones["bot_city"]) + len(st.zones["bot_resources"]) == 34     # 2 cards in each of 17 turns
        (title, sheet), = result.opponents
        assert title == "The bot" and set(sheet) == {"Buildings", "Permanent resources", "Civic tokens",
                                                     "Universal cards"}
        assert result.winners == ((0,) if result.scores[0] > sum(sheet.values()) else ())


def test_the_difficulties_order_the_bots_scores():
    """The same seeded game (the bot's picks do not depend on its scoring) scored at each level."""
    totals = {}
    for variant in SOLO:
        game = cached_game("point-city", variant)
        st = play_out(game, 1, 4, random.Random(4))
        totals[variant] = sum(game.result(st).opponents[0][1].values())
    assert totals["solo-easy"] < totals["solo-medium"] < totals["solo-hard"]
    assert totals["solo-german"] < totals["solo-medium"]


# ---------------------------------------------------------------------------- legal options
def can_pay(owed: list, sources: list) -> bool:
    """Brute force: give every owed symbol its own source symbol (universal matches anything)."""
    @lru_cache(maxsize=None)
    def go(i: int, left: tuple) -> bool:
        if i == len(owed):
            return True
        for j, s in enumerate(left):
            if s == owed[i] or s == "universal":
                if go(i + 1, left[:j] + left[j + 1:]):
                    return True
        return False
    return go(0, tuple(sorted(sources)))


def oracle_pairs(game, st, p) -> set:
    face, comp = st.vars["face"], game.components
    market = {cell: stack[-1] for cell, stack in st.zones["market"].items()}
    have = [s for c in st.zones[f"resources/{p}"] for s in comp[c]["gives"]]
    have += [s for c in st.zones[f"city/{p}"] for s in comp[c]["makes"]]
    pairs = set()
    for (x, y), a in market.items():
        for cell in ((x + 1, y), (x, y + 1)):
            if cell not in market:
                continue
            cards = (a, market[cell])
            owed = sorted(s for c in cards if face[c] == "building" for s in comp[c]["cost"])
            gains = [s for c in cards if face[c] == "resource" for s in comp[c]["gives"]]
            if can_pay(owed, have + gains):
                pairs.add(frozenset([(x, y), cell]))
    return pairs


@pytest.mark.parametrize("players,seed", [(2, 11), (3, 12), (4, 13)])
def test_offered_pairs_are_exactly_the_payable_ones(players, seed):
    game = cached_game("point-city")
    rng = random.Random(seed)
    st = game.new_state(players, seed)
    checked = 0
    while not st.finished:
        decision = game.decision(st)
        if decision.prompt.startswith("Take two cards"):
            p = decision.player
            pairs = oracle_pairs(game, st, p)
            firsts = {v for v in st.pending.values if v is not None}
            assert firsts == {c for pair in pairs for c in pair}
            assert (None in st.pending.values) == (len(st.zones["deck"]) >= 2)
            index = rng.randrange(len(st.pending.values))
            first = st.pending.values[index]
            game.apply_index(st, index)
            if first is not None:
                assert game.decision(st).prompt.startswith(f"Take ({first[0]}, {first[1]})")
                assert set(st.pending.values) == {c for pair in pairs if first in pair for c in pair} - {first}
            checked += 1
            continue
        game.apply_index(st, rng.randrange(len(st.pending.values)))
    assert checked == 17 * players


@pytest.mark.slow
def test_hypothesis_finds_no_broken_invariant():
    game = cached_game("point-city")
    report = run_checks(game, [2, 3, 4], examples=4, seed_value=3)
    assert report.failure is None, report.failure
    assert report.games == 4 and len(report.properties) >= 6
    solo = run_checks(cached_game("point-city", "solo-medium"), [1], examples=3, seed_value=3)
    assert solo.failure is None, solo.failure


# ---------------------------------------------------------------------------- the terminal
def test_the_solo_game_is_playable_in_the_terminal(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 300))
    monkeypatch.delenv("LINES", raising=False)      # no screen height (xdist sets one): the whole table
    code = main(["play", "point-city", "--players", "1", "--variant", "solo-medium", "--seed", "2"])
    out = capsys.readouterr().out
    assert code == 0
    assert "market:" in out and "+----" in out and "resource card" in out and "> bot takes next" in out
    assert "resources of Player 1: 1 universal (start card)" in out
    assert "Flip a resource card of a row or column" in out and "the top two cards of the deck" in out
    assert "bot_city:" in out and "bot_tokens:" not in out.split("== Final scores")[0][:200]
    sheet = out.split("== Final scores")[1]
    for line in ("Buildings", "Tokens: per permanent resource", "Permanent resources", "Civic tokens", "Total",
                 "(tie-break) Unspent resource cards"):
        assert line in sheet
    assert "Player 1" in sheet and "The bot" in sheet and "Winner:" in sheet
