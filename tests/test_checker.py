"""The checker, through dsl.loader.check_game on small rule files in a temporary folder."""
from __future__ import annotations

import textwrap

import pytest

from boardwright.dsl.errors import RuleFileError, UsageError
from boardwright.dsl.loader import check_game
from boardwright.interpreter.compile.load import load_game

TILES = """\
provenance: test data
enums:
  Colour: [red, blue]
components:
  Tile:
    label: "{colour} {value}"
    attributes:
      colour: Colour
      value: int
    items:
      - product:
          colour: [red, blue]
          value: [1, 2, 3]
"""

TWO_KINDS = """\
provenance: test data
components:
  Tile:
    attributes: {value: int}
    items:
      - value: 1
  Coin:
    attributes: {worth: int}
    items:
      - worth: 1
"""

HEADER = 'game "Tiny"\nplayers 2\ndata "tiles.yaml"\n'


def write(tmp_path, name: str, text: str):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def game(tmp_path, body: str, data: str = TILES, name: str = "tiny.game"):
    """Write HEADER + body (the body's own line 1 is the file's line 4)."""
    write(tmp_path, "tiles.yaml", data)
    return write(tmp_path, name, HEADER + textwrap.dedent(body))


def problems(tmp_path, body: str, data: str = TILES, variant=None) -> list:
    path = game(tmp_path, body, data)
    with pytest.raises(RuleFileError) as info:
        check_game(path, variant)
    return info.value.diagnostics


def only(tmp_path, body: str, data: str = TILES):
    diags = problems(tmp_path, body, data)
    assert len(diags) == 1, [d.message for d in diags]
    return diags[0]


def at(diag) -> tuple:
    return diag.span.line, diag.span.column


VALID = """\
param target = 3
zone bag: stack hidden
zone board: grid size 3 x 3
var points: int per player = 0
fn worth(t: Tile) -> int = t.value
proc score_for(p: player, n: int) { points[p] += n }
setup { for t in components(Tile) { move t to bag } }
play {
  for p in players {
    turn p {
      let t = top(bag)
      choose spot from [(0, 0), (1, 1)] prompt "Place {t}"
      move t to board at spot
      score_for(p, worth(t))
    }
  }
}
score p { "Points": points[p] }
winners = [p for p in players if points[p] >= target]
"""


# ----------------------------------------------------------------------------- a valid file
def test_a_valid_file_checks(tmp_path):
    spec, types = check_game(game(tmp_path, VALID))
    assert spec.title == "Tiny"
    assert (spec.players.minimum, spec.players.maximum) == (2, 2)
    assert set(spec.kinds) == {"Tile"}
    assert spec.enums == {"Colour": ("red", "blue")}
    assert set(spec.zones) == {"bag", "board"}
    assert spec.variant is None
    assert "int" in types.values() and "list of player" in types.values()


# ----------------------------------------------------------------------------- names
def test_unknown_name_with_did_you_mean(tmp_path):
    diag = only(tmp_path, """\
        param target = 3
        play { if player_count > targt { finish } }
        """)
    assert at(diag) == (5, 26)
    assert diag.message == "unknown name 'targt'"
    assert diag.hint == "did you mean 'target'?"


def test_unknown_name_without_a_close_match(tmp_path):
    diag = only(tmp_path, 'play { log "{zzzzzz}" }')
    assert diag.message == "unknown name 'zzzzzz'"
    assert diag.hint == ""
    assert at(diag) == (4, 14)


def test_unknown_function_and_procedure(tmp_path):
    diags = problems(tmp_path, """\
        proc deal() { }
        play {
          let n = lenght([1])
          dael()
        }
        """)
    assert [(d.message, d.hint) for d in diags] == [
        ("unknown function 'lenght'", "did you mean 'len'?"),
        ("unknown procedure 'dael'", "did you mean 'deal'?")]


def test_unknown_attribute_with_did_you_mean(tmp_path):
    diag = only(tmp_path, "fn f(t: Tile) -> int = t.valeu\nplay { }")
    assert diag.message == "unknown attribute 'valeu' of Tile"
    assert diag.hint == "did you mean 'value'?"
    assert (diag.span.line, diag.span.column, diag.span.end_column) == (4, 26, 31)   # the name


def test_unknown_attribute_lists_the_attributes(tmp_path):
    diag = only(tmp_path, "fn f(t: Tile) -> int = t.size\nplay { }")
    assert diag.message == "unknown attribute 'size' of Tile"
    assert diag.hint == "Tile has: colour, value"


