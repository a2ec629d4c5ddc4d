"""Component text templates: the `label`, `details` and `glyph` of a data file.

A tiny language of our own, so that no text from a data file reaches Python's `str.format`
(which reads attributes and indexes of objects and allocates any width it is asked for):

- `{attribute}`: the component's value of that attribute (a list as `a, b`);
- `{flag:X|Y}` for a bool attribute: `X` when true, `Y` when false; `{flag:X}`: `X` or nothing;
- `{attribute:<N}`, `{attribute:>N}`, `{attribute:^N}`: padded to N characters (N at most
  MAX_WIDTH), left, right or centred; `.M` after it (`{attribute:^3.3}`) cuts the value to
  M characters first;
- `{{` and `}}`: a literal brace.

`parse_template` reads a text once into pieces and raises `TemplateError` (with the column)
for anything else; `check_template` also names attributes the kind does not have;
`render` fills the pieces with one component's attributes.
"""
from __future__ import annotations

import re
from functools import lru_cache

MAX_WIDTH = 80                  # a padding wider than a screen line is a mistake, not a layout
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_ALIGN = re.compile(r"([<>^]?)([0-9]{1,3})?(?:\.([0-9]{1,3}))?\Z")


class TemplateError(ValueError):
    """A template that cannot be read; `column` is 1-based within the template text."""

    def __init__(self, message: str, column: int, hint: str = ""):
        super().__init__(message)
        self.message, self.column, self.hint = message, column, hint


class Field:
    """One `{attribute[:spec]}`: a bool choice (shown, hidden) or an alignment (side, width)."""
    __slots__ = ("name", "spec", "column", "width")

    def __init__(self, name: str, spec: str | None, column: int, width: int):
        self.name, self.spec, self.column, self.width = name, spec, column, width


@lru_cache(maxsize=4096)
def parse_template(text: str) -> tuple:
    """The pieces of a template: literal strings and `Field`s (read once per text)."""
    pieces: list = []
    literal: list = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "{}" and text[i + 1:i + 2] == ch:
            literal.append(ch)
            i += 2
            continue
        if ch == "}":
            raise TemplateError("a '}' without its '{'", i + 1, "write '}}' for a literal brace")
        if ch != "{":
            literal.append(ch)
            i += 1
            continue
        end = text.find("}", i)
        if end < 0:
            raise TemplateError("a '{' without its '}'", i + 1, "write '{{' for a literal brace")
        body = text[i + 1:end]
        if "{" in body:
            raise TemplateError("a '{' inside a placeholder", i + 1 + body.index("{") + 1)
        name, colon, spec = body.partition(":")
        if not _NAME.match(name):
            raise TemplateError(f"'{{{body}}}' is not a placeholder: write {{attribute}}", i + 1,
                                "a placeholder names one attribute of the component, nothing else")
        if literal:
            pieces.append("".join(literal))
            literal = []
        pieces.append(Field(name, spec if colon else None, i + 1, end + 1 - i))
        i = end + 1
    if literal:
        pieces.append("".join(literal))
    return tuple(pieces)


def check_template(text: str, attributes: dict) -> list:
    """The template's problems against a kind's attributes (name -> type text), as
    (message, column, width, hint, unknown name or None); the template is valid when it is empty."""
    try:
        pieces = parse_template(text)
    except TemplateError as exc:
        return [(exc.message, exc.column, 1, exc.hint, None)]
    problems = []
    for piece in pieces:
        if not isinstance(piece, Field):
            continue
        if piece.name not in attributes:
            problems.append((f"names the unknown attribute '{piece.name}'", piece.column, piece.width, "",
                             piece.name))
        elif piece.spec is not None:
            problem = _spec_problem(piece.spec, attributes[piece.name] == "bool")
            if problem:
                problems.append((f"cannot show {{{piece.name}:{piece.spec}}}: {problem[0]}", piece.column,
                                 piece.width, problem[1], None))
    return problems


def _spec_problem(spec: str, is_bool: bool):
    if is_bool:
        return None             # any "X|Y" or "X" text
    match = _ALIGN.match(spec)
    if match is None or not (match.group(2) or match.group(3)):
        return ("not a format",
                "after ':' write <N, >N or ^N (a width), .M (a cut), or X|Y for a bool attribute")
    if max(int(match.group(2) or 0), int(match.group(3) or 0)) > MAX_WIDTH:
        return (f"a width or a cut of at most {MAX_WIDTH}", "")
    return None


def render(pieces: list, attrs: dict) -> str:
    """The template's pieces filled with a component's attributes (checked beforehand)."""
    out = []
    for piece in pieces:
        if not isinstance(piece, Field):
            out.append(piece)
            continue
        value = attrs.get(piece.name)
        spec = piece.spec
        if isinstance(value, bool):
            if spec is None:
                out.append(str(value))
            else:
                shown, _, hidden = spec.partition("|")
                out.append(shown if value else hidden)
            continue
        shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
        match = _ALIGN.match(spec) if spec else None
        if match is not None:
            if match.group(3):
                shown = shown[:int(match.group(3))]
            width = min(int(match.group(2) or 0), MAX_WIDTH)
            shown = format(shown, f"{match.group(1) or '<'}{width}") if width else shown
        out.append(shown)
    return "".join(out)


def fill(text: str, attrs: dict) -> str:
    """A template text filled with attributes; raises TemplateError if it cannot be read."""
    return render(parse_template(text), attrs)
