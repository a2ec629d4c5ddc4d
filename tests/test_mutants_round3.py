"""Behaviour the fresh mutation samples of seed 17 (`--fraction 0.005 --at-least 0`, dsl/,
interpreter/ and cli/, after the split into floors) found unguarded (docs/testing.md "Mutation
testing"). Each test pins down what a designer or a caller sees; the expected values come from
the rules in the test, docs/cli.md or docs/language.md, or are worked out by hand.
"""
from __future__ import annotations

import os
import textwrap

import pytest

from boardwright.cli.main import main
from boardwright.interpreter.compile.load import load_game
from boardwright.interpreter.run.rule_errors import _collapsed
from boardwright.interpreter.testing.coverage import coverage_report, format_coverage, measure_coverage


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def tokens(n: int) -> str:
    items = "\n".join(f"      - {{value: {i}}}" for i in range(n))
    return f"provenance: test data\ncomponents:\n  Token:\n    attributes: {{value: int}}\n    items:\n{items}\n"


def tiny(tmp_path, body: str, count: int = 3):
    """A two-player game of `count` Tokens with `body`; its line 1 is the file's line 4."""
    (tmp_path / "tokens.yaml").write_text(tokens(count))
    path = tmp_path / "g.game"
    path.write_text('game "Tiny"\nplayers 2\ndata "tokens.yaml"\n' + textwrap.dedent(body))
    return path


# ---------------------------------------------------------------------------- the command line
def test_compare_with_one_configuration_says_what_it_needs(capsys):
    # docs/cli.md "compare": several --variant, or one game and one or more --set
    code, out, err = run(capsys, "compare", "punto", "--players", "2", "--games", "2")
    assert code == 2 and out == ""
    assert err == ("boardwright: error: compare needs two configurations: --variant A --variant B, "
                   "or --set name=value\n")


def test_an_internal_error_is_reported_as_a_bug_of_boardwright(capsys, monkeypatch):
    # docs/cli.md exit codes: 3 is an internal error, "a bug to report"
    from boardwright.cli import main as cli_main

    def broken(args):
        raise ZeroDivisionError("boom")
    monkeypatch.setitem(cli_main.COMMANDS, "info", broken)
    code, out, err = run(capsys, "info", "punto")
    assert code == 3 and out == ""
    assert err == ("boardwright: internal error: ZeroDivisionError: boom\n"
                   "This is a bug in Boardwright, not in your files; please report it with the command "
                   "you ran.\n")


# ---------------------------------------------------------------------------- rule errors
def test_a_long_chain_of_callers_is_cut_to_its_limit_with_the_rest_counted():
    callers = [f"g.game:{n} (in fn f{n})" for n in range(25)]
    shown = _collapsed(callers, most=20)
    # at most 20 lines: 19 callers, then one line for the 6 not shown
    assert len(shown) == 20
    assert shown[:19] == tuple(callers[:19])
    assert shown[19] == "... and 6 more callers"


def test_a_recursion_is_said_once_with_its_count():
    assert _collapsed(["a", "b", "b", "b", "c"]) == ("a", "b, 3 times", "c")


# ---------------------------------------------------------------------------- rule coverage
def test_a_branch_never_taken_is_listed_with_its_rule(tmp_path):
    game = load_game(tiny(tmp_path, """\
        var picked: int = 0
        play {
          turn 0 {
            choose n from [1, 2] prompt "Pick"
            picked = n
          }
          if picked > 5 { picked = 0 }
        }
        """))
    text = format_coverage(game, coverage_report(game, measure_coverage(game, [2], games=2, seed=1)))
    lines = text.splitlines()
    assert "  branches never taken:" in lines
    listed = lines[lines.index("  branches never taken:") + 1]
    # the `if` at line 10 of g.game (n is 1 or 2, never more than 5)
    assert listed.startswith("    ") and ":10" in listed and "if picked > 5" in listed
    assert "everything ran at least once" not in text


