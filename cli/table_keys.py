"""Options keyed on the table: a short key (`a`, `b`, ...) printed in the grid cell an option
names, typed to choose it, as the web table lets a player click the cell.

The play screen (cli/play.py) uses the keys when the whole option list does not fit beside
the table: the options that name a cell (a place to put a card, a card of a market to take)
then leave the list, which shrinks to the rest ("the top two cards of the deck"), and the
table says where each of them is. Which cell an option names is the web table's rule
(cli/web/looks.py `option_targets`): a cell option names that cell in the seat's own grids
(else in the grids nobody owns), a component option the cell where the component lies. An
option that names no cell, or cells in several grids, stays in the list.

Keys are lower-case letters, then pairs of letters when there are more than 25 options; `q`
(quit) and any key that is an option's id, label or group name are left out, so a key never means two
things. Option numbers, ids and labels still choose as before.
"""
from __future__ import annotations

import itertools
import string
from dataclasses import dataclass, field

from .option_pages import groups_of
from .render import fit_lines
from .web.looks import option_targets

_LETTERS = [c for c in string.ascii_lowercase if c != "q"]      # q quits
MIN_KEYED = 2           # keying one option on the table would save no line


@dataclass
class TableKeys:
    """The keys of one decision: `cells` ({grid zone key: {"x,y": key}}) to draw, `options`
    ({key: option index}) to read what is typed, and the titles of the grids that hold them."""
    cells: dict = field(default_factory=dict)
    options: dict = field(default_factory=dict)
    grids: list = field(default_factory=list)

    def keyed(self) -> set:
        return set(self.options.values())

    def line(self, game) -> str:
        """The line under the option list that says how to choose a keyed option."""
        keys = list(self.options)
        shown = f"{keys[0]} to {keys[-1]}" if len(keys) > 2 else " or ".join(keys)
        where = " and ".join(_title(game, key) for key in self.grids)
        return f"  or type the letter by a cell of the {where} ({shown}) to choose what it names"

    def lines(self, game) -> str:
        """That line as the screen shows it: wrapped to its width (more lines when narrow)."""
        return fit_lines([self.line(game)])


def _title(game, key: str) -> str:
    name, _, owner = key.partition("/")
    return name + (f" of {game.player_name(int(owner))}" if owner else "")


def key_sequence(avoid: set):
    """The keys in the order given: letters (q left out), then pairs of letters; none in `avoid`."""
    pairs = ("".join(p) for p in itertools.product(_LETTERS, repeat=2))
    return (k for k in itertools.chain(_LETTERS, pairs) if k not in avoid)


def table_keys(game, st, seat: int) -> TableKeys:
    """The keys of the pending decision as `seat` (the player who makes it) sees the table."""
    decision = game.decision(st)
    named = []
    for entry in option_targets(game, st, seat):
        cells = [t for t in entry["targets"] if "cell" in t]
        if len(cells) == 1 and len(entry["targets"]) == 1 and "placement" not in entry:
            named.append((entry["index"], cells[0]["zone"], cells[0]["cell"]))
    if len(named) < MIN_KEYED or len({(zone, cell) for _, zone, cell in named}) < len(named):
        return TableKeys()              # too few, or two options on one cell: the list says it better
    labels = [o.label for o in decision.options]
    avoid = {o.id.lower() for o in decision.options} | {label.lower() for label in labels} | set(groups_of(labels))
    keys = TableKeys()
    for (index, zone, cell), key in zip(sorted(named, key=lambda n: (n[1], _row_major(n[2]))), key_sequence(avoid)):
        keys.cells.setdefault(zone, {})[cell] = key
        keys.options[key] = index
        if zone not in keys.grids:
            keys.grids.append(zone)
    return keys


def _row_major(cell: str) -> tuple:
    x, y = (int(n) for n in cell.split(","))
    return y, x
