"""`boardwright explain`: a game's rules as structured, readable text; for a variant, what it
changes from its base. `boardwright info --json`: the same facts as data for tools.

Both work on the checked GameSpec, so what they say is what the engine runs.
"""
from __future__ import annotations

from pathlib import Path

from ..dsl import ast
from ..dsl.formatter import strip_spans
from ..dsl.describe import comments_above
from ..dsl.errors import counted
from ..dsl.unparse import expr_text, type_text

INDENT = "  "


def _players(spec) -> str:
    p = spec.players
    if p is None:
        return "no player count"
    return counted(p.minimum, "player") if p.minimum == p.maximum \
        else f"{p.minimum} to {p.maximum} players"


def _note(decl) -> str:
    """The comment above a declaration or at the end of its line, if any."""
    from ..dsl.errors import SOURCES
    above = comments_above(decl.span)
    lines = SOURCES.get(decl.span.file, "").splitlines()
    trailing = ""
    if 0 < decl.span.line <= len(lines):
        line = lines[decl.span.line - 1]
        hash_at = _comment_start(line)
        if hash_at >= 0:
            trailing = line[hash_at + 1:].strip()
    words = " ".join(above + ([trailing] if trailing else []))
    return f"  -- {words}" if words else ""


def _comment_start(line: str) -> int:
    in_string = False
    for i, ch in enumerate(line):
        if ch == '"' and (i == 0 or line[i - 1] != "\\"):
            in_string = not in_string
        elif ch == "#" and not in_string:
            return i
    return -1


def zone_words(decl: ast.ZoneDecl) -> str:
    options = [o for o in decl.options if o.name != "per player"]
    per_player = len(options) != len(decl.options)
    words = []
    for o in options:
        if o.name in ("size", "extent"):
            words.append(f"{o.name} {' x '.join(_value(v) for v in o.values)}")
        elif o.name == "blocked":
            words.append(f"blocked at ({', '.join(_value(v) for v in o.values)})")
        else:
            words.append(o.name)
    text = f"a {decl.kind}" + (f" of {decl.holds}" if decl.holds else "")
    if words:
        text += " (" + ", ".join(words) + ")"
    return text + (", one per player" if per_player else "")


def _value(v) -> str:
    return v if isinstance(v, str) else expr_text(v) if isinstance(v, ast.Node) else str(v)


