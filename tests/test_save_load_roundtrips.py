"""Save and load across every bundled game and variant, with a param set and bots at the
table: a game saved, loaded (`play --load`) and played on makes exactly the moves, and
reaches exactly the state, of the same game played without the interruption."""
from __future__ import annotations

import argparse
import json

import pytest

from boardwright.cli.play import start_session
from boardwright.interpreter.compile.load import load_game

from conftest import all_game_variants, player_range

# One param per game that changes play from the first turns, so a resumed game that lost
# it plays differently (or is refused as damaged).
PARAMS = {"punto": "rounds_to_win=1", "happy-city": "start_coins=5", "point-city": "turns_each=15",
          "urban-panic": "actions_per_turn=4"}
# MCTS with short playouts: the games' declared settings (whole games, whole moves) would make
# one Point City game take a minute, and what is tested here is that its state survives a save.
BOTS = ["greedy", "mcts:iterations=8:depth=6:whole=0", "random"]
BEFORE_SAVE, AFTER_SAVE = 3, 4          # the human's moves before the save, and after the load


CASES = [(name, variant, players)
         for name, variant in all_game_variants()
         for players in sorted(set(player_range(name, variant)))]


def args(**given) -> argparse.Namespace:
    base = {"load": None, "log": None, "game": None, "variant": None, "set": None, "players": None,
            "seats": None, "seed": 0}
    return argparse.Namespace(**{**base, **given})


def run(session, inputs: list) -> None:
    """Drive a session: the human's lines from `inputs`, then end of input."""
    lines = iter(inputs)

    def ask(prompt=""):
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None
    session.ask, session.out = ask, lambda text: None
    session.run()


def new_session(name, variant, players):
    seats = ",".join(["human"] + [BOTS[i % len(BOTS)] for i in range(players - 1)])
    return start_session(args(game=name, variant=variant, set=[PARAMS[name]], players=players, seats=seats,
                              seed=5), load_game)


@pytest.mark.slow
@pytest.mark.parametrize("name,variant,players", CASES, ids=[f"{n}-{v or 'base'}-{p}p" for n, v, p in CASES])
def test_a_saved_variant_game_resumes_as_that_variant(tmp_path, name, variant, players):
    whole = new_session(name, variant, players)
    run(whole, ["1"] * (BEFORE_SAVE + AFTER_SAVE) + ["quit"])

    first = new_session(name, variant, players)
    save = tmp_path / "game.save"
    run(first, ["1"] * BEFORE_SAVE + [f"save {save}", "quit"])
    saved = json.loads(save.read_text())
    assert saved["variant"] == variant and saved["params"] == dict([PARAMS[name].split("=")])

    resumed = start_session(args(load=str(save)), load_game)
    assert resumed.setup["variant"] == variant and resumed.game.variant == whole.game.variant
    assert (whole.game.variant is None) == (variant is None)
    assert resumed.game.param_overrides == whole.game.param_overrides != {}
    assert resumed.st == first.st
    run(resumed, ["1"] * AFTER_SAVE + ["quit"])

    assert not first.st.finished and len(whole.moves) >= BEFORE_SAVE + AFTER_SAVE
    assert [(m["player"], m["id"]) for m in resumed.moves] == [(m["player"], m["id"]) for m in whole.moves]
    assert json.dumps(resumed.st.to_json(), sort_keys=True) == json.dumps(whole.st.to_json(), sort_keys=True)
