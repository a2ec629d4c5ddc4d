"""Untrusted input (docs/security.md): label templates, files confined to the game folder,
resource limits, bounded bot budgets, choices for seats not at the table, atomic logs."""
from __future__ import annotations

import os
import textwrap

import pytest

from boardwright.dsl.data import load_data
from boardwright.dsl.errors import DataError

DATA = """\
provenance: "Invented for this test."
enums:
  Colour: [red, blue]
components:
  Card:
    label: "{LABEL}"
    attributes:
      colour: Colour
      value: int
      wild: bool
    items:
      - product: {colour: [red, blue], value: [1, 2]}
        wild: false
"""


def _data(tmp_path, label: str):
    path = tmp_path / "cards.yaml"
    path.write_text(DATA.replace("{LABEL}", label.replace('"', '\\"')), encoding="utf-8")
    return path


# 1. Labels are templates of our own: no attribute or index access, no huge widths, typos found.

@pytest.mark.parametrize("label", [
    "{wild.__class__.__init__.__globals__}",    # attribute access would read the interpreter's globals
    "{colour[0]}",                              # index access
    "{value:>2000000000}",                      # a width that would allocate gigabytes
    "{value!r}",                                # a conversion
    "{0}",                                      # a positional field
    "{}",
    "{value",
])
def test_a_label_that_is_not_a_template_is_a_data_error(tmp_path, label):
    with pytest.raises(DataError) as info:
        load_data(_data(tmp_path, label))
    diagnostic = info.value.diagnostics[0]
    assert diagnostic.span.line == 6 and "Card.label" in diagnostic.message


def test_a_label_typo_is_positioned_with_did_you_mean(tmp_path):
    with pytest.raises(DataError) as info:
        load_data(_data(tmp_path, "{colour} {valeu}"))
    diagnostic = info.value.diagnostics[0]
    assert diagnostic.message == "Card.label names the unknown attribute 'valeu'"
    assert diagnostic.hint == "did you mean 'value'?"
    # `    label: "{colour} {valeu}"`: the placeholder starts at column 22 (after the quote).
    assert (diagnostic.span.line, diagnostic.span.column, diagnostic.span.end_column) == (6, 22, 29)


def test_label_templates_fill_values_flags_widths_and_braces(tmp_path):
    from boardwright.dsl.template import fill
    attrs = {"colour": "red", "value": 7, "wild": True, "tags": ["a", "b"]}
    assert fill("{colour} {value}", attrs) == "red 7"
    assert fill("{wild:W|-}{wild:J}", attrs) == "WJ"
    assert fill("{wild:W|-}{wild:J}", {**attrs, "wild": False}) == "-"
    assert fill("[{value:>3}|{value:<3}|{value:^3}]", attrs) == "[  7|7  | 7 ]"
    assert fill("{{{colour}}} {tags}", attrs) == "{red} a, b"
    data = load_data(_data(tmp_path, "{colour}-{value:>2}{wild:*}"))
    assert data.kinds["Card"].label == "{colour}-{value:>2}{wild:*}"


# 2. `data` and `extends` name files inside the folder of the file that names them.

BASE = (os.path.join(os.path.dirname(__file__), "golden", "support", "base.game"))


def _game_folder(tmp_path, data_line: str):
    from pathlib import Path
    folder = tmp_path / "game"
    folder.mkdir()
    text = Path(BASE).read_text(encoding="utf-8").replace('data "tiles.yaml"', data_line)
    (folder / "base.game").write_text(text, encoding="utf-8")
    (folder / "tiles.yaml").write_text(Path(BASE).with_name("tiles.yaml").read_text(encoding="utf-8"))
    return folder


SECRET = "provenance: SECRET-CONTENTS\n"


@pytest.mark.parametrize("data_line, problem", [
    ('data "/etc/passwd"', "is an absolute path"),
    ('data "../secret.yaml"', "is outside the game folder"),
    ('data "sub/../../secret.yaml"', "is outside the game folder"),
    ('data "link.yaml"', "is outside the game folder"),          # a symlink that leaves the folder
    ('data "' + "x" * 300 + '.yaml"', "too long"),
])
def test_data_outside_the_game_folder_is_refused_without_its_contents(tmp_path, data_line, problem):
    from boardwright.dsl.errors import RuleFileError
    from boardwright.interpreter.compile.load import load_game
    (tmp_path / "secret.yaml").write_text(SECRET)
    folder = _game_folder(tmp_path, data_line)
    (folder / "sub").mkdir()
    (folder / "link.yaml").symlink_to(tmp_path / "secret.yaml")
    with pytest.raises(RuleFileError) as info:
        load_game(folder / "base.game")
    text = "\n".join(d.format() for d in info.value.diagnostics)
    assert problem in text and "base.game:4:1" in text
    assert "SECRET" not in text


