"""Behaviour the mutation samples of seeds 26 (its second half) and 27 found unguarded
(tests/mutation_sample.py, docs/testing.md "Mutation testing"): each test here was seen failing
with its mutant planted and passing without it. The mutant each one kills is named in its
docstring."""
from __future__ import annotations

import pytest

from conftest import run_main
from test_tune import FakePlay


def tuned(last: int) -> dict:
    """`tune --param k=0..LAST` of a game without a game (test_tune.FakePlay: k=0 wins 50% for
    the first seat, each step of k 3 points more), as the command's JSON holds it."""
    from boardwright.interpreter.playtest.goals import parse_goal
    from boardwright.interpreter.playtest.param_ranges import parse_range
    from boardwright.interpreter.playtest.tune_params import Evaluation, ParamTuner
    rates = {k: 50 + 3 * k for k in range(last + 1)}
    goal = parse_goal("first-player=0.5", ["first player win rate"])
    tuner = ParamTuner(Evaluation(FakePlay(rates, rates), 2, 1, [goal], ["random", "random"], False),
                       [parse_range(f"k=0..{last}")], budget=3000, first_games=100, confirm=2, seed=1,
                       player_name=lambda p: f"Player {p + 1}")
    return {"game": "Fake", "variant": None, "players": 2, "seed": 1, "bots": ["random", "random"], "fixed": [],
            "params": ["k"], **tuner.run(), "seconds": 1.0}


def test_the_tune_report_says_so_when_it_lists_only_the_best_candidates():
    """interpreter/playtest/tune_report.py format_tune: "(the best 5; --json lists all N)" only
    when there are more than 5 other candidates (the mutant `if more or True` said it always)."""
    from boardwright.interpreter.playtest.tune_report import SHOWN_CANDIDATES, format_tune
    assert SHOWN_CANDIDATES == 5
    for last in (3, 15):
        result = tuned(last)
        lines = format_tune(result).splitlines()
        n = len(result["candidates"])
        # of k=0..3, at most two values are left beside the best and the one confirmed with it;
        # k=0..15 leaves more than five
        assert (n <= 2) if last == 3 else (n > 5)
        heading = [i for i, line in enumerate(lines) if line.startswith("  other candidates")]
        assert len(heading) == 1
        listed = [line for line in lines[heading[0] + 1:] if line.startswith("    k=")]
        if n > 5:
            assert lines[heading[0]] == f"  other candidates, by their search games (the best 5; --json lists all {n}):"
            assert len(listed) == 5
        else:
            assert lines[heading[0]] == "  other candidates, by their search games:"
            assert len(listed) == n


def test_a_past_show_out_of_range_is_refused_with_the_range(tmp_path):
    """cli/web/table.py WebTable.past: a `show` number the table does not have is a 400 with
    the numbers it has (the mutant `Refused(400, )` raised a TypeError: a 500)."""
    from boardwright.cli.web.table import Refused
    from web_support import new_table
    path = tmp_path / "g.game"
    path.write_text('game "Tiny"\nplayers 2\nplay {\n  turn 0 { choose n from [1, 2] }\n  show "Half time"\n'
                    '  turn 1 { choose n from [1, 2] }\n}\n')
    table = new_table(tmp_path, str(path), ["human", "human"])
    token = table.tokens["0"]
    table.choose(token, 0, 0)
    assert table.past(token, None, show=0)["shown"] == "Half time"
    for show in (1, -1, "0", True):
        with pytest.raises(Refused) as refused:
            table.past(token, None, show=show)
        assert (refused.value.status, refused.value.message) == (400, "'show' must be from 0 to 0")


