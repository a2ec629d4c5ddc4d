"""The test suite's own asserts can fail: none compares a value with itself, asserts a
constant, or hides its condition behind `or True`. (Comparing two calls of one function is
allowed: that is how a test checks that something is deterministic.)"""
from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def hollow_asserts(source: str) -> list[str]:
    """The asserts of a test file that cannot fail, as 'LINE: assert ...'."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Assert):
            continue
        test = node.test
        hollow = isinstance(test, ast.Constant) and bool(test.value)
        for part in ast.walk(test):
            if isinstance(part, ast.Compare):
                sides = [part.left, *part.comparators]
                hollow |= any(ast.dump(a) == ast.dump(b) and not any(isinstance(n, ast.Call) for n in ast.walk(a))
                              for a, b in zip(sides, sides[1:]))
            if isinstance(part, ast.BoolOp) and isinstance(part.op, ast.Or):
                hollow |= any(isinstance(v, ast.Constant) and bool(v.value) for v in part.values)
        if hollow:
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_check_finds_hollow_asserts():
    planted = "def test_x(a, b):\n    assert a == a\n    assert b or True\n    assert 1\n    assert f(a) == f(a)\n"
    assert hollow_asserts(planted) == ["2: assert a == a", "3: assert b or True", "4: assert 1"]


def test_no_assert_in_the_suite_is_hollow():
    files = sorted(TESTS.glob("*.py"))
    assert len(files) > 40
    found = [f"{path.name}:{line}" for path in files for line in hollow_asserts(path.read_text(encoding="utf-8"))]
    assert not found, found
