"""Shared fixtures: bundled games, loaded once per test session."""
from __future__ import annotations

import os
import tempfile
import textwrap
from functools import lru_cache
from pathlib import Path

import pytest

from boardwright.dsl.loader import GAMES_DIR, bundled_games, load_game, resolve_game, variants_of
from coverage_floors import check_floors

# Compiled code and the parser tables go to a throwaway cache, not the user's.
os.environ.setdefault("BOARDWRIGHT_CACHE", tempfile.mkdtemp(prefix="boardwright-test-cache-"))


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtestloop(session):
    """Outside pytest-cov's own wrapper: its data is combined when this code resumes."""
    result = yield
    check_floors(session)
    return result


def all_game_variants() -> list[tuple[str, str | None]]:
    """Every bundled game with None (the base) and each of its variants."""
    out = []
    for name in bundled_games():
        out.append((name, None))
        out.extend((name, v) for v in variants_of(resolve_game(name)))
    return out


@lru_cache(maxsize=None)
def cached_game(name: str, variant: str | None = None):
    return load_game(name, variant)


@pytest.fixture
def punto():
    return cached_game("punto")


def scenario_paths() -> list[Path]:
    return sorted(GAMES_DIR.rglob("*.scenario.yaml"))


SMALL_DATA = """\
provenance: test data
enums:
  Suit: [hearts, spades]
components:
  Card:
    label: "{suit} {rank}"
    attributes: {suit: Suit, rank: int}
    items:
      - product: {suit: [hearts, spades], rank: [1, 2, 3]}
"""


def make_small_game(tmp_path, rules: str):
    """Load `rules` (dedented) as g.game beside a six-card data file cards.yaml."""
    return load_game(small_game_file(tmp_path, textwrap.dedent(rules)))


SMALL_HEADER = 'game "Tiny"\nplayers 2\ndata "cards.yaml"\n'


def small_game_file(tmp_path, text: str, data: str = SMALL_DATA) -> Path:
    """g.game holding `text` beside cards.yaml holding `data` (by default the six cards)."""
    (tmp_path / "cards.yaml").write_text(data)
    path = tmp_path / "g.game"
    path.write_text(text)
    return path


def small_body_file(tmp_path, body: str, data: str = SMALL_DATA) -> Path:
    """SMALL_HEADER + `body` (dedented): the body's line 1 is the file's line 4."""
    return small_game_file(tmp_path, SMALL_HEADER + textwrap.dedent(body), data)