def test_a_show_before_the_first_decision_and_in_replayed_moves_is_kept(tmp_path):
    """cli/web/table.py: the shows of the game's start (before any decision) and of the moves a
    resumed table replays are the table's own: each is listed once, at its step; a show on a
    copy (a bot's or a hint's) is not."""
    from web_support import new_table
    path = tmp_path / "g.game"
    path.write_text('game "Tiny"\nplayers 2\nplay {\n  show "Welcome"\n  turn 0 { choose n from [1, 2] }\n'
                    '  show "Half time"\n  turn 1 { choose n from [1, 2] }\n}\n')
    table = new_table(tmp_path, str(path), ["human", "human"])
    assert [(title, step) for title, step, _ in table.shows] == [("Welcome", 0)]
    table.choose(table.tokens["0"], 0, 0)
    assert [(title, step) for title, step, _ in table.shows] == [("Welcome", 0), ("Half time", 1)]
    table.game.on_show(table.st.copy(), "On a copy")
    assert len(table.shows) == 2
    resumed = new_table(tmp_path, str(path), ["human", "human"])     # the saved game, resumed
    assert resumed is not table and len(resumed.moves) == 1
    assert [(title, step) for title, step, _ in resumed.shows] == [("Welcome", 0), ("Half time", 1)]


def refused_rules(tmp_path, capsys, rules: str):
    """`validate` of a rule file that must fail with a clear error (exit 1, no traceback):
    (its path, what validate printed)."""
    path = tmp_path / "g.game"
    path.write_text(rules)
    code, out, err = run_main(capsys, "validate", str(path))
    assert code == 1 and "Traceback" not in out + err
    return path, out + err


def test_a_fn_reading_a_param_caught_in_a_cycle_is_an_error_at_the_call(tmp_path, capsys):
    """dsl/check_expressions.py expr_Call: "uses param ..., which is not computed yet" points at
    the call (the mutant gave it no span: no line, column or caret)."""
    path, text = refused_rules(tmp_path, capsys, 'game "Tiny"\nplayers 2\nparam a = b + 1\nparam b = a + 1\n'
                               'fn start_value() -> int = a\nvar v: int = start_value()\n'
                               'play { turn 0 { choose n from [v, 2] } }\n')
    # line 6, column 14: `start_value()`, 13 characters
    assert (f"{path}:6:14: error: 'start_value' uses param 'a', which is not computed yet [E207]\n"
            "    var v: int = start_value()\n"
            "                 " + "^" * 13 + "\n"
            "    hint: params are computed in order: declare it before this line") in text


def test_the_rerun_command_names_only_the_options_that_differ_from_the_defaults():
    """cli/tune_bot_command.py command_line (the `# Rerun:` line of a tuned declaration): the
    defaults are left out, the others follow in the options' order, a whole float loses its
    `.0`, every `--set` is kept, and a file name with a space is quoted for the shell."""
    import argparse
    from boardwright.cli.tune_bot_command import command_line
    # the defaults, as docs/cli.md lists them for `tune --bot`
    args = argparse.Namespace(game="my race.game", bot="mcts", opponent="greedy", decision_seconds=0.25, trials=30,
                              games=40, batch=8, confirm=3, confirm_games=100, seed=1, set=None)
    assert command_line(args) == "boardwright tune 'my race.game' --bot mcts"
    args.decision_seconds, args.confirm_games, args.seed, args.set = 2.0, 20, 7, ["goal=5", "name=a b"]
    args.opponent = "mcts:iterations=50"
    assert command_line(args) == ("boardwright tune 'my race.game' --bot mcts --opponent mcts:iterations=50 "
                                  "--decision-seconds 2 --confirm-games 20 --seed 7 --set goal=5 --set 'name=a b'")


TUNED = "# Tuned by `boardwright tune`: won 0.600 (95% interval 0.500 to 0.700) of\n# Rerun: x\n"


