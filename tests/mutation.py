"""Mutation testing of dsl/, interpreter/ and cli/ with mutmut (docs/testing.md).

    python tests/mutation.py --all-tests          # every mutant against every test (a day on 2 cores)
    python tests/mutation.py                      # every mutant, the slow test files left out
    python tests/mutation.py --sample 40          # 40 random mutants per module, fixed seed
    python tests/mutation.py --fraction 0.02 --modules dsl interpreter   # 2% of each module
    python tests/mutation.py --fraction 0.005 --at-least 0 --seed 17 --modules dsl interpreter cli --processes 1
                                                  # a proportional sample: one score for the three folders
    python tests/mutation.py --sample 40 --modules dsl.checker interpreter.engine
    python tests/mutation.py --report             # scores of the last run, no new run
    python tests/mutation.py --fraction 0.02 --survivors   # the same sample's survivors again, after new tests
    python tests/mutation.py --quick              # dsl/types.py only: a few minutes

mutmut copies the sources it mutates into `mutants/` beside its configuration and imports
them from there. The repository root is the package `boardwright`, so the checkout is copied
into a staging folder outside the working tree as `STAGE/boardwright/`, where mutmut finds
the module names the tests import (`boardwright.dsl.checker`, ...). PYTHONPATH points the
CLI subprocesses of the tests at the mutated copy too. Each mutant runs only the tests that
called the mutated function (mutmut records them in one instrumented run of the suite).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTATED_DIRS = ("dsl", "interpreter", "cli")
PACKAGE = "boardwright"

STAGE_CONFIG = """\
# Written by tests/mutation.py: the staging copy's configuration for mutmut.
[tool.mutmut]
source_paths = {sources}
# Everything but the mutated folders, which mutmut copies itself.
also_copy = {also_copy}
# pytest finds hooks by their argument names, which mutmut's trampolines hide.
do_not_mutate = ["boardwright/interpreter/testing/pytest_plugin.py"]
# mutmut runs the tests in its own process, one mutant at a time, and measures no coverage:
# `-o addopts=` drops the checkout's addopts (`--cov`, xdist's `-n auto --dist load`), and
# the plugins are switched off: no xdist workers, and no pytest-cov, whose `--no-cov` fails on
# every test marked `no_cover` (tests/conftest.py marks the slow ones so).
# Left out: tests that assert wall-clock limits or Hypothesis's shrinking within its time
# budget; mutmut's trampolines slow every call, so these fail on the unmutated code too.
# test_architecture.py reads the sources' lines and imports, which mutmut's copies change (every
# mutated module grows far past the length limit): it tests the layout, not the behaviour.
pytest_add_cli_args = ["-o", "addopts=", "-p", "no:cacheprovider", "-p", "no:pytest_cov", "-p", "no:xdist",
    "-p", "no:benchmark", "-q", "-p", "no:randomly",
    "--ignore", "boardwright/tests/test_architecture.py",
    "--deselect", "boardwright/tests/test_check.py::test_check_reports_a_rule_error_in_a_rarely_chosen_option",
    "--deselect", "boardwright/tests/test_security.py::test_resource_limits_are_rule_errors_at_the_line",
    "--deselect", "boardwright/tests/test_security.py::test_an_endless_game_is_reported_with_a_position_and_check_ends",
    "--deselect", "boardwright/tests/test_security.py::test_malformed_scenarios_are_positioned_failures_and_never_stop_a_folder_run"]
{ignored}
use_git_change_detection = false
on_dependency_change = "rerun"
timeout_multiplier = 5.0
timeout_constant = 10.0
{quick}
[tool.pytest.ini_options]
testpaths = ["boardwright/tests"]
filterwarnings = ["ignore::pytest.PytestAssertRewriteWarning"]
"""

# Left out of a run unless --all-tests: files whose tests mostly start the command line in
# subprocesses, play many whole games or search with the bots. On two shared cores mutmut's
# first instrumented run of the whole suite alone takes about an hour; without these it
# fits a session. Scores measured so are a lower bound of the whole suite's.
SLOW_TEST_FILES = ["test_bots.py", "test_check.py", "test_cli.py", "test_cli_conventions.py",
                   "test_cli_test_command.py", "test_cli_validate.py", "test_docs_outputs.py",
                   "test_fuzz.py", "test_games.py", "test_lsp.py", "test_playtest.py",
                   "test_punto_properties.py", "test_robustness.py", "test_save_load_roundtrips.py",
                   "test_security.py"]

# `--quick`: one small module against the tests written for it, in a few minutes (CI-sized).
QUICK = """\
only_mutate = ["boardwright/dsl/types.py"]
pytest_add_cli_args_test_selection = ["boardwright/tests/test_cover_types.py", "boardwright/tests/test_checker.py",
    "boardwright/tests/test_cover_checker_types.py", "boardwright/tests/test_language_features.py"]
