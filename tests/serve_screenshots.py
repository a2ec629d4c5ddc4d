"""The screenshots of the web table in docs/ (docs/cli.md shows them): each bundled game and
the polyomino test bed served in this process, opened in Debian's Chromium by Playwright, a
few options clicked (at a decision among placements, a piece then picked, turned and
pointed at the board), and the page saved as a small PNG.

    python tests/serve_screenshots.py [FOLDER]      # default: docs/

Not a test: run it again when the page changes."""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from playwright.sync_api import sync_playwright  # noqa: E402

from web_support import click_first_option, launch, new_table, serving  # noqa: E402

# game, seats, seed, moves to click before the picture (name of the picture: serve-GAME.png)
SHOTS = [("punto", ["human", "random"], 5, 9), ("point-city", ["human", "random"], 1, 4),
         ("happy-city", ["human", "random"], 1, 4), ("urban-panic", ["human", "random"], 1, 3),
         ("docs/examples/polyomino/polyomino.game", ["human", "random"], 1, 5)]


def point_a_piece(page) -> None:
    """At a decision among placements: a piece picked, turned once, and pointed at the board."""
    if not page.locator("#placer .piece-button").count():
        return
    page.locator("#placer .piece-button").nth(9).click()
    page.keyboard.press("r")
    fits = page.locator(".cell.fit")
    fits.nth(fits.count() // 2).hover()


def take(folder: Path) -> list[Path]:
    written = []
    with sync_playwright() as playwright:
        browser = launch(playwright)
        for game, seats, seed, clicks in SHOTS:
            table = new_table(Path(tempfile.mkdtemp()), game, seats, seed=seed)
            with serving(table) as server:
                page = browser.new_page(viewport={"width": 1200, "height": 760})
                page.goto(f"{server.url}/t/{table.tokens['table']}")
                for _ in range(clicks):
                    page.wait_for_selector("body[data-mine=true]")
                    click_first_option(page)
                page.wait_for_selector("body[data-mine=true]")
                point_a_piece(page)
                path = folder / f"serve-{Path(game).stem}.png"
                page.screenshot(path=str(path))
                page.close()
                written.append(path)
        browser.close()
    return written


if __name__ == "__main__":
    for path in take(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parents[1] / "docs"):
        print(path, path.stat().st_size, "bytes")
