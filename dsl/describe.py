"""Words about a rule file: a declaration's source and comments, and what each keyword does.

Shared by the language server (hover, completion) and `explain`.
"""
from __future__ import annotations

from .errors import SOURCES

KEYWORD_DOCS = {
    "game": 'game "TITLE": the first line of a base rule file',
    "variant": 'variant "TITLE" extends "BASE.game": the first line of a variant file',
    "players": "players MIN..MAX: the player counts the game allows",
    "data": 'data "FILE.yaml": load the components (and enums) of a data file',
    "enum": "enum NAME { a, b, c }: a closed set of names",
    "record": "record NAME { field: TYPE, ... }: a value of named fields, built as NAME(field: VALUE, ...)",
    "id": 'choose ... id "TEXT": the id of each option (unique), in place of the one made from its value',
    "param": "param NAME = EXPR: a named constant; `--set NAME=VALUE` overrides it",
    "zone": "zone NAME: stack|pile|grid [of KIND] [options] [per player]: where components lie",
    "var": "var NAME: TYPE [per player|per KIND] [= EXPR]: a piece of state the rules change",
    "fn": "fn NAME(ARGS) -> TYPE = EXPR: a pure function",
    "proc": "proc NAME(ARGS) { ... }: a procedure of statements",
    "setup": "setup { ... }: runs once before play, without choices",
    "play": "play { ... }: the flow of the game: rounds, turns and choices",
    "score": 'score p { "LINE": EXPR, ... }: the score sheet; a player\'s score is the sum',
    "tiebreak": 'tiebreak p { "LINE": EXPR }: breaks ties between equal scores',
    "winners": "winners = EXPR: the list of winning players (default: the best score)",
    "heuristic": "heuristic p = EXPR: how good a position looks to the bots",
    "bot": "bot NAME \"SETTINGS\": the bot's default settings for this game (as on the command line)",
    "label": "label c: KIND = EXPR: how a component is shown while playing",
    "opponent": 'opponent "NAME" { ... }: a scripted opponent\'s score sheet',
    "invariant": 'invariant "TITLE": EXPR: holds after every step (`boardwright check`)',
    "measure": 'measure "NAME" = EXPR: a number worked out when a game ends, reported by simulate, compare, sweep and tune',
    "let": "let NAME = EXPR: a local name",
    "if": "if COND { ... } elif COND { ... } else { ... }; in expressions: if C then A else B",
    "for": "for NAME in LIST [if COND] { ... }",
    "while": "while COND { ... }",
    "turn": "turn PLAYER { ... }: the player's turn (sets `current`)",
    "move": "move WHAT to [top of|bottom of] ZONE [at CELL [turned N]]",
    "turned": "move PIECE to GRID at CELL turned N: lay a component with a shape in its orientation N "
              "(0 as drawn; `turns(PIECE)` orientations), the top left of its box on the cell",
    "shuffle": "shuffle ZONE",
    "choose": 'choose NAME from LIST [by PLAYER] [prompt "..."] [label "..."] [id "..."]: a decision',
    "break": "leave the innermost loop", "continue": "go on with the next round of the loop",
    "return": "leave the procedure", "finish": 'finish ["NAME"]: end the game now (a named ending is counted)',
    "fallback": 'fallback "NAME": count that a made-up rule (a guard) decided something',
    "log": 'log "TEXT {expr}": a line of the game log', "fail": 'fail "TEXT": refuse this choice',
    "case": "case EXPR { KEY: VALUE ... else: VALUE }",
}


def source_lines(span) -> list[str]:
    return SOURCES.get(span.file, "").splitlines() if span.line > 0 else []


def comments_above(span) -> list[str]:
    """The comment lines directly above a declaration, without their '#'."""
    lines = source_lines(span)
    out = []
    i = span.line - 2
    while 0 <= i < len(lines) and lines[i].strip().startswith("#"):
        out.insert(0, lines[i].strip().lstrip("#").strip())
        i -= 1
    return out


def declaration_text(span, max_lines: int = 6) -> str:
    lines = source_lines(span)
    if not lines:
        return ""
    body = lines[span.line - 1:max(span.end_line, span.line)]
    if len(body) > max_lines:
        body = body[:max_lines] + ["  ..."]
    return "\n".join(body)


def declaration_doc(decl) -> str:
    """Markdown: the declaration's source and its comments, and where it is."""
    text = declaration_text(decl.span)
    comments = comments_above(decl.span)
    doc = f"```\n{text}\n```" if text else ""
    if comments:
        doc += "\n" + " ".join(comments)
    return doc + f"\n\n_{decl.span}_"