"""

KILLED, SURVIVED, NO_TESTS = "killed", "survived", "no tests"
# mutmut's verdicts (its `status_by_exit_code`) that count as a kill: a test failed, the
# mutant hung past its time limit, crashed the interpreter, or could not type-check.
KILLING = {"killed", "timeout", "segfault", "caught by type check"}


def status_of(exit_code: int | None) -> str | None:
    """KILLED, SURVIVED, NO_TESTS or mutmut's own word ("suspicious", ...); None: not run."""
    from mutmut.stats import status_by_exit_code

    status = status_by_exit_code[exit_code]
    if status in ("not checked", "check was interrupted by user"):
        return None
    return KILLED if status in KILLING else status


def default_stage() -> Path:
    digest = hashlib.sha1(str(ROOT).encode()).hexdigest()[:10]
    return Path(tempfile.gettempdir()) / f"boardwright-mutation-{digest}"


def tracked_files() -> list[str]:
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    return [line for line in out.splitlines() if line and (ROOT / line).is_file()]


def stage_checkout(stage: Path, quick: bool = False, all_tests: bool = False) -> None:
    """Copy the checkout into STAGE/boardwright/, keeping unchanged files (mutmut reuses results)."""
    target = stage / PACKAGE
    for name in tracked_files():
        source, copy = ROOT / name, target / name
        if copy.exists() and copy.read_bytes() == source.read_bytes():
            continue
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, copy)
    sources = json.dumps([f"{PACKAGE}/{d}" for d in MUTATED_DIRS])
    others = sorted({name.split("/", 1)[0] for name in tracked_files()} - set(MUTATED_DIRS))
    also_copy = json.dumps([f"{PACKAGE}/{name}" for name in others])
    ignored = "" if all_tests else "pytest_add_cli_args_test_selection = " + json.dumps(
        ["boardwright/tests"] + [f"--ignore=boardwright/tests/{name}" for name in SLOW_TEST_FILES])
    config = STAGE_CONFIG.format(sources=sources, also_copy=also_copy, quick=QUICK if quick else "",
                                 ignored="" if quick else ignored)
    (stage / "pyproject.toml").write_text(config)
    refresh_copied_data(stage)


def refresh_copied_data(stage: Path) -> None:
    """mutmut copies the mutated folders' other files (the grammar, the schemas) into
    `mutants/` only once; a later run would otherwise test the new code against old ones.
    Test files that are not in the checkout are removed from the copy."""
    for name in tracked_files():
        if name.split("/", 1)[0] in MUTATED_DIRS and not name.endswith(".py"):
            copy = stage / "mutants" / PACKAGE / name
            if copy.parent.is_dir() and (not copy.exists() or copy.read_bytes() != (ROOT / name).read_bytes()):
                shutil.copy2(ROOT / name, copy)
    # Test files left in the copy that the checkout no longer has (or never had) would count.
    copied_tests = stage / "mutants" / PACKAGE / "tests"
    for stale in copied_tests.glob("test_*.py") if copied_tests.is_dir() else ():
        if not (ROOT / "tests" / stale.name).exists():
            stale.unlink()


