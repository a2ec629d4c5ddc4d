"""Diagnostic codes, warnings and `validate --strict` (the golden cases show every code)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from boardwright.cli.main import main
from boardwright.dsl.codes import CODES, code_of
from boardwright.dsl.lint import constant
from boardwright.dsl.parser import parse_text
from conftest import all_game_variants

DOCS = Path(__file__).resolve().parent.parent / "docs" / "diagnostics.md"


def test_codes_are_unique_and_documented():
    codes = [c.code for c in CODES]
    assert len(codes) == len(set(codes))
    text = DOCS.read_text(encoding="utf-8")
    for c in CODES:
        assert re.search(rf"^\| `{c.code}` \| `{c.name}` \|", text, re.M), c.code


def test_a_message_gets_the_code_of_its_kind():
    assert code_of("unknown name 'x'") == "E301"
    assert code_of("unexpected 'param'; expected an expression") == "E101"
    assert code_of("unexpected name 'p'; expected '('") == "E105"
    assert code_of("cannot assign to param 'x'") == "E503"
    assert code_of("cannot assign str to 'x' of type int") == "E401"
    assert code_of("something nobody wrote") == ""


@pytest.mark.slow
@pytest.mark.parametrize("game,variant", all_game_variants())
def test_every_bundled_rule_file_validates_with_no_warnings(game, variant, capsys):
    args = ["validate", game, "--strict"] + (["--variant", variant] if variant else [])
    assert main(args) == 0, capsys.readouterr().err


def _constant(text):
    return constant(parse_text(f"param x = {text}\n").items[0].value)


def test_constant_folding_decides_only_what_it_can():
    assert _constant("0 * player_count") == 0
    assert _constant("if 1 > 2 then 3 else 0") == 0
    assert _constant("2 - 2") == 0
    assert _constant("player_count - 2") is None
    assert _constant("if player_count > 2 then 1 else 0") is None
    assert _constant("not (true and false)") is True


GAME = """game "W"
players 2
var pts: int per player = 0
play {
  for p in players {
    pts[p] += 1
    continue
    pts[p] += 2
  }
  while false { pts[0] += 1 }
}
score p { "Points": pts[p], "Never": if false then pts[p] else 0 }
"""


def test_warnings_in_text_and_json_and_strict(tmp_path, capsys):
    path = tmp_path / "w.game"
    path.write_text(GAME, encoding="utf-8")
    assert main(["validate", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("ok: ") and "(3 warnings)" in out
    assert f"{path}:8:5: warning: this statement can never run: it follows 'continue' [W906]" in err
    assert f"{path}:10:17: warning: this statement can never run: its condition is always false [W906]" in err
    assert f"{path}:12:29: warning: this score line is always 0: \"Never\" [W908]" in err
    assert main(["validate", "--strict", str(path)]) == 1
    capsys.readouterr()
    assert main(["validate", "--format", "json", str(path)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report[0]["ok"] is True
    assert [(d["severity"], d["code"], d["line"]) for d in report[0]["diagnostics"]] == \
        [("warning", "W906", 8), ("warning", "W906", 10), ("warning", "W908", 12)]


def test_json_errors_carry_code_and_severity(tmp_path, capsys):
    path = tmp_path / "e.game"
    path.write_text(GAME.replace("pts[p] += 2", "pts[p] += nope"), encoding="utf-8")
    assert main(["validate", "--format", "json", str(path)]) == 1
    diagnostics = json.loads(capsys.readouterr().out)[0]["diagnostics"]
    assert [(d["severity"], d["code"], d["message"]) for d in diagnostics] == \
        [("error", "E301", "unknown name 'nope'")]
