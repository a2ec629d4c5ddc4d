"""The web table's JSON, exactly (cli/web/table.py, cli/web/server.py): each view and past
view compared as a whole dict with `==`, and every refusal's status and sentence, through the
table and through the server's routes (Starlette's test client, in this process). The
expected dicts are written by hand from the tiny game below (docs/cli.md's `serve` part names
the keys); a renamed key, a changed word or status, a lost field fails here (issue 26, round
10: string mutants survive `in` checks and key look-ups that never ask for a whole reply).

The game: two players add 1 or 2 to their own totals in turn; the first to 5 ends it.
`greedy` adds 2 (its score grows most)."""
from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient

from boardwright.cli.web.server import build_app
from boardwright.cli.web.table import Refused

from test_exact_play_screen import RACE, SHOWN
from test_exact_save_messages import position
from web_support import new_table

FAILING = RACE.replace("total[p] += n\n", "total[p] += n\n          if n == 1 { fail \"one is not allowed\" }\n")


@pytest.fixture
def race(tmp_path):
    (tmp_path / "race.game").write_text(RACE)
    return str(tmp_path / "race.game")


def players(second: str = "greedy") -> list:
    return [{"seat": 0, "name": "Player 1", "plays": "human"}, {"seat": 1, "name": "Player 2", "plays": second}]


def seat_view(seat, turn: int, move: int, current: int, one: int, two: int, decide: int | None = 0) -> dict:
    """looks.seat_view of the race: its table, its scores, the decision of `decide` (or none)."""
    view = {"title": "Tiny race", "variant": None, "seat": seat, "finished": False, "turn": turn, "move": move,
            "players": players(), "current": current, "zones": [],
            "vars": [{"name": "total", "title": "Total", "per_player": [str(one), str(two)]}], "log": [],
            "brief": "Reach 5 first by adding 1 or 2.",
            "scores": {"titles": ["Points"], "players": [
                {"seat": 0, "name": "Player 1", "lines": [str(one)], "total": str(one)},
                {"seat": 1, "name": "Player 2", "lines": [str(two)], "total": str(two)}]}}
    if decide is not None:
        view["decision"] = {"player": decide, "prompt": "Add", "options": [
            {"index": 0, "id": "1", "label": "1", "targets": []}, {"index": 1, "id": "2", "label": "2", "targets": []}]}
    return view


def history(*labels) -> list:
    seats = ["human", "greedy"]
    return [{"step": k, "player": (k - 1) % 2, "name": f"Player {(k - 1) % 2 + 1}", "plays": seats[(k - 1) % 2],
             "label": label, "prompt": "Add"} for k, label in enumerate(labels, 1)]


def test_the_views_of_the_table_link_and_of_a_seats_link(tmp_path, race):
    table = new_table(tmp_path, race, ["human", "greedy"])
    link, seat = table.tokens["table"], table.tokens["0"]
    assert table.view(link) == {
        **seat_view(0, 1, 0, 0, 0, 0), "version": 1, "epoch": table.epoch, "link": "table", "you": None,
        "humans": [0], "history": [], "shows": [], "can_undo": False, "can_redo": False, "can_save": True,
        "thinking": False, "private": False, "links": {"0": seat}}
    table.choose(seat, 0, 1)
    assert table.bot_to_move() and table.view(seat)["thinking"] is True
    assert table.bot_move() is True and table.bot_move() is False
    assert table.view(seat) == {
        **seat_view(0, 3, 2, 0, 2, 2), "version": 3, "epoch": table.epoch, "link": "seat", "you": 0,
        "humans": [0], "history": history("2", "2"), "shows": [], "can_undo": True, "can_redo": False,
        "can_save": True, "thinking": False, "private": False}
    # the past: after move 1, as the seat saw it (no decision to make again)
    assert table.past(seat, 1) == {**seat_view(0, 2, 1, 1, 2, 0, None), "step": 1, "shown": None}
    spectator = {k: v for k, v in seat_view(None, 1, 0, 0, 0, 0, None).items() if k != "brief"}     # no seat's brief
    assert table.past(link, 0) == {**spectator, "step": 0, "shown": None}
    table.undo(link, 2)
    view = table.view(link)
    assert (view["can_undo"], view["can_redo"], view["version"], view["move"]) == (False, True, 4, 0)


