"""The measurement behind docs/playtesting.md's figure for `tune`: does it find the fair head
start of the race (reference.py computes it exactly) within one step, for ten seeds, in at
most 5,000 games each?

    python3 tune_benchmark.py [SEEDS] [BUDGET]    (defaults: 10 seeds, 5000 games)
"""
from __future__ import annotations

import contextlib
import io
import json
import sys
import time
from pathlib import Path

from boardwright.cli.main import main

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from reference import fair_head_start  # noqa: E402


def tune_once(seed: int, budget: int) -> dict:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["tune", str(HERE / "race.game"), "--players", "2", "--param", "head_start=0..20",
                     "--goal", "first-player=0.5", "--budget", str(budget), "--seed", str(seed), "--json", "-q"])
    assert code == 0
    return json.loads(out.getvalue())


if __name__ == "__main__":
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    budget = int(sys.argv[2]) if len(sys.argv) > 2 else 5000
    fair = fair_head_start()
    hits = 0
    print(f"fair head start (exact): {fair}")
    for seed in range(1, seeds + 1):
        start = time.perf_counter()
        result = tune_once(seed, budget)
        found = result["best"]["params"]["head_start"]
        hits += abs(found - fair) <= 1
        print(f"seed {seed:2}: found {found:2} ({'within one step' if abs(found - fair) <= 1 else 'MISSED'}), "
              f"{result['games_played']} games, {time.perf_counter() - start:.1f} s")
    print(f"{hits} of {seeds} within one step")
