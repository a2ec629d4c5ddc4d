"""The public entry point: a game from a rule file, parsed, merged, checked and compiled.

`load_game(path, variant=None)` takes a `.game` file, a game folder or the name of a bundled
game, and a variant name or path. It lives here, on the floor that builds what it returns: the
language (dsl/loader.py) finds, merges and checks the spec; the compiler turns it into a `Game`.
Every problem found is raised at once as a `BoardwrightError`.
"""
from __future__ import annotations

from pathlib import Path

from ...dsl.loader import check_game
from .game import compile_game


def load_game(path: str | Path, variant: str | None = None, warnings: bool = False):
    """Parse, merge, check and compile a game. Returns an interpreter `Game` (with
    `warnings`, its spec lists them: see dsl.loader.check_game)."""
    spec, types = check_game(path, variant, warnings)
    return compile_game(spec, types)