def test_the_result_on_the_page_is_not_fitted_to_the_servers_terminal(tmp_path, monkeypatch):
    # On a 40-column terminal the play screen wraps a line of the final scores longer than
    # that; the page's lines are the browser's to wrap, so the view keeps them whole.
    name = "Points earned by adding numbers to the total"
    (tmp_path / "race.game").write_text(RACE.replace('"Points"', f'"{name}"'))
    monkeypatch.setenv("COLUMNS", "40")
    table = new_table(tmp_path, str(tmp_path / "race.game"), ["human", "greedy"])
    seat = table.tokens["0"]
    for move in (0, 2, 4):
        table.choose(seat, move, 1 if move < 4 else 0)
        table.bot_move()
    assert table.view(seat)["result"] == (f"== Final scores\n  Player 1: 5  ({name} 5)\n"
                                          f"  Player 2: 4  ({name} 4)\nWinner: Player 1")


def test_the_view_of_a_finished_game_holds_its_result(tmp_path, race):
    table = new_table(tmp_path, race, ["human", "greedy"])
    seat = table.tokens["0"]
    for move in (0, 2, 4):          # Player 1 adds 2, 2, 1 (5); greedy adds 2, 2 (4)
        table.choose(seat, move, 1 if move < 4 else 0)
        table.bot_move()
    view = table.view(seat)
    assert view["result"] == "== Final scores\n  Player 1: 5  (Points 5)\n  Player 2: 4  (Points 4)\nWinner: Player 1"
    assert (view["finished"], view["thinking"], "decision" in view) == (True, False, False)


def refusal(call, *args) -> tuple[int, str]:
    with pytest.raises(Refused) as caught:
        call(*args)
    return caught.value.status, caught.value.message


def test_every_refusal_of_one_human_and_a_bot(tmp_path, race):
    table = new_table(tmp_path, race, ["human", "greedy"])
    link, seat = table.tokens["table"], table.tokens["0"]
    lost = (404, "no table at this link: ask for the link again")
    assert refusal(table.view, "nobody") == lost and refusal(table.who, None) == lost
    assert refusal(table.choose, seat, "0", 0) == (400, "'move' must be the move number the page shows (a whole number)")
    assert refusal(table.choose, seat, 1, 0) == (409, "the table has moved on (move 0, not 1): reload")
    assert refusal(table.choose, seat, 0, 2) == (400, "option 2 is not one of the 2 options")
    assert refusal(table.choose, seat, 0, -1) == (400, "option -1 is not one of the 2 options")
    assert refusal(table.choose, seat, 0, "3" * 50) == (400, f"'{'3' * 40}' is not one of the options")
    assert refusal(table.choose, seat, 0, "3" * 201) == (400, "'option' must be an option's number or id")
    assert refusal(table.choose, seat, 0, 1.0) == (400, "'option' must be an option's number or id")
    assert refusal(table.undo, seat, 0) == (409, "nothing to undo")
    assert refusal(table.redo_move, seat, 0) == (409, "nothing to redo")
    assert refusal(table.past, seat, 1) == (400, "'step' must be a move number from 0 to 0")
    assert refusal(table.past, seat, None, 0) == (400, "'show' must be from 0 to -1")
    table.choose(seat, 0, "2")
    assert refusal(table.choose, seat, 1, 0) == (409, "Player 2 (greedy) is to move, not you")
    assert refusal(table.hint, seat, 1) == (409, "Player 2 (greedy) is to move, not you")
    for move in (1, 2, 3, 4):       # greedy adds 2 each time; Player 1 adds 2, then 1 (5)
        table.bot_move() if move % 2 else table.choose(link, move, "2" if move == 2 else "1")
    assert refusal(table.choose, seat, 5, 0) == (409, "the game is over")


def test_the_refusals_of_two_humans_at_their_own_links(tmp_path, race):
    table = new_table(tmp_path, race, ["human", "human"])
    link, one, two = table.tokens["table"], table.tokens["0"], table.tokens["1"]
    assert refusal(table.choose, two, 0, 0) == (403, "it is Player 1's move, not Player 2's")
    table.choose(one, 0, 0)
    assert refusal(table.undo, two, 1) == (409, "Player 1 has moved since: only the last human move can be "
                                                "taken back, by whoever made it")
    table.undo(one, 1)
    assert refusal(table.redo_move, two, 0) == (403, "only the player who made that move can redo it")
    assert refusal(table.save_text, one) == (403, "a save holds every seat's hidden cards: only the table link "
                                                  "can save")
    assert refusal(table.load, two, "{}") == (403, "only the table link can load a game")
    assert refusal(table.load, link, "{") == (400, "the file is not a saved game (not JSON)")
    assert refusal(table.load, link, '{"game": "other"}') == (400, "the file is not a saved game of this game "
                                                                   "and variant")
    save = json.loads(table.save_text(link))
    save["moves"] = [{"player": 1, "seat": "human", "prompt": "Add", "id": "1", "label": "1"}]
    text = json.dumps(save, indent=1)
    assert refusal(table.load, link, text) == (
        400, f"the saved game is damaged: move 1 is by player 2, but player 1 is to move (the file:{position(text, '  {', 0, 2)})")


