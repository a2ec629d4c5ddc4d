"""Live score lines: each player's score lines and total before the end of a game, as one
seat may know them (the web table's "Scores now", the terminal's `score`).

What a seat is shown must not tell it anything it cannot see. So the lines are not worked
out on the position itself but on a few positions in which whatever the seat cannot see is
dealt again at random, across every zone hidden from it (interpreter/bots/determinize.py
`blindfold`); a line is shown where all of them agree, else as "?". A line that counts an
opponent's hidden hand shows "?"; one that counts what lies face up, its value.
"""
from __future__ import annotations

import random

from ..dsl.errors import BoardwrightError
from ..interpreter.bots.determinize import blindfold
from .render import fit_lines

LIVE_SAMPLES = 4        # positions a seat's live score lines are worked out on (see live_scores)
UNKNOWN = "?"           # a live score line that hangs on what the seat cannot see


def live_scores(game, st, seat: int | None) -> dict | None:
    """Each player's score lines and total now, as `seat` (None: a spectator) may know them.
    The lines are worked out not on the position itself but on LIVE_SAMPLES positions in
    which whatever the seat cannot see is dealt again at random (determinize.blindfold); a
    line is shown where all of them agree, else as "?". So what is shown depends only on what
    the seat sees: a line that counts an opponent's hidden hand shows "?", and one that
    counts what is on the table its value. None when the game has no score lines, or they
    cannot be worked out before the end (a rule error there)."""
    rng = random.Random(f"live:{seat}:{len(st.history)}")      # nothing of the hidden position
    try:
        hidden = any(content and not game.visible_to(key, seat) for key, content in st.zones.items()) \
            or st.sealed is not None
        samples = [blindfold(game, st, seat, rng) for _ in range(LIVE_SAMPLES)] if hidden else [st]
        if any(sample is None for sample in samples):
            return None
        results = [game.result(sample) for sample in samples]
    except BoardwrightError:
        return None
    titles = list(dict.fromkeys(t for line in results[0].lines for t in line))
    if not titles:
        return None

    def agreed(values):
        return str(values[0]) if all(v == values[0] for v in values) else UNKNOWN
    return {"titles": titles, "players": [
        {"seat": p, "name": game.player_name(p),
         "lines": [agreed([r.lines[p].get(t) for r in results]) if t in results[0].lines[p] else "" for t in titles],
         "total": agreed([r.scores[p] for r in results])} for p in range(st.players)]}


def render_live_scores(scores: dict | None, width: int = 80) -> str:
    """The live score lines as text: a row per line, a column per player (the terminal)."""
    if not scores:
        return "This game has no score lines to show before its end."
    names = [row["name"] for row in scores["players"]]
    rows = [(title, [row["lines"][i] for row in scores["players"]]) for i, title in enumerate(scores["titles"])]
    rows.append(("Total", [row["total"] for row in scores["players"]]))
    column = max([len(n) for n in names] + [len(v) for _, values in rows for v in values] + [5]) + 2
    first = max(8, min(max(len(t) for t, _ in rows), width - column * len(names) - 2)) + 2
    cut = lambda text: text if len(text) <= first - 2 else text[:first - 3] + "…"
    out = ["Scores now:", " " * first + "".join(f"{n:>{column}}" for n in names)]
    out += [f"{cut(t):<{first}}" + "".join(f"{v:>{column}}" for v in values) for t, values in rows]
    if any(v == UNKNOWN for _, values in rows for v in values):
        out.append(fit_lines([f"({UNKNOWN}: it hangs on cards you cannot see)"]))
    return "\n".join(out)
