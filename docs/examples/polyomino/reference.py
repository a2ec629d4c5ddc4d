"""Polyomino duel in plain Python: the rules of polyomino.game, written by hand.

It is the yardstick for the engine: given the same choice indices it offers the same
options in the same order as the rule files at every decision (by shape number, then the
box's top left row by row: y, then x), and ends with the same scores. Polyomino duel draws no random numbers, so the
seed changes nothing; it is accepted to keep the interface of the other references.

    python3 reference.py [GAMES] [SEED]    plays random games and prints time and figures
"""
from __future__ import annotations

import importlib.util
import random
import sys
import time
from pathlib import Path

# The data script beside this file (loaded by path: both test beds have a make_data.py).
_spec = importlib.util.spec_from_file_location("polyomino_make_data", Path(__file__).with_name("make_data.py"))
_data = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_data)
PIECES = _data.PIECES
cells_of = _data.cells_of
orientations = _data.orientations

SIDE = 14
STARTS = [(4, 4), (9, 9)]
ALL_PLACED_BONUS = 15
MONOMINO_LAST_BONUS = 5

# SHAPES[number] = (piece name, ((dx, dy), ...)), numbered as in pieces.yaml.
SHAPES = [(name, shape) for name, rows in PIECES for shape in orientations(rows)]
SIZES = {name: len(cells_of(rows)) for name, rows in PIECES}
TOTAL_SQUARES = sum(SIZES.values())

ORTHOGONAL = ((0, -1), (-1, 0), (1, 0), (0, 1))
DIAGONAL = ((-1, -1), (1, -1), (-1, 1), (1, 1))


class Polyomino:
    def __init__(self, seed: int = 0):
        self.board = [-1] * (SIDE * SIDE)          # y * SIDE + x -> seat, or -1
        self.held = [[name for name, _ in PIECES] for _ in range(2)]
        self.out = [False, False]
        self.placed_any = [False, False]
        self.last_piece = ["", ""]
        self.player = 0
        self.options: list[tuple[int, int, int]] = []
        self.finished = False
        self._advance(0)

    # ------------------------------------------------------------ legal placements
    def _open_map(self, p: int) -> list[bool]:
        board = self.board
        ok = [False] * (SIDE * SIDE)
        for y in range(SIDE):
            for x in range(SIDE):
                i = y * SIDE + x
                if board[i] != -1:
                    continue
                for dx, dy in ORTHOGONAL:
                    nx, ny = x + dx, y + dy
                    if 0 <= nx < SIDE and 0 <= ny < SIDE and board[ny * SIDE + nx] == p:
                        break
                else:
                    ok[i] = True
        return ok

    def _corners(self, p: int, ok: list[bool]) -> list[tuple[int, int]]:
        if not self.placed_any[p]:
            x, y = STARTS[p]
            return [(x, y)] if ok[y * SIDE + x] else []
        board = self.board
        found = []
        for y in range(SIDE):
            for x in range(SIDE):
                if not ok[y * SIDE + x]:
                    continue
                for dx, dy in DIAGONAL:
                    nx, ny = x + dx, y + dy
                    if 0 <= nx < SIDE and 0 <= ny < SIDE and board[ny * SIDE + nx] == p:
                        found.append((x, y))
                        break
        return found

    def placements(self, p: int) -> list[tuple[int, int, int]]:
        ok = self._open_map(p)
        corners = self._corners(p, ok)
        held = set(self.held[p])
        found = set()
        for cx, cy in corners:
            for number, (name, shape) in enumerate(SHAPES):
                if name not in held:
                    continue
                for ax, ay in shape:
                    x, y = cx - ax, cy - ay
                    for dx, dy in shape:
                        px, py = x + dx, y + dy
                        if not (0 <= px < SIDE and 0 <= py < SIDE and ok[py * SIDE + px]):
                            break
                    else:
                        found.add((number, x, y))
        return sorted(found, key=lambda o: (o[0], o[2], o[1]))

    # ------------------------------------------------------------ play
    def _advance(self, p: int) -> None:
        """From seat p on, find the next player who can place; mark the others out."""
        while not all(self.out):
            if not self.out[p]:
                options = self.placements(p)
                if options:
                    self.player, self.options = p, options
                    return
                self.out[p] = True
            p = 1 - p
        self.finished, self.options = True, []

    def apply(self, index: int) -> None:
        number, x, y = self.options[index]
        name, shape = SHAPES[number]
        p = self.player
        for dx, dy in shape:
            self.board[(y + dy) * SIDE + x + dx] = p
        self.held[p].remove(name)
        self.placed_any[p] = True
        self.last_piece[p] = name
        self._advance(1 - p)

    def scores(self) -> list[int]:
        result = []
        for p in range(2):
            left = sum(SIZES[name] for name in self.held[p])
            score = -left
            if left == 0:
                score += ALL_PLACED_BONUS
                if self.last_piece[p] == "I1":
                    score += MONOMINO_LAST_BONUS
            result.append(score)
        return result


def covered(option: tuple[int, int, int]) -> tuple[str, tuple]:
    """An option as (piece name, covered cells in the shape's order)."""
    number, x, y = option
    name, shape = SHAPES[number]
    return name, tuple((x + dx, y + dy) for dx, dy in shape)


def random_game(seed: int, rng: random.Random) -> tuple[Polyomino, int, int]:
    game = Polyomino(seed)
    decisions = options = 0
    while not game.finished:
        decisions += 1
        options += len(game.options)
        game.apply(rng.randrange(len(game.options)))
    return game, decisions, options


if __name__ == "__main__":
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    rng = random.Random(seed)
    start = time.process_time()
    decisions = options = 0
    for g in range(games):
        _, d, o = random_game(seed * 1000003 + g, rng)
        decisions, options = decisions + d, options + o
    spent = time.process_time() - start
    print(f"{games} random games in {spent:.2f} s CPU ({spent / games * 1000:.1f} ms a game), "
          f"{decisions / games:.1f} decisions a game, {options / decisions:.1f} options per decision")
