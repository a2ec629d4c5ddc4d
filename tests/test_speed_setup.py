"""Cheaper game starts: filters of `components(K)` by an attribute read from a table built
once, the vars' start values worked out once per player count, the zones of a new state from
a template. Each test checks the engine against plain Python over the same data, or against
the values a fresh computation must give."""
from __future__ import annotations

import textwrap

import pytest

from boardwright.dsl.errors import RuleError
from boardwright.interpreter.compile.load import load_game
from boardwright.interpreter.run.builtins import Problem
from boardwright.interpreter.run.runtime import with_attribute
from conftest import SMALL_DATA, small_game_file

DATA = SMALL_DATA.split("    attributes:")[0] + """\
    attributes: {suit: Suit, rank: int, face: bool, marks: list of int}
    defaults: {face: false, marks: []}
    items:
      - {suit: spades, rank: 1, marks: [1]}
      - {suit: hearts, rank: 2, face: true}
      - {suit: spades, rank: 2, marks: [2, 1]}
      - {suit: hearts, rank: 1}
      - {suit: spades, rank: 3, face: true}
      - {suit: hearts, rank: 3, marks: [1]}
"""

FILTERS = """\
    game "Filters"
    players 1..3
    data "cards.yaml"
    param wanted = spades
    zone box: stack
    var by_suit: list of Card = []
    var twos: list of Card = []
    var high_faces: list of Card = []
    var marked: list of Card = []
    var per_rank: list of int = []
    var seat_rank: list of Card = []
    var ranks_of_hearts: list of int = []
    var own_marks: list of Card = []
    play {
      by_suit = [c for c in components(Card) if c.suit == wanted]
      twos = [c for c in components(Card) if 2 == c.rank]
      high_faces = [c for c in components(Card) if c.face == true and c.rank > 2]
      marked = [c for c in components(Card) if c.marks == [1]]
      for r in range(1, 4) {
        per_rank = per_rank + [len([c for c in components(Card) if c.rank == r])]
      }
      seat_rank = [c for c in components(Card) if c.rank == player_count]
      ranks_of_hearts = [c.rank for c in components(Card) if c.suit == hearts]
      own_marks = [c for c in components(Card) if c.rank == len(c.marks)]
    }
    """


def _game(tmp_path, rules=FILTERS):
    return load_game(small_game_file(tmp_path, textwrap.dedent(rules), DATA))


@pytest.mark.parametrize("players", [1, 2, 3])
def test_filters_by_an_attribute_give_what_a_test_per_component_gives(tmp_path, players):
    game = _game(tmp_path)
    cards = game.components
    ids = range(len(cards))
    st = game.new_state(players)
    assert st.vars["by_suit"] == [c for c in ids if cards[c]["suit"] == "spades"] == [0, 2, 4]
    assert st.vars["twos"] == [c for c in ids if cards[c]["rank"] == 2] == [1, 2]
    assert st.vars["high_faces"] == [c for c in ids if cards[c]["face"] and cards[c]["rank"] > 2] == [4]
    assert st.vars["marked"] == [c for c in ids if cards[c]["marks"] == [1]] == [0, 5]
    assert st.vars["per_rank"] == [2, 2, 2]
    assert st.vars["seat_rank"] == [c for c in ids if cards[c]["rank"] == players]
    assert st.vars["ranks_of_hearts"] == [2, 1, 3]            # in component order
    assert st.vars["own_marks"] == [c for c in ids if cards[c]["rank"] == len(cards[c]["marks"])] == [0, 2]


def test_filters_by_a_plain_attribute_read_the_table(tmp_path):
    # The tables are taken where every value is plain (suit, rank, face), not for a list (marks).
    module = _game(tmp_path).generated
    read = {span.line for line, span in zip(module.lines, module.spans) if "_with_attribute(" in line}
    # every filter of play but line 18's (marks, lists) and line 24's (a value that reads c)
    assert read == {15, 16, 17, 20, 22, 23}


def test_a_list_equals_no_plain_attribute():
    assert with_attribute({1: [0, 2], "a": [1]}, [1]) == ()
    assert with_attribute({1: [0, 2], "a": [1]}, 1) == [0, 2]
    assert with_attribute({1: [0, 2], "a": [1]}, "b") == ()


def test_an_error_in_the_wanted_value_points_at_its_line(tmp_path):
    game = _game(tmp_path, """\
        game "Filters"
        players 1
        data "cards.yaml"
        zone box: stack
        var found: list of Card = []
        play {
          found = [c for c in components(Card) if c.suit == top(box).suit]
        }
        """)
    with pytest.raises(RuleError) as info:
        game.new_state(1)
    diag = info.value.diagnostics[0]
    assert "empty" in diag.message and diag.span.line == 7