def test_a_symlink_inside_the_folder_is_followed(tmp_path):
    from boardwright.interpreter.compile.load import load_game
    folder = _game_folder(tmp_path, 'data "inner.yaml"')
    (folder / "inner.yaml").symlink_to(folder / "tiles.yaml")
    assert load_game(folder / "base.game").title == "Golden base"


def test_a_variant_extends_only_a_base_in_its_folder(tmp_path):
    from boardwright.dsl.errors import RuleFileError
    from boardwright.interpreter.compile.load import load_game
    _game_folder(tmp_path, 'data "tiles.yaml"')
    variant = tmp_path / "game" / "sub" / "v.game"
    variant.parent.mkdir()
    variant.write_text('variant "V" extends "../base.game"\nparam target = 6\n')
    with pytest.raises(RuleFileError) as info:
        load_game(variant)
    assert "the base game '../base.game' is outside the game folder" in info.value.diagnostics[0].message


# 3. Limits: --set values typed and bounded, finite bot budgets, a sane player count.

def _run(capsys, *argv):
    from boardwright.cli.main import main
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out + err


@pytest.mark.parametrize("setting, problem", [
    ("win_length=true", "'win_length' is a whole number"),
    ("win_length=" + "9" * 23, "at most 18 digits"),
    ("win_length=" + "9" * 5000, "at most 18 digits"),
    ("win_length=²", "expected a whole number"),
])
def test_set_values_are_typed_and_bounded(capsys, setting, problem):
    code, text = _run(capsys, "simulate", "punto", "--players", "2", "--games", "1", "--set", setting)
    assert code == 2 and problem in text and "Traceback" not in text
    assert len(text) < 500          # a 5,000-digit value is not echoed back


@pytest.mark.parametrize("bot", ["mcts:iterations=nan", "mcts:iterations=inf", "mcts:seconds=inf",
                                 "mcts:seconds=1e999", "mcts:iterations=" + "9" * 5000, "mcts:depth=1e30"])
def test_bot_budgets_are_finite(capsys, bot):
    code, text = _run(capsys, "simulate", "punto", "--players", "2", "--games", "1", "--bots", f"{bot},random")
    assert code == 2 and "bad bot setting" in text and "Traceback" not in text


def test_player_counts_have_a_sane_maximum(tmp_path):
    from boardwright.dsl.errors import RuleFileError
    from boardwright.interpreter.compile.load import load_game
    folder = _game_folder(tmp_path, 'data "tiles.yaml"')
    path = folder / "base.game"
    path.write_text(path.read_text().replace("players 2..4", "players 2..30000"))
    with pytest.raises(RuleFileError) as info:
        load_game(path)
    assert "at most 100 players" in info.value.diagnostics[0].message


# 6. A choice for a player who is not at the table is a positioned rule error everywhere.

@pytest.mark.parametrize("by", ["7", "0 - 1"])
@pytest.mark.parametrize("command", [["simulate", "--games", "2"], ["check"], ["play", "--seats", "random,random"]])
def test_a_choice_for_a_seat_not_at_the_table(tmp_path, capsys, by, command):
    folder = _game_folder(tmp_path, 'data "tiles.yaml"')
    path = folder / "base.game"
    path.write_text(path.read_text().replace('prompt "Where?"', f'by {by} prompt "Where?"'))
    code, text = _run(capsys, command[0], str(path), "--players", "2", *command[1:])
    assert code == 1 and "Traceback" not in text
    assert "base.game:23:7: error: a choice for a player who is not at the table" in text


# 4. Nothing lost: atomic writes, a resumed game continues exactly, outputs checked first.

def _play(capsys, monkeypatch, stdin: str, *argv):
    import io
    import sys
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    return _run(capsys, "play", *argv)


