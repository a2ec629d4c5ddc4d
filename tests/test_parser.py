"""The parser: rule-file text to AST nodes with spans, and syntax errors with positions."""
from __future__ import annotations

import pytest

from boardwright.dsl import ast
from boardwright.dsl.errors import RuleFileError
from boardwright.dsl.parsed import parse_file
from boardwright.dsl.parser import parse_text

FILE = "test.game"


def items(text: str) -> tuple:
    return parse_text(text, FILE).items


def one(text: str):
    (item,) = items(text)
    return item


def expr(text: str):
    """Parse one expression, as the value of a param."""
    return one(f"param x = {text}").value


def stmts(body: str) -> tuple:
    return one("play {\n" + body + "\n}").body


def stmt(body: str):
    (s,) = stmts(body)
    return s


def syntax_error(text: str):
    with pytest.raises(RuleFileError) as info:
        parse_text(text, FILE)
    (diag,) = info.value.diagnostics
    return diag


def where(node) -> tuple:
    return node.span.line, node.span.column, node.span.end_line, node.span.end_column


# ----------------------------------------------------------------------------- declarations
def test_module_keeps_its_source_and_file():
    module = parse_text('game "G"\n', FILE)
    assert isinstance(module, ast.Module)
    assert module.source == 'game "G"\n'
    assert module.span.file == FILE


def test_empty_file_has_no_items():
    assert items("") == ()
    assert items("# only a comment\n\n") == ()


def test_game_and_variant():
    game, variant = items('game "Punto Deluxe"\nvariant "Team" extends "base.game"')
    assert game == ast.GameDecl(game.span, "Punto Deluxe")
    assert isinstance(variant, ast.VariantDecl)
    assert (variant.title, variant.base) == ("Team", "base.game")
    assert where(variant) == (2, 1, 2, 35)


def test_players_single_and_range():
    single, ranged = items("players 4\nplayers 2..5")
    assert (single.minimum, single.maximum) == (4, 4)
    assert (ranged.minimum, ranged.maximum) == (2, 5)


def test_data_and_enum():
    data, enum, trailing = items('data "cards.yaml"\nenum Suit { hearts, spades }\nenum One { a, }')
    assert data.path == "cards.yaml"
    assert isinstance(enum, ast.EnumDecl)
    assert (enum.name, enum.members) == ("Suit", ("hearts", "spades"))
    assert trailing.members == ("a",)


def test_param():
    param = one("param limit = 3")
    assert isinstance(param, ast.ParamDecl)
    assert param.name == "limit"
    assert param.value == ast.Literal(param.value.span, 3)


def test_zone_kind_and_holds():
    zone = one("zone deck: stack of Card hidden")
    assert isinstance(zone, ast.ZoneDecl)
    assert (zone.name, zone.kind, zone.holds) == ("deck", "stack", "Card")
    assert where(zone)[:2] == (1, 1)
    assert (zone.kind_span.line, zone.kind_span.column, zone.kind_span.end_column) == (1, 12, 17)
    assert [o.name for o in zone.options] == ["hidden"]


def test_zone_without_holds_or_options():
    zone = one("zone out: pile")
    assert zone.holds is None
    assert zone.options == ()


def test_zone_options_of_every_shape():
    zone = one("zone board: grid stacked extent 6 x 6 blocked (-1, 2) limit 5 per player")
    options = [(o.name, o.values) for o in zone.options]
    assert options == [("stacked", ()), ("extent", (6, 6)), ("blocked", (-1, 2)), ("limit", (5,)),
                       ("per player", ())]
    assert all(isinstance(o, ast.ZoneOption) for o in zone.options)
    extent = zone.options[1]
    assert (extent.span.column, extent.span.end_column) == (26, 38)


