"""explain, info and new; and the unparser they share (checked against the parser)."""
from __future__ import annotations

import json
import pytest

from boardwright.dsl.unparse import expr_text
from boardwright.cli.main import main
from boardwright.dsl import ast
from boardwright.dsl.ast_walk import walk
from boardwright.dsl.formatter import strip_spans
from boardwright.dsl.loader import GAMES_DIR
from boardwright.dsl.parsed import parse_file
from boardwright.dsl.build_ast import _Builder
from boardwright.dsl.grammar import _lark

BUNDLED = sorted(GAMES_DIR.rglob("*.game"))


def _expressions(node):
    return (n for n in walk(node) if isinstance(n, ast.Expr))


@pytest.mark.slow
@pytest.mark.parametrize("path", BUNDLED, ids=[f"{p.parent.name}/{p.name}" for p in BUNDLED])
def test_unparsed_expressions_parse_back_to_the_same_tree(path):
    count = 0
    for e in _expressions(parse_file(path)):
        text = expr_text(e)
        again = _Builder("<unparse>").transform(_lark().parse(text, start="expr"))
        assert strip_spans(again) == strip_spans(e), text
        count += 1
    assert count > 5


def run(capsys, *argv):
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_explain_lays_out_the_rules(capsys):
    code, out, _ = run(capsys, "explain", "punto")
    assert code == 0
    assert out.startswith("Punto: 2 to 4 players\n")
    # The rulebook: 72 cards in four colours; a table at most 6 x 6; decks face down.
    assert "  Card (72): colour: Colour, value: int\n" in out
    assert "  table: a grid (stacked, extent table_side x table_side)" in out
    assert "  table_side = 6" in out
    assert "  deck: a stack (hidden), one per player" in out
    for section in ("Components", "Params", "Zones", "State", "Setup", "Play", "Procedure play_round()",
                    "The end", "Scoring", "Invariants"):
        assert f"\n{section}" in out, section
    assert "      the current player chooses spot from spots (asked: \"Place {card}\")" in out
    assert "  the winners are [p for p in players if wins[p] >= rounds_to_win]" in out


def test_explain_a_variant_lists_only_its_changes(capsys):
    code, out, _ = run(capsys, "explain", "punto", "--variant", "team")
    assert code == 0
    assert out.startswith("Team game: a variant of Punto (4 players)\n")
    assert "  players: 2 to 4 players -> 4 players\n" in out
    assert "    was: win_length = case player_count { 2: 5 else: 4 }\n    now: win_length = 5\n" in out
    assert "replaces setup:" in out
    assert "changes param rounds_to_win" not in out and "Zones" not in out


def test_info_json_gives_the_facts(capsys):
    code, out, _ = run(capsys, "info", "punto", "--json")
    assert code == 0
    facts = json.loads(out)
    assert facts["players"] == {"min": 2, "max": 4}
    values = {p["name"]: p["value"] for p in facts["params"]}
    assert (values["win_length"], values["rounds_to_win"]) == (None, 2)    # None: it depends on the count
    assert next(p for p in facts["params"] if p["name"] == "win_length")["default"] == \
        "case player_count { 2: 5 else: 4 }"
    assert facts["variants"] == ["team"]
    assert [z["name"] for z in facts["zones"]] == ["deck", "table", "removed", "out"]
    assert facts["zones"][0]["per_player"] is True and facts["zones"][1]["options"]["extent"] == ["table_side", "table_side"]
    card = facts["components"][0]
    assert (card["kind"], card["count"], card["attributes"]) == ("Card", 72, {"colour": "Colour", "value": "int"})
    assert sum(1 for c in card["items"] if c == {"colour": "red", "value": 9}) == 2
    assert "72 cards" in facts["data"][0]["provenance"]
    assert facts["score_direction"] == "highest"


def test_new_game_validates_simulates_passes_its_test_and_is_formatted(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "new", "castle-dice")[0] == 0
    folder = tmp_path / "castle-dice"
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()) == \
        ["cards.yaml", "castle-dice.game", "scenarios/first-turn.scenario.yaml"]
    assert 'game "Castle Dice"' in (folder / "castle-dice.game").read_text(encoding="utf-8")
    assert run(capsys, "validate", "--strict", "castle-dice")[0] == 0
    code, out, _ = run(capsys, "test", "castle-dice/scenarios")
    assert code == 0 and "1 passed, 0 failed" in out
    assert run(capsys, "simulate", "castle-dice", "--players", "4", "--games", "5")[0] == 0
    assert run(capsys, "fmt", "--check", "castle-dice")[0] == 0
    code, _, err = run(capsys, "new", "castle-dice")
    assert code == 2 and "already exists" in err
    assert run(capsys, "new", "bad name!")[0] == 2