def module_of(mutant: str) -> str:
    """'boardwright.dsl.checker.x_check__mutmut_3' -> 'dsl.checker';
    'boardwright.interpreter.run.engine.xǁGameǁ__init____mutmut_41' -> 'interpreter.run.engine'
    (a method's name is `xǁClassǁmethod`; a subpackage's modules keep their dotted path)."""
    dotted = mutant.split(".x", 1)[0] if ".x" in mutant else mutant.rsplit(".", 1)[0]
    parts = dotted.split(".")
    return ".".join(parts[1:]) if parts[0] == PACKAGE else dotted


def read_results(stage: Path) -> dict[str, int | None]:
    """Every generated mutant with its exit code (None: not run), from mutmut's .meta files."""
    results: dict[str, int | None] = {}
    for meta in sorted((stage / "mutants").rglob("*.py.meta")):
        data = json.loads(meta.read_text())
        results.update(data.get("exit_code_by_key", {}))
    return results


# Imported by every Python process the tests start (PYTHONPATH): while mutmut records which
# tests call which function ("stats"), a CLI subprocess runs the plain code, since it could
# neither find mutmut's configuration from its own folder nor hand its records back.
SITE_CUSTOMIZE = """\
import os
if os.environ.get("MUTANT_UNDER_TEST") == "stats":
    os.environ["MUTANT_UNDER_TEST"] = ""
"""


def mutmut(stage: Path, names: list[str], processes: int) -> int:
    site = stage / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(SITE_CUSTOMIZE)
    # The folder on PYTHONPATH must exist when mutmut starts: Python caches a missing path entry
    # as "nothing here", so on a first run (which creates mutants/) every test would import the
    # unmutated checkout, mutmut would record no test for any function and stop.
    (stage / "mutants").mkdir(exist_ok=True)
    # No disk cache (an empty BOARDWRIGHT_CACHE): a parse, a compiled game or a data file's
    # "valid" mark kept from an earlier run could hide a mutant of the code that makes it.
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(stage / "mutants"), str(site)]),
               BOARDWRIGHT_CACHE="")
    command = [sys.executable, "-m", "mutmut", "run", "--max-children", str(processes), *names]
    return subprocess.run(command, cwd=stage, env=env).returncode


def choose_sample(results: dict[str, int | None], size: int, seed: int, modules: set[str] | None,
                  fraction: float | None = None, at_least: int = 2) -> list[str]:
    """`size` mutants per module, or `fraction` of each module's (at least `at_least`), drawn with
    `seed`; `modules` may name folders too ("dsl"). With `at_least` 0 the sample is proportional:
    every mutant of the chosen modules has (up to rounding) the same chance, so its score estimates
    theirs as a whole; the default 2 draws small modules more often than large ones."""
    by_module: dict[str, list[str]] = defaultdict(list)
    for name in sorted(results):
        by_module[module_of(name)].append(name)
    chosen = []
    for module in sorted(by_module):
        if modules and not any(module == m or module.startswith(m + ".") for m in modules):
            continue
        names = by_module[module]
        wanted = max(at_least, round(len(names) * fraction)) if fraction else size
        # One generator per module: a module edited (or added) between two runs changes only its
        # own draw, not every later module's, so a rerun names the same mutants elsewhere.
        rng = random.Random(f"{seed}/{module}")
        chosen.extend(names if wanted >= len(names) else rng.sample(names, wanted))
    return chosen


