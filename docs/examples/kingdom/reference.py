"""Kingdom in plain Python: the rules of kingdom.game, written by hand.

It is the yardstick for the engine: given the same seed and the same choice indices it
draws the same dominoes, offers the same options in the same order as the rule file at
every decision, and ends with the same scores. To draw the same dominoes it uses the
engine's random generator (SplitMix64, seeded and stepped the same way), written out
below.

A decision is either a draft (`kind == "pick"`, options: domino numbers, ascending) or a
placement (`kind == "lay"`, options: ((x, y) of the left half, (x, y) of the right half)),
in the order of the domino's orientation, then of the top left cell row by row (y, then x).
The orientations are numbered as the engine numbers a shape's (docs/language.md, Shapes):
a domino with two different halves has four, the right half east, south, west and north of
the left; one with two equal halves has two, lying across (0) and upright (1).

    python3 reference.py [GAMES] [SEED]    plays random games and prints time and figures
"""
from __future__ import annotations

import importlib.util
import random
import sys
import time
from pathlib import Path

# The data script beside this file (loaded by path: both test beds have a make_data.py).
_spec = importlib.util.spec_from_file_location("kingdom_make_data", Path(__file__).with_name("make_data.py"))
_data = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_data)
DOMINOES = _data.DOMINOES

DOMINOES_USED = 24
LINE_SIZE = 4
SIDE = 5
CASTLE = "castle"
ORTHOGONAL = ((0, -1), (-1, 0), (1, 0), (0, 1))

TILE = {n: (left, right) for n, left, right in DOMINOES}     # n -> ((terrain, crowns), (terrain, crowns))

# ---------------------------------------------------------------- the engine's random generator
MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    return (int(seed) * 0x2545F4914F6CDD1D + 0x9E3779B97F4A7C15) & MASK


