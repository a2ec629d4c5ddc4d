"""Text rendering of what a player sees: zones, grids, counters, the decision, results."""
from __future__ import annotations

import os
import re
import shutil
import sys
import textwrap
from types import SimpleNamespace


ANSI = {"red": 31, "green": 32, "yellow": 33, "blue": 34, "magenta": 35, "purple": 35, "cyan": 36,
        "orange": 33, "pink": 35, "white": 37}
_COLOUR_WORD = re.compile(r"\b(" + "|".join(ANSI) + r")\b( \S+)?")


def colourize(text: str) -> str:
    """Paint colour words (and the word after them, e.g. 'red 5') in their terminal colour."""
    return _COLOUR_WORD.sub(lambda m: f"\033[1;{ANSI[m.group(1)]}m{m.group(0)}\033[0m", text)


def wants_colour(stream) -> bool:
    return stream.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def key_mark(key: str) -> str:
    """How a cell shows the key that chooses the option naming it (cli/table_keys.py)."""
    return f"{key})"


BLOCKED = "░"                   # a blocked cell of a grid drawn as text


def render_grid(cells: dict, shape=None, keys: dict | None = None, width_limit: int | None = None) -> list[str]:
    """A grid observation ({"x,y": [labels bottom to top]}) as rows of text with axes: a
    fixed-size grid (`shape.size`) every cell, empty ones '.', blocked ones shaded; another
    the area its occupied (and keyed) cells span.
    Labels of several lines (a `label` declaration may write "\\n") are drawn in a frame.
    `keys` ({"x,y": key}): each such cell starts with its key, empty or not, and the cells
    are left-aligned so that the keys line up. `width_limit`: texts too long for a line of
    that width are cut with '…'."""
    keys = keys or {}
    fixed = shape is not None and shape.size is not None     # every cell drawn, blocked ones shaded
    if not cells and not keys and not fixed:
        return ["    (empty)"]
    if any("\n" in stack[-1] for stack in cells.values() if stack):
        glyphs = {key: stack[-1].split("\n") for key, stack in cells.items() if stack}
        width = max(len(line) for lines in glyphs.values() for line in lines)
        height = max(len(lines) for lines in glyphs.values())
        return render_picture(glyphs, (width, height), shape, keys=keys)
    parsed = {tuple(int(n) for n in key.split(",")): stack for key, stack in cells.items()}
    marks = {tuple(int(n) for n in cell.split(",")): key_mark(key) + " " for cell, key in keys.items()}
    pad = " " * max((len(m) for m in marks.values()), default=0)
    texts = {}
    for at in set(parsed) | set(marks):
        stack = parsed.get(at)
        text = "." if not stack else stack[-1] + (f"+{len(stack) - 1}" if len(stack) > 1 else "")
        texts[at] = (marks.get(at, pad) + (text if stack else "")).rstrip() if marks else text
    if fixed:
        xs, ys = range(shape.size[0]), range(shape.size[1])
        texts.update({at: BLOCKED for at in shape.blocked if at not in texts})
    else:
        xs = range(min(x for x, _ in texts), max(x for x, _ in texts) + 1)
        ys = range(min(y for _, y in texts), max(y for _, y in texts) + 1)
    width = max([len(t) for t in texts.values()] + [4])
    if width_limit and 6 + len(xs) * (width + 1) - 1 > width_limit:
        width = max(4, (width_limit - 6 - len(xs) + 1) // len(xs))
        texts = {at: t if len(t) <= width else t[:width - 1] + "…" for at, t in texts.items()}
    lines = ["      " + " ".join(f"{x:^{width}}" for x in xs)]
    for y in ys:
        row = [texts.get((x, y), pad if marks else ".") for x in xs]
        line = f"  {y:>3} " + " ".join(f"{t:<{width}}" if marks else f"{t:^{width}}" for t in row)
        lines.append(line.rstrip() if marks else line)
    return lines


def screen_width() -> int:
    """The terminal's width (80 when there is no terminal, or `COLUMNS` says so)."""
    return max(40, shutil.get_terminal_size((80, 24)).columns)


def render_picture(glyphs: dict, cell: tuple, shape, width_limit: int | None = None,
                   pieces: dict | None = None, keys: dict | None = None) -> list[str]:
    """A grid drawn cell by cell from its components' glyphs ({"x,y": [lines]}), in a frame.
    A fixed-size grid shows every cell, blocked ones shaded; others show the occupied area.
    A grid wider than the screen is drawn in pages of as many columns as fit, one below the
    other. `pieces` ({"x,y": component}) names the piece with a shape on each cell it covers:
    no line is drawn between two cells of one piece, so each piece shows as a unit. `keys`
    ({"x,y": key}): each such cell has its key in the line above it."""
    width, height = cell
    parsed = {tuple(int(n) for n in key.split(",")): lines for key, lines in glyphs.items()}
    owner = {tuple(int(n) for n in key.split(",")): c for key, c in (pieces or {}).items()}
    marks = {tuple(int(n) for n in at.split(",")): key_mark(key) for at, key in (keys or {}).items()}
    if shape is not None and shape.size is not None:
        xs, ys = range(shape.size[0]), range(shape.size[1])
    elif parsed or marks:
        points = list(parsed) + list(marks)
        xs = range(min(x for x, _ in points), max(x for x, _ in points) + 1)
        ys = range(min(y for _, y in points), max(y for _, y in points) + 1)
    else:
        return ["    (empty)"]
    limit = width_limit or screen_width()
    per_page = max(1, (limit - 7) // (width + 1))
    if len(xs) > per_page:
        pages = [xs[i:i + per_page] for i in range(0, len(xs), per_page)]
        out = []
        for page in pages:
            out.extend(_picture_page(parsed, cell, shape, page, ys, owner, marks))
        return out
    return _picture_page(parsed, cell, shape, xs, ys, owner, marks)


def _picture_page(parsed: dict, cell: tuple, shape, xs, ys, owner: dict | None = None,
                  marks: dict | None = None) -> list[str]:
    width, height = cell
    owner, marks = owner or {}, marks or {}
    blocked = shape.blocked if shape is not None else frozenset()

    def one_piece(a, b) -> bool:
        return a in owner and owner.get(b) == owner[a]

    def segment(x, y) -> str:           # the line under (x, y): the key of the cell below it
        line = " " * width if one_piece((x, y), (x, y + 1)) else "-" * width
        mark = marks.get((x, y + 1))
        return (mark + line)[:width] if mark else line

    def border_below(y) -> str:
        return "      +" + "+".join(segment(x, y) for x in xs) + "+"
    out = ["       " + " ".join(f"{x:^{width}}" for x in xs), border_below(ys[0] - 1)]
    for y in ys:
        for row in range(height):
            texts = []
            for x in xs:
                lines = parsed.get((x, y))
                if (x, y) in blocked:
                    texts.append("░" * width)
                elif lines:
                    texts.append(f"{lines[row] if row < len(lines) else '':<{width}}"[:width])
                else:
                    texts.append(" " * width)
            axis = f"{y:>5} " if row == height // 2 else "      "
            joined = texts[0]
            for i in range(1, len(texts)):
                joined += (" " if one_piece((xs[i - 1], y), (xs[i], y)) else "|") + texts[i]
            out.append(axis + "|" + joined + "|")
        out.append(border_below(y))
    return out


def render_described(labels: list, details: list) -> list[str]:
    """One line per component with its data `details`; equal ones once, with their count."""
    counts: dict = {}
    for label, text in zip(labels, details):
        counts[(label, text)] = counts.get((label, text), 0) + 1
    return [f"  {f'{n} x ' if n > 1 else ''}{label}" + (f" — {text}" if text else "")
            for (label, text), n in counts.items()]


COMPACT_LEVELS = 4      # render_table's `compact`: 0 draws everything, 4 is the shortest


def render_table(game, seen: dict, compact: int = 0, keys: dict | None = None) -> str:
    """The table as a player sees it. `compact` shortens it for the play screen, step by
    step: 1 draws a grid of pictures as text, one line a cell (or lists its occupied cells
    when that is wider than the screen), 2 cuts each described component to one line, 3
    names described components without their details, 4 cuts every line to the screen's
    width and lists the occupied cells of grids of pictures. `keys` ({grid zone key: {"x,y":
    key}}, cli/table_keys.py) draws in each such cell the key that chooses it."""
    keys = keys or {}
    out = [f"== {game.display_title} — turn {max(1, sum(seen['turns']))}"]
    details = seen.get("details", {})
    pictures = seen.get("glyphs", {})
    for key, content in seen["zones"].items():
        name, _, owner = key.partition("/")
        if key == "supply" or (isinstance(content, (list, dict)) and not content and key not in pictures
                               and key not in keys and not _fixed_grid(game, key, content, seen)) or \
                (isinstance(content, dict) and content.get("size") == 0):
            continue
        title = name + (f" of {game.player_name(int(owner))}" if owner else "")
        if key in pictures and compact:
            out.extend(_pictures_as_text(title, pictures[key], compact, keys.get(key)))
        elif key in pictures:
            out.append(f"{title}:")
            out.extend(render_picture(pictures[key], game.cell_pictures[name], _grid_shape(game, key, seen),
                                      pieces=seen.get("pieces", {}).get(key), keys=keys.get(key)))
        elif key in details and compact >= 3:
            out.append(f"{title}: " + _counted(content))
        elif key in details:
            out.append(f"{title}:")
            lines = render_described(content, details[key])
            out.extend(_cut_to_screen(lines) if compact >= 2 else lines)
        elif isinstance(content, dict) and "size" in content:
            if content.get("top"):      # a `top` zone: its top component is face up
                out.append(f"{title}: {content['size']}, top: {content['top']}")
            else:
                out.append(f"{title}: {content['size']} face down")
        elif isinstance(content, dict) and compact and any("\n" in stack[-1] for stack in content.values() if stack):
            out.extend(_pictures_as_text(title, {k: stack[-1].split("\n") for k, stack in content.items() if stack},
                                         compact, keys.get(key)))
        elif isinstance(content, dict):
            out.append(f"{title}:")
            out.extend(render_grid(content, _grid_shape(game, key, seen), keys.get(key)))
        elif game.zone_meta.get(name, ("stack",))[0] == "pile":
            # In a pile order does not matter: equal components are shown once, with their count.
            out.append(f"{title}: " + _counted(content))
        else:
            out.append(f"{title}: {', '.join(content)}")
    players = seen["players"]
    for name, value in seen["vars"].items():
        title = getattr(game, "var_display", {}).get(name, name)
        if name in game.hidden_vars or name.startswith("_") or not title:   # bookkeeping, not shown
            continue
        is_seat = _names_seats(game, name)
        if name in game.per_player_vars and isinstance(value, list):
            shown = ", ".join(f"{game.player_name(p)}: {_text(game, v, is_seat)}" for p, v in enumerate(value[:players]))
            out.append(f"{title}: {shown}")
        else:
            out.append(f"{title}: {_text(game, value, is_seat)}")
    for line in seen.get("log", [])[-3:]:
        out.append(f"  · {line}")
    sealed = seen.get("sealed")
    if sealed:                      # a simultaneous decision: who has chosen, not what
        names = lambda seats: ", ".join(game.player_name(p) for p in seats) or "nobody"
        waiting = [p for p in sealed["players"] if p not in sealed["chosen"]]
        out.append(f"sealed choices: made by {names(sealed['chosen'])}; waiting for {names(waiting)}"
                   + (f"; yours: {sealed['yours']}" if sealed["yours"] is not None else ""))
    return "\n".join(_cut_to_screen(out)) if compact >= 4 else fit_lines(out)


def _grid_shape(game, key: str, seen: dict):
    """A grid's shape as the observation's params give it: a grid sized by params (`size side
    x side`) is drawn at its size, every cell shown, as one sized by numbers is."""
    return game.grid_shape(key, SimpleNamespace(vars=seen.get("vars", {})))


def _fixed_grid(game, key: str, content, seen: dict) -> bool:
    """Whether `content` is a grid of a fixed size (drawn whole, even when empty)."""
    if not isinstance(content, dict):
        return False
    shape = _grid_shape(game, key, seen)
    return shape is not None and shape.size is not None


def _counted(labels: list) -> str:
    """Labels with equal ones once, with their count: '2 x red 5, blue 3'."""
    counts = {label: labels.count(label) for label in labels}
    return ", ".join(f"{n} x {label}" if n > 1 else label for label, n in counts.items())


def _pictures_as_text(title: str, glyphs: dict, compact: int, keys: dict | None = None) -> list:
    """A grid of pictures in a few lines: each cell as one line of its picture, the first
    that the fewest other cells share (a card's name or resource, not the 'resource card'
    common to many; an indented line continues another and is never the one), in a text grid when that fits the screen (and compact < 4, or there are
    keys), else as a list of occupied cells. `keys` as for render_grid. A legend says the
    rest of the pictures: of the keyed cells when there are keys, else of all up to compact 2."""
    keys = keys or {}
    pictures = {key: [line.strip() for line in lines if line[:1] != " "] or [line.strip() for line in lines]
                for key, lines in glyphs.items() if lines}
    counts: dict = {}
    for lines in pictures.values():
        for line in set(lines):
            counts[line] = counts.get(line, 0) + 1
    first = {key: [min((line for line in lines if line), key=lambda line: counts[line], default=lines[0])]
             for key, lines in pictures.items()}
    if not first and not keys:
        return [f"{title}: (empty)"]
    grid = render_grid(first, keys=keys, width_limit=screen_width())
    if (compact < 4 or keys) and max(len(line) for line in grid) <= screen_width():
        legend = _legend(glyphs, first, counts, keys) if compact <= 2 or keys else []
        return [f"{title}:"] + grid + legend
    marked = {k: [key_mark(key)] + first.get(k, []) for k, key in keys.items()}
    cells = sorted(((int(k.split(",")[1]), int(k.split(",")[0])), " ".join(text))
                   for k, text in {**first, **marked}.items())
    return [f"{title}: " + "; ".join(f"({x}, {y}) {text}" for (y, x), text in cells)]


def _legend(glyphs: dict, first: dict, counts: dict, keys: dict) -> list:
    """Under a grid of pictures drawn a line a cell: a line for each cell whose picture says
    more than that line (a building's points and cost), row by row, led by the cell's key
    or coordinate (with keys, only the keyed cells: what the decision can choose); a
    picture's indented line continues the line before it. A first line that a quarter of
    the pictures share (a kind of card: 'resource card') is left out."""
    shared = max(2, len(first) / 4)
    out = []
    for cell in sorted(first, key=lambda k: tuple(reversed([int(n) for n in k.split(",")]))):
        if keys and cell not in keys:   # the cells the decision names are the ones to read
            continue
        rest: list = []
        for number, line in enumerate(glyphs[cell]):
            text = line.strip()
            if not text or text == first[cell][0] or number == 0 and counts.get(text, 0) >= shared:
                continue
            if line[:1].isspace() and rest:
                rest[-1] += f", {text}"
            else:
                rest.append(text)
        if rest:
            x, y = cell.split(",")
            lead = key_mark(keys[cell]) if cell in keys else f"({x}, {y})"
            out.append(f"  {lead} {first[cell][0]}: " + "; ".join(rest))
    return out


def _cut_to_screen(lines: list) -> list:
    width = screen_width()
    return [line if len(line) <= width else line[:width - 1] + "…" for line in lines]


def screen_height() -> int | None:
    """The screen's height in lines: `LINES` when set, else the terminal's when standard
    output is one, else None (no limit: output piped to a file keeps every line)."""
    lines = os.environ.get("LINES", "")
    if lines.isascii() and lines.isdigit() and len(lines) < 6 and int(lines) > 0:
        return max(10, int(lines))
    try:
        return max(10, os.get_terminal_size(sys.stdout.fileno()).lines) if sys.stdout.isatty() else None
    except (AttributeError, OSError, ValueError):
        return None


def fit_lines(lines: list[str], width: int | None = None) -> str:
    """Lines longer than the screen wrapped, continued under their own indentation."""
    width = width or screen_width()
    out = []
    for line in lines:
        if len(line) <= width or line.lstrip().startswith(("|", "+")):
            out.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip()))
        out.extend(textwrap.wrap(line, width, subsequent_indent=indent + "    ", break_on_hyphens=False))
    return "\n".join(out)