def test_var_with_type_per_and_initial_value():
    plain, per, listed, bare = items(
        "var round: int = 0\nvar wins: int per player = 0\nvar marks: list of list of cell\nvar owner: player per Card")
    assert isinstance(plain, ast.VarDecl)
    assert plain.type == ast.TypeRef(plain.type.span, "int")
    assert plain.per is None and plain.init.value == 0
    assert per.per == "player"
    assert isinstance(listed.type, ast.ListTypeRef)
    assert isinstance(listed.type.element, ast.ListTypeRef)
    assert listed.type.element.element.name == "cell"
    assert listed.init is None
    assert (bare.per, bare.init) == ("Card", None)


def test_fn_with_and_without_return_type():
    typed, untyped = items("fn add(a: int, b: int) -> int = a + b\nfn zero() = 0")
    assert isinstance(typed, ast.FnDecl)
    assert [(p.name, p.type.name) for p in typed.params] == [("a", "int"), ("b", "int")]
    assert all(isinstance(p, ast.Param) for p in typed.params)
    assert typed.returns.name == "int"
    assert isinstance(typed.body, ast.Binary)
    assert untyped.params == () and untyped.returns is None
    assert untyped.body.value == 0


def test_proc_setup_and_play():
    proc, setup, play = items("proc deal(p: player) { shuffle deck }\nsetup { finish }\nplay { }")
    assert isinstance(proc, ast.ProcDecl)
    assert proc.name == "deal" and proc.params[0].name == "p"
    assert isinstance(proc.body[0], ast.Shuffle)
    assert isinstance(setup, ast.SetupDecl) and isinstance(setup.body[0], ast.Finish)
    assert isinstance(play, ast.PlayDecl) and play.body == ()
    assert where(play) == (3, 1, 3, 9)


def test_score_tiebreak_winners_invariant():
    score, tiebreak, winners, invariant = items(
        'score p { "Rounds": wins[p], "Bonus": 1 }\n'
        'tiebreak q { "Cards": 0 }\n'
        "winners = [p for p in players]\n"
        'invariant "never negative": true')
    assert isinstance(score, ast.ScoreDecl)
    assert (score.kind, score.var) == ("score", "p")
    assert [line.title for line in score.lines] == ["Rounds", "Bonus"]
    assert isinstance(score.lines[0].value, ast.Index)
    assert (tiebreak.kind, tiebreak.var) == ("tiebreak", "q")
    assert isinstance(winners, ast.WinnersDecl) and isinstance(winners.value, ast.ListComp)
    assert isinstance(invariant, ast.InvariantDecl)
    assert invariant.title == "never negative" and invariant.value.value is True


def test_heuristic_label_and_opponent():
    heuristic, label, opponent = items(
        'heuristic p = 2 * wins[p]\nlabel c: Card = "{c.value}"\nopponent "The bot" { "Base": 3 }')
    assert isinstance(heuristic, ast.HeuristicDecl)
    assert heuristic.var == "p" and heuristic.value.op == "*"
    assert isinstance(label, ast.LabelDecl)
    assert (label.var, label.kind) == ("c", "Card")
    assert isinstance(label.value, ast.Text) and label.value.parts[0].name == "value"
    assert isinstance(opponent, ast.OpponentDecl)
    assert opponent.title == "The bot"
    assert [(line.title, line.value.value) for line in opponent.lines] == [("Base", 3)]


def test_comments_are_ignored_and_lines_still_count():
    param = one("# a comment\n\nparam a = 1   # trailing\n")
    assert where(param)[:2] == (3, 1)


# ----------------------------------------------------------------------------- statements
def test_let_and_assignments():
    let, assign, add, sub, indexed = stmts("let x = 1\nx = 2\nx += 3\nx -= 4\nwins[p] += 1")
    assert isinstance(let, ast.Let) and (let.name, let.value.value) == ("x", 1)
    assert [(a.name, a.op, a.index) for a in (assign, add, sub)] == [("x", "=", None), ("x", "+=", None),
                                                                      ("x", "-=", None)]
    assert isinstance(indexed, ast.Assign) and indexed.op == "+="
    assert indexed.index == ast.Name(indexed.index.span, "p")
    assert where(indexed) == (6, 1, 6, 13)