# ---------------------------------------------------------------------------- probe
def test_probe_json_has_the_documented_keys(tmp_path):
    # docs/cli.md "probe": the keys of --json (without `seconds`, which the command adds)
    from boardwright.interpreter.playtest.probe import probe_decisions
    from test_probe import PICK
    from conftest import small_game_file

    game = load_game(small_game_file(tmp_path, PICK))
    report = probe_decisions(game, 2, ["greedy"], "mcts:iterations=20:width=0", "random",
                             games=1, positions=2, repeats=1, seed=1)
    assert set(report) == {"game", "variant", "players", "seed", "games", "repeats", "gold", "gold_settings",
                           "opponent", "opponent_settings", "positions", "choices", "bots",
                           "gold_cpu_per_decision", "per_game", "rows"}
    assert report["gold"] == "mcts:iterations=20:width=0" and report["opponent"] == "random"
    # each bot's settings as `describe` says them (docs/cli.md "probe": the settings are in the report)
    assert report["gold_settings"].startswith("mcts (iterations=20,") and "width=0" in report["gold_settings"]
    assert report["opponent_settings"] == "random"


# ---------------------------------------------------------------------------- simulate's report
def test_simulate_reports_under_the_documented_column_heads(capsys, tmp_path):
    # docs/cli.md "simulate": the table's head, word for word, over seats labelled "Player 1"...
    from test_probe import PICK
    from conftest import small_game_file

    path = small_game_file(tmp_path, PICK)
    code, out, _ = run(capsys, "simulate", str(path), "--players", "2", "--games", "2", "--seed", "1")
    assert code == 0
    assert "           win rate  95% interval  mean score     sd  score lines" in out.splitlines()


# ---------------------------------------------------------------------------- bot settings
def test_a_bot_setting_is_split_at_its_first_equals_sign():
    # "iterations=1=2": the setting is `iterations`, its value "1=2", which is no number
    from boardwright.dsl.bot_settings import parse_bot_settings
    from boardwright.dsl.errors import UsageError

    with pytest.raises(UsageError) as info:
        parse_bot_settings("mcts", ["iterations=1=2"])
    assert str(info.value) == "bad bot setting 'iterations=1=2': '1=2' is not a number"


# ---------------------------------------------------------------------------- syntax errors
def test_a_long_list_of_expected_tokens_is_cut_to_six_and_a_keyword():
    # More than 8 expected words: the first six that are not keywords (sorted), then "a keyword".
    # Names unknown to the grammar are said in lower case.
    from boardwright.dsl.syntax_errors import _expected_words

    expected = ["ZETA_ONE", "ZETA_TWO", "ALPHA", "BETA", "GAMMA", "DELTA", "EPSILON", "ETA", "THETA"]
    words = _expected_words(expected)
    assert words == "alpha, beta, delta, epsilon, eta or gamma"
    keywords = _expected_words(expected + ["PLAY"])      # 'play', a keyword of the grammar
    assert keywords == "alpha, beta, delta, epsilon, eta, gamma or a keyword"


