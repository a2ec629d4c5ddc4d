"""Behaviour the mutation samples of round 8 found unguarded (tests/mutation_sample.py, seeds 301
and up for exploration, 30 fresh; docs/testing.md "Mutation testing"): each test here was seen
failing with its mutant planted and passing without it. The mutants each one kills are named in
its docstring; most tests pin a whole kind of behaviour (every diagnostic's file and column,
every key, every cut) rather than one mutant."""
from __future__ import annotations

import pytest


def _problems(error) -> list:
    """(file, line, column, end column, message, hint) of each diagnostic of an error."""
    return [(d.span.file, d.span.line, d.span.column, d.span.end_column, d.message, d.hint)
            for d in error.diagnostics]


def test_the_cells_of_a_kinds_own_shape_are_checked_each_at_its_place_in_the_data_file(tmp_path):
    """dsl/data.py _build: the per-cell data of a shape given for the whole kind (not per item) is
    checked as an item's is, each problem at its cell in *this* file (the mutant that passed no
    file name, round 7's survivor, wrote `None:8:13`). Columns counted here from the line's text."""
    from boardwright.dsl.data import load_data
    from boardwright.dsl.errors import BoardwrightError
    shape = ('[[0, 0], {at: [1, 0], terrian: wheat, terrain: wheat, crowns: "two"}, '
             '{at: [1, 0], terrain: lake}]')
    text = ("provenance: \"a kind's own shape\"\nenums:\n  Terrain: [wheat, forest]\ncomponents:\n  Tile:\n"
            "    attributes: {name: str}\n    cell_attributes: {terrain: Terrain, crowns: int}\n"
            f"    shape: {shape}\n    items:\n      - {{name: a}}\n")
    path = tmp_path / "tiles.yaml"
    path.write_text(text)
    line = text.splitlines()[7]

    def at(part, nth=0):
        start = -1
        for _ in range(nth + 1):
            start = line.index(part, start + 1)
        return start + 1, start + 1 + len(part)
    second = '{at: [1, 0], terrain: lake}'
    with pytest.raises(BoardwrightError) as caught:
        load_data(path)
    expected = [
        (*at("[0, 0]"), "the cell [0, 0] of a Tile shape gives no cell attributes; Tile declares terrain, crowns",
         "write it {at: [0, 0], terrain: ..., crowns: ...}"),
        (*at("terrian"), "unknown cell attribute 'terrian' of Tile", "did you mean 'terrain'?"),
        (*at('"two"'), "the cell [1, 0] of a Tile shape: crowns: expected an integer, got 'two'", ""),
        (*at(second), "the cell [1, 0] appears twice in the shape", ""),
        (*at(second), "the cell [1, 0] of a Tile shape gives no 'crowns'", "every cell gives each of: terrain, crowns"),
        (*at("lake"), "the cell [1, 0] of a Tile shape: terrain: 'lake' is not a Terrain (wheat, forest)", ""),
    ]
    assert _problems(caught.value) == [(str(path), 8, *e) for e in expected]


def _emit_marks(capsys, path) -> tuple[list, list]:
    """The lines `compile --emit` prints for a rule file, and its marks: (line number, rule line)."""
    import re
    from boardwright.cli.main import main
    assert main(["compile", str(path), "--emit"]) == 0
    lines = capsys.readouterr().out.splitlines()
    name = re.escape(path.name)
    return lines, [(n, int(m.group(1))) for n, line in enumerate(lines) if (m := re.search(rf"  # {name}:(\d+)$", line))]


@pytest.mark.parametrize("last, total", [("[1, 2]", 4), ("[1, 2, 3] if v12 != 2", 4)])
def test_compile_emit_marks_each_rule_line_once_in_a_for_loop_nested_too_deep_for_a_python_loop(
        tmp_path, capsys, last, total):
    """interpreter/compile/codegen.py for_step: a `for` nested deeper than the 12 Python loops a
    generated function may hold is written step by step (`_i += 1`, `break`), and `compile --emit`
    still marks each rule line once where its code begins (docs/cli.md). Kills the step's `break`
    written without its span (round 7's survivor: the line after it marked again), with a
    filter (`for v in items if cond`) and without."""
    depth = 13
    lists = ["[1, 2]"] + ["[1]"] * (depth - 2) + [last]
    loops = "".join("  " * (i + 1) + f"for v{i} in {lists[i]} {{\n" for i in range(depth))
    close = "".join("  " * (i + 1) + "}\n" for i in reversed(range(depth)))
    path = tmp_path / "deep.game"
    path.write_text(f'game "Deep"\nplayers 2\nvar total: int = 0\nplay {{\n{loops}{"  " * (depth + 1)}total += 1\n'
                    f'{close}  turn 0 {{\n    choose n from [1, 2] prompt "Add"\n    total += n\n  }}\n}}\n'
                    'score p { "Total": total }\n')
    lines, marks = _emit_marks(capsys, path)
    assert any(line.strip() == "_i += 1" for line in lines)        # the innermost `for` written step by step
    assert [mark for (_, mark), (_, previous) in zip(marks[1:], marks) if mark == previous] == []
    # ... and it runs its body once per item of every list its filter keeps: 2 * 1 * ... * 1 * 2 times
    from boardwright.interpreter.compile.load import load_game
    st = load_game(str(path)).new_state(2, 1)
    assert st.vars["total"] == total


@pytest.mark.parametrize("schema, instance, expected", [
    ({"minimum": 2}, 1, "'x' must be at least 2, not `1`"),
    ({"maximum": 2}, 3, "'x' must be at most 2, not `3`"),
    ({"exclusiveMinimum": 2}, 2, "'x' must be more than 2, not `2`"),
    ({"exclusiveMaximum": 2}, 2, "'x' must be less than 2, not `2`"),
    ({"minItems": 2}, [1], "'x' must have at least 2 items, not 1"),
    ({"maxItems": 1}, [1, 2, 3], "'x' must have at most 1 item, not 3"),
    ({"maxItems": 1, "errorMessage": "one move at most"}, [1, 2], "'x': one move at most, got `[1, 2]`"),
    ({"type": "integer"}, "two", "'x' must be a whole number, not 'two'"),
    ({"type": ["string", "null"]}, 2, "'x' must be a text or none (null), not 2"),
    ({"type": "boolean"}, "y" * 70, f"'x' must be true or false, not '{'y' * 59}..."),
    ({"type": "array", "errorMessage": "a list of moves"}, 3, "'x': a list of moves, got `3`"),
    ({"enum": ["a", "b"]}, "c", "'x' must be one of `a`, `b`, not `c`"),
    ({"pattern": "^[a-z]+$"}, "A1", "'x': not a valid text here, got `A1`"),
    ({"pattern": "^[a-z]+$", "patternErrorMessage": "lower-case letters"}, "A1", "'x': lower-case letters, got `A1`"),
    ({"pattern": "^[a-z]+$", "errorMessage": "a name"}, "A1", "'x': a name, got `A1`"),
    ({"type": "object", "required": ["seed"]}, {}, "'x' needs the key 'seed'"),
    ({"type": "object", "properties": {"seed": {}}, "additionalProperties": False}, {"seeds": 1},
     "unknown key 'seeds' in x; keys: seed"),
    ({"type": "array", "items": {"type": "object", "properties": {"n": {"minimum": 0}}}}, [{"n": 0}, {"n": -1}],
     "'n' of item 2 of 'x' must be at least 0, not `-1`"),
])
def test_every_kind_of_schema_rule_says_what_belongs_at_the_place_in_the_files_words(schema, instance, expected):
    """dsl/schema_words.py schema_message, the kinds tests/test_quick_file_schemas.py's own table
    leaves out: each bound's relation ("at least", "at most", "more than", "less than"), list
    sizes, each JSON type's word, a long value cut at 60 characters, enums, patterns and their
    own messages, required and unknown keys, and the place of a value inside a list. Kills a
    string mutant of any of these words ("at most" -> "AT MOST" in the exploration of seed 301)."""
    import jsonschema

    from boardwright.dsl.schema_words import schema_message
    wrapped = {"type": "object", "properties": {"x": schema}}
    error = next(jsonschema.Draft202012Validator(wrapped).iter_errors({"x": instance}))
    assert schema_message(error)[1] == expected


