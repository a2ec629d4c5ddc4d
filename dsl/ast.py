"""The abstract syntax tree of a rule file: frozen dataclasses, each with its source span."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from .errors import Span


@dataclass(frozen=True)
class Node:
    span: Span


# ----------------------------------------------------------------------------- types
@dataclass(frozen=True)
class TypeRef(Node):
    name: str


@dataclass(frozen=True)
class ListTypeRef(Node):
    element: "TypeExpr"


TypeExpr = Union[TypeRef, ListTypeRef]


# ----------------------------------------------------------------------------- expressions
@dataclass(frozen=True)
class Expr(Node):
    pass


@dataclass(frozen=True)
class Literal(Expr):
    value: object          # int, str, bool or None


@dataclass(frozen=True)
class Text(Expr):
    """A string with `{expression}` placeholders."""
    parts: tuple            # of str and Expr


@dataclass(frozen=True)
class Name(Expr):
    id: str


@dataclass(frozen=True)
class Attribute(Expr):
    obj: Expr
    name: str


@dataclass(frozen=True)
class Index(Expr):
    obj: Expr
    index: Expr


@dataclass(frozen=True)
class Call(Expr):
    func: str
    args: tuple


@dataclass(frozen=True)
class Unary(Expr):
    op: str                 # "not", "-", "+"
    operand: Expr


@dataclass(frozen=True)
class Binary(Expr):
    op: str                 # + - * // % == != < <= > >= in notin and or
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Conditional(Expr):
    test: Expr
    then: Expr
    orelse: Expr


@dataclass(frozen=True)
class CellLit(Expr):
    x: Expr
    y: Expr


@dataclass(frozen=True)
class RecordLit(Expr):
    """`Placement(piece: "F", where: (1, 2))`: a record's fields by name, in written order."""
    record: str
    fields: tuple           # of FieldValue


@dataclass(frozen=True)
class FieldValue(Node):
    """`name: value` in a record literal (its span is the field's name)."""
    name: str
    value: Expr


@dataclass(frozen=True)
class ListLit(Expr):
    items: tuple


@dataclass(frozen=True)
class ListComp(Expr):
    """`[element for var in iterable if condition ...]`: the first `for` clause and its
    first `if`, then any further clauses in order: ("for", name, Expr) or ("if", Expr)."""
    element: Expr
    var: str
    iterable: Expr
    condition: Expr | None
    clauses: tuple = ()

    def all_clauses(self) -> tuple:
        first = (("for", self.var, self.iterable),) + ((("if", self.condition),) if self.condition else ())
        return first + self.clauses


@dataclass(frozen=True)
class Slice(Expr):
    """`items[start:stop]`: either bound may be left out."""
    obj: Expr
    start: Expr | None
    stop: Expr | None


@dataclass(frozen=True)
class LetIn(Expr):
    """`let name = value` then the rest of a fn body (`body`), which may use the name."""
    name: str
    type: "TypeExpr | None"
    value: Expr
    body: Expr


@dataclass(frozen=True)
class Case(Expr):
    subject: Expr
    arms: tuple             # of (key Expr, value Expr)
    default: Expr | None


# ----------------------------------------------------------------------------- statements
@dataclass(frozen=True)
class Stmt(Node):
    pass


@dataclass(frozen=True)
class Let(Stmt):
    name: str
    value: Expr
    type: "TypeExpr | None" = None      # `let p: player = 0`: the declared type


@dataclass(frozen=True)
class Assign(Stmt):
    name: str
    index: Expr | None
    op: str                 # "=", "+=", "-="
    value: Expr


@dataclass(frozen=True)
class CallStmt(Stmt):
    name: str
    args: tuple


@dataclass(frozen=True)
class If(Stmt):
    branches: tuple         # of (condition, body)
    orelse: tuple | None


@dataclass(frozen=True)
class For(Stmt):
    var: str
    iterable: Expr
    condition: Expr | None
    body: tuple


@dataclass(frozen=True)
class While(Stmt):
    condition: Expr
    body: tuple


@dataclass(frozen=True)
class Turn(Stmt):
    player: Expr
    body: tuple


@dataclass(frozen=True)
class Move(Stmt):
    what: Expr
    dest: Expr
    position: str           # "top" or "bottom"
    at: Expr | None
    turn: Expr | None = None    # `turned N`: the orientation of a shaped component


@dataclass(frozen=True)
class Shuffle(Stmt):
    zone: Expr


@dataclass(frozen=True)
class Choose(Stmt):
    var: str
    source: Expr
    by: Expr | None
    prompt: Text | None
    label: Text | None
    # `by each P in LIST`: a simultaneous decision; `each` is P, `by` the list of players.
    each: str | None = None
    ident: Text | None = None   # `id "TEXT"`: each option's id, in place of the value's own


