"""Every usage error of the command line, printed whole and compared with `==`, with its exit
status 2 and nothing on standard output (docs/cli.md "Exit codes": a usage error is a bad
option, a missing or conflicting one, a file that cannot be written).

An error argparse finds prints the command's usage first: that part is taken from the
command's golden help page (tests/golden/help/, pinned by tests/test_cli_help_pages.py), and
the line after it is written here by hand. The others print one line, `boardwright: error:
MESSAGE`, written here from what the command was given."""
from __future__ import annotations

import pytest

from boardwright.cli.main import main

from test_cli_help_pages import HELP

PUNTO = "punto"


def usage(command: str) -> str:
    """The usage lines of a command's golden help page (up to its first blank line)."""
    page = (HELP / f"{command}.expected").read_text(encoding="utf-8")
    return page.split("\n\n", 1)[0] + "\n"


def run(capsys, monkeypatch, argv):
    monkeypatch.setenv("COLUMNS", "80")
    capsys.readouterr()
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


# (argv, the line after the usage): errors argparse reports for the options' types and counts.
PARSE_ERRORS = [
    (["simulate", PUNTO, "--players", "2", "--games", "0"], "argument --games: expected at least 1, got 0"),
    (["simulate", PUNTO, "--players", "2", "--games", "ten"], "argument --games: expected a whole number, got 'ten'"),
    (["simulate", PUNTO, "--players", "2", "--games", "1000001"],
     "argument --games: expected at most 1,000,000, got 1000001"),
    (["simulate", PUNTO, "--players", "2", "--games", "9" * 21],       # more than 20 digits: not even read
     f"argument --games: expected a whole number, got '{'9' * 21}'"),
    (["simulate", PUNTO, "--players", "2", "--workers", "x" * 50],     # quoted back cut to 40 characters
     f"argument --workers: expected a whole number, got '{'x' * 40}'"),
    (["ladder", PUNTO], "the following arguments are required: --bots"),
    (["probe", PUNTO, "--bots", "mcts"], "the following arguments are required: --gold"),
    (["replay"], "the following arguments are required: LOG"),
    (["validate", PUNTO, "--format", "xml"], "argument --format: invalid choice: 'xml' (choose from 'text', 'json')"),
    (["serve", PUNTO, "--port", "65536"], "argument --port: expected a port from 1 to 65535, got '65536'"),
    (["serve", PUNTO, "--port", "0"], "argument --port: expected a port from 1 to 65535, got '0'"),
    (["tune", PUNTO, "--bot", "mcts", "--decision-seconds", "0"],
     "argument --decision-seconds: expected a positive number of seconds, got '0'"),
    (["tune", PUNTO, "--bot", "mcts", "--decision-seconds", "inf"],
     "argument --decision-seconds: expected a positive number of seconds, got 'inf'"),
    (["tune", PUNTO, "--skill-margin", "wide"], "argument --skill-margin: invalid float value: 'wide'"),
    (["replay", "x.log", "--step", "two"], "argument --step: invalid int value: 'two'"),
]


@pytest.mark.parametrize("argv, message", PARSE_ERRORS, ids=[" ".join(a)[:60] for a, _ in PARSE_ERRORS])
def test_a_bad_option_prints_the_usage_and_what_is_wrong(argv, message, capsys, monkeypatch):
    from boardwright.cli import main as cli_main
    for name in cli_main.COMMANDS:      # argparse stops before any command runs (none serves or plays)
        monkeypatch.setitem(cli_main.COMMANDS, name, lambda args: 99)
    assert run(capsys, monkeypatch, argv) == (2, "", usage(argv[0]) + f"boardwright {argv[0]}: error: {message}\n")


def test_a_misspelt_command_lists_the_commands_and_the_nearest(capsys, monkeypatch):
    commands = ("validate, play, replay, simulate, compare, bench, check, test, fmt, compile, lsp, explain, info, new, "
                "ladder, probe, serve, sweep, tune")
    assert run(capsys, monkeypatch, ["simulte", PUNTO]) == (
        2, "", usage("boardwright") + f"boardwright: error: no command 'simulte'; commands: {commands}; "
                                      "did you mean 'simulate'?\n")
    assert run(capsys, monkeypatch, ["zzzz"]) == (
        2, "", usage("boardwright") + f"boardwright: error: no command 'zzzz'; commands: {commands}\n")


