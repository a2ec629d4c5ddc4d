"""`boardwright validate`: exit codes, what it prints, and no traceback for a bad input."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from boardwright.cli.main import main

PUNTO = Path(__file__).resolve().parent.parent / "games" / "punto"

BROKEN = """\
game "Broken"
players 2

play {
  let n = lenght([1, 2])
  break
}
"""

DIAGNOSTIC = re.compile(r"^(?P<file>.+\.game):(?P<line>\d+):(?P<col>\d+): error: (?P<message>.+?)(?: \[(?P<code>[EW]\d+)\])?$", re.M)


def run(capsys, *argv) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def broken(tmp_path) -> Path:
    path = tmp_path / "broken.game"
    path.write_text(BROKEN, encoding="utf-8")
    return path


# ----------------------------------------------------------------------------- valid games
def test_bundled_game_reports_the_base_and_its_variant(capsys):
    code, out, err = run(capsys, "validate", "punto")
    assert code == 0
    assert err == ""
    lines = out.splitlines()
    assert lines[0] == "ok: punto: Punto"
    assert "ok: punto --variant team: Punto (Team game)" in lines[1:]


def test_one_variant(capsys):
    code, out, err = run(capsys, "validate", "punto", "--variant", "team")
    assert code == 0
    assert out.splitlines() == ["ok: punto --variant team: Punto (Team game)"]


def test_a_folder_path(capsys):
    code, out, _ = run(capsys, "validate", str(PUNTO))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"ok: {PUNTO}: Punto"
    assert f"ok: {PUNTO} --variant team: Punto (Team game)" in lines[1:]


def test_a_game_file_path(capsys):
    code, out, _ = run(capsys, "validate", str(PUNTO / "punto.game"))
    assert code == 0
    assert out.splitlines() == [f"ok: {PUNTO / 'punto.game'}: Punto"]


def test_a_variant_file_path(capsys):
    code, out, _ = run(capsys, "validate", str(PUNTO / "team.game"))
    assert code == 0
    assert out.splitlines() == [f"ok: {PUNTO / 'team.game'}: Punto (Team game)"]


def test_several_targets(capsys, broken):
    code, out, err = run(capsys, "validate", "punto", str(broken))
    assert code == 1
    assert "ok: punto: Punto" in out
    assert f"{broken}:5:11: error: unknown function 'lenght'" in err


def test_json_for_a_valid_game(capsys):
    code, out, _ = run(capsys, "validate", "punto", "--format", "json")
    assert code == 0
    report = json.loads(out)
    entries = [(r["target"], r["ok"], r["diagnostics"]) for r in report]
    assert entries[0] == ("punto", True, [])
    assert ("punto --variant team", True, []) in entries


# ----------------------------------------------------------------------------- usage errors
def test_nonexistent_target_exits_2(capsys):
    code, out, err = run(capsys, "validate", "no_such_game")
    assert code == 2
    assert out == ""
    assert err.startswith("boardwright: error: no game 'no_such_game'")
    assert "Traceback" not in err


def test_nonexistent_target_with_a_close_bundled_name(capsys):
    code, _, err = run(capsys, "validate", "punt")
    assert code == 2
    assert "did you mean 'punto'?" in err


def test_unknown_variant_exits_2(capsys):
    code, _, err = run(capsys, "validate", "punto", "--variant", "teams")
    assert code == 2
    assert err.startswith("boardwright: error: no variant 'teams' of punto.game; variants: ")
    assert err.endswith("; did you mean 'team'?\n")


def test_folder_without_a_base_game_exits_2(capsys, tmp_path):
    code, _, err = run(capsys, "validate", str(tmp_path))
    assert code == 2
    assert "no base rule file" in err


def test_bad_option_exits_2(capsys):
    with pytest.raises(SystemExit) as info:
        main(["validate", "punto", "--bogus"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "unrecognized arguments: --bogus" in err


def test_bad_format_choice_exits_2(capsys):
    with pytest.raises(SystemExit) as info:
        main(["validate", "punto", "--format", "xml"])
    assert info.value.code == 2
    assert "invalid choice: 'xml'" in capsys.readouterr().err


def test_missing_target_exits_2(capsys):
    with pytest.raises(SystemExit) as info:
        main(["validate"])
    assert info.value.code == 2


@pytest.mark.slow
def test_subprocess_exit_codes_and_no_traceback(tmp_path, broken):
    def boardwright(*args):
        return subprocess.run([sys.executable, "-m", "boardwright", *args], capture_output=True, text=True,
                              timeout=60)

    missing = boardwright("validate", str(tmp_path / "nowhere.game"))
    assert missing.returncode == 2
    assert "no game" in missing.stderr and "Traceback" not in missing.stderr
    bad = boardwright("validate", str(broken))
    assert bad.returncode == 1
    assert f"{broken}:6:3: error: 'break' outside a loop" in bad.stderr
    assert "Traceback" not in bad.stderr
    option = boardwright("--bogus")
    assert option.returncode == 2
    assert "Traceback" not in option.stderr


# ----------------------------------------------------------------------------- broken files
def test_broken_file_exits_1_with_positions_and_carets(capsys, broken):
    code, out, err = run(capsys, "validate", str(broken))
    assert code == 1
    assert out == ""
    found = [(m["file"], int(m["line"]), int(m["col"]), m["message"], m["code"]) for m in DIAGNOSTIC.finditer(err)]
    assert found == [(str(broken), 5, 11, "unknown function 'lenght'", "E302"),
                     (str(broken), 6, 3, "'break' outside a loop", "E502")]
    lines = err.splitlines()
    first = lines.index(f"{broken}:5:11: error: unknown function 'lenght' [E302]")
    assert lines[first + 1] == "      let n = lenght([1, 2])"
    assert lines[first + 2] == "              ^^^^^^^^^^^^^^"
    assert lines[first + 3] == "    hint: did you mean 'len'?"
    assert "Traceback" not in err


def test_syntax_error_exits_1(capsys, tmp_path):
    path = tmp_path / "syntax.game"
    path.write_text('game "S"\nplayers 2\nplay {\n', encoding="utf-8")
    code, _, err = run(capsys, "validate", str(path))
    assert code == 1
    assert err.startswith(f"{path}:3:7: error: unexpected end of file")
    assert "^" in err


def test_json_lists_diagnostics_with_positions(capsys, broken):
    code, out, err = run(capsys, "validate", str(broken), "--format", "json")
    assert code == 1
    assert err == ""
    (entry,) = json.loads(out)
    assert entry["target"] == str(broken) and entry["ok"] is False
    assert [(d["file"], d["line"], d["column"], d["severity"], d["message"]) for d in entry["diagnostics"]] == [
        (str(broken), 5, 11, "error", "unknown function 'lenght'"),
        (str(broken), 6, 3, "error", "'break' outside a loop")]
    first = entry["diagnostics"][0]
    assert (first["end_line"], first["end_column"], first["hint"]) == (5, 25, "did you mean 'len'?")


def test_json_for_a_data_error_points_into_the_yaml(capsys, tmp_path):
    (tmp_path / "bad.yaml").write_text("provenance: x\ncomponents:\n  Tile:\n    attributes: {v: int}\n"
                                       "    items:\n      - v: one\n", encoding="utf-8")
    game = tmp_path / "g.game"
    game.write_text('game "G"\nplayers 2\ndata "bad.yaml"\nplay { }\n', encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(game), "--format", "json")
    assert code == 1
    (diag,) = json.loads(out)[0]["diagnostics"]
    assert (Path(diag["file"]).name, diag["line"], diag["column"]) == ("bad.yaml", 6, 12)
