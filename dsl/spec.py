"""The game specification: a base rule file, its variant and its data merged into one.

A variant file replaces declarations of the same name (params, zones, vars, fns, procs,
setup, play, score, tiebreak, winners, invariants) and adds new ones.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import ast
from .data import DataSet


@dataclass
class GameSpec:
    title: str
    path: str                               # the base rule file
    variant: str | None = None              # the variant's title
    variant_path: str | None = None
    players: ast.PlayersDecl | None = None
    data: list[DataSet] = field(default_factory=list)
    enums: dict = field(default_factory=dict)         # name -> tuple of members
    kinds: dict = field(default_factory=dict)         # name -> data.ComponentKind
    params: dict = field(default_factory=dict)        # name -> ast.ParamDecl, in order
    zones: dict = field(default_factory=dict)
    vars: dict = field(default_factory=dict)
    fns: dict = field(default_factory=dict)
    procs: dict = field(default_factory=dict)
    setup: ast.SetupDecl | None = None
    play: ast.PlayDecl | None = None
    score: ast.ScoreDecl | None = None
    tiebreak: ast.ScoreDecl | None = None
    winners: ast.WinnersDecl | None = None
    heuristic: ast.HeuristicDecl | None = None
    invariants: dict = field(default_factory=dict)    # title -> ast.InvariantDecl
    labels: dict = field(default_factory=dict)        # component kind -> ast.LabelDecl
    opponents: dict = field(default_factory=dict)     # title -> ast.OpponentDecl (scripted, no seat)
    enum_spans: dict = field(default_factory=dict)    # enum name -> span of its declaration

    @property
    def member_enum(self) -> dict:
        """Enum member name -> enum name."""
        return {m: name for name, members in self.enums.items() for m in members}