def test_a_tuned_declaration_is_added_once_and_replaced_by_the_next(tmp_path):
    """cli/tune_bot_command.py write_declaration: at the end of a file without the bot's line
    (after a blank line), then in place of the line and the comment the last tune wrote; a
    comment someone wrote above a `bot` line stays."""
    from boardwright.cli.tune_bot_command import write_declaration
    from test_bot_enhancements import RACE
    path = tmp_path / "race.game"
    path.write_text(RACE.rstrip("\n"))                      # no newline at the end
    first = TUNED + 'bot mcts "iterations=50"\n'
    write_declaration(path, "mcts", first)
    assert path.read_text() == RACE + "\n" + first
    second = TUNED.replace("0.600", "0.650") + 'bot mcts "iterations=80"\n'
    write_declaration(path, "mcts", second)
    assert path.read_text() == RACE + "\n" + second
    path.write_text(RACE + '# chosen by hand\nbot mcts "iterations=10"\nbot greedy "lookahead=1"\n')
    write_declaration(path, "mcts", first)
    assert path.read_text() == RACE + "# chosen by hand\n" + first + 'bot greedy "lookahead=1"\n'


def test_a_tuned_declaration_that_fails_validation_leaves_the_file_as_it_was(tmp_path):
    """cli/tune_bot_command.py write_declaration: a declaration that does not check puts the old
    text back and says why (an error, or a warning of validate --strict)."""
    from boardwright.cli.tune_bot_command import write_declaration
    from boardwright.dsl.errors import BoardwrightError
    from test_bot_enhancements import RACE
    path = tmp_path / "race.game"
    path.write_text(RACE)
    with pytest.raises(BoardwrightError):
        write_declaration(path, "mcts", 'bot mcts "wings=3"\n')
    assert path.read_text() == RACE


class FakeServer:
    """Stands in for uvicorn: `serve` prints its links, then runs this, which returns at once."""
    started: list = []

    def __init__(self, app, host, port):
        self.app, self.host, self.port = app, host, port

    def run(self):
        FakeServer.started.append((self.host, self.port))
        FakeServer.app = self.app


def status_by_host(token: str, host: str) -> int:
    """The status of a request for the table's view that names `host` in its Host header."""
    import anyio
    import httpx

    async def get() -> int:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=FakeServer.app), base_url=f"http://{host}") as client:
            return (await client.get(f"/api/{token}/view")).status_code
    return anyio.run(get)


@pytest.fixture()
def fake_server(monkeypatch):
    import boardwright.cli.web.server as server
    FakeServer.started = []
    monkeypatch.setattr(server, "table_server", FakeServer)
    return FakeServer.started


def test_serve_prints_the_table_link_and_each_seats_link_then_resumes(tmp_path, capsys, fake_server):
    """cli/web_commands.py cmd_serve, after the table opens: where it is saved, the table's link
    and one link per human seat (the tokens of the save folder's links file), on the address it
    listens on; run again, it resumes from the save."""
    import json
    from boardwright.cli.web.table import TOKENS_NAME
    from test_serve import free_port
    from web_support import secret_game
    port, saves = free_port(), tmp_path / "saves"
    argv = ["serve", str(secret_game(tmp_path)), "--seats", "human,human", "--port", str(port), "--save-dir", str(saves)]
    code, out, err = run_main(capsys, *argv)
    tokens = json.loads((saves / TOKENS_NAME).read_text())
    base = f"http://127.0.0.1:{port}/t/"
    assert (code, err) == (0, "")
    assert out == (f"Secret hands: saved on every move in {saves}\n"
                   f"  table link (every human seat, hot-seat): {base}{tokens['table']}\n"
                   f"  Player 1 only: {base}{tokens['0']}\n  Player 2 only: {base}{tokens['1']}\n"
                   "Ctrl-C stops the server; the game stays saved.\n")
    assert fake_server == [("127.0.0.1", port)]
    # a page of another site that renames itself to this address (DNS rebinding) is refused
    assert (status_by_host(tokens["0"], "127.0.0.1"), status_by_host(tokens["0"], "evil.example")) == (200, 400)
    code, out, err = run_main(capsys, *argv)
    assert code == 0 and out.splitlines()[0] == f"Secret hands: resumed from {saves} at move 0 (--new starts a new game)"
    assert out.splitlines()[1] == f"  table link (every human seat, hot-seat): {base}{tokens['table']}"