def test_call_statement():
    call = stmt("deal(p, 2)")
    assert isinstance(call, ast.CallStmt)
    assert call.name == "deal"
    assert [type(a) for a in call.args] == [ast.Name, ast.Literal]
    assert stmt("reset()").args == ()


def test_if_elif_else():
    s = stmt("if a { finish } elif b { break } elif c { } else { continue }")
    assert isinstance(s, ast.If)
    assert [c.id for c, _ in s.branches] == ["a", "b", "c"]
    assert isinstance(s.branches[0][1][0], ast.Finish)
    assert isinstance(s.branches[1][1][0], ast.Break)
    assert s.branches[2][1] == ()
    assert isinstance(s.orelse[0], ast.Continue)
    assert stmt("if a { }").orelse is None


def test_for_with_and_without_condition():
    plain, filtered = stmts("for p in players { }\nfor c in hand if c.value > 2 { log \"x\" }")
    assert isinstance(plain, ast.For)
    assert (plain.var, plain.iterable.id, plain.condition, plain.body) == ("p", "players", None, ())
    assert isinstance(filtered.condition, ast.Binary) and filtered.condition.op == ">"
    assert isinstance(filtered.body[0], ast.Log)


def test_while_and_turn():
    loop, turn = stmts("while not done { }\nturn next(p) { return }")
    assert isinstance(loop, ast.While) and isinstance(loop.condition, ast.Unary)
    assert isinstance(turn, ast.Turn)
    assert isinstance(turn.player, ast.Call) and turn.player.func == "next"
    assert isinstance(turn.body[0], ast.Return)


def test_move_forms():
    plain, top, bottom, at = stmts(
        "move c to deck\nmove c to top of deck\nmove c to bottom of deck[p]\nmove card to table at (1, -2)")
    assert all(isinstance(m, ast.Move) for m in (plain, top, bottom, at))
    assert (plain.position, plain.at) == ("top", None)
    assert top.position == "top"
    assert bottom.position == "bottom" and isinstance(bottom.dest, ast.Index)
    assert isinstance(at.at, ast.CellLit)
    assert isinstance(at.at.y, ast.Unary) and at.at.y.op == "-"


def test_shuffle_and_choose():
    shuffle, choose, bare = stmts(
        'shuffle deck[p]\nchoose spot from cells by p prompt "Place {card}" label "{spot}"\nchoose x from xs')
    assert isinstance(shuffle, ast.Shuffle) and isinstance(shuffle.zone, ast.Index)
    assert isinstance(choose, ast.Choose)
    assert (choose.var, choose.source.id, choose.by.id) == ("spot", "cells", "p")
    assert isinstance(choose.prompt, ast.Text) and choose.prompt.parts[0] == "Place "
    assert isinstance(choose.label.parts[0], ast.Name)
    assert (bare.by, bare.prompt, bare.label) == (None, None, None)


def test_simple_statements():
    kinds = [type(s) for s in stmts('break\ncontinue\nreturn\nfinish\nlog "hi"\nfail "no {x}"')]
    assert kinds == [ast.Break, ast.Continue, ast.Return, ast.Finish, ast.Log, ast.Fail]
    fail = stmts('fail "no {x}"')[0]
    assert fail.text.parts[0] == "no " and fail.text.parts[1].id == "x"


# ----------------------------------------------------------------------------- expressions
def test_literals():
    assert expr("42") == ast.Literal(expr("42").span, 42)
    assert expr("true").value is True
    assert expr("false").value is False
    assert expr("none").value is None
    text = expr('"a \\"b\\"\\n"')
    assert isinstance(text, ast.Text) and text.parts == ('a "b"\n',)
    assert expr('""').parts == ()


def test_multiplication_binds_tighter_than_addition():
    e = expr("1 + 2 * 3")
    assert isinstance(e, ast.Binary) and e.op == "+"
    assert e.left.value == 1
    assert isinstance(e.right, ast.Binary) and e.right.op == "*"


