"""The machine trace (docs/logs.md): `play --trace FILE` and `replay LOG --json` write every
decision with all its options and the choice, then the scores. The option lists are checked
against an independent enumeration (the kingdom test bed's plain-Python reference.py), every
line against dsl/schemas/trace.schema.json, and the schemas shown in docs/logs.md against the
files the code uses. Also: logs keep the game path as it was named."""
from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import jsonschema
import pytest

from boardwright.cli import saves, trace
from boardwright.cli.main import main
from boardwright.dsl.schema_words import SCHEMA_DIR

from test_testbeds import KINGDOM, reference

REPO = Path(__file__).resolve().parents[1]
LOGS_DOC = REPO / "docs" / "logs.md"
TRACE_VALIDATOR = jsonschema.Draft202012Validator(json.loads((SCHEMA_DIR / "trace.schema.json").read_text()))


def run(capsys, monkeypatch, *argv, stdin=""):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def read_trace(text: str) -> list[dict]:
    records = [json.loads(line) for line in text.splitlines()]
    for record in records:
        TRACE_VALIDATOR.validate(record)
    return records


# ------------------------------------------------------------------ against the reference

def kingdom_option(label: str):
    """A kingdom option from its label, as reference.py writes it: a draft as the domino's
    number ('domino 48: wheat / mine*3'), a placement as its two cells
    ('wheat at (1, 0), forest at (2, 0)')."""
    draft = re.fullmatch(r"domino (\d+): .*", label)
    if draft:
        return int(draft.group(1))
    cells = [(int(x), int(y)) for x, y in re.findall(r"\((-?\d+), (-?\d+)\)", label)]
    assert len(cells) == 2, label
    return tuple(cells)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_traced_game_offers_what_the_reference_offers_at_every_decision(capsys, monkeypatch, tmp_path, seed):
    path = tmp_path / "g.jsonl"
    code, _, _ = run(capsys, monkeypatch, "play", str(KINGDOM / "kingdom_cells.game"), "--players", "2",
                     "--seats", "random,greedy", "--seed", str(seed), "--trace", str(path), "--log",
                     str(tmp_path / "g.log"))
    assert code == 0
    records = read_trace(path.read_text())
    start, decisions, end = records[0], records[1:-1], records[-1]
    assert start["type"] == "start" and start["seed"] == seed and start["seats"] == ["random", "greedy"]
    assert [r["type"] for r in decisions] == ["decision"] * len(decisions)
    assert [r["step"] for r in decisions] == list(range(len(decisions)))
    logged = json.loads((tmp_path / "g.log").read_text())["moves"]
    assert [r["id"] for r in decisions] == [m["id"] for m in logged], "every decision of the log, in order"
    mine = reference(KINGDOM).Game(seed)
    for record in decisions:
        assert record["player"] == mine.player
        assert [kingdom_option(o["label"]) for o in record["options"]] == list(mine.options), record["step"]
        assert record["options"][record["choice"]]["id"] == record["id"]
        assert record["seat"] == start["seats"][record["player"]]
        mine.apply(record["choice"])
    assert mine.finished and end == {**end, "type": "end", "finished": True, "steps": len(decisions)}
    assert end["scores"] == mine.scores() and sorted(end["winners"]) == mine.winners()
    # replay --json of the log writes the same trace, byte for byte
    code, out, _ = run(capsys, monkeypatch, "replay", str(tmp_path / "g.log"), "--json")
    assert code == 0 and out == path.read_text()


def test_undo_and_a_left_game_are_in_the_trace(capsys, monkeypatch, tmp_path):
    path = tmp_path / "t.jsonl"
    code, _, _ = run(capsys, monkeypatch, "play", "punto", "--players", "2", "--seats", "human,random",
                     "--seed", "3", "--trace", str(path), stdin="1\nundo\n1\nquit\n")
    assert code == 0
    kinds = [(r["type"], r.get("step")) for r in read_trace(path.read_text())]
    assert kinds == [("start", None), ("decision", 0), ("decision", 1), ("undo", 0), ("decision", 0),
                     ("decision", 1), ("end", None)]
    assert read_trace(path.read_text())[-1] == {"type": "end", "finished": False, "steps": 2}