def test_serve_on_the_lan_warns_and_a_table_with_one_human_has_one_link(tmp_path, capsys, fake_server):
    """cli/web_commands.py cmd_serve: --lan listens on 0.0.0.0 with a warning, the links still
    name this machine; with one human seat there is no seat link beside the table's."""
    from test_serve import free_port
    from web_support import secret_game
    port = free_port()
    code, out, err = run_main(capsys, "serve", str(secret_game(tmp_path)), "--seats", "human,random", "--lan",
                              "--port", str(port), "--save-dir", str(tmp_path / "s"))
    assert code == 0 and fake_server == [("0.0.0.0", port)]
    assert err == ("WARNING: the table listens on 0.0.0.0: anyone on the network who has a link can play its seat.\n")
    lines = out.splitlines()
    token = lines[1].rsplit("/", 1)[1]
    assert status_by_host(token, "192.0.2.7") == 200         # any name: the LAN's machines call it theirs
    assert len(lines) == 3 and lines[1].startswith(f"  table link (every human seat, hot-seat): http://127.0.0.1:{port}/t/")


def test_serve_on_an_ipv6_loopback_puts_the_address_in_brackets(tmp_path, capsys, fake_server):
    """cli/web_commands.py cmd_serve: a link to an IPv6 address has it in brackets (RFC 3986)."""
    import socket
    from web_support import secret_game
    with socket.socket(socket.AF_INET6) as probe:
        probe.bind(("::1", 0))
        port = probe.getsockname()[1]
    code, out, err = run_main(capsys, "serve", str(secret_game(tmp_path)), "--seats", "human,random", "--host", "::1",
                              "--port", str(port), "--save-dir", str(tmp_path / "s"))
    assert code == 0 and fake_server == [("::1", port)]
    assert f"  table link (every human seat, hot-seat): http://[::1]:{port}/t/" in out


def test_serve_refuses_a_port_that_is_taken(tmp_path, capsys, fake_server):
    """cli/web_commands.py _check_port: a usage error naming the address, before the game opens."""
    import socket
    from web_support import secret_game
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, out, err = run_main(capsys, "serve", str(secret_game(tmp_path)), "--port", str(port),
                                  "--save-dir", str(tmp_path / "s"))
    assert code == 2 and fake_server == [] and not (tmp_path / "s").exists()
    assert f"cannot listen on 127.0.0.1:{port}: Address already in use" in err


def test_the_default_save_folder_is_one_per_game_and_variant_under_the_state_home(monkeypatch, tmp_path):
    """cli/web_commands.py default_save_dir: $XDG_STATE_HOME/boardwright/serve/NAME, NAME the game
    and variant with every run of other characters one `-`, at most its last 80 characters."""
    from boardwright.cli.web_commands import default_save_dir
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    serve = tmp_path / "boardwright" / "serve"
    assert default_save_dir("punto", None) == serve / "punto-base"
    assert default_save_dir("/home/a/My Game.game", "short") == serve / "home-a-My-Game-game-short"
    long = "/x/" + "a" * 100 + ".game"
    assert default_save_dir(long, None) == serve / ("a" * 70 + "-game-base")
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_save_dir("punto", "v") == tmp_path / "home" / ".local" / "state" / "boardwright" / "serve" / "punto-v"


RACE = "docs/examples/head-start-race/race.game"


@pytest.mark.parametrize("args, message", [
    (["--players", "2", "--bot", "mcts"], "tune takes --param or --bot, not both"),
    ([], "tune --param needs --players N"),
    (["--players", "2", "--write"], "--write needs the variant file to write: --write NAME.game"),
    (["--players", "2", "--write", "fair.txt"], "--write fair.txt: a rule file's name ends in .game"),
])
def test_tune_param_usage_errors_say_what_to_give(capsys, args, message):
    """cli/tune_commands.py tune_params: each usage error before any game is played (exit 2)."""
    from pathlib import Path
    race = str(Path(__file__).resolve().parent.parent / RACE)
    code, out, err = run_main(capsys, "tune", race, "--param", "head_start=0..4", "--goal", "first-player=0.5", *args)
    assert (code, out) == (2, "") and f"error: {message}" in err


