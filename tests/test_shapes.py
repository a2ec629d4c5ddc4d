"""Components with a shape: orientations (known counts of the free polyominoes), shape data
and its errors, laying a piece (`move ... turned N`), lifting it whole, the shape built-ins
against brute force, owner frontiers kept up to date, scenarios that lay pieces, and saved
states. Expected values come from hand counts and from independent brute-force code here."""
from __future__ import annotations

import textwrap

import pytest

from boardwright.dsl.errors import DataError, RuleError
from boardwright.dsl.shapes import orientations, picture_cells
from boardwright.interpreter.compile.load import load_game
from boardwright.interpreter.run.state import State
from boardwright.interpreter.testing.scenario import run_scenario

# The 21 free polyominoes of sizes 1 to 5 and how many fixed orientations each has (a known
# fact: 1 + 2 + 2 + 4 + 2 + 1 + 4 + 8 + 4 + 8 + 2 + 8 + 8 + 8 + 4 + 4 + 4 + 4 + 1 + 8 + 4 = 91).
FREE_POLYOMINOES = {
    "I1": ("#", 1), "I2": ("##", 2), "I3": ("###", 2), "V3": ("#.\n##", 4),
    "I4": ("####", 2), "O4": ("##\n##", 1), "T4": ("###\n.#.", 4), "L4": ("#.\n#.\n##", 8),
    "S4": (".##\n##.", 4), "F": (".##\n##.\n.#.", 8), "I5": ("#####", 2), "L5": ("#.\n#.\n#.\n##", 8),
    "N": (".#\n.#\n##\n#.", 8), "P": ("##\n##\n#.", 8), "T5": ("###\n.#.\n.#.", 4), "U": ("#.#\n###", 4),
    "V5": ("#..\n#..\n###", 4), "W": ("#..\n##.\n.##", 4), "X": (".#.\n###\n.#.", 1),
    "Y": (".#\n##\n.#\n.#", 8), "Z": ("##.\n.#.\n.##", 4),
}


def _shifted(cells) -> frozenset:
    mx, my = min(x for x, _ in cells), min(y for _, y in cells)
    return frozenset((x - mx, y - my) for x, y in cells)


def _all_images(cells) -> set:
    """Every image of a shape under the 8 symmetries of the square, written independently of
    dsl/shapes.py (as matrices applied to each cell)."""
    matrices = [(1, 0, 0, 1), (0, -1, 1, 0), (-1, 0, 0, -1), (0, 1, -1, 0),
                (-1, 0, 0, 1), (1, 0, 0, -1), (0, 1, 1, 0), (0, -1, -1, 0)]
    return {_shifted([(a * x + b * y, c * x + d * y) for x, y in cells]) for a, b, c, d in matrices}


@pytest.mark.parametrize("name", list(FREE_POLYOMINOES))
def test_each_free_polyomino_has_its_known_number_of_orientations(name):
    picture, count = FREE_POLYOMINOES[name]
    found = orientations(tuple(picture_cells(picture)))
    assert len(found) == count
    assert {frozenset(o) for o in found} == _all_images(picture_cells(picture))


def test_the_21_free_polyominoes_have_91_fixed_orientations_in_all():
    total = sum(len(orientations(tuple(picture_cells(p)))) for p, _ in FREE_POLYOMINOES.values())
    assert total == 91


def test_orientations_are_normalised_row_major_and_the_first_is_the_shape_as_given():
    ell = ((5, 5), (5, 6), (5, 7), (6, 7))            # an L drawn away from the origin
    found = orientations(ell)
    assert found[0] == ((0, 0), (0, 1), (0, 2), (1, 2))
    for o in found:
        assert min(x for x, _ in o) == 0 and min(y for _, y in o) == 0
        assert list(o) == sorted(o, key=lambda c: (c[1], c[0]))
    # the documented order: turned a quarter clockwise (y grows down), then the mirror image
    assert found[1] == ((0, 0), (1, 0), (2, 0), (0, 1))
    assert found[4] == ((1, 0), (1, 1), (0, 2), (1, 2))


def test_a_shape_need_not_be_connected():
    assert len(orientations(((0, 0), (2, 0)))) == 2


# ------------------------------------------------------------------ a small game

