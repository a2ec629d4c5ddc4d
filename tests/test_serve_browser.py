"""The web table in a real browser: Debian's Chromium driven by Playwright (tests/web_support.py
says why), the server in this process on a free port of 127.0.0.1. A whole Punto game
clicked through against a bot, a Point City turn, two seats in two browser contexts that never
see each other's hands, a reload and a server restart in mid-game, a count under a piece drawn
over it, and a small pile's details on its cards."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import sync_playwright

from boardwright.cli.saves import SAVE_FORMAT, read_saved
from boardwright.cli.render import render_result
from boardwright.cli.web.table import open_table
from boardwright.interpreter.compile.load import load_game
from test_shapes import DATA as SHAPES_DATA
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
        clicks, shown = 1, []
        while True:
            # A round's end is put on the board after the view that brought it (the page fetches
            # the table as it was shown): wait until that look at the past has been drawn.
            page.wait_for_selector("body[data-mine=true]:not([data-travelling]), body[data-finished=true]")
            if page.get_attribute("body", "data-finished") == "true":
                break
            move = int(page.get_attribute("body", "data-move"))
            if page.locator("#past-banner").is_visible():      # a round's end, kept on the board
                shown.append(page.locator("#past-text").inner_text())
                page.locator("#back-to-now").click()
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
        # Each round ended before the last human move was shown on the board, as the rules
        # showed it, until the player went back to now.
        last_click = max(i for i, m in enumerate(table.moves) if m["seat"] == "human")
        before = [title for title, step, _ in table.shows if step <= last_click]
        assert before and [re.sub(r"^As the table was shown: (.*) \(after move \d+\)\. View only\.$", r"\1", text)
                           for text in shown] == before


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
    saved = read_saved(str(tmp_path / "saves" / "table.json"), SAVE_FORMAT, load_game)[1]
    assert saved["moves"][-1]["label"] == "Bison"


# ------------------------------------------------------------------ placement games
POLYOMINO = "docs/examples/polyomino/polyomino.game"


def perimeter_edges(cells: set) -> int:
    """How many cell sides of a piece have no cell of the piece beyond them: the edges of one
    outline around it (a line per cell would be 4 a cell)."""
    return sum((x + dx, y + dy) not in cells for x, y in cells for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))


def cells_of(text: str) -> set:
    return {tuple(int(n) for n in cell.split(",")) for cell in text.split()}


def board_cells(page, marked: str) -> set:
    """The board's cells with a class (`fit`: the picked piece may cover it; `preview`: shown)."""
    found = page.locator(f".zone[data-zone=board] .cell.{marked}")
    return cells_of(" ".join(found.nth(i).get_attribute("data-cell") for i in range(found.count())))


def filled(d: str, point: tuple) -> bool:
    """Whether a point lies inside one of the rectangles `M l,t H r V b H l Z` of a piece's body."""
    for l, t, r, b, _ in re.findall(r"M([\d.]+),([\d.]+)H([\d.]+)V([\d.]+)H([\d.]+)Z", d):
        if float(l) < point[0] < float(r) and float(t) < point[1] < float(b):
            return True
    return False


def assert_no_line_between_its_cells(page, group, cells: set) -> None:
    """The piece's body covers the gap between two of its cells side by side (no line shows
    between them), and not the gap beside a cell that is not its own."""
    origin = group.locator("xpath=..").bounding_box()
    body = group.locator("path.fill").get_attribute("d")
    box = {cell: page.locator(f".zone[data-zone=board] .cell[data-cell='{cell[0]},{cell[1]}']").bounding_box()
           for cell in cells}
    for (x, y), b in box.items():
        right = (b["x"] + b["width"] + 1 - origin["x"], b["y"] + b["height"] / 2 - origin["y"])
        below = (b["x"] + b["width"] / 2 - origin["x"], b["y"] + b["height"] + 1 - origin["y"])
        assert filled(body, right) == ((x + 1, y) in cells), (x, y, "right")
        assert filled(body, below) == ((x, y + 1) in cells), (x, y, "below")


