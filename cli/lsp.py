"""`boardwright lsp`: a language server for rule files (pygls, over stdio).

While a `.game` file is edited it publishes the diagnostics `validate` gives (errors with
their codes, warnings, notes), completes keywords, built-ins, the game's declarations, enum
members, component kinds and attributes, shows documentation on hover, jumps to a
declaration, and formats the file with `boardwright fmt`'s layout. The editor's unsaved text
is checked, not the file on disk (dsl.parsed.OVERLAY); a variant is checked over its base.
"""
from __future__ import annotations

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


class Analysis:
    """What the server knows about one open document: its last good spec and declarations."""

    def __init__(self):
        self.spec = None
        self.module: ast.Module | None = None


class RulesServer(LanguageServer):
    def __init__(self):
        super().__init__("boardwright", "1")
        self.analyses: dict[str, Analysis] = {}

    def analyse(self, uri: str, text: str) -> list[lsp.Diagnostic]:
        from ..dsl.loader import check_game
        path = uri_path(uri)
        key = str(path.resolve())
        analysis = self.analyses.setdefault(uri, Analysis())
        OVERLAY[key] = text
        found: list[Diagnostic] = []
        try:
            try:
                analysis.module = parse_text(text, str(path))
            except BoardwrightError as err:
                return [_to_lsp(d, path) for d in err.diagnostics]
            try:
                spec, _ = check_game(path, warnings=True)
                analysis.spec = spec
                found = spec.warnings
            except BoardwrightError as err:
                found = err.diagnostics
        finally:
            OVERLAY.pop(key, None)
        return [_to_lsp(d, path) for d in found]


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


def completions(spec, module, before: str) -> list[lsp.CompletionItem]:
    items: list[lsp.CompletionItem] = []
    Kind = lsp.CompletionItemKind
    if re.search(r"\.\s*$", before):
        # After a dot: the attributes of the component kinds (and a cell's x and y).
        if spec is not None:
            for kind in spec.kinds.values():
                for attr, t in kind.attributes.items():
                    items.append(lsp.CompletionItem(attr, kind=Kind.Field, detail=f"{kind.name}.{attr}: {t}"))
            for record in spec.records.values():
                for f in record.fields:
                    items.append(lsp.CompletionItem(f.name, kind=Kind.Field,
                                                    detail=f"{record.name}.{f.name}: {type_text(f.type)}"))
        items += [lsp.CompletionItem(a, kind=Kind.Field, detail=f"cell.{a}: int") for a in ("x", "y")]
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


def build_server() -> RulesServer:
    server = RulesServer()

    def publish(uri: str, text: str) -> None:
        server.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=uri, diagnostics=server.analyse(uri, text)))

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: RulesServer, params: lsp.DidOpenTextDocumentParams):
        publish(params.text_document.uri, params.text_document.text)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: RulesServer, params: lsp.DidChangeTextDocumentParams):
        doc = ls.workspace.get_text_document(params.text_document.uri)
        publish(doc.uri, doc.source)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RulesServer, params: lsp.DidCloseTextDocumentParams):
        ls.analyses.pop(params.text_document.uri, None)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=params.text_document.uri,
                                                                          diagnostics=[]))

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: RulesServer, params: lsp.DidSaveTextDocumentParams):
        doc = ls.workspace.get_text_document(params.text_document.uri)
        publish(doc.uri, doc.source)

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["."]))
    def completion(ls: RulesServer, params: lsp.CompletionParams):
        doc = ls.workspace.get_text_document(params.text_document.uri)
        analysis = ls.analyses.get(doc.uri) or Analysis()
        lines = doc.source.splitlines()
        row = lines[params.position.line] if params.position.line < len(lines) else ""
        before = row[:params.position.character]
        before = before[:len(before) - len(re.search(r"\w*$", before).group())]
        return lsp.CompletionList(is_incomplete=False, items=completions(analysis.spec, analysis.module, before))

    def word_and_spec(ls: RulesServer, params):
        """The word under the cursor and the document's last good spec."""
        doc = ls.workspace.get_text_document(params.text_document.uri)
        word, _ = _word_at(doc.source, params.position.line, params.position.character)
        return word, (ls.analyses.get(doc.uri) or Analysis()).spec

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: RulesServer, params: lsp.HoverParams):
        word, spec = word_and_spec(ls, params)
        text = hover_text(spec, word) if word else None
        if text is None:
            return None
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text))

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def goto_definition(ls: RulesServer, params: lsp.DefinitionParams):
        word, spec = word_and_spec(ls, params)
        span = definition(spec, word) if word else None
        if span is None:
            return None
        start = lsp.Position(span.line - 1, span.column - 1)
        return lsp.Location(uri=Path(span.file).resolve().as_uri(), range=lsp.Range(start, start))

    @server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: RulesServer, params: lsp.DocumentFormattingParams):
        from ..dsl.formatter import format_checked
        doc = ls.workspace.get_text_document(params.text_document.uri)
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
