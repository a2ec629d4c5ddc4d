"""The parse tree to the AST (dsl.ast): a Lark Transformer with one method per grammar rule.

Spans come from Lark's propagated positions. String placeholders (`"{expr}"`) are parsed as
expressions with their own positions; number literals are refused past MAX_LITERAL_DIGITS and
unknown string escapes refused (docs/security.md).
"""
from __future__ import annotations

import re

from lark import Token, Transformer, v_args
from lark.exceptions import UnexpectedInput

from . import ast
from .errors import Diagnostic, RuleFileError, Span
from .grammar import _lark, reserved_in_expressions
from .syntax_errors import _syntax_diagnostic

_ESCAPE = re.compile(r"\\(.?)", re.DOTALL)
_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "t": "\t"}     # the language's escapes, and no others

MAX_LITERAL_DIGITS = 1000       # digits of a number written in a rule file


def _span(filename: str, meta, line_offset: int = 0, col_offset: int = 0) -> Span:
    if getattr(meta, "empty", True):
        return Span(filename, 0, 0, 0, 0)
    first_line = meta.line == 1
    return Span(filename, meta.line + line_offset,
                meta.column + (col_offset if first_line else 0),
                meta.end_line + line_offset,
                meta.end_column + (col_offset if meta.end_line == 1 else 0))


def _token_span(filename: str, token: Token, line_offset=0, col_offset=0) -> Span:
    return Span(filename, token.line + line_offset,
                token.column + (col_offset if token.line == 1 else 0),
                token.end_line + line_offset,
                token.end_column + (col_offset if token.end_line == 1 else 0))


def _dim(token):
    """A number of a zone's shape: an int, or the name of a param (kept as a str)."""
    if token.type in ("INT", "SIGNED_INT") and len(token.lstrip("-")) > MAX_LITERAL_DIGITS:
        return str(token)           # not a name: the checker reports it as unknown
    return int(token) if token.type in ("INT", "SIGNED_INT") else str(token)


_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


