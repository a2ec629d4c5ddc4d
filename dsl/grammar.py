"""The LALR parser built from grammar.lark, and the keywords it reads from the grammar.

The parser's tables are built once per process and kept in the user's cache folder between
runs (dsl/cache.py). The keyword lists let syntax errors and the editor support (cli/lsp.py)
tell a keyword from a name.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from lark import Lark

GRAMMAR = Path(__file__).with_name("grammar.lark")


@lru_cache(maxsize=1)
def _lark() -> Lark:
    """The parser, built once per process; the built tables are kept in the user's cache
    folder, keyed by the grammar's content and Lark's and Python's versions. Lark's tables are
    a pickle, so they are read only through dsl/cache.py, which loads a file only when it
    carries this user's signature; a missing, stale or damaged file is rebuilt."""
    import io
    text = GRAMMAR.read_text(encoding="utf-8")
    path = _grammar_cache(text)
    if path is not None:
        from .cache import read_cache_file
        data = read_cache_file(path)
        if data is not None:
            try:
                return Lark.load(io.BytesIO(data))
            except Exception:       # damaged or from another Lark: build afresh
                pass
    parser = Lark(text, parser="lalr", propagate_positions=True, start=["start", "expr"],
                  maybe_placeholders=True)
    if path is not None:
        from .cache import store_cache_file
        buffer = io.BytesIO()
        try:
            parser.save(buffer)
        except Exception:
            return parser
        store_cache_file(path, buffer.getvalue(), keep=8)
    return parser


def _grammar_cache(text: str) -> Path | None:
    """The cache file of the parser built from this grammar text (None: no disk cache)."""
    import hashlib
    import sys

    import lark
    from .cache import cache_dir
    folder = cache_dir()            # created private, None when others could write in it
    if folder is None:
        return None
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]
    return folder / f"grammar-{digest}-lark{lark.__version__}-py{sys.version_info[0]}{sys.version_info[1]}.cache"


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


# Words of the language that never name anything of a rule file (docs/language.md, "Reserved
# words"). The contextual lexer would read most of them as names where no keyword fits, so
# `fn at(i: int)` would parse; the loader refuses them with E211 instead (reserved_word_problems).
# Not here: `x`, `size`, `extent`, `blocked`, `lowest`, `wins`, keywords only inside a zone or a
# score declaration, which games use as names (`for x in ...`, a var `wins`).
RESERVED_WORDS = frozenset("""
and at bot bottom break brief by case choose continue data each elif else enum extends fail fallback
false finish fn for from game heuristic id if in invariant label let list log measure move none not of opponent
or param per play player players prompt proc record return score setup show shuffle then tiebreak to
top true turn turned var variant while winners zone""".split())

# A name to suggest instead of a reserved word (else the word with '_value' after it).
_INSTEAD = {"at": "where", "by": "step", "to": "target", "from": "source", "in": "inside", "of": "owner",
            "top": "top_item", "bottom": "bottom_item", "each": "every", "score": "points", "label": "title",
            "data": "info", "id": "key", "record": "entry", "list": "items", "player": "seat",
            "players": "seats", "turn": "turn_number", "move": "step", "game": "match", "log": "entries"}


def reserved_word_problems(module) -> list:
    """E211 for every name in `module` (dsl.ast.Module) that is a reserved word."""
    from .errors import Diagnostic
    problems = []
    for word, span, what in module.names:
        if word in RESERVED_WORDS:
            instead = _INSTEAD.get(word, f"{word}_value")
            problems.append(Diagnostic(span, f"'{word}' is a reserved word of the language and cannot name "
                                       f"{'an' if what[0] in 'aeiou' else 'a'} {what}",
                                       f"choose another name, e.g. '{instead}'"))
    return problems
