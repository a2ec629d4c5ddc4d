"""What saving on every move costs a web table as its game grows (docs/performance.md, "The
web table"): a table of two random bots plays MOVES moves of a counting game (its state
grows with every move, as any game's history does), saved on every move in a temporary
folder; prints the seconds of the whole run and the milliseconds a move took, median, over
the first and the last hundred moves.

    python tests/serve_save_profile.py [MOVES]
    python tests/serve_save_profile.py --log [MOVES]

With --log: the same for `play --log` (two human seats at one terminal, each typing 1; the
milliseconds from one prompt to the next), whose log is written after every person's move.

The same script runs against any version of the table (it uses only open_table and
bot_move), so a before and an after can be timed side by side."""
from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from boardwright.cli.web.table import open_table
from boardwright.interpreter.compile.load import load_game

sys.path.insert(0, str(Path(__file__).parent))
from test_serve_tables import LONG_GAME as COUNTING  # noqa: E402  (a game of N rounds of two moves)

def profile(moves: int = 1200) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        game = Path(folder) / "counting.game"
        game.write_text(COUNTING % (moves // 2))
        table, _ = open_table(str(game), None, 2, ["random", "random"], 1, Path(folder) / "saves", load_game)
        each = []
        start = time.perf_counter()
        while True:
            before = time.perf_counter()
            if not table.bot_move():
                break
            each.append(time.perf_counter() - before)
        total = time.perf_counter() - start
    return {"moves": len(each), "seconds": total, "first_100_ms": 1000 * statistics.median(each[:100]),
            "last_100_ms": 1000 * statistics.median(each[-100:])}


def profile_log(moves: int = 1200) -> dict:
    from boardwright.cli.play import Session
    with tempfile.TemporaryDirectory() as folder:
        game = Path(folder) / "counting.game"
        game.write_text(COUNTING % (moves // 2))
        loaded, answers, asked = load_game(str(game)), ["1"] * moves, []

        def ask(prompt=""):
            asked.append(time.perf_counter())
            if not answers:
                raise EOFError
            return answers.pop(0)
        setup = {"game": str(game), "variant": None, "params": {}, "players": 2, "seed": 1,
                 "seats": ["human", "human"], "log": str(Path(folder) / "game.log")}
        session = Session(loaded, setup, loaded.new_state(2, 1), out=lambda text: None, ask=ask)
        start = time.perf_counter()
        session.run()
        total = time.perf_counter() - start
    each = [b - a for a, b in zip(asked, asked[1:])]
    return {"moves": len(session.moves), "seconds": total, "first_100_ms": 1000 * statistics.median(each[:100]),
            "last_100_ms": 1000 * statistics.median(each[-100:])}


if __name__ == "__main__":
    log = "--log" in sys.argv
    numbers = [int(a) for a in sys.argv[1:] if a.isdigit()]
    result = (profile_log if log else profile)(numbers[0] if numbers else 1200)
    print(f"{result['moves']} moves in {result['seconds']:.2f} s; a move: {result['first_100_ms']:.2f} ms "
          f"(median of the first 100), {result['last_100_ms']:.2f} ms (of the last 100)")