def test_attribute_of_a_value_without_attributes(tmp_path):
    diag = only(tmp_path, "fn f(n: int) -> int = n.value\nplay { }")
    assert diag.message == "int has no attributes"


def test_unknown_type(tmp_path):
    diag = only(tmp_path, "var v: Tiel\nplay { }")
    assert diag.message == "unknown type 'Tiel'"
    assert diag.hint == "did you mean 'Tile'?"


def test_params_are_computed_after_the_params_they_use(tmp_path):
    path = game(tmp_path, """\
        param a = twice() + c
        param b = 2
        param c = b + 1
        fn twice() -> int = 2 * once()
        fn once() -> int = b
        play { }
        """)
    st = load_game(path).new_state(2)
    assert (st.vars["a"], st.vars["b"], st.vars["c"]) == (7, 2, 3)


def test_params_in_a_cycle_are_an_error(tmp_path):
    diags = problems(tmp_path, "param a = b + 1\nparam b = twice()\nfn twice() -> int = 2 * a\nplay { }")
    assert sorted(at(d) for d in diags if "in a circle" in d.hint) == [(4, 1), (5, 1)]


def test_params_in_order_through_fns_are_fine(tmp_path):
    # once's `b` is its own parameter, not the param declared after `a`
    spec, _ = check_game(game(tmp_path, "fn once(b: int) -> int = b\nparam a = once(1)\nparam b = 2\n"
                                        "fn plus() -> int = b + 1\nparam c = plus()\nplay { }"))
    assert list(spec.params) == ["a", "b", "c"]


# ----------------------------------------------------------------------------- types
def test_wrong_argument_type_for_a_builtin(tmp_path):
    diag = only(tmp_path, "zone bag: stack\nplay { let n = len(bag) }")
    assert at(diag) == (5, 20)
    assert diag.message == "len(list): expected a list, got zone of Tile"


def test_wrong_argument_type_for_a_fn(tmp_path):
    diag = only(tmp_path, 'fn double(n: int) -> int = n * 2\nplay { let d = double("two") }')
    assert diag.message == "argument 'n' should be int, not str"


def test_type_mismatch_in_var_init(tmp_path):
    diag = only(tmp_path, 'var rounds: int = "none"\nplay { }')
    assert at(diag) == (4, 19)
    assert diag.message == "the initial value of 'rounds' should be int, not str"


def test_type_mismatch_in_assignment(tmp_path):
    diag = only(tmp_path, 'var rounds: int = 0\nplay { rounds = red }')
    assert diag.message == "cannot assign Colour to 'rounds' of type int"


def test_condition_must_be_bool(tmp_path):
    diag = only(tmp_path, "play { while 1 { } }")
    assert diag.message == "a condition should be bool, not int"


def test_fn_body_must_match_its_return_type(tmp_path):
    diag = only(tmp_path, 'fn f() -> int = "x"\nplay { }')
    assert diag.message == "'f' should return int, but its body is str"


# ----------------------------------------------------------------------------- arity
def test_wrong_arity_for_a_builtin(tmp_path):
    diags = problems(tmp_path, "play {\n  let a = abs(1, 2)\n  let r = range()\n}")
    assert [(at(d), d.message) for d in diags] == [
        ((5, 11), "abs(int) takes 1 argument, got 2"),
        ((6, 11), "range(int[, int]) takes 1 to 2 arguments, got 0")]


def test_wrong_arity_for_a_fn(tmp_path):
    diag = only(tmp_path, "fn double(n: int) -> int = n * 2\nplay { let d = double(1, 2) }")
    assert diag.message == "'double' takes 1 argument, got 2"
    assert at(diag) == (5, 16)


def test_wrong_arity_for_a_proc(tmp_path):
    diag = only(tmp_path, "proc award(p: player, n: int) { }\nplay { award(1) }")
    assert diag.message == "'award' takes 2 arguments, got 1"
    assert at(diag) == (5, 8)


# ----------------------------------------------------------------------------- statements
def test_assignment_to_a_param(tmp_path):
    diag = only(tmp_path, "param target = 3\nplay { target = 4 }")
    assert at(diag) == (5, 8)
    assert diag.message == "cannot assign to param 'target'"


def test_assignment_to_an_undeclared_name(tmp_path):
    diag = only(tmp_path, "play { total = 4 }")
    assert diag.message == "cannot assign to 'total'"
    assert diag.hint == "declare a 'var' or a local with 'let'"