def _names_seats(game, name: str) -> bool:
    """Whether a var holds players (shown as 'Player 1', never as a 0-based seat)."""
    declared = getattr(game, "var_types", {}).get(name)
    while declared is not None and not hasattr(declared, "name"):
        declared = getattr(declared, "element", None)
    return getattr(declared, "name", None) == "player"


def _text(game, value, is_seat: bool = False) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if is_seat and isinstance(value, int):
        return game.player_name(value)
    if is_seat and isinstance(value, list):
        return ", ".join(_text(game, v, True) for v in value) or "none"
    if isinstance(value, tuple):
        return f"({value[0]}, {value[1]})"
    return str(value)


def render_options(decision) -> str:
    lines = [f"{decision.prompt}:"]
    for number, option in enumerate(decision.options, 1):
        lines.append(f"  {number:>2}. {option.label}" + (f"  [{option.id}]" if _plain(option.id) != _plain(option.label) else ""))
    return fit_lines(lines)


def _plain(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum() or ch in ",-")


def render_result(game, result, width: int | None = None) -> str:
    """The final scores, fitted to `width` (the screen's by default) as the rest of the play
    screen is: a long line continues under its own indentation; in a score sheet a long score
    line's name wraps within its column, the numbers on its first line."""
    width = width or screen_width()
    opponents = getattr(result, "opponents", ())
    if opponents or any(len(line) > 2 for line in result.lines):
        return _score_sheet(game, result, opponents, width)
    lines = ["== Final scores"]
    for p, total in enumerate(result.scores):
        parts = ", ".join(f"{k} {v}" for k, v in result.lines[p].items())
        ties = ", ".join(f"{k} {v}" for k, v in result.tiebreaks[p].items())
        lines.append(f"  {game.player_name(p)}: {total}" + (f"  ({parts})" if parts else "")
                     + (f"  tie-break: {ties}" if ties else ""))
    lines.append(_winners(game, result, opponents))
    return fit_lines(lines, width)


