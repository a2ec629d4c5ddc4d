"""`boardwright tune GAME --bot mcts`: a seeded optuna search of the bot's settings by rotated
self-play against greedy, the same declaration on one or two workers, the declaration
written into the rule file (and still valid --strict), and clear usage errors."""
from __future__ import annotations

import math
import re
import sys

import pytest

from boardwright.cli.main import main
from boardwright.interpreter.compile.load import load_game
from boardwright.interpreter.playtest.simulate import remember_loaded
from boardwright.interpreter.playtest.tune_bot import play_measured, tune_bot

from test_bot_enhancements import RACE

pytest.importorskip("optuna")       # (in the `test` extra: never skipped where the suite runs)

# A budget no candidate nears here: the clock then decides nothing, and the search is exact.
TINY = dict(trials=3, games=4, batch=2, confirm=2, confirm_games=4, seed=3, budget=10.0)
TINY_ARGS = ["--trials", "3", "--games", "4", "--batch", "2", "--confirm", "2", "--confirm-games", "4",
             "--seed", "3", "--quiet"]


@pytest.fixture()
def race_file(tmp_path):
    path = tmp_path / "race.game"
    path.write_text(RACE)
    return path


def tuned(path, workers: int) -> dict:
    game = load_game(path)
    ref = (str(path), None, ())
    remember_loaded(ref, game)
    return tune_bot(game, ref, "mcts", workers=workers, **TINY)


def without_clock(report: dict) -> list:
    return [(r["trial"], r["spec"], r["games"], r["wins"], r["state"]) for r in report["trials"]]


@pytest.mark.slow
def test_the_same_search_on_one_or_two_workers(race_file):
    one, two = tuned(race_file, 1), tuned(race_file, 2)
    assert without_clock(one) == without_clock(two)
    assert one["best"]["spec"] == two["best"]["spec"]
    assert [(r["spec"], r["wins"]) for r in one["confirmed"]] == [(r["spec"], r["wins"]) for r in two["confirmed"]]
    # every candidate played the same games: the first batch's seeds are the same for all
    assert all(r["games"] in (2, 4) for r in one["trials"])
    assert len({r["spec"] for r in one["trials"]}) == 3     # the sampler proposed three candidates
    best = one["best"]
    assert best["games"] == 4 and 0 <= best["ci95"][0] <= best["win_rate"] <= best["ci95"][1] <= 1


def test_a_game_measures_the_candidates_share_and_cpu(race_file):
    game = load_game(race_file)
    # the race to ten as seat 0 (game 0) and seat 1 (game 1): the bot's seat alternates
    for index in (0, 1):
        record = play_measured(game, 5, index, "mcts:iterations=200:width=0:depth=20:guide=1", "random")
        assert record["index"] == index and record["share"] in (0.0, 1.0)
        assert 2 <= record["decisions"] <= 5 and record["cpu"] > 0 and not record["over"]
    # a search that runs past 4 budgets stops its game at once: the candidate is over budget
    stopped = play_measured(game, 5, 0, "mcts:iterations=100000:width=0", "random", budget=1e-4)
    assert stopped["over"] and stopped["decisions"] == 1 and stopped["cpu"] < 1


