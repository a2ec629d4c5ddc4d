"""The web table's view of a placement game over HTTP (cli/web/looks.py): each piece that
covers several cells is in the view once, with its cells, and each placement option names
the piece, its orientation and the cells it would cover. The expected cells come from the
polyomino test bed's plain-Python reference (docs/examples/polyomino/reference.py), which
offers the same options in the same order; the browser side is in test_serve_browser.py."""
from __future__ import annotations

import importlib.util
from pathlib import Path

from test_shapes import DATA as SHAPES_DATA
from web_support import request, serving

from boardwright.cli.web.looks import seat_view
from boardwright.cli.web.table import open_table
from boardwright.interpreter.compile.load import load_game

POLYOMINO = Path(__file__).resolve().parent.parent / "docs" / "examples" / "polyomino"
COLOURS = ["violet", "orange"]          # polyomino.game's param colours: seat 0, seat 1


def polyomino_reference():
    spec = importlib.util.spec_from_file_location("serve_polyomino_reference", POLYOMINO / "reference.py")
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


def as_text(cells) -> list[str]:
    return sorted(f"{x},{y}" for x, y in cells)


def test_the_view_holds_each_piece_once_with_its_cells_and_each_placement_its_cells(tmp_path):
    ref = polyomino_reference()
    table, _ = open_table(str(POLYOMINO / "polyomino.game"), None, 2, ["human", "human"], 1, tmp_path / "saves",
                          load_game)
    mirror = ref.Polyomino(0)
    placed = []                         # (label, cells) of each piece laid, by the reference
    with serving(table) as server:
        api = f"{server.url}/api/{table.tokens['table']}"
        for move, pick in enumerate([0, 40, 7, 123, 55, 9, 200]):
            decision = request(f"{api}/view")[1]["decision"]
            options = decision["options"]
            assert len(options) == len(mirror.options)
            for option, theirs in zip(options, mirror.options):
                name, cells = ref.covered(theirs)
                piece = option["placement"]
                assert sorted(piece["cells"]) == as_text(cells), option["label"]
                assert decision["pieces"][str(piece["piece"])]["label"] == f"{COLOURS[mirror.player]} {name}"
                assert piece["grids"] == ["board"]         # the cells are the board's
            # Each piece the placements lay, once, with where it lies: its seat's reserve.
            assert sorted(p["label"] for p in decision["pieces"].values()) \
                == sorted({f"{COLOURS[mirror.player]} {ref.covered(o)[0]}" for o in mirror.options})
            assert {p["lies"]["zone"] for p in decision["pieces"].values()} == {f"reserve/{mirror.player}"}
            k = pick % len(options)
            name, cells = ref.covered(mirror.options[k])
            placed.append((f"{COLOURS[mirror.player]} {name}", as_text(cells)))
            mirror.apply(k)
            assert request(f"{api}/choose", {"move": move, "option": k})[0] == 200
        view = request(f"{api}/view")[1]
    board = next(z for z in view["zones"] if z["key"] == "board")
    pieces = sorted((p["label"], sorted(p["cells"])) for p in board["pieces"])
    assert pieces == sorted(placed)                 # each piece once, with exactly its cells
    assert all(p["colour"] == p["label"].split()[0] for p in board["pieces"])    # the colour from its data
    covered = [cell for _, cells in placed for cell in cells]
    assert sorted(c["cell"] for c in board["cells"]) == sorted(covered) and len(set(covered)) == len(covered)


FLOATING_RULES = """\
game "Floating"
players 2
data "pieces.yaml"
zone board: grid of Piece
zone bag: pile of Piece
setup {
  move components(Piece) to bag
  move [q for q in components(Piece) if q.name == "ell"][0] to board at (0, 0) turned 0
}
play {
  choose m from placements_of(board, [q for q in contents(bag) if q.name == "bar"], [(5, 5)]) by 0 prompt "Lay the bar"
  move m.piece to board at m.at turned m.turn
}
"""


def test_a_grid_without_a_size_spans_its_pieces_and_every_cell_a_placement_would_cover(tmp_path):
    (tmp_path / "pieces.yaml").write_text(SHAPES_DATA)       # an ell, a bar (two across) and others
    (tmp_path / "g.game").write_text(FLOATING_RULES)
    game = load_game(tmp_path / "g.game")
    st = game.new_state(2, 1)
    view = seat_view(game, st, 0, ["human", "human"])
    board = next(z for z in view["zones"] if z["key"] == "board")
    # By hand: the ell (a column of three and a foot to the right) at (0, 0); the bar over
    # (5, 5) lies across from (4, 5) or (5, 5), or upright from (5, 4) or (5, 5).
    assert [(p["label"], sorted(p["cells"])) for p in board["pieces"]] == [("red ell", ["0,0", "0,1", "0,2", "1,2"])]
    covers = sorted(sorted(o["placement"]["cells"]) for o in view["decision"]["options"])
    assert covers == sorted([["4,5", "5,5"], ["5,5", "6,5"], ["5,4", "5,5"], ["5,5", "5,6"]])
    assert board["bounds"] == [0, 0, 6, 6]
