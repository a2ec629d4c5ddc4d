"""The language server's replies, exactly (cli/lsp.py), in this process: a diagnostic whole
(range, message with its hint, code, severity, source), hover texts, the word under the
cursor, completions after a dot, a declaration's place, and the formatting edit, each
compared with `==`. Expected values come from the rule file below (where a name stands,
what it declares) and docs/diagnostics.md (E503, `bad-assignment`); the slow subprocess
tests (test_lsp.py) check the protocol, these the words and numbers of every reply."""
from __future__ import annotations

from types import SimpleNamespace

import pytest
from lsprotocol import types as lsp

from boardwright.cli.lsp import Analysis, _word_at, build_server, completions, definition, hover_text

from test_exact_play_screen import RACE


@pytest.fixture
def race(tmp_path):
    path = tmp_path / "race.game"
    path.write_text(RACE)
    return path


def test_a_diagnostic_whole(race):
    server = build_server()
    # line 11 (0-based 10) is "          total[p] += n": the misspelt var is assigned from column 10
    text = RACE.replace("total[p] += n", "totl[p] += n")
    assert server.analyse(race.as_uri(), text) == [lsp.Diagnostic(
        range=lsp.Range(lsp.Position(10, 10), lsp.Position(10, 22)),
        message="cannot assign to 'totl'\nhint: declare a 'var' or a local with 'let'",
        severity=lsp.DiagnosticSeverity.Error, code="E503", source="boardwright")]
    # the file has an error, yet what checked is kept: hover knows `total`, and its uses' types
    analysis = server.analyses[race.as_uri()]
    assert hover_text(analysis.spec, "total") == f'```\nvar total: int per player = 0 "Total"\n```\n\n_{race}:3:1_'
    assert (6, 9, "total", "list of int") in analysis.name_types
    assert server.analyse(race.as_uri(), RACE) == []


def test_hover_texts(race):
    server = build_server()
    server.analyse(race.as_uri(), RACE)
    spec = server.analyses[race.as_uri()].spec
    assert hover_text(spec, "total") == f'```\nvar total: int per player = 0 "Total"\n```\n\n_{race}:3:1_'
    assert hover_text(spec, "player_count") == "`player_count`: how many play (int)"
    assert hover_text(spec, "current") == "`current`: the player whose turn it is"
    assert hover_text(spec, "components") == ("```\ncomponents(KIND)\n```\nEvery component of a kind, in the data "
                                              "file's order.")
    assert hover_text(spec, "len") == "```\nlen(list)\n```\nNumber of items in a list."
    assert hover_text(spec, "nothing_here") is None
    assert definition(spec, "total").line == 3 and definition(spec, "total").column == 1
    assert definition(spec, "nothing_here") is None and definition(None, "total") is None


def test_hover_on_a_field_of_two_records_and_an_enum(tmp_path):
    path = tmp_path / "records.game"
    path.write_text(RACE.replace('players 2\n', 'players 2\nenum Colour { red, blue }\nrecord Bid { amount: int, '
                                 'colour: Colour }\nrecord Offer { amount: int }\n'))
    server = build_server()
    assert server.analyse(path.as_uri(), path.read_text()) == []
    spec = server.analyses[path.as_uri()].spec
    # a field name two records share: each record's, a blank line between them
    assert hover_text(spec, "amount") == ("field `amount` of record `Bid`: int\n\n"
                                          "field `amount` of record `Offer`: int")
    assert hover_text(spec, "colour") == "field `colour` of record `Bid`: Colour"
    assert hover_text(spec, "red") == hover_text(spec, "Colour") == "enum `Colour`: red, blue"


def test_the_word_under_the_cursor_takes_underscores_and_digits():
    row = "  x = player_count2 + 1"
    for column in (6, 12, 19):                  # its first letter, its underscore, just after it
        assert _word_at(row, 0, column) == ("player_count2", "  x = ")
    assert _word_at(row, 0, 5) == ("", "  x =")                # on the space after "="
    assert _word_at(row, 1, 0) == ("", "")


