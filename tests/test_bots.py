"""Bots and their settings, search reproducibility, root parallelism, bot puzzles and the
ladder's ratings. Small, seeded and fast: bot strength over many games lives in
docs/playtesting.md, not here."""
from __future__ import annotations

import json
import math
import random
from functools import lru_cache
from pathlib import Path

import pytest
import yaml

from boardwright.cli.main import main
from boardwright.dsl.errors import UsageError
from boardwright.interpreter.bots.determinize import determinize
from boardwright.interpreter.bots.mcts import MCTSBot, root_parallel
from boardwright.interpreter.bots.registry import make_bot
from boardwright.interpreter.bots.simple import GreedyBot
from boardwright.interpreter.playtest.ladder import bradley_terry
from boardwright.interpreter.testing.bot_puzzles import bot_puzzle_failures
from boardwright.interpreter.testing.scenario import apply_starting_state, scenario_position
from boardwright.interpreter.playtest.simulate import simulate_records

from conftest import cached_game, make_small_game, scenario_paths


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@lru_cache(maxsize=None)
def puzzles() -> tuple[Path, ...]:
    """The bundled scenarios that expect a bot's choice (read once: 200 YAML files)."""
    return tuple(p for p in scenario_paths() if "bot_chooses" in (_read(p).get("expect") or {}))