def test_a_loaded_game_traces_the_decisions_before_the_save(capsys, monkeypatch, tmp_path):
    save, whole, resumed = tmp_path / "s.json", tmp_path / "whole.jsonl", tmp_path / "resumed.jsonl"
    argv = ["play", "punto", "--players", "2", "--seats", "human,random", "--seed", "5"]
    run(capsys, monkeypatch, *argv, "--trace", str(whole), stdin="1\n2\n1\nquit\n")
    run(capsys, monkeypatch, *argv, stdin=f"1\n2\nsave {save}\nquit\n")
    run(capsys, monkeypatch, "play", "--load", str(save), "--trace", str(resumed), stdin="1\nquit\n")
    assert read_trace(resumed.read_text())[1:] == read_trace(whole.read_text())[1:]


def test_replay_json_refuses_step(capsys, monkeypatch, tmp_path):
    log = tmp_path / "g.log"
    run(capsys, monkeypatch, "play", "punto", "--players", "2", "--seats", "random,random", "--log", str(log))
    code, _, err = run(capsys, monkeypatch, "replay", str(log), "--json", "--step", "1")
    assert code == 2 and "--json prints the whole game" in err


# ------------------------------------------------------------------ the game's path in a log

def test_a_log_keeps_a_relative_game_path_and_replays_from_another_folder(capsys, monkeypatch, tmp_path):
    games = tmp_path / "work" / "mine"
    games.mkdir(parents=True)
    for name in ("punto.game", "cards.yaml"):
        (games / name).write_text((REPO / "games" / "punto" / name).read_text())
    monkeypatch.chdir(tmp_path / "work")
    code, _, _ = run(capsys, monkeypatch, "play", "mine/punto.game", "--players", "2", "--seats", "random,random",
                     "--seed", "2", "--log", "g.log")
    assert code == 0 and json.loads(Path("g.log").read_text())["game"] == "mine/punto.game"
    monkeypatch.chdir(tmp_path)         # the game is found beside the log
    code, out, _ = run(capsys, monkeypatch, "replay", "work/g.log", "--step", "2")
    assert code == 0 and "step 2 of" in out
    data = json.loads((tmp_path / "work" / "g.log").read_text())
    data["game"] = str(games / "punto.game")            # a log of an older version: an absolute path
    (tmp_path / "old.log").write_text(json.dumps(data))
    code, out, _ = run(capsys, monkeypatch, "replay", "old.log", "--step", "2")
    assert code == 0 and "step 2 of" in out


# ------------------------------------------------------------------ the schemas in docs/logs.md

def documented_schemas() -> dict:
    """The JSON blocks of docs/logs.md that follow a heading naming a schema file."""
    text = LOGS_DOC.read_text()
    found = {}
    for name, block in re.findall(r"<!-- schema: (\S+) -->\s*```json\n(.*?)```", text, re.S):
        found[name] = json.loads(block)
    return found


def test_the_docs_show_the_schemas_the_code_checks_with():
    shown = documented_schemas()
    assert set(shown) == {saves.SCHEMA_FILE, trace.TRACE_SCHEMA_FILE}
    for name, schema in shown.items():
        assert schema == json.loads((SCHEMA_DIR / name).read_text()), f"docs/logs.md shows an old {name}"
    assert saves.SCHEMA_PATH == SCHEMA_DIR / saves.SCHEMA_FILE


def test_the_trace_schema_refuses_what_a_reader_could_not_use():
    good = {"type": "decision", "step": 0, "player": 0, "seat": "human", "prompt": "Place", "options":
            [{"id": "1", "label": "a"}], "choice": 0, "id": "1", "label": "a"}
    TRACE_VALIDATOR.validate(good)
    for bad in ({**good, "options": []}, {k: v for k, v in good.items() if k != "choice"},
                {"type": "end", "finished": True, "steps": 3}, {"type": "nothing"}):
        assert not TRACE_VALIDATOR.is_valid(bad), bad


def test_redo_writes_the_redone_decisions_again(capsys, monkeypatch, tmp_path):
    path = tmp_path / "t.jsonl"
    run(capsys, monkeypatch, "play", "punto", "--players", "2", "--seats", "human,random", "--seed", "3",
        "--trace", str(path), stdin="1\n2\nundo\nredo\nquit\n")
    records = read_trace(path.read_text())
    assert [(r["type"], r.get("step")) for r in records] == [
        ("start", None), ("decision", 0), ("decision", 1), ("decision", 2), ("decision", 3), ("undo", 2),
        ("decision", 2), ("decision", 3), ("end", None)]
    assert records[6:8] == records[3:5], "redo makes the same decisions, with the same options"
