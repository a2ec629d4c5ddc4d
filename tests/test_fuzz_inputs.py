"""A bounded fuzz run over every file format a user hands us and every command's arguments
(issue 31, docs/testing.md "The fuzz run"). Hypothesis (derandomized) draws the cases; they
run in this process, each under a timeout and a memory ceiling:

- documents built from the JSON Schemas in dsl/schemas/ (scenario, saved game, game log,
  component data): the schema walker of tests/test_quick_file_schemas.py names every node,
  and a hostile value (huge numbers, deep nesting, odd unicode, NULs, long texts, values of
  the wrong type) goes at one or two of them;
- texts of valid files mutated as bytes are: truncated, a NUL, a deep bracket nest, a
  thousand-digit number, a stray quote or control character put somewhere;
- argument lists of every command (from its argparse parser): its own flags with values of
  the wrong type, huge or negative counts, empty and long texts, unknown flags, and paths
  that are folders, FIFOs, missing files or dangling symbolic links.

Every case must end with exit 0, 1 or 2 (argparse's own usage exit included), and
"Traceback" and "internal error" must appear nowhere in what it printed."""
from __future__ import annotations

import io
import json
import os
import resource
import shutil
import signal
import sys
from contextlib import contextmanager

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardwright.cli.main import build_parser, main
from boardwright.cli.saves import LOG_FORMAT, SAVE_FORMAT
from boardwright.dsl.loader import GAMES_DIR
from boardwright.dsl.schema_words import SCHEMA_DIR
from conftest import SMALL_DATA, examples
from test_quick_file_schemas import FULL_SCENARIO, TINY, punto_file, put, schema_nodes

CASE_SECONDS = 20           # a case that takes longer is a hang
MEMORY_CEILING = 2 << 30    # bytes a case may add to the address space of this process


class Hang(BaseException):
    """Raised by the alarm: a BaseException, so no `except Exception` of ours can swallow it."""


@contextmanager
def bounded():
    """A timeout (SIGALRM) and an address-space ceiling around one case."""
    def ring(*_):
        rang.append(True)       # seen even if the exception is swallowed (in a gc callback, say)
        raise Hang
    rang = []
    with open("/proc/self/statm") as statm:
        in_use = int(statm.read().split()[0]) * resource.getpagesize()
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    ceiling = in_use + MEMORY_CEILING
    resource.setrlimit(resource.RLIMIT_AS, (ceiling if hard == resource.RLIM_INFINITY else min(ceiling, hard), hard))
    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(CASE_SECONDS)
    try:
        yield rang
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def run_cli(argv: list, capsys, stdin: str = "quit\n") -> tuple:
    """(exit code, everything printed) of one command, in process, bounded."""
    saved_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with bounded() as rang:
            try:
                code = main(argv)
            except SystemExit as exc:        # argparse's usage errors and --help
                code = exc.code
            except Hang:
                code = "hang"
            except MemoryError:
                code = "memory"
        if rang:
            code = "hang"
    finally:
        sys.stdin = saved_stdin
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def assert_clean(what, code, out) -> None:
    assert code in (0, 1, 2, None), (what, code, out[-2000:])
    assert "Traceback" not in out and "internal error" not in out, (what, out[-2000:])


def drawn(strategy, count: int) -> list:
    """`count` values of a strategy, drawn by Hypothesis (derandomized under the default `ci`
    profile; `thorough` draws fresh ones, 25 times as many: conftest.examples). The cases are run after
    drawing, so that commands which run Hypothesis themselves, like `check`, are not nested."""
    found = []

    @settings(max_examples=count, suppress_health_check=list(HealthCheck), deadline=None)   # derandomized: the ci profile
    @given(strategy)
    def collect(value):
        found.append(value)
    collect()
    return found


# ------------------------------------------------------------------ hostile values and texts

def nested(depth: int, leaf="x"):
    value = leaf
    for level in range(depth):
        value = [value] if level % 2 else {"k": value}
    return value