@v_args(meta=True)
class _Builder(Transformer):
    """Builds one AST node per grammar rule; spans come from Lark's propagated positions."""

    def __init__(self, filename: str, line_offset: int = 0, col_offset: int = 0):
        super().__init__()
        self.filename = filename
        self.line_offset = line_offset
        self.col_offset = col_offset
        self.names: list = []       # (word, span, what) of every name the file declares or binds

    def named(self, token: Token, what: str) -> str:
        """A name the file gives to something (checked against the reserved words)."""
        self.names.append((str(token), self.tok_span(token), what))
        return str(token)

    def s(self, meta) -> Span:
        return _span(self.filename, meta, self.line_offset, self.col_offset)

    def tok_span(self, token: Token) -> Span:
        return _token_span(self.filename, token, self.line_offset, self.col_offset)

    def integer(self, token: Token) -> int:
        """An integer literal, refused past MAX_LITERAL_DIGITS (docs/security.md)."""
        if len(token.lstrip("-")) > MAX_LITERAL_DIGITS:
            raise RuleFileError(Diagnostic(self.tok_span(token), f"a number of {len(token.lstrip('-')):,} digits: "
                                           f"at most {MAX_LITERAL_DIGITS} (docs/security.md)"))
        return int(token)

    def string(self, token: Token) -> str:
        """A string literal's value: the language's four escapes (\\" \\\\ \\n \\t) and nothing
        else (not Python's \\x00, \\u, \\N{...}); a NUL or a carriage return is refused."""
        raw = str(token)[1:-1]
        if "\\" not in raw and "\0" not in raw and "\r" not in raw:
            return raw
        if "\0" in raw or "\r" in raw:
            raise RuleFileError(Diagnostic(self.tok_span(token), "invalid escape in string: a NUL or a carriage "
                                           "return inside a string", 'escapes: \\" \\\\ \\n \\t'))
        try:
            return _ESCAPE.sub(lambda m: _ESCAPES[m.group(1)], raw)
        except KeyError:
            raise RuleFileError(Diagnostic(self.tok_span(token), "invalid escape in string",
                                           'escapes: \\" \\\\ \\n \\t')) from None

    def text(self, token: Token) -> ast.Text:
        """A string literal whose `{expr}` placeholders are parsed as expressions."""
        raw = str(token)
        value = self.string(token)
        parts: list = []
        pos = 0
        raw_pos = 0
        for match in _PLACEHOLDER.finditer(value):
            if match.start() > pos:
                parts.append(value[pos:match.start()])
            inner = match.group(1)
            offset = raw.find("{" + inner + "}", raw_pos)
            if offset >= 0:
                raw_pos = offset + len(inner) + 2
            col = token.column + (offset if offset >= 0 else 0)
            try:
                tree = _lark().parse(inner, start="expr")
            except UnexpectedInput as exc:
                diag = _syntax_diagnostic(exc, inner, self.filename)
                at = Span(self.filename, token.line + self.line_offset, col + diag.span.column,
                          token.line + self.line_offset, col + diag.span.column + 1)
                message = diag.message.replace("unexpected end of file", "unexpected '}'")
                raise RuleFileError(Diagnostic(at, "in placeholder: " + message)) from None
            sub = _Builder(self.filename, token.line - 1 + self.line_offset, col)
            parts.append(sub.transform(tree))
            self.names.extend(sub.names)
            pos = match.end()
        if pos < len(value):
            parts.append(value[pos:])
        return ast.Text(self.tok_span(token), tuple(parts))

    # ------------------------------------------------------------------ declarations
    def start(self, meta, items):
        return items

    def game_decl(self, meta, c):
        return ast.GameDecl(self.s(meta), self.string(c[0]))

    def variant_decl(self, meta, c):
        return ast.VariantDecl(self.s(meta), self.string(c[0]), self.string(c[1]))

    def players_decl(self, meta, c):
        low = self.integer(c[0])
        high = self.integer(c[1]) if len(c) > 1 and c[1] is not None else low
        return ast.PlayersDecl(self.s(meta), low, high)

    def data_decl(self, meta, c):
        return ast.DataDecl(self.s(meta), self.string(c[0]))

    def enum_decl(self, meta, c):
        return ast.EnumDecl(self.s(meta), self.named(c[0], "enum"), tuple(self.named(t, "enum member") for t in c[1:]))

    def record_decl(self, meta, c):
        return ast.RecordDecl(self.s(meta), self.named(c[0], "record"), tuple(c[1:]))

    def record_field(self, meta, c):
        return ast.Param(self.s(meta), self.named(c[0], "record field"), c[1])

    def param_decl(self, meta, c):
        return ast.ParamDecl(self.s(meta), self.named(c[0], "param"), c[1])

    def zone_decl(self, meta, c):
        name, kind, holds, *options = c
        return ast.ZoneDecl(self.s(meta), self.named(name, "zone"), str(kind), self.tok_span(kind),
                            str(holds) if holds is not None else None, tuple(options))

    def per_player_option(self, meta, c):
        return ast.ZoneOption(self.s(meta), "per player", ())

    def flag_option(self, meta, c):
        return ast.ZoneOption(self.s(meta), str(c[0]), ())

    def number_option(self, meta, c):
        return ast.ZoneOption(self.s(meta), str(c[0]), (_dim(c[1]),))

    def size_option(self, meta, c):
        return ast.ZoneOption(self.s(meta), str(c[0]), (_dim(c[1]), _dim(c[2])))

    cell_option = size_option

    def var_decl(self, meta, c):
        name, type_, per, init = c[0], c[1], None, None
        rest = c[2:]
        display = None
        if rest and isinstance(rest[-1], Token) and rest[-1].type == "STRING":
            display, rest = self.string(rest[-1]), rest[:-1]
        if rest and isinstance(rest[0], Token):
            per, rest = str(rest[0]), rest[1:]
        if rest:
            init = rest[0]
        return ast.VarDecl(self.s(meta), self.named(name, "var"), type_, per, init, display)

    def fn_decl(self, meta, c):
        name, params, *rest = c
        returns = rest[0] if len(rest) == 2 else None
        return ast.FnDecl(self.s(meta), self.named(name, "fn"), tuple(params or ()), returns, rest[-1])

    def fn_block(self, meta, c):
        body = c[-1]
        for span, name, type_, value in reversed(c[:-1]):
            body = ast.LetIn(span, name, type_, value, body)
        return body

    def fn_let(self, meta, c):
        return (self.s(meta), self.named(c[0], "local"), c[1], c[2])

    def proc_decl(self, meta, c):
        return ast.ProcDecl(self.s(meta), self.named(c[0], "proc"), tuple(c[1] or ()), c[2])

    def params(self, meta, c):
        return list(c)

    def param(self, meta, c):
        return ast.Param(self.s(meta), self.named(c[0], "parameter"), c[1])

    def setup_decl(self, meta, c):
        return ast.SetupDecl(self.s(meta), c[0])

    def play_decl(self, meta, c):
        return ast.PlayDecl(self.s(meta), c[0])

    def score_decl(self, meta, c):
        return ast.ScoreDecl(self.s(meta), "score", self.named(c[0], "player variable"), tuple(c[2:]), c[1] is not None)

    def tiebreak_decl(self, meta, c):
        return ast.ScoreDecl(self.s(meta), "tiebreak", self.named(c[0], "player variable"), tuple(c[2:]), c[1] is not None)

    def direction(self, meta, c):
        return "lowest"

    def score_line(self, meta, c):
        return ast.ScoreLine(self.s(meta), self.string(c[0]), c[1])

    def winners_decl(self, meta, c):
        return ast.WinnersDecl(self.s(meta), c[0])

    def heuristic_decl(self, meta, c):
        return ast.HeuristicDecl(self.s(meta), self.named(c[0], "player variable"), c[1])

    def brief_decl(self, meta, c):
        return ast.BriefDecl(self.s(meta), self.named(c[0], "player variable"), c[1])

    def bot_decl(self, meta, c):
        return ast.BotDecl(self.s(meta), str(c[0]), self.string(c[1]))

    def label_decl(self, meta, c):
        return ast.LabelDecl(self.s(meta), self.named(c[0], "component"), str(c[1]), c[2])

    def opponent_decl(self, meta, c):
        return ast.OpponentDecl(self.s(meta), self.string(c[0]), tuple(c[1:]))

    def invariant_decl(self, meta, c):
        return ast.InvariantDecl(self.s(meta), self.string(c[0]), c[1])

    def measure_decl(self, meta, c):
        return ast.MeasureDecl(self.s(meta), self.string(c[0]), c[1])

    def named_type(self, meta, c):
        return ast.TypeRef(self.s(meta), str(c[0]))

    def list_type(self, meta, c):
        return ast.ListTypeRef(self.s(meta), c[0])

    # ------------------------------------------------------------------ statements
    def block(self, meta, c):
        return tuple(c)

    def let_stmt(self, meta, c):
        return ast.Let(self.s(meta), self.named(c[0], "local"), c[2], c[1])

    def assign_stmt(self, meta, c):
        name, index = c[0]
        return ast.Assign(self.s(meta), name, index, str(c[1]), c[2])

    def target(self, meta, c):
        return str(c[0]), (c[1] if len(c) > 1 else None)

    def call_stmt(self, meta, c):
        return ast.CallStmt(self.s(meta), str(c[0]), tuple(c[1] or ()))

    def if_stmt(self, meta, c):
        branches = [(c[0], c[1])]
        orelse = None
        for extra in c[2:]:
            if extra[0] == "elif":
                branches.append(extra[1:])
            else:
                orelse = extra[1]
        return ast.If(self.s(meta), tuple(branches), orelse)

    def elif_clause(self, meta, c):
        return ("elif", c[0], c[1])

    def else_clause(self, meta, c):
        return ("else", c[0])

    def for_stmt(self, meta, c):
        cond = c[2] if len(c) == 4 else None
        return ast.For(self.s(meta), self.named(c[0], "loop variable"), c[1], cond, c[-1])

    def while_stmt(self, meta, c):
        return ast.While(self.s(meta), c[0], c[1])

    def turn_stmt(self, meta, c):
        return ast.Turn(self.s(meta), c[0], c[1])

    def move_stmt(self, meta, c):
        what, position, dest, at, turn = c
        return ast.Move(self.s(meta), what, dest, position or "top", at, turn)

    def position(self, meta, c):
        return str(c[0])

    def shuffle_stmt(self, meta, c):
        return ast.Shuffle(self.s(meta), c[0])

    def choose_stmt(self, meta, c):
        options = {}
        for key, value in c[2:]:
            options[key] = value
        each = options.get("each")
        return ast.Choose(self.s(meta), self.named(c[0], "choice"), c[1], each[1] if each else options.get("by"),
                          options.get("prompt"), options.get("label"), each[0] if each else None,
                          options.get("id"))

    def choose_by(self, meta, c):
        return ("by", c[0])

    def choose_by_each(self, meta, c):
        return ("each", (self.named(c[0], "player variable"), c[1]))

    def choose_prompt(self, meta, c):
        return ("prompt", self.text(c[0]))

    def choose_label(self, meta, c):
        return ("label", self.text(c[0]))

    def choose_id(self, meta, c):
        return ("id", self.text(c[0]))

    def break_stmt(self, meta, c):
        return ast.Break(self.s(meta))

    def continue_stmt(self, meta, c):
        return ast.Continue(self.s(meta))

    def return_stmt(self, meta, c):
        return ast.Return(self.s(meta))

    def log_stmt(self, meta, c):
        return ast.Log(self.s(meta), self.text(c[0]))

    def show_stmt(self, meta, c):
        return ast.Show(self.s(meta), self.text(c[0]))

    def finish_stmt(self, meta, c):
        return ast.Finish(self.s(meta), self.string(c[0]) if c else None)

    def fallback_stmt(self, meta, c):
        return ast.Fallback(self.s(meta), self.string(c[0]))

    def fail_stmt(self, meta, c):
        return ast.Fail(self.s(meta), self.text(c[0]))

    # ------------------------------------------------------------------ expressions
    def conditional(self, meta, c):
        return ast.Conditional(self.s(meta), c[0], c[1], c[2])

    def or_op(self, meta, c):
        return ast.Binary(self.s(meta), "or", c[0], c[1])

    def and_op(self, meta, c):
        return ast.Binary(self.s(meta), "and", c[0], c[1])

    def not_op(self, meta, c):
        return ast.Unary(self.s(meta), "not", c[0])

    def compare(self, meta, c):
        return ast.Binary(self.s(meta), str(c[1]), c[0], c[2])

    def contains(self, meta, c):
        return ast.Binary(self.s(meta), "in", c[0], c[1])

    def not_contains(self, meta, c):
        return ast.Binary(self.s(meta), "not in", c[0], c[1])

    def binary(self, meta, c):
        return ast.Binary(self.s(meta), str(c[1]), c[0], c[2])

    def unary(self, meta, c):
        return ast.Unary(self.s(meta), str(c[0]), c[1])

    def attribute(self, meta, c):
        return ast.Attribute(self.s(meta), c[0], str(c[1]))

    def index(self, meta, c):
        return ast.Index(self.s(meta), c[0], c[1])

    def call(self, meta, c):
        return ast.Call(self.s(meta), str(c[0]), tuple(c[1] or ()))

    def call_generator(self, meta, c):
        comp = self.list_comp(meta, c[1:])
        return ast.Call(self.s(meta), str(c[0]), (comp,))

    def record_lit(self, meta, c):
        return ast.RecordLit(self.s(meta), str(c[0]), tuple(c[1:]))

    def field_value(self, meta, c):
        return ast.FieldValue(self.tok_span(c[0]), str(c[0]), c[1])

    def slice(self, meta, c):
        return ast.Slice(self.s(meta), c[0], c[1], c[2])

    def comp_for(self, meta, c):
        return ("for", self.named(c[0], "loop variable"), c[1])

    def comp_if(self, meta, c):
        return ("if", c[0])

    def int_lit(self, meta, c):
        return ast.Literal(self.s(meta), self.integer(c[0]))

    def str_lit(self, meta, c):
        return self.text(c[0])

    def true_lit(self, meta, c):
        return ast.Literal(self.s(meta), True)

    def false_lit(self, meta, c):
        return ast.Literal(self.s(meta), False)

    def none_lit(self, meta, c):
        return ast.Literal(self.s(meta), None)

    def name(self, meta, c):
        word = str(c[0])
        if word in reserved_in_expressions():
            # The lexer reads a keyword as a name where only a name fits: `let x =` then `let y`.
            raise RuleFileError(Diagnostic(self.tok_span(c[0]), f"unexpected '{word}'; expected an expression",
                                           f"'{word}' is a keyword: the expression before it is missing"))
        return ast.Name(self.s(meta), word)

    def cell_lit(self, meta, c):
        return ast.CellLit(self.s(meta), c[0], c[1])

    def list_lit(self, meta, c):
        return ast.ListLit(self.s(meta), tuple(c[0] or ()))

    def list_comp(self, meta, c):
        element, (_, var, iterable), *rest = c
        cond = None
        if rest and rest[0][0] == "if":
            cond, rest = rest[0][1], rest[1:]
        return ast.ListComp(self.s(meta), element, var, iterable, cond, tuple(rest))

    def case_expr(self, meta, c):
        arms, default = [], None
        for arm in c[1:]:
            if arm[0] == "else":
                default = arm[1]
            else:
                arms.append(arm)
        return ast.Case(self.s(meta), c[0], tuple(arms), default)

    def case_arm(self, meta, c):
        return (c[0], c[1])

    def case_else(self, meta, c):
        return ("else", c[0])

    def args(self, meta, c):
        return list(c)

