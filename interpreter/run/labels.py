"""Components and options in words: a component's label, its `details` text and the lines of
its glyph, filled in from its kind's formats and data; option ids made unique.
"""
from __future__ import annotations

import re

from ...dsl.data import format_attributes


def _unique(ids: list) -> list:
    """Ids made unique by numbering repeats: 'red-5', 'red-5#2'."""
    seen: dict = {}
    out = []
    for i in ids:
        n = seen.get(i, 0) + 1
        seen[i] = n
        out.append(i if n == 1 else f"{i}#{n}")
    return out


_SECTION = re.compile(r"\[([^\[\]]*)\]")
_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?::[^{}]*)?\}")


def describe_piece(text: str | None, attrs: dict, cells, cell_names) -> str:
    """`details` of a piece: when the text names a cell attribute and the piece's cells carry
    their own data (a domino's halves), the text filled once per cell, in the shape's order,
    joined by " / "; else as `describe`."""
    if not cells or not text or not set(_FIELD.findall(text)) & set(cell_names):
        return describe(text, attrs)
    return " / ".join(describe(text, {**attrs, **values}) for values in cells)


def describe(text: str | None, attrs: dict) -> str:
    """A component's `details` text: the kind's format filled in like a label (lists joined
    with commas), each [section] left out when one of its values is 0, empty or false."""
    if not text:
        return ""

    def section(match) -> str:
        names = _FIELD.findall(match.group(1))
        if any(attrs.get(n) in (0, "", None, False) or attrs.get(n) == [] for n in names):
            return ""
        return match.group(1)
    shown = _SECTION.sub(section, text)
    values = {k: ", ".join(map(str, v)) if isinstance(v, list) else v for k, v in attrs.items()}
    try:
        return format_attributes(shown, values).strip()
    except (KeyError, IndexError, ValueError):
        return shown


def _glyph(kind, attrs: dict):
    """The lines that draw a component in a grid cell, or None (data checks the format)."""
    lines = getattr(kind, "glyph", None)
    if not lines:
        return None
    try:
        return [format_attributes(line, attrs) for line in lines]
    except (KeyError, IndexError, ValueError):
        return None


def _label(kind, attrs: dict) -> str:
    if kind.label:
        try:
            return format_attributes(kind.label, attrs)
        except (KeyError, IndexError, ValueError):
            pass
    if "name" in attrs:
        return str(attrs["name"])
    return " ".join(str(v) for v in attrs.values())