# ---------------------------------------------------------------------------- the disk cache
def test_the_cache_folder_follows_xdg_cache_home_then_the_home_folder(tmp_path, monkeypatch):
    # dsl/cache.py: $BOARDWRIGHT_CACHE, else the user's cache folder ($XDG_CACHE_HOME or ~/.cache)
    from boardwright.dsl.cache import cache_dir

    monkeypatch.delenv("BOARDWRIGHT_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "boardwright"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_dir() == tmp_path / "home" / ".cache" / "boardwright"


def test_more_than_200_parsed_files_are_pruned_to_the_newest_100(tmp_path, monkeypatch):
    from boardwright.dsl import parsed

    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    monkeypatch.setenv("BOARDWRIGHT_CACHE", str(folder))
    for i in range(200):                    # 200 older entries, oldest first
        old = folder / f"ast-{i:032d}.pickle"
        old.write_bytes(b"x")
        os.utime(old, (1_000_000 + i, 1_000_000 + i))
    parsed._to_disk("new.game", "game text", {"a": 1})     # the 201st: past 200, keep 100
    left = sorted(p.name for p in folder.glob("ast-*.pickle"))
    assert len(left) == 100
    new = parsed._cache_path("new.game", "game text").name
    # the newest 100: the one just written and the 99 youngest of the others (101..199)
    assert set(left) == {new} | {f"ast-{i:032d}.pickle" for i in range(101, 200)}


# ---------------------------------------------------------------------------- scenario expectations
def test_every_entry_of_a_per_component_var_is_checked_after_an_unknown_label(tmp_path):
    # docs/scenarios.md: a scenario that does not hold lists each expectation that failed
    from boardwright.interpreter.testing.scenario import check_expectations
    from conftest import make_small_game

    game = make_small_game(tmp_path, """\
        game "Tiny"
        players 2
        data "cards.yaml"
        var marks: int per Card = 0
        play { turn 0 { choose n from [1, 2] prompt "Pick" } }
        """)
    st = game.new_state(2, seed=1)
    failures = check_expectations(game, st, {"vars": {"marks": {"clubs 9": 1, "hearts 2": 5}}})
    assert len(failures) == 2
    assert failures[0].startswith("vars: ") and "clubs 9" in failures[0]
    assert failures[1] == "vars: marks of hearts 2 expected 5, is 0"


def test_a_scenario_with_an_unknown_key_names_it_at_its_line(tmp_path):
    from boardwright.dsl.errors import DataError
    from boardwright.interpreter.testing.scenario_file import load_scenario

    path = tmp_path / "x.scenario.yaml"
    path.write_text("game: punto\nplayers: 2\nseed: 1\nexpectt:\n  player: 0\n")
    with pytest.raises(DataError) as info:
        load_scenario(path)
    [diag] = info.value.diagnostics
    assert diag.message.startswith("scenario: unknown key 'expectt'; keys: ")
    assert diag.hint == "did you mean 'expect'?"
    assert (diag.span.line, diag.span.column) == (4, 1)


def test_a_scenario_without_players_is_played_by_the_fewest_the_game_allows(tmp_path):
    # docs/scenarios.md: `players` defaults to the game's minimum
    from boardwright.interpreter.testing.scenario import scenario_position
    from conftest import make_small_game

    game = make_small_game(tmp_path, """\
        game "Tiny"
        players 3..4
        data "cards.yaml"
        play { turn 0 { choose n from [1, 2] prompt "Pick" } }
        """)
    st = scenario_position(game, {"seed": 2})
    assert st.players == 3


# ---------------------------------------------------------------------------- explain and info
def explain_text(capsys, tmp_path, body: str) -> str:
    from conftest import small_game_file
    path = small_game_file(tmp_path, 'game "Tiny"\nplayers 2\ndata "cards.yaml"\n' + textwrap.dedent(body))
    code, out, err = run(capsys, "explain", str(path))
    assert code == 0, err
    return out


def test_explain_indents_setup_statements_once_under_their_heading(capsys, tmp_path):
    out = explain_text(capsys, tmp_path, """\
        zone pile: pile
        setup { move components(Card) to pile }
        play { turn 0 { choose n from [1, 2] prompt "Pick" } }
        """)
    lines = out.splitlines()
    at = lines.index("Setup (before play, no choices)")
    # a section's lines are indented by two spaces; a top-level statement adds nothing
    assert lines[at + 1] == "  move components(Card) to pile"


def test_explain_shows_an_opponents_score_sheet(capsys, tmp_path):
    # docs/language.md "opponent": a scripted opponent's lines, summed
    out = explain_text(capsys, tmp_path, """\
        var points: int per player = 0
        play { turn 0 { choose n from [1, 2] prompt "Pick" } }
        score p { "Points": points[p] }
        opponent "The harbour master" {
          "Fixed": 12
        }
        """)
    lines = out.splitlines()
    at = lines.index("  opponent The harbour master: the sum of")
    assert lines[at + 1] == "    Fixed: 12"


def test_info_counts_the_components_of_each_kind(capsys, tmp_path):
    from conftest import small_game_file
    path = small_game_file(tmp_path, 'game "Tiny"\nplayers 2\ndata "cards.yaml"\n'
                           'play { turn 0 { choose n from [1, 2] prompt "Pick" } }\n')
    code, out, _ = run(capsys, "info", str(path))
    assert code == 0
    assert "components: 6 Card" in out.splitlines()         # the six cards of conftest's data


# ---------------------------------------------------------------------------- reports and ladders
def test_score_histogram_bins_of_equal_fractional_scores_are_one_wide():
    # report._bins: scores all equal (no spread) and not whole: bins of width 1 from the score
    from boardwright.interpreter.playtest.report import _bins
    assert _bins([2.5, 2.5, 2.5], whole=False) == [2.5, 3.5]


def test_a_value_error_inside_a_rule_keeps_its_own_words():
    from boardwright.interpreter.run.builtins import _in_rule_words
    assert _in_rule_words(ValueError("math domain error")) == "math domain error"
    assert _in_rule_words(ValueError("Exceeds the limit (4300 digits) for integer string conversion")) \
        == "an integer of more than 4,300 digits cannot be shown (docs/security.md)"


# ---------------------------------------------------------------------------- fmt
def test_a_formatter_that_changed_the_meaning_is_reported_at_the_files_start(monkeypatch):
    # The formatter's own proof: should the formatted text parse to another tree, the file is
    # left alone and the error points at line 1, column 1 of the file.
    from boardwright.dsl import formatter
    from boardwright.dsl.errors import RuleFileError

    text = 'game "Tiny"\nplayers 2\n'
    monkeypatch.setattr(formatter, "format_source", lambda source: 'game "Tiny"\nplayers 3\n')
    with pytest.raises(RuleFileError) as info:
        formatter.format_checked(text, "t.game")
    [diag] = info.value.diagnostics
    assert diag.message == "the formatter changed this file's meaning; it is left unchanged"
    assert (diag.span.file, diag.span.line, diag.span.column, diag.span.end_line, diag.span.end_column) == \
        ("t.game", 1, 1, 1, 1)


# ---------------------------------------------------------------------------- built-in argument checks
def test_the_zone_argument_check_names_the_argument_and_the_type_it_got():
    # dsl/builtins.py builds each built-in's checks once, at import; calling the check makers
    # here is what the mutation run's record of "which test calls what" can see.
    from boardwright.dsl.builtins import ArgProblem, _zone

    _zone(1)(["int", "zone of Card"])                   # a zone where one is wanted: fine
    _zone(0)(["any"])                                   # `any` may be a zone
    with pytest.raises(ArgProblem) as info:
        _zone(1)(["zone of Card", "int"])
    assert (info.value.index, info.value.message) == (1, "expected a zone, got int")


# ---------------------------------------------------------------------------- saves, logs and replay
def test_a_saved_variant_with_a_param_loads_as_that_variant_with_that_param(tmp_path, capsys, monkeypatch):
    # docs/cli.md "play": `save FILE` keeps the game, its variant, params, seats and moves;
    # `--load FILE` goes on from there. Punto's team variant is for 4 players.
    import io
    import json
    import sys

    save = tmp_path / "game.save"
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"1\nsave {save}\nquit\n"))
    code, _, err = run(capsys, "play", "punto", "--variant", "team", "--set", "rounds_to_win=1", "--players", "4",
                       "--seats", "human,random,random,random", "--seed", "3")
    assert code == 0, err
    saved = json.loads(save.read_text())
    assert saved["variant"] == "team" and saved["params"] == {"rounds_to_win": "1"}

    from boardwright.cli.play import start_session
    import argparse
    resumed = start_session(argparse.Namespace(load=str(save), log=None), load_game)
    assert resumed.game.variant == load_game("punto", "team").variant
    assert resumed.setup["params"] == {"rounds_to_win": "1"}
    assert resumed.game.param_overrides == {"rounds_to_win": 1}
    assert resumed.st.players == 4


