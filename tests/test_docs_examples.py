"""Every ```game example of the language reference and the tutorial parses and checks.

The reference's examples belong to its running example, Harbour: a complete file is checked
as it is; a piece is checked in the first place where it fits: as declarations of a variant
of Harbour, as statements inside Harbour's turn, or as an expression inside that turn.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from boardwright.dsl.errors import BoardwrightError
from boardwright.dsl.loader import check_game

DOCS = Path(__file__).resolve().parent.parent / "docs"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)


def _blocks(name: str, language: str) -> list[str]:
    return [m.group(2) for m in FENCE.finditer((DOCS / name).read_text(encoding="utf-8")) if m.group(1) == language]


def _with_data(name: str) -> list[tuple[str, str]]:
    """Each ```game block with the ```yaml block nearest above it (a complete game's data)."""
    out, data = [], ""
    for m in FENCE.finditer((DOCS / name).read_text(encoding="utf-8")):
        if m.group(1) == "yaml":
            data = m.group(2)
        elif m.group(1) == "game":
            out.append((m.group(2), data))
    return out


REFERENCE = _blocks("language.md", "game")
REFERENCE_DATA = dict(_with_data("language.md"))
HARBOUR = next(b for b in REFERENCE if 'game "Harbour"' in b)
HARBOUR_DATA = next(b for b in _blocks("language.md", "yaml") if "Card:" in b and "provenance" in b)
TURN_END = "      deal(p, 1)\n"


def _checks(folder: Path, files: dict) -> str:
    """'' if the main file (the last) checks, else the first problem."""
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    try:
        check_game(folder / list(files)[-1])
        return ""
    except BoardwrightError as err:
        return err.diagnostics[0].format()


def _fits_somewhere(block: str, folder: Path, data: str = "") -> str:
    files = {"cards.yaml": HARBOUR_DATA, "harbour.game": HARBOUR}
    if re.search(r'^\s*(game|variant) "', block, re.M):
        named = re.search(r'^data "([^"]+)"', block, re.M)
        if named and named.group(1) != "cards.yaml":
            files[named.group(1)] = data
        return _checks(folder, {**files, "example.game": block})
    lines = [line for line in block.splitlines() if line.strip() and not line.strip().startswith("#")]
    each_line = "".join(f"let doc_value_{i} = ({line})\n" for i, line in enumerate(lines))
    problems = []
    for name, text in (
            ("as declarations", 'variant "Doc" extends "harbour.game"\n' + block),
            ("as statements in a turn", HARBOUR.replace(TURN_END, block + "\n" + TURN_END)),
            ("as statements in a new turn", 'variant "Doc" extends "harbour.game"\n'
                                            f"proc doc_example(p: player) {{\n turn p {{\n{block}\n}}\n}}\n"),
            ("as an expression in a turn", HARBOUR.replace(TURN_END, f"let doc_value = (\n{block}\n)\n{TURN_END}")),
            ("as expressions, one a line", HARBOUR.replace(TURN_END, each_line + TURN_END))):
        problem = _checks(folder, {**files, "example.game": text})
        if not problem:
            return ""
        problems.append(f"{name}: {problem}")
    return "\n".join(problems)


def test_the_running_example_is_a_complete_game(tmp_path):
    assert TURN_END in HARBOUR
    assert _checks(tmp_path, {"cards.yaml": HARBOUR_DATA, "harbour.game": HARBOUR}) == ""


@pytest.mark.parametrize("index", range(len(REFERENCE)))
def test_every_reference_example_checks(index, tmp_path):
    block = REFERENCE[index]
    problem = _fits_somewhere(block, tmp_path, REFERENCE_DATA.get(block, ""))
    assert problem == "", f"docs/language.md example {index}:\n{block}\n{problem}"


def test_the_reference_shows_every_construct():
    from boardwright.dsl.grammar import _lark
    text = "\n".join(REFERENCE)
    for rule in {r.origin.name for r in _lark().rules}:
        if rule.endswith(("_decl", "_stmt")):
            word = rule.rsplit("_", 1)[0]
            shown = {"assign": "+=", "call": "deal(", "score": "score p", "tiebreak": "tiebreak p",
                     "label": "label c:", "opponent": 'opponent "', "variant": "variant \""}.get(word, word + " ")
            assert shown in text, f"no example of {rule}"
    for construct in ("lowest wins", "[1:", "let ", "return ", "for x in", "size side x side", ": player ="):
        assert construct in text, construct