SEATS = ["--players", "2", "--seats", "human,mcts:iterations=8", "--seed", "11"]


def _saved_game(tmp_path, capsys, monkeypatch, moves: int = 4):
    save = tmp_path / "game.save"
    code, text = _play(capsys, monkeypatch, "1\n" * moves + f"save {save}\nquit\n", "punto", *SEATS)
    assert code == 0 and save.is_file(), text
    return save


@pytest.mark.slow
def test_a_resumed_game_continues_exactly_as_the_unsaved_one(tmp_path, capsys, monkeypatch):
    import json
    whole, resumed = tmp_path / "whole.json", tmp_path / "resumed.json"
    assert _play(capsys, monkeypatch, "1\n" * 300, "punto", *SEATS, "--log", str(whole))[0] == 0
    save = _saved_game(tmp_path, capsys, monkeypatch)
    assert _play(capsys, monkeypatch, "1\n" * 300, "--load", str(save), "--log", str(resumed))[0] == 0
    expected = [(m["player"], m["id"]) for m in json.loads(whole.read_text())["moves"]]
    got = [(m["player"], m["id"]) for m in json.loads(resumed.read_text())["moves"]]
    assert len(expected) > 12 and got == expected      # the bot's moves after the save included


def test_an_interrupted_write_leaves_the_last_complete_file(tmp_path, monkeypatch):
    from boardwright.cli import saves
    path = tmp_path / "log.json"
    saves.write_atomically(path, '{"complete": 1}')

    def interrupted(fd):
        raise KeyboardInterrupt
    monkeypatch.setattr(saves.os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        saves.write_atomically(path, '{"complete": 2, "and more": "' + "x" * 100_000 + '"}')
    assert path.read_text() == '{"complete": 1}' and [p.name for p in tmp_path.iterdir()] == ["log.json"]


def test_a_bot_game_interrupted_by_ctrl_c_keeps_its_log(tmp_path, capsys, monkeypatch):
    import json
    from boardwright.interpreter.bots import simple as bots
    log = tmp_path / "log.json"
    calls = {"n": 0}
    original = bots.RandomBot.choose

    def choose(self, game, st):
        calls["n"] += 1
        if calls["n"] == 6:
            raise KeyboardInterrupt
        return original(self, game, st)
    monkeypatch.setattr(bots.RandomBot, "choose", choose)
    code, _ = _play(capsys, monkeypatch, "", "punto", "--players", "2", "--seats", "random,random", "--log", str(log))
    assert code != 0 and len(json.loads(log.read_text())["moves"]) == 5


@pytest.mark.parametrize("argv", [
    ["simulate", "punto", "--players", "2", "--games", "2", "--csv", "/nonexistent-folder/x.csv"],
    ["simulate", "punto", "--players", "2", "--games", "2", "--plot", "/nonexistent-folder/x.png"],
    ["simulate", "punto", "--players", "2", "--games", "2", "--csv", "x" * 300 + ".csv"],
    ["play", "punto", "--players", "2", "--seats", "random,random", "--log", "/nonexistent-folder/x.json"],
    ["check", "punto", "--players", "2", "--out", "/nonexistent-folder/x.yaml"],
])
def test_output_files_are_checked_before_any_game_runs(capsys, monkeypatch, argv):
    from boardwright.interpreter.run import engine
    monkeypatch.setattr(engine.Game, "new_state", lambda *a, **k: pytest.fail("a game ran"))
    code, text = _run(capsys, *argv)
    assert code == 2 and "cannot write" in text and "Traceback" not in text


# 5. Saves and logs are validated on load: a damaged file is exit 2 with what is wrong.

def _damage(data: dict, how: str):
    if how == "two places":
        zones = data["state"]["zones"]
        stack = next(k for k, v in zones.items() if isinstance(v, list) and v)
        other = next(k for k, v in zones.items() if isinstance(v, list) and k != stack)
        zones[other].append(zones[stack][0])
    elif how == "illegal move":
        data["moves"].insert(1, dict(data["moves"][1], id="no-such-card"))
    elif how == "99 players":
        data["players"] = 99
    elif how == "bot turned human":
        data["seats"][1] = "human"
    elif how == "wrong types":
        data["seed"] = "eleven"
    elif how == "move by the wrong player":
        data["moves"][0]["player"] = 1
    elif how == "bad random state":
        data["bots"][0]["random"][-1] = 10 ** 6
    return data


@pytest.mark.parametrize("how", ["two places", "illegal move", "99 players", "bot turned human", "wrong types",
                                 "move by the wrong player", "bad random state", "truncated", "huge number"])
def test_a_damaged_save_is_refused(tmp_path, capsys, monkeypatch, how):
    import json
    save = _saved_game(tmp_path, capsys, monkeypatch)
    if how == "truncated":
        save.write_text(save.read_text()[:-40])
    elif how == "huge number":
        save.write_text(save.read_text().replace('"seed": 11', '"seed": ' + "7" * 5000))
    else:
        save.write_text(json.dumps(_damage(json.loads(save.read_text()), how)))
    code, text = _play(capsys, monkeypatch, "1\n" * 300, "--load", str(save))
    assert code == 2 and "the saved game is damaged: " in text and "Traceback" not in text, text


@pytest.mark.slow
def test_a_damaged_log_is_refused(tmp_path, capsys, monkeypatch):
    import json
    log = tmp_path / "log.json"
    _play(capsys, monkeypatch, "", "punto", "--players", "2", "--seats", "random,random", "--log", str(log))
    data = json.loads(log.read_text())
    assert _run(capsys, "replay", str(log), "--step", "3")[0] == 0
    data["moves"][2]["id"] = "no-such-card"
    log.write_text(json.dumps(data))
    code, text = _run(capsys, "replay", str(log), "--step", "3")
    assert code == 2 and "the game log is damaged: move 3" in text


# 3. Resource limits of the language: each a rule error at the line that did it.

def _game_with(tmp_path, statement: str):
    folder = _game_folder(tmp_path, 'data "tiles.yaml"')
    path = folder / "base.game"
    text = path.read_text().replace("  shuffle bag\n", f"  shuffle bag\n  {statement}\n")
    text = text.replace("var points: int per player = 0\n", "var points: int per player = 0\nvar l: list of int = [1]\n"
                        "var s: str = \"ab\"\nvar n: int = 3\n")
    path.write_text(text)
    return path


@pytest.mark.parametrize("statement, problem", [
    ("l = range(1000000000)", "a range of 1,000,000,000 items: at most 1,000,000"),
    ("for i in range(100) { l = l + l }", "a list of 1,048,576 items: at most 1,000,000"),
    ("for i in range(100) { s = s + s }", "a text of 1,048,576 characters"),
    ('for i in range(100) { s = "{s}{s}" }', "a text of 1,048,576 characters"),
    ("for i in range(100) { s = join([s, s, s], s) }", "a text of"),
    ("for i in range(100) { n = n * n }", "an integer of more than 1,000 digits"),
    ("l = [a + b + c for a in range(2000) for b in range(2000) for c in range(2000)]",
     "more than 5,000,000 items of work without a decision"),
    ("for i in range(100) { l = range(1000000) }", "more than 5,000,000 items of work"),
    # Membership in a long list on every step of a comprehension: quadratic, counted as work.
    ("for k in [range(30000)] { l = [x for x in k if x in k] }", "more than 5,000,000 items of work"),
    ("for k in [range(30000)] { l = [x for x in k if x not in k] }", "membership test"),
    # A value the checker cannot type (an item of a mixed list) never gets Python's meaning of
    # an operator: no text repeated a hundred million times, no '%' formatting of a text.
    ('n = ["ab", 1][0] * 100000000', "'*' needs numbers, not a text and a number"),
    ('n = ["%0900000000d", 1][0] % 5', "'%' needs numbers, not a text and a number"),
    ('n = ["ab", 1][0] - 1', "'-' needs numbers, not a text and a number"),
    # Python would compare two texts silently, and its own error for a text // a number names
    # no operand: each is the untyped check's message.
    ('if ["ab", 1][0] < ["cd", 1][0] { n = 1 }', "'<' needs numbers, not a text and a text"),
    ('n = ["ab", 1][0] // 2', "'//' needs numbers, not a text and a number"),
])
@pytest.mark.parametrize("command", ["simulate", "check"])
def test_resource_limits_are_rule_errors_at_the_line(tmp_path, capsys, statement, problem, command):
    import time
    path = _game_with(tmp_path, statement)
    start = time.perf_counter()
    code, text = _run(capsys, command, str(path), "--players", "2", *(["--games", "1"] if command == "simulate" else []))
    assert code == 1 and "base.game:21:" in text and problem in text, text
    assert time.perf_counter() - start < 20


def _game_with_fns(tmp_path, fns: str, points: str):
    folder = _game_folder(tmp_path, 'data "tiles.yaml"')
    path = folder / "base.game"
    text = path.read_text().replace("fn bonus(p: player) -> int = 1", fns + f"fn bonus(p: player) -> int = {points}")
    path.write_text(text)
    return path


FIB = "fn fib(n: int) -> int = if n < 2 then n else fib(n - 1) + fib(n - 2)\n"
# No recursion, but each fn calls the one below twice: 2 ** 40 calls, whatever is inlined.
DOUBLING = "fn f0(n: int) -> int = n + 1\n" + "".join(
    f"fn f{i}(n: int) -> int = f{i - 1}(n) + f{i - 1}(n + 1)\n" for i in range(1, 40))


@pytest.mark.parametrize("fns, points, line", [(FIB, "fib(60) % 7", 13), (DOUBLING, "f39(1) % 7", None)],
                         ids=["recursion", "doubling"])
def test_fns_that_call_fns_exponentially_often_stop_at_the_work_limit(tmp_path, capsys, fns, points, line):
    path = _game_with_fns(tmp_path, fns, points)
    code, text = _run(capsys, "simulate", str(path), "--players", "2", "--games", "1")
    assert code == 1 and "more than 5,000,000 items of work" in text and "chain of fn calls" in text, text
    if line is not None:
        assert f"base.game:{line}:1: error" in text and "(in fn fib)" in text


def test_a_modest_recursion_still_counts_right(tmp_path, capsys):
    # fib(20) = 6765 (a table of Fibonacci numbers); 6765 % 1000 = 765 points per turn
    path = _game_with_fns(tmp_path, FIB, "fib(20) % 1000")
    from boardwright.interpreter.compile.load import load_game
    game = load_game(path)
    st = game.new_state(2, 1)
    game.apply_index(st, 0)
    assert st.vars["points"][0] == 765


ENDLESS_PLAY = """play {
  while true {
    for p in players {
      turn p {
        choose spot from [(0, 0), (1, 1)] prompt "Where?"
      }
    }
  }
}
"""


@pytest.mark.slow
@pytest.mark.parametrize("command", [["simulate", "--games", "3"], ["check"]])
def test_an_endless_game_is_reported_with_a_position_and_check_ends(tmp_path, capsys, command):
    import re
    import time
    folder = _game_folder(tmp_path, 'data "tiles.yaml"')
    path = folder / "base.game"
    text = path.read_text()
    path.write_text(re.sub(r"play \{.*?\n\}\n", ENDLESS_PLAY, text, flags=re.S))
    start = time.perf_counter()
    code, out = _run(capsys, command[0], str(path), "--players", "2", *command[1:])
    assert code == 1 and "base.game:24:9: error: the game did not end after 100,000 decisions" in out, out
    assert time.perf_counter() - start < 60


# 7. Clean errors for huge numbers, byte-order marks and bytes that are not UTF-8.

def test_a_rule_file_with_a_byte_order_mark_is_accepted(tmp_path):
    from boardwright.interpreter.compile.load import load_game
    folder = _game_folder(tmp_path, 'data "tiles.yaml"')
    path = folder / "base.game"
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert load_game(path).title == "Golden base"


def test_bytes_that_are_not_utf8_are_reported_where_they_are(tmp_path):
    from boardwright.dsl.errors import RuleFileError
    from boardwright.interpreter.compile.load import load_game
    folder = _game_folder(tmp_path, 'data "tiles.yaml"')
    path = folder / "base.game"
    path.write_bytes(path.read_bytes().replace(b"Golden base", b"Golden \xff base"))
    with pytest.raises(RuleFileError) as info:
        load_game(path)
    text = info.value.format()
    assert "base.game:2:14: error: not UTF-8 text: byte 0xff" in text and 'game "Golden ' in text


@pytest.mark.parametrize("where", ["rule", "data", "scenario"])
def test_numbers_of_5000_digits_are_positioned_errors(tmp_path, capsys, where):
    folder = _game_folder(tmp_path, 'data "tiles.yaml"')
    huge = "7" * 5000
    if where == "rule":
        path = folder / "base.game"
        path.write_text(path.read_text().replace("param target = 5", f"param target = {huge}"))
        argv, position = ["validate", str(path)], "base.game:6:16:"
    elif where == "data":
        path = folder / "tiles.yaml"
        path.write_text(path.read_text().replace("[1, 2, 3]", f"[1, 2, {huge}]"))
        argv, position = ["validate", str(folder / "base.game")], "tiles.yaml:"
    else:
        path = folder / "big.scenario.yaml"
        path.write_text(f"name: big\ngame: base.game\nplayers: 2\nseed: {huge}\nmoves: []\n")
        argv, position = ["test", str(path)], "big.scenario.yaml:4:7:"
    code, text = _run(capsys, *argv)
    assert code in (1, 2) and position in text and "a number of 5,000 digits" in text, text
    assert "internal error" not in text and "set_int_max_str_digits" not in text


def test_a_huge_integer_shown_by_a_rule_is_a_rule_error(tmp_path, capsys):
    path = _game_with(tmp_path, 'for i in range(20000) { n = n + n }\n  log "{n}"')
    code, text = _run(capsys, "simulate", str(path), "--players", "2", "--games", "1")
    assert code == 1 and "an integer of more than 4,300 digits cannot be shown" in text
    assert "set_int_max_str_digits" not in text


@pytest.mark.slow
@pytest.mark.parametrize("answer", ["²", "7" * 5000])
def test_odd_numbers_at_the_play_and_replay_prompts_are_asked_again(tmp_path, capsys, monkeypatch, answer):
    code, text = _play(capsys, monkeypatch, f"{answer}\nquit\n", "punto", "--players", "2", "--seats", "human,random")
    assert code == 0 and "is not one of the options" in text and "internal error" not in text
    log = tmp_path / "log.json"
    _play(capsys, monkeypatch, "", "punto", "--players", "2", "--seats", "random,random", "--log", str(log))
    import io
    import sys
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{answer}\nq\n"))
    code, text = _run(capsys, "replay", str(log))
    assert code == 0 and "internal error" not in text


# 10. Runtime errors show the call chain; simulate says which game failed and can write it out.

CHAIN = os.path.join(os.path.dirname(__file__), "support", "chain.game")


@pytest.mark.parametrize("command", [["simulate", "--games", "3"], ["simulate", "--games", "3", "--coverage"],
                                     ["check"]])
def test_a_rule_error_in_a_fn_shows_the_call_chain(capsys, command):
    code, text = _run(capsys, command[0], CHAIN, "--players", "2", *command[1:])
    assert code == 1 and "Traceback" not in text
    # track[n] in fn square_at (line 9) fails; step_value (line 11) called it, proc advance
    # (line 15) called step_value, and play (line 23) called advance.
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if "chain.game:9:31: error: rule failed: an index out of range" in line)
    assert "track[n]" in lines[first + 1] and lines[first + 2].strip() == "^" * len("track[n]")
    assert [line.strip() for line in lines[first + 3:first + 6]] == [
        f"called from {CHAIN}:11 (in fn step_value)", f"called from {CHAIN}:15 (in proc advance)",
        f"called from {CHAIN}:23 (in play)"]


