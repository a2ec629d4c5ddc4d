"""A `--csv` or `--plot` file that cannot be written after every game has run loses nothing:
the report is printed, then a clear error, exit 1 (cli/playtest_commands.py)."""
from __future__ import annotations

import pytest

from boardwright.cli import playtest_commands
from boardwright.cli.main import main


def _disk_full(*args, **kwargs):
    raise OSError(28, "No space left on device")


@pytest.mark.parametrize("json_output", [False, True])
def test_a_csv_write_error_after_the_games_keeps_the_report(tmp_path, capsys, monkeypatch, json_output):
    monkeypatch.setattr(playtest_commands, "write_csv", _disk_full)
    csv = tmp_path / "games.csv"
    code = main(["simulate", "punto", "--players", "2", "--games", "2", "--quiet", "--csv", str(csv)]
                + (["--json"] if json_output else []))
    out, err = capsys.readouterr()
    assert code == 1, err
    assert "Punto" in out and ("win rate" in out or json_output)
    assert f"boardwright: error: cannot write --csv {csv}: No space left on device" in err
    assert "internal error" not in err


def test_a_compare_csv_write_error_keeps_the_comparison(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(playtest_commands, "write_compare_csv", _disk_full)
    csv = tmp_path / "games.csv"
    code = main(["compare", "punto", "--variant", "base", "--variant", "team", "--players", "4", "--games", "2",
                 "--quiet", "--csv", str(csv)])
    out, err = capsys.readouterr()
    assert code == 1, err
    assert "games per configuration" in out
    assert f"cannot write --csv {csv}: No space left on device" in err