# ----------------------------------------------------------------------------- statements in words
def statement_lines(stmts, depth: int) -> list[str]:
    out = []
    for s in stmts:
        pad = INDENT * depth
        if isinstance(s, ast.Let):
            typed = f" (a {type_text(s.type)})" if s.type is not None else ""
            out.append(f"{pad}let {s.name}{typed} be {expr_text(s.value)}")
        elif isinstance(s, ast.Assign):
            target = s.name + (f"[{expr_text(s.index)}]" if s.index is not None else "")
            verb = {"=": f"set {target} to", "+=": f"add to {target}:", "-=": f"take from {target}:"}[s.op]
            out.append(f"{pad}{verb} {expr_text(s.value)}")
        elif isinstance(s, ast.CallStmt):
            out.append(f"{pad}do {s.name}({', '.join(expr_text(a) for a in s.args)})")
        elif isinstance(s, ast.If):
            for i, (cond, body) in enumerate(s.branches):
                out.append(f"{pad}{'if' if i == 0 else 'otherwise, if'} {expr_text(cond)}:")
                out += statement_lines(body, depth + 1)
            if s.orelse:
                out.append(f"{pad}otherwise:")
                out += statement_lines(s.orelse, depth + 1)
        elif isinstance(s, ast.For):
            cond = f" where {expr_text(s.condition)}" if s.condition is not None else ""
            out.append(f"{pad}for each {s.var} in {expr_text(s.iterable)}{cond}:")
            out += statement_lines(s.body, depth + 1)
        elif isinstance(s, ast.While):
            out.append(f"{pad}repeat while {expr_text(s.condition)}:")
            out += statement_lines(s.body, depth + 1)
        elif isinstance(s, ast.Turn):
            out.append(f"{pad}turn of {expr_text(s.player)}:")
            out += statement_lines(s.body, depth + 1)
        elif isinstance(s, ast.Move):
            where = f"{s.position} of " if s.position == "bottom" else ""
            at = f" at {expr_text(s.at)}" if s.at is not None else ""
            at += f" turned {expr_text(s.turn)}" if getattr(s, "turn", None) is not None else ""
            out.append(f"{pad}move {expr_text(s.what)} to {where}{expr_text(s.dest)}{at}")
        elif isinstance(s, ast.Shuffle):
            out.append(f"{pad}shuffle {expr_text(s.zone)}")
        elif isinstance(s, ast.Choose):
            who = expr_text(s.by) if s.by is not None else "the current player"
            if getattr(s, "each", None):
                who = f"each {s.each} in {expr_text(s.by)}, at the same time,"
            prompt = f" (asked: {expr_text(s.prompt)})" if s.prompt is not None else ""
            ident = f" (ids: {expr_text(s.ident)})" if s.ident is not None else ""
            out.append(f"{pad}{who} chooses {s.var} from {expr_text(s.source)}{prompt}{ident}")
        elif isinstance(s, ast.Log):
            out.append(f"{pad}log {expr_text(s.text)}")
        elif isinstance(s, ast.Finish) and s.name:
            out.append(f'{pad}the game ends: "{s.name}"')
        elif isinstance(s, getattr(ast, "Fallback", ())):
            out.append(f'{pad}(a made-up rule decides here: "{s.name}")')
        elif isinstance(s, ast.Fail):
            out.append(f"{pad}refuse the choice: {expr_text(s.text)}")
        else:
            out.append(pad + {ast.Break: "stop the loop", ast.Continue: "go on with the loop's next round",
                              ast.Return: "leave the procedure", ast.Finish: "the game ends"}.get(type(s), "?"))
    return out


# ----------------------------------------------------------------------------- explain
def explain(spec, base_spec=None) -> str:
    """The rules of a checked game; with `base_spec`, what the variant changes from it."""
    if base_spec is not None:
        return explain_variant(spec, base_spec)
    out = [f"{spec.title}: {_players(spec)}", ""]
    out += _section("Components", [
        f"{k.name} ({len(k.items)}): " + ", ".join(f"{a}: {t}" for a, t in k.attributes.items())
        for k in spec.kinds.values()] + [f"enum {n}: {', '.join(m)}" for n, m in spec.enums.items()]
        + [f"record {n}: " + ", ".join(f"{f.name}: {type_text(f.type)}" for f in d.fields) + _note(d)
           for n, d in spec.records.items()]
        + [f"data {Path(d.path).name}: {d.provenance.strip()}" for d in spec.data])
    out += _section("Params (change one with --set NAME=VALUE)",
                    [f"{n} = {expr_text(d.value)}{_note(d)}" for n, d in spec.params.items()])
    out += _section("Zones", [f"{n}: {zone_words(d)}{_note(d)}" for n, d in spec.zones.items()])
    out += _section("State", [f"{n}: {type_text(d.type)}" + (f" per {d.per}" if d.per else "")
                              + (f", starts at {expr_text(d.init)}" if d.init is not None else "") + _note(d)
                              for n, d in spec.vars.items()])
    out += _section("Definitions", [_fn_line(d) for d in spec.fns.values()])
    if spec.setup is not None:
        out += _section("Setup (before play, no choices)", statement_lines(spec.setup.body, 0))
    if spec.play is not None:
        out += _section("Play (a turn is each 'turn of' block)", statement_lines(spec.play.body, 0))
    for decl in spec.procs.values():
        params = ", ".join(f"{p.name}: {type_text(p.type)}" for p in decl.params)
        out += _section(f"Procedure {decl.name}({params}){_note(decl)}", statement_lines(decl.body, 0))
    out += _section("The end", _end_lines(spec))
    out += _section("Scoring", _score_lines(spec))
    out += _section("Invariants (checked by 'boardwright check')",
                    [f"{t}: {expr_text(d.value)}" for t, d in spec.invariants.items()])
    out += _section("Measures (reported by simulate, compare, sweep and tune)",
                    [f"{t} = {expr_text(d.value)}" for t, d in spec.measures.items()])
    return "\n".join(out).rstrip() + "\n"


