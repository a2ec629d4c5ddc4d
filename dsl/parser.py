"""Parse rule-file text into the AST (dsl.ast) with the LALR grammar in grammar.lark.

Syntax errors become `RuleFileError`s that point at the offending token and say what the
parser expected there, in words a designer reads ("expected '}' or a statement").
"""
from __future__ import annotations

import ast as pyast
import difflib
import re
import warnings
from dataclasses import fields
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from . import ast
from .errors import SOURCES, Diagnostic, RuleFileError, Span

GRAMMAR = Path(__file__).with_name("grammar.lark")
MAX_LITERAL_DIGITS = 1000       # digits of a number written in a rule file


@lru_cache(maxsize=1)
def _lark() -> Lark:
    """The parser, built once per process; the built tables are kept in the user's cache
    folder, keyed by the grammar's content (Lark checks the hash; a stale or damaged file is
    rebuilt)."""
    text = GRAMMAR.read_text(encoding="utf-8")
    return Lark(text, parser="lalr", propagate_positions=True, start=["start", "expr"],
                maybe_placeholders=True, cache=_grammar_cache(text))


def _grammar_cache(text: str):
    import hashlib
    import sys

    import lark
    from .cache import cache_dir, trusted_cache_file
    folder = cache_dir()            # created private, None when others could write in it
    if folder is None:
        return False
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]
    path = folder / f"grammar-{digest}-lark{lark.__version__}-py{sys.version_info[0]}{sys.version_info[1]}.cache"
    if (path.exists() or path.is_symlink()) and not trusted_cache_file(path):
        return False                # Lark unpickles its cache: never one someone else wrote
    return str(path)


def parse_text(text: str, filename: str = "<string>") -> ast.Module:
    SOURCES[filename] = text
    try:
        tree = _lark().parse(text, start="start")
    except UnexpectedInput as exc:
        raise RuleFileError(_syntax_diagnostic(exc, text, filename)) from None
    builder = _Builder(filename)
    items = []
    for child in tree.children:         # one declaration at a time, to point at a too deep one
        try:
            items.append(builder.transform(child))
        except VisitError as exc:
            if isinstance(exc.orig_exc, RuleFileError):
                raise exc.orig_exc from None
            if isinstance(exc.orig_exc, RecursionError):
                raise RuleFileError(_too_deep(_span(filename, child.meta))) from None
            raise
        except RecursionError:
            raise RuleFileError(_too_deep(_span(filename, child.meta))) from None
        deep = _deeper_than(items[-1], MAX_DEPTH)
        if deep is not None:
            raise RuleFileError(_too_deep(deep.span))
    return ast.Module(Span(filename, 1, 1, 1, 1), tuple(items), text)


# Expressions and blocks nest at most this deep: the checker, the compiler and the interpreter
# recurse over the tree, and a deeper one would exhaust Python's stack.
MAX_DEPTH = 100


def _too_deep(span: Span) -> Diagnostic:
    return Diagnostic(span, f"expressions or blocks nest too deeply here (more than {MAX_DEPTH} levels)",
                      "split it up with 'let', a fn or a proc")


def _deeper_than(root: ast.Node, limit: int):
    """The first node nested more than `limit` nodes deep under root, or None (iterative)."""
    stack = [(root, 0)]
    while stack:
        obj, depth = stack.pop()
        if isinstance(obj, ast.Node):
            if depth > limit:
                return obj
            stack.extend((getattr(obj, f.name), depth + 1) for f in fields(obj) if f.name != "span")
        elif isinstance(obj, tuple):
            stack.extend((o, depth) for o in obj)
    return None


# ----------------------------------------------------------------------------- syntax errors
_TERMINAL_WORDS = {
    "NAME": "a name", "STRING": "a string", "INT": "a number", "SIGNED_INT": "a number",
    "ASSIGN_OP": "'='", "COMP_OP": "a comparison", "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '//' or '%'",
    "$END": "the end of the file",
    "SIZE_WORD": "a zone option", "BLOCKED": "a zone option",
}


def _describe_terminal(name: str) -> str:
    if name in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[name]
    for term in _lark().terminals:
        if term.name == name and term.pattern.type == "str":
            return f"'{term.pattern.value}'"
    return name.lower()