@dataclass(frozen=True)
class Break(Stmt):
    pass


@dataclass(frozen=True)
class Continue(Stmt):
    pass


@dataclass(frozen=True)
class Return(Stmt):
    pass


@dataclass(frozen=True)
class Log(Stmt):
    text: Text


@dataclass(frozen=True)
class Show(Stmt):
    """`show "TEXT"`: the play screen shows the whole table at this moment, titled TEXT."""
    text: Text


@dataclass(frozen=True)
class Finish(Stmt):
    name: str | None = None     # `finish "NAME"`: the named ending that ends this game


@dataclass(frozen=True)
class Fallback(Stmt):
    name: str                   # a made-up rule (guard, fallback) that decided something


@dataclass(frozen=True)
class Fail(Stmt):
    text: Text


# ----------------------------------------------------------------------------- declarations
@dataclass(frozen=True)
class Decl(Node):
    pass


@dataclass(frozen=True)
class GameDecl(Decl):
    title: str


@dataclass(frozen=True)
class VariantDecl(Decl):
    title: str
    base: str


@dataclass(frozen=True)
class PlayersDecl(Decl):
    minimum: int
    maximum: int


@dataclass(frozen=True)
class DataDecl(Decl):
    path: str


@dataclass(frozen=True)
class EnumDecl(Decl):
    name: str
    members: tuple          # of str


@dataclass(frozen=True)
class RecordDecl(Decl):
    """`record NAME { field: type, ... }`: a value of named fields (fields are ast.Param)."""
    name: str
    fields: tuple


@dataclass(frozen=True)
class ParamDecl(Decl):
    name: str
    value: Expr


@dataclass(frozen=True)
class ZoneOption(Node):
    name: str
    values: tuple           # ints


@dataclass(frozen=True)
class ZoneDecl(Decl):
    name: str
    kind: str               # "stack", "pile" or "grid"
    kind_span: Span
    holds: str | None       # the component kind it holds
    options: tuple          # of ZoneOption


@dataclass(frozen=True)
class VarDecl(Decl):
    name: str
    type: TypeExpr
    per: str | None         # "player", a component kind, or None
    init: Expr | None
    display: str | None = None  # how the play screen names it ("" hides it), from a trailing "TEXT"


@dataclass(frozen=True)
class Param(Node):
    name: str
    type: TypeExpr


@dataclass(frozen=True)
class FnDecl(Decl):
    name: str
    params: tuple
    returns: TypeExpr | None
    body: Expr


@dataclass(frozen=True)
class ProcDecl(Decl):
    name: str
    params: tuple
    body: tuple


@dataclass(frozen=True)
class SetupDecl(Decl):
    body: tuple


@dataclass(frozen=True)
class PlayDecl(Decl):
    body: tuple


@dataclass(frozen=True)
class ScoreLine(Node):
    title: str
    value: Expr


@dataclass(frozen=True)
class ScoreDecl(Decl):
    kind: str               # "score" or "tiebreak"
    var: str
    lines: tuple
    lowest_wins: bool = False   # `score p, lowest wins { ... }`


@dataclass(frozen=True)
class WinnersDecl(Decl):
    value: Expr


@dataclass(frozen=True)
class HeuristicDecl(Decl):
    """How good a position looks for player `var` (bots use it between score changes)."""
    var: str
    value: Expr


@dataclass(frozen=True)
class BotDecl(Decl):
    """The default settings of bot `bot` for this game (`bot mcts "iterations=60"`), written
    as on the command line; settings given there override them one by one."""
    bot: str
    settings: str


@dataclass(frozen=True)
class BriefDecl(Decl):
    """What player `var` is told about their goal (`brief p = "..."`), shown by the play screen."""
    var: str
    value: Expr


@dataclass(frozen=True)
class LabelDecl(Decl):
    """How a component of `kind` is shown while playing (`label c: Card = expr`)."""
    var: str
    kind: str
    value: Expr


@dataclass(frozen=True)
class OpponentDecl(Decl):
    """The score sheet of a scripted opponent who holds no seat (`opponent "The bot" { ... }`)."""
    title: str
    lines: tuple


@dataclass(frozen=True)
class InvariantDecl(Decl):
    title: str
    value: Expr


@dataclass(frozen=True)
class MeasureDecl(Decl):
    """A number worked out when a game ends (`measure "cards left" = size(deck)`), reported
    by the playtest commands beside the built-in measures."""
    title: str
    value: Expr


@dataclass(frozen=True)
class Module(Node):
    """One parsed rule file."""
    items: tuple
    source: str
    names: tuple = ()       # (word, span, what) of every name the file declares or binds