def _fn_line(d: ast.FnDecl) -> str:
    params = ", ".join(f"{p.name}: {type_text(p.type)}" for p in d.params)
    returns = f" -> {type_text(d.returns)}" if d.returns is not None else ""
    lets, body = [], d.body
    while isinstance(body, ast.LetIn):          # `let`s of a fn body, in words
        lets.append(f"{body.name} = {expr_text(body.value)}")
        body = body.body
    where = f", where {'; '.join(lets)}" if lets else ""
    return f"{d.name}({params}){returns} = {expr_text(body)}{where}{_note(d)}"


def _end_lines(spec) -> list[str]:
    lines = ["the game ends when the play block is done, or when 'finish' runs"]
    if spec.winners is not None:
        lines.append(f"the winners are {expr_text(spec.winners.value)}")
    else:
        best = "lowest" if _lowest_wins(spec) else "highest"
        lines.append(f"the winners are the players with the {best} score"
                     + (" (then the tiebreak)" if spec.tiebreak is not None else ""))
        if spec.opponents:
            lines.append("and only if they beat every opponent's total: a tie with an opponent wins nothing")
    return lines


def _lowest_wins(spec) -> bool:
    return spec.score is not None and spec.score.lowest_wins


def _score_lines(spec) -> list[str]:
    lines = []
    for decl in (spec.score, spec.tiebreak):
        if decl is not None:
            lines += _sheet_lines(decl)
    for title, decl in spec.opponents.items():
        lines.append(f"opponent {title}: the sum of")
        lines += [f"{INDENT}{line.title}: {expr_text(line.value)}" for line in decl.lines]
    return lines


def _sheet_lines(decl) -> list[str]:
    """A score or tiebreak declaration: whose, which way it wins, and its lines."""
    head = "score" if decl.kind == "score" else "tiebreak"
    if decl.lowest_wins:
        head += " (lowest wins)"
    # score lines add up; tiebreak lines are compared one after the other (docs/language.md)
    how = "the sum of" if decl.kind == "score" else "compared in this order, when the totals are equal"
    return [f"{head} of player {decl.var}: {how}"] + [f"{INDENT}{line.title}: {expr_text(line.value)}"
                                                      for line in decl.lines]


def _section(title: str, lines: list[str]) -> list[str]:
    if not lines:
        return []
    return [title] + [INDENT + line for line in lines] + [""]


# ----------------------------------------------------------------------------- variants
_TABLES = (("params", "param"), ("zones", "zone"), ("vars", "var"), ("fns", "fn"), ("procs", "proc"),
           ("invariants", "invariant"), ("measures", "measure"), ("labels", "label"), ("opponents", "opponent"), ("bots", "bot"))
_SINGLES = ("setup", "play", "score", "tiebreak", "winners", "heuristic")