LSP_TYPES = """\
game "Typed dots"
players 2
record Bid { amount: int, suit: str }
record Step { dx: int, dy: int }
var total: int = 0
fn bid_size(m: Bid) -> int = m.amount
fn step_x(m: Step, s: Bid) -> int = m.dx + s.amount
fn corner(c: cell) -> int = c.x
play {
  turn 0 {
    choose n from [1, 2] prompt "Add"
    total += n
  }
}
score p { "Total": total }
"""


def test_completion_after_a_dot_offers_the_members_of_the_type_that_name_has_at_the_closest_use_above(tmp_path):
    """cli/lsp.py _type_before_dot and completions: after `NAME.` the members of the type the
    checker gave NAME at its closest use at or above the line (`m` is a Bid in `bid_size`, a Step
    in `step_x`), never another name's type (`s` on the same line as `m`), a cell's x and y, and
    every member when the name's type is unknown. Kills the type taken from another name's
    uses (round 7's survivor) and the closest use taken from below or from the first use."""
    from boardwright.cli.lsp import RulesServer, completions
    server = RulesServer()
    path = tmp_path / "typed.game"
    path.write_text(LSP_TYPES)
    uri = path.as_uri()
    assert [d for d in server.analyse(uri, LSP_TYPES) if d.severity == 1] == []
    analysis = server.analyses[uri]
    lines = LSP_TYPES.splitlines()

    def members(name: str, line_text: str) -> set:
        line = next(n for n, text in enumerate(lines) if text.startswith(line_text))
        return {item.label for item in completions(analysis.spec, analysis.module, f"  {name}.", analysis, line)}
    bid, step, cell = {"amount", "suit"}, {"dx", "dy"}, {"x", "y"}
    assert members("m", "fn bid_size") == bid
    assert members("m", "fn step_x") == step            # the closer use of `m`, on this line
    assert members("s", "fn step_x") == bid
    assert members("m", "fn corner") == step            # the closest use above
    assert members("c", "fn corner") == cell
    assert members("m", "game") >= bid | step | cell     # no use of `m` yet: every member
    assert members("nobody", "fn bid_size") >= bid | step | cell


def _raises(exc):
    def command(args):
        raise exc
    return command


@pytest.mark.parametrize("raised, code, err", [
    ("usage", 2, "boardwright: error: no such thing\n"),
    ("diagnostic", 1, "g.game:3:5: error: bad rule [E999]\n"),
    (KeyboardInterrupt(), 130, "\nboardwright: interrupted\n"),
    (BrokenPipeError(), 0, ""),
    (FileNotFoundError(2, "No such file or directory", "/no/such.game"), 2,
     "boardwright: error: /no/such.game: No such file or directory\n"),
    (PermissionError(13, "Permission denied"), 2, "boardwright: error: Permission denied\n"),
    (OSError("disk on fire"), 2, "boardwright: error: disk on fire\n"),
])
def test_each_way_a_command_can_end_badly_has_the_exit_status_and_the_one_line_the_cli_docs_give(
        capsys, monkeypatch, raised, code, err):
    """cli/main.py _run, docs/cli.md "Exit codes": a usage error 2, a finding 1, Ctrl-C 130
    ("boardwright: interrupted"), an unreadable file 2 naming it, and a reader that closed the
    pipe (`boardwright explain punto | head -1`) 0 and silent; never a traceback on standard
    output. Kills `return 1` for a closed pipe (the exploration of seed 301) and any other status
    or wording mutant of this table."""
    from boardwright.cli import main as cli_main
    from boardwright.dsl.errors import BoardwrightError, Diagnostic, Span, UsageError
    if raised == "usage":
        raised = UsageError("no such thing")
    elif raised == "diagnostic":
        raised = BoardwrightError(Diagnostic(Span("g.game", 3, 5, 3, 6), "bad rule", code="E999"))
    monkeypatch.setitem(cli_main.COMMANDS, "info", _raises(raised))
    assert cli_main.main(["info", "punto"]) == code
    assert capsys.readouterr() == ("", err)


def test_a_scenario_takes_nested_lists_for_a_param_of_unknown_item_type_as_written_whatever_the_enums_are_named(
        tmp_path):
    """interpreter/testing/scenario_values.py _typed: `param xs = []` has items of no known type,
    so a scenario's `xs: [[1, 2], [3]]` is taken as written, each inner list too; the name of
    that unknown type is no name a game may give (round 7's survivor `"any"` -> `"ANY"` then
    checked the inner items as members of the game's `enum ANY`)."""
    from boardwright.interpreter.testing.scenario import run_scenario
    (tmp_path / "any.game").write_text(
        'game "Any"\nplayers 2\nenum ANY { low, high }\nparam xs = []\nvar total: int = 0\n'
        'play {\n  turn 0 {\n    choose n from [1, 2] prompt "Add"\n    total += n + len(xs)\n  }\n}\n'
        'score p { "Total": total }\n')
    path = tmp_path / "any.scenario.yaml"
    path.write_text("name: nested lists\ngame: any.game\nplayers: 2\nstate:\n  vars: {xs: [[1, 2], [3]]}\n"
                    'moves: ["2"]\nexpect:\n  vars: {xs: [[1, 2], [3]], total: 4}\n')
    outcome = run_scenario(path)
    assert outcome.passed, outcome.failures


