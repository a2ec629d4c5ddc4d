"""Golden help pages: tests/golden/help/COMMAND.expected is the exact text of
`boardwright COMMAND --help` (and boardwright.expected of `boardwright --help`), printed at 80
columns (argparse wraps by the terminal's width, so the test fixes COLUMNS).

A help page is a golden: any change to a command's options, their metavars, defaults, choices
or help text shows as a diff of these files to review. After a deliberate change, regenerate
them and read every changed line before committing:

    BOARDWRIGHT_REGEN_HELP=1 python3 -m pytest -q -n 0 --no-cov tests/test_cli_help_pages.py

The pages were first read line by line against docs/cli.md (each option's meaning, metavar and
default as that page documents them); tests/test_cli_option_docs.py checks the options
against docs/cli.md by walking the parsers.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from boardwright.cli.main import COMMANDS, main

HELP = Path(__file__).resolve().parent / "golden" / "help"
REGENERATE = os.environ.get("BOARDWRIGHT_REGEN_HELP") == "1"
PAGES = ["boardwright"] + sorted(COMMANDS)


def help_page(monkeypatch, capsys, argv: list) -> str:
    monkeypatch.setenv("COLUMNS", "80")
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        main(argv + ["--help"])
    assert exit_.value.code == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


def test_every_command_has_a_golden_page_and_every_page_a_command():
    assert {p.stem for p in HELP.glob("*.expected")} == set(PAGES)
    assert len(PAGES) == 20


@pytest.mark.parametrize("page", PAGES)
def test_help_page_is_the_golden(page, monkeypatch, capsys):
    text = help_page(monkeypatch, capsys, [] if page == "boardwright" else [page])
    expected = HELP / f"{page}.expected"
    if REGENERATE:
        expected.write_text(text, encoding="utf-8")
    assert text == expected.read_text(encoding="utf-8")


def test_a_bare_boardwright_prints_the_top_page_and_exits_0(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "80")
    capsys.readouterr()
    assert main([]) == 0
    out, err = capsys.readouterr()
    assert (out, err) == ((HELP / "boardwright.expected").read_text(encoding="utf-8"), "")
