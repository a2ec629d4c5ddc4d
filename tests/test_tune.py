"""`boardwright tune --param`: it finds the head start race's fair head start (computed
exactly by docs/examples/head-start-race/reference.py), gives the same result on 1 or 2
workers, picks the confirmed best by the confirmation games, writes a variant that
validates, and refuses bad arguments with exit 2 and a clear message."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from checkout import import_path
from conftest import main_json as _json, run_main as run
from boardwright.interpreter.playtest.goals import Goal, parse_goal
from boardwright.interpreter.playtest.param_ranges import parse_range
from boardwright.interpreter.playtest.racing import pareto_ranks, successive_halving
from boardwright.interpreter.playtest.skill import skill_rows
from boardwright.interpreter.playtest.tune_params import CONFIRM_FIRST, Evaluation, ParamTuner
from boardwright.interpreter.playtest.tune_report import variant_text

pytest.importorskip("optuna")

HERE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "head-start-race"
RACE = HERE / "race.game"
sys.path.insert(0, str(HERE))
from reference import fair_head_start  # noqa: E402

BASE = ["tune", str(RACE), "--players", "2", "--set", "goal=10", "-q"]
TUNE = [*BASE, "--param", "head_start=0..10", "--goal", "first-player=0.5"]




def test_tune_finds_the_fair_head_start_within_one_step(capsys):
    fair = fair_head_start(goal=10)         # 4: the hare then wins 0.498 of races
    for seed in (1, 2):
        result = _json(capsys, *TUNE, "--budget", "900", "--games", "30", "--seed", str(seed))
        assert abs(result["best"]["params"]["head_start"] - fair) <= 1
        assert result["games_played"] <= 900
        best = result["best"]["goals"][0]
        assert best["ci95"][0] <= best["value"] <= best["ci95"][1]
        for entry in result["confirmed"] + result["candidates"]:       # every candidate has its interval
            low, high = entry["goals"][0]["ci95"]
            assert low <= entry["goals"][0]["value"] <= high


def test_tune_is_the_same_on_one_or_two_workers():
    # In subprocesses: the forked workers of many searches stay out of the test runner's own
    # process (inside a pytest-xdist worker they once ended the run with an INTERNALERROR).
    args = [*TUNE, "--budget", "300", "--games", "20", "--json"]

    def tuned(*more):
        done = subprocess.run([sys.executable, "-m", "boardwright", *args, *more], capture_output=True, text=True,
                              timeout=600, env=dict(os.environ, PYTHONPATH=import_path()))
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    one, two = tuned(), tuned("--workers", "2")
    one.pop("seconds", None), two.pop("seconds", None)
    assert one == two


def test_tune_text_report_and_plot(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    plot = tmp_path / "search.png"
    code, out, err = run(capsys, *TUNE, "--budget", "300", "--games", "20", "--plot", str(plot))
    assert code == 0, err
    assert "confirmed best: head_start=" in out and "TPE search, successive halving" in out
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_progress_bar_shows_the_best_so_far():
    import io
    from boardwright.cli.progress import ProgressBar
    stream = io.StringIO()
    ProgressBar(stream, clock=lambda: 0.0)(50, 100, "best so far head_start=4")
    assert "50/100 games" in stream.getvalue() and "; best so far head_start=4" in stream.getvalue()


def test_several_goals_give_a_pareto_search(capsys):
    result = _json(capsys, *TUNE, "--goal", "length=5..6", "--budget", "400", "--games", "20")
    assert result["goals"] == ["first-player=0.5", "length=5..6"]
    assert [g["measure"] for g in result["best"]["goals"]] == ["first player win rate", "length"]


def test_the_written_variant_validates_strictly_and_compares(capsys, tmp_path):
    base = tmp_path / "race.game"
    base.write_text(RACE.read_text(encoding="utf-8"), encoding="utf-8")
    out_file = tmp_path / "fair.game"
    code, out, err = run(capsys, "tune", str(base), "--players", "2", "--set", "goal=10", "--param",
                         "head_start=0..10", "--goal", "first-player=0.5", "--budget", "300", "--games", "20",
                         "--write", str(out_file), "-q")
    assert code == 0, err
    text = out_file.read_text(encoding="utf-8")
    assert text.startswith('variant "fair" extends "race.game"')
    assert "param goal = 10" in text
    code, out, err = run(capsys, "validate", "--strict", str(out_file))
    assert code == 0, err
    code, out, err = run(capsys, "compare", str(base), "--variant", "base", "--variant", str(out_file),
                         "--players", "2", "--games", "20")
    assert code == 0 and "fair.game" in out


def test_params_that_break_the_rules_are_left_out(capsys, tmp_path):
    # Head starts above 6 index past the end of a list: a rule error in every game.
    text = RACE.read_text(encoding="utf-8").replace("pos[1] = head_start", "pos[1] = [0, 1, 2, 3, 4, 5, 6][head_start]")
    assert text != RACE.read_text(encoding="utf-8")
    (tmp_path / "race.game").write_text(text, encoding="utf-8")
    result = _json(capsys, "tune", str(tmp_path / "race.game"), "--players", "2", "--set", "goal=10", "--param",
                   "head_start=0..10", "--goal", "first-player=0.5", "--budget", "600", "--games", "20", "-q")
    failed = sorted(entry["params"]["head_start"] for entry in result["failed"])
    assert failed and all(k > 6 for k in failed)
    assert all("race.game:" in entry["rule_error"] for entry in result["failed"])
    assert abs(result["best"]["params"]["head_start"] - fair_head_start(goal=10)) <= 1
    assert all(e["params"]["head_start"] <= 6 for e in result["confirmed"] + result["candidates"])
    # When every candidate breaks the rules, the first rule error is the answer (exit 1).
    code, out, err = run(capsys, "tune", str(tmp_path / "race.game"), "--players", "2", "--param", "head_start=7..9",
                         "--goal", "first-player=0.5", "--budget", "300", "--games", "20", "-q")
    assert code == 1 and out == "" and "race.game:13:3: error: rule failed: an index out of ra" in err and "Traceback" not in err


def test_a_bundled_game_and_a_list_of_values(capsys, tmp_path):
    out_file = tmp_path / "shorter.game"
    code, out, err = run(capsys, "tune", "happy-city", "--players", "2", "--param", "coloured_supermarkets=true,false",
                         "--param", "city_limit=7..9", "--goal", "length=15..17", "--budget", "90", "--games", "10",
                         "--write", str(out_file), "-q")
    assert code == 0, err
    text = out_file.read_text(encoding="utf-8")
    assert text.startswith('variant "shorter" extends "happy-city"')
    assert "param coloured_supermarkets = true" in text or "param coloured_supermarkets = false" in text
    code, out, err = run(capsys, "validate", "--strict", str(out_file))
    assert code == 0, err


def test_a_tuned_variant_is_written_as_a_copy_with_its_params_set(capsys, tmp_path):
    # A variant extends a base game, never another variant: tuning the beginner game writes
    # the beginner file's declarations with the tuned param, over Happy City itself.
    out_file = tmp_path / "beginner-short.game"
    code, out, err = run(capsys, "tune", "happy-city", "--variant", "beginner", "--players", "2", "--param",
                         "city_limit=7..9", "--goal", "length=15..17", "--budget", "60", "--games", "10",
                         "--confirm", "1", "--write", str(out_file), "-q")
    assert code == 0, err
    text = out_file.read_text(encoding="utf-8")
    assert text.startswith('variant "beginner-short" extends "happy-city"\n')
    assert "--variant beginner" in text and "the white side" not in text     # the header, not the old one
    assert "param special_back = pink" in text and "proc choose_supermarkets()" in text
    [limit] = [int(line.split("=")[1]) for line in text.splitlines() if line.startswith("param city_limit")]
    assert 7 <= limit <= 9
    assert run(capsys, "validate", "--strict", str(out_file))[0] == 0
    # The copy plays exactly as the beginner game with that limit set.
    copy = _json(capsys, "simulate", str(out_file), "--players", "2", "--games", "4", "--seed", "3")
    tuned = _json(capsys, "simulate", "happy-city", "--variant", "beginner", "--set", f"city_limit={limit}",
                  "--players", "2", "--games", "4", "--seed", "3")
    assert copy["seats"] == tuned["seats"] and copy["turns"] == tuned["turns"]


def test_a_variant_copy_replaces_the_declared_param_in_place(tmp_path):
    source = tmp_path / "party.game"
    source.write_text('# old header\nvariant "Party" extends "urban-panic"\n\nparam timer_ticks = 5  # ticks\n'
                      "param timer_bonus = 5\n", encoding="utf-8")
    result = {"games_played": 10, "best": {"games": 4, "params": {"timer_ticks": 2}, "goals": []}, "fixed": {}}
    text = variant_text(result, "urban-panic", "short", [parse_range("timer_ticks=0..9")], "", str(source))
    assert text.startswith('variant "short" extends "urban-panic"\n') and "old header" not in text
    assert text.count("param timer_ticks") == 1 and "param timer_ticks = 2  # ticks\n" in text
    assert text.endswith("param timer_bonus = 5\n")


def test_a_copied_variant_with_data_files_stays_beside_them(capsys, tmp_path):
    base = tmp_path / "game"
    base.mkdir()
    (base / "race.game").write_text(RACE.read_text(encoding="utf-8"), encoding="utf-8")
    (base / "pieces.yaml").write_text('provenance: "test"\ncomponents:\n  Pebble:\n    attributes: {size: int}\n'
                                      "    items:\n      - {size: 1}\n", encoding="utf-8")
    (base / "long.game").write_text('variant "Long" extends "race.game"\ndata "pieces.yaml"\nparam goal = 12\n',
                                    encoding="utf-8")
    code, _, err = run(capsys, "tune", str(base / "race.game"), "--variant", "long", "--players", "2", "--param",
                       "head_start=0..6", "--goal", "first-player=0.5", "--write", str(tmp_path / "fair.game"), "-q")
    assert code == 2 and "reads data files beside it" in err, err


@pytest.mark.parametrize("path", sorted((HERE.parent / "point-city-calibrated").glob("greedy-*.game"))
                         + sorted((HERE.parent / "happy-city-first-player").glob("*.game")), ids=lambda p: p.name)
def test_the_variants_tune_wrote_for_the_seed_games_validate_strictly(capsys, path):
    # docs/playtesting.md, "Tuning the seed games": each written variant stays a valid rule file.
    code, out, err = run(capsys, "validate", "--strict", str(path))
    assert code == 0 and out.startswith("ok: "), err


class FakePlay:
    """Records without a game: the first seat wins game i when (i * 7919) % 100 is below a
    point's rate, one rate for the search games and another for the confirmation games."""

    def __init__(self, search: dict, confirm: dict):
        self.search, self.confirm = search, confirm

    def __call__(self, point, specs, rotate, first, count, seed):
        rates = self.confirm if first >= CONFIRM_FIRST else self.search
        rate = rates[point["k"]]
        return [{"winners": [0] if (i * 7919) % 100 < rate else [1], "bots": specs, "first_player": 0,
                 "turns": 10, "lead_changes": 0, "endings": [], "measures": None}
                for i in range(first, first + count)]


