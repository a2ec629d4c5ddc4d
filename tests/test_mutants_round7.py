"""Behaviour the mutation samples of round 7 found unguarded (tests/mutation_sample.py, seeds 101
and up for exploration, 29 fresh; docs/testing.md "Mutation testing"): each test here was seen
failing with its mutant planted and passing without it. The mutants each one kills are named in
its docstring."""
from __future__ import annotations

import pytest


def test_a_seats_web_view_is_everything_it_sees_and_nothing_more(tmp_path):
    """cli/web/looks.py seat_view, zone_view, var_lines, option_targets and live scores: the
    whole view of the first seat of web_support's secret game before the first move, written
    out by hand from the rules (four cards in each hand, seat 0 to play one of its own; the
    other hand shown as its size only; plays per player; one score line). Kills the string
    mutants of its keys ("title", "size", "hidden", ...), a view that drops a part, an owner
    read wrong and options pointing at the wrong place."""
    from boardwright.cli.web.looks import seat_view
    from web_support import new_table, secret_game
    table = new_table(tmp_path, str(secret_game(tmp_path)), ["human", "human"])
    game, st = table.game, table.st
    ids = [option.id for option in game.decision(st).options]
    cards = ["Aardvark", "Bison", "Cobra", "Dingo"]
    players = [{"seat": 0, "name": "Player 1", "plays": "human"}, {"seat": 1, "name": "Player 2", "plays": "human"}]
    expected = {
        "title": "Secret hands", "variant": None, "seat": 0, "finished": False, "turn": 1, "move": 0,
        "players": players, "current": 0,
        "zones": [
            {"key": "hand/0", "name": "hand", "owner": 0, "kind": "pile", "visibility": "owner",
             "items": [{"label": name} for name in cards], "size": 4},
            {"key": "hand/1", "name": "hand", "owner": 1, "kind": "pile", "visibility": "owner",
             "hidden": True, "size": 4},
            {"key": "played", "name": "played", "owner": None, "kind": "pile", "visibility": "public",
             "items": [], "size": 0}],
        "vars": [{"name": "plays", "title": "Cards played", "per_player": ["0", "0"]}],
        "log": [],
        "decision": {"player": 0, "prompt": "Play a card", "options": [
            {"index": i, "id": ids[i], "label": name, "targets": [{"zone": "hand/0", "pos": i}]}
            for i, name in enumerate(cards)]},
        "scores": {"titles": ["Cards played"], "players": [
            {"seat": p, "name": f"Player {p + 1}", "lines": ["0"], "total": "0"} for p in range(2)]},
    }
    assert seat_view(game, st, 0, ["human", "human"]) == expected
    # The other seat sees its own hand, not seat 0's, and whose turn it is without the options.
    other = seat_view(game, st, 1, ["human", "human"])
    assert [z.get("hidden", False) for z in other["zones"]] == [True, False, False]
    assert [item["label"] for item in other["zones"][1]["items"]] == ["Egret", "Falcon", "Gecko", "Heron"]
    assert other["decision"] == {"player": 0, "prompt": None, "options": None} and other["seat"] == 1


def _saved_figures(monkeypatch) -> list:
    """What each figure saved with matplotlib said: its title, each plot's title, axis labels,
    tick labels, lines, legend and y limits, and the options it was saved with."""
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure
    saved, original = [], Figure.savefig

    def savefig(fig, path, **options):
        fig.canvas.draw()
        plots = [{"title": ax.get_title(), "xlabel": ax.get_xlabel(), "ylabel": ax.get_ylabel(),
                  "ticks": [t.get_text() for t in ax.get_xticklabels()],
                  "xs": [list(line.get_xdata()) for line in ax.lines],
                  "ys": [list(line.get_ydata()) for line in ax.lines], "ylim": tuple(round(v, 2) for v in ax.get_ylim()),
                  "legend": [t.get_text() for t in ax.get_legend().get_texts()] if ax.get_legend() else None}
                 for ax in fig.axes]
        saved.append({"title": fig._suptitle.get_text() if fig._suptitle else None, "plots": plots, **options})
        return original(fig, path, **options)
    monkeypatch.setattr(Figure, "savefig", savefig)
    return saved


