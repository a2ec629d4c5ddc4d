"""The faster core: rule loops and branches compiled as Python's own, params worked out once
per player count, the inlined shuffle and the plain Pending class. Each test checks the
result against an independent computation (plain Python, or the reference generator)."""
from __future__ import annotations

import pytest

from boardwright.dsl.errors import RuleError
from boardwright.interpreter.run import rng
from boardwright.interpreter.run.state import Pending
from conftest import SMALL_DATA, make_small_game as make

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
    from boardwright.interpreter.testing.coverage import Coverage
    game = make(tmp_path, LOOPS)
    game.coverage = Coverage()
    st = game.new_state(1)
    assert (st.vars["total"], st.vars["trace"]) == _loops_in_python()


FAILING = """\
    game "Fails"
    players 1
    data "cards.yaml"
    zone deck: stack
    var n: int = 0
    play {{
      for i in range(3) {{
        {body}
      }}
    }}
    """


@pytest.mark.parametrize("body, lines, message", [
    # a loop nested in a loop never ends: reported at the inner loop
    ("while i < 5 {\n          n += 1\n        }", (8, 9), "loop"),
    # an error in the else branch inside a loop: at its line
    ("if i < 2 { n += 1 }\n        else { n += top(deck).rank }", (9,), "top of the empty zone"),
])
def test_errors_inside_loops_and_branches_point_at_their_lines(tmp_path, body, lines, message):
    game = make(tmp_path, FAILING.format(body=body))
    with pytest.raises(RuleError) as info:
        game.new_state(1)
    diag = info.value.diagnostics[0]
    assert message in diag.message and diag.span.line in lines


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


# ---------------------------------------------------------------------------- inlined helpers
# Generated code computes some values in place with Python's assignment expressions (which a
# comprehension's own list may not hold: there the helper functions stay).

INLINED = """\
    game "Inlined"
    players 1
    data "cards.yaml"
    zone deck: stack
    zone table: grid stacked
    var out: list of int = []
    var cells: list of cell = []
    var big: int = 10
    play {{
      for c in components(Card) {{ move c to deck }}
      move top(deck) to table at (0, 0)
      move top(deck) to table at (1, 0)
      move top(deck) to table at (1, 0)
      out = [max(3, 5), min(3, 5), max(-2, -2), max(len(out) + 1, 0), min(size(table) * 2, 7)]
      out = out + [max(x, 2) for x in range(max(1, 4))]
      out = out + [top_at(table, (1, 0)).rank, size(table), len(contents(table))]
      out = out + [c.rank for c in contents(table) if c.rank == max(1, c.rank)]
      out = out + [y for y in [min(x, 1) for x in range(3)]]
      out = out + [(len(out) + 1) * (size(table) + 2)]
      {extra}
    }}
    """


def test_values_computed_in_place_match_plain_python(tmp_path):
    game = make(tmp_path, INLINED.format(extra=""))
    st = game.new_state(1)
    # Six cards moved to the deck in id order: top is the last id; three leave it for the table.
    order = list(range(6))
    ranks = [game.components[c]["rank"] for c in order]
    on_00, under_10, top_10 = order[5], order[4], order[3]
    expected = [5, 3, -2, 1, 6]
    expected += [max(x, 2) for x in range(4)]
    expected += [ranks[top_10], 3, 3]
    contents = [on_00, under_10, top_10]          # row by row, bottom of a stack first
    expected += [ranks[c] for c in contents]
    expected += [min(x, 1) for x in range(3)]
    expected += [(len(expected) + 1) * (3 + 2)]
    assert st.vars["out"] == expected


@pytest.mark.parametrize("extra, message", [
    ("let e = top_at(table, (5, 5)).rank", "'.rank' of none"),
    ("let e = (if big > 0 then top_at(table, (5, 5)) else top(deck)).rank", "'.rank' of none"),
    ("let e = out[len(out) - 40]", "out of range"),
    ("for i in range(20) { big = (big + 1) * (big + 1) }", "more than 1,000 digits"),
])
def test_values_computed_in_place_keep_their_checks(tmp_path, extra, message):
    game = make(tmp_path, INLINED.format(extra=extra))
    with pytest.raises(RuleError) as info:
        game.new_state(1)
    diag = info.value.diagnostics[0]
    assert message in diag.message
    assert diag.span.line == INLINED.splitlines().index("      {extra}") + 1


# ---------------------------------------------------------------------------- procedures run at once
CALLS = """\
    game "Calls"
    players 1
    data "cards.yaml"
    zone deck: stack
    var total: int = 0
    proc inner(k: int) {{
      total += k
      {inner}
    }}
    proc outer(k: int) {{
      inner(k)
      inner(k * 10)
      total += 1000
    }}
    play {{
      outer(1)
      outer(2)
      total += 100000
    }}
    """


def test_procedures_without_choices_return_into_their_caller(tmp_path):
    st = make(tmp_path, CALLS.format(inner="")).new_state(1)
    assert st.finished and st.vars["total"] == (1 + 10 + 1000) + (2 + 20 + 1000) + 100000