def shuffle_in_place(rng: list, items: list) -> None:
    """Fisher-Yates from the end, each index drawn from the next SplitMix64 output."""
    state = rng[0]
    for i in range(len(items) - 1, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        j = (z ^ (z >> 31)) % (i + 1)
        items[i], items[j] = items[j], items[i]
    rng[0] = state


# ---------------------------------------------------------------- a kingdom
TURNS = {(1, 0): 0, (0, 1): 1, (-1, 0): 2, (0, -1): 3}      # where the right half lies from the left


def order(pair, symmetric: bool) -> tuple:
    """The place of a placement among the options: orientation, then top left cell (y, x)."""
    (ax, ay), (bx, by) = pair
    turn = TURNS[(bx - ax, by - ay)] % (2 if symmetric else 4)
    return turn, min(ay, by), min(ax, bx)

class Kingdom:
    def __init__(self):
        self.squares = {(0, 0): (CASTLE, 0)}        # cell -> (terrain, crowns)
        self.box = [0, 0, 0, 0]                     # min x, min y, max x, max y

    def fits(self, x: int, y: int) -> bool:
        x0, y0, x1, y1 = self.box
        return max(x1, x) - min(x0, x) < SIDE and max(y1, y) - min(y0, y) < SIDE

    def free(self, c) -> bool:
        return c not in self.squares and self.fits(*c)

    def joins(self, c, terrain: str) -> bool:
        x, y = c
        for dx, dy in ORTHOGONAL:
            t = self.squares.get((x + dx, y + dy))
            if t is not None and t[0] in (terrain, CASTLE):
                return True
        return False

    def placements(self, n: int) -> list:
        (lt, lc), (rt, rc) = TILE[n]
        symmetric = lt == rt and lc == rc
        found = set()
        squares = self.squares
        frontier = {(x + dx, y + dy) for x, y in squares for dx, dy in ORTHOGONAL} - squares.keys()
        for c in frontier:
            if not self.fits(*c):
                continue
            x, y = c
            for dx, dy in ORTHOGONAL:
                n_ = (x + dx, y + dy)
                if not self.free(n_):
                    continue
                for a, b in ((c, n_), (n_, c)):
                    if symmetric and not a < b:
                        continue
                    if self.joins(a, lt) or self.joins(b, rt):
                        found.add((a, b))
        return sorted(found, key=lambda pair: order(pair, symmetric))

    def lay(self, n: int, a, b) -> None:
        left, right = TILE[n]
        for c, half in ((a, left), (b, right)):
            self.squares[c] = half
            x0, y0, x1, y1 = self.box
            self.box = [min(x0, c[0]), min(y0, c[1]), max(x1, c[0]), max(y1, c[1])]

    def areas(self) -> list:
        seen, found = set(), []
        for start in self.squares:
            if start in seen:
                continue
            terrain = self.squares[start][0]
            area, todo = [], [start]
            seen.add(start)
            while todo:
                c = todo.pop()
                area.append(c)
                for dx, dy in ORTHOGONAL:
                    n = (c[0] + dx, c[1] + dy)
                    if n not in seen and n in self.squares and self.squares[n][0] == terrain:
                        seen.add(n)
                        todo.append(n)
            found.append(area)
        return found

    def score(self) -> int:
        return sum(len(a) * sum(self.squares[c][1] for c in a) for a in self.areas())

    def tiebreak(self) -> tuple:
        largest = max([len(a) for a in self.areas() if self.squares[a[0]][0] != CASTLE] + [0])
        return largest, sum(crowns for _, crowns in self.squares.values())


# ---------------------------------------------------------------- the game
class Game:
    """Runs the rules to each decision. The flow is the rule file's play block, written as
    a generator: each `yield` is a decision, answered by apply(index)."""

    def __init__(self, seed: int = 0):
        self.rng = [seed_state(seed)]
        deck = [n for n, _, _ in DOMINOES]          # bottom to top
        shuffle_in_place(self.rng, deck)
        del deck[DOMINOES_USED:]                    # the top ones go back to the box unseen
        self.deck = deck
        self.kingdoms = [Kingdom(), Kingdom()]
        self.offer: list[int] = []
        self.claim: dict[int, int] = {}
        self.discarded: list[int] = []
        self.finished = False
        self.kind = self.player = self.domino = None
        self.options: list = []
        self._flow = self._play()
        self._chosen = None
        self._next()

    def _reveal(self) -> None:
        for _ in range(LINE_SIZE):
            if self.deck:
                self.offer.append(self.deck.pop())

    def _pick(self, q: int):
        options = sorted(n for n in self.offer if n not in self.claim)
        if not options:
            return
        self.kind, self.player, self.domino, self.options = "pick", q, None, options
        yield
        self.claim[self.options[self._chosen]] = q

    def _lay(self, q: int, n: int):
        spots = self.kingdoms[q].placements(n)
        if not spots:
            self.discarded.append(n)
        else:
            self.kind, self.player, self.domino, self.options = "lay", q, n, spots
            yield
            a, b = spots[self._chosen]
            self.kingdoms[q].lay(n, a, b)
        del self.claim[n]

    def _play(self):
        self._reveal()
        order = [0, 1, 0, 1]
        shuffle_in_place(self.rng, order)
        for q in order:
            yield from self._pick(q)
        while self.offer:
            line, self.offer = self.offer, []
            self._reveal()
            for n in sorted(line):
                q = self.claim[n]
                yield from self._lay(q, n)
                yield from self._pick(q)

    def _next(self) -> None:
        try:
            next(self._flow)
        except StopIteration:
            self.finished, self.options, self.kind, self.player = True, [], None, None

    def apply(self, index: int) -> None:
        self._chosen = index
        self._next()

    def scores(self) -> list[int]:
        return [k.score() for k in self.kingdoms]

    def winners(self) -> list[int]:
        keys = [(k.score(),) + k.tiebreak() for k in self.kingdoms]
        best = max(keys)
        return [p for p in range(2) if keys[p] == best]


def random_game(seed: int, rng: random.Random) -> tuple[Game, int, int]:
    game = Game(seed)
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
    print(f"{games} random games in {spent:.2f} s CPU ({spent / games * 1000:.2f} ms a game), "
          f"{decisions / games:.1f} decisions a game, {options / decisions:.1f} options per decision")
