"""Shapes whose cells carry their own data (`cell_attributes`, a domino's two halves): how many
distinct orientations such a piece has (against hand counts and an independent brute force
over the 8 symmetries of the square), which cell lies where after a rotation or a reflection
(`cell_attr` on a laid piece and on a placement, against hand-worked geometry), `groups` by
a cell attribute, saved states, and the language server's help for `cell_attr`. The data
errors are golden diagnostics (tests/golden/data_cell_*.game)."""
from __future__ import annotations

import textwrap

import pytest

from boardwright.dsl.errors import RuleFileError
from boardwright.dsl.shapes import orientation_parts, orientations
from boardwright.interpreter.compile.load import load_game
from boardwright.interpreter.run.limits import Problem
from boardwright.interpreter.run.shaped import SHAPE_IMPLEMENTATIONS
from boardwright.interpreter.run.state import State

MATRICES = [(1, 0, 0, 1), (0, -1, 1, 0), (-1, 0, 0, -1), (0, 1, -1, 0),
            (-1, 0, 0, 1), (1, 0, 0, -1), (0, 1, 1, 0), (0, -1, -1, 0)]


def labelled_images(cells, labels) -> set:
    """Every image of a labelled shape under the 8 symmetries of the square, shifted to the
    origin, as a set of (cell, label): written here independently of dsl/shapes.py."""
    found = set()
    for a, b, c, d in MATRICES:
        moved = [(a * x + b * y, c * x + d * y) for x, y in cells]
        mx, my = min(x for x, _ in moved), min(y for _, y in moved)
        found.add(frozenset(((x - mx, y - my), label) for (x, y), label in zip(moved, labels)))
    return found


# (cells, labels, distinct orientations counted by hand)
CASES = {
    "domino, two different halves": (((0, 0), (1, 0)), ("a", "b"), 4),
    "domino, two equal halves": (((0, 0), (1, 0)), ("a", "a"), 2),
    "square, one corner marked": (((0, 0), (1, 0), (0, 1), (1, 1)), ("m", "-", "-", "-"), 4),
    "square, two corners of a side marked": (((0, 0), (1, 0), (0, 1), (1, 1)), ("m", "m", "-", "-"), 4),
    "square, all four different": (((0, 0), (1, 0), (0, 1), (1, 1)), ("a", "b", "c", "d"), 8),
    "bar of three, different ends": (((0, 0), (1, 0), (2, 0)), ("a", "-", "b"), 4),
    "bar of three, middle marked": (((0, 0), (1, 0), (2, 0)), ("-", "m", "-"), 2),
    "corner of three, plain": (((0, 0), (0, 1), (1, 1)), ("-", "-", "-"), 4),
    "corner of three, an end marked": (((0, 0), (0, 1), (1, 1)), ("m", "-", "-"), 8),
    "corner of three, the bend marked": (((0, 0), (0, 1), (1, 1)), ("-", "m", "-"), 4),
}


@pytest.mark.parametrize("name", list(CASES))
def test_a_piece_with_different_cells_has_its_hand_counted_orientations(name):
    cells, labels, count = CASES[name]
    found = orientations(cells, labels)
    parts = orientation_parts(cells, labels)
    assert len(found) == count
    assert len(labelled_images(cells, labels)) == count                # the brute force agrees
    shown = {frozenset((cell, labels[i]) for cell, i in zip(o, p)) for o, p in zip(found, parts)}
    assert shown == labelled_images(cells, labels)                     # each image once, none else


def test_the_kingdom_dominoes_have_four_orientations_each_unless_their_halves_are_equal():
    from tests.test_testbeds import KINGDOM, reference
    tiles = reference(KINGDOM).TILE
    equal = sum(left == right for left, right in tiles.values())
    game = load_game(KINGDOM / "kingdom.game")
    dominoes = [c for c, label in enumerate(game.labels) if label.startswith("domino ")]
    assert len(dominoes) == 48 and equal == 12                         # 12 plain dominoes: 1 to 12
    assert sum(len(game.orientations[c]) for c in dominoes) == 4 * 36 + 2 * 12