def explain_variant(spec, base) -> str:
    out = [f"{spec.variant}: a variant of {base.title} ({_players(spec)})",
           f"Everything not listed here is as in {Path(base.path).name}.", ""]
    changes = []
    if strip_spans(spec.players) != strip_spans(base.players):
        changes.append(f"players: {_players(base)} -> {_players(spec)}")
    for table, word in _TABLES:
        mine, theirs = getattr(spec, table), getattr(base, table)
        for name, decl in mine.items():
            if name not in theirs:
                changes.append(f"adds {word} {_decl_text(word, name, decl)}")
            elif strip_spans(decl) != strip_spans(theirs[name]):
                changes.append(f"changes {word} {name}:")
                changes.append(f"{INDENT}was: {_decl_text(word, name, theirs[name])}")
                changes.append(f"{INDENT}now: {_decl_text(word, name, decl)}")
    for key in _SINGLES:
        mine, theirs = getattr(spec, key), getattr(base, key)
        if strip_spans(mine) != strip_spans(theirs):
            changes.append(f"{'replaces' if theirs is not None else 'adds'} {key}:")
            changes += [INDENT + line for line in _single_lines(key, mine)]
    out += _section("Changes", changes or ["none: this variant changes nothing"])
    return "\n".join(out).rstrip() + "\n"


def _decl_text(word: str, name: str, decl) -> str:
    if word == "param":
        return f"{name} = {expr_text(decl.value)}"
    if word == "zone":
        return f"{name}: {zone_words(decl)}"
    if word == "var":
        return f"{name}: {type_text(decl.type)}" + (f" per {decl.per}" if decl.per else "") + \
            (f" = {expr_text(decl.init)}" if decl.init is not None else "")
    if word == "fn":
        return _fn_line(decl)
    if word == "proc":
        return f"{name}(...):\n" + "\n".join(INDENT * 2 + line for line in statement_lines(decl.body, 0))
    if word == "invariant":
        return f"{name}: {expr_text(decl.value)}"
    if word == "measure":
        return f"{name} = {expr_text(decl.value)}"
    if word == "label":
        return f"{decl.kind}: {expr_text(decl.value)}"
    if word == "bot":
        return f"{name} \"{decl.settings}\""
    return name


def _single_lines(key: str, decl) -> list[str]:
    if decl is None:
        return ["(removed)"]
    if key in ("setup", "play"):
        return statement_lines(decl.body, 0)
    if key in ("score", "tiebreak"):        # with its direction: a variant may make the lowest win
        return _sheet_lines(decl)
    return [expr_text(decl.value)]


# ----------------------------------------------------------------------------- info
def _zone_options(decl: ast.ZoneDecl) -> dict:
    """A zone's options and their values as written; `blocked`, which a zone may repeat, as
    the list of its cells."""
    options: dict = {}
    for o in decl.options:
        values = [_value(v) for v in o.values]
        if o.name == "blocked":
            options.setdefault("blocked", []).append(values)
        elif o.name != "per player":
            options[o.name] = values
    return options


def info(spec, variants: list[str]) -> dict:
    """The facts of a game as JSON-ready data."""
    from ..dsl.unparse import expr_text as text
    from ..dsl.lint import constant
    return {
        "title": spec.title,
        "variant": spec.variant,
        "file": spec.variant_path or spec.path,
        "players": {"min": spec.players.minimum, "max": spec.players.maximum} if spec.players else None,
        "params": [{"name": n, "default": text(d.value), "value": constant(d.value)} for n, d in spec.params.items()],
        "variants": variants,
        "zones": [{"name": n, "kind": d.kind, "holds": d.holds,
                   "per_player": any(o.name == "per player" for o in d.options), "options": _zone_options(d)}
                  for n, d in spec.zones.items()],
        "vars": [{"name": n, "type": type_text(d.type), "per": d.per} for n, d in spec.vars.items()],
        "enums": {n: list(m) for n, m in spec.enums.items()},
        "components": [{"kind": k.name, "count": len(k.items), "attributes": dict(k.attributes),
                        "items": k.items} for k in spec.kinds.values()],
        "data": [{"file": Path(d.path).name, "provenance": d.provenance.strip(),
                  "parts": d.provenance_parts, "representative": d.representative} for d in spec.data],
        "score_direction": "lowest" if _lowest_wins(spec) else "highest",
    }
