"""Shared fixtures: bundled games, loaded once per test session; the Hypothesis profiles;
and a session check that the test run leaves nothing behind in the source tree."""
from __future__ import annotations

import atexit
import hashlib
import os
import shutil
import sys
import tempfile
import textwrap
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.configuration import set_hypothesis_home_dir

from boardwright.dsl import ast
from boardwright.dsl.loader import GAMES_DIR, bundled_games, resolve_game, resolve_variant, variants_of
from boardwright.dsl.parsed import parse_file
from boardwright.interpreter.compile.load import load_game
from coverage_floors import check_floors

REPO = Path(__file__).resolve().parents[1]


def suite_cache_folder() -> str:
    """Where the tests keep compiled code, parser tables and parsed files: not the user's cache
    but one folder per checkout (and user) in the temporary folder, kept between runs, so a
    second run of the suite (or of its quick subset) skips compiling the bundled games again.
    Entries are keyed by the content they come from, so a changed rule file or parser misses."""
    digest = hashlib.sha256(str(REPO).encode("utf-8")).hexdigest()[:12]
    user = os.getuid() if hasattr(os, "getuid") else "user"
    return str(Path(tempfile.gettempdir()) / f"boardwright-test-cache-{user}-{digest}")


# Set before pytest-xdist starts its workers, which inherit it: they share one cache.
os.environ.setdefault("BOARDWRIGHT_CACHE", suite_cache_folder())


def keep_byte_code_out_of_the_tree() -> None:
    """Where PYTHONDONTWRITEBYTECODE is set (as on this project's machines), every process would
    compile Python from source: each xdist worker its test modules (with pytest's assertion
    rewriting) and the package, and each `python -m boardwright` command the tests start the
    package again (0.2 to 0.3 s of CPU, of 0.4 to 0.6 s for a short command). The suite keeps byte code in its
    own folder of the temporary folder instead (PYTHONPYCACHEPREFIX: never in the checkout, as
    the setting asks), inherited by the workers and every command they start. Entries are
    checked against their source file's time and size, as Python always does."""
    if not sys.dont_write_bytecode or os.environ.get("PYTHONPYCACHEPREFIX"):
        return
    prefix = suite_cache_folder().replace("boardwright-test-cache-", "boardwright-test-pycache-")
    os.environ["PYTHONPYCACHEPREFIX"] = prefix
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.pycache_prefix = prefix
    sys.dont_write_bytecode = False


keep_byte_code_out_of_the_tree()
# Hypothesis keeps files (its example database, constants it collected) in `.hypothesis/` of
# the current folder even with database=None: send them to a throwaway folder, in this
# process and in the commands the tests start.
# The process that makes the folder removes it at its end (pytest-xdist's workers inherit it).
if "HYPOTHESIS_STORAGE_DIRECTORY" not in os.environ:
    os.environ["HYPOTHESIS_STORAGE_DIRECTORY"] = tempfile.mkdtemp(prefix="boardwright-test-hypothesis-")
    atexit.register(shutil.rmtree, os.environ["HYPOTHESIS_STORAGE_DIRECTORY"], ignore_errors=True)
set_hypothesis_home_dir(os.environ["HYPOTHESIS_STORAGE_DIRECTORY"])

# Hypothesis profiles (docs/testing.md). `ci`, the default: derandomized, so every run
# replays the same games and CI stays fast and repeatable. `thorough`
# (`pytest --hypothesis-profile thorough`): fresh random games on every run and
# THOROUGH_FACTOR times the examples of each property; a failure prints the seed that
# reproduces it (`--hypothesis-seed`).
THOROUGH_FACTOR = 25
_COMMON = dict(database=None, deadline=None, print_blob=True,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                      HealthCheck.filter_too_much])
settings.register_profile("ci", derandomize=True, **_COMMON)
settings.register_profile("thorough", derandomize=False, **_COMMON)
settings.load_profile("ci")


def thorough() -> bool:
    """Whether the run explores widely (`--hypothesis-profile thorough`)."""
    return settings.get_current_profile_name() == "thorough"


def examples(quick: int) -> int:
    """How many examples (games, mutations) a property tries: `quick` in CI, THOROUGH_FACTOR
    times as many under the thorough profile."""
    return quick * THOROUGH_FACTOR if thorough() else quick


# ---------------------------------------------------------------------------- nothing left behind
_BUILD_LEFTOVERS = ("__pycache__", ".git", "build", "dist")


def _tree_paths() -> set:
    """Every file and folder of the checkout, but Python's byte code and build folders."""
    found = set()
    for root, folders, files in os.walk(REPO):
        folders[:] = [f for f in folders if f not in _BUILD_LEFTOVERS and not f.endswith(".egg-info")]
        base = Path(root).relative_to(REPO)
        found.update(str(base / name) for name in folders + files if not name.endswith(".pyc"))
    return found