def _read(path: Path) -> dict:
    return yaml.load(path.read_text(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


# ---------------------------------------------------------------------------- settings
@pytest.mark.parametrize("setting, message", [
    ("iterations=nan", "finite"), ("iterations=inf", "finite"), ("iterations=-5", "positive"),
    ("iterations=0", "positive"), ("iterations=2.5", "whole number"), ("seconds=nan", "finite"),
    ("seconds=-1", "positive"), ("seconds=0", "positive"), ("seconds=inf", "finite"),
    ("depth=-1", "at least 0"), ("exploration=-inf", "finite"), ("trees=0", "positive"),
])
def test_bad_bot_settings_are_usage_errors(capsys, setting, message):
    code, _, err = run(capsys, "simulate", "punto", "--players", "2", "--games", "1", "--bots", f"mcts:{setting},random")
    assert code == 2 and message in err and "Traceback" not in err


def test_greedy_settings_and_unknown_ones():
    assert make_bot("greedy:lookahead=0", 1).lookahead == 0
    with pytest.raises(UsageError, match="settings: lookahead"):
        make_bot("greedy:depth=3", 1)
    assert make_bot("mcts:seconds=0.5", 1).seconds == 0.5


# ---------------------------------------------------------------------------- forced moves
class _CountingRng:
    def __getattr__(self, name):
        raise AssertionError(f"a forced move drew from the bot's random generator ({name})")


def test_a_forced_move_is_answered_without_search(monkeypatch):
    game = cached_game("urban-panic")
    st = game.setup_state(2, 1)
    apply_starting_state(game, st, {"zones": {"reserve/0": ["factory NS"]}})
    game.start(st)
    game.apply(st, "planner")                 # one tile in the reserve: a choice of one
    assert len(st.pending.values) == 1
    for spec in ("random", "greedy", "mcts:iterations=100000"):
        bot = make_bot(spec, 1)
        bot.rng = _CountingRng()
        monkeypatch.setattr("boardwright.interpreter.bots.mcts._search_tree",
                            lambda *a: pytest.fail("searched a forced move"))
        assert bot.choose(game, st) == 0


# ---------------------------------------------------------------------------- determinizing
def test_determinize_keeps_what_the_seat_sees_and_hides_the_rest():
    punto = cached_game("punto")
    st = punto.new_state(2, seed=1)
    d = determinize(punto, st, 0, random.Random(3))
    assert d.zones["table"] == st.zones["table"]
    for key in ("deck/0", "deck/1"):
        assert sorted(d.zones[key]) == sorted(st.zones[key]) and d.zones[key] != st.zones[key]


def test_a_determinized_copy_does_not_keep_the_real_random_state():
    """A bot imagines the luck to come as well as the hidden order: its copy's random state
    comes from the bot's generator, never the real game's (which would show the bot the real
    shuffles and draws to come). The real state is left as it was."""
    punto = cached_game("punto")
    st = punto.new_state(2, seed=1)
    real = st.rng
    imagined = [determinize(punto, st, 0, random.Random(seed)).rng for seed in range(6)]
    assert real not in imagined
    assert len(set(imagined)) == 6                      # each bot seed imagines other luck
    assert determinize(punto, st, 0, random.Random(3)).rng == imagined[3]   # and the same seed the same
    assert st.rng == real


LATER_SHUFFLE = """\
    game "Later shuffle"
    players 2
    data "cards.yaml"
    zone deck: stack
    setup { move components(Card) to deck }
    play {
      turn 0 { choose x from [1, 2] prompt "Pick" }
      shuffle deck
      turn 1 { choose y from [1, 2] prompt "Pick" }
    }
    """


def test_a_bot_cannot_foresee_a_shuffle_still_to_come(tmp_path):
    """The deck is in plain sight, so a determinized copy keeps its order; the shuffle after
    seat 0's choice is still to come. In the copies seat 0 imagines, that shuffle comes out
    differently from bot seed to bot seed, and not as it will in the real game."""
    game = make_small_game(tmp_path, LATER_SHUFFLE)
    st = game.new_state(2, seed=5)
    real = st.copy()
    game.apply_index(real, 0)
    imagined = []
    for seed in range(8):
        d = determinize(game, st, 0, random.Random(seed))
        assert d.zones["deck"] == st.zones["deck"]       # nothing hidden to resample
        game.apply_index(d, 0)
        imagined.append(tuple(d.zones["deck"]))
    # 6 cards: 720 orders; a copy that kept the real random state would always get the real one.
    assert imagined.count(tuple(real.zones["deck"])) <= 1
    assert len(set(imagined)) >= 5


# ---------------------------------------------------------------------------- reproducible
@pytest.mark.slow
def test_mcts_is_reproducible_per_seed_and_the_same_with_a_pool():
    game = cached_game("punto")
    st = game.new_state(2, 4)
    for index in (0, 3, 1, 5):
        game.apply_index(st, index % len(st.pending.values))
    one = MCTSBot("s", iterations=240, trees=2).visits(game, st)
    again = MCTSBot("s", iterations=240, trees=2).visits(game, st)
    assert one == again and sum(one.values()) == 240
    other = MCTSBot("t", iterations=240, trees=2).visits(game, st)
    assert other != one                       # the seed matters
    with root_parallel(game, 2):
        assert MCTSBot.pool is not None
        pooled = MCTSBot("s", iterations=240, trees=2).visits(game, st)
    assert pooled == one and MCTSBot.pool is None


@pytest.mark.slow
def test_simulated_mcts_games_are_the_same_across_workers():
    game = cached_game("happy-city")
    # Short searches: the point is the same games. Even 8 iterations of 5-step playouts make
    # every one of the 4 games depend on the bots' seeds (other seeds change all 4), so a worker
    # that seeded its bots otherwise, or carried a bot's state from its first game into its
    # second (2 workers, 4 games), plays other games.
    specs = ["mcts:iterations=8:depth=5", "greedy"]
    serial = simulate_records(game, 2, 4, 7, specs, rotate=True, ref=("happy-city", None, ()))
    parallel = simulate_records(game, 2, 4, 7, specs, rotate=True, workers=2, ref=("happy-city", None, ()))
    again = simulate_records(game, 2, 4, 7, specs, rotate=True, ref=("happy-city", None, ()))
    assert serial == parallel == again


# ---------------------------------------------------------------------------- greedy judges a whole move
@pytest.mark.slow
def test_greedy_judges_a_whole_take_in_point_city():
    # The whole-take puzzle: only the pair (0, 0)+(1, 0) builds the Statue. Without its look
    # at the second card greedy sees no difference between first cards; with it, it does.
    path = next(p for p in puzzles() if p.name == "whole-take-that-wins.scenario.yaml")
    game, st, _ = _puzzle_position(path)
    ids = game.option_ids(st)
    values = dict(zip(ids, GreedyBot(1).values(game, st)))
    assert values["0,0"] == values["1,0"] > max(v for k, v in values.items() if k not in ("0,0", "1,0"))
    blind = dict(zip(ids, GreedyBot(1, lookahead=0).values(game, st)))
    assert len(set(blind.values())) == 1


# ---------------------------------------------------------------------------- puzzles
@pytest.mark.slow
def test_every_bundled_game_has_three_bot_puzzles():
    # (test_scenarios runs them, as `boardwright test` does)
    per_game: dict = {}
    for path in puzzles():
        data = yaml.safe_load(path.read_text())
        per_game.setdefault(data["game"], []).append(path)
    assert sorted(per_game) == ["happy-city", "point-city", "punto", "urban-panic"]
    assert all(len(paths) >= 3 for paths in per_game.values()), per_game


def _puzzle_position(path: Path):
    data = _read(path)
    game = cached_game(data["game"], data.get("variant"))
    return game, scenario_position(game, data), data["expect"]["bot_chooses"]


@pytest.mark.slow
def test_a_weak_bot_fails_the_puzzles():
    # Plant weak bots: random players and a search of 2 iterations. Each puzzle has wrong
    # options, and over each game's puzzles and a few seeds the weak bots pick them.
    positions = [_puzzle_position(path) + (path,) for path in puzzles()]
    for game_name in ("punto", "point-city", "happy-city", "urban-panic"):
        failed = 0
        for game, st, puzzle, path in positions:
            if game.spec.title.lower().replace(" ", "-") != game_name:
                continue
            assert len(puzzle["one_of"]) < len(st.pending.values), path
            failed += len(bot_puzzle_failures(game, st, {**puzzle, "bots": ["random", "mcts:iterations=2"], "seeds": 4}))
        assert failed > 0, game_name


@pytest.mark.slow
def test_a_puzzle_reports_the_bots_wrong_choice():
    path = next(p for p in puzzles() if p.name == "block-the-open-four.scenario.yaml")
    game, st, puzzle = _puzzle_position(path)
    failures = bot_puzzle_failures(game, st, {**puzzle, "bots": "greedy", "seeds": 2})
    # Greedy values its own lines only: it does not see the green four, so it misses the block.
    assert failures and "greedy (seed 0) chose" in failures[0] and "expected one of" in failures[0]
    assert bot_puzzle_failures(game, st, {"bots": "mcts", "one_of": ["9,9"]})[0].startswith(
        "bot_chooses: '9,9' is not an option")


# ---------------------------------------------------------------------------- ladder
def test_bradley_terry_matches_the_two_bot_closed_form():
    # With two bots the likelihood is maximal where the win probability equals the observed
    # score (30 of 40, plus one virtual draw: 30.5 of 41), so the ratings differ by
    # 400 log10(p / (1 - p)) and sit symmetrically around 0.
    ratings, errors = bradley_terry(2, [((0, 1), 30, 40)])
    p = 30.5 / 41
    assert math.isclose(ratings[0] - ratings[1], 400 * math.log10(p / (1 - p)), rel_tol=1e-6)
    assert math.isclose(ratings[0], -ratings[1], abs_tol=1e-9)
    # Fisher information n p (1 - p) for the difference; each rating carries half of it.
    se_diff = 1 / math.sqrt(41 * p * (1 - p)) * 400 / math.log(10)
    assert math.isclose(errors[0], se_diff / 2, rel_tol=1e-6)


def test_bradley_terry_orders_a_transitive_round_robin():
    ratings, errors = bradley_terry(3, [((0, 1), 8, 10), ((1, 2), 8, 10), ((0, 2), 10, 10)])
    assert ratings[0] > ratings[1] > ratings[2] and abs(sum(ratings)) < 1e-6
    assert all(e > 0 for e in errors)


@pytest.mark.slow
def test_ladder_command_prints_ratings_with_intervals(capsys):
    code, out, _ = run(capsys, "ladder", "happy-city", "--players", "2", "--bots", "random,greedy",
                       "--games", "4", "--seed", "3", "--json")
    report = json.loads(out)
    pair = report["pairs"][0]
    assert code == 0 and pair["bots"] == ["random", "greedy"] and pair["games"] == 4
    assert sum(pair["wins"]) + pair["draws"] == 4
    # The ratings follow the games played (4 games show no strength: test_playtest.py does):
    # the bot that won more of them is rated first, and each rating lies inside its interval.
    assert pair["wins"][0] != pair["wins"][1]
    leader = pair["bots"][pair["wins"].index(max(pair["wins"]))]
    best = report["ratings"][0]
    assert best["bot"] == leader and best["ci95"][0] < best["rating"] < best["ci95"][1]
    assert {r["bot"]: r["settings"] for r in report["ratings"]}["greedy"].startswith("greedy (lookahead=")
    code, out, _ = run(capsys, "ladder", "happy-city", "--bots", "random,greedy", "--games", "2")
    assert code == 0 and "95% CI" in out and "random vs greedy" in out


@pytest.mark.parametrize("argv, message", [
    (["--players", "3", "--bots", "random,greedy"], "2-player"),
    (["--bots", "random"], "at least two bots"),
    (["--bots", "random,random"], "appear once"),
    (["--bots", "random,mcts:iterations=nan"], "finite"),
])
def test_ladder_usage_errors(capsys, argv, message):
    code, _, err = run(capsys, "ladder", "punto", "--games", "1", *argv)
    assert code == 2 and message in err


@pytest.mark.slow
def test_simulate_report_prints_each_bots_settings(capsys):
    code, out, _ = run(capsys, "simulate", "punto", "--players", "2", "--games", "2",
                       "--bots", "mcts:iterations=10,greedy", "--rotate")
    assert code == 0
    assert "mcts (iterations=10, depth=0, guide=3, exploration=0.7, width=6)" in out and "greedy (lookahead=200)" in out