def test_simulate_names_the_failing_game_and_writes_a_scenario_that_reproduces_it(tmp_path, capsys):
    import re
    import yaml
    out = tmp_path / "found" / "fail.scenario.yaml"
    out.parent.mkdir()
    code, text = _run(capsys, "simulate", CHAIN, "--players", "2", "--games", "5", "--seed", "7", "--out", str(out))
    assert code == 1 and "Traceback" not in text
    found = re.search(r"in game 1 of the simulation \(2 players, seed (\d+)\), at decision (\d+) "
                      r"\(the choices so far: ([\d ]+)\)", text)
    assert found, text
    assert int(found[1]) == 7 * 1_000_003 + 0          # the first game's seed (interpreter/playtest/simulate.py game_seed)
    choices = [int(c) for c in found[3].split()]
    assert int(found[2]) == len(choices)
    # the track has 8 squares: the game fails at the first move that takes the total to 8 or more
    totals = [sum(choices[:i + 1]) for i in range(len(choices))]
    assert totals[-1] >= 8 and all(t < 8 for t in totals[:-1])
    scenario = yaml.safe_load(out.read_text())
    assert scenario["game"] == "../../" + os.path.relpath(CHAIN, tmp_path.parent).replace(os.sep, "/") or \
        not os.path.isabs(scenario["game"])
    assert not os.path.isabs(scenario["game"])
    assert scenario["players"] == 2 and scenario["seed"] == int(found[1])
    assert [int(m) for m in scenario["moves"]] == choices
    code, replayed = _run(capsys, "test", str(out))
    assert code == 1 and "0 passed, 1 failed" in replayed
    assert f"unexpected error while playing move {len(choices)}" in replayed
    assert "chain.game:9:31: error: rule failed: an index out of range" in replayed


