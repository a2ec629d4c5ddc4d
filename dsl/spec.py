"""The game specification: a base rule file, its variant and its data merged into one.

A variant file replaces declarations of the same name (params, zones, vars, fns, procs,
setup, play, score, tiebreak, winners, invariants, measures) and adds new ones.
"""
from __future__ import annotations

import dataclasses
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
    records: dict = field(default_factory=dict)       # name -> ast.RecordDecl
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
    # The base's score sheet when a variant replaces `score` but keeps the base's heuristic:
    # the bots then add what the variant's sheet gives beyond it (compile/variant_values.py).
    heuristic_score: ast.ScoreDecl | None = None
    brief: ast.BriefDecl | None = None                # what each seat is told about its goal
    invariants: dict = field(default_factory=dict)    # title -> ast.InvariantDecl
    measures: dict = field(default_factory=dict)      # title -> ast.MeasureDecl, in order
    labels: dict = field(default_factory=dict)        # component kind -> ast.LabelDecl
    opponents: dict = field(default_factory=dict)     # title -> ast.OpponentDecl (scripted, no seat)
    bots: dict = field(default_factory=dict)          # bot name -> ast.BotDecl (its default settings here)
    enum_spans: dict = field(default_factory=dict)    # enum name -> span of its declaration
    warnings: list = field(default_factory=list)      # dsl.lint's diagnostics, once checked

    def param_order(self) -> tuple[list[str], list[str]]:
        """Params in an order where each comes after the params it names (a variant's new
        params may be used by the base's replaced ones); and the params caught in a cycle."""
        fn_names = {name: _names(decl.body) - {p.name for p in decl.params} for name, decl in self.fns.items()}

        def reach(names: set) -> set:
            """The names used, directly or through the functions called."""
            seen, todo = set(), list(names)
            while todo:
                n = todo.pop()
                if n not in seen:
                    seen.add(n)
                    todo.extend(fn_names.get(n, ()))
            return seen

        needs = {name: reach(_names(decl.value)) & set(self.params) - {name}
                 for name, decl in self.params.items()}
        order: list[str] = []
        placed: set = set()
        while len(placed) < len(needs):
            ready = [n for n in needs if n not in placed and needs[n] <= placed]
            if not ready:
                return order, [n for n in needs if n not in placed]
            order.extend(ready)
            placed.update(ready)
        return order, []

    @property
    def member_enum(self) -> dict:
        """Enum member name -> enum name."""
        return {m: name for name, members in self.enums.items() for m in members}


def _names(node) -> set:
    """Every free name an expression refers to (function names included)."""
    found = set()
    if isinstance(node, ast.Name):
        found.add(node.id)
    elif isinstance(node, ast.Call):
        found.add(node.func)
    if isinstance(node, ast.ListComp):
        bound: set = set()
        for clause in node.all_clauses():       # a clause sees the names bound before it
            found |= _names(clause[-1]) - bound
            if clause[0] == "for":
                bound.add(clause[1])
        return found | (_names(node.element) - bound)
    if isinstance(node, ast.LetIn):
        return found | _names(node.value) | (_names(node.body) - {node.name})
    if dataclasses.is_dataclass(node):
        for f in dataclasses.fields(node):
            found |= _names(getattr(node, f.name))
    elif isinstance(node, (tuple, list)):
        for item in node:
            found |= _names(item)
    return found
