"""Syntax errors in words a designer reads: Lark's exceptions become `Diagnostic`s.

"unexpected X; expected Y" points at the offending token and names what the parser expected
there ("expected '}' or a statement"), with a hint where one helps: a bracket never closed or
closing nothing, a comma missing between two items, a misspelt keyword, a keyword read as a
name where an expression is missing.
"""
from __future__ import annotations

import difflib
import re

from lark import Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .errors import Diagnostic, Span
from .grammar import _lark, declaration_keywords, reserved_in_expressions, statement_keywords

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

# What a newcomer from another language most likely meant by a character the grammar has no use for.
_CHARACTER_HINTS = {
    "'": "strings use double quotes",
    '"': "a string ends on the line it begins",
    "/": "numbers are whole: '//' divides rounding down, '%' is the remainder",
    "&": "write 'and'",
    "|": "write 'or'",
    ";": "statements end at the end of the line; no ';' is needed",
}


def _unclosed_hint(text: str) -> str:
    stack = _unclosed_brackets(text)
    if not stack:
        return ""
    ch, line, col = stack[-1]
    return f"the '{ch}' at line {line}, column {col} is never closed"


def _closers(expected) -> str:
    """The closing brackets the parser would accept here, as "'}'" or "')' or ']'"."""
    return " or ".join(f"'{_CLOSERS[t]}'" for t in ("RPAR", "RSQB", "RBRACE") if t in expected)


_CLOSERS = {"RBRACE": "}", "RSQB": "]", "RPAR": ")"}


def _previous_name(exc: UnexpectedToken) -> Token | None:
    """The NAME token just before the unexpected one, if the parser holds one."""
    try:
        last = exc.interactive_parser.parser_state.value_stack[-1]
    except (AttributeError, IndexError):
        return None
    if isinstance(last, Tree) and last.data == "name" and len(last.children) == 1:
        last = last.children[0]
    return last if isinstance(last, Token) and last.type == "NAME" else None


def _comma_missing(exc: UnexpectedToken) -> bool:
    """Whether a ',' before the unexpected token would let the parser read on: two items of a
    list, a call, a record or an enum written without the comma between them."""
    if "COMMA" not in (exc.accepts or exc.expected):
        return False
    try:
        parser = exc.interactive_parser.copy()
        parser.feed_token(Token("COMMA", ","))
        return exc.token.type in parser.accepts()
    except (AttributeError, UnexpectedInput):
        return False


def _field_follows(text: str, token: Token) -> bool:
    """Whether the token is a name followed by ':', as a record's field or an enum's is."""
    start = getattr(token, "end_pos", None)
    return token.type == "NAME" and start is not None and re.match(r"\s*:", text[start:]) is not None


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
        hint = _CHARACTER_HINTS.get(char, "")
        if char == "!" and text[exc.pos_in_stream + 1:exc.pos_in_stream + 2] != "=":
            hint = "write 'not' for negation ('!=' is 'not equal')"
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
    comma = _comma_missing(exc)
    if comma and _field_follows(text, token):
        hint = f"is a ',' missing before '{token}'?"
    elif previous is not None and _starts_line(text, previous) and _close_keyword(str(previous)):
        hint = f"is '{previous}' a misspelt '{_close_keyword(str(previous))}'?"
    elif token.type == "NAME" and "NAME" not in expected and _starts_line(text, token) \
            and _close_keyword(str(token)):
        hint = f"did you mean '{_close_keyword(str(token))}'?"
    elif comma:
        hint = f"is a ',' missing before '{token}'?"
    elif "RBRACE" in expected and token.type == "NAME":
        hint = "is a keyword misspelt, or a '}' missing?"
    elif token.type == "LBRACE" and {"NAME", "INT"} <= set(expected) \
            and re.match(r"\{\s*\w+\s*:", text[token.start_pos:]):
        hint = "a record is built with its name and round brackets: `NAME(field: value, ...)`"
    elif str(token) == "=" and token.type != "ASSIGN_OP" and "COMP_OP" in expected:
        hint = "to compare, write '=='"
    elif _closers(expected) and str(token) in declaration_keywords() and _starts_line(text, token):
        unclosed = _unclosed_hint(text[:token.start_pos])
        hint = f"is a {_closers(expected)} missing?" + (f" {unclosed}" if unclosed else "")
    elif str(token) == "." and previous is not None and _starts_line(text, previous) \
            and re.match(r"\.\s*\w+\s*[-+]?=(?!=)", text[token.start_pos:]):
        hint = "a record's fields (and a component's attributes) cannot be assigned: " \
               "give the var a new record: `NAME = RECORD(field: value, ...)`"
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