def _expected_words(expected) -> str:
    expected = set(expected)
    if {"NAME", "INT", "STRING"} <= expected:
        rest = sorted({_describe_terminal(t) for t in expected if t in ("RBRACE", "RSQB", "RPAR")})
        return " or ".join(["an expression"] + rest)
    words = sorted({_describe_terminal(t) for t in expected})
    if len(words) > 8:
        keywords = [w for w in words if w.startswith("'") and w[1:-1].isalpha()]
        others = [w for w in words if w not in keywords]
        words = others[:6] + (["a keyword"] if keywords else [])
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


# Keywords, read from the grammar: the first word of each `*_stmt` and `*_decl` rule.
# The contextual lexer reads a keyword as a name where no keyword fits, so `let x =` followed
# by `let y = 2` parses `let` as the value of x; these lists let errors say what happened.
EXPRESSION_KEYWORDS = ("elif", "else", "then", "and", "or", "in", "not", "case", "true", "false", "none")


@lru_cache(maxsize=None)
def _first_keywords(suffix: str) -> tuple:
    words = {t.name: t.pattern.value for t in _lark().terminals if t.pattern.type == "str"}
    found = []
    for rule in _lark().rules:
        if rule.origin.name.endswith(suffix) and rule.expansion:
            word = words.get(rule.expansion[0].name, "")
            if word.isalpha() and word not in found:
                found.append(word)
    return tuple(found)


def statement_keywords() -> tuple:
    """Words that begin a statement: never a name where an expression goes."""
    return _first_keywords("_stmt")


def declaration_keywords() -> tuple:
    """Words that begin a declaration. They may name variables inside blocks (`var score`), so
    a name spelt like one is only taken for a declaration when it begins a line."""
    return _first_keywords("_decl")


def reserved_in_expressions() -> tuple:
    return statement_keywords() + EXPRESSION_KEYWORDS


def _unclosed_brackets(text: str) -> list[tuple[str, int, int]]:
    """The brackets still open at the end of `text` (skipping strings and comments)."""
    pairs = {")": "(", "]": "[", "}": "{"}
    stack: list[tuple[str, int, int]] = []
    line, col, i = 1, 0, 0
    in_string = False
    while i < len(text):
        ch = text[i]
        col += 1
        if ch == "\n":
            line, col, in_string = line + 1, 0, False
        elif in_string:
            if ch == "\\":
                i, col = i + 1, col + 1
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "#":
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
            continue
        elif ch in "([{":
            stack.append((ch, line, col))
        elif ch in pairs and stack and stack[-1][0] == pairs[ch]:
            stack.pop()
        i += 1
    return stack


_OPENERS = {"RBRACE": "{", "RSQB": "[", "RPAR": "("}


def _unclosed_hint(text: str) -> str:
    stack = _unclosed_brackets(text)
    if not stack:
        return ""
    ch, line, col = stack[-1]
    return f"the '{ch}' at line {line}, column {col} is never closed"


def _previous_name(exc: UnexpectedToken) -> Token | None:
    """The NAME token just before the unexpected one, if the parser holds one."""
    try:
        last = exc.interactive_parser.parser_state.value_stack[-1]
    except (AttributeError, IndexError):
        return None
    if isinstance(last, Tree) and last.data == "name" and len(last.children) == 1:
        last = last.children[0]
    return last if isinstance(last, Token) and last.type == "NAME" else None


def _close_keyword(word: str) -> str:
    close = difflib.get_close_matches(word, statement_keywords() + declaration_keywords(), n=1, cutoff=0.6)
    return close[0] if close else ""


def _starts_line(text: str, token: Token) -> bool:
    start = getattr(token, "start_pos", None)
    if start is None:
        return False
    line_start = text.rfind("\n", 0, start) + 1
    return text[line_start:start].strip() == ""


