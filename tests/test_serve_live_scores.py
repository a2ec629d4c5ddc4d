"""Live score lines at the web table (cli/web/looks.py `live_scores`): before the end each
seat sees every player's score lines as it may know them. A line that counts what the seat
sees is exact (checked against sums worked out here from the cards); a line that hangs on
cards hidden from it shows "?", and nothing it is shown changes when only what it cannot see
changes (two positions that differ only in the other seat's hidden hand look alike to it)."""
from __future__ import annotations

from web_support import new_table, request, serving

from boardwright.cli.live_scores import UNKNOWN, live_scores
from boardwright.cli.web.looks import seat_view
from boardwright.interpreter.compile.load import load_game

CARDS = """\
provenance: test data
components:
  Card:
    label: "{name} ({value})"
    attributes: {name: str, value: int}
    items:
      - {name: Ash, value: 1}
      - {name: Birch, value: 2}
      - {name: Cedar, value: 3}
      - {name: Elm, value: 5}
      - {name: Fir, value: 8}
      - {name: Hazel, value: 13}
      - {name: Larch, value: 21}
      - {name: Oak, value: 34}
"""

# Two cards dealt to each hand from a shuffled deck; each seat plays one, face up.
RULES = """\
game "Hidden values"
players 2
data "cards.yaml"
zone deck: stack of Card hidden
zone hand: pile of Card per player owner
zone played: pile of Card per player public
setup {
  move components(Card) to deck
  shuffle deck
  for p in players { move top(deck) to hand[p]  move top(deck) to hand[p] }
}
play {
  for p in players { turn p { choose c from contents(hand[p]) prompt "Play a card"  move c to played[p] } }
}
score p {
  "Played": sum([c.value for c in contents(played[p])])
  "In hand": sum([c.value for c in contents(hand[p])])
}
"""


def hidden_values_game(folder):
    (folder / "cards.yaml").write_text(CARDS)
    (folder / "hidden.game").write_text(RULES)
    return folder / "hidden.game"


def value(game, c) -> int:
    return game.components[c]["value"]


def test_a_seat_sees_its_own_and_the_table_s_lines_and_a_question_mark_for_hidden_cards(tmp_path):
    game = load_game(hidden_values_game(tmp_path))
    st = game.new_state(2, 3)
    game.apply_index(st, 0)                 # seat 0 plays a card
    for seat in (0, 1):
        scores = live_scores(game, st, seat)
        assert scores["titles"] == ["Played", "In hand"]
        rows = {row["seat"]: dict(zip(scores["titles"], row["lines"])) for row in scores["players"]}
        for p in (0, 1):
            played = sum(value(game, c) for c in st.zones[f"played/{p}"])
            held = sum(value(game, c) for c in st.zones[f"hand/{p}"])
            assert rows[p]["Played"] == str(played)
            assert rows[p]["In hand"] == (str(held) if p == seat else UNKNOWN)
            total = next(row["total"] for row in scores["players"] if row["seat"] == p)
            assert total == (str(played + held) if p == seat else UNKNOWN)
    # A spectator knows only what is face up.
    spectator = live_scores(game, st, None)
    assert [row["lines"] for row in spectator["players"]] == [
        [str(sum(value(game, c) for c in st.zones[f"played/{p}"])), UNKNOWN] for p in (0, 1)]


def test_what_seat_1_is_shown_does_not_change_with_seat_0_s_hidden_hand(tmp_path):
    """Swap a card of seat 0's hand with one in the deck (both hidden from seat 1): seat 0's
    real score changes; seat 1's view, live scores included, stays the same."""
    game = load_game(hidden_values_game(tmp_path))
    for seed in range(1, 6):
        st = game.new_state(2, seed)
        other = st.copy()
        hand, deck = other.zones["hand/0"], other.zones["deck"]
        hand[0], deck[0] = deck[0], hand[0]
        other.loc[hand[0]], other.loc[deck[0]] = ("hand/0", None), ("deck", None)
        assert game.result(other).lines[0] != game.result(st).lines[0]
        assert seat_view(game, other, 1, ["human", "human"]) == seat_view(game, st, 1, ["human", "human"])
        assert live_scores(game, other, 1) == live_scores(game, st, 1)
        assert live_scores(game, other, 0) != live_scores(game, st, 0)   # seat 0 sees its own hand


