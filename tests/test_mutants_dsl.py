"""Behaviour of dsl/ that the mutation run found unguarded: argument-type errors of built-ins,
zone option shapes, data-file positions, scenario safety checks, comments shown by `explain`,
the formatter's trailing comments, lint positions, unclosed-bracket hints and param order.

Each expected value comes from docs/language.md, docs/security.md or the rule text written
here, not from the engine's output.
"""
from __future__ import annotations

import textwrap

import pytest

from boardwright.dsl.data import load_data
from boardwright.dsl.describe import declaration_doc, declaration_text
from boardwright.dsl.errors import DataError, RuleFileError, Span
from boardwright.dsl.formatter import format_source
from boardwright.dsl.loader import check_game
from boardwright.interpreter.compile.load import load_game
from boardwright.dsl.parser import parse_text
from boardwright.interpreter.testing.scenario_file import load_scenario

TILES = """\
provenance: test data
components:
  Tile:
    attributes: {value: int}
    items: [{value: 1}, {value: 2}]
"""

HEADER = 'game "Tiny"\nplayers 2\ndata "tiles.yaml"\n'


def game(tmp_path, body: str):
    """A rule file HEADER + body (the body's line 1 is the file's line 4)."""
    (tmp_path / "tiles.yaml").write_text(TILES, encoding="utf-8")
    path = tmp_path / "tiny.game"
    path.write_text(HEADER + textwrap.dedent(body), encoding="utf-8")
    return path


def refusal(load, path):
    """The diagnostics of the DataError that load(path) raises."""
    with pytest.raises(DataError) as info:
        load(path)
    return info.value.diagnostics


def problems(tmp_path, body: str) -> list:
    with pytest.raises(RuleFileError) as info:
        check_game(game(tmp_path, body))
    return info.value.diagnostics


# ----------------------------------------------------------------------------- built-ins
@pytest.mark.parametrize("func", ["size", "empty", "contents"])
def test_a_zone_builtin_given_a_number_names_the_wrong_type(tmp_path, func):
    play = f'play {{ log "{{{func}(3)}}" }}'
    diags = problems(tmp_path, f"zone bag: stack\n{play}\n")
    assert [d.message for d in diags] == [f"{func}(zone): expected a zone, got int"]
    # the caret is under the argument `3` (line 5 of the file)
    assert (diags[0].span.line, diags[0].span.column) == (5, play.index("(3)") + 2)


def test_a_cell_builtin_given_a_number_names_the_wrong_type(tmp_path):
    play = 'play { log "{top_at(board, 3)}" }'
    diags = problems(tmp_path, f"zone board: grid\n{play}\n")
    assert [d.message for d in diags] == ["top_at(grid, cell): expected a cell, got int"]
    assert (diags[0].span.line, diags[0].span.column) == (5, play.index("3") + 1)


# ----------------------------------------------------------------------------- zone options
def test_extent_without_its_height_says_how_to_write_it(tmp_path):
    diags = problems(tmp_path, "zone board: grid extent 3\nplay { }\n")
    assert [d.message for d in diags] == ["option 'extent' takes 'extent W x H'"]


# ----------------------------------------------------------------------------- data files
def test_unknown_attribute_inside_a_product_points_at_its_key(tmp_path):
    path = tmp_path / "tiles.yaml"
    path.write_text(textwrap.dedent("""\
        provenance: x
        components:
          Tile:
            attributes: {value: int}
            items:
              - product:
                  value: [1, 2]
                  valeu: [3, 4]
        """), encoding="utf-8")
    [diag] = refusal(load_data, path)
    assert diag.message == "unknown attribute 'valeu' of Tile"
    assert (diag.span.line, diag.span.column) == (8, 11)


# ----------------------------------------------------------------------------- scenarios
def test_a_scenario_with_a_huge_number_is_refused_before_yaml_reads_it(tmp_path):
    """docs/security.md: a number of more than 1000 digits is refused at its place."""
    path = tmp_path / "s.yaml"
    path.write_text("game: g.game\nseed: " + "7" * 1001 + "\n", encoding="utf-8")
    [diag] = refusal(load_scenario, path)
    assert diag.message == "a number of 1,001 digits: at most 1000 (docs/security.md)"
    assert (diag.span.line, diag.span.column) == (2, 7)


