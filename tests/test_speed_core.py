"""The faster core: rule loops and branches compiled as Python's own, params worked out once
per player count, the inlined shuffle and the plain Pending class. Each test checks the
result against an independent computation (plain Python, or the reference generator)."""
from __future__ import annotations

import pytest

from boardwright.dsl.errors import RuleError
from boardwright.interpreter import rng
from boardwright.interpreter.state import Pending
from conftest import make_small_game as make

LOOPS = """\
    game "Loops"
    players 1
    data "cards.yaml"
    var total: int = 0
    var trace: list of int = []
    play {
      for i in range(7) if i != 4 {
        let j = 0
        while j < i {
          j += 1
          if j == 3 { continue }
          elif j == 5 { break }
          elif i % 2 == 0 { total += j * 10 }
          else { total += j }
        }
        trace = trace + [j]
      }
    }
    """


def _loops_in_python():
    total, trace = 0, []
    for i in range(7):
        if i == 4:
            continue
        j = 0
        while j < i:
            j += 1
            if j == 3:
                continue
            elif j == 5:
                break
            elif i % 2 == 0:
                total += j * 10
            else:
                total += j
        trace.append(j)
    return total, trace


def test_nested_loops_with_filters_break_continue_and_elif_chains(tmp_path):
    game = make(tmp_path, LOOPS)
    st = game.new_state(1)
    assert st.finished
    assert (st.vars["total"], st.vars["trace"]) == _loops_in_python()


def test_nested_loops_run_inside_one_generated_function(tmp_path):
    # The whole play body (two loops, a while, an elif chain) is one Python function that
    # runs to the end: the engine calls it once.
    game = make(tmp_path, LOOPS)
    body = game.code["play"]
    calls = []
    first = body.blocks[0]
    body.blocks[0] = lambda st, F: (calls.append(F[1]), first(st, F))
    game.new_state(1)
    assert calls == [0]


def test_rule_coverage_still_runs_one_instruction_at_a_time(tmp_path):
    # Coverage mode takes no shortcut: the loops give the same values instruction by instruction.
    from boardwright.interpreter.coverage import Coverage
    game = make(tmp_path, LOOPS)
    game.coverage = Coverage()
    st = game.new_state(1)
    assert (st.vars["total"], st.vars["trace"]) == _loops_in_python()


def test_a_loop_nested_in_a_loop_that_never_ends_is_reported_at_its_line(tmp_path):
    game = make(tmp_path, """\
        game "Loop"
        players 1
        data "cards.yaml"
        var n: int = 0
        play {
          for i in range(3) {
            while i < 5 {
              n += 1
            }
          }
        }
        """)
    with pytest.raises(RuleError) as info:
        game.new_state(1)
    diag = info.value.diagnostics[0]
    assert "loop" in diag.message and diag.span.line in (7, 8)


def test_an_error_inside_a_branch_of_a_loop_points_at_its_line(tmp_path):
    game = make(tmp_path, """\
        game "Fails"
        players 1
        data "cards.yaml"
        zone deck: stack
        var n: int = 0
        play {
          for i in range(3) {
            if i < 2 { n += 1 }
            else { n += top(deck).rank }
          }
        }
        """)
    with pytest.raises(RuleError) as info:
        game.new_state(1)
    assert info.value.diagnostics[0].span.line == 9


def test_a_proc_called_from_a_loop_returns_into_it(tmp_path):
    game = make(tmp_path, """\
        game "Calls"
        players 1
        data "cards.yaml"
        var total: int = 0
        proc add(k: int) {
          if k == 2 { return }
          total += k
        }
        play {
          for i in range(5) {
            add(i)
            total += 100
          }
        }
        """)
    st = game.new_state(1)
    assert st.vars["total"] == sum(k for k in range(5) if k != 2) + 5 * 100


RANDOM_PARAM = """\
    game "Draw"
    players 1..2
    data "cards.yaml"
    param order = shuffled(components(Card))
    param sizes = [n * 2 for n in range(player_count + 1)]
    var mark: list of Card per Card = shuffled(components(Card))
    var seen: int per Card = 7
    play {{ log "go" }}
    """


def test_params_that_draw_random_numbers_are_drawn_in_every_game(tmp_path):
    game = make(tmp_path, RANDOM_PARAM.format())
    orders = {tuple(game.new_state(1, seed).vars["order"]) for seed in range(8)}
    assert len(orders) > 1                      # a cached param would give one order
    for seed in range(3):
        st = game.new_state(1, seed)
        assert sorted(st.vars["order"]) == list(range(6))


def test_params_follow_the_player_count(tmp_path):
    game = make(tmp_path, RANDOM_PARAM.replace("param order = shuffled(components(Card))\n", "").format())
    assert game.new_state(1).vars["sizes"] == [0, 2]
    assert game.new_state(2).vars["sizes"] == [0, 2, 4]
    assert game.new_state(1).vars["sizes"] == [0, 2]


def test_params_follow_set_overrides(tmp_path):
    game = make(tmp_path, """\
        game "Set"
        players 1
        data "cards.yaml"
        param start = 3
        param twice = start * 2
        play { log "go" }
        """)
    assert game.new_state(1).vars["twice"] == 6
    game.set_params({"start": "5"})
    assert game.new_state(1).vars["twice"] == 10
    game.param_overrides.clear()
    assert game.new_state(1).vars["twice"] == 6


def test_a_per_component_start_value_is_drawn_for_each_component_when_random(tmp_path):
    game = make(tmp_path, RANDOM_PARAM.format())
    st = game.new_state(1, 4)
    assert st.vars["seen"] == [7] * 6
    assert len({tuple(m) for m in st.vars["mark"]}) > 1     # six shuffles, not one


def _shuffled_by_reference(state: int, items: list) -> tuple[int, list]:
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        state, value = rng.next_value(state)
        j = value % (i + 1)
        items[i], items[j] = items[j], items[i]
    return state, items


@pytest.mark.parametrize("seed", [0, 1, 12345, 2 ** 63])
def test_the_inlined_shuffle_matches_the_generator(seed):
    class Holder:
        rng = rng.seed_state(seed)
    items = list(range(40))
    expected_state, expected = _shuffled_by_reference(Holder.rng, items)
    rng.shuffle_in_place(Holder, items)
    assert items == expected and Holder.rng == expected_state


def test_pending_compares_and_hashes_by_value():
    a = Pending(0, (1, 2), 3, ("play", 4))
    assert a == Pending(0, (1, 2), 3, ("play", 4))
    assert a != Pending(1, (1, 2), 3, ("play", 4))
    assert a != (0, (1, 2), 3, ("play", 4))
    assert hash(a) == hash(Pending(0, (1, 2), 3, ("play", 4)))
    assert "values=(1, 2)" in repr(a)
