"""The web table in a real browser: Debian's Chromium driven by Playwright (tests/web_support.py
says why), the server in this process on a free port of 127.0.0.1. A whole Punto game
clicked through against a bot, a Point City turn, two seats in two browser contexts that never
see each other's hands, a reload and a server restart in mid-game."""
from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import sync_playwright

from boardwright.cli.render import render_result
from boardwright.cli.web.table import open_table
from boardwright.interpreter.compile.load import load_game
from web_support import click_first_option, launch, new_table, secret_game, serving, wait_for_move

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


def open_page(browser, server, token):
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}/t/{token}")
    page.wait_for_selector("body[data-move]")
    return page, errors


def test_a_whole_punto_game_is_clicked_through_against_a_bot(tmp_path, browser):
    # Seed 5 with the first offered cell each time is a short match (43 clicks, tried on seeds 1-40).
    table = new_table(tmp_path, "punto", ["human", "random"], seed=5)
    with serving(table) as server:
        page, errors = open_page(browser, server, table.tokens["table"])
        # The rulebook: the first card goes to the middle, so one cell is offered, (0, 0).
        targets = page.locator(".zone[data-zone=table] .cell.target")
        assert targets.count() == 1 and targets.first.get_attribute("data-cell") == "0,0"
        # Undo takes back the human move and the bot's answer; redo plays both again.
        targets.first.click()
        page.wait_for_selector("body[data-mine=true][data-move='2']")
        answer = table.moves[1]["id"]
        page.locator("#undo").click()
        page.wait_for_selector("body[data-move='0']")
        assert page.locator("#redo").is_enabled() and page.locator("#undo").is_disabled()
        page.locator("#redo").click()
        page.wait_for_selector("body[data-mine=true][data-move='2']")
        assert [m["id"] for m in table.moves] == ["0,0", answer]
        clicks = 1
        while True:
            page.wait_for_selector("body[data-mine=true], body[data-finished=true]")
            if page.get_attribute("body", "data-finished") == "true":
                break
            move = int(page.get_attribute("body", "data-move"))
            page.locator(".cell.target").first.click()
            clicks += 1
            wait_for_move(page, move + 1)
            assert clicks < 400, "the game did not end"
        result = page.locator("#result").inner_text()
        assert table.st.finished and len(table.moves) == int(page.get_attribute("body", "data-move"))
        assert result == render_result(table.game, table.game.result(table.st))
        # Two round wins take the match (the rulebook), unless the rounds ran out.
        wins = [int(td) for td in page.locator("tr[data-var=wins] td").all_inner_texts()]
        assert max(wins) == 2 and re.search(rf"Winner: Player {wins.index(2) + 1}\b", result)
        humans = [m for m in table.moves if m["seat"] == "human"]
        assert len(humans) == clicks and errors == []


def test_a_point_city_turn_takes_two_cards_from_the_market_or_deck(tmp_path, browser):
    table = new_table(tmp_path, "point-city", ["human", "human"], seed=4)
    with serving(table) as server:
        page, errors = open_page(browser, server, table.tokens["table"])
        deck = page.locator(".zone[data-zone=deck] .count")
        before = int(re.match(r" *(\d+)", deck.inner_text()).group(1))
        mover = re.search(r"(Player \d), your move", page.locator("#status").inner_text()).group(1)
        while f"{mover}, your move" in page.locator("#status").inner_text():
            click_first_option(page)
        assert re.search(r"Player \d, your move", page.locator("#status").inner_text())
        # Point City's rulebook: a turn takes two cards, and the market is refilled from the deck.
        assert int(re.match(r" *(\d+)", deck.inner_text()).group(1)) == before - 2
        assert page.locator(".zone[data-zone=market] .cell .card").count() == 16 and errors == []


def test_two_seats_in_two_browsers_never_see_each_others_hands(tmp_path, browser):
    table = new_table(tmp_path, str(secret_game(tmp_path)), ["human", "human"])
    with serving(table) as server:
        pages, received = {}, {0: [], 1: []}
        for seat in (0, 1):
            pages[seat], _ = open_page(browser, server, table.tokens[str(seat)])
            pages[seat].on("response", lambda r, s=seat: received[s].append(r.text() if "/api/" in r.url else ""))
        html = {0: [], 1: []}
        # Each seat clicks the first card of its hand, twice; the other seat's page has nothing to click.
        for move in range(4):
            seat = move % 2
            other = pages[1 - seat]
            wait_for_move(other, move)
            assert other.locator("#board .target, #options button").count() == 0
            pages[seat].wait_for_selector(f".zone[data-zone='hand/{seat}'] .card.target")
            for s in (0, 1):
                html[s].append(pages[s].content())
            pages[seat].locator(f".zone[data-zone='hand/{seat}'] .card.target").first.click()
            wait_for_move(pages[seat], move + 1)
        for s in (0, 1):
            wait_for_move(pages[s], 4)
            html[s].append(pages[s].content())
    assert [m["label"] for m in table.moves] == ["Aardvark", "Egret", "Bison", "Falcon"]
    seat1_saw = "".join(html[1] + received[1])
    seat0_saw = "".join(html[0] + received[0])
    assert "Cobra" not in seat1_saw and "Dingo" not in seat1_saw       # seat 0's cards never played
    assert "Gecko" not in seat0_saw and "Heron" not in seat0_saw
    assert "Cobra" in html[0][-1] and "Gecko" in html[1][-1]           # each sees its own
    assert len(received[1]) > 4 and any("Falcon" in text for text in received[1])


def test_a_reload_and_a_server_restart_mid_game_keep_the_game(tmp_path, browser):
    game = str(secret_game(tmp_path))
    table = new_table(tmp_path, game, ["human", "human"])
    link = table.tokens["table"]
    with serving(table) as server:
        page, _ = open_page(browser, server, link)
        for move in range(2):
            page.locator("#board .card.target").first.click()
            wait_for_move(page, move + 1)
            # Hot-seat with hands only their owner sees: the table is covered while the device passes.
            assert page.locator("#cover").is_visible()
            assert page.locator("#cover-text").inner_text() == f"Pass the device to Player {2 - move}."
            page.locator("#uncover").click()
        page.reload()
        wait_for_move(page, 2)
        assert page.locator(".zone[data-zone=played] .card").all_inner_texts() == ["Aardvark", "Egret"]
        # A look at the past: after move 1 only Aardvark was played; the present comes back.
        page.locator("#history button[data-step='1']").click()
        page.wait_for_selector("#past-banner:not([hidden])")
        assert page.locator(".zone[data-zone=played] .card").all_inner_texts() == ["Aardvark"]
        assert page.locator("#board .target").count() == 0             # a past position is view-only
        page.locator("#back-to-now").click()
        assert page.locator(".zone[data-zone=played] .card").count() == 2
        port = int(server.url.rsplit(":", 1)[1])
    # The page stays open while the server restarts on the same port: it reconnects by itself.
    resumed, was_saved = open_table(game, None, None, None, 1, tmp_path / "saves", load_game)
    assert was_saved
    with serving(resumed, port=port):
        page.wait_for_selector("#board .card.target", timeout=30000)
        wait_for_move(page, 2)
        page.locator("#board .card.target").first.click()
        wait_for_move(page, 3)
    assert [m["label"] for m in resumed.moves] == ["Aardvark", "Egret", "Bison"]
    assert json.loads((tmp_path / "saves" / "table.json").read_text())["moves"][-1]["label"] == "Bison"