DATA = """\
provenance: test
enums:
  Terrain: [wheat, forest, water, lake]
components:
  Tile:
    label: "{name}"
    attributes: {name: str, owner: int}
    cell_attributes: {terrain: Terrain, crowns: int}
    items:
      - {name: mixed, owner: 0, shape: [{at: [0, 0], terrain: wheat, crowns: 1}, {at: [1, 0], terrain: forest, crowns: 0}]}
      - {name: plain, owner: 0, shape: [{at: [0, 0], terrain: forest, crowns: 2}, {at: [1, 0], terrain: forest, crowns: 2}]}
      - {name: square, owner: 1, shape: [{at: [0, 0], terrain: wheat, crowns: 0}, {at: [1, 0], terrain: forest, crowns: 1},
                                         {at: [0, 1], terrain: water, crowns: 2}, {at: [1, 1], terrain: lake, crowns: 3}]}
"""
RULES = """\
game "Cells"
players 2
data "tiles.yaml"
zone board: grid of Tile
zone bag: pile of Tile
setup { move components(Tile) to bag }
play { choose q from contents(bag) by 0 }
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cells")
    (folder / "tiles.yaml").write_text(DATA)
    (folder / "g.game").write_text(RULES)
    return load_game(folder / "g.game")


def laid(game, name, at, turn):
    st = game.new_state(2, seed=1)
    game.move(st, game.labels.index(name), "board", at, False, turn)
    return st


def seen(game, st, cell, attr="terrain"):
    return SHAPE_IMPLEMENTATIONS["cell_attr"](game, st, "board", cell, attr)


# Orientation n of the domino (left half wheat*1 at [0, 0], right half forest at [1, 0]):
# turned a quarter clockwise n times, y growing downwards, worked out by hand.
DOMINO_TURNS = {0: {(5, 5): "wheat", (6, 5): "forest"}, 1: {(5, 5): "wheat", (5, 6): "forest"},
                2: {(6, 5): "wheat", (5, 5): "forest"}, 3: {(5, 6): "wheat", (5, 5): "forest"}}


@pytest.mark.parametrize("turn", range(4))
def test_a_turned_domino_shows_each_half_where_the_turn_puts_it(game, turn):
    st = laid(game, "mixed", (5, 5), turn)
    assert {cell: seen(game, st, cell) for cell in DOMINO_TURNS[turn]} == DOMINO_TURNS[turn]
    wheat = next(c for c, t in DOMINO_TURNS[turn].items() if t == "wheat")
    assert seen(game, st, wheat, "crowns") == 1
    assert seen(game, st, (9, 9)) is None                              # an empty cell
    assert seen(game, st, wheat, "name") == "mixed"                    # the piece's own attribute


def test_a_reflected_square_shows_its_cells_mirrored(game):
    """Orientation 4 is the mirror image of the square as given (x -> -x): its columns swap."""
    square = game.labels.index("square")
    assert len(game.orientations[square]) == 8
    st = laid(game, "square", (0, 0), 4)
    assert [[seen(game, st, (x, y)) for x in range(2)] for y in range(2)] == [["forest", "wheat"], ["lake", "water"]]
    st = laid(game, "square", (0, 0), 1)                               # a quarter clockwise
    assert [[seen(game, st, (x, y)) for x in range(2)] for y in range(2)] == [["water", "wheat"], ["lake", "forest"]]


def test_a_placement_shows_what_it_would_lay_on_each_cell(game):
    st = game.new_state(2, seed=1)
    mixed = game.labels.index("mixed")
    found = SHAPE_IMPLEMENTATIONS["placements_of"](game, st, "board", [mixed], [(0, 0)])
    assert len(found) == 8                                             # 4 orientations x 2 anchors
    for m in found:
        cells = {c: SHAPE_IMPLEMENTATIONS["cell_attr"](game, st, m, c, "terrain") for c in m.cells}
        (ax, ay) = m.at
        expected = {(x + ax - 5, y + ay - 5): t for (x, y), t in DOMINO_TURNS[m.turn].items()}
        shift = (min(x for x, _ in expected), min(y for _, y in expected))
        expected = {(x - shift[0] + ax, y - shift[1] + ay): t for (x, y), t in expected.items()}
        assert cells == expected
    with pytest.raises(Problem, match="does not cover"):            # a rule error at the call's line
        SHAPE_IMPLEMENTATIONS["cell_attr"](game, st, found[0], (7, 7), "terrain")


def test_groups_by_a_cell_attribute_follow_each_half(game):
    st = laid(game, "mixed", (0, 0), 0)                                # wheat (0, 0), forest (1, 0)
    game.move(st, game.labels.index("plain"), "board", (1, 1), False, 1)  # forest (1, 1), (1, 2)
    groups = game.namespace["_B_groups"]
    assert groups(game, st, "board", "terrain") == [[(0, 0)], [(1, 0), (1, 1), (1, 2)]]
    assert groups(game, st, "board", "owner") == [[(0, 0), (1, 0), (1, 1), (1, 2)]]


def test_a_laid_piece_shows_the_same_halves_after_a_save(game):
    st = laid(game, "mixed", (2, 2), 3)
    back = State.from_json(st.to_json())
    assert {c: seen(game, back, c) for c in ((2, 2), (2, 3))} == {(2, 3): "wheat", (2, 2): "forest"}


def test_cell_attr_is_typed_as_declared_in_a_rule_file(tmp_path):
    (tmp_path / "tiles.yaml").write_text(DATA)
    (tmp_path / "g.game").write_text(RULES + textwrap.dedent("""\
        fn crowns(c: cell) -> int = cell_attr(board, c, "crowns")
        fn wrong(c: cell) -> bool = cell_attr(board, c, "terrain")
        """))
    with pytest.raises(RuleFileError) as caught:
        load_game(tmp_path / "g.game")
    messages = [d.message for d in caught.value.diagnostics]
    assert messages == ["'wrong' should return bool, but its body is Terrain"]


def test_the_language_server_completes_and_explains_cell_attr():
    from boardwright.cli.lsp import completions, hover_text
    names = {item.label: item for item in completions(None, None, "let t = ")}
    assert "cell_attr" in names and "cell" in names["cell_attr"].documentation
    assert "cell_attributes" in hover_text(None, "cell_attr")


def test_the_play_screen_draws_each_half_of_a_laid_domino_with_its_own_data():
    from tests.test_testbeds import KINGDOM
    from boardwright.cli.render import render_table
    game = load_game(KINGDOM / "kingdom.game")
    st = game.new_state(2, seed=6)
    game.move(st, game.labels.index("domino 19"), "kingdom/0", (1, 0), False, 2)   # forest (1, 0), wheat*1 (2, 0)
    glyphs = game.observe(st, 0)["glyphs"]["kingdom/0"]
    assert glyphs == {"0,0": ["castle0"], "1,0": ["forest0"], "2,0": ["wheat 1"]}
    screen = render_table(game, game.observe(st, 0))
    row = next(r for r in screen.splitlines() if "forest0" in r)
    assert row.index("castle0") < row.index("forest0") < row.index("wheat 1")


@pytest.mark.parametrize("cell,message", [
    ("{at: [0, 0], Terrain: wheat, crowns: 0}", "a cell attribute is named in lower case, like 'terrain', not 'Terrain'"),
    ("{terrain: wheat, crowns: 0}", "a cell with its own data gives its place as 'at: [x, y]'"),
    ("{at: [0, 0, 1], terrain: wheat, crowns: 0}", "a cell of a shape is a pair of whole numbers [x, y], not [0, 0, 1]"),
])
def test_a_cell_the_schema_refuses_is_explained_in_plain_words_at_its_shape(tmp_path, cell, message):
    from boardwright.dsl.data import load_data
    from boardwright.dsl.errors import DataError
    (tmp_path / "d.yaml").write_text(DATA.replace("{at: [0, 0], terrain: wheat, crowns: 1}", cell))
    with pytest.raises(DataError) as caught:
        load_data(tmp_path / "d.yaml")
    assert [d.message for d in caught.value.diagnostics] == [message]
    assert caught.value.diagnostics[0].span.line == 10 and caught.value.diagnostics[0].hint


def test_details_naming_cell_attributes_show_each_cell_in_the_shapes_order():
    """tiles.yaml: details "{terrain}[*{crowns}]", once per half, left half first."""
    from tests.test_testbeds import KINGDOM, reference
    game = load_game(KINGDOM / "kingdom.game")
    for number, halves in reference(KINGDOM).TILE.items():
        shown = " / ".join(t + (f"*{c}" if c else "") for t, c in halves)
        assert game.details[game.labels.index(f"domino {number}")] == shown
    assert game.details[game.labels.index("castle")] == "castle"


def test_the_web_table_draws_each_half_of_a_laid_domino_with_its_own_glyph():
    from tests.test_testbeds import KINGDOM
    from boardwright.cli.web.looks import grid_view
    game = load_game(KINGDOM / "kingdom.game")
    st = game.new_state(2, seed=6)
    game.move(st, game.labels.index("domino 19"), "kingdom/0", (1, 0), False, 1)   # wheat*1 (1, 0) over forest (1, 1)
    content = {f"{x},{y}": [game.labels[c] for c in stack] for (x, y), stack in st.zones["kingdom/0"].items()}
    drawn = {c["cell"]: c["stack"][-1]["glyph"] for c in grid_view(game, st, "kingdom/0", content, [])["cells"]}
    assert drawn == {"0,0": ["castle0"], "1,0": ["wheat 1"], "1,1": ["forest0"]}
