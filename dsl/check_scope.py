"""The names a rule can see while it is checked: the game's built-in globals, and the Scope of
a body's local names."""
from __future__ import annotations

from .types import INT, PLAYER, list_of

GLOBALS = {"players": list_of(PLAYER), "player_count": INT, "current": PLAYER, "supply": "zone of any"}


class Scope:
    """Local names of a function or procedure body; blocks nest by copying."""

    def __init__(self, names: dict | None = None, loops: int = 0, kind: str = "proc"):
        self.names = dict(names or {})
        self.loops = loops
        self.kind = kind

    def child(self, loop: bool = False) -> "Scope":
        return Scope(self.names, self.loops + (1 if loop else 0), self.kind)
