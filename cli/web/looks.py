"""What the page draws for one seat: `Game.observe` (interpreter/run/views.py, the view bots
and the terminal get) turned into plain data, with how each visible component looks (its
label, glyph, details and a colour taken from its data) and, for the seat that decides, which
cell or card each option names, so that the page can let the player click it.

Nothing here looks into a zone that `observe` hides: a hidden zone is its size only, a `top`
zone its size and top component, and the options and prompt of a decision go only to the
seat that makes it.
"""
from __future__ import annotations

from ...interpreter.run.shaped import Placement
from ..live_scores import live_scores
from ..render import _names_seats, _text

# Words a component's data may use for a colour (an enum member or a text value); the page
# paints the component with it.
COLOUR_WORDS = frozenset("""red blue green yellow orange purple pink white black grey gray brown cyan
magenta violet gold silver teal navy maroon olive lime beige""".split())


def colour_of(attrs: dict):
    """The first colour word among a component's attribute values, or None."""
    for value in attrs.values():
        if isinstance(value, str) and value.lower() in COLOUR_WORDS:
            return value.lower()
    return None


def look(game, st, c: int, label: str | None = None) -> dict:
    """How component c is drawn: label, colour, glyph lines and details (from its data)."""
    out = {"label": game.label_of(st, c) if label is None else label}
    colour = colour_of(game.components[c])
    if colour:
        out["colour"] = colour
    if game.glyphs[c]:
        out["glyph"] = game.glyphs[c]
    if game.details[c]:
        out["details"] = game.details[c]
    return out


def seat_view(game, st, seat: int | None, seats: list) -> dict:
    """Everything `seat` (None: a spectator) sees of the table, as JSON-ready data."""
    seen = game.observe(st, seat)
    decision = seen.get("decision")
    options = option_targets(game, st, seat) if decision and decision["options"] is not None else []
    zones = [zone_view(game, st, key, content, seat, options) for key, content in seen["zones"].items()
             if key != "supply"]
    view = {"title": game.title, "variant": game.variant, "seat": seat, "finished": st.finished,
            "turn": max(1, sum(seen["turns"])), "move": len(st.history),
            "players": [{"seat": p, "name": game.player_name(p), "plays": seats[p]} for p in range(st.players)],
            "current": seen["current"], "zones": zones, "vars": var_lines(game, seen),
            "log": list(st.log[-200:])}
    if decision:
        view["decision"] = {"player": decision["player"], "prompt": decision["prompt"], "options": options
                            if decision["options"] is not None else None}
        placed = {o["placement"]["piece"] for o in options if "placement" in o}
        if placed:                      # how each piece the placements lay looks, once
            view["decision"]["pieces"] = {str(c): piece_look(game, st, c, seat) for c in sorted(placed)}
    if seen.get("sealed"):
        view["sealed"] = seen["sealed"]
    if seat is not None and game.brief is not None:
        view["brief"] = game.brief(st, seat)
    if not st.finished:
        scores = live_scores(game, st, seat)
        if scores:
            view["scores"] = scores
    return view


def zone_view(game, st, key: str, content, seat, options: list) -> dict:
    name, _, owner = key.partition("/")
    kind, visibility, _ = game.zone_meta[name]
    zone = {"key": key, "name": name, "owner": int(owner) if owner else None, "kind": kind,
            "visibility": visibility}
    if isinstance(content, dict) and "size" in content:       # hidden: its size (and a `top` zone's top)
        zone["hidden"] = True
        zone["size"] = content["size"]
        if content.get("top") is not None:
            zone["top"] = look(game, st, st.zones[key][-1], content["top"])
        return zone
    ids = st.zones[key]
    if kind == "grid":
        zone.update(grid_view(game, st, key, content, options))
    else:
        zone["items"] = [look(game, st, c, label) for c, label in zip(ids, content)]
        zone["size"] = len(ids)
    return zone


def grid_view(game, st, key: str, content: dict, options: list) -> dict:
    """A visible grid: its cells with their stacks (bottom to top), its bounds and shape, and
    its pieces: each component with a shape (interpreter/run/shaped.py) that is on top of one
    or more cells, once, with those cells, so that the page draws it as one unit."""
    cells = []
    for text, labels in content.items():
        x, y = (int(n) for n in text.split(","))
        stack = st.zones[key][(x, y)]
        looks = [look(game, st, c, label) for c, label in zip(stack, labels)]
        for c, drawn in zip(stack, looks):
            if game.cell_glyphs[c] is not None:         # a piece whose cells differ: this cell's own
                drawn["glyph"] = game.cell_glyph(st, c, (x, y))
        cells.append({"cell": text, "x": x, "y": y, "stack": looks})
    shape = game.grid_shape(key, st)
    points = [(c["x"], c["y"]) for c in cells]
    points += [tuple(int(n) for n in t["cell"].split(",")) for o in options for t in o["targets"]
               if t["zone"] == key and "cell" in t]
    points += [tuple(int(n) for n in cell.split(",")) for o in options if key in o.get("placement", {}).get("grids", ())
               for cell in o["placement"]["cells"]]
    if shape.size is not None:
        points += [(0, 0), (shape.size[0] - 1, shape.size[1] - 1)]
    bounds = None
    if points:
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        bounds = [min(xs), min(ys), max(xs), max(ys)]
    return {"cells": cells, "bounds": bounds, "size": sum(len(c["stack"]) for c in cells),
            "blocked": sorted(f"{x},{y}" for x, y in shape.blocked), "stacked": shape.stacked,
            "extent": list(shape.extent) if shape.extent else None, "pieces": pieces_on(game, st, key)}


