"""Text rendering of what a player sees: zones, grids, counters, the decision, results."""
from __future__ import annotations


def render_grid(cells: dict) -> list[str]:
    """A grid observation ({"x,y": [labels bottom to top]}) as rows of text with axes."""
    if not cells:
        return ["    (empty)"]
    parsed = {tuple(int(n) for n in key.split(",")): stack for key, stack in cells.items()}
    xs = [x for x, _ in parsed]
    ys = [y for _, y in parsed]
    width = max(max(len(s[-1]) + (2 if len(s) > 1 else 0) for s in parsed.values()), 4)
    lines = ["      " + " ".join(f"{x:^{width}}" for x in range(min(xs), max(xs) + 1))]
    for y in range(min(ys), max(ys) + 1):
        row = []
        for x in range(min(xs), max(xs) + 1):
            stack = parsed.get((x, y))
            text = "." if not stack else stack[-1] + (f"+{len(stack) - 1}" if len(stack) > 1 else "")
            row.append(f"{text:^{width}}")
        lines.append(f"  {y:>3} " + " ".join(row))
    return lines


def render_table(game, seen: dict, viewer: int | None) -> str:
    out = [f"== {game.title}" + (f" ({game.variant})" if game.variant else "")
           + f" — turn {sum(seen['turns']) + (0 if seen['finished'] else 1)}"]
    for key, content in seen["zones"].items():
        name, _, owner = key.partition("/")
        if key == "supply" or (isinstance(content, (list, dict)) and not content):
            continue
        title = name + (f" of {game.player_name(int(owner))}" if owner else "")
        if isinstance(content, dict) and "size" in content:
            extra = f", top: {content['top']}" if content.get("top") else ""
            out.append(f"{title}: {content['size']} face down{extra}")
        elif isinstance(content, dict):
            out.append(f"{title}:")
            out.extend(render_grid(content))
        else:
            out.append(f"{title}: {', '.join(content)}")
    players = seen["players"]
    for name, value in seen["vars"].items():
        if name in game.hidden_vars:
            continue
        if name in game.per_player_vars and isinstance(value, list):
            shown = ", ".join(f"{game.player_name(p)}: {_text(v)}" for p, v in enumerate(value[:players]))
            out.append(f"{name}: {shown}")
        else:
            out.append(f"{name}: {_text(value)}")
    for line in seen.get("log", [])[-3:]:
        out.append(f"  · {line}")
    return "\n".join(out)


def _text(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, tuple):
        return f"({value[0]}, {value[1]})"
    return str(value)


def render_options(decision) -> str:
    lines = [f"{decision.prompt}:"]
    for number, option in enumerate(decision.options, 1):
        lines.append(f"  {number:>2}. {option.label}" + (f"  [{option.id}]" if _plain(option.id) != _plain(option.label) else ""))
    return "\n".join(lines)


def _plain(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum() or ch in ",-")


def render_result(game, result) -> str:
    lines = ["== Final scores"]
    for p, total in enumerate(result.scores):
        parts = ", ".join(f"{k} {v}" for k, v in result.lines[p].items())
        ties = ", ".join(f"{k} {v}" for k, v in result.tiebreaks[p].items())
        lines.append(f"  {game.player_name(p)}: {total}" + (f"  ({parts})" if parts else "")
                     + (f"  tie-break: {ties}" if ties else ""))
    if result.winners:
        lines.append("Winner: " + " and ".join(game.player_name(p) for p in result.winners))
    else:
        lines.append("No winner: a draw.")
    return "\n".join(lines)
