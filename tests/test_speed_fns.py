"""Faster fns: params read once where a fn starts, small fns inlined with computed arguments,
`all`/`any` bodies as Python loops, the memo kept when a turn begins, and the limits that
still hold. Each test checks the result against plain Python or a rule error."""
from __future__ import annotations

import pytest

from boardwright.dsl.errors import RuleError
from conftest import make_small_game as make

PARAMS = """\
    game "Params"
    players 1
    data "cards.yaml"
    param side = 3
    param cells = [(0, 0), (1, 2), (2, 1)]
    var seen: list of int = []
    fn square(x: int, y: int) -> int = y * side + x
    fn inside(x: int, y: int) -> bool = x >= 0 and y >= 0 and x < side and y < side
    fn all_inside(cs: list of cell, dx: int) -> bool = all(inside(c.x + dx, c.y) for c in cs)
    fn any_inside(cs: list of cell, dx: int) -> bool = any(inside(c.x + dx, c.y) for c in cs if c.y > 0)
    play {
      seen = [square(i + 1, i * 2) for i in range(3)] + [side]
        + [if all_inside(cells, d) then 1 else 0 for d in [-1, 0, 1]]
        + [if any_inside(cells, d) then 1 else 0 for d in [-3, -2, 2, 5]]
    }
    """


def _params_in_python(side: int) -> list:
    cells = [(0, 0), (1, 2), (2, 1)]

    def inside(x, y):
        return 0 <= x < side and 0 <= y < side
    return ([(i * 2) * side + i + 1 for i in range(3)] + [side]
            + [int(all(inside(x + d, y) for x, y in cells)) for d in (-1, 0, 1)]
            + [int(any(inside(x + d, y) for x, y in cells if y > 0)) for d in (-3, -2, 2, 5)])


def test_fns_read_params_once_and_follow_set_overrides(tmp_path):
    game = make(tmp_path, PARAMS)
    source = game.generated.source
    assert "_p_side = st.vars['side']" in source     # read once, where the fn starts
    assert game.new_state(1).vars["seen"] == _params_in_python(3)
    game.set_params({"side": "5"})
    assert game.new_state(1).vars["seen"] == _params_in_python(5)
    game.param_overrides.clear()
    assert game.new_state(1).vars["seen"] == _params_in_python(3)


def test_a_param_edited_in_the_state_is_what_fns_read(tmp_path):
    # scenario files write params into st.vars before play runs
    game = make(tmp_path, PARAMS)
    st = game.setup_state(1, 1)
    st.vars["side"] = 4
    game.start(st)
    assert st.vars["seen"] == _params_in_python(4)


def test_all_and_any_bodies_are_python_loops(tmp_path):
    game = make(tmp_path, PARAMS)
    source = game.generated.source
    body = source[source.index("def _F_all_inside"):source.index("def _F_any_inside")]
    assert "for " in body and "return False" in body and "all(" not in body
    assert "_F_inside(" not in body             # inlined, its arguments in plain locals


COUNTED = """\
    game "Counted"
    players 1
    data "cards.yaml"
    var calls: int = 0
    var out: list of int = []
    fn twice(a: int, b: int) -> int = a + a + b + b
    fn pick(l: list of int) -> int = l[0] + l[0]
    fn use(k: int) -> int = twice(k + 1, k * 3) + pick(shuffled([k, k, k]))
    play {
      out = [use(1), use(2)]
    }
    """


def test_a_small_fn_with_computed_arguments_works_each_out_once(tmp_path):
    game = make(tmp_path, COUNTED)
    source = game.generated.source
    use = source[source.index("def _F_use"):]
    use = use[:use.index("\n")] + use[use.index("\n"):].split("\ndef ")[0]
    assert "_F_twice(" not in use and "_F_pick(" not in use       # inlined
    assert use.count("_B_shuffled(") == 1                            # drawn once
    st = game.new_state(1, 3)
    assert st.vars["out"] == [2 * 2 + 2 * 3 + 2, 2 * 3 + 2 * 6 + 4]
    # the same random numbers as a call would draw: one shuffle per use
    again = game.new_state(1, 3)
    assert again.rng == st.rng


TURNS = """\
    game "Turns"
    players 2
    data "cards.yaml"
    var seen: list of int = []
    var played: list of int = []
    fn mine() -> list of int = [p for p in players if p == current]
    fn counted() -> list of int = [turns_played(p) for p in players]
    play {{
      for p in players {{
        turn p {{
          seen = seen + mine()
          played = played + counted()
        }}
      }}
      {finish}
    }}
    """


def test_a_turn_forgets_memoised_fns_that_read_current_or_turns(tmp_path):
    game = make(tmp_path, TURNS.format(finish=""))
    assert "_begin_turn(st" in game.generated.source
    st = game.new_state(2)
    assert st.vars["seen"] == [0, 1]
    assert st.vars["played"] == [1, 0, 1, 1]


def test_a_turn_keeps_the_memo_when_no_memoised_fn_reads_the_turn(tmp_path):
    game = make(tmp_path, """\
        game "Keep"
        players 2
        data "cards.yaml"
        zone pile: pile of Card
        var seen: list of int = []
        fn held() -> list of int = [c.rank for c in contents(pile)]
        play {
          for p in players {
            turn p {
              seen = seen + [len(held())]
              move components(Card)[p] to pile
            }
          }
        }
        """)
    assert "_begin_turn_keeping(st" in game.generated.source
    assert game.new_state(2).vars["seen"] == [0, 1]       # a move still forgets


@pytest.mark.parametrize("param", ["side * side", "[side][0]"])
def test_a_product_with_a_computed_param_is_still_checked(tmp_path, param):
    game = make(tmp_path, f"""\
        game "Limits"
        players 1
        data "cards.yaml"
        param side = 7
        param big = {param}
        var x: int = 3
        play {{
          for i in range(2000) {{ x = x * big }}
        }}
        """)
    with pytest.raises(RuleError) as info:
        game.new_state(1)
    assert "more than 1,000 digits" in info.value.diagnostics[0].message


def test_a_product_with_a_written_param_is_not_checked(tmp_path):
    game = make(tmp_path, """\
        game "Written"
        players 1
        data "cards.yaml"
        param side = 7
        var x: int = 3
        fn square(x: int, y: int) -> int = y * side + x
        play { x = square(x, 2) }
        """)
    assert "_multiply" not in game.generated.source.split("def _F_square")[1].split("\n")[2]
    assert game.new_state(1).vars["x"] == 17
    game.set_params({"side": "999999999999999999"})     # --set: at most 18 digits
    assert game.new_state(1).vars["x"] == 2 * 999999999999999999 + 3


def test_a_large_range_in_a_fn_still_hits_the_limit(tmp_path):
    game = make(tmp_path, """\
        game "Range"
        players 1
        data "cards.yaml"
        param side = 7
        var n: int = 0
        fn cells() -> list of int = [i for i in range(side * side * side)]
        play { n = len(cells()) }
        """)
    assert game.new_state(1).vars["n"] == 343
    game.set_params({"side": "200"})
    with pytest.raises(RuleError) as info:
        game.new_state(1)
    assert "the limit of docs/security.md" in info.value.diagnostics[0].message
