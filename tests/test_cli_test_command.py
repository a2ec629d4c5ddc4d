"""`boardwright test`: every scenario ends as PASS or FAIL with a positioned reason, whatever
happens in it, and the run always ends with its summary line."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

from boardwright.cli.main import main

PUNTO = Path(__file__).resolve().parents[1] / "games" / "punto"
GOOD = """name: a good one
game: punto
players: 2
expect:
  player: 0
"""


def run_test(capsys, *files):
    code = main(["test", *map(str, files)])
    out, err = capsys.readouterr()
    return code, out, err


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def positions(out: str, path: Path) -> list[tuple[int, int]]:
    return [(int(line), int(col)) for line, col in re.findall(re.escape(str(path)) + r":(\d+):(\d+): error", out)]


def caret_under(out: str, path: Path, word: str) -> bool:
    """Whether the report quotes the line holding `word` with carets right under it."""
    lines = out.splitlines()
    for i, line in enumerate(lines[:-1]):
        if word in line and "error:" not in line:
            column = line.index(word)
            return lines[i + 1][column:column + len(word)] == "^" * len(word)
    return False


def test_a_rule_error_in_an_expectation_fails_that_scenario_and_the_run_goes_on(capsys, tmp_path):
    game = tmp_path / "punto"
    shutil.copytree(PUNTO, game, ignore=shutil.ignore_patterns("scenarios"))
    (game / "broken.game").write_text('variant "Broken" extends "punto.game"\n'
                                      'invariant "out of range": wins[7] >= 0\n', encoding="utf-8")
    broken = write(tmp_path, "a.scenario.yaml", "name: invariant raises\ngame: punto/broken.game\nplayers: 2\n"
                                                 "expect:\n  finished: false\n  invariants: true\n")
    good = write(tmp_path, "b.scenario.yaml", GOOD)
    code, out, _ = run_test(capsys, broken, good)
    assert code == 1
    assert f"FAIL {broken}: invariant raises" in out and f"PASS {good}: a good one" in out
    assert (6, 3) in positions(out, broken) and "rule error while checking" in out
    assert out.rstrip().splitlines()[-1] == "1 passed, 1 failed"


def test_misspelt_expectation_key_is_positioned_with_a_did_you_mean(capsys, tmp_path):
    path = write(tmp_path, "a.scenario.yaml", GOOD + "  finshed: false\n")
    code, out, _ = run_test(capsys, path)
    assert code == 1 and positions(out, path) == [(6, 3)]
    assert "unknown key 'finshed' in expect" in out and "did you mean 'finished'?" in out
    assert "Additional properties" not in out and caret_under(out, path, "finshed")


def test_misspelt_zone_variable_and_label_are_positioned_with_a_did_you_mean(capsys, tmp_path):
    zone = write(tmp_path, "zone.scenario.yaml", GOOD + 'state:\n  zones:\n    tabel: {"0,0": [green 3]}\n')
    var = write(tmp_path, "var.scenario.yaml", GOOD + "state:\n  vars: {winz: [1, 0]}\n")
    label = write(tmp_path, "label.scenario.yaml", GOOD + 'state:\n  zones:\n    table: {"0,0": [gren 3]}\n')
    code, out, _ = run_test(capsys, zone, var, label)
    assert code == 1 and out.rstrip().endswith("0 passed, 3 failed")
    assert positions(out, zone) == [(8, 5)] and "did you mean 'table'?" in out and caret_under(out, zone, "tabel")
    assert positions(out, var) == [(7, 10)] and "did you mean 'wins'?" in out
    assert positions(out, label)[0][0] == 8 and "did you mean 'green 3'?" in out
    assert "unexpected error: error:" not in out


def test_an_illegal_move_and_a_wrong_type_are_positioned(capsys, tmp_path):
    move = write(tmp_path, "move.scenario.yaml", "game: punto\nplayers: 2\nmoves: ['0,0', '99,99']\n")
    typed = write(tmp_path, "typed.scenario.yaml", "game: punto\nplayers: two\n")
    code, out, _ = run_test(capsys, move, typed)
    assert code == 1
    assert positions(out, move)[0] == (3, 16) and "playing move 2" in out
    assert positions(out, typed) == [(2, 10)] and "'players' must be a whole number" in out


def test_a_missing_file_is_a_fail_line_and_the_summary_still_comes(capsys, tmp_path):
    good = write(tmp_path, "b.scenario.yaml", GOOD)
    code, out, _ = run_test(capsys, tmp_path / "nowhere.scenario.yaml", good)
    assert code == 2 and "no such scenario file" in out and out.rstrip().endswith("1 passed, 1 failed")
