"""The web table over HTTP (cli/web/), without a browser: crafted requests are refused with a
4xx and a sentence, a seat's link sees only its seat's cards and acts only for its seat, the
undo rule of a table with several human seats, and a game saved on every move that a new
server resumes at the same links. The browser tests are in test_serve_browser.py."""
from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time

import pytest

from boardwright.cli.main import main
from boardwright.cli.saves import SAVE_FORMAT, read_saved
from boardwright.cli.web.table import SAVE_NAME, TOKENS_NAME, Refused, open_table
from boardwright.interpreter.compile.load import load_game
from checkout import import_path
from serve_load import run as load_run
from web_support import new_table, request, secret_game, serving

SEAT0_CARDS = ["Aardvark", "Bison", "Cobra", "Dingo"]       # web_support.SECRET_DATA: seat 0's hand
SEAT1_CARDS = ["Egret", "Falcon", "Gecko", "Heron"]


def test_crafted_requests_get_a_4xx_with_a_sentence(tmp_path):
    table = new_table(tmp_path, str(secret_game(tmp_path)), ["human", "human"])
    seat0, seat1, hot = table.tokens["0"], table.tokens["1"], table.tokens["table"]
    with serving(table) as server:
        api = f"{server.url}/api"
        crafted = {
            "a token that is none": (f"{api}/{'x' * 32}/choose", {"move": 0, "option": 0}, None, 404),
            "a token too short to be one": (f"{api}/abc/choose", {"move": 0, "option": 0}, None, 404),
            "another seat's move": (f"{api}/{seat1}/choose", {"move": 0, "option": 0}, None, 403),
            "not JSON": (f"{api}/{seat0}/choose", None, b'{"move": 0,', 400),
            "not an object": (f"{api}/{seat0}/choose", [0, 0], None, 400),
            "a move number as text": (f"{api}/{seat0}/choose", {"move": "0", "option": 0}, None, 400),
            "no move number": (f"{api}/{seat0}/choose", {"option": 0}, None, 400),
            "a stale move number": (f"{api}/{seat0}/choose", {"move": 5, "option": 0}, None, 409),
            "an option out of range": (f"{api}/{seat0}/choose", {"move": 0, "option": 4}, None, 400),
            "a negative option": (f"{api}/{seat0}/choose", {"move": 0, "option": -1}, None, 400),
            "an option of the wrong type": (f"{api}/{seat0}/choose", {"move": 0, "option": [1]}, None, 400),
            "a true for a number": (f"{api}/{seat0}/choose", {"move": 0, "option": True}, None, 400),
            "an unknown id": (f"{api}/{seat0}/choose", {"move": 0, "option": "egret"}, None, 400),
            "an unknown key": (f"{api}/{seat0}/choose", {"move": 0, "option": 0, "seat": 1}, None, 400),
            "an unknown action": (f"{api}/{seat0}/cheat", {"move": 0}, None, 404),
            "a body too large": (f"{api}/{seat0}/choose", None, b" " * 5000 + b"{}", 413),
            "a hint for another seat": (f"{api}/{seat1}/hint", {"move": 0}, None, 403),
            "a save with another seat's cards": (f"{api}/{seat1}/save", None, None, 403),
            "a load by a seat": (f"{api}/{seat1}/load", None, b"{}", 403),
            "a load of no save": (f"{api}/{hot}/load", None, b"[1, 2]", 400),
            "a past step beyond the game": (f"{api}/{seat0}/past?step=9", None, None, 400),
            "a past step as a word": (f"{api}/{seat0}/past?step=one", None, None, 400),
            "a poll after no version": (f"{api}/{seat0}/view?after=-1", None, None, 400),
            "a GET of an action": (f"{api}/{seat0}/choose", None, None, 405),
            "an undo with a move number as text": (f"{api}/{seat0}/undo", {"move": "0"}, None, 400),
            "a redo at a stale move": (f"{api}/{seat0}/redo", {"move": 3}, None, 409),
        }
        for what, (url, body, raw, status) in crafted.items():
            got, answer = request(url, body, raw)
            assert got == status, f"{what}: {got} {answer}"
            assert isinstance(answer, dict) and answer["error"] and "Traceback" not in answer["error"], what
        # Nothing of that changed the table; the seat to move can still move.
        assert table.moves == [] and request(f"{api}/{seat0}/choose", {"move": 0, "option": "cobra"})[0] == 200
        assert table.moves[0]["label"] == "Cobra" and table.moves[0]["player"] == 0