def test_the_page_of_each_seat_carries_its_live_scores_and_the_end_the_result(tmp_path):
    table = new_table(tmp_path, str(hidden_values_game(tmp_path)), ["human", "human"], seed=2)
    with serving(table) as server:
        api = f"{server.url}/api"
        views = {seat: request(f"{api}/{table.tokens[str(seat)]}/view")[1] for seat in (0, 1)}
        for seat, view in views.items():
            assert view["scores"] == live_scores(table.game, table.st, seat)
        mine = {row["seat"]: row["lines"] for row in views[1]["scores"]["players"]}
        assert mine[0] == ["0", UNKNOWN] and mine[1][1] != UNKNOWN
        request(f"{api}/{table.tokens['0']}/choose", {"move": 0, "option": 0})
        request(f"{api}/{table.tokens['1']}/choose", {"move": 1, "option": 0})
        final = request(f"{api}/{table.tokens['1']}/view")[1]
    assert final["finished"] and "scores" not in final and "Final scores" in final["result"]


def placed_where_loc_says(st) -> bool:
    """Every component lies where its `loc` says (a pile's key, or a grid's key and cell)."""
    for key, zone in st.zones.items():
        places = [(c, None) for c in zone] if type(zone) is list else \
            [(c, cell) for cell, stack in zone.items() for c in stack]
        if any(st.loc[c][:2] != (key, cell) for c, cell in places):
            return False
    return True


GRID_RULES = """\
game "Hidden grid"
players 2
data "pieces.yaml"
zone vault: grid of KIND hidden size 3 x 3
zone shelf: pile of Piece public
setup {
  for c in components(KIND) if WHICH { move c to vault at (0, 0) }
  for c in components(Piece) if c.name == "bar" { move c to shelf }
}
play { choose n from [1, 2] by 0 prompt "Go on" }
"""


def test_blindfold_deals_hidden_cards_across_zones_and_keeps_every_place_filled(tmp_path):
    import random

    from boardwright.interpreter.bots.determinize import blindfold
    game = load_game(hidden_values_game(tmp_path))
    st = game.new_state(2, 3)
    hidden_from_1 = ["deck", "hand/0", "supply"]
    before = sorted(c for key in hidden_from_1 for c in st.zones[key])
    moved = set()
    for seed in range(8):
        d = blindfold(game, st, 1, random.Random(seed))
        assert placed_where_loc_says(d) and placed_where_loc_says(st)
        assert sorted(c for key in hidden_from_1 for c in d.zones[key]) == before
        assert {k: len(d.zones[k]) for k in d.zones} == {k: len(st.zones[k]) for k in st.zones}
        assert d.zones["hand/1"] == st.zones["hand/1"]          # what seat 1 sees stays
        moved |= set(d.zones["hand/0"]) - set(st.zones["hand/0"])
    assert moved, "seat 0's hand was never dealt other cards: it would tell its total"


def test_blindfold_deals_a_hidden_grid_cell_by_cell_but_not_a_shaped_piece(tmp_path):
    import random

    from boardwright.interpreter.bots.determinize import blindfold
    from test_shapes import DATA as SHAPES_DATA
    (tmp_path / "pieces.yaml").write_text(SHAPES_DATA)
    rules = {"shaped": GRID_RULES.replace("KIND", "Piece").replace("WHICH", 'c.name == "tee"'),
             "plain": GRID_RULES.replace("KIND", "Token").replace("WHICH", "c.n == 1")}
    (tmp_path / "shaped.game").write_text(rules["shaped"])
    shaped = load_game(tmp_path / "shaped.game")
    assert blindfold(shaped, shaped.new_state(2, 1), 0, random.Random(1)) is None
    (tmp_path / "plain.game").write_text(rules["plain"])
    game = load_game(tmp_path / "plain.game")
    st = game.new_state(2, 1)
    d = blindfold(game, st, 0, random.Random(1))
    assert placed_where_loc_says(d) and list(d.zones["vault"]) == [(0, 0)] and len(d.zones["vault"][(0, 0)]) == 1
    assert d.zones["shelf"] == st.zones["shelf"]