def test_every_candidate_plays_the_same_seeds(race_file, monkeypatch):
    from boardwright.interpreter.playtest import tune_bot as module
    calls = []
    real = module.GameRunner.play

    def play(self, seed, indexes, candidate, opponent, budget=None, confirm=False):
        calls.append((seed, tuple(indexes), candidate))
        return real(self, seed, indexes, candidate, opponent, budget, confirm)

    monkeypatch.setattr(module.GameRunner, "play", play)
    report = tuned(race_file, 1)
    search = [(seed, indexes) for seed, indexes, _ in calls[:sum(r["games"] // 2 for r in report["trials"])]]
    assert set(search) <= {(3, (0, 1)), (3, (2, 3))} and search[0] == (3, (0, 1))
    firsts = {spec for seed, indexes, spec in calls if indexes == (0, 1) and seed == 3}
    assert len(firsts) == 3                 # each of the three candidates began with games 0 and 1
    confirmation = calls[-2:]
    assert all(seed == 3 + module.CONFIRM_SEED_OFFSET and indexes == (0, 1, 2, 3) for seed, indexes, _ in confirmation)
    # the first candidate is the bot's general defaults (BOT_SETTINGS), whatever the game
    from boardwright.dsl.bot_settings import BOT_SETTINGS, parse_bot_settings
    first = parse_bot_settings("mcts", report["trials"][0]["spec"].split(":")[1:])
    assert first == {k: BOT_SETTINGS["mcts"][k][2] for k in first} and len(first) >= 6


@pytest.mark.slow
def test_write_puts_a_valid_declaration_in_the_rule_file(race_file, capsys):
    assert main(["tune", str(race_file), "--bot", "mcts", "--write", "--decision-seconds", "10"] + TINY_ARGS) == 0
    out = capsys.readouterr().out
    text = race_file.read_text()
    assert text.count('\nbot mcts "') == 1 and "# Tuned by `boardwright tune`: won" in text
    assert f"written to {race_file}" in out
    assert main(["validate", str(race_file), "--strict"]) == 0
    # a second run replaces the declaration and its comment, not adds another
    assert main(["tune", str(race_file), "--bot", "mcts", "--write", "--decision-seconds", "10"] + TINY_ARGS) == 0
    again = race_file.read_text()
    cpu = re.compile(r"[0-9.]+ CPU s")         # the one figure read from the clock
    assert cpu.sub("", again) == cpu.sub("", text) and again.count("# Tuned by") == 1


@pytest.mark.parametrize("args, message", [
    (["--bot", "greedy"], "only mcts has settings to tune"),
    (["--bot", "mcst"], "unknown bot 'mcst'"),
    ([], "or --bot BOT"),
    (["--bot", "mcts", "--write", "x.game"], "--write takes no file name"),
    (["--bot", "mcts", "--param", "goal=1..3"], "--param or --bot, not both"),
    (["--bot", "mcts", "--batch", "3"], "--batch must be even"),
    (["--bot", "mcts", "--games", "2", "--batch", "4"], "must be at least --batch"),
    (["--bot", "mcts", "--opponent", "greedy:depth=3"], "bad bot setting"),
    (["--bot", "mcts", "--decision-seconds", "0"], "positive number of seconds"),
    (["--bot", "mcts", "--write", "--variant", "x"], "--write writes the base"),
])
def test_bad_arguments_are_usage_errors(race_file, capsys, args, message):
    try:
        code = main(["tune", str(race_file)] + args)
    except SystemExit as stop:      # argparse's own errors
        code = stop.code
    assert code == 2
    assert message in capsys.readouterr().err


def test_a_budget_no_candidate_meets_is_said(race_file, capsys):
    assert main(["tune", str(race_file), "--bot", "mcts", "--decision-seconds", "1e-9"] + TINY_ARGS) == 1
    out = capsys.readouterr().out
    assert "3 over budget" in out and "no candidate completed" in out


def test_without_optuna_the_error_says_what_to_install(race_file, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "optuna", None)
    assert main(["tune", str(race_file), "--bot", "mcts"] + TINY_ARGS) == 2
    assert "pip install 'boardwright[tune]'" in capsys.readouterr().err


@pytest.mark.slow
def test_the_same_search_on_a_cluster(race_file, monkeypatch):
    from test_quick_cluster_and_pool import fake_dask
    log: list = []
    fake_dask(monkeypatch, log)
    game = load_game(race_file)
    ref = (str(race_file), None, ())
    remember_loaded(ref, game)
    small = dict(TINY, trials=2, confirm=1)
    on_cluster = tune_bot(game, ref, "mcts", cluster="tcp://sched:8786", **small)
    serial = tune_bot(game, ref, "mcts", **small)
    assert without_clock(on_cluster) == without_clock(serial) and on_cluster["best"]["spec"] == serial["best"]["spec"]
    assert log[0] == ("connect", "tcp://sched:8786") and log[-1] == ("close",)


def test_settings_that_would_change_nothing_are_not_searched():
    import optuna
    from boardwright.interpreter.playtest.tune_bot import SPACE, _suggest, spec_of
    base = {"iterations": 50, "exploration": 0.7, "width": 4, "follow": 0, "decisive": 1}
    flat = _suggest(optuna.trial.FixedTrial(dict(base, depth=0, paired=1)), "mcts", SPACE["mcts"])
    assert spec_of("mcts", flat) == "mcts:iterations=50:exploration=0.7:width=4:follow=0:depth=0:paired=1:decisive=1"
    tree = _suggest(optuna.trial.FixedTrial(dict(base, depth=15, guide=1, whole=0, margin=0, paired=0, widen=1,
                                                 mast=0.5, history=3, reuse=1)), "mcts", SPACE["mcts"])
    assert tree["widen"] == 1 and tree["mast"] == 0.5 and tree["guide"] == 1
    assert tree["history"] == 3 and tree["reuse"] == 1
    guided = _suggest(optuna.trial.FixedTrial(dict(base, depth=15, guide=2, whole=1, margin=4, paired=0, widen=0,
                                                   history=0, reuse=0)), "mcts", SPACE["mcts"])
    assert "mast" not in guided and guided["whole"] == 1 and guided["margin"] == 4
    # progressive history and tree reuse are the tree's: not with paired playouts; and a
    # tree whose root options stand for whole moves (`follow`) is not kept
    assert "history" not in flat and "reuse" not in flat
    followed = _suggest(optuna.trial.FixedTrial(dict(base, follow=200, depth=0, paired=0, widen=0, history=1)),
                        "mcts", SPACE["mcts"])
    assert followed["history"] == 1 and "reuse" not in followed


def _reachable(spec: tuple, value) -> bool:
    if spec[0] == "choice":
        return value in spec[1]
    return spec[1] <= value <= spec[2]


def test_every_hand_tuned_declaration_lies_in_the_search_space():
    """What an expert declared for a bundled game (read from the rule files, not from the
    search) is a point `tune` can propose: every setting it names within the setting's
    range, and searched given the others (settings it leaves out take the bot's defaults)."""
    from pathlib import Path
    from boardwright.dsl.bot_settings import BOT_SETTINGS, parse_bot_settings
    from boardwright.interpreter.playtest.tune_bot import SPACE, WHEN
    games = Path(__file__).resolve().parents[1] / "games"
    declared = [m.group(1) for path in sorted(games.glob("*/*.game"))
                for m in [re.search(r'^bot mcts "(.*)"', path.read_text(), re.M)] if m]
    assert len(declared) >= 3           # Happy City, Point City, Urban Panic
    defaults = {k: d for k, (_, _, d) in BOT_SETTINGS["mcts"].items()}
    for text in declared:
        settings = dict(defaults, **parse_bot_settings("mcts", text.split(":")))
        for name, value in parse_bot_settings("mcts", text.split(":")).items():
            assert name in SPACE["mcts"], (text, name)
            assert _reachable(SPACE["mcts"][name], value), (text, name, value)
            assert WHEN["mcts"].get(name, lambda s: True)(settings), (text, name)


def test_a_candidate_far_over_budget_stops_early(race_file, monkeypatch):
    """A mean past EARLY budgets over the first decisions stops the game, even where no
    single search reaches LIMIT budgets; and here (one process) the batch's later games
    are not played: the candidate is dropped anyway."""
    from boardwright.interpreter.playtest import tune_bot as module
    game = load_game(race_file)
    monkeypatch.setattr(module, "LIMIT", 1e12)
    monkeypatch.setattr(module, "EARLY", (2, 2))
    spec = "mcts:iterations=200:width=0:depth=20:guide=1"
    stopped = play_measured(game, 5, 0, spec, "random", budget=1e-6)
    assert stopped["over"] and stopped["decisions"] == 2
    assert not play_measured(game, 5, 0, spec, "random", budget=10.0)["over"]
    ref = (str(race_file), None, ())
    remember_loaded(ref, game)
    with module.GameRunner(game, ref) as runner:
        records = runner.play(5, [0, 1, 2, 3], spec, "random", 1e-6)
    assert [r["index"] for r in records] == [0] and records[0]["over"]


def test_a_game_meters_the_searches_setup_and_iterations(race_file):
    """Each decision of the race offers 3 options, all alike to the shortlist: a tree of 50
    iterations runs 50 per decision; paired playouts of 7 run whole rounds over the 3,
    3 x 3 = 9; a search whose shortlist is one option (a move that wins at once, with
    `decisive`) runs none: its whole cost is setup."""
    game = load_game(race_file)
    for spec, per_decision in (("mcts:iterations=50:width=0", 50), ("mcts:iterations=7:width=0:paired=1:depth=3", 9)):
        record = play_measured(game, 5, 0, spec, "random", budget=10.0)
        assert record["iterations"] == per_decision * record["decisions"] and record["decisions"] >= 2, spec
        assert 0 < record["setup"] < record["cpu"], spec
    game.set_params({"start": 9})           # the first decision wins at once
    record = play_measured(game, 5, 0, "mcts:iterations=50:width=0:decisive=1", "random", budget=10.0)
    assert (record["decisions"], record["iterations"], record["share"]) == (1, 0, 1.0)
    assert 0 < record["setup"] <= record["cpu"]
    # a search stopped at LIMIT budgets still counts its setup (and the iterations it ran: none here)
    game.set_params({"start": 0})
    stopped = play_measured(game, 5, 0, "mcts:iterations=100000:width=0:decisive=1", "random", budget=1e-9)
    assert stopped["limit"] and stopped["setup"] > 0 and stopped["iterations"] == 0


@pytest.mark.parametrize("spec, per_round", [({}, 1), ({"paired": 1, "depth": 3}, 3)])
def test_a_search_stopped_at_its_limit_counts_the_iterations_it_ran(race_file, monkeypatch, spec, per_round):
    """With a CPU clock that reads 0, 1, 2, ...: the search begins at 0, its setup ends at
    1, and the limit 5.5 lets the checks that read 2, 3, 4 and 5 start a round each (one
    iteration in a tree, one per option of the race's 3 in paired playouts); the check that
    reads 6 stops it, and the meter holds those rounds."""
    import itertools
    from types import SimpleNamespace
    from boardwright.interpreter.bots import mcts
    ticks = itertools.count()
    monkeypatch.setattr(mcts, "time", SimpleNamespace(process_time=lambda: float(next(ticks)),
                                                      perf_counter=mcts.time.perf_counter))
    game = load_game(race_file)
    st = game.new_state(2, "5")
    assert len(st.pending.values) == 3
    bot = mcts.MCTSBot(1, iterations=100000, width=0, **spec)
    bot.limit, bot.meter = 5.5, [0.0, 0]
    with pytest.raises(mcts.SearchLimitReached):
        bot.choose(game, st)
    assert bot.meter == [1.0, 4 * per_round]



def test_a_search_stops_at_its_limit_while_trying_decisive_moves(race_file, monkeypatch):
    """`decisive=2` tries every option against every answer before the first iteration (in
    the polyomino test bed 14.5 CPU s for one decision, 58 budgets): the limit is checked
    before each option. With a CPU clock that reads 0, 1, 2, ... and the limit 1.5, the
    check before the first option reads 1 and lets it be tried, the next reads 2 and stops
    the search: one of the race's 3 options has had its answers tried, and the meter holds
    the setup up to then (the read 3, less the start 0) and no iteration."""
    import itertools
    from types import SimpleNamespace
    from boardwright.interpreter.bots import mcts
    ticks = itertools.count()
    monkeypatch.setattr(mcts, "time", SimpleNamespace(process_time=lambda: float(next(ticks)),
                                                      perf_counter=mcts.time.perf_counter))
    answered = []
    real = mcts._has_winning_reply
    monkeypatch.setattr(mcts, "_has_winning_reply", lambda game, st: answered.append(1) or real(game, st))
    game = load_game(race_file)
    st = game.new_state(2, "5")
    assert len(st.pending.values) == 3
    bot = mcts.MCTSBot(1, iterations=100000, width=0, decisive=2)
    bot.limit, bot.meter = 1.5, [0.0, 0]
    with pytest.raises(mcts.SearchLimitReached):
        bot.choose(game, st)
    assert len(answered) == 1 and bot.meter == [3.0, 0]

# (decisions, CPU, setup CPU, iterations run; a search past LIMIT?) -> iterations fitted from 400, budget 0.25:
# fixed = setup / decisions, per iteration = (CPU - setup) / iterations run, fitted = (0.7 x 0.25 - fixed) / per
# iteration rounded down to ROUND_ITERATIONS, at least 8, None if 8 would still cost over the budget.
@pytest.mark.parametrize("cpu, setup, run, limit, expected, why", [
    (10.0, 1.0, 4000, False, 30, "refitted to 30"),    # 0.1 + 2.25 ms: (0.175 - 0.1) / 0.00225 = 33.3 -> 30
    (10.0, 1.0, 4000, True, 15, "refitted to 15"),     # halved where a search ran past LIMIT: 16.7 -> 15
    (10.0, 0.0, 4000, False, 60, "refitted to 60"),    # nothing fixed: in proportion, 400 x 0.7 x 0.25 / 1.0 = 70
    (3.0, 1.0, 4000, False, 150, "refitted to 150"),   # 0.1 + 0.5 ms: 150 -> 150
    (6.0, 2.0, 4000, False, 8, "refitted to 8"),       # 0.2 + 1 ms: the fixed part over 0.175; 8 costs 0.208
    (10.0, 2.0, 800, False, None, "8 iterations would cost 0.280 s"),    # 0.2 + 10 ms: 8 cost 0.28
    (10.0, 2.5, 4000, False, None, "fixed part alone is over the budget"),   # 0.25 fixed
    (1.5, 0.1, 4000, False, None, "no fewer iterations"),  # 0.01 + 0.35 ms (a game over by one search): 471
])
def test_fitted_iterations_by_the_fixed_part_and_the_cost_per_iteration(cpu, setup, run, limit, expected, why):
    from boardwright.interpreter.playtest.tune_fit import fitted_iterations
    row = {"decisions": 10, "cpu": cpu, "setup": setup, "iterations_run": run, "cpu_per_decision": cpu / 10}
    fitted, reason = fitted_iterations({"iterations": 400}, row, [{"over": limit, "limit": limit}], 0.25, 8)
    assert fitted == expected and why in reason
    assert reason.startswith(f"{cpu / 10:.3f} s per decision: {setup / 10:.3f} fixed + ")


FIRST = "mcts:iterations=400:exploration=0.7:width=6:follow=0:depth=0:paired=0:decisive=0:widen=0:history=0:reuse=0"  # STARTS[0]


def searched_with(race_file, monkeypatch, alter, raised: bool = False, **options) -> dict:
    """A tiny search of the race whose game records `alter(candidate, budget, records)` changes
    (with no candidate fitted upwards unless `raised`: every candidate here is far under the budget)."""
    from boardwright.interpreter.playtest import tune_bot as module, tune_fit
    if not raised:
        monkeypatch.setattr(tune_fit, "RAISE", math.inf)
    real = module.GameRunner.play

    def play(self, seed, indexes, candidate, opponent, budget=None, confirm=False):
        records = real(self, seed, indexes, candidate, opponent, budget, confirm)
        alter(candidate, budget, records)
        return records

    monkeypatch.setattr(module.GameRunner, "play", play)
    game = load_game(race_file)
    ref = (str(race_file), None, ())
    remember_loaded(ref, game)
    return tune_bot(game, ref, "mcts", **dict(TINY, **options))


def test_an_over_budget_candidate_is_refitted_by_its_cost_at_most_twice(race_file, monkeypatch):
    """The first candidate (400 iterations) is made to measure 4 budgets per decision, 0.2 of
    them fixed: 400 iterations cost 3.8, so 0.5 budgets buy 0.5 / 3.8 x 400 = 52.6 -> 50.
    At 50 it measures 1.5 budgets, 0.5 fixed: 0.2 budgets buy 0.2 / 1.0 x 50 = 10. At 10 it
    is over again (2 budgets) and not fitted a third time."""
    costs = {400: (4.0, 0.2), 50: (1.5, 0.5), 10: (2.0, 0.3)}       # iterations: (budgets, fixed budgets)

    def alter(candidate, budget, records):
        n = int(candidate.split("iterations=")[1].split(":")[0])
        if candidate.replace(f"iterations={n}:", "iterations=400:") == FIRST:
            for r in records:       # as if each decision had cost so much
                r["cpu"], r["setup"] = (c * budget * r["decisions"] for c in costs[n])
                r["iterations"] = n * r["decisions"]

    rows = searched_with(race_file, monkeypatch, alter, trials=7)["trials"]
    assert rows[0]["state"] == "over budget" and rows[0]["spec"] == FIRST
    assert rows[4]["fitted_from"] == 0 and rows[4]["spec"] == FIRST.replace("iterations=400:", "iterations=50:")
    assert rows[5]["fitted_from"] == 4 and rows[5]["spec"] == FIRST.replace("iterations=400:", "iterations=10:")
    assert [rows[i]["why"].rsplit("; ", 1)[1] for i in (0, 4, 5)] == [
        "refitted to 50 iterations", "refitted to 10 iterations", "fitted 2 times: not again"]
    assert rows[6]["fitted_from"] is None and sum(r["fitted_from"] is not None for r in rows) == 2


def test_a_candidate_that_cannot_pass_the_one_to_confirm_stops(race_file, monkeypatch):
    """With one candidate to confirm, the first (made to win all 4 of its games) stays the
    best; the next ones (made to lose every game) have 0 of 2 after their first batch, at
    most 2 of 4, not more than 4: they stop there, whatever the pruner says."""
    def alter(candidate, budget, records):
        for r in records:
            r["share"] = 1.0 if candidate == FIRST else 0.0

    report = searched_with(race_file, monkeypatch, alter, confirm=1)
    assert [(r["state"], r["games"]) for r in report["trials"]] == [("complete", 4), ("pruned", 2), ("pruned", 2)]
    assert [r.get("why") for r in report["trials"]] == [None] + [
        "0 of 2 won: at most 2 of 4, not more than the first best complete candidate's 4"] * 2
    assert report["best"]["spec"] == FIRST


def test_hopeless_counts_the_games_left_against_the_candidate_to_confirm():
    """Complete candidates won 12, 14 and 9 of 16 (a pruned one's 15 does not count): 3.5 of
    8 can reach 11.5, no more than the first's 14 or the second's 12, more than the third's
    9; 4 of 8 can only tie the second's 12 (a tie goes to the earlier trial), 4.5 passes it."""
    from boardwright.interpreter.playtest.tune_bot import hopeless
    rows = [{"state": "complete", "wins": w} for w in (12.0, 14.0, 9.0)] + [{"state": "pruned", "wins": 15.0}]
    outcomes = {(wins, confirm): hopeless({"wins": wins, "games": 8}, rows, 16, confirm) is not None
                for wins in (3.5, 4.0, 4.5) for confirm in (1, 2, 3, 4)}
    assert outcomes == {(3.5, 1): True, (3.5, 2): True, (3.5, 3): False, (3.5, 4): False,
                        (4.0, 1): True, (4.0, 2): True, (4.0, 3): False, (4.0, 4): False,
                        (4.5, 1): True, (4.5, 2): False, (4.5, 3): False, (4.5, 4): False}
    assert hopeless({"wins": 3.5, "games": 8}, rows, 16, 2) == (
        "3.5 of 8 won: at most 11.5 of 16, not more than the second best complete candidate's 12")


# Urban Panic's paired start, as measured (docs/playtesting.md): 0.015 s fixed + 8.68 ms per
# iteration over its first 10 decisions, 0.166 s fixed + 14.96 ms per iteration over whole games.
EARLY_ROW = {"decisions": 10, "cpu": 0.15 + 100 * 0.00868, "setup": 0.15, "iterations_run": 100,
             "cpu_per_decision": 0.1018, "whole_games": 0}
PROBE_GAME = {"decisions": 100, "cpu": 16.6 + 200 * 0.01496, "setup": 16.6, "iterations": 200, "iterations_each": 1}


def test_a_whole_game_probe_raises_the_cost_model_where_it_reads_higher():
    """Each part is the larger of the two: the probe's 0.166 fixed over the first decisions'
    0.015, its 14.96 ms per iteration over 8.68; a probe that reads lower changes nothing."""
    from boardwright.interpreter.playtest.tune_fit import cost_model
    assert cost_model(EARLY_ROW) == pytest.approx((0.015, 0.00868))
    assert cost_model(EARLY_ROW, PROBE_GAME) == pytest.approx((0.166, 0.01496))
    cheap = {"decisions": 100, "cpu": 0.5 + 100 * 0.001, "setup": 0.5, "iterations": 100}
    assert cost_model(EARLY_ROW, cheap) == pytest.approx((0.015, 0.00868))
    assert cost_model(EARLY_ROW, dict(cheap, iterations=0)) == pytest.approx((0.015, 0.00868))


def test_fitted_from_the_first_decisions_and_from_a_whole_game():
    """From the first decisions: (0.175 - 0.015) / 8.68 ms = 18.4 -> 15 iterations (the
    fit the failed run made); with the whole game: (0.175 - 0.166) / 14.96 ms = 0.6, and the
    fewest, 8, cost 0.166 + 0.120 = 0.286 s: over the budget, not refitted."""
    from boardwright.interpreter.playtest.tune_fit import fitted_iterations, needs_probe
    settings = {"iterations": 60, "width": 2, "paired": 1}
    assert fitted_iterations(settings, EARLY_ROW, [], 0.25, 8)[0] == 15
    fitted, why = fitted_iterations(settings, EARLY_ROW, [], 0.25, 8, PROBE_GAME)
    assert fitted is None and "8 iterations would cost 0.286 s" in why and "a whole game at 1 iteration" in why
    # a probe is played only for a candidate that met no whole game and would be refitted
    assert needs_probe(settings, EARLY_ROW, [], 0.25, 8)
    assert not needs_probe(settings, dict(EARLY_ROW, whole_games=1), [], 0.25, 8)
    assert not needs_probe(settings, dict(EARLY_ROW, setup=3.0), [], 0.25, 8)   # 0.3 fixed: no refit anyway


@pytest.mark.parametrize("settings, per_iteration, expected", [
    ({"iterations": 60, "width": 2, "follow": 0}, 0.01496, {"width": 0, "iterations": 10}),  # 0.175 / 14.96 ms = 11.7
    ({"iterations": 400, "width": 6, "follow": 0}, 0.00074, {"width": 0, "iterations": 200}),  # 236 -> 200
    ({"iterations": 50, "width": 6, "follow": 0}, 0.00074, {"width": 0, "iterations": 50}),    # at most its own
    ({"iterations": 100, "width": 6, "follow": 0}, 0.00686, {"width": 0, "iterations": 25}),  # 25.5: its fixed part not counted
    ({"iterations": 100, "width": 6, "follow": 200}, 0.001, {"width": 2, "iterations": 100}),  # whole moves: 2
    ({"iterations": 100, "width": 0, "follow": 200}, 0.001, {"width": 2, "iterations": 100}),  # (0: every option)
    ({"iterations": 100, "width": 0, "follow": 0}, 0.001, None),      # as cheap as it gets
    ({"iterations": 100, "width": 2, "follow": 200}, 0.001, None),
    ({"iterations": 30, "width": 6, "follow": 0}, 0.04, None),        # 8 x 40 ms = 0.32 s: over by themselves
])
def test_a_cheaper_shortlist_keeps_the_search_and_fits_its_iterations(settings, per_iteration, expected):
    from boardwright.interpreter.playtest.tune_fit import cheaper_shortlist
    row = {"decisions": 10, "setup": 2.0, "cpu": 2.0 + 1000 * per_iteration, "iterations_run": 1000}
    cheaper = cheaper_shortlist(settings, row, 0.25, 8)
    assert cheaper == (dict(settings, **expected) if expected else None)


def test_the_refit_takes_a_cheaper_shortlist_only_where_the_fixed_part_leaves_no_room():
    """0.166 fixed + 8 x 14.96 ms = 0.286 > 0.175, and 0.166 > 0.120: a cheaper shortlist;
    0.015 fixed: fewer iterations (15); 0.1 fixed + 8 x 20 ms = 0.26 > 0.175 but the
    iterations are the larger share: fewer iterations cannot fit, and a shortlist would not help."""
    from boardwright.interpreter.playtest.tune_bot import refitted
    settings = {"iterations": 60, "width": 2, "follow": 0, "paired": 1}
    refit, why = refitted(settings, EARLY_ROW, [], 0.25, 8, PROBE_GAME)
    assert refit == dict(settings, width=0, iterations=10)
    assert why.endswith("the fixed part leaves no room for 8 iterations: a cheaper shortlist, width=0 at 10 iterations")
    assert refitted(settings, EARLY_ROW, [], 0.25, 8)[0] == dict(settings, iterations=15)
    busy = {"decisions": 10, "setup": 1.0, "cpu": 1.0 + 100 * 0.02, "iterations_run": 100, "cpu_per_decision": 0.3}
    assert refitted(settings, busy, [], 0.25, 8) == (None, refitted(settings, busy, [], 0.25, 8)[1])
    assert "8 iterations would cost 0.260 s: not refitted" in refitted(settings, busy, [], 0.25, 8)[1]


def test_a_cheaper_shortlist_says_the_cost_it_was_refitted_from_whole():
    """docs/playtesting.md (tuning a bot): an over-budget trial says what it cost, then what was
    done. The cost is the model's (`cost_model`, the larger of the first decisions and the
    probe's whole game: 16.6 / 100 = 0.166 fixed, (16.6 + 2.992 - 16.6) / 200 = 14.96 ms), over
    the row's measured 0.1018 s per decision, as for fewer iterations."""
    from boardwright.interpreter.playtest.tune_bot import refitted
    settings = {"iterations": 60, "width": 2, "follow": 0, "paired": 1}
    assert refitted(settings, EARLY_ROW, [], 0.25, 8, PROBE_GAME)[1] == (
        "0.102 s per decision: 0.166 fixed + 14.96 ms per iteration (the larger of its games and a whole game at "
        "1 iteration); the fixed part leaves no room for 8 iterations: a cheaper shortlist, width=0 at 10 iterations")


def test_a_whole_game_far_over_budget_drops_the_candidate_at_once(race_file, monkeypatch):
    """A game played to its end at a mean far past WHOLE budgets is over (and whole: its cost
    holds over a game); on one process the batch's later games are not played. One under
    it is neither."""
    from boardwright.interpreter.playtest import tune_bot as module
    game = load_game(race_file)
    monkeypatch.setattr(module, "LIMIT", 1e12)
    monkeypatch.setattr(module, "EARLY", (10 ** 6, 2))
    spec = "mcts:iterations=50:width=0"
    record = play_measured(game, 5, 0, spec, "random", budget=10.0)
    assert not record["over"] and record["whole"]
    mean = record["cpu"] / record["decisions"]
    # 8 budgets, far past WHOLE's 1.25: a second game can run faster than the first (warm
    # caches), and under coverage it did once by more than half
    over = play_measured(game, 5, 0, spec, "random", budget=mean / 8)
    assert over["over"] and over["whole"] and over["decisions"] == record["decisions"]
    ref = (str(race_file), None, ())
    remember_loaded(ref, game)
    with module.GameRunner(game, ref) as runner:
        assert [r["index"] for r in runner.play(5, [0, 1, 2, 3], spec, "random", mean / 100)] == [0]
    monkeypatch.setattr(module, "EARLY", (1, 2))
    early = play_measured(game, 5, 0, spec, "random", budget=mean / 100)
    assert early["over"] and not early["whole"] and early["decisions"] == 1


def test_a_candidate_stopped_early_is_refitted_by_a_whole_game_probe(race_file, monkeypatch):
    """The first candidate is made to stop early (no whole game) at 4 budgets per decision,
    0.06 of them fixed: alone, that would refit it to (0.7 - 0.06) / (3.94 / 400) = 65 -> 60.
    Its probe, a whole game of game 0 at one iteration, is made to read 0.66 budgets fixed +
    0.01 per iteration: 0.66 + 8 x 0.01 = 0.74 over 0.7, and the fixed part the larger share:
    the next trial is the same search over every option (width=0) at 0.7 / 0.01 = 70 -> 60."""
    calls = []

    def alter(candidate, budget, records):
        calls.append((candidate, [r["index"] for r in records]))
        for r in records:
            if candidate == FIRST:
                r.update(cpu=4 * budget * r["decisions"], setup=0.06 * budget * r["decisions"],
                         iterations=400 * r["decisions"], over=True, whole=False)
            elif candidate == FIRST.replace("iterations=400:", "iterations=1:"):
                r.update(setup=0.66 * budget * r["decisions"], cpu=0.67 * budget * r["decisions"],
                         iterations=r["decisions"])

    rows = searched_with(race_file, monkeypatch, alter, trials=5)["trials"]
    assert calls[1] == (FIRST.replace("iterations=400:", "iterations=1:"), [0])
    assert rows[0]["probe"]["iterations_each"] == 1 and rows[0]["state"] == "over budget"
    assert rows[0]["why"].endswith("a cheaper shortlist, width=0 at 60 iterations")
    assert rows[4]["fitted_from"] == 0
    assert rows[4]["spec"] == FIRST.replace("iterations=400:", "iterations=60:").replace("width=6", "width=0")


# The polyomino test bed's general defaults fitted down to 60 iterations from their first ten
# decisions, as measured over 16 whole games (docs/playtesting.md): 0.055 s fixed + 0.62 ms
# per iteration, 0.093 s per decision, 37% of the budget.
WELL_UNDER = {"games": 16, "whole_games": 16, "decisions": 250, "setup": 250 * 0.055,
              "cpu": 250 * (0.055 + 60 * 0.00062), "iterations_run": 250 * 60, "cpu_per_decision": 0.092}


@pytest.mark.parametrize("settings, row, expected, why", [
    # (0.175 - 0.055) / 0.62 ms = 193.5 -> 150, at least 1.5 x 60
    ({"iterations": 60}, WELL_UNDER, 150, "0.055 fixed + 0.62 ms per iteration over 16 whole games; raised to 150"),
    # the same cost at 120 iterations: 150 is not 1.5 x 120
    ({"iterations": 120}, WELL_UNDER, None, "no more iterations to fit"),
    # one game stopped early: its cost says nothing of the later decisions
    ({"iterations": 60}, dict(WELL_UNDER, whole_games=15), None, "not every game whole: not raised"),
    # nearly free iterations: at most the search space's highest, 2000
    ({"iterations": 60}, dict(WELL_UNDER, cpu=250 * 0.0551), 2000, "raised to 2000"),
    # a paired search set to 60 that played rounds of about 220 options: 193 is not 1.5 x 220
    ({"iterations": 60, "paired": 1}, dict(WELL_UNDER, iterations_run=250 * 220, cpu=250 * (0.055 + 220 * 0.00062)),
     None, "no more iterations to fit"),
])
def test_a_candidate_well_under_the_budget_is_raised_from_its_whole_games(settings, row, expected, why):
    from boardwright.interpreter.playtest.tune_fit import raised_iterations
    raised, reason = raised_iterations(settings, row, 0.25, 2000)
    assert raised == expected and why in reason


def test_a_paired_search_is_not_fitted_below_a_round_of_its_shortlist():
    """A paired search over every option (`width=0`) set to 86 iterations played a round of
    about 400 options a decision at 12.5 ms each, 5.0 s: a round is more than 400 - 86 = 314
    iterations, 0.002 + 314 x 12.5 ms = 3.9 s, so no fewer iterations can fit (the fit by the
    cost per iteration alone would give (0.175 - 0.002) / 12.5 ms = 13.8 -> 12). A probe at
    one iteration a search that played 414 a decision says a round is at least 413."""
    from boardwright.interpreter.playtest.tune_fit import fitted_iterations, least_iterations
    settings = {"iterations": 86, "width": 0, "paired": 1}
    row = {"games": 1, "decisions": 10, "setup": 0.02, "cpu": 0.02 + 4000 * 0.0125, "iterations_run": 4000,
           "cpu_per_decision": 5.002}
    assert least_iterations(settings, row) == pytest.approx(314)
    fitted, why = fitted_iterations(settings, row, [], 0.25, 8)
    assert fitted is None and why.endswith("8 iterations would cost 3.927 s (its searches play at least 314 "
                                           "iterations a decision, a round of its shortlist): not refitted")
    probe = {"decisions": 20, "setup": 0.04, "cpu": 0.04 + 20 * 414 * 0.0125, "iterations": 20 * 414,
             "iterations_each": 1}
    assert least_iterations(settings, row, probe) == pytest.approx(413)
    tree = {"iterations": 400}      # a tree plays what it is asked or fewer (a shortlist of one: none)
    assert least_iterations(tree, dict(row, iterations_run=3900)) == 0
    assert fitted_iterations(tree, dict(row, iterations_run=4000), [], 0.25, 8)[0] == 12


def costed(costs: dict):
    """An `alter` that makes the first candidate's settings at n iterations cost `costs[n]` =
    (budgets, fixed budgets) per decision and win every game, and every other candidate
    cost 0.69 budgets, nothing fixed (neither fitted down nor up)."""
    def alter(candidate, budget, records):
        n = int(candidate.split("iterations=")[1].split(":")[0])
        first = candidate.replace(f"iterations={n}:", "iterations=400:") == FIRST
        for r in records:
            budgets, fixed = costs[n] if first else (0.69, 0.0)
            r["cpu"], r["setup"] = budgets * budget * r["decisions"], fixed * budget * r["decisions"]
            r["iterations"] = n * r["decisions"]
            r["share"] = 1.0 if first else r["share"]      # (won: never hopeless)
    return alter


def test_a_candidate_well_under_the_budget_is_tried_again_with_more_iterations(race_file, monkeypatch):
    """The first candidate (400 iterations) is made to cost 0.3 budgets per decision, 0.1 of
    them fixed: (0.7 - 0.1) / (0.2 / 400) = 1200 iterations, tried after the other general
    starts (fitted from trial 0, `why` saying so). At 1200 it is made to cost 0.68 budgets:
    (0.7 - 0.1) / (0.58 / 1200) = 1241 is not 1.5 x 1200, so it is not raised again."""
    alter = costed({400: (0.3, 0.1), 1200: (0.68, 0.1)})
    rows = searched_with(race_file, monkeypatch, alter, raised=True, trials=6, confirm=5)["trials"]   # (none hopeless)
    assert rows[0]["state"] == "complete" and rows[0]["why"].endswith("over 4 whole games; raised to 1200 iterations")
    assert rows[4]["fitted_from"] == 0 and rows[4]["spec"] == FIRST.replace("iterations=400:", "iterations=1200:")
    assert rows[4]["state"] == "complete" and rows[4].get("why") is None
    assert [r["fitted_from"] for r in rows] == [None] * 4 + [0, None]


def test_a_raise_counts_among_the_refits(race_file, monkeypatch):
    """Over budget at 400 (4 budgets, 0.2 fixed: fitted down to 50, as in the test above),
    then well under at 50 (0.2 budgets, 0.05 fixed: (0.7 - 0.05) / (0.15 / 50) = 216.7 ->
    200), then under at 200 (0.3, 0.05: 520 -> 500 would be a raise) but fitted twice: not again."""
    alter = costed({400: (4.0, 0.2), 50: (0.2, 0.05), 200: (0.3, 0.05), 500: (0.5, 0.05)})
    rows = searched_with(race_file, monkeypatch, alter, raised=True, trials=7, confirm=5)["trials"]
    assert [(r["fitted_from"], r["spec"].split(":")[1]) for r in rows[4:]] == [
        (0, "iterations=50"), (4, "iterations=200"), (None, rows[6]["spec"].split(":")[1])]
    assert rows[4]["why"].endswith("raised to 200 iterations") and rows[5].get("why") is None


def test_a_confirmation_game_is_stopped_only_by_a_runaway_search(race_file, monkeypatch):
    """A confirmation judges the budget by the mean over its games: a game at 8 budgets a
    decision (past `WHOLE`), or whose first decision is past `EARLY`, plays to its end as
    without a budget (the same moves and share) and is not over; a search past `LIMIT`
    still stops it. In `tune_bot` the confirmation's games are played so."""
    from boardwright.interpreter.playtest import tune_bot as module
    game = load_game(race_file)
    spec = "mcts:iterations=50:width=0"
    free = play_measured(game, 5, 0, spec, "random")
    mean = free["cpu"] / free["decisions"]
    monkeypatch.setattr(module, "LIMIT", 1e12)
    monkeypatch.setattr(module, "EARLY", (1, 2))
    for budget in (mean / 8, mean / 100):
        over = play_measured(game, 5, 0, spec, "random", budget=budget)
        assert over["over"]
        kept = play_measured(game, 5, 0, spec, "random", budget=budget, confirm=True)
        assert not kept["over"] and (kept["decisions"], kept["share"]) == (free["decisions"], free["share"])
    monkeypatch.setattr(module, "LIMIT", 1e-9)
    runaway = play_measured(game, 5, 0, spec, "random", budget=mean, confirm=True)
    assert runaway["over"] and runaway["limit"] and runaway["decisions"] == 1
    monkeypatch.setattr(module, "LIMIT", 12)
    monkeypatch.setattr(module, "EARLY", (10, 2))
    calls = []
    real = module.GameRunner.play

    def play(self, seed, indexes, candidate, opponent, budget=None, confirm=False):
        calls.append((seed, confirm))
        return real(self, seed, indexes, candidate, opponent, budget, confirm)

    monkeypatch.setattr(module.GameRunner, "play", play)
    ref = (str(race_file), None, ())
    remember_loaded(ref, game)
    tune_bot(game, ref, "mcts", **dict(TINY, trials=1, confirm=1))
    assert set(calls) == {(3, False), (3 + module.CONFIRM_SEED_OFFSET, True)}