def test_replay_starts_from_the_logged_games_first_state(tmp_path, capsys, monkeypatch):
    # docs/cli.md "replay": step 0 is the start of the logged game, with its player count
    import io
    import sys

    log = tmp_path / "game.log"
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n1\nquit\n"))
    code, _, err = run(capsys, "play", "punto", "--players", "3", "--seats", "human,random,random",
                       "--seed", "4", "--log", str(log))
    assert code == 0, err
    code, out, err = run(capsys, "replay", str(log), "--step", "0")
    assert code == 0, err
    assert "-- step 0 of" in out and ": the start" in out
    from boardwright.cli.play import replay_states
    from boardwright.cli.saves import LOG_FORMAT, read_saved
    game, setup, _, _ = read_saved(str(log), LOG_FORMAT, load_game)
    states = replay_states(game, setup)
    assert states[0].players == 3 and len(states) == len(setup["moves"]) + 1


# ---------------------------------------------------------------------------- the language server
def test_the_language_server_checks_the_unsaved_text_not_the_file_on_disk(tmp_path):
    pytest.importorskip("pygls")
    from conftest import small_game_file
    from boardwright.cli.lsp import RulesServer

    good = 'game "Tiny"\nplayers 2\ndata "cards.yaml"\nplay { turn 0 { choose n from [1, 2] prompt "Pick" } }\n'
    path = small_game_file(tmp_path, good)
    unsaved = good.replace("[1, 2]", "\"two\"")       # a choice from a string: a type error
    errors = [d for d in RulesServer().analyse(path.as_uri(), unsaved) if d.severity == 1]
    assert len(errors) == 1 and errors[0].range.start.line == 3     # line 4, counted from 0
    assert [d for d in RulesServer().analyse(path.as_uri(), good) if d.severity == 1] == []