STARTS = """\
    game "Starts"
    players 1..3
    data "cards.yaml"
    param base = 3
    zone hand: stack per player
    var coins: int per player = base * (p + 1)
    var total: int = base * player_count
    var round: int = 0
    var marks: list of int = [base]
    setup {
      round = 5
      coins[0] += 100
      marks = marks + [7]
    }
    play { round += 1 }
    """


def test_start_values_are_worked_out_afresh_in_every_game(tmp_path):
    # What setup and play change in one game never reaches the start of the next.
    game = _game(tmp_path, STARTS)
    for _ in range(3):
        st = game.setup_state(2)
        assert st.vars["coins"] == [103, 6] and st.vars["round"] == 5 and st.vars["marks"] == [3, 7]
        game.start(st)
        assert st.vars["round"] == 6


def test_start_values_follow_the_player_count_and_set_overrides(tmp_path):
    game = _game(tmp_path, STARTS)
    for players in (1, 3, 2, 1):
        st = game.setup_state(players)
        assert st.vars["coins"] == [103] + [3 * (p + 1) for p in range(1, players)]
        assert st.vars["total"] == 3 * players
        assert sorted(st.zones) == sorted([f"hand/{p}" for p in range(players)] + ["supply"])
    game.set_params({"base": "5"})
    assert game.setup_state(2).vars["coins"] == [105, 10]
    game.param_overrides.clear()
    assert game.setup_state(2).vars["coins"] == [103, 6]


def test_a_start_value_that_draws_random_numbers_is_drawn_in_every_game(tmp_path):
    game = _game(tmp_path, """\
        game "Draw"
        players 1
        data "cards.yaml"
        param base = 3
        var order: list of Card = shuffled(components(Card))
        play { log "go" }
        """)
    orders = {tuple(game.new_state(1, seed).vars["order"]) for seed in range(8)}
    assert len(orders) > 1                      # worked out once, it would be one order
    assert all(sorted(order) == list(range(6)) for order in orders)


# ---------------------------------------------------------------- calls and placeholders
def _long_proc(statements: int) -> str:
    lines = "\n".join(f"          total += {k}" for k in range(statements))
    return f"""\
        game "Calls"
        players 1
        data "cards.yaml"
        var total: int = 0
        var trace: list of int = []
        play {{
          for i in range(3) {{
            long()
            note(i, 7)
            none_given()
          }}
          ends(9)
          trace = trace + [-1]
        }}
        proc long() {{
{lines}
        }}
        proc note(a: int, b: int) {{
          let c = a * b
          trace = trace + [c]
        }}
        proc none_given() {{
          let x = 1
          let y = 2
          trace = trace + [x + y]
        }}
        proc ends(n: int) {{
          trace = trace + [n]
          finish
        }}
        """


def test_procedures_without_choices_run_to_their_end_whatever_their_length(tmp_path):
    # 200 statements are several generated blocks; the others end in their first. Procedures
    # declared after their callers get frames of their own size; `finish` in one ends the game.
    game = _game(tmp_path, _long_proc(200))
    st = game.new_state(1)
    assert st.finished
    assert st.vars["total"] == 3 * sum(range(200))
    assert st.vars["trace"] == [0, 3, 7, 3, 14, 3, 9]       # nothing after `ends(9)`


def test_placeholders_of_seats_and_cells_read_as_the_renderer_says(tmp_path):
    game = _game(tmp_path, """\
        game "Names"
        players 2
        data "cards.yaml"
        var who: player = none
        var spot: cell = none
        var far: player = 5
        var back: player = 0 - 1
        var spot2: cell = (2, -3)
        play {
          for p in players { log "{p} at {(p, -p)}" }
          log "{far} at {(far, -far)}"
          log "{back} at {spot2}"
          log "{who} at {spot}"
        }
        """)
    st = game.new_state(2)
    assert st.log == ["Player 1 at (0, 0)", "Player 2 at (1, -1)", "Player 6 at (5, -5)", "Player 0 at (2, -3)",
                      "nobody at none"]


# ---------------------------------------------------------------- blocks that only jump
JUMPS = """\
    game "Jumps"
    players 2
    data "cards.yaml"
    zone pool: pile
    zone hand: pile per player
    var picks: list of int = []
    setup { move components(Card) to pool }
    play {
      while not empty(pool) {
        for p in players if not empty(pool) {
          turn p { pick(p) }
        }
      }
    }
    proc pick(p: player) {
      choose c from contents(pool) prompt "Take a card"
      move c to hand[p]
      picks = picks + [c.rank]
    }
    """


