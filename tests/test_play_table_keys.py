"""Options keyed on the table (cli/table_keys.py): at 80 x 30, when the whole option list
does not fit beside the table, each option that names a grid cell gets a letter printed in
that cell, and typing the letter chooses it. Point City's market (16 cards) and its take (17
options) then fit one screen, decision after decision. The cell a letter stands in is read
off the screen (its row label and the column header above it) and must be the cell the
chosen move names."""
from __future__ import annotations

import itertools
import re

import pytest

from boardwright.cli.option_pages import group_name, groups_of
from boardwright.cli.render import render_grid, render_picture
from boardwright.cli.table_keys import key_sequence, table_keys

from conftest import cached_game
from test_play_screen_fit import HEIGHT, WIDTH, Table, table_header, terminal_80_by_30  # noqa: F401 (fixture)

KEY_LINE = re.compile(r"or type the letter by a cell of the (.+) \((\w+) (?:to|or) (\w+)\)")


class KeyedTable(Table):
    """A session whose player types the first key on the table when there are keys (else 1),
    and that records, at each prompt, the decision and the screen."""

    def __init__(self, game, seed, decisions):
        super().__init__(game, ["human", "random"], seed, [])
        self.left, self.seen = decisions, []

    def ask(self, prompt: str = ""):
        if prompt.startswith("(press Enter"):
            return ""
        self.prompts.append(len(self.lines))
        if self.left == 0:
            raise EOFError
        self.left -= 1
        screen = self.screen(len(self.prompts) - 1)
        self.seen.append((self.session.game.decision(self.session.st), screen))
        drawn = screen[max(i for i, line in enumerate(screen) if line.startswith(table_header(self.session.game))):]
        keyed = next((KEY_LINE.search(line) for line in drawn if KEY_LINE.search(line)), None)
        return keyed.group(2) if keyed else "1"


def cell_of_key(screen: list, grid: str, key: str) -> tuple:
    """Where `key)` stands in the text grid under `grid:` on the screen: (column, row) as the
    header and the row label print them."""
    start = screen.index(f"{grid}:")
    header = screen[start + 1]
    numbers = [(m.start(), int(m.group())) for m in re.finditer(r"-?\d+", header)]
    for line in screen[start + 2:]:
        row = re.match(r"\s+(-?\d+) ", line)
        if not row:
            break
        at = line.find(f"{key})")
        if at >= 0:
            column = min(numbers, key=lambda n: abs(n[0] - at) if n[0] >= at - 2 else 10 ** 6)
            return column[1], int(row.group(1))
    raise AssertionError(f"{key}) is not in the {grid} on the screen")


def test_a_letter_in_a_market_cell_takes_that_card():
    game = cached_game("point-city")
    table = Table(game, ["human", "random"], 3, ["1", "g", "quit"]).run()
    screen = table.screen(1)
    assert any(KEY_LINE.search(line) for line in screen), "the take's options are keyed on the market"
    x, y = cell_of_key(screen, "market", "g")
    move = table.session.moves[-1]
    assert move["prompt"].startswith("Take two cards") and move["id"] == f"{x},{y}"
    printed = next(line for line in screen if re.match(rf"\s+{y} ", line) and "g)" in line)
    card = re.match(r"g\) (\S+ \S+)", printed[printed.index("g)"):]).group(1)
    assert card in move["label"], "the card drawn by the letter is the one taken"


