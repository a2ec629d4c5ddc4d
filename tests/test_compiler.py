"""The compiler to Python source: the line map, the code cache, `compile --emit`, memoised
fns and early-stopping all/any."""
from __future__ import annotations

import os
import warnings

import pytest

from boardwright.cli.main import main
from boardwright.dsl.errors import RuleError
from boardwright.dsl.loader import GAMES_DIR
from boardwright.interpreter.compile import codegen
from conftest import make_small_game as make


def test_a_runtime_error_points_at_its_rule_line_inside_a_block(tmp_path):
    # Four statements run as one generated function; the third fails.
    game = make(tmp_path, """\
        game "Lines"
        players 1
        data "cards.yaml"
        zone deck: stack
        fn pick(n: int) -> Card = first([c for c in components(Card) if c.rank > n])
        play {
          let a = 1
          let b = 2
          let c = pick(a + b)
          let d = 4
        }
        """)
    with pytest.raises(RuleError) as info:
        game.new_state(1)
    diag = info.value.diagnostics[0]
    # the failing line is pick's body (line 5), called from the third statement (line 9)
    assert diag.span.line == 5 and "first of an empty list" in diag.message
    assert info.value.format().splitlines()[3].strip() == f"called from {diag.span.file}:9 (in play)"


def test_a_runtime_error_in_a_score_line_points_at_that_line(tmp_path):
    game = make(tmp_path, """\
        game "Score"
        players 1
        data "cards.yaml"
        zone deck: stack
        play { log "go" }
        score p {
          "fine": 1
          "broken": top(deck).rank
        }
        """)
    st = game.new_state(1)
    with pytest.raises(RuleError) as info:
        game.result(st)
    assert info.value.diagnostics[0].span.line == 8


COUNTING = """\
    game "Counting"
    players 1
    data "cards.yaml"
    param start = {start}
    var total: int = start
    play {{ total += 1 }}
    score p {{ "total": total }}
    """


def test_a_changed_rule_file_is_compiled_afresh(tmp_path, monkeypatch):
    monkeypatch.setenv("BOARDWRIGHT_CACHE", str(tmp_path / "cache"))
    first = make(tmp_path, COUNTING.format(start=1))
    second = make(tmp_path, COUNTING.format(start=10))
    assert first.result(first.new_state(1)).scores == (2,)
    assert second.result(second.new_state(1)).scores == (11,)


def test_the_disk_cache_is_written_and_a_damaged_file_is_ignored(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("BOARDWRIGHT_CACHE", str(cache))
    codegen.forget_compiled()
    make(tmp_path, COUNTING.format(start=3))
    files = list(cache.glob("rules-*"))
    assert files, "nothing was written to the cache"
    for f in files:
        f.write_bytes(b"\x00damaged\xff" * 10)
    codegen.forget_compiled()
    game = make(tmp_path, COUNTING.format(start=3))
    assert game.result(game.new_state(1)).scores == (4,)
    assert all(f.read_bytes()[:1] != b"\x00" for f in files), "the damaged file was not rewritten"


def test_an_unwritable_cache_does_not_stop_a_run(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("BOARDWRIGHT_CACHE", str(blocker / "cache"))
    codegen.forget_compiled()
    game = make(tmp_path, COUNTING.format(start=5))
    assert game.result(game.new_state(1)).scores == (6,)


def test_compile_emit_prints_python_with_rule_lines(capsys):
    assert main(["compile", "punto", "--emit"]) == 0
    out = capsys.readouterr().out
    compile(out, "<emitted>", "exec")           # it is valid Python
    rules = (GAMES_DIR / "punto" / "punto.game").read_text().splitlines()
    line = next(i for i, text in enumerate(rules, 1) if text.startswith("fn placements("))
    header = next(text for text in out.splitlines() if text.startswith("def _F_placements("))
    assert header.endswith(f"# punto.game:{line}")
    assert "def b_play_round_" in out


def test_compile_without_emit_summarises(capsys):
    assert main(["compile", "punto"]) == 0
    assert capsys.readouterr().out.startswith("ok: Punto: ")


MEMO = """\
game "Memo"
players 1
data "cards.yaml"
zone deck: stack
zone hand: pile
var bonus: int = 0
fn held() -> int = len([c for c in contents(hand) if c.rank > 0]) + bonus
setup { for c in components(Card) { move c to deck } }
play {
  log "{held()}"
  move top(deck) to hand
  log "{held()}"
  bonus = 10
  log "{held()}"
  turn 0 { log "{held()}" }
  choose x from [1, 2]
}
"""


def test_memoised_fns_see_every_change(tmp_path):
    game = make(tmp_path, MEMO)
    st = game.new_state(1)
    assert st.log == ["0", "1", "11", "11"]
    game.namespace["_F_held"](st)       # memoised now
    st.vars["bonus"] = 20               # an edit from outside (a scenario) between runs
    game.run(st)                        # a run starts from a clean memo
    assert game.namespace["_F_held"](st) == 21


def test_memo_is_used_while_nothing_changes(tmp_path):
    game = make(tmp_path, MEMO)
    st = game.new_state(1)
    st.memo.clear()
    fn = game.namespace["_F_held"]
    assert fn(st) == 11 and st.memo, "a looping fn is memoised"
    st.memo["held"][()] = 99            # planted: a memoised value is returned as is
    assert fn(st) == 99


def test_all_and_any_stop_at_the_first_deciding_element(tmp_path):
    # Evaluating the second element would divide by zero.
    game = make(tmp_path, """\
        game "Early"
        players 1
        data "cards.yaml"
        zone deck: stack
        play {
          log "{all(10 // c < 5 for c in [1, 0])}"
          log "{any(10 // c > 5 for c in [1, 0])}"
        }
        """)
    st = game.new_state(1)
    assert st.log == ["no", "yes"]


def test_an_inlined_fn_indexed_by_a_literal_argument_compiles_without_warnings(tmp_path, monkeypatch, capsys):
    # `pick` is small enough to be inlined: its index becomes the literal 2 in place; a guard
    # `2 is not None` would make Python print a SyntaxWarning to the user.
    monkeypatch.setenv("BOARDWRIGHT_CACHE", "")
    codegen.forget_compiled()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        game = make(tmp_path, """\
            game "Literal"
            players 1
            data "cards.yaml"
            zone deck: stack
            fn pick(xs: list of int, k: int) -> int = xs[k]
            play { log "{pick([5, 6, 7], 2)} {pick([5, 6, 7], 0)}" }
            """)
    assert game.new_state(1).log == ["7 5"]
    # the premise: `pick` was inlined, so the literal reached the index
    assert main(["compile", str(tmp_path / "g.game"), "--emit"]) == 0
    emitted = capsys.readouterr().out
    assert "def b_play_" in emitted and emitted.count("_F_pick(") == 1, "pick is called, not inlined"