def test_subtraction_is_left_associative():
    e = expr("10 - 3 - 2")
    assert e.op == "-" and isinstance(e.left, ast.Binary) and e.right.value == 2
    assert (e.left.left.value, e.left.right.value) == (10, 3)


def test_unary_minus_binds_tighter_than_multiplication():
    e = expr("-a * 2")
    assert e.op == "*" and isinstance(e.left, ast.Unary) and e.left.op == "-"


def test_floor_division_and_modulo():
    e = expr("a // 2 % 3")
    assert e.op == "%" and e.left.op == "//"


def test_comparison_binds_looser_than_arithmetic():
    e = expr("a + 1 <= b * 2")
    assert e.op == "<=" and e.left.op == "+" and e.right.op == "*"


def test_boolean_precedence():
    e = expr("a or b and not c == d")
    assert e.op == "or" and e.left.id == "a"
    right = e.right
    assert right.op == "and" and right.left.id == "b"
    assert isinstance(right.right, ast.Unary) and right.right.op == "not"
    assert right.right.operand.op == "=="


def test_membership():
    e = expr("x in xs and y not in ys")
    assert e.op == "and"
    assert (e.left.op, e.right.op) == ("in", "not in")


def test_parentheses_override_precedence():
    e = expr("(1 + 2) * 3")
    assert e.op == "*" and e.left.op == "+"
    assert isinstance(expr("(1)"), ast.Literal)


def test_postfix_chain():
    e = expr("top(deck[p]).value")
    assert isinstance(e, ast.Attribute) and e.name == "value"
    assert isinstance(e.obj, ast.Call) and e.obj.func == "top"
    index = e.obj.args[0]
    assert isinstance(index, ast.Index) and index.obj.id == "deck" and index.index.id == "p"
    nested = expr("a[0][1]")
    assert isinstance(nested.obj, ast.Index) and nested.index.value == 1


def test_conditional_expression():
    e = expr("if a > 1 then 2 else 3")
    assert isinstance(e, ast.Conditional)
    assert e.test.op == ">"
    assert (e.then.value, e.orelse.value) == (2, 3)


def test_conditional_nests_in_else():
    e = expr("if a then 1 else if b then 2 else 3")
    assert isinstance(e.orelse, ast.Conditional)
    assert e.orelse.orelse.value == 3


def test_cell_and_list_literals():
    cell = expr("(1, y + 1)")
    assert isinstance(cell, ast.CellLit) and cell.x.value == 1 and cell.y.op == "+"
    lst = expr("[1, 2, 3]")
    assert isinstance(lst, ast.ListLit) and [i.value for i in lst.items] == [1, 2, 3]
    assert expr("[]") == ast.ListLit(expr("[]").span, ())


def test_list_comprehension():
    e = expr("[c.value * 2 for c in hand if c.value > 1]")
    assert isinstance(e, ast.ListComp)
    assert e.var == "c" and e.iterable.id == "hand"
    assert e.element.op == "*"
    assert e.condition.op == ">"
    assert expr("[c for c in hand]").condition is None


def test_generator_call_wraps_a_comprehension():
    e = expr("sum(c.value for c in hand if c.colour == red)")
    assert isinstance(e, ast.Call) and e.func == "sum"
    (comp,) = e.args
    assert isinstance(comp, ast.ListComp)
    assert (comp.var, comp.iterable.id) == ("c", "hand")
    assert comp.condition.op == "=="
    assert expr("all(x for x in xs)").args[0].condition is None


def test_calls():
    e = expr("max(1, 2, 3)")
    assert isinstance(e, ast.Call) and len(e.args) == 3
    assert expr("players_left()").args == ()


def test_case_with_default():
    e = expr('case player_count { 2: 5, 3: 4 else: 3 }')
    assert isinstance(e, ast.Case)
    assert e.subject.id == "player_count"
    assert [(k.value, v.value) for k, v in e.arms] == [(2, 5), (3, 4)]
    assert e.default.value == 3