def test_choose_inside_setup_is_refused(tmp_path):
    diag = only(tmp_path, """\
        zone bag: stack
        setup {
          choose t from components(Tile)
          move t to bag
        }
        play { }
        """)
    assert at(diag) == (6, 3)
    assert diag.message == "setup runs without choices"


def test_choose_inside_play_is_allowed(tmp_path):
    spec, _ = check_game(game(tmp_path, "play { choose n from [1, 2] }"))
    assert spec.play is not None


def test_break_and_continue_outside_a_loop(tmp_path):
    diags = problems(tmp_path, "play {\n  break\n  if true { continue }\n  while true { break }\n}")
    assert [(at(d), d.message) for d in diags] == [((5, 3), "'break' outside a loop"),
                                                   ((6, 13), "'break' outside a loop")]


def test_break_inside_loops_is_allowed(tmp_path):
    spec, _ = check_game(game(tmp_path, "play {\n  for p in players { if true { break } }\n"
                                        "  while true { continue }\n}"))
    assert spec.play is not None


def test_move_of_a_non_component(tmp_path):
    diag = only(tmp_path, "zone bag: stack\nplay { move 3 to bag }")
    assert at(diag) == (5, 13)
    assert diag.message == "only components move, not int"


def test_move_to_a_grid_without_at(tmp_path):
    diag = only(tmp_path, "zone bag: stack\nzone board: grid size 3 x 3\nplay { move top(bag) to board }")
    assert at(diag) == (6, 8)
    assert diag.message == "a move to a grid needs a cell"
    assert diag.hint == "add 'at CELL'"


def test_move_to_a_zone_per_player_needs_an_index(tmp_path):
    diag = only(tmp_path, "zone bag: stack\nzone hand: pile per player\nplay { move top(bag) to hand }")
    assert diag.message == "a move goes to a zone, not to list of zone of Tile"
    assert diag.hint == "'hand' is one zone per player: pick one, e.g. hand[p]"


# ----------------------------------------------------------------------------- zones
def test_unknown_zone_option_with_suggestion(tmp_path):
    diag = only(tmp_path, "zone bag: stack hiden\nplay { }")
    assert (diag.span.line, diag.span.column, diag.span.end_column) == (4, 17, 22)
    assert diag.message == "unknown option 'hiden' for a stack"
    assert diag.hint == "did you mean 'hidden'?"


def test_unknown_zone_option_lists_the_options(tmp_path):
    diag = only(tmp_path, "zone bag: pile sideways\nplay { }")
    assert diag.hint == "options: public, hidden, owner, top, per player"


def test_unknown_zone_kind(tmp_path):
    diag = only(tmp_path, "zone heap: heep\nplay { }")
    assert (diag.span.line, diag.span.column, diag.span.end_column) == (4, 12, 16)
    assert diag.message == "unknown zone kind 'heep'"
    assert diag.hint == "zone kinds: stack, pile, grid"


def test_zone_option_needs_its_values(tmp_path):
    diag = only(tmp_path, "zone board: grid size 3\nplay { }")
    assert diag.message == "option 'size' takes 'size W x H'"


def test_zone_without_kind_when_the_data_has_two_kinds(tmp_path):
    diags = problems(tmp_path, "zone bag: stack\nzone purse: pile of Coin\nplay { }", data=TWO_KINDS)
    assert len(diags) == 1
    assert at(diags[0]) == (4, 1)
    assert diags[0].message == "zone 'bag' must say which components it holds"
    assert diags[0].hint == "write 'zone bag: stack of KIND' with one of Tile, Coin"


def test_zone_without_kind_is_fine_with_one_kind(tmp_path):
    spec, _ = check_game(game(tmp_path, "zone bag: stack\nplay { move first(components(Tile)) to bag }"))
    assert spec.zones["bag"].holds is None


def test_zone_of_an_unknown_component_kind(tmp_path):
    diag = only(tmp_path, "zone bag: stack of Tiles\nplay { }")
    assert diag.message == "unknown component kind 'Tiles'"
    assert diag.hint == "did you mean 'Tile'?"


# ----------------------------------------------------------------------------- declarations
def test_duplicate_declarations(tmp_path):
    diags = problems(tmp_path, """\
        param target = 3
        param target = 4
        zone bag: stack
        var bag: int = 0
        fn f() -> int = 1
        proc f() { }
        play { }
        play { }
        """)
    assert [(d.span.line, d.message, d.hint) for d in diags] == [
        (5, "'target' is declared twice in this file", "first declared at line 4"),
        (7, "'bag' is declared twice in this file", "first declared at line 6"),
        (9, "'f' is declared twice in this file", "first declared at line 8"),
        (11, "'play' is declared twice in this file", "first declared at line 10")]


