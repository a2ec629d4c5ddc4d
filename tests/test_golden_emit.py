"""Golden generated code: each tests/golden_emit/NAME.game is a small game using many
constructs of the compiler, and tests/golden_emit/NAME.expected is the exact standard output
of `boardwright compile NAME.game` followed by that of `boardwright compile NAME.game --emit`
(docs/cli.md "compile": the generated source, each statement marked with its rule line).

A golden: a change of the compiler's output shows here as a diff to review. The generated
names (`t5` of a prompt, `c_x_2` of a comprehension's variable), the loop forms of `all`
and `any`, the step counting of loops, the log's cap and the procedure calls run at once
are read by nobody but `--emit`'s reader, so only a whole page can tell them apart
(issue 26, round 10: such mutants of compiler.py and codegen.py survived every other test).
To add a case, write the .game file, regenerate, and read the new .expected line by line
before committing it:

    BOARDWRIGHT_REGEN_GOLDEN=1 python3 -m pytest -q tests/test_golden_emit.py
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from boardwright.cli.main import main

GOLDEN = Path(__file__).resolve().parent / "golden_emit"
CASES = sorted(GOLDEN.glob("*.game"))
REGENERATE = os.environ.get("BOARDWRIGHT_REGEN_GOLDEN") == "1"


def test_every_case_has_its_expected_output():
    assert CASES and {c.stem for c in CASES} == {e.stem for e in GOLDEN.glob("*.expected")}


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_compile_and_emit_print_the_expected_code(case, capsys):
    capsys.readouterr()
    assert main(["compile", str(case)]) == 0
    assert main(["compile", str(case), "--emit"]) == 0
    out = capsys.readouterr().out
    expected = case.with_suffix(".expected")
    if REGENERATE:
        expected.write_text(out)
    assert out == expected.read_text()