# 11. The disk caches are loaded as code: a cache another user could write is never read.

def test_the_cache_folder_is_created_private_and_refused_when_others_can_write(tmp_path, monkeypatch):
    from boardwright.dsl.cache import cache_dir
    monkeypatch.setenv("BOARDWRIGHT_CACHE", str(tmp_path / "cache"))
    folder = cache_dir()
    assert folder == tmp_path / "cache" and (folder.stat().st_mode & 0o777) == 0o700
    folder.chmod(0o777)
    assert cache_dir() is None


class _Planted:
    """A pickle that makes a folder when it is loaded: proof that a cache file ran."""
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.mkdir, (str(self.marker),))


@pytest.mark.parametrize("mode", [0o600, 0o620, 0o602])
def test_a_planted_parse_cache_is_never_unpickled(tmp_path, monkeypatch, mode):
    # Even a file of the user's own, private (unpacked from an archive), lacks the signature.
    import pickle
    from boardwright.dsl import parsed
    monkeypatch.setenv("BOARDWRIGHT_CACHE", str(tmp_path / "cache"))
    game = tmp_path / "g.game"
    game.write_text('game "G"\nplayers 2..2\nplay {\n}\n')
    entry = parsed._cache_path(str(game), game.read_text())
    entry.parent.mkdir(mode=0o700, exist_ok=True)
    marker = tmp_path / "it-ran"
    entry.write_bytes(pickle.dumps(_Planted(marker)))
    entry.chmod(mode)
    parsed.forget_parsed()
    assert parsed.parse_file(game).source == game.read_text()
    assert not marker.exists()


