"""Golden diagnostics: each tests/golden/NAME.game is a deliberately broken rule file, and
tests/golden/NAME.expected is the exact stderr of `boardwright validate tests/golden/NAME.game`.

The golden folder's absolute path is written as `$GOLDEN` in the .expected files, so they do
not depend on where the repository is checked out. Data files the cases use are in
tests/golden/data/, and the base game of the variant cases is tests/golden/support/base.game
(neither is a case itself: only tests/golden/*.game are).

To add a case, write tests/golden/NAME.game, then regenerate the expected output and read
the new .expected file carefully before committing it:

    BOARDWRIGHT_REGEN_GOLDEN=1 python3 -m pytest -q tests/test_golden.py

A case may begin with `# args: ...`: more arguments for `validate` (`$GOLDEN` is replaced by
the golden folder), e.g. `--strict` for the warning_* cases. Every diagnostic code of
dsl/codes.py appears in at least one .expected file.

Regeneration rewrites every .expected file from the current output (and still checks that
each case exits with 1); `git diff tests/golden` then shows what changed.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from boardwright.cli.main import main
from boardwright.dsl.codes import CODES

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = sorted(GOLDEN.glob("*.game"))
REGENERATE = os.environ.get("BOARDWRIGHT_REGEN_GOLDEN") == "1"
PLACEHOLDER = "$GOLDEN"


def _args(case: Path) -> list[str]:
    first = case.read_bytes().split(b"\n", 1)[0].decode("utf-8", "replace")
    if not first.startswith("# args:"):
        return []
    return first[len("# args:"):].replace(PLACEHOLDER, str(GOLDEN)).split()


def _validate(case: Path, capsys) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["validate", str(case)] + _args(case))
    out, err = capsys.readouterr()
    return code, out, err.replace(str(GOLDEN), PLACEHOLDER)


def test_the_golden_suite_is_complete():
    names = {c.stem for c in CASES}
    expected = {e.stem for e in GOLDEN.glob("*.expected")}
    assert len(CASES) >= 12
    assert names == expected, "every NAME.game needs a NAME.expected and the reverse"
    # The suite covers every family of error.
    for prefix in ("syntax_", "name_", "attribute_", "type_", "arity_", "data_", "variant_", "zone_"):
        assert any(n.startswith(prefix) for n in names), prefix


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_golden_diagnostics(case: Path, capsys):
    code, out, err = _validate(case, capsys)
    assert code == 1
    if "--strict" in _args(case):
        assert out.startswith("failed (--strict): ")
    else:
        assert out == ""
    assert "Traceback" not in err
    assert err.startswith(PLACEHOLDER + "/"), "the first line is PATH:LINE:COL: error: ..."
    expected_file = case.with_suffix(".expected")
    if REGENERATE:
        expected_file.write_text(err, encoding="utf-8")
    assert err == expected_file.read_text(encoding="utf-8")


def test_placeholder_is_the_only_machine_dependent_part():
    assert len(list(GOLDEN.glob("*.expected"))) >= 40
    for expected in GOLDEN.glob("*.expected"):
        text = expected.read_text(encoding="utf-8")
        assert str(GOLDEN) not in text
        assert text.count(PLACEHOLDER) >= 1


def test_every_code_has_a_golden_case_and_every_golden_diagnostic_a_code():
    shown = []
    for expected in GOLDEN.glob("*.expected"):
        for line in expected.read_text(encoding="utf-8").splitlines():
            match = re.match(r"^\S+:\d+:\d+: (error|warning|note): .*?( \[(\w+)\])?$", line)
            if match and match.group(1) != "note":
                assert match.group(3), f"no code: {line}"
                shown.append(match.group(3))
    assert len(set(shown)) >= 40
    missing = [c.code for c in CODES if c.code not in shown]
    assert not missing, f"codes without a golden case: {missing}"
