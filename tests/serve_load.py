"""A bounded load test of the web table (docs/performance.md): TABLES tables of bots playing
each other on one server on 127.0.0.1, each watched by a client that long-polls its view
over HTTP until the game ends, as a page does. Every request is to this machine; the run
stops by itself after its games end or after LIMIT_SECONDS.

    python tests/serve_load.py [TABLES] [GAME] [BOTS]
    python tests/serve_load.py --bot-answer [GAME] [BOT] [MOVES]

Prints the games finished, moves played, requests answered and their latency; exits 1 on any
error or unfinished game. tests/test_serve.py runs it (marked slow). With --bot-answer: how
long a bot's answer takes to reach the page (from the human's POST to the long poll bringing
the bot's move) beside the time the bot itself thinks, as in the terminal."""
from __future__ import annotations

import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from web_support import new_table, request, serving  # noqa: E402

LIMIT_SECONDS = 170
MAX_REQUESTS_PER_TABLE = 5000


def run(tables: int = 20, game: str = "punto", bots: str = "random,random", seed: int = 1, params=None,
        folder: Path | None = None) -> dict:
    folder = folder or Path(tempfile.mkdtemp(prefix="boardwright-load-"))
    held = [new_table(folder / str(i), game, bots.split(","), seed=seed + i, params=params) for i in range(tables)]
    errors, latencies, polls = [], [], [0]
    deadline = time.monotonic() + LIMIT_SECONDS

    def watch(table, url):
        version = None
        for _ in range(MAX_REQUESTS_PER_TABLE):
            if time.monotonic() > deadline:
                errors.append(f"{url}: not finished in {LIMIT_SECONDS} s")
                return
            started = time.monotonic()
            status, view = request(url + ("" if version is None else f"?after={version}"))
            latencies.append(time.monotonic() - started)
            polls[0] += 1
            if status != 200 or "failure" in view:
                errors.append(f"{url}: {status} {str(view)[:200]}")
                return
            version = view["version"]
            if view["finished"]:
                return
        errors.append(f"{url}: more than {MAX_REQUESTS_PER_TABLE} requests")

    started = time.monotonic()
    with serving(*held) as server:
        watchers = [threading.Thread(target=watch, args=(t, f"{server.url}/api/{t.tokens['table']}/view"))
                    for t in held]
        for w in watchers:
            w.start()
        for w in watchers:
            w.join()
    seconds = time.monotonic() - started
    moves = sum(len(t.moves) for t in held)
    return {"tables": tables, "finished": sum(t.st.finished for t in held), "moves": moves,
            "seconds": round(seconds, 1), "moves_per_second": round(moves / seconds, 1), "requests": polls[0],
            "median_ms": round(1000 * statistics.median(latencies), 1) if latencies else None,
            "errors": errors}


def bot_answer(game: str = "punto", bot: str = "mcts", moves: int = 10) -> dict:
    """Per human move against `bot`: the bot's own choosing time (what the terminal waits) and
    the time from the human's POST until the page's long poll brings the bot's answer."""
    table = new_table(Path(tempfile.mkdtemp(prefix="boardwright-bot-")), game, ["human", bot])
    thinking = []
    bot_seat = 1
    original = table.bots[bot_seat].choose

    def timed(game_, st):
        started = time.perf_counter()
        index = original(game_, st)
        thinking.append(time.perf_counter() - started)
        return index
    table.bots[bot_seat].choose = timed
    seen = []
    with serving(table) as server:
        api = f"{server.url}/api/{table.tokens['table']}"
        for _ in range(moves):
            status, view = request(f"{api}/view")
            if view["finished"] or not view.get("decision") or view["decision"]["options"] is None:
                break
            move = view["move"]
            started = time.perf_counter()
            request(f"{api}/choose", {"move": move, "option": 0})
            version = None
            while True:
                status, view = request(f"{api}/view" + ("" if version is None else f"?after={version}"))
                version = view["version"]
                if view["move"] >= move + 2 or view["finished"]:
                    break
            seen.append(time.perf_counter() - started)
    return {"bot": bot, "moves": len(seen), "thinking_median_ms": round(1000 * statistics.median(thinking), 1),
            "page_median_ms": round(1000 * statistics.median(seen), 1),
            "overhead_median_ms": round(1000 * statistics.median(s - t for s, t in zip(seen, thinking)), 1)}


if __name__ == "__main__":
    args = sys.argv[1:]
    if args and args[0] == "--bot-answer":
        print(bot_answer(*(args[1:3]), *(int(a) for a in args[3:4])))
        sys.exit(0)
    report = run(int(args[0]) if args else 20, *(args[1:3]))
    for key, value in report.items():
        print(f"{key}: {value if key != 'errors' else len(value)}")
    for error in report["errors"][:10]:
        print("  " + error)
    sys.exit(1 if report["errors"] or report["finished"] != report["tables"] else 0)