HOSTILE_VALUES = st.one_of(
    st.sampled_from([None, True, False, 0, -1, 10 ** 400, -(2 ** 63), 2 ** 64, 1.5, float("inf"), "", "\x00",
                     "a\x00b", "\u202e\u0301", "\ufeff", "𝕏" * 50, "x" * 100_000, "\x1b]0;t\x07", "'''\"\"\"\\",
                     "__import__('os').system('false')", "{x}", "{0.__class__}", "%s%n", "1,2,3", "-0,-0",
                     "99999999999999999999,0", [], {}, [[]], nested(30), nested(300), {"": None}]),
    st.text(max_size=20),
    st.integers(),
    st.lists(st.integers(), max_size=5),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)

PIECES = ["\x00", "[" * 5000, "{" * 5000, "9" * 1000, "-" * 3, '"', "'", "\t", "\r", "\x1b[2J", "&a *a",
          "!!python/object/apply:os.system ['false']", ": : :", "\ud800", '"\\ud835"', "\ufffe", "\n  - ", "}", "]"]

TEXT_MUTATION = st.tuples(st.sampled_from(["truncate", "insert", "replace"]), st.floats(0, 1),
                          st.sampled_from(PIECES), st.integers(0, 20))


def mutate_text(text: str, mutation) -> bytes:
    action, where, piece, size = mutation
    at = int(where * len(text))
    if action == "truncate":
        out = text[:at]
    elif action == "insert":
        out = text[:at] + piece + text[at:]
    else:
        out = text[:at] + piece + text[at + size:]
    return out.encode("utf-8", "surrogatepass")


def schema_cases(schema_name: str, base, count: int) -> list:
    """(description, document) pairs: one or two nodes of the schema given hostile values."""
    schema = json.loads((SCHEMA_DIR / schema_name).read_text())
    paths = [path for path, _ in schema_nodes(schema, schema, base) if path]
    assert len(paths) > 10, "the walker reaches the schema's nodes"
    case = st.lists(st.tuples(st.sampled_from(paths), HOSTILE_VALUES), min_size=1, max_size=2)
    out = []
    for changes in drawn(case, count):
        document = base
        for path, value in changes:
            document = put(document, path, value) or document
        out.append((changes, document))
    return out


def dumped(document, as_json: bool) -> bytes:
    if as_json:
        return json.dumps(document, indent=1).encode()
    try:
        return yaml.safe_dump(document, allow_unicode=True).encode("utf-8", "surrogatepass")
    except (RecursionError, yaml.YAMLError):
        return b"[" * 5000


# ------------------------------------------------------------------ files

SCHEMA_CASES = examples(40)     # per format (docs/testing.md gives the counts and times of a run)
TEXT_CASES = examples(20)


def file_formats(tmp_path):
    """format -> (schema, base document, JSON?, where to write it, the command that reads it)."""
    punto = tmp_path / "punto"
    shutil.copytree(GAMES_DIR / "punto", punto, ignore=shutil.ignore_patterns("scenarios"))
    data = yaml.safe_load((punto / "cards.yaml").read_text())
    scenario = {key: value for key, value in FULL_SCENARIO.items() if key != "variant"}
    scenario.update(game=str(punto / "punto.game"), players=2, moves=["0,0"],
                    state={"vars": {"starter": 1}, "zones": {"table": {}}},
                    expect={"player": 0, "options_include": ["1,1"], "finished": False})
    return {
        "scenario": ("scenario.schema.json", scenario, False, tmp_path / "s.scenario.yaml",
                     lambda path: ["test", str(path)]),
        "saved game": ("saved-game.schema.json", punto_file(SAVE_FORMAT), True, tmp_path / "g.save.json",
                       lambda path: ["play", "--load", str(path)]),
        "game log": ("saved-game.schema.json", punto_file(LOG_FORMAT), True, tmp_path / "g.log.json",
                     lambda path: ["replay", str(path), "--step", "2"]),
        "component data": ("components.schema.json", data, False, punto / "cards.yaml",
                           lambda path: ["validate", str(punto / "punto.game")]),
    }


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["scenario", "saved game", "game log", "component data"])
def test_files_built_from_the_schema_and_mutated_fail_cleanly(tmp_path, capsys, kind):
    schema, base, as_json, path, command = file_formats(tmp_path)[kind]
    valid = dumped(base, as_json)
    path.write_bytes(valid)
    code, out = run_cli(command(path), capsys)
    assert code == 0, out       # the mutations start from a file that works
    cases = [(what, dumped(document, as_json)) for what, document in schema_cases(schema, base, SCHEMA_CASES)]
    cases += [(mutation, mutate_text(valid.decode(), mutation))
              for mutation in drawn(TEXT_MUTATION, TEXT_CASES)]
    for what, content in cases:
        path.write_bytes(content)
        assert_clean((kind, what), *run_cli(command(path), capsys))
    assert len(cases) == SCHEMA_CASES + TEXT_CASES


