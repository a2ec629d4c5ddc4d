"""`boardwright lsp`: a language server for rule files (pygls, over stdio).

While a `.game` file is edited it publishes the diagnostics `validate` gives (errors with
their codes, warnings, notes), completes keywords, built-ins, the game's declarations, enum
members, component kinds and attributes, shows documentation on hover, jumps to a
declaration, and formats the file with `boardwright fmt`'s layout. The editor's unsaved text
is checked, not the file on disk (dsl.parsed.OVERLAY); a variant is checked over its base.
"""
from __future__ import annotations

import asyncio
import functools
import re
from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from ..dsl import ast
from ..dsl.builtins import BUILTINS
from ..dsl.types import PLACEMENT_FIELDS
from ..dsl.errors import BoardwrightError, Diagnostic
from ..dsl.parsed import OVERLAY
from ..dsl.grammar import declaration_keywords, statement_keywords, EXPRESSION_KEYWORDS
from ..dsl.parser import parse_text
from ..dsl.describe import KEYWORD_DOCS, declaration_doc
from ..dsl.unparse import type_text

SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning,
            "note": lsp.DiagnosticSeverity.Information}
GLOBAL_NAMES = {"players": "every seat, in order (list of player)", "player_count": "how many play (int)",
                "current": "the player whose turn it is", "supply": "the zone every component starts in"}


def uri_path(uri: str) -> Path:
    return Path(unquote(urlparse(uri).path))


DEBOUNCE_SECONDS = 0.2     # edits closer together than this are checked once, after the last
RECOVERY_ROUNDS = 8        # declarations left out, one per syntax error, to analyse the rest


class Analysis:
    """What the server knows about one open document: its last good spec (declarations,
    kinds, enums), the parsed module, and the type of every name use that checked."""

    def __init__(self):
        self.spec = None
        self.module: ast.Module | None = None
        self.name_types: list[tuple[int, int, str, str]] = []   # (line, column, name, type)


class RulesServer(LanguageServer):
    def __init__(self):
        super().__init__("boardwright", "1")
        self.analyses: dict[str, Analysis] = {}
        self.pending: dict = {}     # uri -> the timer of a check waiting for edits to stop

    def analyse(self, uri: str, text: str) -> list[lsp.Diagnostic]:
        """The diagnostics of `text`; the analysis keeps what checked, even with errors: a file
        that does not parse is analysed with its broken declarations left out."""
        path = uri_path(uri)
        analysis = self.analyses.setdefault(uri, Analysis())
        try:
            module = parse_text(text, str(path))
        except BoardwrightError as err:
            self._recover(analysis, text, path, err)
            return [_to_lsp(d, path) for d in err.diagnostics]
        analysis.module = module
        return [_to_lsp(d, path) for d in _check(analysis, path, text)]

    def _recover(self, analysis: Analysis, text: str, path: Path, err: BoardwrightError) -> None:
        for _ in range(RECOVERY_ROUNDS):
            text = _without_broken_declaration(text, err.diagnostics[0].span)
            try:
                analysis.module = parse_text(text, str(path))
            except BoardwrightError as again:
                err = again
                continue
            _check(analysis, path, text)
            return


def _check(analysis: Analysis, path: Path, text: str) -> list[Diagnostic]:
    """Check `text` as the file at `path`; keep the spec and the name types even when it has errors."""
    from ..dsl.loader import check_game
    key = str(path.resolve())
    OVERLAY[key] = text
    try:
        spec, types = check_game(path, warnings=True)
        found = spec.warnings
    except BoardwrightError as err:
        spec, types, found = getattr(err, "spec", None), getattr(err, "types", None), err.diagnostics
    finally:
        OVERLAY.pop(key, None)
    if spec is not None:
        analysis.spec = spec
        analysis.name_types = _name_types(spec, types or {}, key)
    return found


def _without_broken_declaration(text: str, span) -> str:
    """`text` with the top-level declaration around a syntax error blanked: from the last
    line at or above it that starts in column 1 to the next one below it (an error at the
    very start of a declaration blames the unfinished one before it). Lines stay where they
    were, so positions in the rest of the file do not move."""
    lines = text.split("\n")
    line = min(max(span.line, 1), len(lines))
    starts = [i for i, row in enumerate(lines) if row[:1] not in ("", " ", "\t", "#", "}")]
    at_start = span.column <= 1 and line - 1 in starts
    first = max([i for i in starts if i < line - 1 or (i == line - 1 and not at_start)], default=0)
    last = min([i for i in starts if i > line - 1], default=len(lines))
    return "\n".join("" if first <= i < last else row for i, row in enumerate(lines))