def test_a_procedure_that_finishes_the_game_stops_its_callers(tmp_path):
    st = make(tmp_path, CALLS.format(inner='if total > 5 { finish "enough" }')).new_state(1)
    assert st.finished and st.vars["total"] == 11 and st.endings == ["enough"]


def test_a_choice_two_calls_deep_waits_for_the_player(tmp_path):
    game = make(tmp_path, CALLS.format(inner='choose n from [1, 2] by 0 prompt "n"\n      total += n'))
    st = game.new_state(1)
    assert not st.finished and st.vars["total"] == 1
    for _ in range(4):
        game.apply_index(st, 1)             # n = 2 each time
    assert st.finished and st.vars["total"] == (1 + 2 + 10 + 2 + 1000) + (2 + 2 + 20 + 2 + 1000) + 100000


def test_an_error_in_a_procedure_run_at_once_shows_its_call_chain(tmp_path):
    game = make(tmp_path, CALLS.format(inner="if k == 20 { total += top(deck).rank }"))
    with pytest.raises(RuleError) as info:
        game.new_state(1)
    text = info.value.format()
    lines = CALLS.splitlines()
    assert info.value.diagnostics[0].span.line == lines.index("      {inner}") + 1
    file = info.value.diagnostics[0].span.file
    called = [line.strip() for line in text.splitlines() if "called from" in line or "(in " in line]
    assert f"{file}:{lines.index('      inner(k * 10)') + 1} (in proc outer)" in text, called
    assert f"{file}:{lines.index('      outer(2)') + 1} (in play)" in text, called


# ---------------------------------------------------------------------------- moving lists
MANY = SMALL_DATA.replace("rank: [1, 2, 3]}", "rank: [1, 2, 3, 4, 5, 6, 7, 8]}")

MOVES = """\
    game "Moves"
    players 1
    data "many.yaml"
    zone a: stack
    zone b: stack
    zone c: stack
    play {{
      for x in components(Card) {{ if x.rank <= 4 {{ move x to a }} else {{ move x to b }} }}
      move top(b) to c
      {moves}
    }}
    """


def _sequential(moves):
    """The zones after moving one component at a time, in plain Python (hearts 1-8 are the
    ids 0-7, spades 1-8 the ids 8-15)."""
    zones = {"a": [0, 1, 2, 3, 8, 9, 10, 11], "b": [4, 5, 6, 7, 12, 13, 14], "c": [15]}
    for items, dest, bottom in moves:
        for c in list(items(zones)):
            next(z for z in zones.values() if c in z).remove(c)
            zones[dest].insert(0, c) if bottom else zones[dest].append(c)
    return zones


@pytest.mark.parametrize("moves, python", [
    ("move contents(a) to c", [(lambda z: z["a"], "c", False)]),
    ("move contents(a) to bottom of c", [(lambda z: z["a"], "c", True)]),
    ("move contents(a) + contents(b) to bottom of c", [(lambda z: z["a"] + z["b"], "c", True)]),
    ("move contents(b) + contents(a) to c\n      move contents(c) to bottom of b",
     [(lambda z: z["b"] + z["a"], "c", False), (lambda z: z["c"], "b", True)]),
    ("move [x for x in contents(a) if x.rank != 2] + [x for x in contents(b) if x.rank != 6] to c",
     [(lambda z: [x for x in z["a"] if x % 8 != 1] + [x for x in z["b"] if x % 8 != 5], "c", False)]),
    ("move contents(a) + [top(b), top(a)] to c",            # one component twice
     [(lambda z: z["a"] + [z["b"][-1], z["a"][-1]], "c", False)]),
    ("move contents(a) + contents(c) to bottom of c",       # one already there
     [(lambda z: z["a"] + z["c"], "c", True)]),
    ("move [top(a), top(b), first(contents(a))] to bottom of c",
     [(lambda z: [z["a"][-1], z["b"][-1], z["a"][0]], "c", True)]),
])
def test_moving_a_list_is_moving_each_item_in_turn(tmp_path, moves, python):
    (tmp_path / "many.yaml").write_text(MANY)
    st = make(tmp_path, MOVES.format(moves=moves)).new_state(1)
    zones = _sequential(python)
    assert {k: st.zones[k] for k in "abc"} == zones
    assert all(st.loc[c] == (k, None) for k, z in zones.items() for c in z)


def _first_of_each(items):
    out = []
    for v in items:
        if v not in out:
            out.append(v)
    return out


@pytest.mark.parametrize("items", [
    [3, 1, 3, 2, 1], [], [(1, 2), (0, 0), (1, 2)], [[1], [2], [1], []], ["b", "a", "b"]])
def test_distinct_keeps_the_first_of_equal_values_in_order(items):
    from boardwright.interpreter.run.builtins import IMPLEMENTATIONS
    assert IMPLEMENTATIONS["distinct"](None, None, items) == _first_of_each(items)