def _winners(game, result, opponents) -> str:
    """Who won: the seats that did, else (with opponents) the opponents of the best total."""
    if result.winners:
        return "Winner: " + " and ".join(game.player_name(p) for p in result.winners)
    if opponents:
        best = max(sum(sheet.values()) for _, sheet in opponents)
        return "Winner: " + " and ".join(t for t, sheet in opponents if sum(sheet.values()) == best)
    return "No winner: a draw."


def _score_sheet(game, result, opponents, screen: int) -> str:
    """The score sheet as a table: a row per score line, a column per player and opponent. The
    names' column is narrowed to fit the screen (never below its longest word), a longer name
    wrapped in it."""
    columns = [(game.player_name(p), result.lines[p], result.tiebreaks[p]) for p in range(len(result.scores))]
    columns += [(title, sheet, {}) for title, sheet in opponents]
    titles = list(dict.fromkeys(t for _, sheet, _ in columns for t in sheet))
    ties = list(dict.fromkeys(t for _, _, tie in columns for t in tie))
    first = max([len(t) for t in titles] + [len("(tie-break) " + t) for t in ties] + [len("Total")]) + 2
    width = max([len(name) for name, _, _ in columns] + [6]) + 2
    words = [word for t in titles + ["(tie-break) " + t for t in ties] + ["Total"] for word in t.split()]
    first = max(min(first, screen - width * len(columns)), max(map(len, words)) + 2)

    def row(title: str, cells) -> list[str]:
        names = textwrap.wrap(title, first - 2, subsequent_indent="  ", break_on_hyphens=False,
                              break_long_words=False) or [""]
        return [f"{names[0]:<{first}}" + "".join(f"{cell:>{width}}" for cell in cells)] + names[1:]
    out = ["== Final scores", *row("", (name for name, _, _ in columns))]
    for title in titles:
        out += row(title, (sheet[title] if title in sheet else "" for _, sheet, _ in columns))
    out += row("Total", (sum(sheet.values()) for _, sheet, _ in columns))
    for title in ties:
        out += row("(tie-break) " + title, (tie[title] if title in tie else "" for _, _, tie in columns))
    out.append(fit_lines([_winners(game, result, opponents)], screen))
    return "\n".join(out)
