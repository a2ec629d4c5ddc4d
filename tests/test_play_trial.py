"""What the trial at 80 x 30 asked of the play screen (docs/playtesting.md, "Trial"): an
option that is a component shows the component's data `details` (Happy City's discard names
the card only; its cost is what decides), and `score` shows the score lines now, as the
seat to move may know them (cli/live_scores.py)."""
from __future__ import annotations

import io
import sys

from test_serve_live_scores import hidden_values_game

from boardwright.cli.main import main
from boardwright.cli.option_pages import described_option
from boardwright.interpreter.compile.load import load_game


def play(capsys, monkeypatch, *argv, stdin=""):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "30")
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def first_decision(prompt: str):
    """Happy City (seed 4), its first option taken until a decision whose prompt starts so."""
    game = load_game("happy-city")
    st = game.new_state(2, 4)
    for _ in range(200):
        decision = game.decision(st)
        if decision.prompt.startswith(prompt):
            return game, st, decision
        game.apply_index(st, 0)
    raise AssertionError(f"no decision '{prompt}...'")


def test_a_discard_from_the_display_shows_each_card_s_cost():
    game, st, decision = first_decision("Discard a building")
    shown = [described_option(game, st, o) for o in decision.options]
    assert shown[0] == decision.options[0].label == "Keep the display"      # no component
    for option, text in zip(decision.options[1:], shown[1:]):
        card = option.value
        data = game.components[card]
        # The data file's own numbers, in the words of its `details` template.
        assert text.startswith(option.label + " — ")
        assert f"cost {data['cost']}, {data['colour']}" in text and f"hearts {data['hearts']}" in text


def test_a_label_that_says_the_details_already_is_not_lengthened():
    game, st, decision = first_decision("Build")
    # "Build Bakery (cost 3, ...)": the label holds the details; the option is shown as it is.
    assert [described_option(game, st, o) for o in decision.options] == [o.label for o in decision.options]


def test_score_shows_the_lines_now_with_a_question_mark_for_the_hidden_hand(capsys, monkeypatch, tmp_path):
    path = hidden_values_game(tmp_path)
    code, out, _ = play(capsys, monkeypatch, str(path), "--seats", "human,human", "--seed", "3",
                        stdin="score\nquit\n")
    assert code == 0
    game = load_game(path)
    st = game.new_state(2, 3)
    mine = sum(game.components[c]["value"] for c in st.zones["hand/0"])
    block = out[out.index("Scores now:"):].splitlines()
    assert block[1].split() == ["Player", "1", "Player", "2"]
    assert block[2].split() == ["Played", "0", "0"]
    assert block[3].split() == ["In", "hand", str(mine), "?"]
    assert block[4].split() == ["Total", str(mine), "?"]
    assert "cards you cannot see" in block[5]