def test_a_deeply_nested_scenario_is_refused(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("game: g.game\nsteps: " + "[" * 150 + "]" * 150 + "\n", encoding="utf-8")
    assert [d.message for d in refusal(load_scenario, path)] == ["the YAML nests more than 100 levels deep"]


# ----------------------------------------------------------------------------- explain / hover
def test_comment_lines_above_a_param_keep_their_order_in_explain(tmp_path):
    from boardwright.cli.explain import explain
    spec, _ = check_game(game(tmp_path, """\
        # first line of the note
        # second line
        # third line
        param goal = 3
        play { log "{goal}" }
        """))
    lines = explain(spec).splitlines()
    assert "  goal = 3  -- first line of the note second line third line" in lines


def test_a_declaration_whose_source_is_unknown_shows_no_text():
    span = Span("never-read.game", 1, 1, 1, 10)
    assert declaration_text(span) == ""

    class Decl:
        pass
    decl = Decl()
    decl.span = span
    assert declaration_doc(decl) == f"\n\n_{span}_"


# ----------------------------------------------------------------------------- formatter
def test_comments_after_the_last_line_of_code_are_kept_at_the_left():
    text = 'game "X"\nplayers 2\n  # the end\n    # really\n'
    assert format_source(text) == 'game "X"\nplayers 2\n# the end\n# really\n'


# ----------------------------------------------------------------------------- lint
def test_an_unused_var_is_marked_at_its_own_name_not_an_earlier_mention(tmp_path):
    path = game(tmp_path, 'var note: str = "total"  var total: int = 0\nplay { log "{note}" }\n')
    spec, _ = check_game(path, warnings=True)
    unused = [w for w in spec.warnings if w.message == "var 'total' is never used"]
    assert len(unused) == 1
    span = unused[0].span
    line = path.read_text().splitlines()[3]
    start = line.index("var total") + len("var ") + 1      # 1-based column of `total` in `var total`
    assert (span.line, span.column, span.end_column) == (4, start, start + len("total"))


# ----------------------------------------------------------------------------- parser
def test_an_escaped_quote_does_not_end_a_string_when_finding_the_unclosed_bracket():
    text = 'play {\n  log "say \\" ( here"\n'
    with pytest.raises(RuleFileError) as info:
        parse_text(text, "u.game")
    [diag] = info.value.diagnostics
    assert diag.hint == "the '{' at line 1, column 6 is never closed"


# ----------------------------------------------------------------------------- param order
def test_params_in_a_circle_through_a_comprehension_element_are_reported(tmp_path):
    diags = problems(tmp_path, """\
        param a = len([b for x in [1, 2]])
        param b = a + 1
        play { }
        """)
    assert sorted(d.message for d in diags) == [
        "param 'a' depends on itself through other params",
        "param 'b' depends on itself through other params"]


def test_a_comprehension_name_is_not_the_param_of_the_same_name(tmp_path):
    game_ = load_game(game(tmp_path, """\
        param a = sum([b * 10 for b in [1, 2, 3]])
        param b = a + 1
        var result: int = 0
        play { result = b }
        """))
    assert game_.new_state(2, seed=1).vars["result"] == 61


# ----------------------------------------------------------------------------- second run
def test_a_component_kind_used_as_a_value_is_marked_where_it_is_written(tmp_path):
    diags = problems(tmp_path, "param p = Tile\nplay { }\n")
    assert [(d.message, d.hint) for d in diags] == [("'Tile' is a component kind", "use components(Tile)")]
    assert (diags[0].span.line, diags[0].span.column, diags[0].span.end_column) == (4, 11, 15)


def test_a_huge_number_in_a_data_file_is_underlined_on_its_own_line(tmp_path):
    path = tmp_path / "tiles.yaml"
    path.write_text("provenance: x\ncomponents:\n  Tile:\n    attributes: {v: int}\n    items:\n"
                    "      - v: " + "9" * 1001 + "\n", encoding="utf-8")
    [diag] = refusal(load_data, path)
    assert diag.message == "a number of 1,001 digits: at most 1000 (docs/security.md)"
    span = diag.span
    assert (span.line, span.column, span.end_line, span.end_column) == (6, 12, 6, 12 + 1001)


def test_a_variant_line_in_a_base_game_must_come_first(tmp_path):
    base = game(tmp_path, 'variant "Other" extends "elsewhere.game"\nplay { }\n')
    variant = tmp_path / "v.game"
    variant.write_text('variant "V" extends "tiny.game"\n', encoding="utf-8")
    with pytest.raises(RuleFileError) as info:
        check_game(variant)
    found = [(d.span.file, d.span.line, d.message) for d in info.value.diagnostics]
    assert (str(base), 4, "'variant' must be the first line of a variant file") in found


def test_a_data_path_longer_than_a_file_name_can_be_is_refused(tmp_path):
    name = "d" * 300 + ".yaml"
    path = tmp_path / "tiny.game"
    path.write_text(f'game "Tiny"\nplayers 2\ndata "{name}"\nplay {{ }}\n', encoding="utf-8")
    with pytest.raises(RuleFileError) as info:
        check_game(path)
    assert [(d.span.line, d.message, d.hint) for d in info.value.diagnostics] == [
        (3, "data file path is too long or not a file name", "name a file in the folder of tiny.game or below it")]
