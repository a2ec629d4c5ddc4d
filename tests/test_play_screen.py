"""The play screen: briefs, `show` moments, labelled vars, seats as players, 80 columns,
hints that tell options apart, and a clean `quit`."""
from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest

from boardwright.cli.main import main
from boardwright.cli.play import Session
from boardwright.dsl.errors import RuleFileError
from boardwright.interpreter.compile.load import load_game


def play(capsys, monkeypatch, *argv, stdin=""):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    monkeypatch.setenv("COLUMNS", "80")
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_punto_tells_each_player_their_colours_and_line_length(capsys, monkeypatch):
    code, out, _ = play(capsys, monkeypatch, "punto", "--players", "2", "--seats", "human,random", "--seed", "1",
                        stdin="help\nquit\n")
    assert code == 0
    flat = " ".join(out.split())
    # The rulebook: at two players, one player has red and blue; lines of five win.
    assert flat.count("Player 1: You play red and blue") == 2          # at the start and on `help`
    assert "a line of 5 cards" in flat
    assert out.rstrip().endswith("Goodbye: the game is abandoned.")


def test_team_brief_names_the_partner(capsys, monkeypatch):
    code, out, _ = play(capsys, monkeypatch, "punto", "--variant", "team", "--players", "4", "--seats",
                        "random,human,random,random", stdin="quit\n")
    flat = " ".join(out.split())
    assert code == 0 and "Player 2: You play green and yellow, shared with your partner Player 4" in flat


def test_a_show_statement_draws_the_winning_table_and_pauses(capsys, monkeypatch):
    game = load_game("punto")
    shown, pauses = [], []
    setup = {"game": "punto", "variant": None, "params": {}, "players": 2, "seed": 4,
             "seats": ["random", "random"]}
    Session(game, setup, game.new_state(2, 4), out=shown.append, pause=pauses.append).run()
    text = "\n".join(shown)
    titles = re.findall(r"^== (Round \d+ .*)$", text, re.M)
    assert titles and titles == pauses
    first = text.index("== " + titles[0])
    table = text[first:text.index("\n\n", first) if "\n\n" in text[first:] else len(text)]
    assert "table:" in table, "the table is shown as the round ends, before its cards go back"
    assert "Won the last round: Player" in table or "nobody won it" in titles[0]


def test_bots_and_simulations_never_call_the_screen():
    game = load_game("punto")
    calls = []
    game.on_show = lambda st, title: calls.append(title)
    from boardwright.interpreter.playtest.simulate import play_game
    play_game(game, 2, 4)
    assert calls, "the hook runs when someone listens"
    game.on_show = None
    play_game(game, 2, 4)           # and nothing breaks when nobody does


def test_no_raw_var_names_or_zero_based_seats_on_screen(capsys, monkeypatch):
    code, out, _ = play(capsys, monkeypatch, "punto", "--players", "2", "--seats", "human,random", stdin="quit\n")
    assert code == 0 and "Round starter: Player 1" in out
    for raw in ("starter", "round_winner", "rounds", "wins"):
        assert not re.search(rf"^{raw}:", out, re.M)
    code, out, _ = play(capsys, monkeypatch, "urban-panic", "--players", "2", "--seats", "human,random",
                        stdin="quit\n")
    assert code == 0 and "architect_done" not in out and "False" not in out
    assert "Architect taken this turn: no" in out


@pytest.mark.slow
@pytest.mark.parametrize("game", ["happy-city", "urban-panic", "point-city", "punto"])
def test_every_bundled_game_fits_80_columns_to_the_end(capsys, monkeypatch, game):
    code, out, _ = play(capsys, monkeypatch, game, "--players", "2", "--seats", "random,random", "--seed", "2")
    assert code == 0 and "== Final scores" in out
    wide = [line for line in out.splitlines() if len(line) > 80]
    assert not wide, wide[:3]


def test_every_bundled_game_has_a_brief_and_a_show():
    checked = []
    for folder in sorted((Path(__file__).resolve().parents[1] / "games").iterdir()):
        if folder.is_dir() and (folder / f"{folder.name}.game").exists():
            checked.append(folder.name)
            game = load_game(folder.name)
            assert game.brief is not None, folder.name
            assert "show " in (folder / f"{folder.name}.game").read_text(), folder.name
    assert checked == ["happy-city", "point-city", "punto", "urban-panic"]


@pytest.mark.slow
def test_hint_ranks_options_by_a_search_that_tells_them_apart(capsys, monkeypatch):
    code, out, _ = play(capsys, monkeypatch, "punto", "--players", "2", "--seats", "human,random", "--seed", "7",
                        stdin="1\nhint\nquit\n")
    rows = [tuple(map(float, m)) for m in re.findall(r"^\s+\d+\. .+?\s+(\d+)\s+([01]\.\d{3})$", out, re.M)]
    assert code == 0 and len(rows) >= 5
    visits = [v for v, _ in rows]
    assert visits == sorted(visits, reverse=True), "best first"
    assert len(set(visits)) > 1 and len({value for _, value in rows}) > 1, "the search tells options apart"


def test_brief_must_be_a_text_and_var_labels_parse(tmp_path):
    base = Path(__file__).resolve().parents[1] / "games" / "punto"
    (tmp_path / "cards.yaml").write_text((base / "cards.yaml").read_text())
    source = (base / "punto.game").read_text()
    (tmp_path / "bad.game").write_text(source.replace('brief p = "You play', 'brief p = 3 + len("You play'
                                                                        ).replace('take the match."', 'take the match.")', 1))
    with pytest.raises(RuleFileError) as info:
        load_game(tmp_path / "bad.game")
    assert "brief" in info.value.format()
    (tmp_path / "hidden.game").write_text(source.replace('"Round starter"', '""'))
    game = load_game(tmp_path / "hidden.game")
    assert game.var_display["starter"] == "" and game.var_display["wins"] == "Rounds won"