@pytest.mark.parametrize("mode", [0o600, 0o660])
def test_planted_compiled_code_is_never_run(tmp_path, monkeypatch, mode):
    import marshal
    from boardwright.interpreter.compile import codegen
    monkeypatch.setenv("BOARDWRIGHT_CACHE", str(tmp_path / "cache"))
    marker = tmp_path / "it-ran"
    source = "x = 1\n"
    path = codegen.cache_file(source)
    path.write_bytes(marshal.dumps(compile(f"import os\nos.mkdir({str(marker)!r})\n", "planted", "exec")))
    path.chmod(mode)
    codegen.forget_compiled()
    exec(codegen.compiled(source, "planted"), {})
    assert not marker.exists()


def test_a_planted_grammar_cache_is_not_given_to_lark(tmp_path, monkeypatch):
    import pickle
    from boardwright.dsl import grammar
    monkeypatch.setenv("BOARDWRIGHT_CACHE", str(tmp_path / "cache"))
    path = grammar._grammar_cache(grammar.GRAMMAR.read_text(encoding="utf-8"))
    assert path and str(path).startswith(str(tmp_path / "cache"))
    marker = tmp_path / "it-ran"
    path.write_bytes(pickle.dumps(_Planted(marker)))
    os.chmod(path, 0o600)
    grammar._lark.cache_clear()
    try:
        assert grammar._lark().parse('game "G"', start="start") is not None
    finally:
        grammar._lark.cache_clear()
    assert not marker.exists()