def _name_types(spec, types: dict, file: str) -> list[tuple[int, int, str, str]]:
    """(line, column, name, type) of every name use in `file` whose type the checker knows."""
    from ..dsl.ast_walk import walk
    found = []
    roots = [d for table in (spec.params, spec.vars, spec.fns, spec.procs, spec.invariants) for d in table.values()]
    roots += [d for d in (spec.setup, spec.play, spec.score, spec.tiebreak, spec.winners, spec.heuristic,
                          spec.brief) if d is not None]
    for root in roots:
        for node in walk(root):
            if isinstance(node, ast.Name) and id(node) in types and Path(node.span.file).resolve() == Path(file):
                found.append((node.span.line, node.span.column, node.id, types[id(node)]))
    return sorted(found)


def _to_lsp(d: Diagnostic, path: Path) -> lsp.Diagnostic:
    here = Path(d.span.file).resolve() == path.resolve() if d.span.file else False
    if here and d.span.line > 0:
        start = lsp.Position(d.span.line - 1, max(d.span.column - 1, 0))
        end = lsp.Position(d.span.end_line - 1, max(d.span.end_column - 1, 0)) \
            if d.span.end_line >= d.span.line else start
        message = d.message
    else:
        # A problem in another file (the base game, a data file): shown at the top of this one.
        start = end = lsp.Position(0, 0)
        message = f"{d.span}: {d.message}" if d.span.line > 0 else d.message
    if d.hint:
        message += f"\nhint: {d.hint}"
    return lsp.Diagnostic(range=lsp.Range(start, end), message=message, source="boardwright",
                          severity=SEVERITY.get(d.severity, lsp.DiagnosticSeverity.Error), code=d.code or None)


def _word_at(text: str, line: int, character: int) -> tuple[str, str]:
    """The word under the cursor and the text of the line before the word."""
    lines = text.splitlines()
    if line >= len(lines):
        return "", ""
    row = lines[line]
    start = end = min(character, len(row))
    while start > 0 and (row[start - 1].isalnum() or row[start - 1] == "_"):
        start -= 1
    while end < len(row) and (row[end].isalnum() or row[end] == "_"):
        end += 1
    return row[start:end], row[:start]


def _declarations(spec) -> dict:
    """name -> (declaration node, what it is)."""
    found = {}
    if spec is None:
        return found
    for table, what in ((spec.params, "param"), (spec.zones, "zone"), (spec.vars, "var"),
                        (spec.fns, "fn"), (spec.procs, "proc"), (spec.records, "record")):
        for name, decl in table.items():
            found[name] = (decl, what)
    return found


def _type_before_dot(analysis, before: str, line: int) -> str | None:
    """The type of the name just before a dot (`c.` with c a Card), from the closest use of
    that name at or above this line that checked; None when unknown."""
    match = re.search(r"([A-Za-z_]\w*)\s*\.\s*$", before)
    if match is None or analysis is None:
        return None
    uses = [(ln, t) for ln, _, name, t in analysis.name_types if name == match.group(1) and ln <= line + 1]
    return max(uses)[1] if uses else None