@pytest.mark.parametrize("settings, message", [
    (["--set", "goal=10"], "sweep needs a range: --set NAME=LOW..HIGH (e.g. --set rounds_to_win=2..6)"),
    # 41 x 26 = 1,066 points, above the 1,000 allowed
    (["--set", "goal=10..50", "--set", "head_start=0..25"], "the ranges make 1,066 combinations; at most 1,000: "
                                                            "take larger steps"),
])
def test_sweep_refuses_no_range_and_too_many_combinations(capsys, settings, message):
    """cli/sweep_commands.py _checked_ranges: a sweep of nothing, or of more points than MAX_POINTS."""
    from pathlib import Path
    race = str(Path(__file__).resolve().parent.parent / RACE)
    code, out, err = run_main(capsys, "sweep", race, "--players", "2", *settings)
    assert (code, out) == (2, "") and f"error: {message}" in err


def test_the_progress_line_is_drawn_to_the_character():
    """cli/progress.py ProgressBar: 30 marks filled in proportion, games done of all, seconds,
    the time left at the pace so far, the note, blanks to 78 columns over a longer line, a
    newline at the end (and from `clear` on an unfinished line, only there)."""
    import io
    from boardwright.cli.progress import ProgressBar
    now, screen = [0.0], io.StringIO()
    bar = ProgressBar(screen, clock=lambda: now[0])
    bar.clear()                                  # nothing drawn yet: nothing to end
    assert screen.getvalue() == ""
    now[0] = 2.0
    bar(10, 40, "best so far k=2")            # 2 s for 10 games: 6 s for the other 30; 30 * 10 // 40 = 7 marks
    first = "\r  [" + "#" * 7 + "." * 23 + "] 10/40 games, 2.0 s, about 6.0 s left; best so far k=2"
    assert screen.getvalue() == first.ljust(78)
    bar.clear()
    assert screen.getvalue() == first.ljust(78) + "\n"
    now[0] = 8.0
    bar(40, 40)
    last = ("\r  [" + "#" * 30 + "] 40/40 games, 8.0 s").ljust(78) + "\n"
    assert screen.getvalue() == first.ljust(78) + "\n" + last
    bar.clear()                                  # a finished line gets no second newline
    assert screen.getvalue().endswith(last)
    empty = io.StringIO()
    ProgressBar(empty, clock=lambda: 0.0)(0, 0)  # nothing to play: a full bar
    assert empty.getvalue() == ("\r  [" + "#" * 30 + "] 0/0 games, 0.0 s").ljust(78) + "\n"
    start = io.StringIO()
    ProgressBar(start, clock=lambda: 0.0)(0, 40)  # no game done yet: no pace, so no time left
    assert start.getvalue() == ("\r  [" + "." * 30 + "] 0/40 games, 0.0 s").ljust(78)


@pytest.mark.parametrize("seconds, text", [(9.94, "9.9 s"), (10, "10 s"), (59.4, "59 s"), (60, "1 min 00 s"),
                                           (3725, "62 min 05 s")])
def test_durations_read_as_seconds_then_minutes(seconds, text):
    """cli/progress.py format_duration: tenths under 10 s, whole seconds under a minute, then
    minutes and two-digit seconds."""
    from boardwright.cli.progress import format_duration
    assert format_duration(seconds) == text