def test_completions_after_a_dot_of_an_unknown_name():
    items = completions(None, None, "  x = c.", Analysis(), 0)
    assert [(i.label, i.kind, i.detail) for i in items] == [
        ("x", lsp.CompletionItemKind.Field, "cell.x: int"), ("y", lsp.CompletionItemKind.Field, "cell.y: int")] + [
        (name, lsp.CompletionItemKind.Field, f"placement.{name}: {t}")
        for name, t in __import__("boardwright.dsl.types", fromlist=["PLACEMENT_FIELDS"]).PLACEMENT_FIELDS.items()]


def test_completions_name_the_games_declarations_and_the_globals(race):
    server = build_server()
    server.analyse(race.as_uri(), RACE)
    analysis = server.analyses[race.as_uri()]
    items = {i.label: i for i in completions(analysis.spec, analysis.module, "  x = ", analysis, 5)}
    assert (items["total"].kind, items["total"].detail) == (lsp.CompletionItemKind.Variable, "var")
    assert (items["player_count"].kind, items["player_count"].detail) == (lsp.CompletionItemKind.Variable,
                                                                          "how many play (int)")
    assert (items["components"].detail, items["components"].documentation) == (
        "components(KIND)", "every component of a kind, in data order")
    assert (items["len"].kind, items["len"].detail) == (lsp.CompletionItemKind.Function, "len(list)")
    assert items["while"].kind == lsp.CompletionItemKind.Keyword


def _call(server, name, document, params):
    """A request handler of the server, on an open document."""
    ls = SimpleNamespace(workspace=SimpleNamespace(text_documents={document.uri: document}),
                         analyses=server.analyses, window_log_message=lambda *a: None)
    return server.protocol.fm.features[name].func(ls, params)      # the handler, without the real server


def test_the_formatting_edit(race):
    server = build_server()
    messy = RACE.replace('var total: int per player = 0 "Total"', 'var  total :int per player=0 "Total"')
    params = lsp.DocumentFormattingParams(text_document=lsp.TextDocumentIdentifier(race.as_uri()),
                                          options=lsp.FormattingOptions(tab_size=2, insert_spaces=True))
    edits = _call(server, lsp.TEXT_DOCUMENT_FORMATTING, SimpleNamespace(uri=race.as_uri(), source=messy), params)
    lines = len(messy.splitlines())
    assert edits == [lsp.TextEdit(range=lsp.Range(lsp.Position(0, 0), lsp.Position(lines + 1, 0)), new_text=RACE)]
    assert _call(server, lsp.TEXT_DOCUMENT_FORMATTING, SimpleNamespace(uri=race.as_uri(), source=RACE), params) == []
    broken = SimpleNamespace(uri=race.as_uri(), source=RACE.replace("play {", "play {{"))
    assert _call(server, lsp.TEXT_DOCUMENT_FORMATTING, broken, params) is None


def test_hover_and_definition_requests(race):
    server = build_server()
    server.analyse(race.as_uri(), RACE)
    document = SimpleNamespace(uri=race.as_uri(), source=RACE)
    at = lsp.TextDocumentIdentifier(race.as_uri())
    # "total" on line 11 (0-based 10), column 10
    hover = _call(server, lsp.TEXT_DOCUMENT_HOVER, document, lsp.HoverParams(at, lsp.Position(10, 12)))
    assert hover == lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown,
                                                         value=hover_text(server.analyses[race.as_uri()].spec, "total")))
    where = _call(server, lsp.TEXT_DOCUMENT_DEFINITION, document, lsp.DefinitionParams(at, lsp.Position(10, 12)))
    assert where == lsp.Location(uri=race.resolve().as_uri(),
                                 range=lsp.Range(lsp.Position(2, 0), lsp.Position(2, 0)))      # line 3, column 1
    assert _call(server, lsp.TEXT_DOCUMENT_HOVER, document, lsp.HoverParams(at, lsp.Position(10, 0))) is None


