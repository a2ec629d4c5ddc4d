"""Broken rule files never crash the engine: random mutations of a real rule file (80 in CI,
2,000 under `--hypothesis-profile thorough`) either load and run, or fail with a
positioned BoardwrightError (never a traceback)."""
from __future__ import annotations

import pytest

import random
import re
import shutil

from boardwright.dsl.errors import BoardwrightError
from boardwright.dsl.loader import GAMES_DIR
from boardwright.interpreter.compile.load import load_game

from conftest import examples

COUNT = examples(80)


def mutants(text: str, count: int, seed: int):
    tokens = re.findall(r"\w+|[^\w\s]|\s+", text)
    words = sorted({t for t in tokens if t.strip()})
    rng = random.Random(seed)
    for _ in range(count):
        t = list(tokens)
        for _ in range(rng.randint(1, 3)):
            k = rng.randrange(len(t))
            roll = rng.random()
            if roll < 0.4:
                t[k] = ""
            elif roll < 0.8:
                t[k] = rng.choice(words)
            else:
                t.insert(k, rng.choice(words))
        yield "".join(t)


@pytest.mark.slow
def test_mutated_rule_files_fail_cleanly_or_run(tmp_path):
    source = GAMES_DIR / "punto"
    shutil.copy(source / "cards.yaml", tmp_path / "cards.yaml")
    path = tmp_path / "punto.game"
    outcomes = {"loaded": 0, "rejected": 0}
    for text in mutants((source / "punto.game").read_text(), count=COUNT, seed=2026):
        path.write_text(text)
        try:
            game = load_game(path)
            st = game.new_state(2, 1)
            for _ in range(20):
                if st.finished:
                    break
                game.apply_index(st, 0)
            outcomes["loaded"] += 1
        except BoardwrightError as err:
            rendered = err.format()
            assert rendered.strip()
            assert all(d.message for d in err.diagnostics)
            outcomes["rejected"] += 1
    # Both kinds of outcome are common (about 3 in 10 rejected, 1 in 10 loading), so the loop
    # really runs broken files through the checker and through play.
    assert outcomes["rejected"] + outcomes["loaded"] == COUNT
    assert outcomes["rejected"] > COUNT * 0.3 and outcomes["loaded"] > COUNT * 0.06, outcomes
