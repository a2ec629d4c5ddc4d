"""Simultaneous decisions (`choose NAME from LIST by each P in PLAYERS`) on the sealed-bid
example of docs/examples/sealed-bid: choices stay sealed until the last one is made, then are
revealed together; views, bots, saved states, check and play never show another player's
sealed choice."""
from __future__ import annotations

import json
import random
import textwrap
from pathlib import Path

import pytest

from boardwright.cli.play import Session
from boardwright.dsl.errors import RuleFileError
from boardwright.interpreter.compile.load import load_game
from boardwright.interpreter.bots.determinize import determinize
from boardwright.interpreter.bots.mcts import MCTSBot
from boardwright.interpreter.testing.check import PropertyFailed, state_properties
from boardwright.interpreter.testing.scenario import run_scenario
from boardwright.interpreter.run.state import State

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "sealed-bid"
GAME = str(EXAMPLE / "sealed-bid.game")


def game():
    return load_game(GAME)


def after_bids(bids: list, players: int = 3):
    g = game()
    st = g.new_state(players, 1)
    for bid in bids:
        g.apply(st, str(bid))
    return g, st


@pytest.mark.parametrize("path", sorted((EXAMPLE / "scenarios").glob("*.scenario.yaml")), ids=lambda p: p.stem)
def test_the_example_scenarios_pass(path):
    outcome = run_scenario(path)
    assert outcome.passed, outcome.failures


def test_everyone_is_asked_in_turn_and_the_bids_arrive_together_as_a_list_by_seat():
    g, st = after_bids([])
    lot = g.labels[st.zones["lots"][-1]]
    assert g.decision(st).player == 0
    g.apply(st, "3")
    assert g.decision(st).player == 1 and st.vars["coins"] == [6, 6, 6]     # nothing revealed yet
    assert f"Bids:" not in " ".join(st.log)
    g.apply(st, "5")
    assert g.decision(st).player == 2
    g.apply(st, "1")
    assert f"Bids: [3, 5, 1]" in st.log
    assert st.vars["coins"] == [6, 1, 6] and st.sealed.chosen == ()     # the next lot's bids begin
    assert any(f"Player 2 buys {lot}" in line for line in st.log)


def test_a_view_does_not_depend_on_another_players_sealed_choice():
    for bid in range(7):
        g, st = after_bids([bid])
        seen = g.observe(st, 1)
        assert seen["sealed"] == {"players": [0, 1, 2], "chosen": [0], "yours": None}
        if bid == 0:
            first = seen
        assert seen == first                 # Player 2 sees the same whatever Player 1 bid
    g, st = after_bids([4])
    assert g.observe(st, 0)["sealed"]["yours"] == "4 coins"


def test_check_finds_a_view_that_leaks_a_sealed_choice(monkeypatch):
    g, st = after_bids([2, 5])
    state_properties(g, st)                  # holds as written
    observe = type(g).observe

    def leaky(self, state, player):
        seen = observe(self, state, player)
        if state.sealed is not None:
            seen["bids"] = [v for _, v in state.sealed.chosen]
        return seen
    monkeypatch.setattr(type(g), "observe", leaky)
    with pytest.raises(PropertyFailed, match="sealed choice"):
        state_properties(g, st)


def test_a_searching_bot_does_not_see_the_others_sealed_choices():
    g, st = after_bids([6])                  # Player 1 bid everything
    d = determinize(g, st, 1, random.Random(1))
    assert d.sealed.chosen == ()             # in the bot's copy, Player 1 has not chosen yet
    choices = set()
    for bid in range(7):
        g, st = after_bids([bid])
        choices.add(MCTSBot(7, iterations=60).choose(g, st))
    assert len(choices) == 1                 # the same seed decides the same, whatever was bid


def test_a_state_with_sealed_choices_survives_json_and_copy():
    g, st = after_bids([2])
    back = State.from_json(json.loads(json.dumps(st.to_json())))
    assert back == st and st.copy() == st
    g.apply(back, "3")
    g.apply(back, "0")
    assert "Bids: [2, 3, 0]" in back.log


def test_nobody_to_ask_reveals_an_empty_list_at_once(tmp_path):
    (tmp_path / "lots.yaml").write_text((EXAMPLE / "lots.yaml").read_text())
    (tmp_path / "g.game").write_text(textwrap.dedent("""\
        game "Nobody"
        players 2
        data "lots.yaml"
        var got: list of int = [7]
        play {
          choose n from [1, 2] by each p in [q for q in players if q > 5]
          got = [if x == none then 0 else x for x in n]
        }
    """))
    st = load_game(str(tmp_path / "g.game")).new_state(2, 1)
    assert st.finished and st.vars["got"] == [0, 0]


def test_the_checker_wants_a_list_of_players_and_gives_a_list_after(tmp_path):
    (tmp_path / "lots.yaml").write_text((EXAMPLE / "lots.yaml").read_text())
    (tmp_path / "bad.game").write_text(textwrap.dedent("""\
        game "Bad"
        players 2
        data "lots.yaml"
        var total: int = 0
        play {
          choose n from [1, 2] by each p in 3
          choose m from [1, 2] by each q in players
          total = m + 1
        }
    """))
    with pytest.raises(RuleFileError) as err:
        load_game(str(tmp_path / "bad.game"))
    text = err.value.format() if hasattr(err.value, "format") else str(err.value)
    assert "simultaneous choice should be list of player, not int" in text
    assert "list of int" in text             # m is a list by seat after the statement


def test_hot_seat_play_hides_a_bots_sealed_choice_and_hands_over_between_humans():
    g = game()
    shown: list = []
    typed = iter(["4", "", "2", "quit"])
    session = Session(g, {"seats": ["human", "human", "random"], "seed": 1, "players": 3},
                      g.new_state(3, 1), out=shown.append, ask=lambda prompt: next(typed))
    session.run()
    text = "\n".join(shown)
    assert "pass the keyboard to Player 2" in text
    assert "Player 3 (random): Player 3, your sealed bid" in text and "-> a sealed choice" in text
    assert "sealed choices: made by Player 1; waiting for Player 2, Player 3" in text


def test_the_greedy_bot_judges_a_sealed_choice_after_guessing_the_others():
    """Its own sealed choice changes nothing until all are revealed, so greedy completes the
    decision with random guesses for the others before judging: its values then differ."""
    from boardwright.interpreter.bots.simple import GreedyBot
    g, st = after_bids([], players=2)
    values = GreedyBot(3).values(g, st)
    assert len(set(values)) > 1, values
    assert st.sealed.chosen == () and g.decision(st).player == 0      # the real state is untouched