DATA = """\
provenance: test data
enums:
  Colour: [red, blue]
components:
  Piece:
    label: "{colour} {name}"
    attributes: {colour: Colour, name: str}
    items:
      - {colour: red, name: ell, shape: "#.\\n#.\\n##"}
      - {colour: red, name: bar, shape: [[0, 0], [1, 0]]}
      - {colour: blue, name: dot, shape: "#"}
      - {colour: blue, name: tee, shape: "###\\n.#."}
  Token:
    attributes: {n: int}
    items:
      - {n: 1}
"""

RULES = """\
game "Shapes"
players 2
data "pieces.yaml"
zone board: grid of Piece size 5 x 4
zone bag: pile of Piece
zone marks: grid of Token size 3 x 3
var spot: cell = (0, 0)
var way: int = 0
setup { move components(Piece) to bag }
play {
  choose q from contents(bag) by 0
  move q to board at spot turned way
  choose r from [1] by 0
}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    folder = tmp_path_factory.mktemp("shapes")
    (folder / "pieces.yaml").write_text(DATA)
    (folder / "g.game").write_text(RULES)
    return load_game(folder / "g.game")


def piece(game, label):
    return game.labels.index(label)


def fresh(game):
    st = game.new_state(2, seed=1)
    return st


def lay(game, st, label, at, turn=0, key="board"):
    game.move(st, piece(game, label), key, at, False, turn)


def test_a_placed_piece_lies_on_every_cell_it_covers_and_counts_once(game):
    st = fresh(game)
    lay(game, st, "red ell", (1, 0), 0)
    ell = piece(game, "red ell")
    builtins = game.namespace
    assert {c for c, stack in st.zones["board"].items() if ell in stack} == {(1, 0), (1, 1), (1, 2), (2, 2)}
    assert builtins["_B_occupied"](game, st, "board") == [(1, 0), (1, 1), (1, 2), (2, 2)]
    assert builtins["_B_size"](game, st, "board") == 1
    assert builtins["_B_contents"](game, st, "board") == [ell]
    assert builtins["_B_top_at"](game, st, "board", (2, 2)) == ell
    assert st.loc[ell] == ("board", (1, 0), 0, ((1, 0), (1, 1), (1, 2), (2, 2)))


def test_turned_lays_the_orientation_and_a_move_elsewhere_lifts_the_piece_whole(game):
    st = fresh(game)
    lay(game, st, "red ell", (0, 0), 1)                   # ### over #..
    assert set(st.zones["board"]) == {(0, 0), (1, 0), (2, 0), (0, 1)}
    lay(game, st, "red ell", (2, 1), 0)                   # moved on the same grid
    assert set(st.zones["board"]) == {(2, 1), (2, 2), (2, 3), (3, 3)}
    game.move(st, piece(game, "red ell"), "bag", None, False)
    assert st.zones["board"] == {}
    assert game.namespace["_B_size"](game, st, "board") == 0


def test_a_piece_that_does_not_fit_is_refused_and_nothing_changes(game):
    st = fresh(game)
    lay(game, st, "blue dot", (1, 1))
    before = st.copy()
    with pytest.raises(Exception, match="occupied"):
        lay(game, st, "red bar", (0, 1))                  # (1, 1) is taken
    with pytest.raises(Exception, match="outside the grid"):
        lay(game, st, "red bar", (4, 0))                  # (5, 0) is off a 5-wide grid
    with pytest.raises(Exception, match="2 orientations"):
        lay(game, st, "red bar", (0, 0), 2)
    assert st == before


def test_turning_a_piece_where_it_lies_checks_it_without_itself(game):
    st = fresh(game)
    lay(game, st, "red bar", (0, 0), 0)                   # (0, 0) (1, 0)
    lay(game, st, "red bar", (0, 0), 1)                   # (0, 0) (0, 1): overlaps its old cell
    assert set(st.zones["board"]) == {(0, 0), (0, 1)}


def test_a_component_without_a_shape_lies_in_one_orientation(game):
    st = fresh(game)
    token = game.kind_ids["Token"][0]
    game.move(st, token, "marks", (1, 1), False, 0)
    assert st.zones["marks"] == {(1, 1): [token]}
    with pytest.raises(Exception, match="no shape"):
        game.move(st, token, "marks", (0, 0), False, 1)


def brute_placements(game, st, pieces, targets, avoid, w, h):
    """Independent: every anchor on the board and two cells beyond (a piece that fits has its
    box's top left on the board), every orientation, all checked cell by cell."""
    grid = st.zones["board"]
    out = []
    for c in pieces:
        for turn, cells in enumerate(game.orientations[c]):
            for y in range(-2, h + 2):
                for x in range(-2, w + 2):
                    covered = [(x + dx, y + dy) for dx, dy in cells]
                    if all(0 <= cx < w and 0 <= cy < h and (cx, cy) not in grid and (cx, cy) not in avoid
                           for cx, cy in covered) and any(t in covered for t in targets):
                        out.append((c, (x, y), turn, tuple(covered)))
    return out


@pytest.mark.parametrize("targets,avoid", [([(2, 2)], []), ([(0, 0), (4, 3), (2, 1)], [(3, 1)]),
                                           ([(1, 1), (9, 9)], [])])
def test_placements_are_every_fitting_placement_in_the_documented_order(game, targets, avoid):
    st = fresh(game)
    lay(game, st, "blue dot", (3, 2))
    pieces = [piece(game, "red ell"), piece(game, "red bar"), piece(game, "blue tee")]
    found = game.namespace["_B_placements_of"](game, st, "board", pieces, targets, avoid)
    assert [tuple(m) for m in found] == brute_placements(game, st, pieces, targets, avoid, 5, 4)
    assert game.namespace["_B_any_placement"](game, st, "board", pieces, targets, avoid) is True


def test_any_placement_is_false_where_nothing_fits(game):
    st = fresh(game)
    lay(game, st, "blue dot", (3, 2))
    ell = piece(game, "red ell")
    any_placement = game.namespace["_B_any_placement"]
    assert brute_placements(game, st, [ell], [(3, 2)], [], 5, 4) == []        # its only target is taken
    assert any_placement(game, st, "board", [ell], [(3, 2)]) is False
    assert any_placement(game, st, "board", [ell], [(0, 0)], [(0, 1), (1, 0)]) is False
    assert brute_placements(game, st, [ell], [(0, 0)], [(0, 1), (1, 0)], 5, 4) == []


def test_shape_fits_free_covers_and_touches(game):
    st = fresh(game)
    b = game.namespace
    lay(game, st, "blue dot", (3, 2))
    ell, tee = piece(game, "red ell"), piece(game, "blue tee")
    assert b["_B_covers"](game, st, ell, (1, 1), 0) == [(1, 1), (1, 2), (1, 3), (2, 3)]
    assert b["_B_turns"](game, st, ell) == 8 and b["_B_turns"](game, st, tee) == 4
    assert b["_B_shape_fits"](game, st, "board", ell, (3, 1), 0)       # (3..4, 1..3)
    assert not b["_B_shape_free"](game, st, "board", ell, (3, 0), 0)   # covers (3, 2)
    assert not b["_B_shape_fits"](game, st, "board", ell, (4, 1), 0)   # (5, 3) is off the grid
    cells = b["_B_covers"](game, st, ell, (1, 0), 0)                   # (1,0) (1,1) (1,2) (2,2)
    assert b["_B_touches"](game, st, cells, [(3, 2)], "orthogonal")
    assert not b["_B_touches"](game, st, cells, [(3, 3)], "orthogonal")
    assert b["_B_touches"](game, st, cells, [(3, 3)], "diagonal")
    assert b["_B_touches_owned"](game, st, "board", cells, "orthogonal", "colour", "blue")
    assert not b["_B_touches_owned"](game, st, "board", cells, "orthogonal", "colour", "red")


def owned_frontier_by_hand(game, st, adjacency, colour):
    steps = {"orthogonal": [(0, -1), (-1, 0), (1, 0), (0, 1)], "diagonal": [(-1, -1), (1, -1), (-1, 1), (1, 1)]}
    grid = st.zones["board"]
    found = {(x + dx, y + dy) for (x, y), stack in grid.items()
             if game.components[stack[-1]]["colour"] == colour for dx, dy in steps[adjacency]}
    return sorted((c for c in found if c not in grid), key=lambda c: (c[1], c[0]))


def test_owner_frontiers_follow_pieces_as_they_are_laid_and_lifted(game):
    st = fresh(game)
    frontier = game.namespace["_B_frontier"]
    for adjacency in ("orthogonal", "diagonal"):          # asked first, so later moves update them
        frontier(game, st, "board", adjacency, "colour", "red")
    steps = [("red ell", (0, 0), 0), ("blue dot", (2, 0), 0), ("red bar", (2, 3), 0), ("red ell", (3, 0), 0)]
    for label, at, turn in steps:
        lay(game, st, label, at, turn)
        for adjacency in ("orthogonal", "diagonal"):
            for colour in ("red", "blue"):
                assert frontier(game, st, "board", adjacency, "colour", colour) == \
                    owned_frontier_by_hand(game, st, adjacency, colour)
    game.move(st, piece(game, "red bar"), "bag", None, False)          # lifted
    for adjacency in ("orthogonal", "diagonal"):
        assert frontier(game, st, "board", adjacency, "colour", "red") == \
            owned_frontier_by_hand(game, st, adjacency, "red")


def test_groups_see_a_piece_on_each_cell_it_covers(game):
    st = fresh(game)
    lay(game, st, "red ell", (0, 0), 0)
    lay(game, st, "red bar", (2, 2), 0)                   # touches the ell's foot at (1, 2)-(2, 2)
    lay(game, st, "blue dot", (4, 0), 0)
    groups = game.namespace["_B_groups"](game, st, "board", "colour")
    assert groups == [[(0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (3, 2)], [(4, 0)]]


def test_a_state_with_placed_pieces_survives_json(game):
    st = fresh(game)
    lay(game, st, "red ell", (1, 0), 5)
    lay(game, st, "blue dot", (0, 0))
    back = State.from_json(st.to_json())
    assert back == st
    assert back.loc[piece(game, "red ell")] == st.loc[piece(game, "red ell")]


def test_the_move_statement_lays_a_piece_turned(game):
    st = fresh(game)
    st.vars["spot"], st.vars["way"] = (2, 1), 1
    game.apply(st, "red-ell")
    assert set(st.zones["board"]) == {(2, 1), (3, 1), (4, 1), (2, 2)}


def test_a_move_that_does_not_fit_is_a_rule_error_at_its_line(game):
    st = fresh(game)
    st.vars["spot"], st.vars["way"] = (4, 3), 0
    with pytest.raises(RuleError) as caught:
        game.apply(st, "red-ell")
    assert caught.value.diagnostics[0].span.line == 12
    assert "outside the grid" in caught.value.diagnostics[0].message


# ------------------------------------------------------------------ placements as options

CHOOSER = """\
game "Placer"
players 2
data "pieces.yaml"
zone board: grid of Piece size 4 x 4
zone bag: pile of Piece
setup { move [q for q in components(Piece) if q.colour == red] to bag }
play {
  choose m from placements_of(board, contents(bag), [(0, 0)]) by 0 prompt "Place"
  move m.piece to board at m.at turned m.turn
  log "{m.piece.name} {m.turn} {len(m.cells)}"
}
"""


def test_placements_are_options_with_short_stable_ids_and_labels(tmp_path):
    (tmp_path / "pieces.yaml").write_text(DATA)
    (tmp_path / "g.game").write_text(CHOOSER)
    placer = load_game(tmp_path / "g.game")
    st = placer.new_state(2, seed=1)
    decision = placer.decision(st)
    ids = [o.id for o in decision.options]
    # the ell covers (0, 0) in the orientations with a cell at the box's top left... by hand:
    ell_turns = [t for t, cells in enumerate(placer.orientations[0]) if (0, 0) in cells]
    bar = ["red-bar@0,0t0", "red-bar@0,0t1"]
    assert ids == [f"red-ell@0,0t{t}" for t in ell_turns] + bar
    assert decision.options[-1].label == "red bar at (0, 0) turned 1"
    placer.apply(st, "red-bar@0,0t1")
    assert set(st.zones["board"]) == {(0, 0), (0, 1)}
    assert st.log[-1].endswith("bar 1 2")


# ------------------------------------------------------------------ scenarios and data

def test_a_scenario_lays_a_piece_by_anchor_and_orientation(game, tmp_path):
    folder = tmp_path
    (folder / "pieces.yaml").write_text(DATA)
    (folder / "g.game").write_text(RULES)
    (folder / "s.scenario.yaml").write_text(textwrap.dedent("""\
        name: laid by anchor
        game: g.game
        players: 2
        state:
          zones:
            board: {"1,0": {piece: red ell, turned: 1}, "4,3": blue dot}
        expect:
          zones:
            board: {"1,0": [red ell], "2,0": [red ell], "3,0": [red ell], "1,1": [red ell], "4,3": [blue dot]}
        """))
    outcome = run_scenario(folder / "s.scenario.yaml")
    assert outcome.passed, outcome.failures
    (folder / "t.scenario.yaml").write_text(textwrap.dedent("""\
        name: expected by anchor, wrongly
        game: g.game
        players: 2
        state:
          zones:
            board: {"1,0": {piece: red ell, turned: 1}}
        expect:
          zones:
            board: {"1,0": {piece: red ell, turned: 0}}
        """))
    outcome = run_scenario(folder / "t.scenario.yaml")
    assert not outcome.passed and "zones: board" in outcome.failures[0]


def test_a_scenario_piece_that_does_not_fit_is_reported_at_its_place(tmp_path):
    (tmp_path / "pieces.yaml").write_text(DATA)
    (tmp_path / "g.game").write_text(RULES)
    (tmp_path / "s.scenario.yaml").write_text(textwrap.dedent("""\
        name: off the board
        game: g.game
        players: 2
        state:
          zones:
            board: {"4,3": {piece: red ell}}
        """))
    outcome = run_scenario(tmp_path / "s.scenario.yaml")
    assert not outcome.passed
    assert "outside the grid" in " ".join(outcome.failures) and ":6:" in " ".join(outcome.failures)


def test_a_kind_level_shape_applies_to_every_item_that_gives_none(tmp_path):
    from boardwright.dsl.data import load_data
    (tmp_path / "d.yaml").write_text(textwrap.dedent("""\
        provenance: test
        components:
          Domino:
            attributes: {n: int}
            shape: [[0, 0], [1, 0]]
            items:
              - {n: 1}
              - {n: 2, shape: "#"}
        """))
    kind = load_data(tmp_path / "d.yaml").kinds["Domino"]
    assert kind.shapes == [((0, 0), (1, 0)), ((0, 0),)]


@pytest.mark.parametrize("shape,message", [
    ("[]", "non-empty"), ("[[0, 0], [0, 0]]", "appears twice"), ('"..\\n.."', "at least one cell"),
    ('"#o"', "may not contain 'o'"), ("[[0, 0], [1, 2, 3]]", "pair of whole numbers"),
])
def test_a_bad_shape_is_refused_in_plain_words_at_its_line(tmp_path, shape, message):
    from boardwright.dsl.data import load_data
    (tmp_path / "d.yaml").write_text(f"provenance: test\ncomponents:\n  P:\n    attributes: {{}}\n"
                                     f"    items:\n      - {{shape: {shape}}}\n")
    with pytest.raises(DataError) as caught:
        load_data(tmp_path / "d.yaml")
    assert message in caught.value.diagnostics[0].message
    assert caught.value.diagnostics[0].span.line == 6


def test_the_language_server_completes_and_explains_the_shape_constructs():
    from boardwright.cli.lsp import completions, hover_text
    names = {item.label: item for item in completions(None, None, "let m = ")}
    for builtin in ("placements_of", "any_placement", "covers", "turns", "shape_fits", "shape_free", "touches", "touches_owned"):
        assert names[builtin].documentation, builtin
    fields = {item.label for item in completions(None, None, "m.")}
    assert {"piece", "at", "turn", "cells"} <= fields
    assert "orientation" in hover_text(None, "turns")
    assert "placement" in hover_text(None, "placements_of")
    assert "turned" in hover_text(None, "move") and "orientation" in hover_text(None, "turned")


def test_the_cells_of_one_piece_are_linked_whatever_its_side_attributes_say(tmp_path):
    (tmp_path / "d.yaml").write_text(textwrap.dedent("""\
        provenance: test
        components:
          Domino:
            attributes: {kind: str, north: bool, east: bool, south: bool, west: bool}
            shape: "##"
            items:
              - {kind: a, north: false, east: false, south: false, west: false}
              - {kind: a, north: false, east: false, south: false, west: false}
        """))
    (tmp_path / "g.game").write_text(textwrap.dedent("""\
        game "Links"
        players 2
        data "d.yaml"
        zone board: grid of Domino
        play { }
        """))
    g = load_game(tmp_path / "g.game")
    st = g.new_state(2, seed=1)
    g.move(st, 0, "board", (0, 0), False, 0)              # (0, 0) (1, 0)
    g.move(st, 1, "board", (2, 0), False, 0)              # (2, 0) (3, 0): beside it, sides closed
    sides = ["north", "east", "south", "west"]
    linked = g.namespace["_B_linked_groups"](g, st, "board", "kind", sides, True)
    assert linked == [[(0, 0), (1, 0)], [(2, 0), (3, 0)]]
    assert g.namespace["_B_reachable"](g, st, "board", (0, 0), sides, True) == [(0, 0), (1, 0)]


def test_the_polyomino_board_indexes_equal_a_recomputation_as_pieces_are_laid():
    """Sizes, contents, frontiers and owner frontiers of a board of pieces, kept as pieces are
    laid, against the board read afresh; a copy played on separately leaves them right."""
    import random
    from pathlib import Path
    poly = load_game(Path(__file__).resolve().parent.parent / "docs" / "examples" / "polyomino" / "polyomino.game")
    b = poly.namespace
    steps = {"orthogonal": [(0, -1), (-1, 0), (1, 0), (0, 1)], "diagonal": [(-1, -1), (1, -1), (-1, 1), (1, 1)]}

    def agree(st):
        grid = st.zones["board"]
        pieces = list(dict.fromkeys(c for cell in sorted(grid, key=lambda c: (c[1], c[0])) for c in grid[cell]))
        assert b["_B_size"](poly, st, "board") == len(pieces)
        assert b["_B_contents"](poly, st, "board") == pieces
        for adjacency, moves in steps.items():
            everyone = {(x + dx, y + dy) for x, y in grid for dx, dy in moves} - set(grid)
            assert b["_B_frontier"](poly, st, "board", adjacency) == sorted(everyone, key=lambda c: (c[1], c[0]))
            for colour in ("violet", "orange"):
                assert b["_B_frontier"](poly, st, "board", adjacency, "colour", colour) == \
                    owned_frontier_by_hand(poly, st, adjacency, colour)

    rng = random.Random(7)
    st = poly.new_state(2, seed=0)
    moves = 0
    while not st.finished and moves < 24:
        agree(st)
        if moves % 5 == 2:
            other = st.copy()
            poly.apply_index(other, rng.randrange(len(other.pending.values)))
            agree(other)
        poly.apply_index(st, rng.randrange(len(st.pending.values)))
        moves += 1
    agree(st)
    assert moves == 24


def test_on_a_grid_of_floating_extent_a_shape_must_fit_as_a_whole(tmp_path):
    """A 3 x 3 extent with a bar on (0, 0) (1, 0): an upright ell (3 tall, 2 wide) fits only
    where the occupied area and the whole ell stay within 3 x 3."""
    (tmp_path / "pieces.yaml").write_text(DATA)
    (tmp_path / "g.game").write_text(textwrap.dedent("""\
        game "Extent"
        players 2
        data "pieces.yaml"
        zone board: grid of Piece extent 3 x 3
        play { }
        """))
    g = load_game(tmp_path / "g.game")
    st = g.new_state(2, seed=1)
    bar, ell = piece(g, "red bar"), piece(g, "red ell")
    g.move(st, bar, "board", (0, 0), False, 0)
    b = g.namespace
    assert b["_B_shape_fits"](g, st, "board", ell, (-1, 0), 0)       # columns -1..1, rows 0..2
    assert not b["_B_shape_fits"](g, st, "board", ell, (0, 1), 0)    # rows 0..3 with the bar: 4 tall
    assert not b["_B_shape_fits"](g, st, "board", ell, (2, 0), 0)    # columns 0..3 with the bar: 4 wide
    assert b["_B_shape_fits"](g, st, "board", ell, (1, 0), 0)        # within 3 x 3 ...
    assert not b["_B_shape_free"](g, st, "board", ell, (1, 0), 0)    # ... but on the bar's (1, 0)
    found = b["_B_placements_of"](g, st, "board", [ell], [(0, 1), (2, 1), (1, -1)])
    by_hand = []
    for turn, cells in enumerate(g.orientations[ell]):
        for y in range(-4, 5):
            for x in range(-4, 5):
                covered = [(x + dx, y + dy) for dx, dy in cells]
                xs = [cx for cx, _ in covered] + [0, 1]
                ys = [cy for _, cy in covered] + [0, 0]
                if (max(xs) - min(xs) < 3 and max(ys) - min(ys) < 3 and not {(0, 0), (1, 0)} & set(covered)
                        and {(0, 1), (2, 1), (1, -1)} & set(covered)):
                    by_hand.append((ell, (x, y), turn, tuple(covered)))
    assert [tuple(m) for m in found] == by_hand and by_hand


def test_placements_agree_with_brute_force_on_random_boards(game):
    """Hypothesis lays random pieces and picks random targets and cells to avoid: the bitset
    search and the cell-by-cell brute force above find the same placements in the same order."""
    from hypothesis import given, settings
    from hypothesis import strategies as hs
    cells = hs.tuples(hs.integers(-1, 5), hs.integers(-1, 4))

    @settings(max_examples=15, derandomize=True, deadline=None)
    @given(laid=hs.lists(hs.tuples(hs.sampled_from(["blue dot", "red bar"]), cells, hs.integers(0, 1)), max_size=2),
           targets=hs.lists(cells, max_size=4), avoid=hs.lists(cells, max_size=3))
    def check(laid, targets, avoid):
        st = fresh(game)
        for label, at, turn in laid:
            try:
                lay(game, st, label, at, turn if label == "red bar" else 0)
            except Exception:
                pass                            # off the grid or on another piece: not laid
        pieces = [piece(game, "red ell"), piece(game, "blue tee")]
        found = game.namespace["_B_placements_of"](game, st, "board", pieces, targets, avoid)
        expected = brute_placements(game, st, pieces, targets, avoid, 5, 4)
        assert [tuple(m) for m in found] == expected
        assert game.namespace["_B_any_placement"](game, st, "board", pieces, targets, avoid) == bool(expected)
    check()


def test_a_placement_survives_pickling_as_decisions_sent_to_other_processes_do(game):
    import pickle
    st = fresh(game)
    found = game.namespace["_B_placements_of"](game, st, "board", [piece(game, "red ell")], [(0, 0)])
    back = pickle.loads(pickle.dumps(found))
    assert back == found and type(back[0]) is type(found[0]) and back[0].cells == found[0].cells


def test_the_play_screen_draws_a_piece_as_a_unit():
    from pathlib import Path
    from boardwright.cli.render import render_table
    poly = load_game(Path(__file__).resolve().parent.parent / "docs" / "examples" / "polyomino" / "polyomino.game")
    st = poly.new_state(2, seed=0)
    poly.apply(st, "violet-l4@4,4t1")                   # ### over #..: (4, 4) (5, 4) (6, 4) (4, 5)
    poly.apply(st, "orange-i2@8,9t0")                   # (8, 9) (9, 9)
    screen = render_table(poly, poly.observe(st, 0))
    rows = screen.splitlines()
    row4 = next(r for r in rows if r.lstrip().startswith("4 |"))
    row9 = next(r for r in rows if r.lstrip().startswith("9 |"))
    assert "|vL4 vL4 vL4|" in row4                      # no line inside the piece
    assert "|oI2 oI2|" in row9
    below4 = rows[rows.index(row4) + 1]
    column = row4.index("vL4")                          # (4, 4) over (4, 5): one piece, no line
    assert below4[column:column + 3] == "   " and below4[column + 4:column + 7] == "---"


@pytest.mark.parametrize("cell,message", [
    ('{piece: red ell, turn: 1}', "did you mean 'turned'"),
    ('{piece: red bar, turned: 5}', "red bar has 2 orientations (0 to 1), not 5"),
])
def test_a_mistaken_piece_in_a_scenario_is_reported_in_its_words(tmp_path, cell, message):
    (tmp_path / "pieces.yaml").write_text(DATA)
    (tmp_path / "g.game").write_text(RULES)
    (tmp_path / "s.scenario.yaml").write_text(f"name: x\ngame: g.game\nplayers: 2\nstate:\n  zones:\n"
                                              f"    board: {{\"0,0\": {cell}}}\n")
    outcome = run_scenario(tmp_path / "s.scenario.yaml")
    assert not outcome.passed and message in " ".join(outcome.failures) and ":6:" in " ".join(outcome.failures)
