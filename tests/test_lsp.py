"""The language server, spoken to over stdio as an editor does: a `boardwright lsp` subprocess."""
from __future__ import annotations

import json
import queue
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from boardwright.dsl.loader import GAMES_DIR

TIMEOUT = 30


class Client:
    def __init__(self):
        self.proc = subprocess.Popen([sys.executable, "-m", "boardwright", "lsp"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.messages: queue.Queue = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        while True:
            header = b""
            while not header.endswith(b"\r\n\r\n"):
                byte = out.read(1)
                if not byte:
                    return
                header += byte
            length = next(int(line.split(b":")[1]) for line in header.split(b"\r\n")
                          if line.lower().startswith(b"content-length"))
            self.messages.put(json.loads(out.read(length)))

    def send(self, method: str, params, request: bool = True):
        message = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.next_id += 1
            message["id"] = self.next_id
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        return message.get("id")

    def wait(self, predicate):
        while True:
            message = self.messages.get(timeout=TIMEOUT)
            if predicate(message):
                return message

    def request(self, method: str, params):
        ident = self.send(method, params)
        return self.wait(lambda m: m.get("id") == ident)["result"]

    def notification(self, method: str):
        return self.wait(lambda m: m.get("method") == method)["params"]

    def close(self):
        try:
            self.request("shutdown", None)
            self.send("exit", None, request=False)
            self.proc.wait(timeout=TIMEOUT)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


@pytest.fixture(scope="module")
def client():
    c = Client()
    result = c.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    capabilities = result["capabilities"]
    for provider in ("completionProvider", "hoverProvider", "definitionProvider", "documentFormattingProvider"):
        assert capabilities.get(provider), provider
    c.send("initialized", {}, request=False)
    yield c
    c.close()


def _open(client, path: Path, text: str):
    uri = path.resolve().as_uri()
    client.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "boardwright", "version": 1,
                                                          "text": text}}, request=False)
    return uri, client.notification("textDocument/publishDiagnostics")


def _at(text: str, needle: str, nth: int = 0) -> dict:
    """The LSP position of the first character of the nth `needle` in text."""
    index = -1
    for _ in range(nth + 1):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index)
    return {"line": line, "character": index - (text.rfind("\n", 0, index) + 1)}


