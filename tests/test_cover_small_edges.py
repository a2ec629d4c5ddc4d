"""Small promises of the interpreter's helpers: `+` of numbers that reach the list/text
helper, a state compared with something else, the ladder's progress callback."""
from __future__ import annotations

from boardwright.interpreter.run import limits
from boardwright.interpreter.playtest.ladder import play_ladder
from boardwright.interpreter.run.state import State
from conftest import cached_game


def test_concat_adds_numbers_as_numbers():
    # `a + b` whose operands the checker could not type (any) reaches limits.concat.
    assert limits.concat(2, 3) == 5
    assert limits.concat([1], [2, 3]) == [1, 2, 3]
    assert limits.concat("ab", "c") == "abc"


def test_a_state_is_never_equal_to_another_kind_of_value():
    st = cached_game("punto").new_state(2, seed=1)
    assert st != 3 and st != {"players": 2}
    assert st == st.copy()
    assert State.__eq__(st, 3) is NotImplemented


def test_the_ladder_reports_each_finished_pairing():
    calls = []
    result = play_ladder(cached_game("punto"), ["random", "greedy"], games=2, seed=1,
                         progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 1)]                        # two bots: one pairing
    assert result["pairs"][0]["games"] == 2
