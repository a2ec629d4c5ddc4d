"""Urban Panic (games/urban-panic): its data, its invariants fuzzed by Hypothesis, planted
rule bugs that the invariants catch, the -5 bound binding in play, and the command line
(validate, simulate, play) on all three variants."""
from __future__ import annotations

import io
import json
import random
import shutil
import sys
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as strategies

from boardwright.cli.main import main
from boardwright.dsl.loader import GAMES_DIR
from boardwright.interpreter.compile.load import load_game

from conftest import cached_game, examples

FOLDER = GAMES_DIR / "urban-panic"
VARIANTS = [None, "advanced", "party"]
BOUNDED = ("environment", "income", "satisfaction")


# ---------------------------------------------------------------------------- data
def test_the_data_holds_the_rulebook_counts_and_the_factory_fact():
    game = cached_game("urban-panic")
    tiles = [game.components[c] for c in game.kind_ids["Tile"]]
    assert Counter(t["building"] for t in tiles) == {"housing": 24, "office": 18, "funfair": 12,
                                                   "factory": 24, "power": 18, "park": 24}
    legend = {game.components[c]["building"]: game.components[c] for c in game.kind_ids["Legend"]}
    factory = legend["factory"]
    assert (factory["jobs"], factory["income"], factory["environment"], factory["satisfaction"]) == (3, 3, 0, 0)
    assert len(game.kind_ids["Goal"]) == 18
    # Every tile has at least one road; every bounded track is lowered by some type (so the
    # -5 bound can bind) and raised by another.
    assert all(any(t[s] for s in ("north", "east", "south", "west")) for t in tiles)
    for track in BOUNDED:
        assert min(row[track] for row in legend.values()) < 0 < max(row[track] for row in legend.values())
    assert "REPRESENTATIVE" in game.spec.data[0].provenance


# ---------------------------------------------------------------------------- invariants, fuzzed
def play_checked(game, players, seed, choose):
    """Play a whole game, asserting every invariant of the rule file after every step."""
    st = game.new_state(players, seed)
    steps = 0
    while not st.finished:
        assert game.failing_invariants(st) == [], (steps, game.failing_invariants(st))
        st = game.apply_index(st, choose(len(st.pending.values)))
        steps += 1
    assert game.failing_invariants(st) == []
    return st


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v or "basic")
@settings(max_examples=examples(6), suppress_health_check=list(HealthCheck))
@given(data=strategies.data())
def test_invariants_hold_in_fuzzed_games(variant, data):
    game = cached_game("urban-panic", variant)
    players = data.draw(strategies.integers(2, 4), label="players")
    seed = data.draw(strategies.integers(0, 2**31 - 1), label="seed")
    st = play_checked(game, players, seed, lambda n: data.draw(strategies.integers(0, n - 1)))
    result = game.result(st)
    assert len(result.scores) == players and result.winners


PLANTED = {
    "the planner ignores the floor": (
        "if keeps_floor(p, row(t.building))]\nfn can_plan", "]\nfn can_plan", "no track below -5"),
    "the architect ignores a full reserve": (
        "  architect: not full(p) and not empty(display)\n", "  architect: not empty(display)\n",
        "a reserve never holds more than 3 tiles"),
    "the planner may use the last action": (
        "  planner: left() >= 2\n", "  planner: left() >= 1\n", "mandatory action"),
    "the exchange forgets the tile that leaves": (
        "    shift(p, old.building, -1)\n", "", "the tracks agree with the city"),
}


@pytest.mark.slow
@pytest.mark.parametrize("bug", PLANTED)
def test_a_planted_rule_bug_breaks_an_invariant(tmp_path, bug):
    old, new, title = PLANTED[bug]
    folder = tmp_path / "urban-panic"
    shutil.copytree(FOLDER, folder, ignore=shutil.ignore_patterns("scenarios"))
    rules = (folder / "urban-panic.game").read_text()
    assert rules.count(old) == 1
    (folder / "urban-panic.game").write_text(rules.replace(old, new))
    game = load_game(folder / "urban-panic.game")
    failures = []
    for seed in range(12):
        rng = random.Random(seed)
        st = game.new_state(2, seed)
        while not st.finished and not failures:
            failures = [t for t, _ in game.failing_invariants(st)]
            if not failures:
                game.apply_index(st, rng.randrange(len(st.pending.values)))
        if failures:
            break
    assert any(title in f for f in failures), failures


