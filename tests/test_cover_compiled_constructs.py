"""Constructs the compiler translates in special ways, checked by their values
(docs/language.md): fns with `let` bodies (memoised or not), negation of a computed value,
`any`/`all` over generators, and fns that draw random numbers, which are never memoised.
"""
from __future__ import annotations

import textwrap

import pytest

from boardwright.interpreter.compile.load import load_game
from conftest import small_body_file

def run(tmp_path, declarations: str, expr: str, type_: str):
    """The value of `expr` computed in play, after `declarations`."""
    text = textwrap.dedent(declarations) + f"var result: {type_} = none\nplay {{ result = {expr} }}\n"
    return load_game(small_body_file(tmp_path, text)).new_state(2, seed=4).vars["result"]


def test_a_fn_with_let_lines_and_no_loop(tmp_path):
    declarations = """\
        fn twice_plus_one(a: int) -> int {
          let b = a * 2
          return b + 1
        }
        """
    assert run(tmp_path, declarations, "twice_plus_one(4)", "int") == 9


def test_a_memoised_fn_with_let_lines_computes_each_argument(tmp_path):
    declarations = """\
        fn multiples(a: int) -> int {
          let xs = [x * a for x in range(4)]
          return sum(xs)
        }
        """
    # 0 + a + 2a + 3a = 6a, for two different arguments in the same step
    assert run(tmp_path, declarations, "[multiples(2), multiples(5), multiples(2)]", "list of int") == [12, 30, 12]


def test_negating_a_computed_value(tmp_path):
    assert run(tmp_path, "", "[-n for n in [3, -4]]", "list of int") == [-3, 4]


@pytest.mark.parametrize("expr, expected", [
    ("any(c.rank > 2 for c in components(Card))", True),
    ("all(c.rank > 2 for c in components(Card))", False),
    ("all(c.rank > 0 for c in components(Card))", True),
    ("any(c.rank > 5 for c in components(Card))", False),
])
def test_any_and_all_over_a_generator(tmp_path, expr, expected):
    assert run(tmp_path, "", expr, "bool") is expected


def test_a_fn_that_shuffles_is_not_memoised(tmp_path):
    declarations = "fn deal() -> list of int = shuffled([x for x in range(12)])\n"
    first, second = run(tmp_path, declarations, "[deal(), deal()]", "list of list of int")
    assert sorted(first) == sorted(second) == list(range(12))
    assert first != second      # two draws in one step; a memoised fn would repeat the first


def test_a_fn_calling_a_shuffling_fn_is_not_memoised(tmp_path):
    declarations = """\
        fn mixed() -> list of int = shuffled(range(12))
        fn dealt() -> list of int = [x for x in mixed()]
        """
    first, second = run(tmp_path, declarations, "[dealt(), dealt()]", "list of list of int")
    assert sorted(first) == list(range(12)) and first != second


def test_a_long_run_of_statements_runs_in_order(tmp_path):
    # More statements in a row than one generated function holds (interpreter/compile/codegen.py
    # MAX_BLOCK): they are split over several functions and still run once each, in order.
    from boardwright.interpreter.compile.codegen import MAX_BLOCK
    count = 2 * MAX_BLOCK + 7
    steps = "\n".join(f"  trail = trail + [{i}]" for i in range(count))
    path = small_body_file(tmp_path, "var trail: list of int = []\nplay {\n" + steps + "\n}\n")
    assert load_game(path).new_state(2, seed=1).vars["trail"] == list(range(count))


def test_a_code_module_answers_for_lines_it_does_not_have():
    from boardwright.interpreter.compile.codegen import Module
    module = Module("<empty>")
    assert module.span_at(0) is None and module.span_at(5) is None
    assert module.inlined_at(3, 0, 1) == []