def test_the_web_view_counts_turns_from_one(tmp_path):
    """cli/web/looks.py seat_view: "turn" is the number of turns begun (the page reads "Move 0,
    turn 1." while the first is played), and "move" the moves made."""
    from web_support import new_table, secret_game
    table = new_table(tmp_path, str(secret_game(tmp_path)), ["human", "human"])
    seat0, seat1 = table.tokens["0"], table.tokens["1"]
    assert [table.view(seat0)[key] for key in ("move", "turn")] == [0, 1]
    table.choose(seat0, 0, 0)
    assert [table.view(seat1)[key] for key in ("move", "turn")] == [1, 2]


# Options that docs/cli.md shows with an example in place of the metavar the help prints,
# and that metavar (serve's --seats is "as for play", whose section shows `--seats LIST`).
SHOWN_BY_EXAMPLE = {("compare", "--variant"): ("A", "NAME"), ("serve", "--seats"): ("human,greedy,...", "LIST"),
                    ("tune", "--bot"): ("mcts", "BOT")}


def test_every_option_is_shown_in_its_commands_section_of_the_cli_docs_as_help_names_it():
    """cli/*: the word after each option in `--help` (its metavar) is the one docs/cli.md's
    section of the command writes, or the option's default there (a mutant of a metavar,
    e.g. `tune --bot`'s "ADDRESS" -> "address" for --cluster, changes what --help prints; so
    does a metavar dropped, e.g. `serve --seats SEATS` for `--seats LIST`: argparse then shows
    the option's name in capitals)."""
    import argparse
    import re
    from pathlib import Path
    from boardwright.cli.main import build_parser
    docs = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")
    sections = {m.group(1): re.split(r"^## ", docs[m.end():], maxsplit=1, flags=re.M)[0]
                for m in re.finditer(r"^## (\w+)\n", docs, re.M)}
    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)).choices
    checked = 0
    for name, parser in commands.items():
        formatter = parser._get_formatter()
        for action in parser._actions:
            long = [o for o in action.option_strings if o.startswith("--")]
            if not long or action.nargs == 0:       # a flag takes no value
                continue
            # what --help prints after the option: its metavar, or the name in capitals
            printed = formatter._format_args(action, formatter._get_default_metavar_for_optional(action))
            words = {printed, action.metavar, str(action.default)} - {None}
            if (name, long[0]) in SHOWN_BY_EXAMPLE:
                example, metavar = SHOWN_BY_EXAMPLE[name, long[0]]
                assert f"{long[0]} {example}" in sections[name] and printed == metavar, (name, long[0], printed)
            else:
                assert any(f"{long[0]} {word}" in sections[name] for word in words), (name, long[0], printed)
            checked += 1
    assert checked >= 100


def test_a_sweep_reports_the_seconds_it_took():
    """interpreter/playtest/sweep.py run_sweep: "seconds" is the time the sweep took, to the
    millisecond (the mutant `round(3)` reported 3 whatever it took)."""
    import time
    from pathlib import Path
    from boardwright.interpreter.compile.load import load_game
    from boardwright.interpreter.playtest.param_ranges import parse_range
    from boardwright.interpreter.playtest.sweep import run_sweep
    race = Path(__file__).resolve().parent.parent / RACE
    ranges = [parse_range("head_start=0..1")]
    start = time.perf_counter()
    report, _ = run_sweep(lambda variant: load_game(race, variant), str(race), None, 2, 2, 1, ["random", "random"],
                          ranges, fixed={"goal": "5"})
    took = time.perf_counter() - start
    assert [row["params"] for row in report["points"]] == [{"head_start": 0}, {"head_start": 1}]
    assert 0 <= report["seconds"] <= round(took, 3) + 0.001 and round(report["seconds"], 3) == report["seconds"]


