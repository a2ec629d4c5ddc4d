"""Behaviour of the compiler's fast paths that only a result can tell apart (issue 26,
round 10: survivors of seeds 31 to 33 in interpreter/compile/), and the messages the
compiled game's own declarations stop with (a grid's size from a param, a score line).
Expected values are worked out here from the rules of each case.
"""
from __future__ import annotations

import pytest

from boardwright.dsl.errors import RuleError
from boardwright.interpreter.compile.load import load_game
from conftest import small_body_file


def test_a_filter_on_whether_another_cell_fits_keeps_all_or_nothing(tmp_path):
    """comprehensions.py: `[c for c in L if fits(Z, c)]` filters the cells by one call, but only
    when `fits` is asked about the comprehension's own variable: `fits(Z, d)` of another cell
    is one answer for every item (the mutant `!= e.var` of seed 33 filtered the items instead).
    The board is 3 by 3: (5, 5) is off it, (1, 1) on it."""
    game = load_game(small_body_file(tmp_path, """\
        zone board: grid size 3 x 3
        var kept: list of cell = []
        var all_kept: list of cell = []
        var own: list of cell = []
        play {
          let d = (5, 5)
          let e = (1, 1)
          kept = [c for c in [(0, 0), (7, 7)] if fits(board, d)]
          all_kept = [c for c in [(0, 0), (7, 7)] if fits(board, e)]
          own = [c for c in [(0, 0), (7, 7)] if fits(board, c)]
          choose x from [1, 2] by 0
        }
        """))
    st = game.new_state(2, seed=1)
    assert (st.vars["kept"], st.vars["all_kept"], st.vars["own"]) == ([], [(0, 0), (7, 7)], [(0, 0)])


def test_rule_coverage_counts_each_statement_of_a_procedure_without_choices(tmp_path):
    """codegen.py _BlockWriter: with rule coverage on, every instruction runs one at a time
    through the engine, which counts it; a procedure that never waits for a choice is then
    not run at once inside its caller's code (the mutant `limit >= 1` of seed 32 did, and its
    statements were counted as never run). Called three times by the loop, once more later."""
    from boardwright.interpreter.testing.coverage import Coverage
    game = load_game(small_body_file(tmp_path, """\
        var total: int = 0
        proc add(n: int) { total += n }
        play {
          for i in [1, 2, 3] { add(i) }
          add(10)
          choose x from [1, 2] by 0
        }
        """))
    game.coverage = Coverage()
    st = game.new_state(2, seed=1)
    assert st.vars["total"] == 16
    assert game.coverage.instructions[("add", 0)] == 4


@pytest.mark.parametrize("value, shown", [("0", "0"), ("2 - 5", "-3")])
def test_a_grid_sized_by_a_param_below_one_is_refused_at_its_size(tmp_path, value, shown):
    """game.py _check_zone_numbers: the whole message at the zone's `size` option, naming the
    option, the zone, the param and its value as the rules write it."""
    path = small_body_file(tmp_path, f"param width = {value}\nzone board: grid size width x 2\nplay {{ }}\n")
    with pytest.raises(RuleError) as caught:
        load_game(path).new_state(2, seed=1)
    line = "zone board: grid size width x 2"
    start = line.index("size")
    assert caught.value.format().replace(str(path), "g.game") == (
        f"g.game:5:{start + 1}: error: 'size' of zone 'board' needs whole numbers of at least 1, "
        f"but the param 'width' is {shown}\n    {line}\n    {' ' * start}{'^' * len('size width x 2')}")


def test_compiled_rules_are_kept_under_the_digest_of_their_source(tmp_path, monkeypatch):
    """codegen.py cache_file: one file per generated source and Python, named `rules-` and the
    first 32 hex digits of the SHA-256 of the code generator's version, the Python cache tag
    and the source (census survivor `digest[:33]`: a file name of another length)."""
    import hashlib
    import sys
    from boardwright.interpreter.compile import codegen
    monkeypatch.setenv("BOARDWRIGHT_CACHE", str(tmp_path / "cache"))
    tag = sys.implementation.cache_tag
    digest = hashlib.sha256((codegen.CODEGEN_VERSION + tag + "x = 1\n").encode()).hexdigest()
    assert codegen.cache_file("x = 1\n") == tmp_path / "cache" / f"rules-{digest[:32]}.{tag}.bin"