def completions(spec, module, before: str, analysis=None, line: int = 0) -> list[lsp.CompletionItem]:
    items: list[lsp.CompletionItem] = []
    Kind = lsp.CompletionItemKind
    if re.search(r"\.\s*$", before):
        # After a dot: the members of the value's type when it is known, else of every kind.
        known = _type_before_dot(analysis, before, line)
        if known == "cell" or known is None:
            items += [lsp.CompletionItem(a, kind=Kind.Field, detail=f"cell.{a}: int") for a in ("x", "y")]
        if spec is not None:
            for kind in spec.kinds.values():
                if known is None or known == kind.name:
                    for attr, t in kind.attributes.items():
                        items.append(lsp.CompletionItem(attr, kind=Kind.Field, detail=f"{kind.name}.{attr}: {t}"))
            for record in spec.records.values():
                if known is None or known == record.name:
                    for f in record.fields:
                        items.append(lsp.CompletionItem(f.name, kind=Kind.Field,
                                                        detail=f"{record.name}.{f.name}: {type_text(f.type)}"))
        if known == "placement" or known is None:
            items += [lsp.CompletionItem(a, kind=Kind.Field, detail=f"placement.{a}: {t}")
                      for a, t in PLACEMENT_FIELDS.items()]
        return _unique(items)
    for word in dict.fromkeys(declaration_keywords() + statement_keywords() + EXPRESSION_KEYWORDS):
        items.append(lsp.CompletionItem(word, kind=Kind.Keyword, documentation=KEYWORD_DOCS.get(word)))
    for name, builtin in BUILTINS.items():
        items.append(lsp.CompletionItem(name, kind=Kind.Function, detail=f"{name}({builtin.params})",
                                        documentation=builtin.doc))
    items.append(lsp.CompletionItem("components", kind=Kind.Function, detail="components(KIND)",
                                    documentation="every component of a kind, in data order"))
    for name, doc in GLOBAL_NAMES.items():
        items.append(lsp.CompletionItem(name, kind=Kind.Variable, detail=doc))
    kinds = {"param": Kind.Constant, "zone": Kind.Module, "var": Kind.Variable, "fn": Kind.Function,
             "proc": Kind.Method, "record": Kind.Struct}
    for name, (decl, what) in _declarations(spec).items():
        items.append(lsp.CompletionItem(name, kind=kinds[what], detail=what, documentation=declaration_doc(decl)))
    if module is not None:          # declarations of this file that do not check yet
        for item in module.items:
            name = getattr(item, "name", None)
            if isinstance(name, str) and type(item).__name__ in ("ParamDecl", "ZoneDecl", "VarDecl", "FnDecl", "ProcDecl",
                                                                              "RecordDecl"):
                items.append(lsp.CompletionItem(name, kind=Kind.Variable, detail=type(item).__name__[:-4].lower()))
    if spec is not None:
        for enum, members in spec.enums.items():
            items.append(lsp.CompletionItem(enum, kind=Kind.Enum, detail="enum"))
            for m in members:
                items.append(lsp.CompletionItem(m, kind=Kind.EnumMember, detail=f"{enum} member"))
        for kind in spec.kinds.values():
            items.append(lsp.CompletionItem(kind.name, kind=Kind.Class, detail="component kind",
                                            documentation=", ".join(f"{a}: {t}" for a, t in kind.attributes.items())))
    return _unique(items)


def _unique(items):
    seen, out = set(), []
    for item in items:
        if item.label not in seen:
            seen.add(item.label)
            out.append(item)
    return out


def hover_text(spec, word: str) -> str | None:
    if word in BUILTINS:
        b = BUILTINS[word]
        return f"```\n{word}({b.params})\n```\n{b.doc}"
    if word == "components":
        return "```\ncomponents(KIND)\n```\nEvery component of a kind, in the data file's order."
    if word in GLOBAL_NAMES:
        return f"`{word}`: {GLOBAL_NAMES[word]}"
    decl = _declarations(spec).get(word)
    if decl is not None:
        return declaration_doc(decl[0])
    if spec is not None:
        if word in spec.kinds:
            kind = spec.kinds[word]
            return f"component kind `{word}`\n\n" + "\n".join(f"- `{a}`: {t}" for a, t in kind.attributes.items())
        for enum, members in spec.enums.items():
            if word == enum or word in members:
                return f"enum `{enum}`: {', '.join(members)}"
        fields = [f"field `{f.name}` of record `{r.name}`: {type_text(f.type)}"
                  for r in spec.records.values() for f in r.fields if f.name == word]
        if fields:
            return "\n\n".join(fields)
    if word in KEYWORD_DOCS:
        return f"`{word}`: {KEYWORD_DOCS[word]}"
    return None


def definition(spec, word: str):
    decl = _declarations(spec).get(word)
    if decl is not None:
        return decl[0].span
    if spec is not None and word in spec.enum_spans and spec.enum_spans[word].line > 0:
        return spec.enum_spans[word]
    return None


def _open_document(ls: RulesServer, uri: str):
    """The open document at `uri`, or None: a request about a document the editor never
    opened is answered with nothing (pygls would read the disk, or fail with a traceback)."""
    return ls.workspace.text_documents.get(uri)