def test_case_without_default():
    e = expr("case c { red: 1 blue: 2 }")
    assert [k.id for k, _ in e.arms] == ["red", "blue"]
    assert e.default is None


# ----------------------------------------------------------------------------- spans
def test_expression_spans():
    param = one("param total =\n  a + b * 3")
    e = param.value
    assert where(e) == (2, 3, 2, 12)
    assert where(e.left) == (2, 3, 2, 4)
    assert where(e.right) == (2, 7, 2, 12)
    assert where(param) == (1, 1, 2, 12)


def test_statement_spans():
    loop = stmt("  for p in players {\n    log \"x\"\n  }")
    assert where(loop) == (2, 3, 4, 4)
    assert where(loop.body[0]) == (3, 5, 3, 12)


def test_placeholder_spans_point_into_the_string():
    log = stmt('  log "a {p} b {p} c {q + 1}"')
    text = log.text
    assert where(text) == (2, 7, 2, 30)
    first, second, third = (p for p in text.parts if not isinstance(p, str))
    assert where(first) == (2, 11, 2, 12)
    assert where(second) == (2, 17, 2, 18)     # the second {p}, not the first again
    assert isinstance(third, ast.Binary)
    assert where(third) == (2, 23, 2, 28)
    assert where(third.right) == (2, 27, 2, 28)
    assert text.parts[0::2] == ("a ", " b ", " c ")


def test_placeholder_expressions_are_full_expressions():
    text = expr('"{top(deck[p]).value} and {if a then 1 else 2}"')
    attr, cond = text.parts[0], text.parts[2]
    assert isinstance(attr, ast.Attribute) and attr.name == "value"
    assert isinstance(cond, ast.Conditional)


# ----------------------------------------------------------------------------- syntax errors
def test_unclosed_brace_at_end_of_file():
    diag = syntax_error('game "X"\nplay {\n  for p in players {\n    log "hi"\n  }\n')
    assert (diag.span.file, diag.span.line, diag.span.column) == (FILE, 5, 4)
    assert diag.message.startswith("unexpected end of file; expected '}'")
    assert diag.hint == "the '{' at line 2, column 6 is never closed"


def test_unclosed_parenthesis_at_end_of_file():
    diag = syntax_error("param a = (1 + 2")
    assert (diag.span.line, diag.span.column) == (1, 17)
    assert diag.message == "unexpected end of file; expected ')' or ','"
    assert "'(' at line 1, column 11" in diag.hint


def test_single_quoted_string():
    diag = syntax_error("game \"X\"\nplay {\n  log 'hi'\n}")
    assert (diag.span.line, diag.span.column) == (3, 7)
    assert diag.message == "unexpected character \"'\""
    assert diag.hint == "strings use double quotes"


def test_stray_character():
    diag = syntax_error("param a = 1 @ 2")
    assert (diag.span.line, diag.span.column) == (1, 13)
    assert diag.message == "unexpected character '@'"


def test_unterminated_string():
    diag = syntax_error('play { log "abc }\n')
    assert (diag.span.line, diag.span.column) == (1, 12)
    assert "a string ends on the line it begins" in diag.hint


def test_missing_expression_before_a_bracket():
    diag = syntax_error("play {\n  let x = }")
    assert (diag.span.line, diag.span.column) == (2, 11)
    assert diag.message == "unexpected '}'; expected an expression"


def test_missing_operand():
    diag = syntax_error("param a = 1 + * 2")
    assert (diag.span.line, diag.span.column) == (1, 15)
    assert diag.message == "unexpected '*'; expected an expression"


def test_missing_param_value_points_at_the_next_declaration():
    diag = syntax_error("param a =\nparam b = 2\n")
    assert (diag.span.line, diag.span.column, diag.span.end_column) == (2, 1, 6)
    assert diag.message == "unexpected 'param'; expected an expression"
    assert "missing" in diag.hint


