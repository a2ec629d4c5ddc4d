"""Command-line conventions: --version, help, did-you-mean, defaults shown, one default seed,
output paths checked before any game, progress bar, Ctrl-C with workers, missing extras."""
from __future__ import annotations

import argparse
import csv
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from boardwright.cli import playtest_commands, table_commands
from boardwright.cli.main import build_parser, main
from boardwright.dsl.loader import GAMES_DIR
from boardwright.interpreter.playtest import simulate

from checkout import import_path



def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_version_and_bare_command_print_and_exit_0(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    out, _ = capsys.readouterr()
    assert exit_info.value.code == 0 and out.startswith("boardwright ") and out.split()[1][0].isdigit()
    code, out, err = run(capsys)
    assert code == 0 and err == "" and out.startswith("usage: boardwright")
    for command in ("validate", "play", "simulate", "compare", "check", "test"):
        assert command in out


def test_misspelt_command_and_bot_get_a_did_you_mean(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["simulat", "punto"])
    _, err = capsys.readouterr()
    assert exit_info.value.code == 2 and "did you mean 'simulate'?" in err and "Traceback" not in err
    code, _, err = run(capsys, "simulate", "punto", "--players", "2", "--games", "1", "--bots", "mtcs,random")
    assert code == 2 and "did you mean 'mcts'?" in err


LONG = "x" * 100_000


def test_clipped_keeps_200_characters_and_says_how_many_there_were():
    from boardwright.dsl.errors import clipped
    assert clipped("x" * 200) == "x" * 200
    assert clipped("x" * 201) == "x" * 200 + "... (201 characters)"
    assert clipped(12345) == "12345"


@pytest.mark.parametrize("argv", [
    ["simulate", "punto", "--players", "2", "--games", "1", "--bots", LONG + ",random"],    # an unknown bot
    ["simulate", "punto", "--players", "2", "--games", "1", "--set", LONG + "=3"],         # an unknown param
    ["simulate", "punto", "--players", "2", "--games", "1", "--set", "win_length=" + LONG],  # a bad value
    ["simulate", "punto", "--players", "2", "--variant", LONG],                             # an unknown variant
    ["sweep", "punto", "--players", "2", "--set", LONG + "=1..3"],                          # an unknown param
    ["validate", "punto", "--no-such-flag", LONG],                                          # argparse's echo
    [LONG],                                                                                 # an unknown command
])
def test_a_huge_argument_is_quoted_back_cut_short(capsys, argv):
    try:
        code = main(argv)
    except SystemExit as exit_info:
        code = exit_info.code
    _, err = capsys.readouterr()
    assert code == 2 and "Traceback" not in err
    assert "(100,000 characters)" in err and len(err) < 3_000, err[:500]


def _subcommands():
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return action.choices


def test_every_option_has_help_and_shows_its_default():
    for name, sub in _subcommands().items():
        text = sub.format_help()
        for action in sub._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            assert action.help, f"{name} {action.option_strings or action.dest} has no help"
            if action.option_strings and action.default not in (None, False):
                assert f"(default: {action.default})" in " ".join(text.split()), \
                    f"{name} {action.option_strings[0]} does not show its default"


def test_one_default_seed_everywhere():
    seeds = {name: next(a.default for a in sub._actions if "--seed" in a.option_strings)
             for name, sub in _subcommands().items() if any("--seed" in a.option_strings for a in sub._actions)}
    assert set(seeds) >= {"play", "simulate", "compare", "check", "bench"}
    assert len(set(seeds.values())) == 1, seeds


@pytest.mark.slow
def test_compare_names_the_base_game_and_writes_csv_and_plot(capsys, tmp_path):
    table, picture = tmp_path / "compare.csv", tmp_path / "compare.png"
    code, out, err = run(capsys, "compare", "punto", "--players", "4", "--games", "2", "--variant", "base",
                         "--variant", "team", "--csv", str(table), "--plot", str(picture))
    assert code == 0, err
    assert out.splitlines()[1].split()[1:3] == ["base", "team"]
    assert "Player 1" in out and "seat" not in out
    rows = list(csv.DictReader(table.open()))
    assert [r["config"] for r in rows] == ["base", "base", "team", "team"]
    assert not [name for name in rows[0] if " " in name]
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    code, out, _ = run(capsys, "compare", "punto", "--players", "2", "--games", "1", "--variant", "base",
                       "--set", "win_length=4", "--json")
    assert code == 2 or json.loads(out)["configs"][0] == "base"


def test_base_file_as_variant_is_the_base_game(capsys):
    base = str(GAMES_DIR / "punto" / "punto.game")
    code, out, err = run(capsys, "simulate", "punto", "--players", "2", "--games", "1", "--variant", base, "--json")
    assert code == 0, err
    assert json.loads(out)["variant"] is None


@pytest.mark.parametrize("argv", [
    ["simulate", "punto", "--players", "2", "--games", "3", "--csv", "{missing}/games.csv"],
    ["simulate", "punto", "--players", "2", "--games", "3", "--plot", "{folder}"],
    ["compare", "punto", "--players", "2", "--games", "3", "--set", "win_length=4", "--csv", "{missing}/c.csv"],
    ["compare", "punto", "--players", "2", "--games", "3", "--set", "win_length=4", "--plot", "{missing}/c.png"],
    ["check", "punto", "--players", "2", "--examples", "1", "--out", "{missing}/found.scenario.yaml"],
    ["play", "punto", "--players", "2", "--seats", "random,random", "--log", "{missing}/game.log"],
])
def test_output_paths_are_checked_before_the_first_game(capsys, monkeypatch, tmp_path, argv):
    def no_games(*args, **kwargs):
        raise AssertionError("a game was played before the output path was checked")
    monkeypatch.setattr(playtest_commands, "simulate_records", no_games)
    monkeypatch.setattr(table_commands, "start_session", no_games)
    argv = [a.format(missing=tmp_path / "no" / "such" / "folder", folder=tmp_path) for a in argv]
    code, out, err = run(capsys, *argv)
    assert code == 2 and "cannot write there" in err or "folder" in err
    assert code == 2 and out == ""


def test_progress_bar_shows_an_eta_on_a_terminal_only():
    from boardwright.cli.progress import ProgressBar, progress_bar
    class Terminal(io.StringIO):
        def isatty(self):
            return True
    now = [0.0]
    screen = Terminal()
    bar = ProgressBar(screen, clock=lambda: now[0])
    now[0] = 2.0
    bar(10, 40)                 # 2 s for 10 games: 6 s for the other 30
    assert "10/40 games" in screen.getvalue() and "about 6.0 s left" in screen.getvalue()
    now[0] = 8.0
    bar(40, 40)
    assert screen.getvalue().endswith("\n") and "left" not in screen.getvalue().split("\r")[-1]
    assert progress_bar(io.StringIO()) is None                  # a pipe or a file: nothing drawn
    assert progress_bar(Terminal(), quiet=True) is None


def _python(code: str, **kwargs) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=import_path())
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120,
                          **kwargs)


