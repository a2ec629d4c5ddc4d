"""Next round's first tests (docs/testing.md "Round 9: two fresh samples"): survivors of the
fresh samples of seeds 32 and 33, each pinned by its kind and seen failing with it planted."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from boardwright.cli import tune_bot_command
from boardwright.cli.main import main

DOCS = Path(__file__).resolve().parent.parent / "docs" / "cli.md"


class Called(BaseException):
    """Raised by the stand-in search with what the command handed it."""


def tune_bot_section() -> str:
    text = DOCS.read_text()
    start = text.index("boardwright tune GAME --bot mcts [--variant NAME]")
    end = text.find("\n## ", start)
    return text[start:end if end > 0 else len(text)]


def test_tune_bot_hands_the_search_every_default_its_docs_give(monkeypatch):
    """`tune GAME --bot mcts` with no other option plays the search docs/cli.md describes:
    each `--OPTION X (default)` of its section (trials 30, games 40, batch 8, 0.25 s a decision,
    3 confirmed on 100 games each, seed 1, greedy). Seed 32's survivor dropped `--trials`'
    default: the search got `trials=None`."""
    documented = dict(re.findall(r"`--([a-z-]+) [A-Z]+` \(([0-9.]+)[,)]", tune_bot_section()))
    assert {"trials", "games", "batch", "decision-seconds", "confirm", "confirm-games"} <= set(documented)

    def search(game, ref, bot, opponent, budget, trials, games, batch, confirm, confirm_games, seed,
               workers, cluster, progress=None, puzzles=None):
        raise Called(dict(bot=bot, opponent=opponent, **{"decision-seconds": budget}, trials=trials, games=games,
                          batch=batch, confirm=confirm, **{"confirm-games": confirm_games}, seed=seed,
                          workers=workers, cluster=cluster))

    monkeypatch.setattr(tune_bot_command, "tune_bot", search)
    with pytest.raises(Called) as called:
        main(["tune", "punto", "--bot", "mcts", "--quiet"])
    handed = called.value.args[0]
    for name, default in documented.items():
        assert handed[name] == type(handed[name])(default) and float(handed[name]) == float(default), name
    assert (handed["bot"], handed["opponent"], handed["seed"], handed["workers"], handed["cluster"]) == \
        ("mcts", "greedy", 1, 1, None)


@pytest.mark.parametrize("paired", [0, 1])
def test_a_search_limited_by_time_searches_until_its_time_is_up(paired):
    """`mcts:seconds=S` searches for S seconds, the paired search too: many rounds, not just the
    first (seed 33's survivor: the loop's `or done == 0` made `and`, which stops after one)."""
    from boardwright.interpreter.bots.registry import make_bot
    from conftest import cached_game
    game = cached_game("punto")
    st = game.new_state(2, 3)
    while len(st.pending.values) < 2:
        game.apply_index(st, 0)
    bot = make_bot(f"mcts:seconds=0.2:width=2:depth=2:paired={paired}", 5, game)
    bot.meter = [0.0, 0]
    bot.choose(game, st)
    # more iterations than one round over every option (a paired round plays each option once)
    assert bot.meter[1] > 2 * len(st.pending.values), bot.meter


@pytest.mark.parametrize("typed, shown", [
    ("x" * 40, "x" * 40),                                   # up to 40 characters: as typed
    ("abcdefghij" * 5, "abcdefghij" * 4 + "..."),          # longer: its first 40 and "..."
])
def test_an_entry_that_is_no_option_is_quoted_at_most_40_characters_long(typed, shown, capsys, monkeypatch):
    """`play` quotes a wrong entry back, cut to 40 characters and "..." (seed 33's survivor:
    `line[:40] - "..."`, a TypeError for any entry over 40 characters)."""
    import io
    import sys
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{typed}\nquit\n"))
    code = main(["play", "punto", "--players", "2", "--seats", "human,random", "--seed", "3"])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    assert f"'{shown}' is not one of the options" in " ".join(out.split())


def test_an_options_help_states_its_default_once():
    """`COMMAND --help` adds "(default: X)" to an option whose help does not state its default
    already, and only to those (seed 33's survivor: the check for a help that says "default"
    broken, so such options said it twice)."""
    import argparse
    from boardwright.cli.main import build_parser
    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    shown = said = 0
    for name, parser in commands.choices.items():
        formatter = parser._get_formatter()
        for action in parser._actions:
            if not action.option_strings or action.help in (None, argparse.SUPPRESS):
                continue
            expanded = formatter._expand_help(action)
            where = f"{name} {'/'.join(action.option_strings)}: {expanded}"
            assert expanded.count("default") <= 1, where
            if action.default not in (None, False, argparse.SUPPRESS) and "default" not in action.help:
                assert expanded.endswith(f"(default: {action.default})"), where
                shown += 1
            elif "default" not in action.help:
                assert "(default" not in expanded, where      # no default worth printing (none, off)
            said += "default" in action.help
    assert shown > 20 and said > 5, (shown, said)      # both kinds are there to be checked
