"""Helpers for the web table's tests (test_serve.py, test_serve_browser.py) and its screenshot
and load scripts: a table served in this process on a free port of 127.0.0.1, plain HTTP
requests to it, and Debian's Chromium (/usr/bin/chromium) driven by Playwright.

Playwright, not Selenium: its browser contexts give two seats two separate browsers in one
process, it waits for elements by itself (no sleeps), and it reports every response a page
receives, which the hidden-information test reads. It drives the system's Chromium through
`executable_path`; Playwright's own browser download is never used."""
from __future__ import annotations

import contextlib
import json
import urllib.error
import urllib.request
from pathlib import Path

from boardwright.cli.web.server import LOCAL_HOSTS, BackgroundServer, build_app
from boardwright.cli.web.table import open_table
from boardwright.interpreter.compile.load import load_game

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]

SECRET_DATA = """\
provenance: test data
components:
  Card:
    label: "{name}"
    attributes: {name: str, seat: int}
    items:
      - {name: Aardvark, seat: 0}
      - {name: Bison, seat: 0}
      - {name: Cobra, seat: 0}
      - {name: Dingo, seat: 0}
      - {name: Egret, seat: 1}
      - {name: Falcon, seat: 1}
      - {name: Gecko, seat: 1}
      - {name: Heron, seat: 1}
"""

# Each seat holds four cards only it may see and plays two of them, face up, one a turn.
SECRET_RULES = """\
game "Secret hands"
players 2
data "cards.yaml"
zone hand: pile of Card per player owner
zone played: pile of Card public
var plays: int per player = 0 "Cards played"
setup { for c in components(Card) { move c to hand[c.seat] } }
play {
  for round in range(2) {
    for p in players {
      turn p {
        choose c from contents(hand[p]) prompt "Play a card"
        move c to played
        plays[p] += 1
      }
    }
  }
}
score p { "Cards played": plays[p] }
"""


def secret_game(folder: Path) -> Path:
    (folder / "cards.yaml").write_text(SECRET_DATA)
    path = folder / "secret.game"
    path.write_text(SECRET_RULES)
    return path


def new_table(folder: Path, game: str, seats: list, seed: int = 1, variant=None, params=None):
    """A new table of `game` saved in `folder`/saves."""
    table, _ = open_table(game, variant, len(seats), seats, seed, folder / "saves", load_game, params)
    return table


@contextlib.contextmanager
def serving(*tables, port: int = 0):
    """The tables served on 127.0.0.1 (by default on a free port); yields the server (its `url`)."""
    with BackgroundServer(build_app(list(tables), LOCAL_HOSTS), port=port) as server:
        yield server


def request(url: str, body=None, raw: bytes | None = None, method: str | None = None, headers=None):
    """(status, parsed JSON or text) of one request; JSON bodies are sent as JSON."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    sent = urllib.request.Request(url, data=data, method=method,
                                  headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(sent, timeout=60) as answer:
            status, text = answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read().decode()
    try:
        return status, json.loads(text)
    except ValueError:
        return status, text


def launch(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


def wait_for_move(page, move: int) -> None:
    """Until the page shows a table at move `move` or later (the page's body says its move; the
    page's Content-Security-Policy forbids Playwright's evaluated strings, so it is read)."""
    page.wait_for_selector("body[data-move]", timeout=30000)
    for _ in range(600):
        if int(page.get_attribute("body", "data-move")) >= move:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"the page never reached move {move}")


def click_first_option(page) -> None:
    """Take the first option: the first outlined cell or card (the first it names, when it
    names several), else the first of the list; then wait for the move to be made."""
    move = int(page.get_attribute("body", "data-move"))
    targets = page.locator("#board .target")
    (targets.first if targets.count() else page.locator("#options button.option").first).click()
    if page.locator("#chooser").is_visible():
        page.locator("#chooser-options button").first.click()
    wait_for_move(page, move + 1)
