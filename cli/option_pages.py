"""The options of a decision laid out to fit the lines the play screen leaves them.

The play screen (cli/play.py) keeps the table and the options on one screen of the terminal
(80 x 30 is the size it is tested at). The options get the lines the table leaves:

- in columns, numbered down each column, when they all fit;
- else grouped by the first word of their labels ("I5 on (3, 4) ..." is in group I5,
  "wheat at (1, 0), ..." in group wheat; a label that starts with a cell, "(2, 1) ...", by
  the row as the board prints it, "row 1"), when there are several groups and the groups fit:
  the screen lists the groups with how many options each holds, and typing a group's name
  lists its options;
- else (or inside a group that is still too long) in pages: `more` shows the next one.

Options are always chosen by their number in the whole list (or id, or label), whichever
group or page shows them, so a number never changes its meaning. An option that is a
component is listed with the component's data `details` where its label does not say them.
Options keyed on the table (cli/table_keys.py) can be left out of the list (`hidden`).
`fit_screen` chooses, for the play screen, how short the table is drawn and how the options
are laid out beside it.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from .render import COMPACT_LEVELS, render_table, screen_height, screen_width

MIN_OPTION_LINES = 6        # the options get at least this many lines, even under a tall table


@dataclass
class Shown:
    """What the options part of the screen shows: `lines`, and how to see the rest."""
    lines: list
    pages: int = 1              # pages of the list shown (1: it is all there)
    grouped: bool = False       # the lines list groups, not options


_CELL = re.compile(r"\((-?\d+), ?(-?\d+)\)")


def group_name(label: str) -> str:
    cell = _CELL.match(label)
    if cell:
        return f"row {cell.group(2)}"
    words = label.split()
    return words[0].rstrip(":,;.") if words else ""


def groups_of(labels: list, hidden=frozenset()) -> dict:
    """Option indexes by the first word of their labels (lower case), in the order first seen;
    the `hidden` indexes left out."""
    groups: dict = {}
    for index, label in enumerate(labels):
        if index not in hidden:
            groups.setdefault(group_name(label).lower(), []).append(index)
    return groups


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[:max(1, width - 1)] + "…"


def columns(cells: list, width: int, rows_at_most: int | None = None) -> list:
    """Cells in as many columns as fit `width`, filled down each column; a cell longer than
    the line is cut with '…'. With `rows_at_most`, None when they need more rows."""
    if not cells:
        return []
    cells = [_cut(c, width - 2) for c in cells]
    cell_width = max(len(c) for c in cells) + 2
    per_row = max(1, min(len(cells), (width - 2) // cell_width))
    rows = math.ceil(len(cells) / per_row)
    if rows_at_most is not None and rows > rows_at_most:
        return None
    per_row = math.ceil(len(cells) / rows)          # even columns: no last column of one
    out = []
    for r in range(rows):
        row = [cells[c * rows + r] for c in range(per_row) if c * rows + r < len(cells)]
        out.append("  " + "".join(f"{cell:<{cell_width}}" for cell in row).rstrip())
    return out


def numbered(labels: list, indexes) -> list:
    width = len(str(len(labels)))
    return [f"{i + 1:>{width}}. {labels[i]}" for i in indexes]


def lay_out(labels: list, budget: int, width: int, group: str | None = None, page: int = 0,
            hidden=frozenset()) -> Shown:
    """The options (their labels) in at most `budget` lines of `width` columns. `group`:
    only that group's options; `page`: which page of a list that needs pages; `hidden`: the
    indexes of options not to list (they keep their numbers)."""
    budget = max(MIN_OPTION_LINES, budget)
    everything = [i for i in range(len(labels)) if i not in hidden]
    if not everything:
        return Shown([])
    if group is None:
        lines = columns(numbered(labels, everything), width, budget)
        if lines is not None:
            return Shown(lines)
        groups = groups_of(labels, hidden)
        if len(groups) > 1:
            cells = [f"{group_name(labels[members[0]])} ({len(members)})" for members in groups.values()]
            lines = columns(cells, width, budget - 1)
            if lines is not None:
                basis = "by row" if all(_CELL.match(labels[m[0]]) for m in groups.values()) else "by the first word"
                return Shown([f"  {len(everything)} options in {len(groups)} groups ({basis}): type a "
                              "group to list its options"] + lines, grouped=True)
        chosen = list(everything)
    else:
        chosen = groups_of(labels, hidden).get(group, [])
    return _paged(labels, chosen, budget, width, page)


def _paged(labels: list, chosen: list, budget: int, width: int, page: int) -> Shown:
    lines = columns(numbered(labels, chosen), width, budget)
    if lines is not None:
        return Shown(lines)
    rows = budget - 1
    cells = numbered(labels, chosen)
    per_row = max(1, (width - 2) // (max(len(c) for c in cells) + 2))
    per_page = max(1, rows * per_row)
    pages = math.ceil(len(cells) / per_page)
    page %= pages
    lines = columns(cells[page * per_page:(page + 1) * per_page], width)
    return Shown(lines + [f"  (page {page + 1} of {pages}: type 'more' for the next page)"], pages=pages)


def described_option(game, st, option) -> str:
    """An option's label as the option list shows it: with its component's data `details`
    when the option is a component whose label does not say them already (the cost of a
    card to discard from a display, whose table line names it only)."""
    value = option.value
    if type(value) is not int or game.choices[st.pending.site].injective or not 0 <= value < game.component_count:
        return option.label
    details = game.details[value]
    return f"{option.label} — {details}" if details and details not in option.label else option.label


def fit_screen(game, seen: dict, labels: list, head: str, keys, view: tuple, whole_table: bool = False):
    """The play screen's table and options for the terminal's lines: (table text, Shown,
    whether the options naming cells are keyed on the table). The fullest table (render_table's
    `compact` as low as it can be; only 0 with `whole_table`) with the whole list, or the
    list less the options keyed on the table (`keys`, cli/table_keys.py); else with groups;
    else with pages. `view`: the group and page asked for."""
    height, width = screen_height() or 10 ** 6, screen_width()       # no height known: no limit
    layouts = []                    # (overflows, paged, grouped, keyed, table, options shown)
    below_keys = keys.lines(game).count("\n") + 1 if keys.options else 0     # the keys' line, wrapped
    for level in ([0] if whole_table else range(COMPACT_LEVELS + 1)):
        # Keyed first at the last level, which would list a grid of pictures cell by cell.
        for keyed in ((False, True) if level < COMPACT_LEVELS else (True, False)) if keys.options else (False,):
            cells, hidden, below = (keys.cells, keys.keyed(), below_keys) if keyed else ({}, frozenset(), 0)
            table = render_table(game, seen, level, cells)
            budget = height - table.count("\n") - head.count("\n") - 4 - below  # blank, table, head, prompt
            shown = lay_out(labels, budget, width, *view, hidden=hidden)
            layouts.append((len(shown.lines) > budget, shown.pages > 1, shown.grouped, keyed, table, shown))
            if not any(layouts[-1][:3]):
                return table, shown, keyed
    _, _, _, keyed, table, shown = next((x for x in layouts if not x[0] and not x[1]),
                                        next((x for x in layouts if not x[0]), layouts[-1]))
    return table, shown, keyed


def spaced_like(typed: str, options) -> str:
    """For an entry that is no option: the one option whose label or id it is, written with
    other spacing or case ('(0,0)' for '(0, 0)'), as a did-you-mean; else nothing."""
    def squeezed(text: str) -> str:
        return "".join(text.split()).lower()
    found = {o.label for o in options if squeezed(typed) in (squeezed(o.label), squeezed(o.id))}
    return f" Did you mean '{found.pop()}'? (type it as shown, spaces included)" if len(found) == 1 else ""