# (argv, message): errors the commands find in what they were given, before any game is played.
TUNE = ["tune", PUNTO, "--param", "win_length=3..5"]
COMMAND_ERRORS = [
    (["play"], "play needs a GAME, or --load FILE"),
    # --players left out: a game that allows several counts asks for one (one that allows one needs none)
    (["simulate", PUNTO, "--games", "3"], "Punto is for 2 to 4 players: say how many with --players N"),
    (["compare", PUNTO, "--set", "win_length=4"], "Punto is for 2 to 4 players: say how many with --players N"),
    (["sweep", PUNTO, "--set", "win_length=3..4"], "Punto is for 2 to 4 players: say how many with --players N"),
    (["simulate", PUNTO, "--players", "2", "--bots", "random"], "--bots names 1 bot for 2 players"),
    (["simulate", PUNTO, "--players", "3", "--bots", "random,greedy"], "--bots names 2 bots for 3 players"),
    (["simulate", PUNTO, "--players", "2", "--coverage", "--workers", "2"],
     "--coverage counts in this process: drop --workers and --cluster"),
    (["compare", PUNTO, "--players", "2"],
     "compare needs two configurations: --variant A --variant B, or --set name=value"),
    (["compare", PUNTO, "--players", "2", "--variant", "base", "--variant", "team", "--set", "win_length=4"],
     "compare takes several --variant, or one game and several --set, not both"),
    (["ladder", PUNTO, "--players", "3", "--bots", "random,greedy"], "the ladder plays 2-player games: use --players 2"),
    (["sweep", PUNTO, "--players", "2", "--set", "win_length=4"],
     "sweep needs a range: --set NAME=LOW..HIGH (e.g. --set rounds_to_win=2..6)"),
    (["sweep", PUNTO, "--players", "2", "--set", "win_length=1..50", "--set", "max_rounds=1..50"],
     "the ranges make 2,500 combinations; at most 1,000: take larger steps"),
    (["tune", PUNTO], "tune needs what to tune: --param NAME=LOW..HIGH (e.g. --param rounds_to_win=1..5) "
                      "or --bot BOT (e.g. --bot mcts)"),
    (TUNE + ["--bot", "mcts"], "tune takes --param or --bot, not both"),
    (TUNE, "tune --param needs --players N"),
    (TUNE + ["--players", "2", "--write"], "--write needs the variant file to write: --write NAME.game"),
    (TUNE + ["--players", "2", "--skill-margin", "1"], "--skill-margin 1: expected a share between 0 and 1"),
    (TUNE + ["--players", "2", "--skill-margin", "-0.5"], "--skill-margin -0.5: expected a share between 0 and 1"),
    (TUNE + ["--players", "2", "--set", "win_length=4"],
     "--param win_length and --set win_length: a param is either tuned or fixed"),
    (["tune", PUNTO, "--players", "2", "--param", "win_length=4..4"],
     "--param win_length: one value leaves nothing to tune; fix it with --set win_length=VALUE"),
    (TUNE + ["--players", "2", "--goal", "first-player=0.5", "--games", "60", "--budget", "100"],
     "--games 60 is more than half of --budget 100: the search would try almost nothing; lower --games or "
     "raise --budget"),
    (["tune", PUNTO, "--bot", "mcts", "--write", "mine.game"],
     "with --bot, --write takes no file name: it writes the declaration into the rule file"),
    (["tune", PUNTO, "--bot", "mcts", "--write", "--variant", "team"],
     "--write writes the base rule file's declaration: drop --variant, or drop --write and put the printed "
     "declaration in the variant's file"),
]