def pieces_on(game, st, key: str) -> list[dict]:
    """The shaped pieces seen on a grid, each once: how it looks and the cells where it is the
    top of the stack (all it covers, unless a stacked grid has something on part of it), in
    the order of the cells (row by row)."""
    tops: dict[int, list] = {}
    for (x, y), stack in sorted(st.zones[key].items(), key=lambda item: (item[0][1], item[0][0])):
        if stack and game.orientations[stack[-1]] is not None:
            tops.setdefault(stack[-1], []).append(f"{x},{y}")
    return [{**look(game, st, c), "cells": cells} for c, cells in tops.items()]


def option_targets(game, st, seat) -> list[dict]:
    """The options of the pending decision (only for the seat that makes it), each with the
    cells or cards it names that `seat` can see: a cell option names that cell in the
    seat's own grids (else in the grids nobody owns), a component option the place it lies,
    a placement option (`placement`) its piece, orientation and cells in those grids."""
    decision = game.decision(st)
    site = game.choices[st.pending.site]
    names_components = not site.injective           # the options are components of a kind
    grids = [k for k in st.zones if game.zone_meta[k.split("/")[0]][0] == "grid" and game.visible_to(k, seat)]
    own = [k for k in grids if k.partition("/")[2] == str(seat)]
    cell_grids = own or [k for k in grids if "/" not in k]
    out = []
    for index, option in enumerate(decision.options):
        value, targets = option.value, []
        if names_components and type(value) is int and 0 <= value < game.component_count:
            key, cell = st.loc[value]
            if game.visible_to(key, seat):
                if cell is not None:
                    targets.append({"zone": key, "cell": f"{cell[0]},{cell[1]}"})
                else:
                    targets.append({"zone": key, "pos": st.zones[key].index(value)})
            elif game.zone_meta[key.split("/")[0]][1] == "top" and st.zones[key][-1] == value:
                targets.append({"zone": key, "top": True})
        elif type(value) is tuple and len(value) == 2 and all(type(n) is int for n in value):
            targets = [{"zone": k, "cell": f"{value[0]},{value[1]}"} for k in cell_grids]
        entry = {"index": index, "id": option.id, "label": option.label, "targets": targets}
        if type(value) is Placement:
            entry["placement"] = placement_of(value, cell_grids)    # names its cells in each of the grids
        out.append(entry)
    return out


def piece_look(game, st, c: int, seat) -> dict:
    """How a piece that placements lay looks, and where it lies when that is a card the seat
    sees in a pile or stack (the page lets the player pick the piece there)."""
    out = look(game, st, c)
    key, cell = st.loc[c][:2]
    if cell is None and game.zone_meta[key.split("/")[0]][0] != "grid" and game.visible_to(key, seat):
        out["lies"] = {"zone": key, "pos": st.zones[key].index(c)}
    return out


def placement_of(value: Placement, cell_grids: list) -> dict:
    """A placement option as the page needs it to let a player pick the piece, turn it and lay
    it by pointing: the piece (its number: how it looks is in the decision's `pieces`), the
    orientation, the cells it would cover and the grids they are on (the seat's grids, as
    for a cell option)."""
    piece, at, turn, cells = value
    return {"piece": piece, "turn": turn, "cells": [f"{x},{y}" for x, y in cells], "grids": cell_grids}


def var_lines(game, seen: dict) -> list[dict]:
    """The vars a player is shown, by their screen names (the terminal's rules, cli/render.py)."""
    out = []
    players = seen["players"]
    for name, value in seen["vars"].items():
        title = game.var_display.get(name, name)
        if name in game.hidden_vars or name.startswith("_") or not title:
            continue
        is_seat = _names_seats(game, name)
        if name in game.per_player_vars and isinstance(value, list):
            out.append({"name": name, "title": title, "per_player": [_text(game, v, is_seat) for v in value[:players]]})
        else:
            out.append({"name": name, "title": title, "value": _text(game, value, is_seat)})
    return out