def _syntax_diagnostic(exc: UnexpectedInput, text: str, filename: str) -> Diagnostic:
    line, column = max(exc.line, 1), max(exc.column, 1)
    if isinstance(exc, UnexpectedToken) and exc.token.type == "$END" or isinstance(exc, UnexpectedEOF):
        lines = text.splitlines() or [""]
        line, column = len(lines), len(lines[-1]) + 1
        expected = getattr(exc, "expected", set()) or getattr(exc, "accepts", set())
        return Diagnostic(Span(filename, line, column, line, column + 1),
                          f"unexpected end of file; expected {_expected_words(expected)}",
                          _unclosed_hint(text))
    if isinstance(exc, UnexpectedCharacters):
        char = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else "?"
        hint = "strings use double quotes" if char == "'" else ""
        if char == '"':
            hint = "a string ends on the line it begins"
        return Diagnostic(Span(filename, line, column, line, column + 1),
                          f"unexpected character {char!r}", hint)
    assert isinstance(exc, UnexpectedToken)
    token = exc.token
    expected = exc.accepts or exc.expected
    previous = _previous_name(exc)
    if previous is not None and (str(previous) in reserved_in_expressions() or (
            str(previous) in declaration_keywords() and _starts_line(text, previous))):
        # A keyword read as a name where an expression should be: the expression is missing.
        word = str(previous)
        return Diagnostic(Span(filename, previous.line, previous.column, previous.line,
                               previous.column + len(word)),
                          f"unexpected '{word}'; expected an expression",
                          f"'{word}' is a keyword: the expression before it is missing")
    width = max(len(str(token.value)), 1)
    shown = f"name '{token.value}'" if token.type == "NAME" else repr(str(token.value))
    message = f"unexpected {shown}; expected {_expected_words(expected)}"
    hint = ""
    if previous is not None and _starts_line(text, previous) and _close_keyword(str(previous)):
        hint = f"is '{previous}' a misspelt '{_close_keyword(str(previous))}'?"
    elif token.type == "NAME" and "NAME" not in expected and _starts_line(text, token) \
            and _close_keyword(str(token)):
        hint = f"did you mean '{_close_keyword(str(token))}'?"
    elif "RBRACE" in expected and token.type == "NAME":
        hint = "is a keyword misspelt, or a '}' missing?"
    elif "RBRACE" in expected and str(token) in declaration_keywords() and _starts_line(text, token):
        unclosed = _unclosed_hint(text[:token.start_pos])
        hint = "is a '}' missing?" + (f" {unclosed}" if unclosed else "")
    elif token.type in _OPENERS and not any(
            b == _OPENERS[token.type] for b, _, _ in _unclosed_brackets(text[:token.start_pos])):
        hint = f"this '{token}' closes nothing"
    if not hint:
        hint = _misspelt_line_start(text, line, column)
    return Diagnostic(Span(filename, line, column, line, column + width), message, hint)


def _misspelt_line_start(text: str, line: int, column: int) -> str:
    """A hint when the erring line begins with a word spelt like a keyword (`zoen hand: pile`,
    read as options of the zone above until the ':')."""
    lines = text.splitlines()
    if not 0 < line <= len(lines):
        return ""
    match = re.match(r"\s*([A-Za-z_]\w*)", lines[line - 1])
    if match is None or match.end(1) >= column:
        return ""
    word = match.group(1)
    keywords = statement_keywords() + declaration_keywords()
    if word in keywords:
        return ""
    close = _close_keyword(word)
    return f"did you mean '{close}'? ('{word}' begins the line)" if close else ""