def wilson_interval(killed: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """95% confidence interval of a proportion (Wilson score), for sampled scores."""
    if total == 0:
        return 0.0, 1.0
    p = killed / total
    denominator = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denominator
    half = z * ((p * (1 - p) / total + z * z / (4 * total * total)) ** 0.5) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def report(results: dict[str, int | None], names: list[str] | None, accepted: set[str]) -> str:
    """One line per module: killed / decided, score and its 95% interval, survivors listed."""
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    survivors: dict[str, list[str]] = defaultdict(list)
    for name in names if names is not None else results:
        status = status_of(results.get(name))
        if status is None:
            continue
        module = module_of(name)
        if status == SURVIVED and name in accepted:
            status = "accepted"
        counts[module][status] += 1
        if status == SURVIVED:
            survivors[module].append(name)
    lines = [f"{'module':28} {'mutants':>7} {'killed':>6} {'survived':>8} {'accepted':>8} {'no tests':>8}"
             f" {'score':>6}  95% interval"]
    totals: dict[str, int] = defaultdict(int)
    for module in sorted(counts):
        c = counts[module]
        for key, value in c.items():
            totals[key] += value
        lines.append(score_line(module, c))
    lines.append(score_line("all", totals))
    for module in sorted(survivors):
        lines.append(f"surviving in {module}: " + ", ".join(sorted(survivors[module])))
    return "\n".join(lines)


def score_line(label: str, c: dict[str, int]) -> str:
    killed = c.get(KILLED, 0)
    survived, accepted, untested = c.get(SURVIVED, 0), c.get("accepted", 0), c.get(NO_TESTS, 0)
    # Accepted (equivalent) survivors leave the denominator; untested mutants stay in it.
    decided = killed + survived + untested
    low, high = wilson_interval(killed, decided)
    score = killed / decided if decided else 0.0
    total = decided + accepted
    return (f"{label:28} {total:7} {killed:6} {survived:8} {accepted:8} {untested:8} {score:6.1%}"
            f"  {low:.1%}-{high:.1%}")


def accepted_survivors() -> set[str]:
    """Names listed in tests/mutation_accepted.txt: survivors judged equivalent (docs/testing.md)."""
    path = ROOT / "tests" / "mutation_accepted.txt"
    if not path.exists():
        return set()
    return {line.split("#", 1)[0].strip() for line in path.read_text().splitlines()} - {""}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", type=int, metavar="N",
                        help="run N random mutants per module instead of all (default: all)")
    parser.add_argument("--fraction", type=float, metavar="F",
                        help="run this share of each module's mutants, at least 2 (default: all)")
    parser.add_argument("--at-least", type=int, default=2, metavar="N",
                        help="with --fraction, at least N mutants of each module (default: 2; 0 draws "
                             "the same share of every module, for one score of them all)")
    parser.add_argument("--seed", type=int, default=15, help="seed of the sample (default: 15)")
    parser.add_argument("--modules", nargs="+", metavar="MODULE",
                        help="only these modules, e.g. dsl.checker (default: every module)")
    parser.add_argument("--processes", type=int, default=2, help="mutants run at once (default: 2)")
    parser.add_argument("--stage", type=Path, default=default_stage(),
                        help="staging folder outside the checkout (default: a folder in the temp dir)")
    parser.add_argument("--report", action="store_true", help="print the scores of the last run only")
    parser.add_argument("--all-tests", action="store_true",
                        help="run the slow test files too (SLOW_TEST_FILES; default: left out)")
    parser.add_argument("--survivors", action="store_true",
                        help="run again only the chosen mutants that the last run did not kill, e.g. after "
                             "adding tests (default: every chosen mutant)")
    parser.add_argument("--quick", action="store_true",
                        help="only dsl/types.py against its own tests, in a few minutes (default: off)")
    args = parser.parse_args(argv)
    if args.quick:
        args.stage = args.stage.with_name(args.stage.name + "-quick")
    args.stage.mkdir(parents=True, exist_ok=True)
    modules = set(args.modules) if args.modules else None
    if not args.report:
        stage_checkout(args.stage, args.quick, args.all_tests)
        results = read_results(args.stage)
        if not results and not args.quick:
            # The first run generates every mutant and records which tests call what.
            mutmut(args.stage, ["boardwright.dsl.types.*"], args.processes)
            results = read_results(args.stage)
        names = choose_sample(results, args.sample or 10**9, args.seed, modules, args.fraction, args.at_least)
        if args.survivors:
            names = [name for name in names if status_of(results[name]) not in (KILLED, None)]
        mutmut(args.stage, names, args.processes)
    results = read_results(args.stage)
    names = choose_sample(results, args.sample or 10**9, args.seed, modules, args.fraction, args.at_least)
    print(report(results, names, accepted_survivors()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