def test_blocks_that_only_jump_run_their_targets_code(tmp_path):
    # The same seeded games with the generated blocks as written (each jump a round of the
    # engine's loop) and with the jumps taken in place.
    from boardwright.interpreter.playtest.simulate import play_game
    game = _game(tmp_path, JUMPS)
    play = game.code["play"]
    written = [game.namespace.get(f"b_play_{pc}") for pc in range(len(play))] + [play.blocks[-1]]
    shortened = [pc for pc, block in enumerate(play.blocks) if block is not written[pc] and written[pc]]
    assert shortened                                 # the turn's end only jumps back to the loop
    runs = [play_game(game, 2, seed)[0] for seed in range(4)]
    play.blocks = [block or alias for block, alias in zip(written, play.blocks)]
    again = [play_game(game, 2, seed)[0] for seed in range(4)]
    assert [st.to_json() for st in runs] == [st.to_json() for st in again]
    assert all(sorted(st.vars["picks"]) == [1, 1, 2, 2, 3, 3] for st in runs)


def test_a_game_saved_where_a_block_only_jumps_resumes_there(tmp_path):
    from boardwright.interpreter.run.state import State
    game = _game(tmp_path, JUMPS)
    st = game.new_state(2, 5)
    game.apply_index(st, 0)
    copy = State.from_json(st.to_json())
    for _ in range(5):
        game.apply_index(st, 0)
        game.apply_index(copy, 0)
    assert st.finished and copy.finished and st.to_json() == copy.to_json()


# ---------------------------------------------------------------- moving many at once
MANY = SMALL_DATA.replace("rank: [1, 2, 3]}", "rank: [1, 2, 3, 4, 5, 6, 7, 8]}")     # sixteen cards
PILES = """\
    game "Piles"
    players 1
    data "cards.yaml"
    zone board: grid
    zone a: pile
    zone b: pile
    play {
      move components(Card) to a
      move top(a) to board at (0, 0)
      move [c for c in components(Card) if c.rank != 5] to b
    }
    """


@pytest.mark.parametrize("bad", [True, 16, -1, "a", 2.0])
def test_moving_a_list_with_something_not_a_component_is_refused(tmp_path, bad):
    game = load_game(small_game_file(tmp_path, textwrap.dedent(PILES), MANY))
    st = game.setup_state(1)
    with pytest.raises(Problem, match="not a component"):
        game.move_all(st, list(range(2, 9)) + [bad], "a", None, False)
    assert st.zones["a"] == list(range(2, 9))               # each in turn, up to the bad one


def test_moving_a_list_from_a_grid_moves_each_in_turn(tmp_path):
    game = load_game(small_game_file(tmp_path, textwrap.dedent(PILES), MANY))
    st = game.new_state(1)
    moved = [c for c in range(16) if game.components[c]["rank"] != 5]
    assert 15 in moved and st.zones["board"] == {}          # the top of a (the last card) left the grid
    assert st.zones["b"] == moved and st.zones["a"] == [c for c in range(15) if c not in moved]
    assert all(st.loc[c] == ("b", None) for c in moved)


def test_top_reads_the_last_card_and_names_an_empty_zone(tmp_path):
    game = _game(tmp_path, """\
        game "Top"
        players 2
        data "cards.yaml"
        zone hand: pile per player
        var seen: list of Card = []
        var ranks: list of int = []
        play {
          move [c for c in components(Card) if c.rank == 2] to hand[0]
          seen = [top(hand[0]), top(hand[0])]
          move top(hand[0]) to hand[1]
          seen = seen + [top(hand[0]), top(hand[next(0)])]
          ranks = [top(hand[1]).rank]
          let p = 1
          move top(hand[p]) to hand[0]
          seen = seen + [top(hand[p])]
        }
        """)
    twos = [c for c, attrs in enumerate(game.components) if attrs["rank"] == 2]
    with pytest.raises(RuleError) as info:
        game.new_state(2)
    diag = info.value.diagnostics[0]
    assert diag.message == "top of the empty zone 'hand[1]'" and diag.span.line == 15
    st = game.setup_state(2)
    st.frames.append(["play", 0, [None] * game.code_sizes["play"]])
    with pytest.raises(RuleError):
        game.run(st)
    assert st.vars["seen"] == [twos[-1], twos[-1], twos[0], twos[-1]] and st.vars["ranks"] == [2]


def test_the_log_keeps_its_last_lines_and_index_of_finds_the_first(tmp_path):
    game = _game(tmp_path, """\
        game "Log"
        players 1
        data "cards.yaml"
        var found: list of int = []
        play {
          let xs = [5, 7, 5, 9]
          for v in [5, 7, 9, 4] { found = found + [index_of(xs, v)] }
          for i in range(450) { log "line {i}" }
        }
        """)
    st = game.new_state(1)
    assert st.vars["found"] == [0, 1, 3, -1]
    log: list = []
    for i in range(450):            # past 200 lines the oldest 100 go
        log.append(f"line {i}")
        if len(log) > 200:
            del log[:100]
    assert st.log == log and len(log) == 150
