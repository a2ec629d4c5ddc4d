"""Every option of every command against docs/cli.md, by a walk over the argparse parsers (so
a new option, or a changed default, without docs fails here): the command is in the page's
table of commands and has its own section; each option's long name is in the command's
synopsis, each other name of it (`-q`, `--bots` for `--seats`) in its section; each default
is stated there ("(default 100)", "`--trials N` (30)", "`--port P` | the port (default
8765)"), or for `--seed`, `--workers` and `-q` once in "Conventions"; each choice list is in
the synopsis (`text|json`). tests/test_mutants_round5.py and round6 check the metavars and
that every number the docs call a default is one; tests/test_cli_help_pages.py pins the
help pages whole."""
from __future__ import annotations

import argparse
import re
from pathlib import Path

from boardwright.cli.main import build_parser

DOCS = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")
SECTIONS = {m.group(1): re.split(r"^## ", DOCS[m.end():], maxsplit=1, flags=re.M)[0]
            for m in re.finditer(r"^## (\w+)\n", DOCS, re.M)}


def commands() -> dict:
    return next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)).choices


def synopses(name: str) -> str:
    """The command's synopsis blocks: the text blocks of its section that start with the command."""
    return "\n".join(block for block in re.findall(r"```text\n(.*?)```", SECTIONS[name], re.S)
                     if block.startswith(f"boardwright {name}"))


def paragraphs(text: str) -> list:
    """Paragraphs, list items and table rows: the units a default is stated in."""
    return re.split(r"\n\s*\n|\n(?=\| )|\n(?=- )", text)


def default_stated(name: str, action) -> bool:
    long = next(o for o in action.option_strings if o.startswith("--"))
    shown = {str(action.default)} | ({f"{action.default:,}"} if type(action.default) is int else set())
    values = "|".join(re.escape(v) for v in sorted(shown))
    told = [p for p in paragraphs(SECTIONS[name]) + paragraphs(SECTIONS["Conventions"])
            if f"`{long}" in p or (action.metavar and f"`{action.metavar}`" in p)]
    patterns = (rf"default:?\s`?({values})`?(?![\w.])", rf"\(`?({values})`?[),]", rf"`{re.escape(long)} ({values})`")
    return any(re.search(pattern, p) for pattern in patterns for p in told) or \
        re.search(rf"\[{re.escape(long)} ({values})\]", synopses(name)) is not None


def test_every_command_has_a_line_in_the_table_and_a_section():
    table = re.findall(r"^\| \[`(\w+)`\]\(#\1\) \| ", DOCS, re.M)
    assert sorted(table) == sorted(commands())
    assert set(commands()) <= set(SECTIONS)
    for name in commands():
        assert synopses(name), f"{name}: no synopsis block starting 'boardwright {name}'"


def options():
    """(command, action) of every option of every command, --help left out."""
    for name, parser in commands().items():
        for action in parser._actions:
            if action.option_strings and not isinstance(action, argparse._HelpAction):
                yield name, action


def test_every_option_and_its_choices_are_in_its_commands_synopsis_and_section():
    checked = 0
    for name, action in options():
        long = next(o for o in action.option_strings if o.startswith("--"))
        assert re.search(rf"\[?{re.escape(long)}(?![\w-])", synopses(name)), f"{name} {long}: not in the synopsis"
        for other in set(action.option_strings) - {long}:
            assert re.search(rf"`{re.escape(other)}[` ]", SECTIONS[name] + SECTIONS["Conventions"]), \
                f"{name} {other}: not in its section"
        if action.choices:          # `--format text|json`
            assert f"{long} {'|'.join(action.choices)}" in synopses(name), f"{name} {long}: its choices"
        checked += 1
    assert checked >= 120


def test_every_default_is_stated_in_the_docs():
    checked = 0
    for name, action in options():
        if action.default not in (None, False, argparse.SUPPRESS):
            assert default_stated(name, action), f"{name} {action.option_strings[0]}: default " \
                                                 f"{action.default} not stated in docs/cli.md"
            checked += 1
    assert checked >= 40