def test_missing_let_value_points_at_the_next_statement():
    # This parses (the keyword is read as a name), so the builder must catch it.
    diag = syntax_error("play {\n  let x =\n  let y = 2\n}")
    assert (diag.span.line, diag.span.column) == (3, 3)
    assert diag.message == "unexpected 'let'; expected an expression"


def test_keyword_misspelt_at_top_level():
    diag = syntax_error('game "X"\nzon bag: stack')
    assert (diag.span.line, diag.span.column) == (2, 1)
    assert diag.message.startswith("unexpected name 'zon'; expected")
    assert diag.hint == "did you mean 'zone'?"


def test_keyword_misspelt_in_a_block():
    diag = syntax_error("play {\n  whle ready { }\n}")
    assert (diag.span.line, diag.span.column) == (2, 8)
    assert diag.message == "unexpected name 'ready'; expected '(', '=' or '['"
    assert diag.hint == "is 'whle' a misspelt 'while'?"


def test_missing_closing_brace_before_a_declaration():
    diag = syntax_error("play {\n  if a {\n    finish\n}\nparam b = 1\n")
    assert (diag.span.line, diag.span.column) == (5, 1)
    assert "expected '}'" in diag.message
    assert diag.hint == "is a '}' missing? the '{' at line 1, column 6 is never closed"


def test_closing_brace_that_closes_nothing():
    diag = syntax_error("play { }\n}\n")
    assert (diag.span.line, diag.span.column) == (2, 1)
    assert diag.hint == "this '}' closes nothing"


def test_conditional_needs_else():
    diag = syntax_error("param a = if b then 1\n")
    assert diag.message == "unexpected end of file; expected 'else'"


def test_error_inside_a_placeholder():
    diag = syntax_error('play {\n  log "a {1 +} b"\n}')
    assert (diag.span.line, diag.span.column) == (2, 14)
    assert diag.message == "in placeholder: unexpected '}'; expected an expression"


def test_empty_placeholder():
    diag = syntax_error('play { log "a {} b" }')
    assert diag.message.startswith("in placeholder:")
    assert (diag.span.line, diag.span.column) == (1, 16)


def test_invalid_escape_in_string():
    diag = syntax_error('play { log "a\\q" }')
    assert (diag.span.line, diag.span.column) == (1, 12)
    assert diag.message == "invalid escape in string"


def test_diagnostic_format_quotes_the_line_with_a_caret():
    with pytest.raises(RuleFileError) as info:
        parse_text("param a = 1\nparam b = 1 $ 2\n", FILE)
    assert info.value.format() == (
        "test.game:2:13: error: unexpected character '$' [E103]\n"
        "    param b = 1 $ 2\n"
        "                ^")


def test_parse_file_reports_unreadable_files(tmp_path):
    missing = tmp_path / "missing.game"
    with pytest.raises(RuleFileError) as info:
        parse_file(missing)
    assert "cannot read" in info.value.diagnostics[0].message
    binary = tmp_path / "binary.game"
    binary.write_bytes(b'game "\xff"\n')
    with pytest.raises(RuleFileError) as info:
        parse_file(binary)
    assert "not UTF-8" in info.value.diagnostics[0].message


def test_parse_file_uses_the_path_in_spans(tmp_path):
    path = tmp_path / "g.game"
    path.write_text('game "G"\nplayers 2\n', encoding="utf-8")
    module = parse_file(path)
    assert module.items[1].span.file == str(path)
    assert module.items[1].span.line == 2


@pytest.mark.slow
def test_nesting_limit_is_a_diagnostic_not_a_crash():
    fine = expr(" + ".join(["1"] * 60))
    assert isinstance(fine, ast.Binary)
    for text in ("param a = " + " + ".join(["1"] * 150),            # over the limit
                 "param a = " + "[" * 3000 + "]" * 3000,             # deeper than Python's stack
                 "play {" + " if true {" * 1500 + "}" * 1501):
        diag = syntax_error(text)
        assert diag.message == "expressions or blocks nest too deeply here (more than 100 levels)"
        assert diag.span.line == 1