def test_completion_of_a_global_name_says_what_it_is():
    pytest.importorskip("pygls")
    from boardwright.cli.lsp import GLOBAL_NAMES, completions

    items = {item.label: item for item in completions(None, None, "x = ")}
    assert items["player_count"].detail == GLOBAL_NAMES["player_count"] == "how many play (int)"
    assert items["supply"].detail == "the zone every component starts in"


# ---------------------------------------------------------------------------- bots and lint
def test_paired_rounds_stop_once_the_iterations_are_played(tmp_path):
    # mcts `paired`: one iteration per option played; a round plays both options of LUCK
    # (tests/test_bot_paired.py), so 4 iterations are exactly two rounds
    from boardwright.interpreter.bots.mcts import MCTSBot
    from conftest import make_small_game
    from test_bot_paired import LUCK

    game = make_small_game(tmp_path, LUCK)
    st = game.new_state(2, 1)
    root = MCTSBot(4, iterations=4, depth=10, paired=1).search(game, st)
    assert root.visits == 4 and [child.visits for child in root.children.values()] == [2, 2]


def test_a_negative_literal_is_a_negative_constant():
    from boardwright.dsl.lint import constant
    from boardwright.dsl.parser import parse_text

    module = parse_text('game "T"\nplayers 2\nparam a = -3\nparam b = +4\n', "t.game")
    values = {item.name: constant(item.value) for item in module.items if hasattr(item, "value")}
    assert values == {"a": -3, "b": 4}


# ---------------------------------------------------------------------------- --help
def help_text(capsys, command: str) -> str:
    with pytest.raises(SystemExit) as info:
        main([command, "--help"])
    assert info.value.code == 0
    return " ".join(capsys.readouterr().out.split())        # argparse wraps lines as it likes


@pytest.mark.parametrize("command,option", [
    ("probe", "--players N"), ("ladder", "--bots LIST"), ("check", "--out FILE"),
])
def test_help_names_each_options_value_as_docs_cli_does(capsys, command, option):
    # docs/cli.md writes these options so: `--players N`, `--bots LIST`, `--out FILE`
    assert option in help_text(capsys, command)


def test_help_of_play_says_what_players_defaults_to(capsys):
    # docs/cli.md "play": --players N, the player count (default: the game's minimum)
    assert "--players N the player count (default: the game's minimum)" in help_text(capsys, "play")


# ---------------------------------------------------------------------------- the table on screen
def test_the_table_leaves_out_the_supply_and_empty_zones(tmp_path):
    # docs/cli.md "play": the table shows the zones that hold something; the supply (where
    # every component starts) is not part of the table
    from boardwright.cli.render import render_table
    from conftest import make_small_game

    game = make_small_game(tmp_path, """\
        game "Tiny"
        players 2
        data "cards.yaml"
        zone hand: stack
        zone discard: pile
        setup { move components(Card)[0] to hand }
        play { turn 0 { choose n from [1, 2] prompt "Pick" } }
        """)
    st = game.new_state(2, seed=1)
    lines = render_table(game, game.observe(st, None)).splitlines()
    assert "hand: hearts 1" in lines
    assert not any(line.startswith(("supply", "discard")) for line in lines)