# ----------------------------------------------------------------------------- tree -> AST
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
    if token.type in ("INT", "SIGNED_INT") and len(token) > MAX_LITERAL_DIGITS:
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
        try:
            with warnings.catch_warnings():
                # Python only warns about an unknown escape such as \\q; the language refuses it.
                warnings.simplefilter("error")
                return pyast.literal_eval(str(token))
        except (ValueError, SyntaxError, Warning):
            raise RuleFileError(Diagnostic(self.tok_span(token), "invalid escape in string",
                                           'escapes: \\" \\\\ \\n \\t'))

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
        return ast.EnumDecl(self.s(meta), str(c[0]), tuple(str(t) for t in c[1:]))

    def param_decl(self, meta, c):
        return ast.ParamDecl(self.s(meta), str(c[0]), c[1])

    def zone_decl(self, meta, c):
        name, kind, holds, *options = c
        return ast.ZoneDecl(self.s(meta), str(name), str(kind), self.tok_span(kind),
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
        return ast.VarDecl(self.s(meta), str(name), type_, per, init, display)

    def fn_decl(self, meta, c):
        name, params, *rest = c
        returns = rest[0] if len(rest) == 2 else None
        return ast.FnDecl(self.s(meta), str(name), tuple(params or ()), returns, rest[-1])

    def fn_block(self, meta, c):
        body = c[-1]
        for span, name, type_, value in reversed(c[:-1]):
            body = ast.LetIn(span, name, type_, value, body)
        return body

    def fn_let(self, meta, c):
        return (self.s(meta), str(c[0]), c[1], c[2])

    def proc_decl(self, meta, c):
        return ast.ProcDecl(self.s(meta), str(c[0]), tuple(c[1] or ()), c[2])

    def params(self, meta, c):
        return list(c)

    def param(self, meta, c):
        return ast.Param(self.s(meta), str(c[0]), c[1])

    def setup_decl(self, meta, c):
        return ast.SetupDecl(self.s(meta), c[0])

    def play_decl(self, meta, c):
        return ast.PlayDecl(self.s(meta), c[0])

    def score_decl(self, meta, c):
        return ast.ScoreDecl(self.s(meta), "score", str(c[0]), tuple(c[2:]), c[1] is not None)

    def tiebreak_decl(self, meta, c):
        return ast.ScoreDecl(self.s(meta), "tiebreak", str(c[0]), tuple(c[2:]), c[1] is not None)

    def direction(self, meta, c):
        return "lowest"

    def score_line(self, meta, c):
        return ast.ScoreLine(self.s(meta), self.string(c[0]), c[1])

    def winners_decl(self, meta, c):
        return ast.WinnersDecl(self.s(meta), c[0])

    def heuristic_decl(self, meta, c):
        return ast.HeuristicDecl(self.s(meta), str(c[0]), c[1])

    def brief_decl(self, meta, c):
        return ast.BriefDecl(self.s(meta), str(c[0]), c[1])

    def bot_decl(self, meta, c):
        return ast.BotDecl(self.s(meta), str(c[0]), self.string(c[1]))

    def label_decl(self, meta, c):
        return ast.LabelDecl(self.s(meta), str(c[0]), str(c[1]), c[2])

    def opponent_decl(self, meta, c):
        return ast.OpponentDecl(self.s(meta), self.string(c[0]), tuple(c[1:]))

    def invariant_decl(self, meta, c):
        return ast.InvariantDecl(self.s(meta), self.string(c[0]), c[1])

    def named_type(self, meta, c):
        return ast.TypeRef(self.s(meta), str(c[0]))

    def list_type(self, meta, c):
        return ast.ListTypeRef(self.s(meta), c[0])

    # ------------------------------------------------------------------ statements
    def block(self, meta, c):
        return tuple(c)

    def let_stmt(self, meta, c):
        return ast.Let(self.s(meta), str(c[0]), c[2], c[1])

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
        return ast.For(self.s(meta), str(c[0]), c[1], cond, c[-1])

    def while_stmt(self, meta, c):
        return ast.While(self.s(meta), c[0], c[1])

    def turn_stmt(self, meta, c):
        return ast.Turn(self.s(meta), c[0], c[1])

    def move_stmt(self, meta, c):
        what, position, dest, at = c
        return ast.Move(self.s(meta), what, dest, position or "top", at)

    def position(self, meta, c):
        return str(c[0])

    def shuffle_stmt(self, meta, c):
        return ast.Shuffle(self.s(meta), c[0])

    def choose_stmt(self, meta, c):
        options = {}
        for key, value in c[2:]:
            options[key] = value
        each = options.get("each")
        return ast.Choose(self.s(meta), str(c[0]), c[1], each[1] if each else options.get("by"),
                          options.get("prompt"), options.get("label"), each[0] if each else None)

    def choose_by(self, meta, c):
        return ("by", c[0])

    def choose_by_each(self, meta, c):
        return ("each", (str(c[0]), c[1]))

    def choose_prompt(self, meta, c):
        return ("prompt", self.text(c[0]))

    def choose_label(self, meta, c):
        return ("label", self.text(c[0]))

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

    def slice(self, meta, c):
        return ast.Slice(self.s(meta), c[0], c[1], c[2])

    def comp_for(self, meta, c):
        return ("for", str(c[0]), c[1])

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