@pytest.mark.parametrize("argv, message", COMMAND_ERRORS, ids=[" ".join(a)[:70] for a, _ in COMMAND_ERRORS])
def test_a_command_says_what_is_wrong_in_one_line(argv, message, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    assert run(capsys, monkeypatch, argv) == (2, "", f"boardwright: error: {message}\n")
    assert list(tmp_path.iterdir()) == [], "nothing written"


def test_output_files_are_checked_before_any_game(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    game = ["simulate", PUNTO, "--players", "2"]
    assert run(capsys, monkeypatch, game + ["--csv", " "]) == (2, "", "boardwright: error: --csv needs a file name\n")
    assert run(capsys, monkeypatch, game + ["--plot", str(tmp_path)]) == (
        2, "", f"boardwright: error: --plot {tmp_path}: that is a folder; give a file name\n")
    missing = tmp_path / "no" / "games.csv"
    assert run(capsys, monkeypatch, game + ["--csv", missing]) == (
        2, "", f"boardwright: error: --csv {missing}: cannot write there (No such file or directory)\n")
    assert run(capsys, monkeypatch, game + ["--out", "f.scenario.yaml", "--set", "win_length=4"]) == (
        2, "", "boardwright: error: --out writes a scenario, and scenarios have no --set values: drop one of them\n")
    assert run(capsys, monkeypatch, TUNE + ["--players", "2", "--write", "fair.txt"]) == (
        2, "", "boardwright: error: --write fair.txt: a rule file's name ends in .game\n")
    assert list(tmp_path.iterdir()) == [], "a checked file that did not exist is not left behind"


def test_test_without_scenario_files_says_so(capsys, monkeypatch, tmp_path):
    assert run(capsys, monkeypatch, ["test", tmp_path]) == (2, "", "boardwright: error: no scenario files found\n")


# ---------------------------------------------------------------------------- how a command ends
@pytest.mark.parametrize("raised, code, message", [
    (BrokenPipeError(), 0, ""),                         # the reader went away (`| head`): nothing to say
    (KeyboardInterrupt(), 130, "\nboardwright: interrupted\n"),
    (PermissionError(13, "Permission denied", "rules.game"), 2, "boardwright: error: rules.game: Permission denied\n"),
    (OSError(28, "No space left on device"), 2, "boardwright: error: No space left on device\n"),
    (ZeroDivisionError("division by zero"), 3,
     "boardwright: internal error: ZeroDivisionError: division by zero\n"
     "This is a bug in Boardwright, not in your files; please report it with the command you ran.\n"),
], ids=["broken pipe", "ctrl-c", "refused file", "full disk", "a bug"])
def test_what_a_command_raises_becomes_its_status_and_one_message(raised, code, message, capsys, monkeypatch):
    from boardwright.cli import main as cli_main

    def command(args):
        raise raised

    monkeypatch.setitem(cli_main.COMMANDS, "info", command)
    assert run(capsys, monkeypatch, ["info", PUNTO]) == (code, "", message)


def test_a_huge_name_is_quoted_back_cut_to_200_characters(capsys, monkeypatch):
    name = "q" * 300
    assert run(capsys, monkeypatch, [name]) == (
        2, "", usage("boardwright") + f"boardwright: error: no command '{'q' * 200}... (300 characters)'; commands: "
        "validate, play, replay, simulate, compare, bench, check, test, fmt, compile, lsp, explain, info, new, ladder, "
        "probe, serve, sweep, tune\n")


@pytest.mark.parametrize("option, value, missing, message", [
    ("--plot", "games.png", "matplotlib", "--plot needs matplotlib: pip install 'boardwright[plot]'"),
    ("--cluster", "tcp://127.0.0.1:1", "dask.distributed", "--cluster needs Dask: pip install 'boardwright[cluster]'"),
], ids=["plot", "cluster"])
def test_a_missing_extra_says_what_to_install_before_any_game(option, value, missing, message, capsys, monkeypatch,
                                                              tmp_path):
    import importlib
    real = importlib.import_module

    def without_the_extra(name, *args):
        if name == missing:
            raise ImportError(f"No module named {name!r}")
        return real(name, *args)

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(importlib, "import_module", without_the_extra)
    assert run(capsys, monkeypatch, ["simulate", PUNTO, "--players", "2", option, value]) == (
        2, "", f"boardwright: error: {message}\n")


def test_with_the_extras_installed_the_same_options_pass_the_check(tmp_path):
    """The check imports the very modules the options need (matplotlib, Dask's distributed):
    with them installed, as here, --plot and --cluster pass it, and the checked file is not
    left behind."""
    import argparse
    pytest.importorskip("matplotlib")
    pytest.importorskip("dask.distributed")
    from boardwright.cli.options import check_outputs
    assert check_outputs(argparse.Namespace(plot=str(tmp_path / "games.png"), cluster="tcp://127.0.0.1:1")) is None
    assert list(tmp_path.iterdir()) == []