def test_the_confirmed_best_is_chosen_by_the_confirmation_games():
    # The search makes k=1 look perfect (50% first-player wins) and k=2 poor (70%); the
    # confirmation games show the opposite. The best must be k=2.
    play = FakePlay(search={0: 90, 1: 50, 2: 70, 3: 95}, confirm={0: 90, 1: 80, 2: 50, 3: 95})
    goal = parse_goal("first-player=0.5", ["first player win rate"])
    evaluation = Evaluation(play, 2, 1, [goal], ["random", "random"], False)
    tuner = ParamTuner(evaluation, [parse_range("k=0..3")], budget=1200, first_games=100, confirm=2, seed=1,
                       player_name=lambda p: f"Player {p + 1}")
    result = tuner.run()
    assert result["best"]["params"] == {"k": 2}
    assert result["best"]["goals"][0]["value"] == 0.5
    assert result["best"]["search"]["goals"][0]["value"] == 0.7
    assert result["confirmed"][0]["params"] == {"k": 1}
    assert result["told_apart"] is True


def test_a_goal_on_an_ending_that_never_happens_is_a_share_of_zero(capsys):
    # No race ends by an ending named "nobody": its share is measured as 0, not an error.
    result = _json(capsys, *BASE, "--param", "head_start=0..2", "--goal", "ending nobody=0.2", "--budget", "120",
                   "--games", "10")
    goal = result["best"]["goals"][0]
    assert goal["value"] == 0 and goal["loss"] == pytest.approx(0.2)


