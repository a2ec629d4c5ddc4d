"""The language's diagnostics printed whole, compared with `==` (issue 26, round 10).

Messages checked with `in` let a mutant that pads or drops a word survive; here every
message, hint, quoted line and caret of the data file's YAML checks, the schema words, the
bot settings and the rendering of a diagnostic is written out in full, by hand, from the input
(what the file says, where the bad value stands) and the rules of docs/diagnostics.md. The
checker's messages are pinned by the golden cases (tests/golden/*_messages.game); this file
holds those a rule file cannot reach in bulk (a data file stops at its first bad phase) and
the number limits at their edges.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import jsonschema
import pytest

from boardwright.dsl.bot_settings import bot_declaration_problem, parse_bot_settings
from boardwright.dsl.data import load_data
from boardwright.dsl.errors import (DataError, Diagnostic, Span, UsageError, clipped, did_you_mean,
                                    listing)
from boardwright.dsl.schema_words import json_position, one_of_message, place, schema_message, shown


def _data_error(tmp_path: Path, text: str) -> str:
    path = tmp_path / "d.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_data(path)
    return info.value.format().replace(str(path), "D")


# ------------------------------------------------------------------ the data file's phases
ITEMS = 'provenance: x\ncomponents:\n  Card:\n    label: "{value}"\n    attributes: {value: int}\n    items:\n'
DATA_CASES = {
    "empty": ("", "D:1:1: error: the data file is empty [E702]\n"
                  "    hint: a data file needs 'provenance' and 'components'"),
    "key twice": ("provenance: x\nprovenance: y\ncomponents: {}\n",
                  "D:2:1: error: the key 'provenance' is given twice [E703]\n"
                  "    provenance: y\n"
                  "    ^^^^^^^^^^\n"
                  "    hint: first given at line 1"),
    "key not a name": ("provenance: x\n1: y\n",
                       "D:2:1: error: the key '1' is not a name [E703]\n"
                       "    1: y\n"
                       "    ^\n"
                       "    hint: quote it to make it a name"),
    "alias in itself": ("a: &x [*x]\n",
                        "D:1:4: error: an alias is used inside the value it names [E702]\n"
                        "    a: &x [*x]\n"
                        "       ^^^^^^^\n"
                        "    hint: a value cannot contain itself"),
    "surrogate": ('provenance: "\\ud835"\n',
                  "D:1:13: error: '\\ud835' is half of a UTF-16 surrogate pair, not a character [E702]\n"
                  '    provenance: "\\ud835"\n'
                  "                ^^^^^^^^\n"
                  "    hint: write the character itself, or '\\U' and its 8 hex digits"),
    "schema, a wrong type": ("provenance: x\ncomponents: 3\n",
                             "D:2:13: error: 'components' must be a mapping (key: value lines), not 3 [E703]\n"
                             "    components: 3\n"
                             "                ^"),
    # A data file's unknown attribute is a data file's problem (E705), not a rule file's (E304,
    # same words): at the key in the data file, in an item and in a product alike.
    "an item's unknown attribute": (
        ITEMS + "      - {value: 1, colr: 2}\n",
        "D:7:20: error: unknown attribute 'colr' of Card [E705]\n"
        "          - {value: 1, colr: 2}\n"
        "                       ^^^^\n"
        "    hint: declare it under components.Card.attributes"),
    "a product's unknown attribute": (
        ITEMS + "      - product: {value: [1, 2], valeu: [3]}\n",
        "D:7:34: error: unknown attribute 'valeu' of Card [E705]\n"
        "          - product: {value: [1, 2], valeu: [3]}\n"
        "                                     ^^^^^\n"
        "    hint: did you mean 'value'?"),
}


@pytest.mark.parametrize("name", DATA_CASES)
def test_each_phase_of_a_data_file_says_what_is_wrong_exactly(name, tmp_path):
    text, expected = DATA_CASES[name]
    assert _data_error(tmp_path, text) == expected


def test_a_character_yaml_refuses_is_shown_where_it_stands_in_the_data_file(tmp_path):
    """A control character is refused by the YAML reader, which names no line, only a position
    in its own name for the text; the message gives its line and column and the reader's reason
    (it said `in "<unicode string>", position 41` at 1:1), as a scenario file's does. The quoted
    line shows the character as its escape, `\\x01` (it was quoted raw), the caret under all
    four columns of it."""
    text = "provenance: test data\ncomponents:\n  C: {items: [{name: \"a\x01b\"}]}\n"
    assert _data_error(tmp_path, text) == (
        "D:3:24: error: invalid YAML: unacceptable character #x0001: special characters are not allowed [E702]\n"
        "      C: {items: [{name: \"a\\x01b\"}]}\n"
        "    " + " " * 23 + "^^^^")


def test_a_caret_after_a_control_character_stands_under_its_place_as_shown():
    # The '\x01' before the '@' is shown in four columns, so the caret moves three to the right
    # of the '@''s column (21) to stand under it; one after a DEL, a C1 control and a bidi
    # override alike (each escape is 4 or 6 columns wide: '\x7f', '\x9b', '\u202e').
    text = HEAD + 'fn f() -> str = "\x01" @\n'
    assert _syntax_error(text) == ("g.game:3:21: error: unexpected character '@' [E103]\n"
                                   '    fn f() -> str = "\\x01" @\n'
                                   "    " + " " * 23 + "^")
    text = HEAD + 'fn f() -> str = "\x7f\x9b\u202e" @\n'
    assert _syntax_error(text).splitlines()[1:] == ['    fn f() -> str = "\\x7f\\x9b\\u202e" @',
                                                    "    " + " " * (17 + 4 + 4 + 6 + 2) + "^"]


def test_yaml_nested_past_the_limit_is_refused_at_the_first_level_too_deep(tmp_path):
    # 100 levels are allowed (MAX_YAML_DEPTH); the 101st list opens at column 101.
    ok = "a: " + "[" * 99 + "]" * 99 + "\n"          # the mapping and 99 lists: 100 levels
    (tmp_path / "ok.yaml").write_text(ok)
    with pytest.raises(DataError) as info:
        load_data(tmp_path / "ok.yaml")
    assert "nests" not in info.value.format()
    deep = "[" * 101 + "]" * 101 + "\n"
    assert _data_error(tmp_path, deep) == ("D:1:101: error: the YAML nests more than 100 levels deep [E702]\n"
                                           "    " + deep.rstrip("\n") + "\n"
                                           "    " + " " * 100 + "^")


def test_aliases_past_a_million_values_are_refused_with_the_hint(tmp_path):
    # Each level repeats the one before 10 times: level k holds 1 + 10 * size(k-1) nodes.
    lines, size = ["a0: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]"], 11
    level = 0
    while size <= 1_000_000:
        level += 1
        lines.append(f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * 10) + "]")
        size = 1 + 10 * size
    text = "\n".join(lines) + "\n"
    last = lines[-1]
    column = last.index("&") + 1           # a node with an anchor begins at its anchor
    assert _data_error(tmp_path, text) == (
        f"D:{len(lines)}:{column}: error: aliases repeat this value into more than 1000000 values [E702]\n"
        f"    {last}\n"
        f"    {' ' * (column - 1)}{'^' * (len(last) - column + 1)}\n"
        "    hint: write the values out, or use 'copies'")


def test_a_yaml_syntax_error_names_the_context_and_where_it_began(tmp_path):
    text = "provenance: x\ncomponents: {a: [1, 2}\n"
    assert _data_error(tmp_path, text) == ("D:2:22: error: invalid YAML: expected ',' or ']', but got '}' [E702]\n"
                                           "    components: {a: [1, 2}\n"
                                           "                         ^\n"
                                           "    hint: while parsing a flow sequence at line 2, column 17")


# ------------------------------------------------------------------ schema words
def _first_error(schema: dict, instance):
    return next(iter(jsonschema.Draft202012Validator(schema).iter_errors(instance)))


def _under(key: str, schema: dict) -> dict:
    return {"type": "object", "properties": {key: schema}}


SCHEMA_CASES = [
    # (schema, instance, where, message)
    (_under("l", {"minItems": 1}), {"l": []}, ["l"], "'l' must have at least 1 item, not 0"),
    (_under("s", {"minLength": 2}), {"s": "a"}, ["s"], "'s' must be at least 2 characters long"),
    (_under("s", {"minLength": 1}), {"s": ""}, ["s"], "'s' must be at least 1 character long"),
    (_under("s", {"maxLength": 3}), {"s": "abcd"}, ["s"], "'s' must be at most 3 characters long"),
    (_under("m", {"minProperties": 1}), {"m": {}}, ["m"], "'m' must have at least 1 key"),
    (_under("m", {"maxProperties": 2}), {"m": {"a": 1, "b": 2, "c": 3}}, ["m"], "'m' must have at most 2 keys"),
    (_under("c", {"const": "x"}), {"c": "y"}, ["c"], "'c' must be `x`, not `y`"),
    (_under("p", {"pattern": "^[a-z]+$", "patternErrorMessage": "a lower-case name"}), {"p": "A1"}, ["p"],
     "'p': a lower-case name, got `A1`"),
    (_under("t", {"type": "integer", "errorMessage": "a seat number"}), {"t": "x"}, ["t"],
     "'t': a seat number, got `x`"),
    (_under("t", {"type": ["string", "boolean"]}), {"t": 3}, ["t"], "'t' must be a text or true or false, not 3"),
    ({"type": "object"}, None, [], "the file is empty: it must be a mapping (key: value lines)"),
    ({"type": "array"}, "x", [], "this value must be a list, not 'x'"),
    ({"type": "object", "required": ["a", "b"]}, {"a": 1}, [], "the file needs the key 'b'"),
    (_under("m", {"type": "object", "required": ["k"]}), {"m": {}}, ["m"], "'m' needs the key 'k'"),
    (_under("l", {"type": "array", "items": {"type": "integer"}}), {"l": [1, "x"]}, ["l", 1],
     "item 2 of 'l' must be a whole number, not 'x'"),
    ({"type": "array", "items": {"type": "integer"}}, ["x"], [0], "item 1 must be a whole number, not 'x'"),
    (_under("l", {"type": "array", "items": _under("k", {"type": "null"})}), {"l": [{"k": 1}]}, ["l", 0, "k"],
     "'k' of item 1 of 'l' must be none (null), not 1"),
    (_under("n", {"type": "number", "multipleOf": 2}), {"n": 3}, ["n"], "'n': 3 is not a multiple of 2"),
    (_under("n", {"multipleOf": 2, "errorMessage": "an even number"}), {"n": 3}, ["n"],
     "'n': an even number, got `3`"),
]


@pytest.mark.parametrize("schema, instance, where, message", SCHEMA_CASES,
                         ids=[c[3][:40] for c in SCHEMA_CASES])
def test_every_schema_word_exactly(schema, instance, where, message):
    assert schema_message(_first_error(schema, instance)) == (where, message, "")


def test_a_rule_without_words_of_ours_is_jsonschemas_message_cut_at_200_characters():
    # `not` has no wording here: jsonschema's "'xx...x' should not be valid under {...}" is
    # quoted, cut to 200 characters: the quote and 199 of the 300 x's.
    error = _first_error(_under("v", {"not": {"type": "string"}}), {"v": "x" * 300})
    assert schema_message(error) == (["v"], "'v': '" + "x" * 199, "")


def test_an_unknown_key_lists_the_keys_and_suggests_the_nearest():
    schema = {"type": "object", "properties": {"moves": {}, "seed": {}}, "additionalProperties": False}
    assert schema_message(_first_error(schema, {"moevs": 1})) == (
        ["moevs"], "unknown key 'moevs'; keys: moves, seed", "did you mean 'moves'?")
    inner = _under("run", schema)
    assert schema_message(_first_error(inner, {"run": {"zzz": 1}})) == (
        ["run", "zzz"], "unknown key 'zzz' in run; keys: moves, seed", "")


def test_a_value_of_none_of_several_types_names_the_types():
    schema = _under("v", {"oneOf": [{"type": "integer"}, {"type": "string"}]})
    assert one_of_message(_first_error(schema, {"v": [1]})) == (["v"], "'v' must be a whole number or a text, "
                                                                "not `[1]`", "")
    deeper = _under("v", {"oneOf": [{"type": "integer"}, {"type": "object", "required": ["k"]}]})
    assert one_of_message(_first_error(deeper, {"v": {}})) == (["v"], "'v' needs the key 'k'", "")
    either = _under("v", {"anyOf": [{"type": "integer"}, {"type": "object", "required": ["k"]}]})
    assert one_of_message(_first_error(either, {"v": {}})) == (["v"], "'v' needs the key 'k'", "")
    nested = _under("v", {"anyOf": [{"type": "integer"}, {"anyOf": [{"type": "string"}, {"minProperties": 2}]}]})
    assert one_of_message(_first_error(nested, {"v": {}})) == (["v"], "'v' must have at least 2 keys", "")


def test_a_long_value_is_cut_at_sixty_characters():
    assert shown("a" * 60) == "`" + "a" * 60 + "`"
    assert shown("a" * 61) == "`" + "a" * 60 + "...`"
    assert shown([1, "é"]) == '`[1, "é"]`'
    assert shown({1, 2}) == "`{1, 2}`"
    long = "x" * 70
    assert schema_message(_first_error({"type": "integer"}, long)) == (
        [], "this value must be a whole number, not '" + "x" * 59 + "...", "")


def test_place_names_where_a_value_is():
    assert place([]) == "this value"
    assert place(["moves"]) == "'moves'"
    assert place(["moves", 2]) == "item 3 of 'moves'"
    assert place([0]) == "item 1"
    assert place(["moves", 0, "seat"]) == "'seat' of item 1 of 'moves'"
    assert place(["a", "b"]) == "'b'"


def test_json_position_finds_values_and_keys():
    text = '{"a": 1,\n "b": [10, 20,\n  30]}'
    assert json_position(text, []) == (1, 1)
    assert json_position(text, ["a"]) == (1, 7)
    assert json_position(text, ["b"]) == (2, 7)
    assert json_position(text, ["b"], key=True) == (2, 2)
    assert json_position(text, ["b", 1]) == (2, 12)
    assert json_position(text, ["b", 2]) == (3, 3)
    assert json_position(text, ["b", 3]) == (2, 7)      # past the end: the list itself
    assert json_position(text, ["c"]) == (1, 1)         # no such key: the object
    assert json_position("  [1]", [0]) == (1, 4)


# ------------------------------------------------------------------ bot settings
BOT_CASES = {
    ("nobot", ""): ("unknown bot 'nobot'", "bots: random, greedy, mcts"),
    ("mcst", ""): ("unknown bot 'mcst'", "did you mean 'mcts'?"),
    ("random", "depth=2"): ("bad bot setting 'depth=2' for random; random takes no settings",
                            "random takes no settings: leave the quotes empty"),
    ("greedy", "lookahead=x"): ("bad bot setting 'lookahead=x': 'x' is not a number",
                                'settings are written as on the command line, e.g. bot greedy "lookahead=200"'),
    ("greedy", "lookahead=1.5"): ("bad bot setting 'lookahead=1.5': must be a whole number",
                                  'settings are written as on the command line, e.g. bot greedy "lookahead=200"'),
    ("greedy", "lookahead=inf"): ("bad bot setting 'lookahead=inf': must be a finite number",
                                  'settings are written as on the command line, e.g. bot greedy "lookahead=200"'),
    ("greedy", "lookahead=1000001"): ("bad bot setting 'lookahead=1000001': at most 1,000,000",
                                      'settings are written as on the command line, e.g. bot greedy '
                                      '"lookahead=200"'),
    ("greedy", "lookahead"): ("bad bot setting 'lookahead' for greedy; settings: lookahead=N",
                              'settings are written as on the command line, e.g. bot greedy "lookahead=200"'),
    ("mcts", "seconds=0"): ("bad bot setting 'seconds=0': must be positive",
                            'settings are written as on the command line, e.g. bot mcts "iterations=400:depth=0"'),
}


@pytest.mark.parametrize("bot, text", BOT_CASES, ids=[f"{b}:{t}" for b, t in BOT_CASES])
def test_every_bot_declaration_problem_exactly(bot, text):
    assert bot_declaration_problem(bot, text) == BOT_CASES[(bot, text)]


def test_bot_setting_limits_at_their_edges():
    assert parse_bot_settings("greedy", ["lookahead=1000000"]) == {"lookahead": 1_000_000}
    assert parse_bot_settings("mcts", ["exploration=0", "trees=64", "seconds=3600"]) == {
        "exploration": 0.0, "trees": 64, "seconds": 3600.0}
    for setting, message in [("trees=65", "bad bot setting 'trees=65': at most 64"),
                             ("seconds=3601", "bad bot setting 'seconds=3601': at most 3,600"),
                             ("trees=0", "bad bot setting 'trees=0': must be positive"),
                             ("depth=-1", "bad bot setting 'depth=-1': must be at least 0")]:
        with pytest.raises(UsageError) as info:
            parse_bot_settings("mcts", [setting])
        assert str(info.value) == message
    # A value of more than 20 characters is not parsed (it counts as infinite); values and
    # settings are quoted back cut to 40 and 60 characters.
    twenty = "1" * 20
    with pytest.raises(UsageError) as info:
        parse_bot_settings("greedy", ["lookahead=" + twenty])
    assert str(info.value) == f"bad bot setting 'lookahead={twenty}': at most 1,000,000"
    with pytest.raises(UsageError) as info:
        parse_bot_settings("greedy", ["lookahead=" + "1" * 21])
    assert str(info.value) == f"bad bot setting 'lookahead={'1' * 21}': must be a finite number"
    with pytest.raises(UsageError) as info:
        parse_bot_settings("greedy", ["lookahead=" + "y" * 50])
    assert str(info.value) == f"bad bot setting 'lookahead={'y' * 40}': must be a finite number"
    with pytest.raises(UsageError) as info:
        parse_bot_settings("greedy", ["lookahead=" + "y" * 15])
    assert str(info.value) == f"bad bot setting 'lookahead={'y' * 15}': {'y' * 15!r} is not a number"
    with pytest.raises(UsageError) as info:
        parse_bot_settings("random", ["z" * 70])
    assert str(info.value) == f"bad bot setting '{'z' * 60}' for random; random takes no settings"


# ------------------------------------------------------------------ rendering a diagnostic
def test_a_diagnostic_renders_its_line_caret_callers_and_hint():
    source = "line one\n\tplay {\nlast"
    d = Diagnostic(Span("f.game", 2, 2, 2, 6), "unknown name 'play'", "did you mean 'plays'?",
                   called_from=("f.game:9 (in fn a)", "f.game:12 (in play)"))
    assert d.format(source) == ("f.game:2:2: error: unknown name 'play' [E301]\n"
                                "     play {\n"
                                "     ^^^^\n"
                                "    called from f.game:9 (in fn a)\n"
                                "    called from f.game:12 (in play)\n"
                                "    hint: did you mean 'plays'?")
    # A span over several lines, or an empty one, is marked by one caret; line 0 quotes nothing.
    assert Diagnostic(Span("f", 3, 2, 4, 1), "x", severity="note").format(source) == \
        "f:3:2: note: x\n    last\n     ^"
    assert Diagnostic(Span("f", 3, 3, 3, 3), "x", severity="note").format(source) == \
        "f:3:3: note: x\n    last\n      ^"
    assert Diagnostic(Span("f", 0, 0, 0, 0), "x", severity="warning", code="W999").format(source) == \
        "f:0:0: warning: x [W999]"
    assert Diagnostic(Span("f", 4, 1, 4, 2), "x", severity="note").format(source) == "f:4:1: note: x"
    assert d.as_json() == {"file": "f.game", "line": 2, "column": 2, "end_line": 2, "end_column": 6,
                           "severity": "error", "code": "E301", "message": "unknown name 'play'",
                           "hint": "did you mean 'plays'?",
                           "called_from": ["f.game:9 (in fn a)", "f.game:12 (in play)"]}
    assert "called_from" not in Diagnostic(Span("f", 1, 1, 1, 2), "x").as_json()


def test_listing_clipping_and_did_you_mean_at_their_edges():
    assert listing(range(20)) == ", ".join(map(str, range(20)))
    assert listing(range(21)) == ", ".join(map(str, range(20))) + ", ... (1 more)"
    assert listing(range(1021)) == ", ".join(map(str, range(20))) + ", ... (1,001 more)"
    assert clipped("a" * 200) == "a" * 200
    assert clipped("a" * 1201) == "a" * 200 + "... (1,201 characters)"
    assert did_you_mean("colr", ["colour", "value"]) == "did you mean 'colour'?"
    assert did_you_mean("qqqq", ["colour", "value"]) == ""
    # difflib's cut-off is 0.6: 'abcd' against 'abxy' is 2 * 2 / 8 = 0.5, against 'abcx' 0.75.
    assert did_you_mean("abcd", ["abxy"]) == ""
    assert did_you_mean("abcd", ["abxy", "abcx"]) == "did you mean 'abcx'?"
    # Among more than 5,000 names, those that begin most alike are compared.
    many = [f"n{i:05d}" for i in range(6000)] + ["target"]
    assert did_you_mean("targte", many) == "did you mean 'target'?"


def test_a_file_that_is_not_a_regular_file_or_not_utf8_is_named(tmp_path):
    folder = tmp_path / "d.yaml"
    folder.mkdir()
    with pytest.raises(DataError) as info:
        load_data(folder)
    assert info.value.format() == f"error: cannot read data file {folder}: Is a directory"
    fifo = tmp_path / "f.yaml"
    os.mkfifo(fifo)
    with pytest.raises(DataError) as info:
        load_data(fifo)
    assert info.value.format() == f"error: cannot read data file {fifo}: not a regular file"
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"provenance: x\ncomponents: \xff\n")
    with pytest.raises(DataError) as info:
        load_data(bad)
    assert info.value.format().replace(str(bad), "D") == (
        "D:2:13: error: the data file is not UTF-8 text: byte 0xff invalid start byte [E702]\n"
        "    components: \ufffd\n"
        "                ^\n"
        "    hint: save the file as UTF-8")
    assert info.value.diagnostics[0].span == Span(str(bad), 2, 13, 2, 14)       # (validate --json's end)
    assert json.loads(json.dumps(Diagnostic(Span("f", 1, 1, 1, 2), "x").as_json()))["code"] == ""


# ------------------------------------------------------------------ syntax errors
def _syntax_error(text: str) -> str:
    from boardwright.dsl.errors import RuleFileError
    from boardwright.dsl.parser import parse_text
    with pytest.raises(RuleFileError) as info:
        parse_text(text, "g.game")
    return "\n".join(d.format(text) for d in info.value.diagnostics)


HEAD = 'game "G"\nplayers 2\n'
SYNTAX_CASES = {
    "a double quote left open": (HEAD + 'play { log "open }\n',
                                 "g.game:3:12: error: unexpected character '\"' [E103]\n"
                                 '    play { log "open }\n'
                                 "               ^\n"
                                 "    hint: a string ends on the line it begins"),
    "&": (HEAD + "fn f() -> bool = true & false\n",
          "g.game:3:23: error: unexpected character '&' [E103]\n"
          "    fn f() -> bool = true & false\n"
          "                          ^\n"
          "    hint: write 'and'"),
    "|": (HEAD + "fn f() -> bool = true | false\n",
          "g.game:3:23: error: unexpected character '|' [E103]\n"
          "    fn f() -> bool = true | false\n"
          "                          ^\n"
          "    hint: write 'or'"),
    ";": (HEAD + "play { finish; }\n",
          "g.game:3:14: error: unexpected character ';' [E103]\n"
          "    play { finish; }\n"
          "                 ^\n"
          "    hint: statements end at the end of the line; no ';' is needed"),
    "! alone": (HEAD + "fn f() -> bool = !true\n",
                "g.game:3:18: error: unexpected character '!' [E103]\n"
                "    fn f() -> bool = !true\n"
                "                     ^\n"
                "    hint: write 'not' for negation ('!=' is 'not equal')"),
    "a character with no hint": (HEAD + "fn f() -> int = 1 @ 2\n",
                                 "g.game:3:19: error: unexpected character '@' [E103]\n"
                                 "    fn f() -> int = 1 @ 2\n"
                                 "                      ^"),
    "the end of the file, nothing open": (HEAD + "fn f() -> int =",
                                          "g.game:3:16: error: unexpected end of file; expected an expression [E102]\n"
                                          "    fn f() -> int =\n"
                                          "                   ^"),
    "a ')' missing before a declaration": (HEAD + "fn f() -> int = max(1, 2\nzone bag: stack\n",
                                           "g.game:4:1: error: unexpected 'zone'; expected ')' or ',' [E105]\n"
                                           "    zone bag: stack\n"
                                           "    ^^^^\n"
                                           "    hint: is a ')' missing? the '(' at line 3, column 20 is never closed"),
    "a bracket closing nothing": (HEAD + "play { finish }\n)\n",
                                  "g.game:4:1: error: unexpected ')'; expected the end of the file or a keyword [E105]\n"
                                  "    )\n"
                                  "    ^\n"
                                  "    hint: this ')' closes nothing"),
    "a name where '}' belongs": (HEAD + "fn f() -> int { return 1 qqqq }\n",
                                 "g.game:3:26: error: unexpected name 'qqqq'; expected '}' [E105]\n"
                                 "    fn f() -> int { return 1 qqqq }\n"
                                 "                             ^^^^\n"
                                 "    hint: is a keyword misspelt, or a '}' missing?"),
    "a comma missing between a record's fields": (
        HEAD + "record R { a: int qqqq: int }\n",
        "g.game:3:19: error: unexpected name 'qqqq'; expected ',' or '}' [E105]\n"
        "    record R { a: int qqqq: int }\n"
        "                      ^^^^\n"
        "    hint: is a ',' missing before 'qqqq'?"),
    "a comma missing at a line's end, before a field spelt like a keyword": (
        HEAD + "record R { a: int\n  turn_no: int }\n",
        "g.game:4:3: error: unexpected name 'turn_no'; expected ',' or '}' [E105]\n"
        "      turn_no: int }\n"
        "      ^^^^^^^\n"
        "    hint: is a ',' missing before 'turn_no'?"),
    "a comma missing in a record built": (
        HEAD + "record R { a: int, b: int }\nvar r: R = R(a: 1 b: 2)\n",
        "g.game:4:19: error: unexpected name 'b'; expected ')' or ',' [E105]\n"
        "    var r: R = R(a: 1 b: 2)\n"
        "                      ^\n"
        "    hint: is a ',' missing before 'b'?"),
    "a comma missing in a list": (
        HEAD + "var xs: list of int = [1 2]\n",
        "g.game:3:26: error: unexpected '2'; expected ',', ']' or 'for' [E105]\n"
        "    var xs: list of int = [1 2]\n"
        "                             ^\n"
        "    hint: is a ',' missing before '2'?"),
    "a comma missing between an enum's members": (
        HEAD + "enum Size { small medium }\n",
        "g.game:3:19: error: unexpected name 'medium'; expected ',' or '}' [E105]\n"
        "    enum Size { small medium }\n"
        "                      ^^^^^^\n"
        "    hint: is a ',' missing before 'medium'?"),
    "a record written in braces": (
        HEAD + "var r: int = {a: 1 b: 2}\n",
        "g.game:3:14: error: unexpected '{'; expected an expression [E105]\n"
        "    var r: int = {a: 1 b: 2}\n"
        "                 ^\n"
        "    hint: a record is built with its name and round brackets: `NAME(field: value, ...)`"),
    "a misspelt statement keyword": (HEAD + 'play {\n  finsh "x"\n}\n',
                                     "g.game:4:9: error: unexpected '\"x\"'; expected '(', '=' or '[' [E105]\n"
                                     '      finsh "x"\n'
                                     "            ^^^\n"
                                     "    hint: is 'finsh' a misspelt 'finish'?"),
    "the end of the file inside a list": (HEAD + "fn f() -> int = [1, 2\n",
                                          "g.game:3:22: error: unexpected end of file; expected ')', ',' or ']' [E102]\n"
                                          "    fn f() -> int = [1, 2\n"
                                          "                         ^\n"
                                          "    hint: the '[' at line 3, column 17 is never closed"),
}


@pytest.mark.parametrize("name", SYNTAX_CASES)
def test_every_syntax_hint_exactly(name):
    text, expected = SYNTAX_CASES[name]
    assert _syntax_error(text) == expected


def test_no_comma_is_suggested_where_the_next_item_could_not_follow_one():
    # A score line's comma is optional and a line begins with its string: after `1` a ','
    # would not let `qqqq` in. A comma would not let a declaration keyword in either.
    assert "','" not in _syntax_error(HEAD + 'score s { "a": 1 qqqq: 2 }\n').split("hint:")[-1]
    assert "','" not in _syntax_error(HEAD + "fn f() -> int = max(1, 2\nzone bag: stack\n").split("hint:")[-1]


# ------------------------------------------------------------------ paths, games and variants
def test_each_path_a_rule_file_may_not_name_exactly(tmp_path):
    from boardwright.dsl.loader import confined_path
    game = tmp_path / "g.game"
    span = Span(str(game), 3, 1, 3, 9)
    hint = "name a file in the folder of g.game or below it"

    def problem(relative):
        found, diagnostic = confined_path(game, relative, span, "data file")
        assert found is None
        return diagnostic.message, diagnostic.hint, diagnostic.code

    assert problem("a" * 256) == ("data file path is too long or not a file name", hint, "E708")
    assert problem("a\0b") == ("data file path is too long or not a file name", hint, "E708")
    assert problem("/etc/x.yaml") == ("data file '/etc/x.yaml' is an absolute path", hint, "E708")
    assert problem("~/x.yaml") == ("data file '~/x.yaml' is an absolute path", hint, "E708")
    assert problem("../x.yaml") == ("data file '../x.yaml' is outside the game folder", hint, "E708")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    message, said, code = problem("loop/x.yaml")
    assert (message.startswith("data file 'loop/x.yaml' cannot be opened: "), said, code) == (True, hint, "E708")
    # 255 characters are a file name; inside the folder, the path is given back resolved.
    assert confined_path(game, "a" * 255, span, "data file") == ((tmp_path / ("a" * 255)).resolve(), None)
    assert confined_path(game, "sub/../d.yaml", span, "data file") == ((tmp_path / "d.yaml").resolve(), None)


def _check_error(path, variant=None) -> str:
    from boardwright.dsl.errors import RuleFileError
    from boardwright.dsl.loader import check_game
    with pytest.raises(RuleFileError) as info:
        check_game(path, variant)
    return info.value.format().replace(str(path.parent), "F")


BASE_GAME = 'game "B"\nplayers 2\nplay { finish }\nscore p { "P": 1 }\n'


def test_the_variant_line_problems_exactly(tmp_path):
    (tmp_path / "b.game").write_text(BASE_GAME)
    twice = tmp_path / "v.game"
    twice.write_text('variant "V" extends "b.game"\nvariant "W" extends "b.game"\n')
    assert _check_error(twice) == ("F/v.game:2:1: error: a variant file has one 'variant' line [E802]\n"
                                   '    variant "W" extends "b.game"\n'
                                   "    " + "^" * 28 + "\n"
                                   "    hint: the first is at line 1")
    # A base game with a 'variant' line further down, reached through a variant of it.
    (tmp_path / "late.game").write_text(BASE_GAME + 'variant "X" extends "b.game"\n')
    (tmp_path / "of_late.game").write_text('variant "V" extends "late.game"\n')
    assert _check_error(tmp_path / "of_late.game") == (
        "F/late.game:5:1: error: 'variant' must be the first line of a variant file [E802]\n"
        '    variant "X" extends "b.game"\n'
        "    " + "^" * 28)
    (tmp_path / "plain.game").write_text('param bonus = 1\n')
    assert _check_error(tmp_path / "b.game", str(tmp_path / "plain.game")) == (
        "F/plain.game:1:1: error: a variant file must begin with 'variant \"TITLE\" extends \"BASE.game\"' [E802]\n"
        "    param bonus = 1\n"
        "    " + "^" * 15)                          # the first declaration


def test_a_game_or_variant_that_is_not_there_lists_what_is(tmp_path):
    from boardwright.dsl.loader import resolve_game, resolve_variant
    (tmp_path / "b.game").write_text(BASE_GAME)
    (tmp_path / "fast.game").write_text('variant "Fast" extends "b.game"\n')
    with pytest.raises(UsageError) as info:
        resolve_variant(tmp_path / "b.game", "fats")
    assert str(info.value) == "no variant 'fats' of b.game; variants: fast; did you mean 'fast'?"
    with pytest.raises(UsageError) as info:
        resolve_variant(tmp_path / "b.game", "qqqqq")
    assert str(info.value) == "no variant 'qqqqq' of b.game; variants: fast"
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "v.game").write_text('variant "V" extends "../b.game"\n')
    with pytest.raises(UsageError) as info:
        resolve_game(empty)
    assert str(info.value) == f"no base rule file (one starting with 'game \"...\"') in {empty}"
    long = str(tmp_path / ("n" * 300))
    with pytest.raises(UsageError) as info:
        resolve_game(long)
    assert str(info.value).startswith(f"no game '{long[:200]}...': not a file, a folder or a bundled game (")


# ------------------------------------------------------------------ literals the builder refuses
def test_a_string_with_a_nul_or_a_carriage_return_or_a_bad_escape_exactly():
    for char in ("\0", "\r"):
        text = HEAD + f'play {{ log "a{char}b" }}\n'
        # The NUL is shown as '\\x00' and the caret covers the string as shown; the carriage
        # return ends the line quoted, and the caret keeps the string's width past it.
        shown, carets = {"\0": ('play { log "a\\x00b" }', 8), "\r": ('play { log "a', 5)}[char]
        assert _syntax_error(text) == ("g.game:3:12: error: invalid escape in string: a NUL or a carriage return "
                                       "inside a string [E106]\n"
                                       "    " + shown + "\n"
                                       "               " + "^" * carets + "\n"
                                       "    hint: escapes: \\\" \\\\ \\n \\t")
    text = HEAD + 'play { log "a\\qb" }\n'
    assert _syntax_error(text) == ("g.game:3:12: error: invalid escape in string [E106]\n"
                                   '    play { log "a\\qb" }\n'
                                   "               ^^^^^^\n"
                                   "    hint: escapes: \\\" \\\\ \\n \\t")


def test_a_number_of_more_than_a_thousand_digits_is_refused_at_its_place():
    from boardwright.dsl.parser import parse_text
    parse_text(HEAD + "param big = " + "9" * 1000 + "\nplay { finish }\n")        # 1,000 digits: allowed
    text = HEAD + "param big = " + "9" * 1001 + "\n"
    line = text.splitlines()[2]
    assert _syntax_error(text) == ("g.game:3:13: error: a number of 1,001 digits: at most 1000 (docs/security.md) [E109]\n"
                                   f"    {line}\n"
                                   "    " + " " * 12 + "^" * 1001)



def test_a_zone_option_of_more_than_a_thousand_digits_is_refused_as_a_number(tmp_path, capsys):
    # A zone's shape keeps a number too long to read as text (build_ast._dim): the checker
    # reports it as the number it is, not as an unknown param quoted back whole.
    from boardwright.cli.main import main
    game = tmp_path / "g.game"
    line = "zone board: grid size 3 x 3 blocked (-" + "9" * 1001 + ", 0)"
    game.write_text(HEAD + line + "\nplay { finish }\nscore p { \"a\": 1 }\n")
    capsys.readouterr()
    assert main(["validate", str(game)]) == 1
    assert capsys.readouterr().err == (f"{game}:3:29: error: a number of 1,001 digits: at most 1000 "
                                       "(docs/security.md) [E109]\n"
                                       f"    {line}\n"
                                       "    " + " " * 28 + "^" * (len(line) - 28) + "\n")
    line = "zone board: grid size 3 x 3 blocked (-" + "9" * 1000 + ", 0)"
    game.write_text(HEAD + line + "\nplay { finish }\nscore p { \"a\": 1 }\n")
    assert main(["validate", str(game)]) == 0           # 1,000 digits and a sign: a number
    assert "digits" not in capsys.readouterr().err


def test_a_placeholder_that_is_not_an_expression_points_into_the_string():
    text = HEAD + 'play { log "total {1 +}" }\n'
    assert _syntax_error(text) == ("g.game:3:23: error: in placeholder: unexpected '}'; expected an expression [E104]\n"
                                   '    play { log "total {1 +}" }\n'
                                   "                          ^")


def test_a_let_with_a_type_reads_back_as_written():
    from boardwright.dsl.parser import parse_text
    from boardwright.dsl.unparse import expr_text
    module = parse_text(HEAD + "fn f() -> int {\n  let x: list of int = [1, 2]\n  let y = 3\n  return len(x) + y\n}\n")
    fn = next(d for d in module.items if getattr(d, "name", "") == "f")
    assert expr_text(fn.body) == "let x: list of int = [1, 2] let y = 3 len(x) + y"
    module = parse_text(HEAD + 'fn g() -> list of any = [none, true, false, 7, "a"]\n')
    fn = next(d for d in module.items if getattr(d, "name", "") == "g")
    assert expr_text(fn.body) == '[none, true, false, 7, "a"]'          # the literals as the language writes them


def test_a_hint_or_a_span_left_out_is_empty_not_null_in_json(tmp_path):
    # `validate --json` prints as_json(): a character no hint explains has the hint "", and the
    # span of an empty rule file's first line ends on that line.
    from boardwright.dsl.errors import RuleFileError
    from boardwright.dsl.loader import check_game
    from boardwright.dsl.parser import parse_text
    with pytest.raises(RuleFileError) as info:
        parse_text(HEAD + "fn f() -> int = 1 @ 2\n", "g.game")
    assert info.value.diagnostics[0].as_json()["hint"] == ""
    empty = tmp_path / "empty.game"
    empty.write_text("# nothing yet\n")
    with pytest.raises(RuleFileError) as info:
        check_game(empty)
    first = [d for d in info.value.diagnostics if d.message.startswith("a rule file begins")]
    assert [d.span for d in first] == [Span(str(empty), 1, 1, 1, 2)]


# ------------------------------------------------------------------ shapes
def test_every_shape_problem_exactly_and_the_origin_limit_at_its_edge():
    from boardwright.dsl.shapes import shape_problem
    assert shape_problem([[64, -64], [-64, 64], [0, 0]]) == ""
    assert shape_problem([[0, 0], [65, 0]]) == ("the cell [65, 0] is too far from the shape's origin "
                                                "(at most 64 either way)")
    assert shape_problem([[0, -65]]) == "the cell [0, -65] is too far from the shape's origin (at most 64 either way)"
    assert shape_problem([{"at": [0, 0], "Terrain": "x"}]) == ("a cell attribute is named in lower case, like "
                                                              "'terrain', not 'Terrain'")
    assert shape_problem([{"terrain": "x"}]) == "a cell with its own data gives its place as 'at: [x, y]'"
    assert shape_problem([[True, 0]]) == "a cell of a shape is a pair of whole numbers [x, y], not [True, 0]"
    assert shape_problem([[0, 0, 0]]) == "a cell of a shape is a pair of whole numbers [x, y], not [0, 0, 0]"
    assert shape_problem("#y\n#x") == ("a shape picture has '#' for a cell and '.' for a gap, one line per row; "
                                       "it may not contain 'x', 'y'")
    assert shape_problem("# .\n") == ""
    assert shape_problem(" .\n.") == "a shape needs at least one cell: draw it with '#'"
    assert shape_problem({}) == 'a shape is a non-empty list of [x, y] cells or a picture such as "##\\n#."'