def _sweep_report(variant):
    """A sweep of `mode` (two enum members) and `n` (1, 2): four points, two measures."""
    points = [{"params": {"mode": mode, "n": n},
               "measures": {"win rate Player 1": {"value": 0.5, "ci95": [0.3, 0.7]},
                            "length": {"value": 10.0 + n, "ci95": [9.0, 13.0]}}}
              for mode in ("fast", "slow") for n in (1, 2)]
    return {"game": "Race", "variant": variant, "games": 40, "params": ["mode", "n"], "points": points}


@pytest.mark.parametrize("variant, title", [(None, "Race"), ("team", "Race (team)")])
def test_a_sweeps_plot_is_titled_with_the_game_its_variant_and_what_each_plot_shows(monkeypatch, tmp_path,
                                                                                   variant, title):
    """interpreter/playtest/sweep.py plot_sweep: the figure's title names the game, and its
    variant in brackets only when there is one ("Race (None)" with the mutant `if
    report.get("variant") or True`); a plot per measure against the first param, named along
    the x axis (text values as ticks), a line per value of the second param, a share on its
    whole scale; a PNG at 100 dpi."""
    from boardwright.interpreter.playtest.sweep import plot_sweep
    saved = _saved_figures(monkeypatch)
    plot_sweep(str(tmp_path / "sweep.png"), _sweep_report(variant))
    assert (tmp_path / "sweep.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    [figure] = saved
    assert figure["title"] == f"{title}: 40 games per value, 95% interval bands"
    assert figure["dpi"] == 100
    share, length = figure["plots"]
    for plot, name in ((share, "win rate Player 1"), (length, "length")):
        assert (plot["title"], plot["xlabel"], plot["ticks"], plot["legend"]) == (name, "mode", ["fast", "slow"],
                                                                                ["n=1", "n=2"])
    assert share["ylim"] == (-0.02, 1.02) and length["ylim"] != (-0.02, 1.02)
    assert share["xs"] == [[0, 1], [0, 1]]          # text values: one place each


def test_a_sweeps_plot_puts_the_values_of_a_numeric_param_at_their_places(monkeypatch, tmp_path):
    """plot_sweep: a first param that is a number is plotted at its values (1 and 3 are two
    apart), not one place each as text values are (the mutant that takes every number for a
    bool, `isinstance(..., bool)` for `not isinstance(..., bool)`, puts them at 0 and 1); a
    true/false param is text."""
    from boardwright.interpreter.playtest.sweep import plot_sweep
    saved = _saved_figures(monkeypatch)
    report = _sweep_report(None)
    for row in report["points"]:
        row["params"] = {"n": row["params"]["n"] * 2 - 1, "mode": row["params"]["mode"]}
    plot_sweep(str(tmp_path / "numbers.png"), dict(report, params=["n", "mode"]))
    for row in report["points"]:
        row["params"] = {"fair": row["params"]["n"] == 1, "mode": row["params"]["mode"]}
    plot_sweep(str(tmp_path / "bools.png"), dict(report, params=["fair", "mode"]))
    numbers, bools = saved
    assert numbers["plots"][0]["xs"] == [[1, 3], [1, 3]] and numbers["plots"][0]["legend"] == ["mode=fast", "mode=slow"]
    assert bools["plots"][0]["xs"] == [[0, 1], [0, 1]] and bools["plots"][0]["ticks"] == ["True", "False"]


COUNT_UP = """\
game "Count up"
players 2
var total: int = 0
play {
  while total < 5 {
    turn 0 {
      choose n from [1, 2] prompt "Add"
      total += n
    }
  }
}
score p { "Total": total }
"""


def test_compile_emit_marks_a_rule_line_once_where_the_code_of_a_new_line_begins(tmp_path, capsys):
    """cli/authoring_commands.py `compile --emit` (docs/cli.md: "each statement marked with its
    rule line"): a mark where the rule line changes, not again on the next Python line of the
    same statement. Kills interpreter/compile/codegen.py's block heading `L = F[2]` written
    without its span (then the statement after it is marked a second time: `# count.game:5`
    on the `def` line and again on `_rounds = 0`)."""
    import re
    from boardwright.cli.main import main
    path = tmp_path / "count.game"
    path.write_text(COUNT_UP)
    assert main(["compile", str(path), "--emit"]) == 0
    lines = capsys.readouterr().out.splitlines()
    marks = [(n, m.group(1)) for n, line in enumerate(lines) if (m := re.search(r"  # count\.game:(\d+)$", line))]
    assert [mark for (_, mark), (_, previous) in zip(marks[1:], marks) if mark == previous] == []
    blocks = [n for n, line in enumerate(lines) if line.startswith("def b_play_")]
    assert len(blocks) == 2                     # the loop up to the choice, and the rest of the turn
    # the loop's block starts at the `while` (line 5), the other after the choice (line 8)
    assert [mark for n, mark in marks if n in blocks] == ["5", "8"]


def test_the_web_table_quotes_at_most_40_characters_of_an_unknown_action_and_reads_11_digit_numbers(tmp_path):
    """cli/web/server.py: a refusal quotes what it was sent only in part (an unknown action's
    first 40 characters: the mutant `name[:41]`), and a whole number in a query has at most 11
    digits (12 are refused before int() reads them: the mutant `len(text) <= 12`)."""
    import json
    from boardwright.cli.web.server import LOCAL_HOSTS, build_app
    from test_mutants_round6 import answers
    from web_support import new_table, secret_game
    table = new_table(tmp_path, str(secret_game(tmp_path)), ["human", "human"])
    seat0 = table.tokens["0"]
    name = "abcdefghij" * 6                     # 60 characters
    got = answers(build_app([table], LOCAL_HOSTS), [
        ("POST", f"/api/{seat0}/{name}", json.dumps({"move": 0}).encode()),
        ("GET", f"/api/{seat0}/past?step={'9' * 11}", None),
        ("GET", f"/api/{seat0}/past?step={'9' * 12}", None)])
    assert got == [(404, {"error": f"no action '{name[:40]}'; actions: choose, undo, redo, hint"}),
                   (400, {"error": "'step' must be a move number from 0 to 0"}),
                   (400, {"error": "'step' must be a whole number"})]


def test_a_long_goal_is_quoted_by_its_first_80_characters(capsys):
    """interpreter/playtest/goals.py parse_goal: an error quotes at most the first 80
    characters of a --goal it cannot read (the mutant `text[:81]` for an unknown measure)."""
    from boardwright.dsl.errors import UsageError
    from boardwright.interpreter.playtest.goals import parse_goal
    unknown = "m" * 90 + "=1"
    with pytest.raises(UsageError) as refused:
        parse_goal(unknown, ["length"])
    assert str(refused.value).startswith(f"--goal {'m' * 80}: no measure '{'m' * 90}'; measures: ")
    unreadable = "?" * 90
    with pytest.raises(UsageError) as refused:
        parse_goal(unreadable, ["length"])
    assert str(refused.value).startswith(f"--goal '{'?' * 80}': expected MEASURE=VALUE")


RACE = "docs/examples/head-start-race/race.game"
TIMED_COMMANDS = {
    "simulate": ("playtest_commands", ["simulate", RACE, "--players", "2", "--games", "2", "--set", "goal=5"]),
    "ladder": ("playtest_commands", ["ladder", RACE, "--bots", "random,greedy", "--games", "2", "--set", "goal=5"]),
    "probe": ("playtest_commands", ["probe", RACE, "--players", "2", "--bots", "random", "--gold", "mcts:iterations=10",
                                    "--games", "1", "--positions", "1", "--repeats", "1", "--set", "goal=5", "-q"]),
    "tune": ("tune_commands", ["tune", RACE, "--players", "2", "--set", "goal=5", "-q", "--param", "head_start=0..2",
                               "--goal", "first-player=0.5", "--budget", "40", "--games", "4"]),
    "tune --bot": ("tune_bot_command", ["tune", RACE, "--bot", "mcts", "--trials", "2", "--games", "2", "--batch", "2",
                                        "--confirm", "1", "--confirm-games", "2", "--seed", "3", "-q",
                                        "--decision-seconds", "10", "--set", "goal=5"]),
}


@pytest.mark.parametrize("command", list(TIMED_COMMANDS))
def test_every_timed_command_reports_the_seconds_it_took_to_the_millisecond(monkeypatch, capsys, command):
    """cli/playtest_commands.py, cli/tune_commands.py, cli/tune_bot_command.py: `--json`'s
    "seconds" is the wall time from the start of the work to its end, rounded to the
    millisecond: a clock that reads 1000 s at the start and 12.3456789 s later at every reading
    after gives 12.346 (mutants: the seconds as `round(None, 3)`, `round(..., 4)`, the start
    read after the work)."""
    import importlib
    import json
    import time
    import types
    from boardwright.cli.main import main
    module_name, argv = TIMED_COMMANDS[command]
    module = importlib.import_module(f"boardwright.cli.{module_name}")
    readings = iter([1000.0])
    clock = types.SimpleNamespace(perf_counter=lambda: next(readings, 1012.3456789), time=time.time,
                                  monotonic=time.monotonic, process_time=time.process_time, sleep=time.sleep)
    monkeypatch.setattr(module, "time", clock)
    assert main([*argv, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["seconds"] == 12.346


def documented_json_keys(command: str) -> tuple[set, set]:
    """The keys docs/cli.md's table of `COMMAND --json` lists: (always there, only with an option
    or a declaration)."""
    import re
    from test_mutants_round6 import cli_docs_sections
    section = cli_docs_sections()[command]
    after = section[section.index("`--json` prints one object with these keys"):].split("\n\n")
    table = next(block for block in after if block.startswith("| key"))
    always, sometimes = set(), set()
    for row in re.findall(r"^\| (`.+?) \| (.+?) \|$", table, re.M):
        keys = set(re.findall(r"`(\w+)`", row[0]))
        (sometimes if row[1].startswith("only with") else always).update(keys)
    return always, sometimes


def test_simulate_json_has_the_keys_the_cli_docs_list_and_the_runs_settings(capsys):
    """cli/playtest_commands.py and interpreter/playtest/report.py: `simulate --json` prints
    exactly the keys of docs/cli.md's table (of those marked "only with", `measures`: the race
    declares measures, but no opponents, and no --coverage is given), and the settings are the command
    line's (a string mutant of any key, e.g. "params" -> "XXparamsXX", fails it)."""
    import json
    from boardwright.cli.main import main
    always, sometimes = documented_json_keys("simulate")
    assert {"params", "bot_settings", "seconds", "seats"} <= always and "coverage" in sometimes
    assert main(["simulate", RACE, "--players", "2", "--games", "3", "--seed", "5", "--bots", "greedy,random",
                 "--set", "goal=5", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report) == always | {"measures"}
    assert [report[k] for k in ("players", "games", "seed", "bots", "rotate", "params")] == [
        2, 3, 5, ["greedy", "random"], False, {"goal": "5"}]


# docs/cli.md's lists of what `--json` prints, written out: the object's keys, and the keys of
# the entries of its lists.
DOCUMENTED_JSON = {
    "ladder": ({"game", "variant", "players", "games_per_pair", "seed", "seconds", "pairs", "ratings"},
               {"pairs": {"bots", "games", "wins", "draws", "score_rate", "ci95"},
                "ratings": {"bot", "settings", "rating", "ci95", "games", "score_rate"}}),
    "probe": ({"game", "variant", "players", "seed", "games", "repeats", "gold", "gold_settings", "opponent",
               "opponent_settings", "positions", "choices", "bots", "gold_cpu_per_decision", "per_game", "rows",
               "seconds"},
              {"bots": {"bot", "settings", "agreement", "regret", "cpu_per_decision"},
               "per_game": {"index", "seed", "positions"},
               "rows": {"game", "decision", "gold_choice", "gold_values", "choices", "agreement", "regret"}}),
}


@pytest.mark.parametrize("command", list(DOCUMENTED_JSON))
def test_ladder_and_probe_json_have_the_keys_the_cli_docs_list(capsys, tmp_path, command):
    """cli/playtest_commands.py, interpreter/playtest/ladder.py and probe.py: `--json` prints the
    keys docs/cli.md's sections of ladder and probe name, at the top and in each entry of its
    lists (a string mutant of a key fails it)."""
    import json
    from boardwright.cli.main import main
    top, entries = DOCUMENTED_JSON[command]
    argv = TIMED_COMMANDS[command][1]
    if command == "probe":                      # a game of real choices, so that there are positions
        (tmp_path / "count.game").write_text(COUNT_UP)
        argv = ["probe", str(tmp_path / "count.game"), *argv[2:argv.index("--set")], "-q"]
    assert main([*argv, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report) == top
    for name, keys in entries.items():
        assert report[name] and all(set(entry) == keys for entry in report[name]), (name, report[name])


def test_tune_bot_json_has_every_field_of_a_trial_the_cli_docs_name(capsys):
    """interpreter/playtest/tune_bot.py and cli/tune_bot_command.py: `tune --bot --json` prints
    every trial with the fields docs/cli.md names (`spec`, `games`, `wins`, `win_rate`,
    `cpu_per_decision`, `setup`, `iterations_run`, `state`, `fitted_from`; `why` only for a
    trial stopped early or fitted: here two complete trials, each raised), the confirmed candidates, the best and
    its declaration (a string mutant of a field, e.g. "state" -> "XXstateXX", fails it)."""
    import json
    from boardwright.cli.main import main
    assert main([*TIMED_COMMANDS["tune --bot"][1], "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert {"trials", "confirmed", "best", "declaration"} <= set(report)
    fields = {"spec", "games", "wins", "win_rate", "cpu_per_decision", "setup", "iterations_run", "state", "fitted_from"}
    # `why` only says why a trial stopped early or was fitted: here each is raised (far under
    # the budget of 10 s), and says so
    assert len(report["trials"]) == 2 and all(fields <= set(trial) and trial.get("why", "").endswith(
        "raised to 2000 iterations") for trial in report["trials"])
    assert [(t["state"], t["fitted_from"], t["games"]) for t in report["trials"]] == [("complete", None, 2)] * 2
    assert report["best"]["spec"] == report["confirmed"][0]["spec"] and report["declaration"].startswith("# Tuned by")


def test_sweep_and_tune_json_have_the_fields_the_cli_docs_name(capsys):
    """interpreter/playtest/sweep.py, tune_params.py and cli/tune_commands.py: `sweep --json`
    prints `params` (the names swept), `fixed`, and per point its `params` and `measures`, each
    `{"value", "ci95"}`; `tune --json` prints `best` (its `params`, `games`, `goals`: per goal
    `value`, `ci95`, `loss`, `loss_ci95`; `measures`, `search`), `confirmed`, `told_apart`,
    `candidates`, `trials` (`params`, `losses`, `games`) and `games_played` (docs/cli.md; a
    string mutant of a field fails it)."""
    import json
    from boardwright.cli.main import main
    assert main(["sweep", RACE, "--players", "2", "--games", "2", "--set", "head_start=0..1", "--set", "goal=5",
                 "-q", "--json"]) == 0
    sweep = json.loads(capsys.readouterr().out)
    assert (sweep["params"], sweep["fixed"]) == (["head_start"], {"goal": "5"})
    assert [point["params"] for point in sweep["points"]] == [{"head_start": 0}, {"head_start": 1}]
    for point in sweep["points"]:
        assert "gap" in point["measures"]
        assert all(set(m) == {"value", "ci95"} and len(m["ci95"]) == 2 for m in point["measures"].values())
    assert main([*TIMED_COMMANDS["tune"][1], "--json"]) == 0
    tune = json.loads(capsys.readouterr().out)
    assert {"best", "confirmed", "told_apart", "candidates", "trials", "games_played"} <= set(tune)
    best = tune["best"]
    assert {"params", "games", "goals", "measures", "search"} <= set(best) and set(best["params"]) == {"head_start"}
    [goal] = best["goals"]
    assert {"value", "ci95", "loss", "loss_ci95"} <= set(goal)
    assert tune["trials"] and all({"params", "losses", "games"} <= set(t) for t in tune["trials"])
    assert tune["games_played"] >= best["games"] > 0


SEESAW = """\
game "Seesaw"
players 2
var pts: int per player = 0
play {
  for round in range(2) {
    for p in players {
      turn p {
        choose n from [[2, 3, 2, 0][round * 2 + p]] prompt "Add"
        pts[p] += n
      }
    }
  }
}
score p { "Points": pts[p] }
"""


def test_the_leader_changes_are_counted_between_one_turn_and_the_next(tmp_path, capsys):
    """interpreter/playtest/simulate.py play_record: the leader after each turn is Player 1
    (2 to 0), Player 2 (2 to 3), Player 1 (4 to 3), Player 1 (4 to 3 at the end): two changes
    in every game (the mutant comparing each turn's leader with the one two turns later,
    `leaders[2:]`, counts none)."""
    import json
    from boardwright.cli.main import main
    path = tmp_path / "seesaw.game"
    path.write_text(SEESAW)
    assert main(["simulate", str(path), "--players", "2", "--games", "3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["lead_changes"] == 2 and report["scores"] == [4, 3]


def test_the_tune_plot_shows_each_trials_loss_the_best_so_far_and_the_confirmed_best(monkeypatch, tmp_path):
    """interpreter/playtest/tune_report.py plot_tune: titled with the game and its goals; on the
    left each trial's loss and the best so far (the running minimum, worked out here), labelled;
    on the right the loss against the param with the confirmed best marked at its value (a
    label dropped, e.g. the step's "best so far", or a string mutant of a label fails it)."""
    from boardwright.interpreter.playtest.tune_report import plot_tune
    from test_mutants_round5 import tuned
    saved = _saved_figures(monkeypatch)
    result = tuned(3)
    plot_tune(str(tmp_path / "tune.png"), result)
    [figure] = saved
    assert figure["title"] == "Fake: tune for first-player=0.5"
    left, right = figure["plots"]
    losses = [t["losses"][0] for t in result["trials"] if "losses" in t]
    running = [min(losses[:i + 1]) for i in range(len(losses))]
    assert (left["xlabel"], left["ylabel"], left["legend"]) == ("trial", "off by (first-player=0.5)",
                                                                 ["trial", "best so far"])
    assert left["ys"] == [running]
    best = result["best"]["params"]["k"]
    assert (right["xlabel"], right["ylabel"], right["legend"]) == ("k", "off by (search games)",
                                                                    [f"confirmed best k={best}"])
    assert right["xs"] == [[best, best]]


def _long(n: int) -> str:
    """A text whose first n characters are `x`, then a tail a message cut at n leaves out."""
    return "x" * n + "QQQQ" * 10


def _quoted_cut(call, n: int) -> str:
    """The message of the error `call` raises, checked to hold the first n characters of
    _long(n) and nothing of its tail."""
    import argparse
    from boardwright.dsl.errors import UsageError
    with pytest.raises((UsageError, argparse.ArgumentTypeError)) as refused:
        call()
    message = str(refused.value)
    assert "x" * n in message and "Q" not in message, message
    return message


def _bot(settings):
    from boardwright.dsl.bot_settings import parse_bot_settings
    return lambda: parse_bot_settings("mcts", settings)


def _range(item):
    from boardwright.interpreter.playtest.param_ranges import parse_range
    return lambda: parse_range(item)


def _type(module, name, text):
    import importlib
    return lambda: getattr(importlib.import_module(f"boardwright.cli.{module}"), name)(text)


CUT_MESSAGES = {                        # where: (call, characters kept)
    "bot setting of no finite number": (_bot([f"depth={_long(40)}"]), 40),
    "unknown bot setting": (_bot([f"{_long(60)}=1"]), 60),
    "range without =": (_range(_long(80)), 80),
    "range of no numbers": (_range(f"goal={_long(60)[:-10]}..1"), 60),
    "list with an empty value": (_range(f"goal={_long(60)},,1"), 60),
    "whole number option": (_type("options", "positive_int", _long(40)), 40),
    "seconds option": (_type("tune_bot_command", "positive_float", _long(40)), 40),
    "port option": (_type("web_commands", "_port", _long(40)), 40),
}


@pytest.mark.parametrize("where", list(CUT_MESSAGES))
def test_a_long_bad_value_is_quoted_by_its_first_characters_only(where):
    """dsl/bot_settings.py, interpreter/playtest/param_ranges.py, cli/options.py,
    cli/tune_bot_command.py, cli/web_commands.py: a refused value is quoted by its first 40,
    60 or 80 characters, as each message cuts it (mutants of each cut, e.g. `text[:41]`,
    `setting[:61]`, `item[:81]`)."""
    call, kept = CUT_MESSAGES[where]
    _quoted_cut(call, kept)


def test_branching_is_the_mean_number_of_options_a_decision_offers(tmp_path, capsys):
    """interpreter/playtest/simulate.py play_record: every decision of COUNT_UP offers two
    options (add 1 or add 2), so `branching` (docs/cli.md: the mean number of options per decision) is 2 and
    `options_per_decision` in the CSV 2 for every game (the mutant `options -= ...` gives -2)."""
    import json
    from boardwright.cli.main import main
    path = tmp_path / "count.game"
    path.write_text(COUNT_UP)
    csv = tmp_path / "games.csv"
    assert main(["simulate", str(path), "--players", "2", "--games", "3", "--json", "--csv", str(csv)]) == 0
    assert json.loads(capsys.readouterr().out)["branching"] == 2
    rows = csv.read_text().splitlines()
    column = rows[0].split(",").index("options_per_decision")
    assert [float(row.split(",")[column]) for row in rows[1:]] == [2, 2, 2]


SQUARE = """\
game "Square"
players 2
param side = 3
zone square: grid size side x side
play {
  for p in players {
    turn p {
      choose c from [(0, 0), (1, 1)] prompt "A cell"
      log "{c}"
    }
  }
}
"""


def test_the_web_view_of_a_grid_sized_by_a_param_spans_the_whole_board(tmp_path):
    """cli/web/looks.py grid_view: a grid whose `size` is a param (docs/language.md) is drawn
    from (0, 0) to (side - 1, side - 1) with that side, 3 by default and 5 with `--set side=5`
    (the mutant asking the grid's shape without the state, `grid_shape(key, )`, knows no param:
    a floating grid, bounded by the options' cells, (0, 0) and (1, 1), only)."""
    from boardwright.cli.web.looks import seat_view
    path = tmp_path / "square.game"
    path.write_text(SQUARE)
    from web_support import new_table
    for params, side in ((None, 3), ({"side": "5"}, 5)):
        table = new_table(tmp_path / str(side), str(path), ["human", "human"], params=params)
        view = seat_view(table.game, table.st, 0, ["human", "human"])
        [square] = view["zones"]
        assert (square["key"], square["bounds"], square["extent"]) == ("square", [0, 0, side - 1, side - 1], None)
        assert [o["targets"] for o in view["decision"]["options"]] == [[{"zone": "square", "cell": "0,0"}],
                                                                        [{"zone": "square", "cell": "1,1"}]]


LETS = """\
game "Lets"
players 2
var leader: player = 0
var total: int = 0
play {
  let w = 1
  leader = w
  let n = 1
  total = n
  log "{w} and {n}"
  turn 0 {
    choose x from [1, 2] prompt "Go"
  }
}
"""


def test_a_let_assigned_to_a_player_var_is_a_player_and_one_assigned_to_an_int_var_a_number(tmp_path):
    """dsl/check_statements.py used_as_player: `let w = 1` stored in a var of type player is a
    player, logged "Player 2"; `let n = 1` stored in an int var stays a number, logged "1"
    (docs/language.md: a value is shown as "Player N" only when its type is player; the mutant
    `!= PLAYER` swaps the two)."""
    from boardwright.interpreter.compile.load import load_game
    path = tmp_path / "lets.game"
    path.write_text(LETS)
    st = load_game(str(path)).new_state(2, 1)
    assert list(st.log) == ["Player 2 and 1"]


def test_the_key_line_names_two_keys_with_or_and_more_as_a_span(tmp_path):
    """cli/table_keys.py TableKeys.line: the line under the options says how to choose by a
    cell's key: two keys "a or b", three or more "a to c", each grid by its name and owner (the
    mutant `" OR "` wrote "a OR b")."""
    from boardwright.cli.table_keys import TableKeys
    from boardwright.interpreter.compile.load import load_game
    (tmp_path / "count.game").write_text(COUNT_UP)
    game = load_game(str(tmp_path / "count.game"))
    two = TableKeys(options={"a": 0, "b": 1}, grids=["market"])
    assert two.line(game) == "  or type the letter by a cell of the market (a or b) to choose what it names"
    three = TableKeys(options={"a": 0, "b": 1, "c": 2}, grids=["market", "city/1"])
    assert three.line(game) == ("  or type the letter by a cell of the market and city of Player 2 (a to c) "
                                "to choose what it names")
