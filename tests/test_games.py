"""Every bundled game and variant: loads, plays seeded random games to the end at every
player count, and at every step the state round-trips through JSON, copies equal their
originals, and the rule file's invariants hold."""
from __future__ import annotations

import json
import random

import pytest

from boardwright.interpreter.run.state import State

from conftest import all_game_variants, cached_game, player_range

CASES = [(name, variant, players)
         for name, variant in all_game_variants()
         for players in range(player_range(name, variant)[0], player_range(name, variant)[1] + 1)]


@pytest.mark.slow
@pytest.mark.parametrize("name,variant,players", CASES, ids=[f"{n}-{v or 'base'}-{p}p" for n, v, p in CASES])
def test_random_game_runs_to_the_end_with_every_check(name, variant, players):
    game = cached_game(name, variant)
    rng = random.Random(f"{name}:{variant}:{players}")
    st = game.new_state(players, seed=7)
    steps = 0
    while not st.finished:
        data = st.to_json()
        text = json.dumps(data, sort_keys=True)
        back = State.from_json(json.loads(text))
        assert back == st
        assert json.dumps(back.to_json(), sort_keys=True) == text
        twin = st.copy()
        assert twin == st
        assert game.failing_invariants(st) == []
        decision = game.decision(st)
        assert decision.options, "a decision offers at least one option"
        assert len({o.id for o in decision.options}) == len(decision.options), "option ids are unique"
        game.apply_index(st, rng.randrange(len(decision.options)))
        steps += 1
    assert game.failing_invariants(st) == []
    result = game.result(st)
    assert len(result.scores) == players
    assert all(isinstance(s, int) for s in result.scores)
    assert set(result.winners) <= set(range(players))
    assert sum(st.turns) > 0 and steps == len(st.history)


@pytest.mark.parametrize("name,variant", all_game_variants())
def test_same_seed_and_choices_give_the_same_game(name, variant):
    """The seed decides every shuffle: the same seed and choices replay the same game, and
    another seed deals other decks. The random generator's own state is left out of the
    comparison: it differs with the seed even in a game that never shuffles."""
    game = cached_game(name, variant)
    players = game.min_players
    assert player_range(name, variant) == (game.min_players, game.max_players), "the player counts CASES covers"

    def play(seed):
        rng = random.Random(3)
        st = game.new_state(players, seed=seed)
        dealt = json.dumps(st.to_json()["zones"], sort_keys=True)
        for _ in range(60):
            if st.finished:
                break
            game.apply_index(st, rng.randrange(len(st.pending.values)))
        data = st.to_json()
        del data["rng"]
        return dealt, json.dumps(data, sort_keys=True)

    assert play(11) == play(11)
    assert play(11)[0] != play(12)[0], "the first decision's table and decks do not depend on the seed"
    assert play(11)[1] != play(12)[1]