# ---------------------------------------------------------------------------- check
def test_check_names_the_line_of_an_option_that_fails(tmp_path):
    # docs/cli.md "check": "every offered option applies without error", at the failing rule's line
    from boardwright.interpreter.testing.check import UNIVERSAL, run_checks
    from conftest import small_body_file

    game = load_game(small_body_file(tmp_path, """\
        var total: int = 0
        play {
          turn 0 {
            choose x from [0, 1] prompt "Divide by"
            total = 10 // x
          }
        }
        """))
    report = run_checks(game, [2], examples=5, seed_value=1)
    assert report.failure is not None and report.failure.prop == UNIVERSAL[0]
    assert report.failure.where.endswith("g.game:8")        # body line 5 is the file's line 8


def test_simulate_draws_its_figure_with_plot(capsys, tmp_path):
    # docs/cli.md "simulate": --plot FILE.png draws the scores and win rates
    pytest.importorskip("matplotlib")
    from test_probe import PICK
    from conftest import small_game_file

    path = small_game_file(tmp_path, PICK)
    figure = tmp_path / "scores.png"
    code, _, err = run(capsys, "simulate", str(path), "--players", "2", "--games", "2", "--seed", "1",
                       "--plot", str(figure))
    assert code == 0, err
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_hint_tables_head_stands_over_its_columns(capsys, monkeypatch, tmp_path):
    # `hint` in play: a row is "  N. LABEL VISITS  VALUE"; the head's "visits" and "value" end
    # where the rows' numbers end
    # (labels of at least two letters: a shorter one leaves the head's "option" wider than
    # its column, and the head one place off)
    import io
    import sys
    from conftest import small_game_file

    path = small_game_file(tmp_path, 'game "Walk"\nplayers 2\ndata "cards.yaml"\nvar steps: int = 0\n'
                           'play { for i in range(2) { turn i % 2 {\n'
                           '  choose d from ["north", "south", "east", "west"] prompt "Go"\n'
                           '  if d == "north" { steps += 1 }\n} } }\n'
                           'score p { "Steps": steps }\n')
    monkeypatch.setattr(sys, "stdin", io.StringIO("hint\nquit\n"))
    code, out, err = run(capsys, "play", str(path), "--players", "2", "--seats", "human,random", "--seed", "1")
    assert code == 0, err
    lines = out.splitlines()
    head = next(line for line in lines if line.strip().startswith("option") and "visits" in line)
    rows = [line for line in lines[lines.index(head) + 1:] if line[:5].strip().endswith(".")]
    assert len(rows) == 4                                   # north, south, east, west
    for row in rows:
        visits, value = row.split()[-2:]
        assert row.index(visits) + len(visits) == head.index("visits") + len("visits")
        assert len(row) == head.index("value") + len("value")


def test_replayed_states_rebuilt_from_checkpoints_equal_a_move_by_move_replay(tmp_path, capsys, monkeypatch):
    # A long log is replayed from a copy kept every few moves; every state must equal the one
    # a plain replay (a copy per move) reaches.
    log = tmp_path / "game.log"
    code, _, err = run(capsys, "play", "punto", "--players", "2", "--seats", "random,random",
                       "--seed", "11", "--log", str(log))
    assert code == 0, err
    from boardwright.cli.play import replay_states
    from boardwright.cli.saves import LOG_FORMAT, read_saved
    game, setup, _, _ = read_saved(str(log), LOG_FORMAT, load_game)
    states = replay_states(game, setup)
    assert len(setup["moves"]) > 2 * states.spacing          # several checkpoints are used
    plain = game.new_state(setup["players"], setup["seed"])
    for step in range(len(setup["moves"]) + 1):
        if step:
            plain = plain.copy()
            game.apply(plain, setup["moves"][step - 1]["id"])
        assert states[step].to_json() == plain.to_json(), step
    assert states[-1] is states[len(states) - 1]
    with pytest.raises(IndexError):
        states[len(states)]