def _answering_nothing_on_failure(handler):
    """A request handler that answers None rather than an error reply with a traceback when
    something unforeseen fails; the server goes on."""
    @functools.wraps(handler)
    def safe(ls, params):
        try:
            return handler(ls, params)
        except Exception as err:  # noqa: BLE001 - the server must outlive any one request
            ls.window_log_message(lsp.LogMessageParams(type=lsp.MessageType.Error,
                                                       message=f"{handler.__name__}: {type(err).__name__}: {err}"))
            return None
    return safe


def build_server() -> RulesServer:
    server = RulesServer()

    def publish(uri: str) -> None:
        server.pending.pop(uri, None)
        doc = _open_document(server, uri)
        if doc is not None:
            server.text_document_publish_diagnostics(
                lsp.PublishDiagnosticsParams(uri=uri, diagnostics=server.analyse(uri, doc.source)))

    def publish_soon(uri: str) -> None:
        """Check once edits stop for DEBOUNCE_SECONDS: a burst of edits costs one check."""
        waiting = server.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        server.pending[uri] = asyncio.get_event_loop().call_later(DEBOUNCE_SECONDS, publish, uri)

    def feature(name, options=None):
        return lambda handler: server.feature(name, options)(_answering_nothing_on_failure(handler))

    @feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: RulesServer, params: lsp.DidOpenTextDocumentParams):
        publish(params.text_document.uri)

    @feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: RulesServer, params: lsp.DidChangeTextDocumentParams):
        publish_soon(params.text_document.uri)

    @feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RulesServer, params: lsp.DidCloseTextDocumentParams):
        waiting = ls.pending.pop(params.text_document.uri, None)
        if waiting is not None:
            waiting.cancel()
        ls.analyses.pop(params.text_document.uri, None)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=params.text_document.uri,
                                                                          diagnostics=[]))

    @feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: RulesServer, params: lsp.DidSaveTextDocumentParams):
        publish(params.text_document.uri)

    @feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["."]))
    def completion(ls: RulesServer, params: lsp.CompletionParams):
        doc = _open_document(ls, params.text_document.uri)
        if doc is None:
            return None
        analysis = ls.analyses.get(doc.uri) or Analysis()
        lines = doc.source.splitlines()
        row = lines[params.position.line] if 0 <= params.position.line < len(lines) else ""
        before = row[:params.position.character]
        before = before[:len(before) - len(re.search(r"\w*$", before).group())]
        return lsp.CompletionList(is_incomplete=False, items=completions(
            analysis.spec, analysis.module, before, analysis, params.position.line))

    def word_and_spec(ls: RulesServer, params):
        """The word under the cursor and the document's last good spec."""
        doc = _open_document(ls, params.text_document.uri)
        if doc is None:
            return "", None
        word, _ = _word_at(doc.source, params.position.line, params.position.character)
        return word, (ls.analyses.get(doc.uri) or Analysis()).spec

    @feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: RulesServer, params: lsp.HoverParams):
        word, spec = word_and_spec(ls, params)
        text = hover_text(spec, word) if word else None
        if text is None:
            return None
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text))

    @feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def goto_definition(ls: RulesServer, params: lsp.DefinitionParams):
        word, spec = word_and_spec(ls, params)
        span = definition(spec, word) if word else None
        if span is None:
            return None
        start = lsp.Position(span.line - 1, span.column - 1)
        return lsp.Location(uri=Path(span.file).resolve().as_uri(), range=lsp.Range(start, start))

    @feature(lsp.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: RulesServer, params: lsp.DocumentFormattingParams):
        from ..dsl.formatter import format_checked
        doc = _open_document(ls, params.text_document.uri)
        if doc is None:
            return None
        try:
            formatted = format_checked(doc.source, str(uri_path(doc.uri)))
        except BoardwrightError:
            return None             # a file that does not parse is left as it is
        if formatted == doc.source:
            return []
        end = lsp.Position(len(doc.source.splitlines()) + 1, 0)
        return [lsp.TextEdit(range=lsp.Range(lsp.Position(0, 0), end), new_text=formatted)]

    return server


def serve() -> int:
    build_server().start_io()
    return 0