def test_past_positions_drawn_by_a_show(tmp_path):
    (tmp_path / "shown.game").write_text(SHOWN)
    table = new_table(tmp_path, str(tmp_path / "shown.game"), ["human", "greedy"])
    table.choose(table.tokens["0"], 0, 0)
    table.bot_move()
    shown = table.past(table.tokens["0"], None, 1)
    assert (shown["step"], shown["shown"], shown["vars"][0]["per_player"]) == (2, "Added", ["1", "2"])
    assert [s for s in table.view(table.tokens["table"])["shows"]] == [
        {"title": "Added", "step": 1, "index": 0}, {"title": "Added", "step": 2, "index": 1}]
    assert refusal(table.past, table.tokens["0"], None, 2) == (400, "'show' must be from 0 to 1")


@pytest.fixture
def served(tmp_path, race):
    table = new_table(tmp_path, race, ["human", "human"])       # no bot moves behind the replies' backs
    with TestClient(build_app([table])) as client:
        yield client, table


def test_every_error_reply_of_the_server(served):
    client, table = served
    seat = table.tokens["0"]
    api = f"/api/{seat}"

    def post(path, body=None, raw=None):
        answer = client.post(path, content=raw if raw is not None else json.dumps(body).encode())
        return answer.status_code, answer.json()
    assert post(f"{api}/fly", {"move": 0}) == (404, {"error": "no action 'fly'; actions: choose, undo, redo, hint"})
    assert post(f"{api}/undo", [0]) == (400, {"error": "the request body must be a JSON object"})
    assert post(f"{api}/undo", {}) == (400, {"error": "undo takes move"})
    assert post(f"{api}/choose", {"option": 0}) == (400, {"error": "choose takes move, option"})
    assert post(f"{api}/choose", {"move": 0, "b": 1, "a": 2}) == (400, {"error": "choose takes move, option; "
                                                                               "unknown: a, b"})
    assert post(f"{api}/undo", raw=b"{") == (400, {"error": "the request body is not JSON"})
    assert post(f"{api}/undo", raw=b" " * 4097) == (413, {"error": "the request is larger than 4,096 bytes"})
    assert post(f"{api}/load", raw=b"\xff") == (400, {"error": "the file is not a saved game (not UTF-8 text)"})
    assert post("/api/" + "x" * 20 + "/undo", {"move": 0}) == (404, {"error": "no table at this link: ask for the "
                                                                            "link again"})
    assert post(f"{api}/choose", {"move": 0, "option": 5}) == (400, {"error": "option 5 is not one of the 2 options"})
    for query, name in (("after=x", "'after' must be a version number"), ("step=-1", "'step' must be a whole number"),
                        ("show=1.5", "'show' must be a whole number")):
        answer = client.get(f"{api}/{'view' if 'after' in query else 'past'}?{query}")
        assert (answer.status_code, answer.json()) == (400, {"error": name})
    answer = client.get(f"/t/{'y' * 20}")
    assert (answer.status_code, answer.text) == (404, "No table at this link: ask the host for the link again.\n")
    assert answer.headers["cache-control"] == "no-store"
    answer = client.get("/nowhere")
    assert (answer.status_code, answer.json()) == (404, {"error": "not found"})
    answer = client.get(f"{api}/load")
    assert (answer.status_code, answer.json()) == (405, {"error": "method not allowed"})


def test_the_servers_ok_replies_and_the_save(served):
    client, table = served
    seat = table.tokens["0"]
    answer = client.post(f"/api/{seat}/choose", json={"move": 0, "option": "1"})
    assert (answer.status_code, answer.json()) == (200, {"ok": True, "version": 2})
    link = table.tokens["table"]
    answer = client.get(f"/api/{seat}/save")
    assert (answer.status_code, answer.json()) == (403, {"error": "a save holds every seat's hidden cards: only the "
                                                                  "table link can save"})
    answer = client.get(f"/api/{link}/save")
    assert answer.headers["content-disposition"] == 'attachment; filename="boardwright-save.json"'
    assert answer.headers["content-type"] == "application/json"
    assert json.loads(answer.text)["moves"][0]["id"] == "1"
    answer = client.post(f"/api/{link}/load", content=answer.text.encode())
    assert answer.status_code == 200 and answer.json() == {"ok": True, "version": table.version}