def test_the_minus_five_bound_binds_in_random_play():
    """In most random basic games some reserve tile is refused by the bound at some point."""
    game = cached_game("urban-panic")
    legend = {game.components[c]["building"]: game.components[c] for c in game.kind_ids["Legend"]}
    games_with_refusal = 0
    for seed in range(10):
        rng = random.Random(seed)
        st = game.new_state(2, seed)
        refused = False
        while not st.finished:
            p = st.pending.player
            for c in st.zones[f"reserve/{p}"]:
                row = legend[game.components[c]["building"]]
                refused |= any(st.vars[k][p] + row[k] < -5 for k in BOUNDED)
            game.apply_index(st, rng.randrange(len(st.pending.values)))
        games_with_refusal += refused
        assert all(st.vars[k][p] >= -5 for k in BOUNDED for p in range(2))
    assert games_with_refusal >= 5


# ---------------------------------------------------------------------------- command line
def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.slow
def test_validate_checks_the_three_variants(capsys):
    code, out, err = run(capsys, "validate", "urban-panic")
    assert code == 0 and err == ""
    assert out.splitlines() == ["ok: urban-panic: Urban Panic",
                                "ok: urban-panic --variant advanced: Urban Panic (Advanced game)",
                                "ok: urban-panic --variant party: Urban Panic (Party game)"]


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v or "basic")
def test_simulate_reports_json_for_every_player_count(capsys, variant):
    for players in (2, 3, 4):
        args = ["simulate", "urban-panic", "--players", str(players), "--games", "2", "--seed", "1", "--json"]
        code, out, _ = run(capsys, *(args + (["--variant", variant] if variant else [])))
        report = json.loads(out)
        assert code == 0 and report["players"] == players and report["games"] == 2
        assert len(report["wins"]) == players and report["turns"]["min"] > 0


def test_play_is_readable_by_a_person(capsys, monkeypatch):
    """A human seat driven through stdin (always the first option) plays a whole game."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 3000))
    monkeypatch.delenv("LINES", raising=False)      # no screen height (xdist sets one): the whole table
    code, out, err = run(capsys, "play", "urban-panic", "--players", "2", "--seats", "human,random", "--seed", "3")
    assert code == 0 and err == ""
    assert "Input ended" not in out
    first = out[:out.index("your move")]
    # The display, the five tracks and both cities as 5 x 5 pictures with the blocked centre.
    assert "display: " in first and "stacks: 116 face down" in first
    for track in ("residents", "jobs", "environment", "income", "satisfaction"):
        assert f"{track}: Player 1: 0, Player 2: 0" in first
    assert first.count("       0           1           2           3           4") == 2
    assert "    2 |           |           |░░░░░░░░░░░|           |           |" in first
    assert "_idle_turns" not in out and "_last_turns" not in out
    # Later: the reserve, tiles with their roads in the picture, the turn's prompt.
    assert "reserve of Player 1: " in out
    assert "══" in out and "║" in out
    assert "Player 1, your move. Player 1, action 1 of 3 (the architect is still to come):" in out
    # The score sheet at the end.
    sheet = out[out.index("== Final scores"):]
    for line in ("Residents", "Jobs", "Environment", "Income", "Satisfaction", "Unemployment",
                 "Empty cells", "Total", "Fewer empty cells"):
        assert line in sheet
    assert "Winner" in sheet or "draw" in sheet


# ---------------------------------------------------------------------------- the party race
@pytest.mark.slow
def test_the_party_race_gives_seat_0_no_privilege():
    """The rulebook's party game is a race in real time: nothing favours a seat. Over 200
    random 4-player games the timer bonus is spread over the seats (seat 0 under 40% of the
    bonuses, every seat turning the timer in some game), and some ticks are filled by
    several players at once (who all score)."""
    from boardwright.interpreter.playtest.simulate import simulate_records
    game = load_game("urban-panic", "party")
    records = simulate_records(game, 4, 200, 1, ["random"] * 4)
    bonuses = [sum(1 for r in records if r["lines"][p]["Sand timer"] == 5) for p in range(4)]
    assert bonuses[0] / sum(bonuses) < 0.40, bonuses
    assert all(b > 0 for b in bonuses), bonuses
    assert any(len([p for p in range(4) if r["lines"][p]["Sand timer"] == 5]) > 1 for r in records)


def test_the_party_measures_count_who_turned_the_timer():
    """The party game's measures, worked out from the "Sand timer" score lines instead: the
    first seat turned the timer when its line holds the bonus; its excess is players x that
    minus the number of seats whose line holds it."""
    from boardwright.interpreter.playtest.simulate import simulate_records
    game = cached_game("urban-panic", "party")
    records = simulate_records(game, 3, 12, 2, ["random"] * 3)
    for r in records:
        turned = [p for p in range(3) if r["lines"][p]["Sand timer"] == 5]
        assert r["measures"]["timer turned by the first seat"] == (0 in turned)
        assert r["measures"]["timer: first seat's excess"] == 3 * (0 in turned) - len(turned)
    assert any(r["measures"]["timer: first seat's excess"] != 0 for r in records)