def test_goal_losses_by_hand():
    rows = {"length": (33.0, 31.0, 35.0), "ties": (0.08, 0.06, 0.1), "first player win rate": (0.56, 0.5, 0.62)}
    known = list(rows)
    assert parse_goal("length=30..40", known).loss(rows) == 0
    assert parse_goal("length=35..40", known).loss(rows) == 2
    assert parse_goal("length=35..40", known).loss_interval(rows) == (0.0, 4.0)
    assert parse_goal("ties<=0.05", known).loss(rows) == pytest.approx(0.03)
    assert parse_goal("ties<=0.05", known).loss_interval(rows) == pytest.approx((0.01, 0.05))
    assert parse_goal("first-player=0.5", known).loss(rows) == pytest.approx(0.06)
    # An interval that holds the target allows no loss at all, though both its ends are off.
    straddling = {"first player win rate": (0.52, 0.45, 0.6)}
    assert parse_goal("first-player=0.5", known).loss_interval(straddling) == pytest.approx((0.0, 0.1))
    assert parse_goal("length>=40", known) == Goal("length>=40", "length", 40.0, None)
    assert parse_goal("length=30..40", known).scale == 40 and parse_goal("ties<=0.05", known).scale == 1


def test_the_skill_goal_plays_the_four_bots_pairwise(capsys):
    result = _json(capsys, "tune", str(RACE), "--players", "2", "-q", "--set", "head_start=2", "--param", "goal=6..8",
                   "--goal", "skill",
                   "--budget", "240", "--games", "24")
    measures = result["best"]["measures"]
    pairs = [name for name in measures if name.startswith("skill ")]
    assert len(pairs) == 6 and "skill greedy over random" in pairs
    assert any(name.startswith("skill mcts over mcts:iterations=") for name in pairs)
    shortfall = sum(max(0.0, 0.6 - measures[name]["value"]) for name in pairs) / 6
    assert measures["skill"]["value"] == pytest.approx(shortfall, abs=1e-3)