def test_numbers_the_checker_could_not_type_get_each_operators_arithmetic_and_order(tmp_path):
    """interpreter/run/runtime.py _untyped: an item of a mixed list (`[7, "x"][0]`, of no type the
    checker knows) that holds a number is worked out by the operator as for any number:
    differences, sums, products, quotients, remainders, and each ordering on both sides of its
    boundary (docs/language.md: a text where a number belongs is a rule error, tested in
    test_security.py; a number there is a number). Kills `_ORDERINGS[op](b)` (the exploration of
    seed 301: a crash for every ordering of untyped numbers) and swapped or off-by-one orderings."""
    from boardwright.interpreter.compile.load import load_game
    path = tmp_path / "untyped.game"
    path.write_text(
        'game "Untyped"\nplayers 2\nvar r: list of int = []\nvar total: int = 0\nsetup {\n'
        '  let u = [7, "x"][0]\n  let v = [2, "y"][0]\n  let t = [true, "z"][0]\n'
        '  r = [u - v, v - u, u + v, u * v, u // v, u % v, t + 1,\n'
        '       if u < 7 then 1 else 0, if u <= 7 then 1 else 0, if u > 7 then 1 else 0, if u >= 7 then 1 else 0,\n'
        '       if v < u then 1 else 0, if u > v then 1 else 0, if v >= u then 1 else 0]\n}\n'
        'play {\n  turn 0 {\n    choose n from [1, 2] prompt "Add"\n    total += n\n  }\n}\n'
        'score p { "Total": total }\n')
    st = load_game(str(path)).new_state(2, 1)
    assert st.vars["r"] == [7 - 2, 2 - 7, 7 + 2, 7 * 2, 7 // 2, 7 % 2, 2, 0, 1, 0, 1, 1, 1, 0]


@pytest.mark.parametrize("xdg", [None, "", "config"])
def test_the_cache_key_lives_in_the_users_config_folder_the_security_docs_name(tmp_path, monkeypatch, xdg):
    """dsl/cache.py key_file, docs/security.md: `$XDG_CONFIG_HOME/boardwright/cache-key`, else (unset
    or empty) `~/.config/boardwright/cache-key`. Kills the `.config` left out of the join (the
    exploration of seed 301: the key in ~/boardwright/)."""
    from boardwright.dsl import cache
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    if xdg is None:
        monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / xdg) if xdg else "")
    base = tmp_path / xdg if xdg else tmp_path / "home" / ".config"
    assert cache.key_file() == base / "boardwright" / "cache-key"


def test_the_language_server_analyses_a_file_with_two_broken_declarations_without_them(tmp_path):
    """cli/lsp.py RulesServer._recover: each syntax error's declaration is left out in turn (up to
    8), and what remains is checked: with two broken declarations, the diagnostics are the
    first syntax error's, and completion still offers the declarations that parse and their
    types after a dot. Kills `err = None` for the second error (the exploration of seed 301:
    the recovery crashed at the second broken declaration)."""
    from boardwright.cli.lsp import RulesServer, completions
    text = LSP_TYPES.replace("var total: int = 0\n", "var total: int = 0\nfn broken_one() -> int = ]\n"
                                                     "fn broken_two() -> int = )\n")
    path = tmp_path / "broken.game"
    path.write_text(text)
    server = RulesServer()
    diagnostics = server.analyse(path.as_uri(), text)
    # `]` where an expression belongs: E105, a token the grammar does not allow (docs/diagnostics.md)
    assert [(d.code, d.range.start.line) for d in diagnostics if d.severity == 1] == [("E105", 5)]
    analysis = server.analyses[path.as_uri()]
    names = {item.label for item in completions(analysis.spec, analysis.module, "  let x = ", analysis, 10)}
    assert {"bid_size", "step_x", "corner", "Bid", "Step"} <= names and not {"broken_one", "broken_two"} & names
    line = text.splitlines().index(next(t for t in text.splitlines() if t.startswith("fn bid_size")))
    assert {item.label for item in completions(analysis.spec, analysis.module, "  m.", analysis, line)} == \
        {"amount", "suit"}


def test_a_pile_on_the_play_screen_shows_equal_components_once_with_their_count(tmp_path):
    """cli/render.py _counted (docs/cli.md, play: "in a pile, equal components are shown once,
    with their count"): three, two and one copy give `3 x A, 2 x B, C`, in the pile's order.
    Kills `n > 2` (the exploration of seed 301: a pair shown as one card) and `n >= 1`."""
    from boardwright.cli.render import render_table
    from boardwright.interpreter.compile.load import load_game
    from web_support import SECRET_RULES
    (tmp_path / "cards.yaml").write_text(
        "provenance: test data\ncomponents:\n  Card:\n    label: \"{name}\"\n    attributes: {name: str, seat: int}\n"
        "    items:\n      - {name: Aardvark, seat: 0, copies: 3}\n      - {name: Bison, seat: 0, copies: 2}\n"
        "      - {name: Cobra, seat: 0}\n      - {name: Dingo, seat: 1}\n")
    path = tmp_path / "secret.game"
    path.write_text(SECRET_RULES)
    game = load_game(str(path))
    st = game.new_state(2, 1)
    lines = render_table(game, game.observe(st, 0)).splitlines()
    assert "hand of Player 1: 3 x Aardvark, 2 x Bison, Cobra" in lines
    assert "hand of Player 2: 1 face down" in lines


def _docs_example(command_start: str) -> list:
    """The output lines of docs/cli.md's example that starts with `$ boardwright COMMAND_START`."""
    from pathlib import Path
    text = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")
    block = text.split(f"$ boardwright {command_start}", 1)[1].split("```", 1)[0]
    return block.splitlines()[1:]


def test_probes_text_report_is_the_one_docs_cli_shows_for_the_same_figures():
    """interpreter/playtest/probe.py format_probe against docs/cli.md's `probe` example (its
    figures given back as the report): the title, gold and opponent lines, the positions line,
    the table's header, rows and widths, the settings and the closing notes. Kills a string
    mutant of any of them (the exploration of seed 301: the header's 'regret' in capitals), a
    width or a plural's test."""
    from boardwright.interpreter.playtest.probe import format_probe
    settings = "mcts (iterations={}, depth=0, guide=3, exploration=0.7, width=6)"
    report = {"game": "Punto", "variant": None, "players": 2, "seed": 1, "games": 2, "repeats": 3,
              "gold_settings": settings.format(1000), "opponent_settings": "greedy (lookahead=200)",
              "positions": 4, "per_game": [{"positions": 2}, {"positions": 2}], "choices": 12,
              "bots": [{"bot": "mcts", "settings": settings.format(400), "agreement": 7, "regret": 0.0028,
                        "cpu_per_decision": 0.152},
                       {"bot": "mcts:iterations=100", "settings": settings.format(100), "agreement": 6,
                        "regret": 0.0080, "cpu_per_decision": 0.032}],
              "gold_cpu_per_decision": 0.353}
    assert format_probe(report).splitlines() == _docs_example("probe punto")[:-1]    # the last: the time taken
    one = dict(report, games=1, repeats=1, per_game=[{"positions": 4}], variant="team")
    assert format_probe(one).splitlines()[:4:3] == [
        "Punto (team), 2 players, seed 1",
        "  positions: 4 in 1 game (4), played by mcts; each decided 1 time by every bot"]
    none = dict(report, choices=0)
    assert format_probe(none).splitlines()[4:] == [
        "  no position: the gold search never weighed two options at the probed seat's decisions"]