def test_a_rule_that_fails_on_a_move_is_a_422_with_the_rules_message(tmp_path):
    (tmp_path / "failing.game").write_text(FAILING)
    table = new_table(tmp_path, str(tmp_path / "failing.game"), ["human", "greedy"])
    with TestClient(build_app([table])) as client:
        answer = client.post(f"/api/{table.tokens['0']}/choose", json={"move": 0, "option": 0})
    assert answer.status_code == 422
    assert answer.json() == {"error": f"the rules failed: {_rule_error(tmp_path / 'failing.game')}"}


def _rule_error(path) -> str:
    """The rule error of adding 1, raised by the engine itself."""
    from boardwright.dsl.errors import BoardwrightError
    from boardwright.interpreter.compile.load import load_game
    game = load_game(str(path))
    st = game.new_state(2, 1)
    with pytest.raises(BoardwrightError) as caught:
        game.apply(st, "1")
    assert "one is not allowed" in str(caught.value)
    return str(caught.value)


def test_the_hint_reply_and_a_load_over_8_mb(served):
    client, table = served
    seat, link = table.tokens["0"], table.tokens["table"]
    answer = client.post(f"/api/{seat}/hint", json={"move": 0})
    assert answer.status_code == 200 and list(answer.json()) == ["hint"]
    lines = answer.json()["hint"].split("\n")
    # 2 options: 60 iterations each, at least 600; then the best (two lines), the head, a row per option
    assert lines[0] == "Thinking (600 search iterations)..." and lines[3] == "  option visits  value"
    assert lines[2] == "    what you can see; value 1.000 is a certain win:"
    assert len(lines) == 6 or lines[6:] == ["  (the search sees no real difference between these options)"]
    answer = client.post(f"/api/{link}/load", content=b" " * (8 * 1024 * 1024 + 1))
    assert (answer.status_code, answer.json()) == (413, {"error": "the request is larger than 8,388,608 bytes"})


def test_a_table_keeps_the_links_of_its_human_seats_only(tmp_path, race):
    """Taking up a game (resumed, or a save loaded with other seats) keeps the table's link and
    each link of a seat a human still plays, drops the link of a seat a bot now plays and any
    key that is no seat (a hand-edited links file), and makes a link for a human seat without
    one (seed 35's survivor `k.isdigit() or ...` kept a bot's seat link and stopped on a key
    that is not a number)."""
    from boardwright.cli.web.table import WebTable
    both = new_table(tmp_path, race, ["human", "human"])
    links = dict(both.tokens, note="x" * 20)
    assert sorted(both.tokens) == ["0", "1", "table"]
    table = WebTable(both.game, dict(both.setup, seats=["greedy", "human"]), tmp_path / "other", None, links)
    assert sorted(table.tokens) == ["1", "table"]
    assert (table.tokens["table"], table.tokens["1"]) == (both.tokens["table"], both.tokens["1"])
    again = WebTable(both.game, dict(both.setup, seats=["human", "greedy"]), tmp_path / "third", None,
                     {"table": both.tokens["table"]})
    assert sorted(again.tokens) == ["0", "table"] and again.tokens["0"] not in both.tokens.values()


def test_serve_resumes_the_game_saved_in_its_folder_and_refuses_another_games_folder(tmp_path, race):
    """open_table: a save folder holding a game of the same rule file and variant is resumed
    (its moves and links kept); one holding another game is refused, naming the game it holds
    and both ways out (seed 34's survivor read the save's game under another key in that
    message: the refusal stopped with an internal error)."""
    from boardwright.cli.web.table import open_table
    from boardwright.dsl.errors import UsageError
    from boardwright.interpreter.compile.load import load_game
    first = new_table(tmp_path, race, ["human", "greedy"])
    first.choose(first.tokens["0"], 0, 1)
    again, resumed = open_table(race, None, None, None, 1, tmp_path / "saves", load_game)
    assert resumed and len(first.moves) >= 1 and again.moves == first.moves
    assert again.tokens == first.tokens
    other = tmp_path / "other.game"
    other.write_text(open(race).read())
    with pytest.raises(UsageError) as refused:
        open_table(str(other), None, None, None, 1, tmp_path / "saves", load_game)
    assert str(refused.value) == (f"{tmp_path / 'saves'} holds a game of {race}: add --new to start a new game "
                                  "there, or give another --save-dir")