def test_missing_game_players_and_play(tmp_path):
    write(tmp_path, "tiles.yaml", TILES)
    path = write(tmp_path, "bare.game", 'data "tiles.yaml"\n')
    with pytest.raises(RuleFileError) as info:
        check_game(path)
    messages = [d.message for d in info.value.diagnostics]
    assert messages == ["a rule file begins with 'game \"TITLE\"'", "the game declares no player counts",
                        "the game has no 'play { ... }' block"]


def test_missing_data_file(tmp_path):
    path = write(tmp_path, "g.game", 'game "G"\nplayers 2\ndata "nowhere.yaml"\nplay { }\n')
    with pytest.raises(RuleFileError) as info:
        check_game(path)
    (diag,) = info.value.diagnostics
    assert at(diag) == (3, 1)
    assert diag.message == "data file 'nowhere.yaml' not found"


def test_invalid_data_stops_before_the_rules_cascade(tmp_path):
    bad = TILES.replace("value: [1, 2, 3]", "value: [1, two, 3]")
    diags = problems(tmp_path, "fn f(t: Tile) -> Colour = t.colour\nplay { }", data=bad)
    assert len(diags) == 1
    assert diags[0].span.file.endswith("tiles.yaml")
    assert diags[0].message == "Tile.value: expected an integer, got 'two'"


# ----------------------------------------------------------------------------- variants
BASE = """\
param target = 3
zone bag: stack
var points: int per player = 0
fn bonus(p: player) -> int = 1
play { for p in players { points[p] += bonus(p) } }
"""


def test_variant_whose_base_does_not_exist(tmp_path):
    path = write(tmp_path, "v.game", 'variant "V" extends "nowhere.game"\nplayers 3\n')
    with pytest.raises(RuleFileError) as info:
        check_game(path)
    (diag,) = info.value.diagnostics
    assert at(diag) == (1, 1)
    assert diag.message == "the base game 'nowhere.game' does not exist"
    assert diag.hint == "the path is relative to the variant file"


def test_variant_extends_a_base(tmp_path):
    game(tmp_path, BASE)
    variant = write(tmp_path, "big.game", """\
        variant "Big" extends "tiny.game"
        players 3..4
        param target = 5
        var bonus_round: bool = false
        """)
    spec, _ = check_game(variant)
    assert (spec.title, spec.variant) == ("Tiny", "Big")
    assert spec.variant_path == str(variant)
    assert (spec.players.minimum, spec.players.maximum) == (3, 4)
    assert spec.params["target"].value.value == 5
    assert set(spec.vars) == {"points", "bonus_round"}
    assert spec.play.span.file.endswith("tiny.game")


def test_variant_by_name_beside_the_base(tmp_path):
    base = game(tmp_path, BASE)
    write(tmp_path, "big.game", 'variant "Big" extends "tiny.game"\nparam target = 5\n')
    spec, _ = check_game(base, "big")
    assert spec.variant == "Big"
    assert spec.params["target"].value.value == 5


def test_variant_overrides_a_fn(tmp_path):
    game(tmp_path, BASE)
    variant = write(tmp_path, "double.game", """\
        variant "Double" extends "tiny.game"
        fn bonus(p: player) -> int = 2 * (p + 1)
        """)
    spec, types = check_game(variant)
    fn = spec.fns["bonus"]
    assert fn.span.file == str(variant)
    assert fn.body.op == "*"
    assert types[id(fn.body)] == "int"


def test_variant_override_is_checked_in_the_variant_file(tmp_path):
    game(tmp_path, BASE)
    variant = write(tmp_path, "broken.game", """\
        variant "Broken" extends "tiny.game"
        fn bonus(p: player) -> int = "two"
        """)
    with pytest.raises(RuleFileError) as info:
        check_game(variant)
    (diag,) = info.value.diagnostics
    assert (diag.span.file, diag.span.line) == (str(variant), 2)
    assert diag.message == "'bonus' should return int, but its body is str"


def test_variant_cannot_replace_a_declaration_with_another_kind(tmp_path):
    game(tmp_path, BASE)
    variant = write(tmp_path, "odd.game", 'variant "Odd" extends "tiny.game"\nproc bonus() { }\n')
    with pytest.raises(RuleFileError) as info:
        check_game(variant)
    (diag,) = info.value.diagnostics
    assert diag.message == "'bonus' is a fn of the base game; a variant replaces it only with a fn"