def test_a_table_knows_only_its_own_links(tmp_path):
    """Behind the server's look-up, each table checks the link again (two guards, not one)."""
    mine = new_table(tmp_path / "a", str(secret_game(tmp_path)), ["human", "human"])
    other = new_table(tmp_path / "b", str(secret_game(tmp_path)), ["human", "human"])
    assert mine.who(mine.tokens["1"]) == 1 and mine.who(mine.tokens["table"]) is None
    for token in (other.tokens["0"], other.tokens["table"], "x" * 32, None, 7):
        with pytest.raises(Refused) as refused:
            mine.who(token)
        assert refused.value.status == 404


def test_a_host_header_of_another_name_is_refused(tmp_path):
    """A page on another site that renames itself to 127.0.0.1 (DNS rebinding) is refused."""
    table = new_table(tmp_path, str(secret_game(tmp_path)), ["human", "human"])
    with serving(table) as server:
        url = f"{server.url}/api/{table.tokens['0']}/view"
        assert request(url)[0] == 200
        assert request(url, headers={"Host": "evil.example:80"})[0] == 400


def visible_text(view) -> str:
    return json.dumps(view)


def test_a_seat_sees_its_own_hand_and_never_the_other_seats(tmp_path):
    table = new_table(tmp_path, str(secret_game(tmp_path)), ["human", "human"])
    with serving(table) as server:
        api = f"{server.url}/api"
        seen = {0: [], 1: []}
        for move in range(4):
            for seat in (0, 1):
                seen[seat].append(visible_text(request(f"{api}/{table.tokens[str(seat)]}/view")[1]))
                seen[seat].append(visible_text(request(f"{api}/{table.tokens[str(seat)]}/past?step={move}")[1]))
            seat = move % 2
            hand = (SEAT0_CARDS if seat == 0 else SEAT1_CARDS)
            # Each seat plays the first two of its cards (alphabetical: the rules keep data order).
            request(f"{api}/{table.tokens[str(seat)]}/choose", {"move": move, "option": hand[move // 2].lower()})
        final = {seat: visible_text(request(f"{api}/{table.tokens[str(seat)]}/view")[1]) for seat in (0, 1)}
    assert table.st.finished
    for never_played in ("Cobra", "Dingo"):
        assert all(never_played not in text for text in seen[1] + [final[1]]), never_played
        assert never_played in final[0]                 # its owner sees it
    for never_played in ("Gecko", "Heron"):
        assert all(never_played not in text for text in seen[0] + [final[0]]), never_played
    # Played cards are face up for both.
    assert all(name in final[1] and name in final[0] for name in ("Aardvark", "Bison", "Egret", "Falcon"))


SEALED_PLAY = """play {
  choose c from contents(hand[q]) by each q in players prompt "Play a card face down"
  for p in players { move c[p] to played }
}"""


def test_a_sealed_choice_stays_sealed_from_the_other_seat_until_revealed(tmp_path):
    path = secret_game(tmp_path)
    rules = path.read_text()
    path.write_text(rules[:rules.index("play {")] + SEALED_PLAY + "\nscore p { \"Cards\": 0 }\n")
    table = new_table(tmp_path, str(path), ["human", "human"])
    with serving(table) as server:
        api = f"{server.url}/api"
        assert request(f"{api}/{table.tokens['0']}/choose", {"move": 0, "option": "bison"})[0] == 200
        sealed = visible_text(request(f"{api}/{table.tokens['1']}/view")[1])
        own = request(f"{api}/{table.tokens['0']}/view")[1]
        assert "Bison" not in sealed and "a sealed choice" in sealed
        assert own["sealed"]["yours"] == "Bison" and own["history"][0]["label"] == "Bison"
        assert request(f"{api}/{table.tokens['1']}/choose", {"move": 1, "option": "gecko"})[0] == 200
        revealed = request(f"{api}/{table.tokens['1']}/view")[1]
        played = next(z for z in revealed["zones"] if z["key"] == "played")
        assert sorted(item["label"] for item in played["items"]) == ["Bison", "Gecko"]


def test_several_human_seats_undo_only_their_own_last_move(tmp_path):
    table = new_table(tmp_path, str(secret_game(tmp_path)), ["human", "human"])
    seat0, seat1 = table.tokens["0"], table.tokens["1"]
    with serving(table) as server:
        api = f"{server.url}/api"
        assert request(f"{api}/{seat0}/choose", {"move": 0, "option": 0})[0] == 200
        assert request(f"{api}/{seat1}/choose", {"move": 1, "option": 0})[0] == 200
        status, answer = request(f"{api}/{seat0}/undo", {"move": 2})
        assert status == 409 and "Player 2 has moved since" in answer["error"]
        assert request(f"{api}/{seat1}/undo", {"move": 2})[0] == 200 and len(table.moves) == 1
        assert request(f"{api}/{seat0}/redo", {"move": 1})[0] == 403       # not seat 0's move to redo
        assert request(f"{api}/{seat1}/redo", {"move": 1})[0] == 200
        assert [m["label"] for m in table.moves] == ["Aardvark", "Egret"]
        assert request(f"{api}/{seat1}/redo", {"move": 2})[0] == 409       # nothing left to redo
        # The table link plays hot-seat: it takes back the last human move whoever made it.
        assert request(f"{api}/{table.tokens['table']}/undo", {"move": 2})[0] == 200
        assert request(f"{api}/{table.tokens['table']}/undo", {"move": 1})[0] == 200 and table.moves == []


def test_undo_against_a_bot_takes_back_the_bots_answer_and_redo_replays_it(tmp_path):
    table = new_table(tmp_path, "punto", ["human", "random"], seed=3)
    link = table.tokens["table"]
    with serving(table) as server:
        api = f"{server.url}/api"
        assert request(f"{api}/{link}/choose", {"move": 0, "option": "0,0"})[0] == 200
        deadline = time.monotonic() + 120    # the bot answers on the server, in a thread
        while (view := request(f"{api}/{link}/view")[1])["move"] != 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert view["move"] == 2 and view["history"][1]["plays"] == "random"
        bot_answer = table.moves[1]["id"]
        assert request(f"{api}/{link}/undo", {"move": 2})[0] == 200 and len(table.moves) == 0
        assert request(f"{api}/{link}/redo", {"move": 0})[0] == 200
        assert [m["id"] for m in table.moves] == ["0,0", bot_answer]


def test_a_round_won_is_kept_as_the_table_looked_before_its_cards_left(tmp_path):
    """Punto's `show` at a round's end: the past view it keeps still holds the round's cards
    (every card placed that round, but a winner's highest, which leaves the match), though by
    now they are back in the decks."""
    table = new_table(tmp_path, "punto", ["human", "random"], seed=5)
    link = table.tokens["table"]
    with serving(table) as server:
        api = f"{server.url}/api/{link}"
        deadline = time.monotonic() + 240    # by the clock: on a loaded machine the bot is slow
        while not (view := request(f"{api}/view")[1])["shows"] and time.monotonic() < deadline:
            if view["decision"]["options"] is not None:
                request(f"{api}/choose", {"move": view["move"], "option": 0})
            else:
                time.sleep(0.02)
        shown = view["shows"][0]
        won = re.fullmatch(r"Round 1 goes to Player [12]", shown["title"]) is not None
        assert won or shown["title"] == "Round 1 is over: nobody won it"
        past = request(f"{api}/past?show=0")[1]
        table_then = next(z for z in past["zones"] if z["key"] == "table")
        removed = next(z for z in past["zones"] if z["key"] == "removed")
        assert past["shown"] == shown["title"] and table_then["size"] == shown["step"] - won
        assert removed["size"] == won
        now = request(f"{api}/view")[1]
        assert next(z for z in now["zones"] if z["key"] == "table")["size"] < table_then["size"]


@pytest.mark.slow
def test_a_hint_is_the_terminals_hint_for_the_seat_to_move(tmp_path):
    table = new_table(tmp_path, "punto", ["human", "human"], seed=3)
    link = table.tokens["table"]
    with serving(table) as server:
        api = f"{server.url}/api/{link}"
        request(f"{api}/choose", {"move": 0, "option": "0,0"})
        view = request(f"{api}/view")[1]
        status, hint = request(f"{api}/hint", {"move": 1})
        # The search bot's best option, numbered among those offered (the rules offer the 8
        # cells around the first card, and (0, 0) itself only to a higher card).
        best = re.search(r"Hint: (.*) \(option (\d+)\)", hint["hint"])
        assert status == 200 and best and view["decision"]["options"][int(best.group(2)) - 1]["label"] == best.group(1)
        assert len(view["decision"]["options"]) in (8, 9)
        assert request(f"{server.url}/api/{table.tokens['0']}/hint", {"move": 1})[0] == 403


def test_every_move_is_saved_and_a_new_server_resumes_at_the_same_links(tmp_path):
    game = str(secret_game(tmp_path))
    table = new_table(tmp_path, game, ["human", "human"])
    with serving(table) as server:
        request(f"{server.url}/api/{table.tokens['0']}/choose", {"move": 0, "option": "bison"})
        _game, saved, _st, _ = read_saved(str(tmp_path / "saves" / SAVE_NAME), SAVE_FORMAT, load_game)
        assert [m["label"] for m in saved["moves"]] == ["Bison"]       # the snapshot and its journal
    # The save is the terminal's save format: `play --load` reads it.
    _game, setup, st, _ = read_saved(str(tmp_path / "saves" / SAVE_NAME), SAVE_FORMAT, load_game)
    assert len(st.history) == 1 and setup["seats"] == ["human", "human"]
    assert oct((tmp_path / "saves" / TOKENS_NAME).stat().st_mode & 0o777) == "0o600"
    again, resumed = open_table(game, None, None, None, 1, tmp_path / "saves", load_game)
    assert resumed and again.tokens == table.tokens and len(again.moves) == 1
    with serving(again) as server:
        status, view = request(f"{server.url}/api/{table.tokens['1']}/view")
        assert status == 200 and view["move"] == 1 and view["decision"]["player"] == 1
    fresh, resumed = open_table(game, None, 2, None, 1, tmp_path / "saves", load_game, new=True)
    assert not resumed and fresh.moves == [] and fresh.tokens["table"] != table.tokens["table"]


def test_a_save_loaded_in_the_browser_replaces_the_game(tmp_path):
    table = new_table(tmp_path, "punto", ["human", "human"])
    link = table.tokens["table"]
    with serving(table) as server:
        api = f"{server.url}/api"
        request(f"{api}/{link}/choose", {"move": 0, "option": "0,0"})
        status, save = request(f"{api}/{link}/save")
        assert status == 200 and save["format"] == SAVE_FORMAT and len(save["moves"]) == 1
        request(f"{api}/{link}/choose", {"move": 1, "option": 0})
        assert len(table.moves) == 2
        assert request(f"{api}/{link}/load", raw=json.dumps(save).encode())[0] == 200
        assert len(table.moves) == 1
        damaged = dict(save, moves=[dict(save["moves"][0], id="9,9")])
        status, answer = request(f"{api}/{link}/load", raw=json.dumps(damaged).encode())
        assert status == 400 and "damaged" in answer["error"] and "is not one of the options" in answer["error"]
        other = dict(save, game="point-city")
        assert request(f"{api}/{link}/load", raw=json.dumps(other).encode())[0] == 400


def test_a_save_loaded_at_the_table_finds_the_tables_game_whatever_the_temp_folder_holds(tmp_path, monkeypatch):
    """An upload is read from a folder of its own: a folder named like the game in the temp
    folder (here a `punto/` with no rule file) does not stand in for the bundled game."""
    table = new_table(tmp_path, "punto", ["human", "human"])
    link = table.tokens["table"]
    save = table.save_text(link)
    table.choose(link, 0, 0)
    temp = tmp_path / "temp"
    (temp / "punto").mkdir(parents=True)
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    table.load(link, save)
    assert len(table.moves) == 0
    assert list(temp.iterdir()) == [temp / "punto"]      # the upload's folder is gone


@pytest.mark.parametrize("argv, message", [
    (["--host", "0.0.0.0"], "add --lan"),
    (["--port", "70000"], "expected a port"),
    (["--seats", "human,wizard"], "unknown bot 'wizard'"),
    (["--players", "7"], "is for 2 to 4 players"),
])
def test_serve_refuses_bad_arguments_before_listening(tmp_path, capsys, argv, message):
    try:
        code = main(["serve", "punto", "--save-dir", str(tmp_path)] + argv)
    except SystemExit as exit:          # argparse's own errors
        code = exit.code
    assert code == 2 and message in capsys.readouterr().err


@pytest.mark.slow
def test_twenty_tables_of_bots_play_to_the_end_at_once_without_an_error(tmp_path):
    """The bounded load test (tests/serve_load.py): 20 tables on one server, each watched by a
    long-polling client; one round won takes a Punto match here, to keep the suite fast."""
    report = load_run(20, "punto", "random,greedy", params={"rounds_to_win": "1"}, folder=tmp_path)
    assert report["errors"] == [] and report["finished"] == 20
    assert report["requests"] >= 20 and report["moves"] >= 20 * 9       # a round has at least 9 cards


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.slow
def test_the_serve_command_prints_links_warns_on_a_lan_and_stops_on_ctrl_c(tmp_path):
    """The command itself, in a subprocess: with --lan it warns and answers any Host; its
    links open the page; Ctrl-C stops it at once (a waiting long poll does not hold it up)."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "boardwright", "serve", "punto", "--lan", "--port", str(port),
                               "--save-dir", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=dict(os.environ, PYTHONPATH=import_path()))
    try:
        lines = [server.stdout.readline() for _ in range(3)]
        link = lines[1].split()[-1]
        assert lines[1].startswith("  table link") and link.startswith(f"http://127.0.0.1:{port}/t/")
        token = link.rsplit("/", 1)[1]
        for _ in range(100):
            try:
                status, view = request(f"http://127.0.0.1:{port}/api/{token}/view", headers={"Host": "192.0.2.7"})
                break
            except OSError:
                time.sleep(0.1)
        assert status == 200 and view["title"] == "Punto"
        assert request(link)[0] == 200
        waiting = subprocess.Popen([sys.executable, "-c", "import urllib.request, sys; "
                                    f"urllib.request.urlopen(sys.argv[1] + '?after={view['version']}')",
                                    f"http://127.0.0.1:{port}/api/{token}/view"])
        time.sleep(0.5)
        started = time.monotonic()
        server.send_signal(signal.SIGINT)
        server.wait(15)
        waiting.wait(15)
        assert time.monotonic() - started < 5
        err = server.stderr.read()
        assert "WARNING: the table listens on 0.0.0.0" in err and "Traceback" not in err
    finally:
        server.kill()
