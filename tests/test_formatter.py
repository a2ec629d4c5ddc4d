"""`boardwright fmt`: one canonical layout, comments kept, idempotent, the tree unchanged."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from boardwright.cli.main import main
from boardwright.dsl.errors import RuleFileError
from boardwright.dsl.formatter import format_checked, format_source, strip_spans
from boardwright.dsl.loader import GAMES_DIR
from boardwright.dsl.parser import parse_text

from conftest import examples

BUNDLED = sorted(GAMES_DIR.rglob("*.game")) + sorted((GAMES_DIR.parent / "docs" / "examples").rglob("*.game"))
QUICK = settings(max_examples=examples(40))


def _comments(text: str) -> list[str]:
    return [m.group().rstrip() for line in text.splitlines() for m in re.finditer(r'#[^\n]*', _no_strings(line))]


def _no_strings(line: str) -> str:
    return re.sub(r'"([^"\\\n]|\\.)*"', '""', line)


@pytest.mark.slow
@pytest.mark.parametrize("path", BUNDLED, ids=[f"{p.parent.name}/{p.name}" for p in BUNDLED])
def test_every_bundled_file_is_in_the_canonical_layout(path):
    text = path.read_text(encoding="utf-8")
    assert format_checked(text, str(path)) == text, "run: boardwright fmt games"


@pytest.mark.slow
@pytest.mark.parametrize("path", BUNDLED, ids=[f"{p.parent.name}/{p.name}" for p in BUNDLED])
def test_formatting_keeps_the_tree_and_every_comment(path):
    text = path.read_text(encoding="utf-8")
    messy = "\n\n" + "\n".join("   " + (line if "#" in line or '"' in line else
                                       line.replace(", ", " ,   ").replace("(", "( ")) + "   "
                               for line in text.splitlines()) + "\n\n\n"
    formatted = format_source(messy)
    assert strip_spans(parse_text(formatted).items) == strip_spans(parse_text(text).items)
    assert _comments(formatted) == _comments(text)
    assert formatted == text            # the bundled files are canonical, so all the mess goes


def test_layout_rules_on_a_small_file():
    messy = ('game   "X"\nplayers 2 .. 4\n\n\n\nparam  n=case player_count{2:5 else:4}# five\n'
             'zone  city : grid size 5 x 5 blocked(2,2)  per player\n'
             'fn f( p :player )->int=\n- n+(p*2)\n'
             'setup {\n\n  for p in players{ log "{p}" }\n      let x = [ 1 ,2 ][ 0 ]\n\n}\n')
    expected = ('game "X"\nplayers 2..4\n\nparam n = case player_count { 2: 5 else: 4 }  # five\n'
                'zone city: grid size 5 x 5 blocked (2, 2) per player\n'
                'fn f(p: player) -> int =\n  - n + (p * 2)\n'
                'setup {\n  for p in players { log "{p}" }\n  let x = [1, 2][0]\n}\n')
    assert format_source(messy) == expected
    assert format_source(expected) == expected


def test_continuation_and_bracket_indentation():
    text = ('invariant "i":\n        all(x > 0\n for x in [1,\n 2]) and\n true\n'
            'setup {\n  choose c from [1, 2]\n prompt "which?"\n  move c to top of\n deck\n}\n')
    assert format_source(text) == ('invariant "i":\n  all(x > 0\n      for x in [1,\n        2]) and\n  true\n'
                                   'setup {\n  choose c from [1, 2]\n    prompt "which?"\n'
                                   '  move c to top of\n    deck\n}\n')


def test_slices_and_fn_blocks():
    text = "fn f(xs: list of int) -> int {\nlet a = xs[ 1 : ]\n  return len(a[:2]+xs[a[0] : len(xs)])\n}\n"
    assert format_source(text) == ("fn f(xs: list of int) -> int {\n  let a = xs[1:]\n"
                                   "  return len(a[:2] + xs[a[0]:len(xs)])\n}\n")
    assert format_source('score p, lowest wins { "x": case p { 0: 1 else: 2 } }\n') == \
        'score p, lowest wins { "x": case p { 0: 1 else: 2 } }\n'


def test_unary_and_binary_signs():
    assert format_source("param a = -1 - -2\nparam b = [ - 1, 3 *-a ]\n") == \
        "param a = -1 - -2\nparam b = [-1, 3 * -a]\n"
    # An attribute named like a keyword (`x` of `size 6 x 6`) still ends a value: binary minus.
    assert format_source("param c = (2 * b.x - a.x, b.y -a.y)\n") == \
        "param c = (2 * b.x - a.x, b.y - a.y)\n"
    # A name `x` ends a value too (a sign after it is binary, a bracket an index); `x` is the
    # `by` of a size only after a value.
    assert format_source("fn f(x: int) -> int = x + -x[0] + g(x, -1)\n") == \
        "fn f(x: int) -> int = x + -x[0] + g(x, -1)\n"
    assert format_source("zone board: grid of int size side x -1\n") == \
        "zone board: grid of int size side x -1\n"


def test_a_syntax_error_is_reported_not_formatted(tmp_path, capsys):
    bad = tmp_path / "bad.game"
    bad.write_text('game "X"\nzone hand pile\n', encoding="utf-8")
    assert main(["fmt", str(bad)]) == 1
    assert "bad.game:2:" in capsys.readouterr().err
    assert bad.read_text(encoding="utf-8") == 'game "X"\nzone hand pile\n'


def test_fmt_command_check_diff_and_write(tmp_path, capsys):
    path = tmp_path / "g.game"
    path.write_text('game "X"\nparam  a=1\n', encoding="utf-8")
    assert main(["fmt", "--check", str(tmp_path)]) == 1
    assert f"not formatted: {path}" in capsys.readouterr().out
    assert main(["fmt", "--diff", str(path)]) == 1
    out = capsys.readouterr().out
    assert "-param  a=1" in out and "+param a = 1" in out
    assert path.read_text(encoding="utf-8") == 'game "X"\nparam  a=1\n'
    assert main(["fmt", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == 'game "X"\nparam a = 1\n'
    assert main(["fmt", "--check", str(path)]) == 0
    assert main(["fmt", str(tmp_path / "missing.game")]) == 2


# ----------------------------------------------------------------------------- Hypothesis
_names = st.sampled_from(["a", "b", "n", "player_count"])
_leaves = st.one_of(st.integers(0, 99).map(str), _names, st.just('"t{a}"'), st.just("none"))


def _exprs():
    return st.recursive(_leaves, lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*", "//", "%", "==", "<", ">=", "and", "or", "in"]), inner)
          .map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(st.sampled_from(["-", "not "]), inner).map(lambda t: f"{t[0]}{t[1]}"),
        st.lists(inner, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.tuples(inner, inner).map(lambda t: f"max({t[0]}, {t[1]})"),
        st.tuples(inner, inner).map(lambda t: f"({t[0]}, {t[1]})"),
        st.tuples(inner, inner, inner).map(lambda t: f"if {t[0]} then {t[1]} else {t[2]}"),
        st.tuples(inner, inner).map(lambda t: f"[{t[0]} for a in {t[1]} if a]"),
        st.tuples(inner, st.sampled_from(["x", "y"])).map(lambda t: f"{t[0]}.{t[1]}"),
        st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]"),
        st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}:]"),
        st.tuples(inner, inner).map(lambda t: f"{t[0]}[:{t[1]}]"),
        st.tuples(inner, inner, inner).map(lambda t: f"[{t[0]} for a in {t[1]} for b in {t[2]} if b]"),
    ), max_leaves=8)


@pytest.mark.slow
@QUICK
@given(_exprs(), st.lists(st.sampled_from(["", " ", "  ", "\n"]), min_size=40, max_size=40),
       st.booleans())
def test_generated_files_keep_their_tree_and_reach_a_fixed_point(expr, gaps, comment):
    # Scatter spaces and line breaks between the tokens of a valid file (never inside a token).
    tokens = re.findall(r'"[^"]*"|\.\.|->|==|!=|<=|>=|//|\w+|\S', expr)
    messy = "param a = 1\nparam b = 2\nparam n = 3\nparam e =" + "".join(
        (gaps[i % len(gaps)] or " ") + tok for i, tok in enumerate(tokens))
    messy += ("   # a comment\n" if comment else "\n")
    try:
        parse_text(messy)
    except RuleFileError:
        return                              # e.g. `a.x` where a is not a component: not a layout matter
    formatted = format_checked(messy)
    assert format_source(formatted) == formatted
    assert strip_spans(parse_text(formatted).items) == strip_spans(parse_text(messy).items)
    assert ("# a comment" in formatted) == comment