# ------------------------------------------------------------------ command-line arguments

CLI_CASES = examples(200)
# `serve` and `lsp` run until stopped: their inputs are requests, fuzzed in test_serve.py and test_lsp.py.
LONG_RUNNING = {"serve", "lsp"}


def commands() -> dict:
    """command -> (positional argument count, [(flag, takes a value)]), from the parser itself."""
    parser = build_parser()
    sub = next(a for a in parser._actions if a.choices and "validate" in a.choices)
    found = {}
    for name, command in sub.choices.items():
        if name in LONG_RUNNING:
            continue
        positionals = sum(1 for a in command._actions if not a.option_strings)
        flags = [(a.option_strings[0], a.nargs != 0) for a in command._actions
                 if a.option_strings and a.dest != "help"]
        found[name] = (positionals, flags)
    return found


def odd_paths(tmp_path) -> dict:
    """Names for paths that are folders, FIFOs, missing files, dangling links, a fresh name."""
    folder = tmp_path / "odd"
    folder.mkdir()
    os.mkfifo(folder / "fifo.game")
    (folder / "dangling.game").symlink_to(folder / "nowhere.game")
    (folder / "game").mkdir()
    (folder / "game" / "cards.yaml").write_text(SMALL_DATA)
    (folder / "game" / "tiny.game").write_text(TINY)
    return {"GAME": str(folder / "game" / "tiny.game"), "FOLDER": str(folder / "game"), "FIFO": str(folder / "fifo.game"),
            "MISSING": str(folder / "missing.game"), "DANGLING": str(folder / "dangling.game"),
            "FRESH": str(folder / "out" / "fresh.txt")}


VALUES = ["", "0", "1", "3", "-1", "2147483648", "9" * 400, "1.5", "nan", "abc", "x" * 5000, "-", "--", "punto", "random",
          "random,random", "gredy", "x=1", "marked=99999999999999999999", "marked=", "=", "text", "1..", "skill",
          "\u202e", "é" * 300, "GAME", "FOLDER", "FIFO", "MISSING", "DANGLING", "FRESH"]
POSITIONALS = ["GAME", "GAME", "FOLDER", "FIFO", "MISSING", "DANGLING", "", "x" * 300, "tiny", "-"]
UNKNOWN_FLAGS = ["--nope", "-z", "--games=", "--=", "---", "--players=--players"]


def argument_lists(count: int) -> list:
    table = commands()

    @st.composite
    def argv(draw):
        name = draw(st.sampled_from(sorted(table)))
        positionals, flags = table[name]
        out = [name] + [draw(st.sampled_from(POSITIONALS)) for _ in range(draw(st.integers(0, positionals + 1)))]
        if name == "bench" and len(out) == 1:
            out.append("GAME")      # a bare `bench` measures every bundled game: long, not a hang
        for _ in range(draw(st.integers(0, 3))):
            flag, takes_value = draw(st.sampled_from(flags)) if flags and draw(st.integers(0, 4)) else \
                (draw(st.sampled_from(UNKNOWN_FLAGS)), draw(st.booleans()))
            out.append(flag)
            if takes_value:
                out.append(draw(st.sampled_from(VALUES)))
        return out
    return drawn(argv(), count)