def test_bench_figures_from_a_clock_that_ticks_0_7_ms_per_reading(monkeypatch):
    """interpreter/playtest/bench.py bench_game: each figure from the clock's readings, at its
    documented precision (seconds to the millisecond: the mutant kept four digits)."""
    import types
    from pathlib import Path
    from boardwright.interpreter.compile.load import load_game
    from boardwright.interpreter.playtest import bench
    readings = [0]
    monkeypatch.setattr(bench, "time", types.SimpleNamespace(perf_counter=lambda: readings.__setitem__(0, readings[0] + 1)
                                                             or readings[0] * 0.0007))
    race = Path(__file__).resolve().parent.parent / RACE

    def load():
        game = load_game(race)
        game.set_params({"goal": "30"})         # no race ends within the 6 random moves before a search
        return game
    row = bench.bench_game(load, players=2, games=4, mcts_iterations=10, mcts_positions=3)
    # every timed span is one tick of 0.7 ms: 5 loads, the 4 playouts together, 3 searches
    assert (row["load_and_check_ms"], row["first_load_ms"]) == (0.7, 0.7)
    assert row["playouts_per_second"] == round(4 / 0.0007, 3)
    assert row["mcts_iterations_per_second"] == round(30 / 0.0021, 1)
    assert row["seconds"] == 0.003                  # 0.7 ms of playouts and 2.1 ms of search


def test_more_players_than_a_table_seats_is_an_error_with_the_limit_in_its_hint(tmp_path, capsys):
    """dsl/checker.py: `players 2..101` is refused at its line, and the hint names the limit
    (docs/security.md: 100 players) and where it is explained (the mutant dropped the hint)."""
    path, text = refused_rules(tmp_path, capsys, 'game "Tiny"\nplayers 2..101\nplay { turn 0 { choose n from [1, 2] } }\n')
    assert (f"{path}:2:1: error: invalid player counts 2..101: at most 100 players [E202]\n    players 2..101\n"
            "    " + "^" * 14 + "\n    hint: a table seats at most 100 players (docs/security.md)") in text


def test_a_placement_in_a_saved_state_is_written_as_documented_and_read_back_the_same():
    """interpreter/run/state.py encode/decode: {"placement": [piece, [x, y], turn, [[x, y], ...]]}
    (the docstring's format; the mutant wrote the cells where the turn goes), a cell as
    {"cell": [x, y]}, and both read back equal, inside lists too."""
    import json
    from boardwright.interpreter.run.shaped import Placement
    from boardwright.interpreter.run.state import decode, encode
    placement = Placement(7, (2, 3), 1, ((2, 3), (2, 4)))
    assert encode(placement) == {"placement": [7, [2, 3], 1, [[2, 3], [2, 4]]]}
    assert encode([(0, 1), placement]) == [{"cell": [0, 1]}, {"placement": [7, [2, 3], 1, [[2, 3], [2, 4]]]}]
    back = decode(json.loads(json.dumps(encode([(0, 1), placement]))))
    assert back == [(0, 1), placement] and type(back[1]) is Placement and back[1].turn == 1


def test_the_command_a_tuned_variant_records_reproduces_the_search():
    """cli/tune_commands.py _command (the comment a written variant keeps): every --param,
    --set and --goal, the budget and the seed always (the mutant wrote `--seed None`), the
    games only when not the default, the bots and --rotate when given, quoted for the shell."""
    import argparse
    from boardwright.cli.tune_commands import PARAM_GAMES, _command
    args = argparse.Namespace(game="my race.game", variant=None, players=2, param=["head_start=0..4"], set=None,
                              goal=["first-player=0.5", "length=10..20"], budget=600, seed=7, games=PARAM_GAMES,
                              bots=None, rotate=False)
    assert _command(args) == ("boardwright tune 'my race.game' --players 2 --param head_start=0..4 "
                              "--goal first-player=0.5 --goal length=10..20 --budget 600 --seed 7")
    args.variant, args.set, args.games, args.bots, args.rotate = "long", ["goal=10"], PARAM_GAMES + 1, "random,greedy", True
    assert _command(args) == ("boardwright tune 'my race.game' --variant long --players 2 --param head_start=0..4 "
                              "--set goal=10 --goal first-player=0.5 --goal length=10..20 --budget 600 --seed 7 "
                              f"--games {PARAM_GAMES + 1} --bots random,greedy --rotate")