@pytest.mark.slow
def test_diagnostics_of_the_unsaved_text_of_a_variant(client):
    path = GAMES_DIR / "punto" / "team.game"
    text = path.read_text(encoding="utf-8").replace("param win_length = 5", "param win_length = 5\nparam spare = 1")
    text = text.replace("[p % 2, p % 2 + 2]", "[p % 2, p % 2 + twoo]")
    uri, published = _open(client, path, text)
    assert published["uri"] == uri
    found = {(d["code"], d["range"]["start"]["line"], d["severity"]) for d in published["diagnostics"]}
    assert ("E301", _at(text, "twoo")["line"], 1) in found            # the unknown name, as an error
    assert all("twoo" in d["message"] for d in published["diagnostics"] if d["code"] == "E301")
    # Once the error is fixed, the warning about the unused param shows.
    client.send("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                           "contentChanges": [{"text": text.replace("twoo", "2")}]}, request=False)
    published = client.notification("textDocument/publishDiagnostics")
    assert [(d["code"], d["severity"], d["range"]["start"]) for d in published["diagnostics"]] == \
        [("W901", 2, _at(text, "spare"))]


@pytest.mark.slow
def test_completion_hover_definition_and_formatting(client, tmp_path):
    base = (GAMES_DIR / "punto" / "punto.game").read_text(encoding="utf-8")
    (tmp_path / "cards.yaml").write_text((GAMES_DIR / "punto" / "cards.yaml").read_text(encoding="utf-8"))
    path = tmp_path / "punto.game"
    path.write_text(base, encoding="utf-8")
    text = base.replace("param max_rounds = 20", "param   max_rounds=20")
    uri, published = _open(client, path, text)
    assert published["diagnostics"] == []
    doc = {"uri": uri}

    labels = {i["label"]: i for i in client.request("textDocument/completion",
                                                    {"textDocument": doc, "position": _at(text, "wins[q] += 1")})["items"]}
    for expected in ("zone", "move", "shuffle", "len", "frontier", "components", "players", "wins", "deck",
                     "win_length", "colours", "play_round", "Card", "red", "Colour"):
        assert expected in labels, expected
    assert "value" not in labels                       # attributes only after a dot
    after_dot = _at(text, "colour in colours(p)")
    attrs = {i["label"] for i in client.request("textDocument/completion",
                                                {"textDocument": doc, "position": after_dot})["items"]}
    # `c` is a Card there: its attributes, not a cell's x and y, and no keywords.
    assert {"colour", "value"} <= attrs and not attrs & {"x", "y", "move"}

    hover = client.request("textDocument/hover", {"textDocument": doc, "position": _at(text, "frontier(")})
    assert "frontier(" in hover["contents"]["value"]
    hover = client.request("textDocument/hover", {"textDocument": doc, "position": _at(text, "line_count(p)")})
    assert "fn line_count(p: player) -> int" in hover["contents"]["value"]

    use = _at(text, "placements(top(deck[p]))")
    target = client.request("textDocument/definition", {"textDocument": doc, "position": use})
    assert target["uri"] == uri
    assert target["range"]["start"] == _at(text, "fn placements")

    edits = client.request("textDocument/formatting", {"textDocument": doc,
                                                       "options": {"tabSize": 2, "insertSpaces": True}})
    assert len(edits) == 1 and edits[0]["newText"] == base


@pytest.mark.slow
def test_a_variant_completes_and_finds_its_base_names(client, tmp_path):
    shutil.copytree(GAMES_DIR / "punto", tmp_path / "punto")    # a variant extends a base in its folder
    base = (tmp_path / "punto" / "punto.game").resolve()
    path = tmp_path / "punto" / "four.game"
    text = 'variant "Quick duel" extends "punto.game"\nplayers 2\n\nparam w'
    path.write_text(text, encoding="utf-8")
    uri, published = _open(client, path, text)
    assert published["diagnostics"][0]["code"] == "E102"          # the line is not finished yet
    # The last good analysis is gone with the syntax error: fix the file, then complete.
    good = text + "in_length = 4\nfn g() -> int = rounds_to_win\n"
    client.send("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                           "contentChanges": [{"text": good}]}, request=False)
    assert client.notification("textDocument/publishDiagnostics")["diagnostics"][0]["code"] == "W904"
    items = {i["label"]: i for i in client.request("textDocument/completion", {
        "textDocument": {"uri": uri}, "position": {"line": 4, "character": 16}})["items"]}
    doc = items["rounds_to_win"]["documentation"]
    assert "round wins that take the match" in (doc if isinstance(doc, str) else doc["value"])
    target = client.request("textDocument/definition", {"textDocument": {"uri": uri},
                                                        "position": {"line": 4, "character": 18}})
    assert target["uri"] == base.as_uri()
    assert target["range"]["start"]["line"] == next(i for i, line in enumerate(base.read_text().splitlines())
                                                     if line.startswith("param rounds_to_win"))


def _request_raw(client, method: str, params):
    """A request's whole reply (result or error)."""
    ident = client.send(method, params)
    return client.wait(lambda m: m.get("id") == ident)


@pytest.mark.slow
def test_a_file_with_errors_keeps_hover_definition_and_typed_completion(client, tmp_path):
    base = (GAMES_DIR / "punto" / "punto.game").read_text(encoding="utf-8")
    (tmp_path / "cards.yaml").write_text((GAMES_DIR / "punto" / "cards.yaml").read_text(encoding="utf-8"))
    path = tmp_path / "broken.game"
    # Opened for the first time with a syntax error in one declaration and a check error in another.
    text = base.replace("fn where(c: cell) -> str =", "fn where(c: cell) -> str = (((\nfn where_old(c: cell) -> str =")
    text = text.replace("param max_rounds = 20", "param max_rounds = twenty")
    text += "\nfn column(at: cell) -> int = at.x\n"
    path.write_text(text, encoding="utf-8")
    uri, published = _open(client, path, text)
    assert published["diagnostics"][0]["code"] == "E101" and published["diagnostics"][0]["range"]["start"]["line"] \
        == _at(text, "fn where_old")["line"]
    doc = {"uri": uri}
    hover = client.request("textDocument/hover", {"textDocument": doc, "position": _at(text, "line_count(p)")})
    assert hover is not None and "fn line_count(p: player) -> int" in hover["contents"]["value"]
    target = client.request("textDocument/definition",
                            {"textDocument": doc, "position": _at(text, "placements(top(deck[p]))")})
    assert target is not None and target["range"]["start"] == _at(text, "fn placements")
    # After a dot, the members of the value's type: a cell's x and y, no component attributes.
    after_dot = _at(text, "at.x")
    after_dot["character"] += len("at.")
    cell_dot = {i["label"] for i in client.request("textDocument/completion",
                                                   {"textDocument": doc, "position": after_dot})["items"]}
    assert cell_dot == {"x", "y"}
    client.send("textDocument/didClose", {"textDocument": doc}, request=False)
    client.notification("textDocument/publishDiagnostics")


@pytest.mark.slow
def test_requests_for_unopened_documents_and_malformed_messages_are_answered_calmly(client, tmp_path):
    missing = (tmp_path / "never-opened.game").as_uri()
    for method in ("textDocument/hover", "textDocument/definition", "textDocument/completion"):
        reply = _request_raw(client, method, {"textDocument": {"uri": missing}, "position": {"line": 0, "character": 0}})
        assert reply.get("result") is None and "error" not in reply, (method, reply)
    reply = _request_raw(client, "textDocument/formatting", {"textDocument": {"uri": missing},
                                                             "options": {"tabSize": 2, "insertSpaces": True}})
    assert reply.get("result") is None and "error" not in reply
    # A body that is not JSON: the server says so and goes on answering.
    body = b"{not json"
    client.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    client.proc.stdin.flush()
    reply = _request_raw(client, "textDocument/hover", {"textDocument": {"uri": missing},
                                                        "position": {"line": 0, "character": 0}})
    assert reply.get("result") is None and client.proc.poll() is None


@pytest.mark.slow
def test_a_burst_of_edits_is_checked_once_it_stops(tmp_path):
    path = tmp_path / "burst.game"
    text = 'game "Burst"\nplayers 2\nplay { log "{n}" }\n'
    path.write_text(text.replace("{n}", "0"), encoding="utf-8")
    client = Client()
    try:
        client.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        client.send("initialized", {}, request=False)
        uri, _ = _open(client, path, text.replace("{n}", "0"))
        for version in range(2, 302):        # 300 edits, the last one with an unknown name
            name = "nn" if version == 301 else str(version)
            client.send("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                   "contentChanges": [{"text": text.replace("{n}", "{" + name + "}")}]},
                        request=False)
        published = client.notification("textDocument/publishDiagnostics")
        assert [d.get("code") for d in published["diagnostics"]] == ["E301"], published     # the last text's problem
        client.request("shutdown", None)   # replies come in order: any other check would show first
        assert client.messages.empty()
    finally:
        client.send("exit", None, request=False)
        client.proc.wait(timeout=TIMEOUT)