def test_fifteen_point_city_decisions_each_fit_one_screen_with_the_whole_market():
    game = cached_game("point-city")
    table = KeyedTable(game, 3, 15)
    table.session.run()
    assert len(table.seen) == 15
    keyed_screens = legends = 0
    for n, (decision, screen) in enumerate(table.seen):
        text = "\n".join(screen)
        assert len(screen) <= HEIGHT - 1 and all(len(line) <= WIDTH for line in screen)
        starts = [i for i, line in enumerate(screen) if line.startswith(table_header(game))]
        assert starts, f"decision {n}: the table's first line is off the screen"
        market = screen.index("market:", starts[-1])
        assert [int(line.split()[0]) for line in screen[market + 2:market + 6]] == [0, 1, 2, 3], \
            f"decision {n}: the whole market, row by row"
        listed = {int(m) for m in re.findall(r"(?:^|\s)(\d+)\. ", text[text.index(", your move."):], re.M)}
        keys = set(re.findall(r"\b([a-z]{1,2})\) ", "\n".join(screen[market:market + 6])))
        keyed_screens += bool(keys)
        for line in screen[market + 6:]:        # the legend: a keyed building's cost, from cards.yaml
            legend = re.match(r"  ([a-z]{1,2})\) ([^:]+): (.*)", line)
            if not legend:
                break
            card = next(c for c in game.components if c.get("name") == legend.group(2))
            assert legend.group(1) in keys and all(f"{card['cost'].count(r)} {r}" in legend.group(3)
                                                   for r in card["cost"]), line
            legends += 1
        assert len(listed) + len(keys) == len(decision.options), \
            f"decision {n}: every option is listed or keyed on the market"
    assert keyed_screens >= 5 and legends >= 4


def test_the_whole_list_stays_when_it_fits_punto_keeps_its_numbered_cells():
    game = cached_game("punto")
    table = Table(game, ["human", "random"], 4, ["1"] * 6).run()
    assert not any(KEY_LINE.search(line) for line in table.lines)


def test_keys_avoid_quit_and_option_names_and_are_drawn_in_the_cell_below():
    game = cached_game("point-city")
    st = game.new_state(2, 3)
    game.apply_index(st, 0)                     # no flip: the take, 16 market cells and the deck
    keys = table_keys(game, st, 0)
    assert len(keys.options) == 16 and "q" not in keys.options and keys.grids == ["market"]
    assert keys.cells["market"]["0,0"] == "a" and keys.cells["market"]["3,3"] == "p", "row by row"
    assert keys.cells["market"]["1,0"] == "b" and keys.cells["market"]["0,1"] == "e", "across a row first"
    sequence = list(itertools.islice(key_sequence({"b", "ab"}), 30))
    assert sequence[:3] == ["a", "c", "d"] and sequence[15:17] == ["r", "s"] and sequence[24:27] == ["aa", "ac", "ad"]
    picture = render_picture({"0,0": ["ab"], "1,0": ["cd"]}, (6, 1), None, keys={"1,0": "k"})
    assert picture[1] == "      +------+k)----+", "a key stands in the border above its cell"
    grid = render_grid({"0,0": ["red 5"]}, keys={"1,0": "b"})
    assert grid[1].split()[1:] == ["red", "5", "b)"], "an empty cell shows its key alone"


@pytest.mark.parametrize("label,group", [("(2, 1) resource card: 1 economy", "row 1"),
                                         ("(-3, 12) on red 4", "row 12"), ("I5 on (3, 4) turned", "I5")])
def test_a_label_that_starts_with_a_cell_is_grouped_by_its_row(label, group):
    assert group_name(label) == group
    assert list(groups_of(["(0, 1) a", "(2, 1) b", "(0, 0) c"], hidden={2})) == ["row 1"]


def test_options_named_by_cells_are_grouped_by_row_when_they_are_not_keyed():
    from boardwright.cli.option_pages import lay_out
    labels = [f"({x}, {y}) a card with a long name to fill the line" for y in range(4) for x in range(4)]
    shown = lay_out(labels, 6, 80)
    assert shown.grouped and shown.lines[0].startswith("  16 options in 4 groups (by row)")
    assert shown.lines[1].split() == ["row", "0", "(4)", "row", "1", "(4)", "row", "2", "(4)", "row", "3", "(4)"]
    assert [line.split(".")[0].strip() for line in lay_out(labels, 6, 80, "row 2").lines] == ["9", "10", "11", "12"]
