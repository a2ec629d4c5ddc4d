"""The editor files: a valid TextMate grammar that knows every keyword, and a VS Code
extension whose manifest points at files that exist."""
from __future__ import annotations

import json
import re
from pathlib import Path

from boardwright.dsl.builtins import BUILTINS
from boardwright.dsl.grammar import declaration_keywords, statement_keywords

EDITORS = Path(__file__).resolve().parent.parent / "editors"
GRAMMAR = EDITORS / "vscode" / "syntaxes" / "boardwright.tmLanguage.json"


def _scopes_of(word: str, grammar: dict) -> list[str]:
    found = []
    for rule in grammar["repository"].values():
        for pattern in rule.get("patterns", [rule]):
            if "match" in pattern and "name" in pattern and re.search(pattern["match"], word + "(") \
                    and re.search(pattern["match"], word + "(").group() == word:
                found.append(pattern["name"])
    return found


def test_grammar_highlights_every_keyword_and_builtin():
    grammar = json.loads(GRAMMAR.read_text(encoding="utf-8"))
    assert grammar["scopeName"] == "source.boardwright"
    for word in declaration_keywords() + statement_keywords():
        assert any(s.startswith("keyword") for s in _scopes_of(word, grammar)), word
    for name in BUILTINS:
        assert "support.function.builtin.boardwright" in _scopes_of(name, grammar), name
    assert _scopes_of("wins", grammar) == []            # a plain name is not coloured


def test_vscode_manifest_points_at_real_files():
    folder = EDITORS / "vscode"
    manifest = json.loads((folder / "package.json").read_text(encoding="utf-8"))
    assert (folder / manifest["main"]).is_file()
    language = manifest["contributes"]["languages"][0]
    assert language["extensions"] == [".game"]
    assert (folder / language["configuration"]).is_file()
    json.loads((folder / language["configuration"]).read_text(encoding="utf-8"))
    assert (folder / manifest["contributes"]["grammars"][0]["path"]).resolve() == GRAMMAR.resolve()
    assert manifest["contributes"]["configuration"]["properties"]["boardwright.command"]["default"] == \
        ["boardwright", "lsp"]
    assert "vscode-languageclient/node" in (folder / "extension.js").read_text(encoding="utf-8")
