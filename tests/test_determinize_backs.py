"""A component kind's `back` (what anyone can tell of it face down) limits what a bot's
determinization may swap: Point City's deck is stacked by tier, so an imagined deck must
keep every tier where it lies, and a data file naming an unknown attribute as `back` is a
positioned error. Per-component variables tell components apart too (a card's owner)."""
import random
import subprocess
import sys

from boardwright.interpreter.compile.load import load_game
from boardwright.interpreter.bots.determinize import determinize

from conftest import cached_game, make_small_game


def tiers(game, pile) -> list:
    return [game.components[c]["tier"] for c in pile]


def test_a_deck_stacked_by_tier_stays_stacked_by_tier_when_a_bot_imagines_it():
    game = cached_game("point-city")
    st = game.new_state(2, seed=3)
    deck = st.zones["deck"]
    assert sorted(set(tiers(game, deck))) == [1, 2, 3]     # the rulebook's three tiers, 3 at the bottom
    reordered = 0
    for bot_seed in range(6):
        d = determinize(game, st, 0, random.Random(bot_seed))
        assert tiers(game, d.zones["deck"]) == tiers(game, deck), f"bot seed {bot_seed}: a tier moved"
        assert sorted(d.zones["deck"]) == sorted(deck) and d.zones["deck"][-1] == deck[-1]
        reordered += d.zones["deck"] != deck
    assert reordered == 6, "the hidden order within a tier was not resampled"


def test_a_kind_without_a_back_is_reshuffled_as_a_whole(tmp_path):
    game = make_small_game_with_back(tmp_path, None)
    st = game.new_state(2, seed=1)
    suits = [[game.components[c]["suit"] for c in determinize(game, st, 0, random.Random(s)).zones["deck"]]
             for s in range(8)]
    assert len({tuple(x) for x in suits}) > 1 and any(x != sorted(x) for x in suits)


def test_a_kind_with_a_back_keeps_each_back_at_its_place(tmp_path):
    game = make_small_game_with_back(tmp_path, "[suit]")
    st = game.new_state(2, seed=1)
    before = [game.components[c]["suit"] for c in st.zones["deck"]]
    changed = 0
    for s in range(8):
        d = determinize(game, st, 0, random.Random(s))
        assert [game.components[c]["suit"] for c in d.zones["deck"]] == before
        changed += d.zones["deck"] != st.zones["deck"]
    assert changed > 0, "cards alike in their back were never swapped"


_RULES = """
    game "Backs"
    players 2
    data "cards.yaml"
    zone deck: stack of Card hidden
    zone hand: pile of Card per player public
    setup { for c in components(Card) { move c to deck }  shuffle deck }
    play { while size(deck) > 0 { turn 0 {
      choose c from [top(deck)] prompt "Draw"
      move c to hand[0]
    } } }
    score p { "cards": size(hand[p]) }
"""


def make_small_game_with_back(folder, back):
    """The game above; with `back`, its Card kind declares that back."""
    game = make_small_game(folder, _RULES)
    if back is None:
        return game
    data = (folder / "cards.yaml").read_text().replace("    attributes:", f"    back: {back}\n    attributes:", 1)
    (folder / "cards.yaml").write_text(data)
    return load_game(folder / "g.game")


def test_a_back_naming_an_unknown_attribute_is_a_positioned_error(tmp_path):
    make_small_game(tmp_path, _RULES)
    data = tmp_path / "cards.yaml"
    text = data.read_text().replace("    attributes:", "    back: [siut]\n    attributes:", 1)
    data.write_text(text)
    line = text.splitlines().index("    back: [siut]") + 1
    run = subprocess.run([sys.executable, "-m", "boardwright", "validate", str(tmp_path / "g.game")],
                         capture_output=True, text=True)
    assert run.returncode == 1, run.stderr
    out = run.stdout + run.stderr
    assert f"cards.yaml:{line}:" in out and "'back' names the unknown attribute 'siut' of Card" in out
    assert "suit" in out and "E705" in out and "Traceback" not in out


HIDDEN_GRID = """\
game "Face down"
players 2
data "cards.yaml"
zone secret: grid hidden
zone open: grid
setup {
  for c in components(Card) {
    if c.rank == 1 { move c to secret at (c.rank, if c.suit == hearts then 0 else 1) }
    elif c.rank == 2 { move c to secret at (c.rank, if c.suit == hearts then 0 else 1) }
    else { move c to open at (0, if c.suit == hearts then 0 else 1) }
  }
}
play { turn 0 { choose x from [1, 2] prompt "Pick" } }
"""


def test_a_hidden_grid_is_imagined_cell_by_cell_and_a_public_one_is_not(tmp_path):
    game = make_small_game(tmp_path, HIDDEN_GRID)
    st = game.new_state(2, seed=1)
    cells = {cell: stack[:] for cell, stack in st.zones["secret"].items()}
    assert len(cells) == 4                      # hearts and spades of ranks 1 and 2, face down
    arrangements = set()
    for bot_seed in range(12):
        d = determinize(game, st, 0, random.Random(bot_seed))
        secret = d.zones["secret"]
        assert set(secret) == set(cells) and all(len(stack) == 1 for stack in secret.values())
        assert sorted(c for stack in secret.values() for c in stack) == sorted(c for s in cells.values() for c in s)
        for cell, stack in secret.items():       # every component knows where it now lies
            assert d.loc[stack[0]] == ("secret", cell)
        assert d.zones["open"] == st.zones["open"]
        arrangements.add(tuple(secret[cell][0] for cell in sorted(cells)))
    assert len(arrangements) > 1, "the hidden grid's cards never changed places"
    assert st.zones["secret"] == cells           # the real position is untouched


def _imagined_orders(column: list, seeds=range(20)) -> list:
    """The orders `_reshuffle` gives a face-down pile of 8 alike components 0..7 whose one
    per-component variable holds `column[c]`."""
    from types import SimpleNamespace
    from boardwright.interpreter.bots.determinize import _reshuffle
    game = SimpleNamespace(backs=["card"] * 8, per_component_vars=["owner"])
    orders = []
    for seed in seeds:
        pile = list(range(8))
        _reshuffle(game, SimpleNamespace(vars={"owner": column}), [(pile, i) for i in range(8)],
                   random.Random(seed))
        orders.append(pile)
    return orders


def test_components_a_per_component_variable_tells_apart_never_change_places():
    # Values count as different when they print differently, 1 and True too.
    for column in ([0, 0, 0, 0, 1, 1, 1, 1], [1, 1, 1, 1, True, True, True, True]):
        orders = _imagined_orders(column)
        assert all(sorted(order[:4]) == [0, 1, 2, 3] for order in orders), column
        assert any(order[:4] != [0, 1, 2, 3] for order in orders)


def test_a_per_component_variable_alike_for_all_leaves_the_whole_pile_to_shuffle():
    orders = _imagined_orders([2] * 8)
    assert all(sorted(order) == list(range(8)) for order in orders)
    assert any(set(order[:4]) != {0, 1, 2, 3} for order in orders)