def assert_pieces_drawn_as_units(page, table) -> None:
    """One outlined group per piece on the board, with exactly the cells the engine says it
    covers, an outline around them only, and no card drawn in a cell a piece covers."""
    board = table.st.zones["board"]
    expected = {}
    for cell, stack in board.items():
        expected.setdefault(stack[-1], set()).add(cell)
    groups = page.locator(".zone[data-zone=board] svg.pieces g.piece")
    assert groups.count() == len(expected)
    drawn = sorted(sorted(cells_of(groups.nth(i).get_attribute("data-cells"))) for i in range(groups.count()))
    assert drawn == sorted(sorted(cells) for cells in expected.values())
    for i in range(groups.count()):
        cells = cells_of(groups.nth(i).get_attribute("data-cells"))
        outline = groups.nth(i).locator("path.outline")
        assert outline.count() == 1
        assert outline.get_attribute("d").count("M") == perimeter_edges(cells)
        assert_no_line_between_its_cells(page, groups.nth(i), cells)
        # The piece's body spans the box of its cells on the page; its outline, that box and
        # the line's width (Chromium counts the stroke in an element's box).
        boxes = [page.locator(f".zone[data-zone=board] .cell[data-cell='{x},{y}']").bounding_box() for x, y in cells]
        cells_box = [min(b["x"] for b in boxes), min(b["y"] for b in boxes),
                     max(b["x"] + b["width"] for b in boxes), max(b["y"] + b["height"] for b in boxes)]
        for part, slack in (("path.fill", 1), ("path.outline", 6)):
            box = groups.nth(i).locator(part).bounding_box()
            edges = [box["x"], box["y"], box["x"] + box["width"], box["y"] + box["height"]]
            assert all(abs(a - b) <= slack for a, b in zip(edges, cells_box)), (part, edges, cells_box)
    assert page.locator(".zone[data-zone=board] .cell.covered").count() == len(board)
    assert page.locator(".zone[data-zone=board] .cell.covered .card").count() == 0


def test_a_polyomino_game_is_played_by_picking_pieces_turning_and_pointing(tmp_path, browser):
    table = new_table(tmp_path, POLYOMINO, ["human", "random"], seed=3)
    game = table.game
    with serving(table) as server:
        page, errors = open_page(browser, server, table.tokens["table"])
        # (the piece's button, or its card in the reserve; turns to take with R; which cell the
        # piece may cover to point at)
        picks = [("#placer .piece-button", 9, 0, 0), ("#placer .piece-button", 4, 1, 2),
                 ("#placer .piece-button", 15, 2, -1), (".zone[data-zone='reserve/0'] .card", 1, 0, 1)]
        for number, (where, button, turns, at) in enumerate(picks):
            page.wait_for_selector("body[data-mine=true]")
            move = int(page.get_attribute("body", "data-move"))
            piece_button = page.locator(where).nth(button)
            piece = int(piece_button.get_attribute("data-piece"))
            if where.startswith(".zone"):       # the card in the reserve is that piece
                assert table.st.zones["reserve/0"][button] == piece
            options = [o.value for o in game.decision(table.st).options if o.value.piece == piece]
            piece_button.click()
            for _ in range(turns):
                page.keyboard.press("r")
            turn = sorted({p.turn for p in options})[turns % len({p.turn for p in options})]
            # The cells offered are those the piece covers in that orientation, and no others.
            fits = page.locator(".zone[data-zone=board] .cell.fit")
            assert board_cells(page, "fit") == {cell for p in options if p.turn == turn for cell in p.cells}
            pointed = fits.nth(at if at >= 0 else fits.count() + at)
            pointed.hover()
            clicked = tuple(int(n) for n in pointed.get_attribute("data-cell").split(","))
            preview = board_cells(page, "preview")
            pointed.click()
            wait_for_move(page, move + 1)
            # The piece lies on exactly the cells shown, in the orientation chosen, over the cell clicked.
            laid = table.states[move + 1].loc[piece]
            assert laid[0] == "board" and set(laid[3]) == preview and clicked in preview
            assert laid[2] == turn and len(preview) == len(game.orientations[piece][turn])
            assert number > 0 or len(options) > 1           # the first pick had a choice to make
        page.wait_for_selector("body[data-mine=true]")
        assert [m["seat"] for m in table.moves] == ["human", "random"] * 4      # the bot answered each
        assert_pieces_drawn_as_units(page, table)
        assert errors == []