def test_skill_rows_by_hand():
    # random vs greedy: the better (greedy) wins 3 of 4; target 1/2 + 0.1 = 0.6: no shortfall.
    # greedy vs mcts: the better (mcts) wins 1 of 4: shortfall 0.6 - 0.25 = 0.35.
    def games(better, worse, wins):
        return [{"bots": [better, worse], "winners": [0] if i < wins else [1]} for i in range(4)]
    rows = skill_rows({("greedy", "random"): games("greedy", "random", 3),
                       ("mcts", "greedy"): games("mcts", "greedy", 1)}, 2, margin=0.1)
    assert rows["skill greedy over random"][0] == 0.75
    assert rows["skill"][0] == pytest.approx(0.35 / 2)


def test_pareto_ranks_and_halving():
    assert pareto_ranks([(1, 2), (2, 1), (2, 2), (3, 3)]) == [0, 0, 1, 2]
    games = {"a": 10, "b": 10, "c": 10, "d": 10, "e": 10, "f": 10}
    losses = {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6}

    def play_to(c, n):
        games[c] = n
    pool = successive_halving(list("abcdef"), games.get, play_to, lambda c: (losses[c],), (1.0,), keep=1,
                              factor=3, budget=1000)
    assert pool == ["a"] and games == {"a": 90, "b": 30, "c": 10, "d": 10, "e": 10, "f": 10}


@pytest.mark.parametrize("args, words", [
    (["--goal", "fairness=0.5"], "no measure 'fairness'; measures: first-player, length, ties, lead-changes"),
    (["--goal", "length=40..30"], "the low end 40 is above the high end 30"),
    (["--goal", "length<=3..4"], "a range goes with '='"),
    (["--goal", "length~3"], "expected MEASURE=VALUE, MEASURE=LOW..HIGH"),
    (["--goal", "ties<=0.1", "--goal", "ties>=0"], "names 'ties' twice"),
    (["--param", "head_strat=0..4"], "no param 'head_strat'"),
    (["--param", "head_start=4..0"], "the low end 4 is above the high end 0"),
    (["--param", "head_start=3..3"], "one value leaves nothing to tune"),
    (["--param", "goal=8..12"], "a param is either tuned or fixed"),
    (["--games", "3000"], "more than half of --budget"),
    (["--skill-margin", "1.5"], "--skill-margin 1.5: expected a share between 0 and 1"),
])
def test_bad_tune_arguments_are_usage_errors(capsys, args, words):
    given = ["--param", "head_start=0..10"] if "--param" not in args else []
    given += ["--goal", "first-player=0.5"] if "--goal" not in args else []
    code, out, err = run(capsys, *BASE, *given, *args)
    assert code == 2 and out == "", err
    assert words in err and "Traceback" not in err


def test_tune_needs_a_param_and_a_goal(capsys):
    code, _, err = run(capsys, "tune", str(RACE), "--players", "2", "--goal", "ties<=0.1")
    assert code == 2 and "tune needs what to tune: --param" in err
    code, _, err = run(capsys, "tune", str(RACE), "--players", "2", "--param", "head_start=0..3")
    assert code == 2 and "tune needs a goal" in err


def test_write_must_be_beside_the_base_game(capsys, tmp_path):
    code, _, err = run(capsys, *TUNE, "--write", str(tmp_path / "fair.game"))
    assert code == 2 and "a variant extends a rule file in its own folder" in err


def test_write_never_overwrites_the_rule_file_being_tuned(capsys, tmp_path):
    base = tmp_path / "race.game"
    base.write_text(RACE.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "long.game").write_text('variant "Long" extends "race.game"\nparam goal = 12\n', encoding="utf-8")
    for given in (["--write", str(base)], ["--variant", "long", "--write", str(tmp_path / "long.game")]):
        code, _, err = run(capsys, "tune", str(base), "--players", "2", "--param", "head_start=0..6", "--goal",
                           "first-player=0.5", *given, "-q")
        assert code == 2 and "that is the rule file being tuned" in err, err
    assert base.read_text(encoding="utf-8") == RACE.read_text(encoding="utf-8")


def test_a_missing_optuna_is_a_clear_error(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "optuna", None)
    code, _, err = run(capsys, *TUNE)
    assert code == 2 and "tune needs optuna: pip install 'boardwright[tune]'" in err
