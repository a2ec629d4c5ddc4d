"""Rule coverage (`simulate --coverage`, interpreter/testing/coverage.py) on tiny games whose
counts follow from the rules: what ran, what never moved, and rule errors while counting.
"""
from __future__ import annotations

import textwrap

import pytest

from boardwright.dsl.errors import RuleError
from boardwright.interpreter.compile.load import load_game
from boardwright.interpreter.testing.coverage import coverage_report, format_coverage, measure_coverage


def tokens(n: int) -> str:
    items = "\n".join(f"      - {{value: {i}}}" for i in range(n))
    return f"provenance: test data\ncomponents:\n  Token:\n    attributes: {{value: int}}\n    items:\n{items}\n"


def build(tmp_path, body: str, count: int = 3):
    (tmp_path / "tokens.yaml").write_text(tokens(count))
    path = tmp_path / "g.game"
    path.write_text('game "Tiny"\nplayers 2\ndata "tokens.yaml"\n' + textwrap.dedent(body))
    return load_game(path)


def test_everything_ran_when_every_statement_and_component_did(tmp_path):
    game = build(tmp_path, """\
        zone bag: pile
        zone out: pile
        setup { move components(Token) to bag }
        play { turn 0 { choose t from contents(bag) prompt "Pick" } \n move contents(bag) to out }
        """)
    report = coverage_report(game, measure_coverage(game, [2], games=2, seed=1))
    assert report["games"] == 2
    assert report["statements"]["ran"] == report["statements"]["total"]
    assert report["components_never_moved"] == []
    assert format_coverage(game, report).endswith("  everything ran at least once")


def test_components_never_moved_are_listed_beyond_twenty_as_a_count(tmp_path):
    game = build(tmp_path, """\
        zone bag: pile
        setup { move components(Token) to bag }
        play { turn 0 { choose t from [1, 2] prompt "Pick" } }
        """, count=25)
    text = format_coverage(game, coverage_report(game, measure_coverage(game, [2], games=1, seed=1)))
    # 25 tokens share no label; sorted as text, the first twenty are shown, then "and 5 more"
    assert "components never moved after setup: " in text
    assert text.rstrip().endswith("and 5 more")


def test_a_rule_error_while_counting_is_reported_at_its_line(tmp_path):
    game = build(tmp_path, """\
        play {
          let zero = 0
          log "{1 // zero}"
        }
        """)
    with pytest.raises(RuleError) as info:
        measure_coverage(game, [2], games=1, seed=1)
    diag = info.value.diagnostics[0]
    assert diag.message == "division by zero" and diag.span.line == 6
    assert game.coverage is None        # switched off again after the error