BLOCK_EXTRAS = """
import sys
class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('hypothesis', 'matplotlib', 'dask'):
            raise ImportError(f'No module named {name!r} (blocked)')
sys.meta_path.insert(0, Blocker())
from boardwright.cli.main import main
"""


@pytest.mark.slow
def test_help_works_without_hypothesis_matplotlib_and_dask():
    done = _python(BLOCK_EXTRAS + "raise SystemExit(main(['--help']))")
    assert done.returncode == 0 and "simulate" in done.stdout and done.stderr == ""
    done = _python(BLOCK_EXTRAS + "raise SystemExit(main(['simulate', '--help']))")
    assert done.returncode == 0 and "--plot" in done.stdout


@pytest.mark.slow
def test_missing_extras_say_what_to_install_before_any_game():
    done = _python(BLOCK_EXTRAS + "raise SystemExit(main(['simulate', 'punto', '--players', '2', '--games', "
                                  "'500', '--plot', '/tmp/never-written.png']))")
    assert done.returncode == 2 and "pip install 'boardwright[plot]'" in done.stderr
    assert "Traceback" not in done.stderr
    done = _python(BLOCK_EXTRAS + "raise SystemExit(main(['simulate', 'punto', '--players', '2', '--games', "
                                  "'500', '--cluster', 'tcp://127.0.0.1:1']))")
    assert done.returncode == 2 and "pip install 'boardwright[cluster]'" in done.stderr


@pytest.mark.slow
def test_ctrl_c_with_workers_exits_130_without_tracebacks():
    process = subprocess.Popen(
        [sys.executable, "-m", "boardwright", "simulate", "punto", "--players", "2", "--games", "2000",
         "--workers", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, PYTHONPATH=import_path()), start_new_session=True,
        # A job started in the background inherits SIGINT ignored; a terminal's command does not.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children")
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and process.poll() is None and not children.read_text().split():
        time.sleep(0.2)                             # until the worker processes run
    time.sleep(1)
    os.killpg(process.pid, signal.SIGINT)           # what a terminal's Ctrl-C does: the whole group
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert err.strip() == "boardwright: interrupted"


@pytest.mark.slow
def test_cluster_workers_without_boardwright_are_told_what_to_install(capsys, monkeypatch):
    from dask import distributed

    def batch_on_a_bare_worker(*args):
        raise ModuleNotFoundError("No module named 'boardwright'")
    monkeypatch.setattr(simulate, "play_batch", batch_on_a_bare_worker)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        code, _, err = run(capsys, "simulate", "punto", "--players", "2", "--games", "2",
                           "--cluster", cluster.scheduler_address)
    assert code == 2 and "install it where the workers run" in err and "bug in Boardwright" not in err


@pytest.mark.slow
def test_plot_has_one_histogram_per_seat_whole_number_ticks_and_bot_names(capsys, tmp_path):
    import matplotlib.pyplot as plt
    from boardwright.interpreter.compile.load import load_game
    from boardwright.interpreter.playtest.report import score_figure, summarise
    from boardwright.interpreter.playtest.simulate import simulate_records
    game = load_game("punto")
    specs = ["greedy", "random", "random"]
    records = simulate_records(game, 3, 4, 1, specs)
    report = summarise(records, {"game": "Punto", "variant": None, "players": 3, "seed": 1, "bots": specs,
                                 "rotate": False, "params": {}, "seconds": 0})
    figure = score_figure(records, report, game.player_name)
    histograms = [ax for ax in figure.axes if ax.get_ylabel() == "games"]
    assert len(histograms) == 3, "small multiples: one histogram per seat, not one blur"
    assert [ax.get_title(loc="left").split(":")[0] for ax in histograms] == \
        ["Player 1 (greedy)", "Player 2 (random)", "Player 3 (random)"]
    figure.canvas.draw()
    ticks = [t for ax in histograms for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
    assert ticks and all(float(t).is_integer() for t in ticks), "whole-number scores get whole-number ticks"
    plt.close(figure)


@pytest.mark.parametrize("command", ["play", "serve"])
def test_play_and_serve_take_bots_as_simulate_does(command):
    """`--bots` names the bots per seat in simulate and compare; a user who types it for the
    table gets what --seats gives, not an error."""
    parser = build_parser()
    assert parser.parse_args([command, "punto", "--bots", "human,greedy"]).seats == "human,greedy"
    assert parser.parse_args([command, "punto", "--seats", "human,greedy"]).seats == "human,greedy"