@pytest.mark.parametrize("unused, shown", [(0, ""), (1, " (1 warning)"), (2, " (2 warnings)"), (3, " (3 warnings)")])
def test_validate_counts_a_targets_warnings_in_words_singular_for_one(tmp_path, capsys, unused, shown):
    """cli/authoring_commands.py cmd_validate (docs/cli.md: `ok: TARGET: TITLE (N warnings)`): no
    count without warnings, "1 warning", "2 warnings"; with --strict, "failed (--strict)" and
    exit 1. Kills the plural's `!= 1` made `!= 2` (the exploration of seed 301) and the count's
    bounds."""
    from boardwright.cli.main import main
    path = tmp_path / "warned.game"
    path.write_text('game "Warned"\nplayers 2\nvar total: int = 0\n'
                    + "".join(f"var unused{i}: int = 0\n" for i in range(unused))
                    + 'play {\n  turn 0 {\n    choose n from [1, 2] prompt "Add"\n    total += n\n  }\n}\n'
                      'score p { "Total": total }\n')
    assert main(["validate", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out == f"ok: {path}: Warned{shown}\n" and err.count("warning: ") == unused
    assert main(["validate", "--strict", str(path)]) == (1 if unused else 0)
    out, _ = capsys.readouterr()
    assert out == f"{'failed (--strict)' if unused else 'ok'}: {path}: Warned{shown}\n"


# The commands of the docs' shown outputs that take a moment: run in process by the test below.
# The others (playing many games, a server, an interactive table) are tests/test_docs_outputs.py's
# alone, a slow test whose commands run in forks the mutation samples' line contexts do not see.
QUICK_COMMANDS = {"validate", "explain", "info", "compile", "fmt", "test", "check", "new"}
# Left to the slow test for their CPU time: every Punto scenario (1.8 s; the PASS lines are pinned
# by the other examples), Hypothesis over Punto (2 s; check's verdict line by the small game's).
LONG_QUICK = {"test games/punto/scenarios", "check punto --players 2 --examples 2"}


def _quick_shown_outputs():
    """(document, command, shown lines, files of the document, the block's commands before it)
    of each shown output of a quick command, up to the first command of its block that is not
    quick (a later one may read what that one wrote)."""
    import regen_docs
    found = []
    for document in regen_docs.DOCUMENTS:
        shown, files = regen_docs.parse(document.read_text(encoding="utf-8").splitlines())
        for block in shown:
            if block.stdin:
                continue
            for number, (command, lines) in enumerate(block.sections):
                words = command.split()
                if words[0] != "boardwright" or words[1] not in QUICK_COMMANDS:
                    break
                if " ".join(words[1:]) not in LONG_QUICK:
                    found.append((document.name, command, lines, files, [c for c, _ in block.sections[:number]]))
    return found


@pytest.mark.parametrize("document, command, shown, files, earlier", _quick_shown_outputs(),
                         ids=[f"{d}: {c}" for d, c, _, _, _ in _quick_shown_outputs()])
def test_each_shown_output_of_a_quick_command_is_what_the_command_prints_in_process(
        tmp_path, monkeypatch, capsys, document, command, shown, files, earlier):
    """Every output docs/*.md shows for validate, explain, info, compile, fmt, test, check and new
    (tests/regen_docs.py's rules: `...` for any lines, timings not compared), run in process so
    that the mutation samples' line contexts see which lines each example runs: a string,
    count or plural mutant of these commands' reports (validate's warnings, explain's sections,
    test's PASS and FAIL lines, check's report, info's table) fails here as in the slow
    tests/test_docs_outputs.py."""
    import shlex

    import regen_docs
    from boardwright.cli.main import main
    (tmp_path / "games").symlink_to(regen_docs.REPO / "games")
    (tmp_path / "examples").symlink_to(regen_docs.REPO / "docs" / "examples")
    for name, text in files:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(regen_docs.BUNDLED_PATH.sub(lambda m: f'"{tmp_path / "games"}/{m.group(1)}"', text),
                                     encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for name, value in (("COLUMNS", "80"), ("LINES", "30"), ("NO_COLOR", "1")):
        monkeypatch.setenv(name, value)
    for before in earlier:                  # what they write, this one may read
        main(shlex.split(before)[1:])
    capsys.readouterr()
    main(shlex.split(command)[1:])
    out, err = capsys.readouterr()
    printed = [line.rstrip() for line in (err + out).rstrip("\n").splitlines()]    # as a pipe gets them
    assert regen_docs.matches(shown, printed), "\n".join(printed)


def test_compiled_rules_are_read_back_from_the_disk_cache_and_only_for_their_own_file_name(monkeypatch, tmp_path):
    """interpreter/compile/codegen.py compiled: a second process (the memory forgotten) reads the
    code object the first stored instead of compiling again (docs/performance.md's warm load),
    but not one stored for the same source under another file name (its tracebacks would name
    the wrong rules). Kills the type test made on `None` (the exploration of seed 301: every
    cached code object refused, each load compiling afresh)."""
    from boardwright.interpreter.compile import codegen
    monkeypatch.setenv("BOARDWRIGHT_CACHE", str(tmp_path))
    source = "answer = 6 * 7\n"
    codegen.forget_compiled()
    first = codegen.compiled(source, "<rules a>")
    codegen.forget_compiled()
    compiles = []
    original = compile

    def counting(*args, **kwargs):
        compiles.append(args[1])
        return original(*args, **kwargs)
    monkeypatch.setattr("builtins.compile", counting)
    again = codegen.compiled(source, "<rules a>")
    assert compiles == [] and again is not first and again.co_filename == "<rules a>"
    other = codegen.compiled(source, "<rules b>")
    assert compiles == ["<rules b>"] and other.co_filename == "<rules b>"
    codegen.forget_compiled()


def test_probe_seats_the_first_bot_at_the_probed_seat_of_each_game(tmp_path, monkeypatch):
    """interpreter/playtest/probe.py probe_decisions (docs/cli.md probe: the games `simulate --bots
    FIRST,OPPONENT --rotate` plays, the same seeds and seats): in game k the first bot sits at
    seat k mod n and every other seat gets the opponent. Kills the rotation
    turned off (`seat_bots(..., None)`, the exploration of seed 301: game 2's probed positions
    played by the opponent)."""
    from boardwright.interpreter.compile.load import load_game
    from boardwright.interpreter.playtest import probe
    path = tmp_path / "turns.game"
    path.write_text('game "Turns"\nplayers 2\nvar total: int per player = 0\nplay {\n  for r in range(3) {\n'
                    '    for p in players {\n      turn p {\n        choose n from [1, 2, 3] prompt "Add"\n'
                    '        total[p] += n\n      }\n    }\n  }\n}\nscore p { "Total": total[p] }\n')
    seats = []
    original = probe.make_bot

    def recording(spec, seed, game):
        if isinstance(seed, str) and seed.count(":") == 1 and not seed.startswith(("gold", "probe")):
            seats.append((seed, spec))
        return original(spec, seed, game)
    monkeypatch.setattr(probe, "make_bot", recording)
    report = probe.probe_decisions(load_game(str(path)), 2, ["greedy"], "mcts:iterations=20", "random",
                                   games=3, positions=1, repeats=1, seed=1)
    seeds = [g["seed"] for g in report["per_game"]]
    assert seats == [(f"{seeds[0]}:0", "greedy"), (f"{seeds[0]}:1", "random"),
                     (f"{seeds[1]}:0", "random"), (f"{seeds[1]}:1", "greedy"),
                     (f"{seeds[2]}:0", "greedy"), (f"{seeds[2]}:1", "random")]


class _Handed(BaseException):
    """Raised by a stand-in for the games' runner once it has seen what a command handed it."""


@pytest.mark.parametrize("module, argv", [
    ("boardwright.cli.playtest_commands", ["simulate", "punto", "--players", "2", "--games", "4"]),
    ("boardwright.cli.playtest_commands", ["compare", "punto", "--players", "2", "--games", "4",
                                           "--set", "win_length=3"]),
    ("boardwright.interpreter.playtest.sweep", ["sweep", "punto", "--players", "2", "--games", "4",
                                                "--set", "win_length=3..4"]),
    ("boardwright.cli.tune_commands", ["tune", "punto", "--players", "2", "--games", "4", "--budget", "40",
                                       "--param", "win_length=3..4", "--goal", "first-player=0.5"]),
])
def test_every_command_that_plays_many_games_hands_its_workers_and_cluster_to_the_games_runner(
        monkeypatch, capsys, module, argv):
    """docs/cli.md: `--workers W` and `--cluster ADDRESS` of simulate, compare, sweep and tune play
    the games over W processes or on a Dask cluster. Each command hands both to
    simulate_records as given. Kills sweep's `cluster=None` (the fresh sample of seed 30: a
    sweep over a cluster played on this machine) and the same for the others."""
    import importlib

    from boardwright.cli.main import main
    seen = []

    def runner(*args, **kwargs):
        seen.append((kwargs.get("workers"), kwargs.get("cluster")))
        raise _Handed
    monkeypatch.setattr(importlib.import_module(module), "simulate_records", runner)
    with pytest.raises(_Handed):
        main([*argv, "--workers", "3", "--cluster", "tcp://127.0.0.1:1", "--quiet"])
    assert seen == [(3, "tcp://127.0.0.1:1")]


@pytest.mark.parametrize("rotate", [False, True])
def test_the_score_figure_grows_with_the_players_and_its_histograms_column_is_the_widest(rotate):
    """interpreter/playtest/report.py score_figure (`simulate --plot`, docs/cli.md: one histogram per
    seat, one above the other, beside the win rate per seat and, with several bots, per bot):
    the figure grows taller with every player, so that a seat's histogram stays at least 0.9
    inch high (90 pixels at the PNG's 100 dpi) for 2 and 6 players; the histograms' column is
    the widest, and the two win-rate panels are equally wide. Kills `1.6 / players` (every figure 4.5 inches high, its rows squeezed) and
    the width ratio `[1.5, 1, 2]` (the fresh sample of seed 30)."""
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt

    from boardwright.interpreter.playtest import report as rp
    heights, figures = [], []
    for players in (2, 6):
        bots = ["greedy"] + ["random"] * (players - 1) if rotate else [f"greedy:lookahead={p + 1}" for p in range(players)]
        records = [{"index": i, "seed": i, "turns": 10, "decisions": 10, "options": 20, "lead_changes": 1,
                    "first_player": 0, "winners": [i % players], "scores": [(p + i) % 3 for p in range(players)],
                    "bots": bots[i % players:] + bots[:i % players] if rotate else bots,
                    "lines": [{"Points": (p + i) % 3} for p in range(players)], "endings": []} for i in range(6)]
        report = rp.summarise(records, {"game": "Race", "variant": None, "players": players, "seed": 1,
                                        "bots": bots, "rotate": rotate, "seconds": 1.0})
        figure = rp.score_figure(records, report, lambda seat: f"Player {seat + 1}")
        try:
            inches = figure.get_size_inches()
            figures.append(inches[1])
            histograms = [ax for ax in figure.axes if ax.get_ylabel() == "games"]
            panels = [ax for ax in figure.axes if ax not in histograms]
            assert len(histograms) == players and len(panels) == (2 if rotate else 1)
            heights += [ax.get_position().height * inches[1] for ax in histograms]
            width = histograms[0].get_position().width
            assert all(width > 1.2 * ax.get_position().width for ax in panels)
            assert len({round(ax.get_position().width, 4) for ax in panels}) == 1
        finally:
            plt.close(figure)
    assert all(lower < higher for lower, higher in zip(figures, figures[1:])) and min(heights) >= 0.9


def test_a_placement_option_on_the_web_table_gives_the_piece_its_quarter_turns_its_cells_and_grids(tmp_path):
    """cli/web/looks.py placement_of: the keys the page's pieces.js reads from a placement option
    (`placement.piece`, `.turn`, `.cells`, `.grids`), exactly, with the turn in quarter turns as
    `turned N` counts them (docs/language.md): a bar (two across) lies across at an even turn and
    upright at an odd one. Kills the string mutant of any of the keys ("turn" -> "XXturnXX" in
    the fresh sample of seed 30: the page could not turn a piece)."""
    from test_serve_pieces import FLOATING_RULES
    from test_shapes import DATA as SHAPES_DATA

    from boardwright.cli.web.looks import seat_view
    from boardwright.interpreter.compile.load import load_game
    (tmp_path / "pieces.yaml").write_text(SHAPES_DATA)
    (tmp_path / "g.game").write_text(FLOATING_RULES)
    game = load_game(str(tmp_path / "g.game"))
    options = seat_view(game, game.new_state(2, 1), 0, ["human", "human"])["decision"]["options"]
    assert len(options) == 4 and all(set(o["placement"]) == {"piece", "turn", "cells", "grids"} for o in options)
    for option in options:
        rows = {cell.split(",")[1] for cell in option["placement"]["cells"]}
        assert option["placement"]["turn"] % 2 == (0 if len(rows) == 1 else 1), option
        assert option["placement"]["grids"] == ["board"]


def test_a_picture_grid_wider_than_the_screen_is_drawn_in_pages_that_show_each_column_once():
    """cli/render.py render_picture (docs/cli.md, play: "tables wider than the terminal are drawn
    in pages of columns ... so an 80-column terminal shows everything"): ten columns of 6-character cells on
    a 40-character screen give pages no wider than the screen whose headers name columns 0 to
    9 once each, in order, with each cell's picture under its column. Kills the pages counted
    from column 1 (`range(1, ...)`, the fresh sample of seed 30: column 0 never drawn)."""
    from boardwright.cli.render import render_picture
    glyphs = {f"{x},0": [f"c{x}"] for x in range(10)}
    lines = render_picture(glyphs, (6, 1), None, width_limit=40)
    assert max(len(line) for line in lines) <= 40
    headers = [line for line in lines if line.startswith("       ") and line.strip() and line.strip()[0].isdigit()]
    columns = [int(n) for line in headers for n in line.split()]
    assert len(headers) > 1 and columns == list(range(10))
    pictures = [word for line in lines if line.lstrip().startswith("0 |") for word in line.split("|")[1:-1]]
    assert [word.strip() for word in pictures] == [f"c{x}" for x in range(10)]


@pytest.mark.parametrize("text, message", [
    ("", "scenario: the file is empty: it must be a mapping (key: value lines)"),
    ("# nothing yet\n", "scenario: the file is empty: it must be a mapping (key: value lines)"),
    ("name: x\n", "scenario: the file needs the key 'game'"),
])
def test_a_scenario_file_with_nothing_to_run_fails_at_its_first_line_in_words(tmp_path, text, message):
    """interpreter/testing/scenario_file.py: a scenario file that is empty (no YAML node at all),
    only a comment, or lacks its game is a failure at line 1, column 1, in the schema's words
    (docs/scenarios.md), never an internal error. Kills the empty file's span built with an
    argument missing (`Span(path, 1, 1, 2)`, the fresh sample of seed 30: a TypeError)."""
    from boardwright.interpreter.testing.scenario import run_scenario
    path = tmp_path / "s.scenario.yaml"
    path.write_text(text)
    outcome = run_scenario(path)
    assert not outcome.passed and len(outcome.failures) == 1
    assert outcome.failures[0].splitlines()[0] == f"{path}:1:1: error: {message}"


TOKENS = "provenance: test\ncomponents:\n  Token:\n    attributes: {n: int}\n    items:\n      - {n: 1}\n"

def _the_setups_rule_error(tmp_path, declarations: str, call: str):
    """The one rule error of a small game's setup whose line 8 is `let t = CALL` (the game's data
    in pieces.yaml, its other declarations on lines 4 and 5)."""
    from boardwright.dsl.errors import BoardwrightError
    from boardwright.interpreter.compile.load import load_game
    path = tmp_path / "setup.game"
    path.write_text(f'game "Setup"\nplayers 2\ndata "pieces.yaml"\n{declarations}\nvar total: int = 0\n'
                    f'setup {{\n  let t = {call}\n  total = 1\n}}\n'
                    'play {\n  turn 0 {\n    choose n from [1, 2] prompt "Add"\n    total += n\n  }\n}\n'
                    'score p { "Total": total }\n')
    game = load_game(str(path))
    with pytest.raises(BoardwrightError) as caught:
        game.new_state(2, 1)
    [problem] = caught.value.diagnostics
    return problem


@pytest.mark.parametrize("call", [
    'touches([(0, 0)], [(1, 0)], adj)', 'touches_owned(board, [(0, 0)], adj, "n", 1)', 'neighbours((0, 0), adj)',
    'frontier(board, adj)', 'frontier(board, adj, "n", 1)', 'groups(board, "n", adj)'])
def test_an_adjacency_named_at_run_time_that_no_grid_knows_is_a_rule_error_naming_the_three(tmp_path, call):
    """interpreter/run/shaped.py adjacency_steps, for every grid function that takes an adjacency
    (docs/language.md): the checker refuses an unknown adjacency written in the rules; one a
    var holds is refused when the call runs, at its line, in the same words for every function
    ("unknown adjacency 'sideways': use ..."). Kills the message made `None` (the fresh sample of
    seed 30: `Problem(None)`, a crash); `neighbours` and `frontier` said "there is no entry
    'sideways' here" before this round."""
    (tmp_path / "pieces.yaml").write_text(TOKENS)
    problem = _the_setups_rule_error(tmp_path, "zone board: grid of Token\nvar adj: str = \"sideways\"", call)
    assert (problem.span.line, problem.message, problem.code) == \
        (8, "unknown adjacency 'sideways': use \"orthogonal\", \"diagonal\" or \"all\"", "E606")


def test_a_scenarios_key_problems_are_each_at_their_key_with_the_hint_that_mends_them(tmp_path):
    """interpreter/testing/scenario_file.py read: a key given twice and a key that is not a name
    (`1:`) are refused before the schema, each at its key, in the data files' words with
    "scenario: " before them and their hints (where the key was first given; quote it).
    Kills the hints dropped (`None`, the fresh sample of seed 30)."""
    from boardwright.interpreter.testing.scenario import run_scenario
    path = tmp_path / "keys.scenario.yaml"
    path.write_text("game: punto\nplayers: 2\ngame: punto\n1: x\n")
    outcome = run_scenario(path)
    assert outcome.failures == [
        f"{path}:3:1: error: scenario: the key 'game' is given twice\n    game: punto\n    ^^^^\n"
        f"    hint: first given at line 1\n"
        f"{path}:4:1: error: scenario: the key '1' is not a name\n    1: x\n    ^\n    hint: quote it to make it a name"]


def test_help_texts_write_the_proper_names_the_cli_docs_write_with_their_capital():
    """cli/*: the complement of round 6's lower-case rule for help texts: a name docs/cli.md
    writes with a capital in mid-sentence and never in lower case (Dask, Hypothesis, Pareto,
    Wilson, ...) keeps its capital in every option's help and every command's description.
    Kills `--cluster`'s "a Dask scheduler" written "a dask scheduler" (the fresh sample of
    seed 30), which the lower-case rule lets pass."""
    import argparse
    import re
    from pathlib import Path

    from boardwright.cli.main import build_parser
    docs = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")
    lower = set(re.findall(r"\b[a-z]+\b", docs))
    proper = {w for w in re.findall(r"(?<=[a-z,] )([A-Z][a-z]+)\b", docs) if w.lower() not in lower}
    assert {"Dask", "Hypothesis", "Wilson"} <= proper
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    texts = [(name, action.help) for name, sub in {"": parser, **commands}.items() for action in sub._actions
             if action.help and action.help != argparse.SUPPRESS]
    texts += [(name, sub.description) for name, sub in commands.items() if sub.description]
    assert len(texts) > 150
    assert [(name, word) for name, text in texts for word in re.findall(r"\b[a-z]+\b", text)
            if word.capitalize() in proper] == []


@pytest.mark.parametrize("call", [
    "turns(q)", "covers(q, (0, 0), 0)", "shape_fits(board, q, (0, 0), 0)", "shape_free(board, q, (0, 0), 0)",
    "placements_of(board, [q], [(0, 0)])", "any_placement(board, [q], [(0, 0)])"])
def test_a_shape_function_given_a_value_that_is_no_component_says_so_at_its_line(tmp_path, call):
    """interpreter/run/shaped.py, every function of a piece's shape (docs/language.md, Shapes):
    a value the checker could not type (an item of a mixed list) that is no component is a
    rule error at the call's line, "'x' is not a component, so it has no shape", for one piece
    or a list of them. Kills `orientations_of(c)` without the runtime in the placements
    search (the fresh sample of seed 30: a TypeError, an internal error)."""
    from test_shapes import DATA as SHAPES_DATA
    (tmp_path / "pieces.yaml").write_text(SHAPES_DATA)
    problem = _the_setups_rule_error(tmp_path, "zone board: grid of Piece size 5 x 4\nvar moves: int = 0",
                                     call.replace("q", '["x", 1][0]'))
    assert (problem.span.line, problem.message) == (8, "'x' is not a component, so it has no shape")


def test_a_variant_that_only_changes_what_a_choice_chooses_from_is_a_change(tmp_path, capsys):
    """dsl/formatter.py strip_spans, used to compare a variant's declarations with its base's
    (`explain`'s changes, lint's "this variant changes nothing"): a choice's `source`, the list it
    chooses from, is part of the rule, not a position. The fresh sample of seed 31 found that the
    field was left out of every comparison (its mutant survived): a variant whose play offered
    [1, 2, 3] instead of [1, 2] was "a variant that changes nothing" with a warning, and
    `explain` listed no change. Only the module's own text is left out, besides positions."""
    from boardwright.cli.main import main
    play = 'play {\n  turn 0 {\n    choose n from [1, 2] prompt "Add"\n    total += n\n  }\n}\n'
    (tmp_path / "base.game").write_text(f'game "Count"\nplayers 2\nvar total: int = 0\n{play}score p {{ "Total": total }}\n')
    variant = tmp_path / "more.game"
    variant.write_text('variant "more" extends "base.game"\n' + play.replace("[1, 2]", "[1, 2, 3]"))
    assert main(["validate", "--strict", str(variant)]) == 0
    assert capsys.readouterr() == (f"ok: {variant}: Count (more)\n", "")
    assert main(["explain", str(variant)]) == 0
    out = capsys.readouterr().out
    assert out.split("Changes\n", 1)[1].splitlines()[:3] == [
        "  replaces play:", "    turn of 0:", '      the current player chooses n from [1, 2, 3] (asked: "Add")']


def test_the_summary_counts_each_named_ending_once_per_game_it_decided():
    """interpreter/playtest/report.py summarise (docs/cli.md, simulate: "games decided by named
    endings and fallbacks: NAME COUNT"): each game adds one to each ending it names. Kills
    `+ 2` (the fresh sample of seed 31: every ending counted twice)."""
    from boardwright.interpreter.playtest import report as rp
    records = [{"index": i, "seed": i, "turns": 10, "decisions": 10, "options": 20, "lead_changes": 0,
                "first_player": 0, "winners": [0], "scores": [1, 0], "bots": ["random", "random"],
                "lines": [{"Points": 1}, {"Points": 0}], "endings": endings}
               for i, endings in enumerate([["stuck"], [], ["stuck", "timeout"], ["timeout"], ["stuck"]])]
    report = rp.summarise(records, {"game": "Race", "variant": None, "players": 2, "seed": 1,
                                    "bots": ["random", "random"], "rotate": False, "seconds": 1.0})
    assert report["endings"] == {"stuck": 3, "timeout": 2}


def test_only_the_lowest_histogram_of_the_score_figure_labels_the_shared_score_axis():
    """interpreter/playtest/report.py score_figure (docs/cli.md: the seats' histograms one above
    the other, on one scale): the score axis is labelled once, under the lowest histogram, whose
    tick labels are shown; the others hide theirs. Kills `p <= players - 1` (the fresh sample of
    seed 31: no histogram labelled its scores)."""
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt

    from boardwright.interpreter.playtest import report as rp
    records = [{"index": i, "seed": i, "turns": 10, "decisions": 10, "options": 20, "lead_changes": 1,
                "first_player": 0, "winners": [i % 3], "scores": [(p + i) % 4 for p in range(3)],
                "bots": ["random"] * 3, "lines": [{"Points": (p + i) % 4} for p in range(3)], "endings": []}
               for i in range(6)]
    report = rp.summarise(records, {"game": "Race", "variant": None, "players": 3, "seed": 1,
                                    "bots": ["random"] * 3, "rotate": False, "seconds": 1.0})
    figure = rp.score_figure(records, report, lambda seat: f"Player {seat + 1}")
    try:
        figure.canvas.draw()
        histograms = [ax for ax in figure.axes if ax.get_ylabel() == "games"]
        shown = [[t.get_text() for t in ax.get_xticklabels() if t.get_visible() and t.get_text()] for ax in histograms]
        assert [bool(labels) for labels in shown] == [False, False, True]
        assert [ax.get_xlabel() for ax in histograms] == ["", "", "final score"]
    finally:
        plt.close(figure)


COUNT_GAME = ('game "Count"\nplayers 2\nvar total: int = 0\n'
              'play {\n  while total < 4 {\n    turn 0 {\n      choose n from [1, 2] prompt "Add"\n      total += n\n    }\n  }\n}\n'
              'score p { "Total": total }\n')


def test_check_with_coverage_prints_the_rule_coverage_after_its_verdict(tmp_path, capsys):
    """cli/testing_commands.py cmd_check (docs/cli.md: `--coverage` also reports rule coverage
    over --examples random games): the verdict line, then the coverage report's title and its
    statement count. Kills `print(None)` (the fresh sample of seed 31: "None" for the report)."""
    from boardwright.cli.main import main
    path = tmp_path / "count.game"
    path.write_text(COUNT_GAME)
    assert main(["check", str(path), "--players", "2", "--examples", "2", "--coverage"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("ok: Count: 2 games, ") and lines[0].endswith(" properties held after every step")
    assert lines[1] == "Rule coverage of Count over 2 games" and lines[2].startswith("  statements run: ")
    assert "None" not in lines


def test_a_sweep_plays_every_point_with_the_params_it_fixes(monkeypatch):
    """interpreter/playtest/sweep.py run_sweep (docs/cli.md sweep: `--set NAME=VALUE` fixes a param
    at every point): the games of each point are played, and named to the worker processes,
    with the fixed params and the point's own. Kills `(fixed and {})` (the fresh sample of
    seed 31: the fixed params dropped)."""
    from boardwright.interpreter.compile.load import load_game
    from boardwright.interpreter.playtest import sweep
    from boardwright.interpreter.playtest.param_ranges import parse_range
    played = []

    def runner(game, players, games, seed, specs, **options):
        played.append(dict(options["ref"][2]))
        return [{"index": 0, "seed": seed, "turns": 4, "decisions": 4, "options": 8, "lead_changes": 0,
                 "first_player": 0, "winners": [0], "scores": [1, 0], "bots": specs, "lines": [{}, {}],
                 "endings": []}]
    monkeypatch.setattr(sweep, "simulate_records", runner)
    sweep.run_sweep(lambda variant: load_game("punto", variant), "punto", None, 2, 1, 1, ["random", "random"],
                    [parse_range("win_length=3..4")], fixed={"max_rounds": "7"})
    assert played == [{"max_rounds": "7", "win_length": "3"}, {"max_rounds": "7", "win_length": "4"}]


def test_the_parser_tables_are_cached_per_grammar_lark_version_and_python_version(monkeypatch, tmp_path):
    """dsl/grammar.py _grammar_cache: Lark's tables are pickled, and a pickle is only safe to read
    back with the same grammar, Lark and Python (major and minor) version, so the cache file's
    name holds all four: another grammar text, Lark or Python gets another file. Kills the
    micro version in place of the minor (the fresh sample of seed 31: Python 3.11.7 and 3.12.7
    would share `py37`)."""
    import sys

    import lark

    from boardwright.dsl import grammar
    monkeypatch.setenv("BOARDWRIGHT_CACHE", str(tmp_path))
    path = grammar._grammar_cache("start: NAME")
    assert path.parent == tmp_path and path.name.startswith("grammar-")
    assert path.name.endswith(f"-lark{lark.__version__}-py{sys.version_info.major}{sys.version_info.minor}.cache")
    assert grammar._grammar_cache("start: NUMBER") != path


def _board_view(game, st) -> dict:
    """The web view of the zone `board`, as seat 0 of two humans sees it."""
    from boardwright.cli.web.looks import seat_view
    return next(z for z in seat_view(game, st, 0, ["human", "human"])["zones"] if z["key"] == "board")

def test_an_empty_grid_without_a_size_has_no_bounds_in_the_web_view(tmp_path):
    """cli/web/looks.py grid_view: a grid without a size, with nothing on it and no option on it,
    has no cells and no bounds (`null`, which table.js reads as "(empty)"), size 0; one piece on
    it bounds it to that cell. Kills `bounds = ""` (the fresh sample of seed 31: a text where the
    view's JSON has null)."""
    from boardwright.interpreter.compile.load import load_game
    (tmp_path / "pieces.yaml").write_text(TOKENS)
    path = tmp_path / "grid.game"
    path.write_text('game "Grid"\nplayers 2\ndata "pieces.yaml"\nzone board: grid of Token\nzone bag: pile of Token\n'
                    'var total: int = 0\nsetup { move components(Token) to bag }\n'
                    'play {\n  turn 0 {\n    choose n from [1, 2] prompt "Add"\n    total += n\n  }\n'
                    '  move components(Token) to board at (2, 3)\n}\nscore p { "Total": total }\n')
    game = load_game(str(path))
    st = game.new_state(2, 1)
    board = _board_view(game, st)
    assert (board["cells"], board["bounds"], board["size"]) == ([], None, 0)
    game.apply_index(st, 0)
    board = _board_view(game, st)
    assert (board["bounds"], board["size"]) == ([2, 3, 2, 3], 1)



def test_the_traces_end_line_gives_each_opponent_sheet_with_its_title_and_lines(tmp_path):
    """cli/trace.py end_record (docs/logs.md, the trace's `end` line: "with opponents, `opponents`
    (each a `title` and its `lines`)"): a game with a scripted opponent ends with its sheet,
    worked out by its rules (here 2 + 3). Kills the opponents written `None` (the fresh sample
    of seed 31)."""
    from boardwright.cli.trace import end_record
    from boardwright.interpreter.compile.load import load_game
    path = tmp_path / "solo.game"
    path.write_text('game "Solo"\nplayers 1\nvar total: int = 0\nplay {\n  turn 0 {\n'
                    '    choose n from [1, 2] prompt "Add"\n    total += n\n  }\n}\nscore p { "Total": total }\n'
                    'opponent "Rival" {\n  "Points": 2 + 3\n}\n')
    game = load_game(str(path))
    st = game.new_state(1, 1)
    game.apply_index(st, 1)
    record = end_record(game, st)
    assert record["finished"] and record["scores"] == [2]
    assert record["opponents"] == [{"title": "Rival", "lines": {"Points": 5}}]



@pytest.mark.parametrize("call", ["double(2)", "max([1, 2])"])
def test_a_function_called_as_a_statement_is_refused_with_the_hint_to_use_its_value(tmp_path, call):
    """dsl/check_statements.py stmt_CallStmt: a fn of the rules or a built-in called as a
    statement is refused at the call, "'NAME' is a function: its value would be unused", with
    the hint "use it in an expression, e.g. 'let x = ...'". Kills a string mutant of the
    message or hint (the fresh sample of seed 31)."""
    from boardwright.dsl.errors import BoardwrightError
    from boardwright.interpreter.compile.load import load_game
    path = tmp_path / "call.game"
    path.write_text('game "Call"\nplayers 2\nvar total: int = 0\nfn double(n: int) -> int = 2 * n\n'
                    f'play {{\n  turn 0 {{\n    choose n from [1, 2] prompt "Add"\n    {call}\n    total += n\n  }}\n}}\n'
                    'score p { "Total": total }\n')
    with pytest.raises(BoardwrightError) as caught:
        load_game(str(path))
    name = call.split("(")[0]
    assert [(d.span.line, d.span.column, d.message, d.hint) for d in caught.value.diagnostics] == [
        (8, 5, f"'{name}' is a function: its value would be unused", "use it in an expression, e.g. 'let x = ...'")]


def test_a_grid_with_a_size_is_bounded_by_its_whole_size_in_the_web_view(tmp_path):
    """cli/web/looks.py grid_view: a grid declared `size W x H` shows every cell from (0, 0) to
    (W - 1, H - 1), empty or not, so its bounds are [0, 0, W - 1, H - 1]. Kills the corner
    (1, 0) in place of (0, 0) (the fresh sample of seed 31: column 0 of an empty board cut)."""
    from boardwright.interpreter.compile.load import load_game
    (tmp_path / "pieces.yaml").write_text(TOKENS)
    path = tmp_path / "grid.game"
    path.write_text('game "Grid"\nplayers 2\ndata "pieces.yaml"\nzone board: grid of Token size 4 x 3\n'
                    'var total: int = 0\nplay {\n  turn 0 {\n    choose n from [1, 2] prompt "Add"\n    total += n\n'
                    '  }\n}\nscore p { "Total": total }\n')
    game = load_game(str(path))
    board = _board_view(game, game.new_state(2, 1))
    assert (board["cells"], board["bounds"]) == ([], [0, 0, 3, 2])
