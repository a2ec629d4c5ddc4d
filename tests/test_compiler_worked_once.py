"""What the compiler works out once instead of at every use (docs/performance.md): a call
written more than once alike in a fn's body (analysis.repeated_parts), and a comprehension
over a short `range` of numbers known when compiling (ComprehensionCompiler.loop_over).
Each must give exactly what evaluating every use afresh gives: the same values, the same
rule errors at the same first use, and nothing evaluated that a branch does not reach."""
from __future__ import annotations

import pytest

from boardwright.cli.main import main
from boardwright.interpreter.run.limits import Problem
from test_cover_builtins import LAYOUT, build

# Tiles 0 and 1 are open on all four sides, tile 2 on none (test_cover_builtins.TILES).
SIDES = "fn sides(c: cell) -> int = (if top_at(board, c).north then 1 else 0) + " \
        "(if top_at(board, c).east then 2 else 0) + (if top_at(board, c).south then 4 else 0)\n"


def results(tmp_path, fns: str, exprs: list, type_: str = "int") -> list:
    """The value of each expression, run after LAYOUT in a game that declares `fns`."""
    decls = "".join(f"var r{i}: {type_} = none\n" for i in range(len(exprs)))
    sets = " ".join(f"r{i} = {e}" for i, e in enumerate(exprs))
    game = build(tmp_path, f"{fns}{decls}{LAYOUT}play {{ {sets} }}\n")
    st = game.new_state(2, seed=1)
    return [st.vars[f"r{i}"] for i in range(len(exprs))]


def called(tmp_path, fns: str, name: str, *calls) -> list:
    """What the compiled fn `name` returns for each tuple of arguments, called as such (a
    call written in the rules may inline a small fn's body instead)."""
    game = build(tmp_path, fns + LAYOUT + "play { log \"go\" }\n")
    st = game.new_state(2, seed=1)
    return [game.namespace[f"_F_{name}"](st, *args) for args in calls]


def test_a_cell_read_three_times_gives_each_attribute_of_its_tile(tmp_path):
    # open on all sides: 1 + 2 + 4; closed: 0
    assert called(tmp_path, SIDES, "sides", [(0, 0)], [(1, 0)], [(2, 0)]) == [7, 7, 0]
    assert results(tmp_path, SIDES, ["sides((0, 0))", "sides((2, 0))"]) == [7, 0]     # inlined


def test_a_cell_read_three_times_is_looked_up_once(tmp_path):
    game = build(tmp_path, SIDES + LAYOUT + "play { log \"{sides((0, 0))}\" }\n")
    st = game.new_state(2, seed=1)
    lookups = []

    class CountedGrid(dict):
        def get(self, cell, default=None):
            lookups.append(cell)
            return super().get(cell, default)

    st.zones["board"] = CountedGrid(st.zones["board"])
    assert game.namespace["_F_sides"](st, (1, 0)) == 7
    assert lookups == [(1, 0)], "the grid is read once, not once per attribute"


def test_an_empty_cell_read_again_fails_at_its_first_use(tmp_path):
    with pytest.raises(Problem) as info:
        called(tmp_path, SIDES, "sides", [(4, 4)])
    assert str(info.value) == "'.north' of none"


def test_a_repeated_call_in_a_branch_not_taken_is_never_worked_out(tmp_path):
    # first([]) is a rule error: worked out ahead of the test, g([]) would fail
    fns = "fn g(xs: list of int) -> int = if xs == [] then 0 else first(xs) + first(xs)\n"
    assert called(tmp_path, fns, "g", [[]], [[3, 9]]) == [0, 6]


def test_repeated_calls_in_the_arms_of_a_case_give_their_values(tmp_path):
    # a case of a computed subject is compiled as a lambda: its arms are a scope of their own,
    # where a value kept in the fn's scope is not seen
    fns = ("fn pick(xs: list of int, k: int) -> int = "
           "case k + 0 { 1: first(xs) + first(xs), 2: last(xs) * last(xs) else: first(xs) }\n")
    assert called(tmp_path, fns, "pick", [[3, 5], 1], [[3, 5], 2], [[3, 5], 7]) == [6, 25, 3]


def test_a_list_asked_for_membership_and_read_again_stays_a_list(tmp_path):
    # `x in LIST` may be asked of a set made from a kept LIST: then LIST[1] would fail
    fns = ("fn evens() -> list of int = [v for v in [1, 2, 3, 4] if v % 2 == 0]\n"
           "fn m(x: int) -> int = if x in evens() then evens()[1] else -1\n")
    assert called(tmp_path, fns, "m", [2], [3]) == [4, -1]


@pytest.mark.parametrize("expr, expected", [
    ("[k * 10 for k in range(2, 5)]", [20, 30, 40]),
    ("[k for k in range(3)]", [0, 1, 2]),
    ("[k for k in range(5, 2)]", []),
    ("[k for k in range(0)]", []),
    ("[a * 10 + b for a in range(2) for b in range(1, 3)]", [1, 2, 11, 12]),
    ("[k for k in range(-2, 1)]", [-2, -1, 0]),
])
def test_a_comprehension_over_a_known_range_gives_its_numbers(tmp_path, expr, expected):
    assert results(tmp_path, "", [expr], "list of int") == [expected]


def test_a_long_known_range_is_still_counted_as_work(tmp_path, capsys):
    # 64 numbers or fewer are a constant; longer ranges go through the bounded built-in
    build(tmp_path, "play { log \"{len([k for k in range(64)])} {len([k for k in range(65)])}\" }\n")
    assert main(["compile", str(tmp_path / "g.game"), "--emit"]) == 0
    emitted = capsys.readouterr().out
    assert emitted.count("_B_range(") == 1
    assert build(tmp_path, "play { log \"{len([k for k in range(64)])} {len([k for k in range(65)])}\" }\n"
                 ).new_state(2, seed=1).log == ["64 65"]


def test_a_division_of_computed_operands_works_each_out_once_in_order(tmp_path):
    # floor division and remainder as the language defines them (docs/language.md: as Python's)
    fns = "fn q(xs: list of int, k: int) -> int = (first(xs) * 7) // (last(xs) - k) + (first(xs) * 7) % (last(xs) - k)\n"
    assert called(tmp_path, fns, "q", [[3, 5], 1], [[-3, 5], 1], [[3, -5], 0]) == [21 // 4 + 21 % 4, -21 // 4 + -21 % 4,
                                                                                  21 // -5 + 21 % -5]
    with pytest.raises(Problem) as info:
        called(tmp_path, fns, "q", [[3, 5], 5])
    assert str(info.value) == "division by zero"
    # the left operand first: where both fail, its error is the one reported
    with pytest.raises(Problem) as info:
        called(tmp_path, "fn r(xs: list of int) -> int = first(xs) // last(xs)\n", "r", [[]])
    assert str(info.value) == "first of an empty list"