def test_a_shape_cell_may_lie_64_cells_from_its_origin_and_no_further():
    """dsl/shapes.py shape_problem: the limit of 64 either way is inclusive (the mutant moved it to 65)."""
    from boardwright.dsl.shapes import shape_problem
    assert shape_problem([[0, 0], [64, -64]]) == ""
    for cell in ([65, 0], [0, -65]):
        assert shape_problem([[0, 0], cell]) == (f"the cell {cell} is too far from the shape's origin "
                                                 "(at most 64 either way)")


def test_only_the_top_card_of_a_top_stack_is_pointed_at_on_the_web_table(tmp_path):
    """cli/web/looks.py option_targets: where a `top` stack shows only its top card, the option
    that takes it points at the stack's top; the options of the cards under it point nowhere
    (the mutant pointed every one of them at the top)."""
    from boardwright.cli.web.looks import seat_view
    from boardwright.interpreter.compile.load import load_game
    from web_support import SECRET_DATA
    (tmp_path / "cards.yaml").write_text(SECRET_DATA)
    (tmp_path / "g.game").write_text(
        'game "Top"\nplayers 2\ndata "cards.yaml"\nzone deck: stack of Card top\nzone taken: pile of Card\n'
        'setup { for c in components(Card) { move c to deck } }\n'
        'play { turn 0 { choose c from contents(deck) prompt "Take"\n  move c to taken } }\n')
    game = load_game(tmp_path / "g.game")
    st = game.new_state(2, 1)
    options = seat_view(game, st, 0, ["human", "human"])["decision"]["options"]
    # the cards were moved in data order: Heron, the last, lies on top
    assert {o["label"]: o["targets"] for o in options if o["targets"]} == {"Heron": [{"zone": "deck", "top": True}]}
    assert len(options) == 8


@pytest.mark.slow
def test_a_failed_check_shows_the_table_at_the_failing_step(tmp_path, capsys):
    """interpreter/testing/check.py: a broken invariant keeps the state it broke in, and the
    report lists its zones (the mutant kept an empty state, so the report had none)."""
    from test_check import PLANTED, planted
    old, new, invariant = PLANTED["wrong bound"]
    code, out, _ = run_main(capsys, "check", str(planted(tmp_path, old, new)), "--players", "2", "--examples", "25",
                            "--seed", "1")
    assert code == 1 and "FAILED: invariant" in out and invariant in out
    shown = out.split("  state at the failing step:\n", 1)[1].splitlines()
    assert any(line.startswith("    table: ") for line in shown)      # the grid the card was laid on


@pytest.mark.parametrize("option", ["--positions", "--repeats", "--games"])
def test_probe_counts_are_whole_numbers_of_at_least_one(capsys, option):
    """cli/playtest_commands.py add_probe: each count is read by positive_int (the mutant
    `type=None` let "0" through as text)."""
    from boardwright.cli.main import main
    with pytest.raises(SystemExit) as exit:             # argparse's own usage error
        main(["probe", "punto", "--bots", "random", "--gold", "mcts", option, "0"])
    out, err = capsys.readouterr()
    assert (exit.value.code, out) == (2, "") and f"argument {option}: expected at least 1, got 0" in err


def test_explain_says_what_break_and_continue_do(tmp_path):
    """cli/explain.py statement_lines: `break` reads "stop the loop", `continue` "go on with
    the loop's next round" (the mutant garbled the first)."""
    from boardwright.cli.explain import explain
    from boardwright.dsl.loader import check_game
    path = tmp_path / "g.game"
    path.write_text('game "Tiny"\nplayers 2\nplay {\n  for n in range(3) {\n    if n == 1 { continue }\n'
                    '    if n == 2 { break }\n    turn 0 { choose k from [1, 2] }\n  }\n}\n')
    lines = [line.strip() for line in explain(check_game(path)[0]).splitlines()]
    assert "stop the loop" in lines and "go on with the loop's next round" in lines