def test_a_cell_clicked_with_no_piece_picked_asks_among_the_placements_over_it(tmp_path, browser):
    table = new_table(tmp_path, POLYOMINO, ["human", "random"], seed=2)
    with serving(table) as server:
        page, errors = open_page(browser, server, table.tokens["table"])
        where = (4, 5)                  # beside the first piece's start (4, 4): many placements cover it
        page.locator(".zone[data-zone=board] .cell.target[data-cell='4,5']").click()
        over = [o for o in table.game.decision(table.st).options if where in o.value.cells]
        offered = page.locator("#chooser-options button")
        assert sorted(int(offered.nth(i).get_attribute("data-index")) for i in range(offered.count())) \
            == sorted(table.game.decision(table.st).options.index(o) for o in over)
        # Pointing at one shows its cells; taking it lays the piece there.
        last = offered.nth(offered.count() - 1)
        last.hover()
        preview = board_cells(page, "preview")
        chosen = over[-1].value
        assert preview == set(chosen.cells)
        last.click()
        wait_for_move(page, 1)
        assert set(table.states[1].loc[chosen.piece][3]) == set(chosen.cells)
        # The option list is grouped by piece, each group with its piece's placements.
        page.wait_for_selector("body[data-mine=true]")
        groups = page.locator("#options details.option-group")
        counts = {}
        for o in table.game.decision(table.st).options:
            counts[o.value.piece] = counts.get(o.value.piece, 0) + 1
        assert {int(groups.nth(i).get_attribute("data-piece")): groups.nth(i).locator("button.option").count()
                for i in range(groups.count())} == counts
        assert errors == []


STACKED_SHAPES = """\
game "Stacked shapes"
players 2
data "pieces.yaml"
zone board: grid of Piece stacked size 5 x 4
zone bag: pile of Piece public
setup {
  move components(Piece) to bag
  for c in components(Piece) if c.name == "bar" { move c to board at (1, 1) }
  for c in components(Piece) if c.name == "tee" { move c to board at (0, 1) }
}
play { choose n from [1, 2] by 0 prompt "Go on" }
"""


def test_the_count_under_a_piece_on_a_stacked_grid_is_drawn_over_the_piece(tmp_path, browser):
    """The tee lies over two cells of the bar: each shows "+1", drawn in the pieces' layer
    after every piece (so painted above them), within its cell, and no count is left under."""
    (tmp_path / "pieces.yaml").write_text(SHAPES_DATA)
    (tmp_path / "stacked.game").write_text(STACKED_SHAPES)
    table = new_table(tmp_path, str(tmp_path / "stacked.game"), ["human", "human"])
    board = table.st.zones["board"]
    under = {f"{x},{y}": len(stack) - 1 for (x, y), stack in board.items() if len(stack) > 1}
    assert under == {"1,1": 1, "2,1": 1}        # the bar's two cells, both under the tee
    with serving(table) as server:
        page, errors = open_page(browser, server, table.tokens["table"])
        svg = page.locator(".zone[data-zone=board] svg.pieces")
        page.wait_for_selector(".zone[data-zone=board] svg.pieces g.under-counts", state="attached")
        layers = [svg.locator(":scope > *").nth(i).get_attribute("class") for i in range(svg.locator(":scope > *").count())]
        tops = {stack[-1] for stack in board.values()}      # the tee only: the bar is under it everywhere
        assert len(tops) == 1 and layers == ["piece"] * len(tops) + ["under-counts"]    # counts painted last
        counts = svg.locator("g.under-counts text.under")
        drawn = {counts.nth(i).get_attribute("data-cell"): counts.nth(i).text_content().split("under it")[0]
                 for i in range(counts.count())}
        assert drawn == {cell: f"+{n}" for cell, n in under.items()}
        for cell in under:
            label = svg.locator(f"text.under[data-cell='{cell}']")
            assert label.is_visible()
            box = label.bounding_box()
            spot = page.locator(f".zone[data-zone=board] .cell[data-cell='{cell}']").bounding_box()
            # in its cell's lower right quarter (the box counts the white halo around the text)
            middle = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            assert spot["x"] + spot["width"] / 2 < middle[0] < spot["x"] + spot["width"], (cell, box, spot)
            assert spot["y"] + spot["height"] / 2 < middle[1] < spot["y"] + spot["height"], (cell, box, spot)
        assert page.locator(".zone[data-zone=board] .cell.covered span.under").count() == 0
        assert errors == []


def test_a_small_pile_shows_each_card_s_details_under_its_label(tmp_path, browser):
    """Happy City's homes (3 cards): each card shows its data `details` (its cost) on the
    page, not only on hover; the deck, hidden, shows none."""
    table = new_table(tmp_path, "happy-city", ["human", "random"], seed=1)
    with serving(table) as server:
        page, errors = open_page(browser, server, table.tokens["table"])
        homes = table.st.zones["homes"]
        assert 0 < len(homes) <= 6
        shown = page.locator(".zone[data-zone=homes] .card .details").all_inner_texts()
        assert shown == [table.game.details[c] for c in homes] and all("cost" in text for text in shown)
        assert page.locator(".zone[data-zone=deck_light] .details").count() == 0
        assert errors == []