# 12. Malformed scenario shapes: each a positioned FAIL, and a folder run always reaches its summary.

MALFORMED_SCENARIOS = {
    "list-at-top": "- a\n- b\n",
    "text-at-top": "just text\n",
    "null-at-top": "null\n",
    "empty": "",
    "moves-a-map": "game: punto\nmoves: {a: 1}\n",
    "moves-nested": "game: punto\nmoves: [[1, 2]]\n",
    "moves-float": "game: punto\nmoves: [1.5]\n",
    "moves-null": "game: punto\nmoves: [null]\n",
    "expect-a-list": "game: punto\nexpect: [1, 2]\n",
    "expect-finished-text": "game: punto\nexpect: {finished: 'yes'}\n",
    "expect-vars-list": "game: punto\nexpect: {vars: [1]}\n",
    "expect-scores-map": "game: punto\nexpect: {scores: {a: 1}}\n",
    "null-everywhere": "game: null\nplayers: null\nseed: null\nmoves: null\nexpect: null\nstate: null\n",
    "null-inside": "game: punto\nstate: {zones: null, top: null, vars: null}\nexpect: {zones: null, winners: null}\n",
    "deep-list": "game: punto\nexpect: {vars: " + "[" * 3000 + "]" * 3000 + "}\n",
    "deep-map": "game: punto\nstate:\n  vars: " + "{a: " * 2000 + "1" + "}" * 2000 + "\n",
    "unknown-keys": "game: punto\nbogus: 1\nexpect: {nonsense: 2}\n",
    "bad-cell-keys": "game: punto\nplayers: 2\nstate:\n  zones:\n    table: {\"x,y\": [green 3], \"1\": [blue 2]}\n",
    "list-as-cell-key": "game: punto\nplayers: 2\nstate:\n  zones:\n    table: {[1, 2]: [green 3]}\n",
    "zone-a-number": "game: punto\nplayers: 2\nstate:\n  zones:\n    table: 5\n",
    "huge-seed": "game: punto\nseed: " + "9" * 5000 + "\n",
    "huge-move": "game: punto\nplayers: 2\nmoves: [" + "9" * 5000 + "]\n",
    "game-a-list": "game: [punto]\n",
    "too-many-bot-seeds": "game: punto\nplayers: 2\nexpect: {bot_chooses: {bots: random, one_of: ['1,1'], seeds: 10000000}}\n",
    "not-yaml": "game: punto\n\tmoves: [1]\n",
}