@pytest.fixture(autouse=True)
def _error_sources_kept():
    """Parsing records each rule text in `errors.SOURCES` by its file name, and many tests
    name theirs "g.game": restore the table after each test, so that a diagnostic of another
    test about its own "g.game" never quotes a line of this one's."""
    from boardwright.dsl.errors import SOURCES
    saved = dict(SOURCES)
    yield
    SOURCES.clear()
    SOURCES.update(saved)


def pytest_sessionstart(session):
    session.config._tree_before = _tree_paths()


def pytest_sessionfinish(session, exitstatus):
    """Fail the run when it created or deleted files in the checkout (tests write to
    tmp_path, caches go to temporary folders): `git status` is the same before and after."""
    before = getattr(session.config, "_tree_before", None)
    if before is None:
        return
    after = _tree_paths()
    created, deleted = sorted(after - before), sorted(before - after)
    if created or deleted:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        message = ("the test run changed the source tree: "
                   + "; ".join(filter(None, [f"created {', '.join(created[:10])}" if created else "",
                                             f"deleted {', '.join(deleted[:10])}" if deleted else ""])))
        if reporter is not None:
            reporter.write_line("\nERROR: " + message, red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


# ---------------------------------------------------------------------------- coverage where it pays
# The longest tests (CPU seconds on an idle core, measured for issue 26): run first, so that
# no worker is left with one of them at the end while the other has nothing to do.
LONGEST_FIRST = (
    "test_docs_outputs.py::test_shown_outputs_match_what_the_commands_print[cli.md]",
    "test_playtest.py::test_greedy_beats_random_at_point_city",
    "test_quick_file_schemas.py::test_every_node_of_the_scenario_schema_refuses_every_wrong_value",
    "test_docs_outputs.py::test_shown_outputs_match_what_the_commands_print[tutorial.md]",
    "test_playtest.py::test_mcts_beats_random_at_happy_city",
)


@pytest.hookimpl(trylast=True)         # after pytest's own ordering by fixtures
def pytest_collection_modifyitems(config, items):
    unmeasured_slow_tests(config, items)
    if hasattr(config, "workerinput"):
        longest_first(items)


def unmeasured_slow_tests(config, items) -> None:
    """Line coverage is measured only where it pays: a `slow` test (whole games, bot strength,
    commands in subprocesses) runs unmeasured, since tracing every line would make it two to
    three times slower and the quick tests reach every line it would count; so does a quick
    test named in tests/unmeasured_tests.txt, whose lines the other quick tests reach too
    (written by tests/coverage_plan.py). A test not named there is measured. `--cov-slow`
    measures the slow tests too, `--cov-all-quick` every quick test."""
    coverage = config.pluginmanager.getplugin("_cov")
    if coverage is None or getattr(coverage, "_disabled", True):
        return                          # measuring nothing (--no-cov)
    slow_unmeasured = not config.getoption("--cov-slow")
    planned = set() if config.getoption("--cov-all-quick") else planned_unmeasured_tests()
    for item in items:
        slow = item.get_closest_marker("slow") is not None
        if (slow and slow_unmeasured) or (not slow and item.nodeid in planned):
            item.add_marker(pytest.mark.no_cover)


UNMEASURED_PLAN = Path(__file__).with_name("unmeasured_tests.txt")


def planned_unmeasured_tests() -> set[str]:
    """The quick tests that tests/unmeasured_tests.txt names (node ids, one a line; `#` comments)."""
    if not UNMEASURED_PLAN.exists():
        return set()
    lines = UNMEASURED_PLAN.read_text(encoding="utf-8").splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


def longest_first(items) -> None:
    """Under pytest-xdist, which hands the tests out in this order (one or two at a time,
    `--maxschedchunk 1` in pyproject.toml): the longest tests first, then the other slow
    ones, then the measured quick ones, then the unmeasured quick ones, each group in its
    collected order. The workers then end together, on short tests (the order is the same in
    every worker, as xdist requires). The measured quick tests come before the unmeasured ones
    so that a line run only on a worker's first call (a cache filled once a process) is, as
    far as it can be, run by a measured test, as in the run that chose them."""
    def rank(item) -> tuple:
        for place, name in enumerate(LONGEST_FIRST):
            if item.nodeid.endswith(name):
                return (0, place)
        if item.get_closest_marker("slow") is not None:
            return (1, 0)
        return (3 if item.get_closest_marker("no_cover") is not None else 2, 0)
    items.sort(key=rank)


def pytest_addoption(parser):
    parser.addoption("--cov-slow", action="store_true",
                     help="measure line coverage in the slow tests too (by default only the quick ones)")
    parser.addoption("--cov-all-quick", action="store_true",
                     help="measure line coverage in every quick test, also those tests/unmeasured_tests.txt names")


@pytest.fixture(autouse=True)
def _no_coverage_in_the_subprocesses_of_unmeasured_tests(request, monkeypatch):
    """coverage.py measures every Python subprocess through an environment variable: a test that
    is not measured (`no_cover`) starts its commands without it."""
    if request.node.get_closest_marker("no_cover") is not None:
        monkeypatch.delenv("COVERAGE_PROCESS_CONFIG", raising=False)
    elif request.config.getoption("cov_context", None) == "test" and "COVERAGE_PROCESS_CONFIG" in os.environ:
        monkeypatch.setenv("COVERAGE_PROCESS_CONFIG",
                           in_test_context(os.environ["COVERAGE_PROCESS_CONFIG"], request.node.nodeid))


def in_test_context(serialized: str, nodeid: str) -> str:
    """coverage.py's serialized configuration for a subprocess, its lines recorded under the
    test's context (as pytest-cov's `--cov-context=test` names it in this process), so that
    tests/coverage_plan.py sees which test reached them."""
    import base64
    import json
    config = json.loads(base64.b64decode(serialized))
    config["context"] = f"{nodeid}|run"
    return base64.b64encode(json.dumps(config).encode()).decode()


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_runtest_call(item):
    """Inside pytest-cov's pause of an unmeasured test: stop the measurements under it too.

    In an xdist worker pytest-cov's measurement is the third of a stack: coverage.py started one
    when the worker started (a Python subprocess of the measured main process: `patch =
    ["subprocess"]`), and pytest-cov one more while reading the options (`-n` makes it start
    its measurement for an xdist main process, in the worker too) before its worker measurement
    at session start. Its pause of a `no_cover` test stops the top one and resumes the next:
    the slow tests were traced after all (their lines thrown away), at two to three times
    their CPU time. Here every one still running stops for the test, and they start again in
    their order after it, before pytest-cov resumes its own on top. Without xdist there are
    none: nothing to do."""
    import coverage

    stopped = []
    if item.get_closest_marker("no_cover") is not None:
        while (current := coverage.Coverage.current()) is not None:
            current.stop()
            stopped.append(current)
    try:
        return (yield)
    finally:
        for measurement in reversed(stopped):
            measurement.start()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtestloop(session):
    """Outside pytest-cov's own wrapper: its data is combined when this code resumes."""
    result = yield
    check_floors(session)
    return result


def all_game_variants() -> list[tuple[str, str | None]]:
    """Every bundled game with None (the base) and each of its variants."""
    out = []
    for name in bundled_games():
        out.append((name, None))
        out.extend((name, v) for v in variants_of(resolve_game(name)))
    return out


def player_range(name: str, variant: str | None = None) -> tuple[int, int]:
    """A bundled game's fewest and most players, read from its rule files without loading the
    game (checking its data and compiling it cost each worker seconds while collecting the
    tests): the variant's `players` line replaces the base's, as the loader merges them.
    test_games.py checks it against every loaded game and variant."""
    base = resolve_game(name)
    files = [base] + ([resolve_variant(base, variant)] if variant else [])
    declared = [item for file in files for item in parse_file(file).items if isinstance(item, ast.PlayersDecl)]
    return declared[-1].minimum, declared[-1].maximum


@lru_cache(maxsize=None)
def cached_game(name: str, variant: str | None = None):
    return load_game(name, variant)


@pytest.fixture
def punto():
    return cached_game("punto")


def scenario_paths() -> list[Path]:
    return sorted(GAMES_DIR.rglob("*.scenario.yaml"))


SMALL_DATA = """\
provenance: test data
enums:
  Suit: [hearts, spades]
components:
  Card:
    label: "{suit} {rank}"
    attributes: {suit: Suit, rank: int}
    items:
      - product: {suit: [hearts, spades], rank: [1, 2, 3]}
"""


def make_small_game(tmp_path, rules: str):
    """Load `rules` (dedented) as g.game beside a six-card data file cards.yaml."""
    return load_game(small_game_file(tmp_path, textwrap.dedent(rules)))


SMALL_HEADER = 'game "Tiny"\nplayers 2\ndata "cards.yaml"\n'


def small_game_file(tmp_path, text: str, data: str = SMALL_DATA) -> Path:
    """g.game holding `text` beside cards.yaml holding `data` (by default the six cards)."""
    (tmp_path / "cards.yaml").write_text(data)
    path = tmp_path / "g.game"
    path.write_text(text)
    return path


def small_body_file(tmp_path, body: str, data: str = SMALL_DATA) -> Path:
    """SMALL_HEADER + `body` (dedented): the body's line 1 is the file's line 4."""
    return small_game_file(tmp_path, SMALL_HEADER + textwrap.dedent(body), data)


def run_main(capsys, *argv) -> tuple[int, str, str]:
    """Run one `boardwright` command in this process: (exit code, stdout, stderr)."""
    from boardwright.cli.main import main
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def main_json(capsys, *argv) -> dict:
    """A command's `--json` object, without its timing (`seconds`), after a clean exit."""
    import json
    code, out, err = run_main(capsys, *argv, "--json")
    assert code == 0, err
    result = json.loads(out)
    result.pop("seconds")
    return result
