"""Parse rule-file text into the AST (dsl.ast) with the LALR grammar in grammar.lark.

The grammar's parser is built in dsl/grammar.py, the parse tree becomes the AST in
dsl/build_ast.py, and syntax errors become `RuleFileError`s that point at the offending token
and say what the parser expected there (dsl/syntax_errors.py). Expressions and blocks nest at
most MAX_DEPTH deep.
"""
from __future__ import annotations

from dataclasses import fields

from lark.exceptions import UnexpectedInput, VisitError

from . import ast
from .build_ast import _Builder, _span
from .errors import SOURCES, Diagnostic, RuleFileError, Span
from .grammar import _lark
from .syntax_errors import _syntax_diagnostic


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
    names = tuple(sorted(builder.names, key=lambda n: (n[1].line, n[1].column)))
    return ast.Module(Span(filename, 1, 1, 1, 1), tuple(items), text, names)


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