@pytest.mark.slow
def test_malformed_scenarios_are_positioned_failures_and_never_stop_a_folder_run(tmp_path, capsys):
    import re
    import time
    for name, text in MALFORMED_SCENARIOS.items():
        (tmp_path / f"{name}.scenario.yaml").write_text(text, encoding="utf-8")
    start = time.perf_counter()
    code, text = _run(capsys, "test", str(tmp_path))
    assert time.perf_counter() - start < 60
    assert code == 1 and "Traceback" not in text and "internal error" not in text
    assert text.rstrip().endswith(f"0 passed, {len(MALFORMED_SCENARIOS)} failed")
    lines = text.splitlines()
    for name in MALFORMED_SCENARIOS:
        at = next(i for i, line in enumerate(lines) if line.startswith(f"FAIL {tmp_path / name}.scenario.yaml"))
        assert re.search(rf"{re.escape(name)}\.scenario\.yaml:\d+:\d+: error: ", lines[at + 1]), (name, lines[at + 1])


def test_a_chain_of_small_fns_that_each_call_the_next_twice_compiles_at_once(tmp_path, capsys):
    # Inlined level by level, 24 levels would copy the innermost body 2**24 times; inlining
    # stops at a bounded depth and the deeper levels stay calls.
    lines = ['game "Chain"', "players 2", "fn f0(x: int) -> int = x + 1"]
    lines += [f"fn f{i}(x: int) -> int = f{i - 1}(x) + f{i - 1}(x + 1)" for i in range(1, 25)]
    lines += ["var n: int = 0", 'play {\n  n = f10(1)\n  turn 0 { choose x from [1, 2] prompt "pick" }\n}',
              'score p { "n": n }']
    path = tmp_path / "chain.game"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert _run(capsys, "validate", str(path))[0] == 0
    code, text = _run(capsys, "simulate", str(path), "--players", "2", "--games", "1", "--json")
    # f_k(x) = 2**k * (x + 1) + k * 2**(k - 1) (each level sums two shifted copies): f10(1) = 2048 + 5120
    assert code == 0 and __import__("json").loads(text)["scores"] == [2 ** 10 * 2 + 10 * 2 ** 9] * 2, text