def test_variant_of_another_base(tmp_path):
    base = game(tmp_path, BASE)
    write(tmp_path, "other.game", 'game "Other"\nplayers 2\nplay { }\n')
    write(tmp_path, "v.game", 'variant "V" extends "other.game"\n')
    with pytest.raises(RuleFileError) as info:
        check_game(base, "v")
    assert info.value.diagnostics[0].message == "this variant extends 'other.game', not tiny.game"


def test_unknown_variant_is_a_usage_error(tmp_path):
    base = game(tmp_path, BASE)
    write(tmp_path, "big.game", 'variant "Big" extends "tiny.game"\n')
    with pytest.raises(UsageError) as info:
        check_game(base, "bgi")
    assert str(info.value) == "no variant 'bgi' of tiny.game; variants: big; did you mean 'big'?"


# ----------------------------------------------------------------------------- all errors
def test_every_independent_error_is_reported(tmp_path):
    diags = problems(tmp_path, """\
        param target = 3
        param target = 4
        zone bag: stack hiden
        zone board: grid size 3 x 3
        var rounds: int = "none"
        fn double(n: int) -> int = n * 2
        setup { choose t from components(Tile) }
        play {
          break
          let a = targt
          let b = top(bag).valeu
          let c = len(5)
          let d = double(1, 2)
          target = 4
          move 3 to bag
          move top(bag) to board
        }
        """)
    found = [(d.span.line, d.message) for d in diags]
    assert found == [
        (5, "'target' is declared twice in this file"),
        (6, "unknown option 'hiden' for a stack"),
        (8, "the initial value of 'rounds' should be int, not str"),
        (10, "setup runs without choices"),
        (12, "'break' outside a loop"),
        (13, "unknown name 'targt'"),
        (14, "unknown attribute 'valeu' of Tile"),
        (15, "len(list): expected a list, got int"),
        (16, "'double' takes 1 argument, got 2"),
        (17, "cannot assign to param 'target'"),
        (18, "only components move, not int"),
        (19, "a move to a grid needs a cell"),
    ]
    assert len(diags) == 12
    assert all(d.span.file.endswith("tiny.game") for d in diags)


# ----------------------------------------------------------------------------- common types
def test_the_common_type_of_several_values_is_taken_over_all_of_them_at_once():
    """types.unify_all (a list literal's items, a case's arms): the one type they share with
    none and any aside; int for ints and players; lists by their items; else any. Two kinds
    make any whatever comes after them (before, `[5, "ab", true]` was a list of bool, since
    the any of its first two items gave way to the third)."""
    from boardwright.dsl.types import ANY, BOOL, INT, NONE, PLAYER, STR, list_of, unify_all
    assert unify_all([INT, STR, BOOL]) == ANY
    assert unify_all([BOOL, INT, STR]) == ANY
    assert unify_all([NONE, INT, NONE, ANY, INT]) == INT
    assert unify_all([INT, PLAYER, INT]) == INT
    assert unify_all([INT, PLAYER, STR]) == ANY
    assert unify_all([list_of(INT), list_of(STR), list_of(BOOL)]) == list_of(ANY)
    assert unify_all([list_of(INT), list_of(PLAYER)]) == list_of(INT)
    assert unify_all([list_of(INT), INT]) == ANY
    assert unify_all([NONE]) == NONE and unify_all([]) == NONE


def test_a_list_or_a_case_of_values_of_several_kinds_is_of_any_whatever_their_order(tmp_path):
    """`[5, "ab", true]` and a case whose arms give an int, a str and a bool are of `any`: their
    first item used as a number is allowed (the rules decide at run time), where before the
    last item's type won and `'-' needs numbers, not bool` refused it. A list of one kind
    keeps its type: its item used as a bool is still refused."""
    check_game(game(tmp_path, """\
        zone bag: pile of Tile
        zone board: grid of Tile size 3 x 3
        play {
          let ys = [5, "ab", true]
          let v = case player_count { 2: 5, 3: "ab" else: true }
          log "{ys[0] - 2} {v - 2}"
          choose x from [1, 2] by 0
        }
        """))
    diag = only(tmp_path, """\
        zone bag: pile of Tile
        zone board: grid of Tile size 3 x 3
        play {
          let zs = [5, 6, 7]
          if zs[0] { log "yes" }
          choose x from [1, 2] by 0
        }
        """)
    assert diag.message == "a condition should be bool, not int"