@pytest.mark.slow
def test_every_commands_arguments_fail_cleanly(tmp_path, capsys, monkeypatch):
    paths = odd_paths(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    # every command at least once (with GAME where a bare command would run long), then drawn lists
    cases = [[name] + (["GAME"] if name == "bench" else []) for name in sorted(commands())] + argument_lists(CLI_CASES)
    assert {argv[0] for argv in cases} == set(commands()), "every command is tried"
    problems, codes = [], []
    for argv in cases:
        real = [paths.get(word, word) for word in argv]
        code, out = run_cli(real, capsys, stdin="0\n" * 3 + "quit\n")
        codes.append(code)
        try:
            assert_clean(argv, code, out)
        except AssertionError as problem:
            problems.append(str(problem)[:600])
    assert not problems, "\n".join(problems)
    assert {0, 1, 2} <= set(codes), "the cases reach past the argument parser: some run, some find problems"



# ------------------------------------------------------------------ what the fuzz run found

def test_a_fifo_given_as_a_log_or_save_is_refused_not_read(tmp_path, capsys):
    fifo = tmp_path / "game.log.json"
    os.mkfifo(fifo)
    for argv in (["replay", str(fifo)], ["play", "--load", str(fifo)]):
        code, out = run_cli(argv, capsys)
        assert code == 2 and "not a regular file" in out, (argv, code, out)


def test_a_surrogate_escape_in_a_data_file_is_a_positioned_data_error(tmp_path, capsys):
    (tmp_path / "cards.yaml").write_text(SMALL_DATA.replace('label: "{suit} {rank}"', 'label: "\\ud835\\udd4f {suit} {rank}"'))
    (tmp_path / "tiny.game").write_text(TINY)
    code, out = run_cli(["play", str(tmp_path / "tiny.game"), "--seats", "human,random"], capsys, stdin="0\n")
    assert code == 1, out
    assert "cards.yaml:6:12: error: '\\ud835' is half of a UTF-16 surrogate pair, not a character" in out


def test_a_surrogate_escape_in_a_scenario_is_shown_as_an_escape(tmp_path, capsys):
    path = tmp_path / "s.scenario.yaml"
    path.write_text('game: punto\nplayers: 2\nname: "\\ud800"\nmoves: ["\\ud800"]\n')
    code, out = run_cli(["test", str(path)], capsys)
    # the line ends after the escaped move: no code (E105, a syntax code, was given by mistake)
    assert code == 1 and "FAIL " in out and "unexpected error while playing move 1 ('\\ud800')\n" in out, out


def test_bench_of_an_empty_name_is_refused_not_every_game(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out = run_cli(["bench", ""], capsys)
    assert code == 2 and "no base rule file" in out, (code, out)


def test_a_scenario_naming_a_game_too_long_for_the_system_is_a_scenario_error(tmp_path, capsys):
    path = tmp_path / "s.scenario.yaml"
    path.write_text("game: x" + "9" * 300 + "\nplayers: 2\n")
    code, out = run_cli(["test", str(path)], capsys)
    assert code == 1 and "s.scenario.yaml:1:7: error: unexpected error while setting up the game" in out, out
    assert "internal error" not in out


def test_a_name_in_a_data_file_may_not_end_with_a_newline(tmp_path, capsys):
    # Python's `$` matches before a final newline: the schema's name patterns say `$(?!\n)`
    (tmp_path / "cards.yaml").write_text(SMALL_DATA.replace("Suit: [hearts, spades]", 'Suit: [hearts, "spades\\n"]')
                                         .replace("[hearts, spades]}", '[hearts, "spades\\n"]}'))
    (tmp_path / "tiny.game").write_text(TINY)
    code, out = run_cli(["validate", str(tmp_path / "tiny.game")], capsys)
    assert code == 1, out
    assert "cards.yaml:3:18: error: 'spades\\n' is not a name here: a name in lower case: letters, digits and '_'" in out