def test_a_problem_in_a_data_file_is_shown_at_the_top_with_its_place(tmp_path):
    """A diagnostic of another file (the data file) cannot be placed in the rule file: it is
    shown at 0:0, its message led by the data file's place (as `validate` prints it)."""
    from boardwright.dsl.errors import BoardwrightError
    from boardwright.dsl.loader import check_game
    from test_exact_play_screen import CLEANUP, CLEANUP_DATA
    (tmp_path / "cards.yaml").write_text(CLEANUP_DATA.replace("{name: Two}", "{name: 2}"))
    path = tmp_path / "clean.game"
    path.write_text(CLEANUP)
    with pytest.raises(BoardwrightError) as caught:
        check_game(path, warnings=True)
    [found] = caught.value.diagnostics
    assert str(found.span).startswith(f"{tmp_path / 'cards.yaml'}:") and found.span.line > 0
    message = f"{found.span}: {found.message}" + (f"\nhint: {found.hint}" if found.hint else "")
    assert build_server().analyse(path.as_uri(), CLEANUP) == [lsp.Diagnostic(
        range=lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)), message=message,
        severity=lsp.DiagnosticSeverity.Error, code=found.code, source="boardwright")]


def test_names_of_a_file_that_does_not_check_are_completed_from_its_declarations(tmp_path):
    """The data file is broken, so no spec checks: the file's own declarations are still
    offered, each as what it declares."""
    from test_exact_play_screen import CLEANUP, CLEANUP_DATA
    (tmp_path / "cards.yaml").write_text(CLEANUP_DATA.replace("{name: Two}", "{name: 2}"))
    text = CLEANUP.replace("zone box: pile of Card\n", "zone box: pile of Card\nvar note: int = 0\n")
    path = tmp_path / "clean.game"
    path.write_text(text)
    server = build_server()
    server.analyse(path.as_uri(), text)
    analysis = server.analyses[path.as_uri()]
    assert analysis.spec is None
    found = [(i.label, i.kind, i.detail) for i in completions(None, analysis.module, "  x = ", analysis, 3)
             if i.kind == lsp.CompletionItemKind.Variable and i.detail in ("zone", "var")]
    assert found == [("board", lsp.CompletionItemKind.Variable, "zone"), ("box", lsp.CompletionItemKind.Variable, "zone"),
                     ("note", lsp.CompletionItemKind.Variable, "var")]


def test_a_burst_of_edits_publishes_the_diagnostics_of_the_last_once(race, monkeypatch):
    """did_change waits DEBOUNCE_SECONDS (0.2 s) after the last edit, then publishes the
    diagnostics of the document's text then, for its uri (in this process: a workspace of one
    open document, the publications recorded)."""
    import asyncio
    from boardwright.cli import lsp as lsp_module
    server = build_server()
    document = SimpleNamespace(uri=race.as_uri(), source=RACE)
    server.protocol._workspace = SimpleNamespace(text_documents={document.uri: document})
    published = []
    monkeypatch.setattr(server, "text_document_publish_diagnostics", published.append)
    monkeypatch.setattr(lsp_module, "DEBOUNCE_SECONDS", 0.05)
    change = server.protocol.fm.features[lsp.TEXT_DOCUMENT_DID_CHANGE].func
    params = lsp.DidChangeTextDocumentParams(text_document=lsp.VersionedTextDocumentIdentifier(version=1,
                                                                                               uri=document.uri),
                                             content_changes=[])

    async def edits():
        for text in (RACE.replace("total[p] += n", "tot[p] += n"), RACE, RACE.replace("total[p] += n", "totl[p] += n")):
            document.source = text
            change(server, params)
        await asyncio.sleep(0.3)
    asyncio.run(edits())
    assert published == [lsp.PublishDiagnosticsParams(uri=document.uri, diagnostics=[lsp.Diagnostic(
        range=lsp.Range(lsp.Position(10, 10), lsp.Position(10, 22)),
        message="cannot assign to 'totl'\nhint: declare a 'var' or a local with 'let'",
        severity=lsp.DiagnosticSeverity.Error, code="E503", source="boardwright")])]
    assert server.pending == {}
