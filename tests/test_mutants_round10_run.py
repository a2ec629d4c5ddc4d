"""Behaviour of the engine that earlier mutation samples found unguarded (issue 26, round 10:
survivors of seeds 30 to 33 and of out10b's census in interpreter/run/), each test seen
failing with its mutant planted. Expected values are worked out from the rules of each case.
"""
from __future__ import annotations

import textwrap

import pytest

from boardwright.interpreter.compile.load import load_game
from boardwright.interpreter.run import records
from boardwright.interpreter.run.shaped import Placement
from conftest import small_game_file
from test_exact_rule_errors import PIECES


def test_a_record_read_back_with_other_fields_is_refused_in_words():
    """records.py _rebuild: a pickled record whose game now declares other fields (a worker
    that compiled a changed game) is refused with a message naming the record and both counts
    (the mutant `ValueError(None)` of seed 33 said nothing)."""
    with pytest.raises(ValueError) as caught:
        records._rebuild("Placement", ("card", "where"), (1, (0, 0), 3))
    assert str(caught.value) == "a Placement record of 2 fields given 3 values"
    back = records._rebuild("Placement", ("card", "where"), (1, (0, 0)))
    assert back.as_dict() == {"card": 1, "where": (0, 0)} and repr(back) == "Placement(card: 1, where: (0, 0))"


def test_a_placement_shows_its_piece_anchor_and_orientation():
    """shaped.py Placement.__repr__ (what a message quoting one shows): each field in its place."""
    assert repr(Placement(3, (1, 2), 1, ((1, 2), (1, 3)))) == "Placement(piece=3, at=(1, 2), turn=1)"




def test_an_owners_frontier_follows_a_piece_laid_over_another_on_a_stacked_grid(tmp_path):
    """indexes.py placed: a piece with a shape laid partly on an occupied cell of a stacked grid
    changes the owner of that cell, so every frontier kept by owner is dropped and worked out
    again (the mutant `is tuple` of seed 32 kept them and dropped the others). A frontier does
    not look at the grid's size (docs/language.md), row by row: the blue dot at (1, 0) has the
    4 cells round it; the red bar laid at (1, 0) covers (1, 0) and (2, 0): no blue top is left,
    and red's frontier is the 6 cells round the bar."""
    rules = textwrap.dedent("""\
        game "Stacked"
        players 2
        data "pieces.yaml"
        zone board: grid of Piece size 4 x 1 stacked
        zone bag: pile of Piece
        var before: list of cell = []
        var blue_after: list of cell = []
        var red_after: list of cell = []
        var all_after: list of cell = []
        setup { move components(Piece) to bag }
        play {
          move first([q for q in contents(bag) if q.name == "dot"]) to board at (1, 0)
          before = frontier(board, "orthogonal", "colour", blue)
          let all_before = frontier(board, "orthogonal")
          move first([q for q in contents(bag) if q.name == "bar"]) to board at (1, 0)
          blue_after = frontier(board, "orthogonal", "colour", blue)
          red_after = frontier(board, "orthogonal", "colour", red)
          all_after = frontier(board, "orthogonal")
          choose x from [1, 2] by 0
        }
        """)
    (tmp_path / "pieces.yaml").write_text(PIECES)
    game = load_game(small_game_file(tmp_path, rules, PIECES).with_name("g.game"))
    st = game.new_state(2, seed=1)
    assert st.vars["before"] == [(1, -1), (0, 0), (2, 0), (1, 1)]
    round_the_bar = [(1, -1), (2, -1), (0, 0), (3, 0), (1, 1), (2, 1)]
    assert (st.vars["blue_after"], st.vars["red_after"], st.vars["all_after"]) == ([], round_the_bar, round_the_bar)


def test_the_options_of_a_decision_whose_state_is_gone_are_refused_in_words():
    """state.py Pending: a decision whose options are worked out later holds its state weakly;
    asked for its options after that state is gone, it says what the caller must do (a
    programming error of a caller, shown whole); while the state lives, the options come
    from it, once."""
    import gc
    from boardwright.interpreter.run.state import Pending

    class Holder:
        pass
    holder = Holder()
    asked = []
    pending = Pending.later(0, 0, ("play", 0), holder, lambda st, p: asked.append(st) or (7, 8), None)
    assert pending.values == (7, 8) and asked == [holder] and pending.values == (7, 8) and len(asked) == 1
    gone = Pending.later(0, 0, ("play", 0), Holder(), lambda st, p: (1,), None)
    gc.collect()
    with pytest.raises(RuntimeError) as caught:
        gone.values
    assert str(caught.value) == ("the options of a decision whose state is gone: bind the decision to "
                                 "the state that keeps it (Pending.bound_to)")


def test_a_component_without_a_shape_is_placed_on_the_one_cell_it_covers(tmp_path):
    """shaped.py _placements: a component without a shape is one cell in one orientation, so its
    placements covering the targets are the target cells that are free, anchored there (census
    seed 1003's survivor `((1,),)`: its anchor one cell off the cell it covers). A 3 x 2 board
    of cards, (1, 0) taken: of the targets (1, 0), (2, 0), (0, 1), the free ones, row by row."""
    from conftest import small_body_file
    game = load_game(small_body_file(tmp_path, """\
        zone bag: stack
        zone board: grid size 3 x 2
        var found: list of placement = []
        setup { for c in components(Card) { move c to bag } }
        play {
          move top(bag) to board at (1, 0)
          found = placements_of(board, [top(bag)], [(1, 0), (2, 0), (0, 1)])
          choose x from [1, 2] by 0
        }
        """))
    st = game.new_state(2, seed=1)
    card = st.zones["bag"][-1]
    assert [(p.piece, p.at, p.turn, p.cells) for p in st.vars["found"]] == [
        (card, (2, 0), 0, ((2, 0),)), (card, (0, 1), 0, ((0, 1),))]


def test_an_owners_frontier_kept_in_the_index_grows_round_a_card_moved_onto_an_empty_cell(tmp_path):
    """zones.py move: a component without a shape moved onto an empty cell updates the grid's
    kept index with that component's attributes, so a frontier by owner asked before the move
    grows round the new card when its suit is the owner's, and only then (seed 35's survivor
    `index.added(dest, cell, stack is None, )` grew no owner's frontier: the hearts frontier
    stayed empty). A frontier does not look at the grid's size, row by row: round (1, 1) the
    cells (1, 0), (0, 1), (2, 1), (1, 2)."""
    from conftest import small_body_file
    body = """\
        zone board: grid of Card size 3 x 3
        zone deck: pile of Card
        var hearts_before: list of cell = []
        var hearts_after: list of cell = []
        var spades_after: list of cell = []
        setup { move components(Card) to deck }
        play {
          hearts_before = frontier(board, "orthogonal", "suit", hearts)
          let s = frontier(board, "orthogonal", "suit", spades)
          move first([c for c in contents(deck) if c.suit == hearts]) to board at (1, 1)
          hearts_after = frontier(board, "orthogonal", "suit", hearts)
          spades_after = frontier(board, "orthogonal", "suit", spades)
          choose x from [1, 2] by 0
        }
        """
    game = load_game(small_body_file(tmp_path, body))
    st = game.new_state(2, seed=1)
    assert st.vars["hearts_before"] == []
    assert st.vars["hearts_after"] == [(1, 0), (0, 1), (2, 1), (1, 2)]
    assert st.vars["spades_after"] == []
