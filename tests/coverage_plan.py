"""Which quick tests run measured: a greedy set cover of the lines the quick tests reach.

    python3 tests/coverage_plan.py                       # two runs of the quick tests, then the plan
    python3 tests/coverage_plan.py --data D --durations T  # the plan from runs made before

Line coverage costs a measured test two to three times its CPU time (Python 3.11 traces every
line), but most quick tests only reach lines that other quick tests reach too. This command
runs the quick tests once unmeasured (`--durations=0`: each test's cost) and once measured with
per-test contexts (`--cov-context=test`: which lines each test reaches, its subprocesses
included), then picks measured tests greedily, the cheapest per line not yet reached first,
until every line that any quick test reaches is reached. Every other quick test is written to
tests/unmeasured_tests.txt, which tests/conftest.py reads: those run unmeasured (as the slow
tests do). A test that file does not name is measured, so a new test counts from its first run.

Lines run while a test's fixtures are set up or torn down, and while the tests are collected,
are measured whatever the plan says (pytest-cov pauses a test's call only), so only the lines
of the calls count here. Rerun it when the covered line count of a whole run falls below what
the report of the last plan said, or after a change that moves lines between tests (a new
module, tests rewritten or removed): docs/testing.md, "Coverage where it pays".
"""
from __future__ import annotations

import argparse
import heapq
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PLAN = REPO / "tests" / "unmeasured_tests.txt"
DURATION = re.compile(r"^\s*([\d.]+)s (setup|call|teardown)\s+(\S.*?)\s*$")
# A test quicker than the durations report shows (it hides the zeros) still costs its start.
LEAST_COST = 0.001
HEADER = """\
# Quick tests that run unmeasured (pytest-cov's no_cover, as the slow tests): every line they
# reach, another quick test that stays measured reaches too. Written by tests/coverage_plan.py
# (see its docstring and docs/testing.md); a test not named here is measured.
"""


def quick_run(*options: str) -> None:
    """The quick tests once, in this checkout, with `options`."""
    command = [sys.executable, "-m", "pytest", "-q", "-m", "not slow", *options]
    print("+", " ".join(command[1:]), flush=True)
    subprocess.run(command, cwd=REPO, check=False)


def durations(path: Path) -> dict[str, float]:
    """Seconds per test node id (setup, call and teardown together) from `--durations=0` output."""
    seconds: dict[str, float] = defaultdict(float)
    for line in path.read_text(encoding="utf-8").splitlines():
        found = DURATION.match(line)
        if found:
            seconds[found.group(3)] += float(found.group(1))
    return dict(seconds)


def lines_per_test(data_file: str) -> tuple[dict[str, set], set]:
    """From a combined coverage data file with per-test contexts: the lines each test's call
    reached, and the lines reached anyway (collection, fixtures' setup and teardown)."""
    from coverage import CoverageData

    data = CoverageData(data_file)
    data.read()
    reached: dict[str, set] = defaultdict(set)
    anyway: set = set()
    for filename in data.measured_files():
        for line, contexts in data.contexts_by_lineno(filename).items():
            for context in contexts:
                nodeid, _, phase = context.rpartition("|")
                if phase == "run" and nodeid:
                    reached[nodeid].add((filename, line))
                else:
                    anyway.add((filename, line))
    return dict(reached), anyway


def cheapest_cover(reached: dict[str, set], anyway: set, cost: dict[str, float]) -> list[str]:
    """Tests whose calls together reach every line any call reaches (but the `anyway` lines),
    chosen greedily: the least cost per line not yet reached first (lazily re-scored)."""
    missing = set().union(*reached.values()) - anyway if reached else set()
    heap = [(cost.get(t, LEAST_COST) / len(lines - anyway), t) for t, lines in reached.items() if lines - anyway]
    heapq.heapify(heap)
    chosen = []
    while missing and heap:
        score, test = heapq.heappop(heap)
        new = reached[test] & missing
        if not new:
            continue
        fresh = max(cost.get(test, LEAST_COST), LEAST_COST) / len(new)
        if heap and fresh > heap[0][0]:          # its lines were partly reached since: score again
            heapq.heappush(heap, (fresh, test))
            continue
        chosen.append(test)
        missing -= new
    return chosen


def write_plan(unmeasured: list[str]) -> None:
    PLAN.write_text(HEADER + "".join(f"{nodeid}\n" for nodeid in sorted(unmeasured)), encoding="utf-8")


def configured_data_file() -> str:
    """Where pytest-cov writes the combined data ([tool.coverage.run] data_file in pyproject.toml)."""
    from coverage import Coverage

    old = Path.cwd()
    try:
        os.chdir(REPO)
        return Coverage(config_file=str(REPO / "pyproject.toml")).config.data_file
    finally:
        os.chdir(old)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", help="a coverage data file of the quick tests with --cov-context=test")
    parser.add_argument("--durations", help="the output of a quick run with --durations=0 --no-cov")
    args = parser.parse_args(argv)
    timing = Path(args.durations) if args.durations else Path(tempfile.mkdtemp(prefix="boardwright-plan-")) / "durations.txt"
    if not args.durations:
        with open(timing, "w", encoding="utf-8") as out:
            command = [sys.executable, "-m", "pytest", "-q", "-m", "not slow", "--no-cov", "--durations=0",
                       "--durations-min=0"]
            print("+", " ".join(command[1:]), flush=True)
            subprocess.run(command, cwd=REPO, stdout=out, check=False)
    data_file = args.data
    if not data_file:
        quick_run("--cov-context=test", "--cov-all-quick")
        data_file = configured_data_file()
    reached, anyway = lines_per_test(data_file)
    cost = durations(timing)
    chosen = set(cheapest_cover(reached, anyway, cost))
    quick = set(cost) | set(reached)
    unmeasured = sorted(quick - chosen)
    write_plan(unmeasured)
    every_line = set().union(anyway, *reached.values())
    kept = sum(cost.get(t, 0.0) for t in chosen)
    print(f"{len(every_line)} lines reached by the quick tests ({len(anyway)} outside the tests' calls); "
          f"{len(chosen)} of {len(quick)} quick tests measured ({kept:.0f} of {sum(cost.values()):.0f} s "
          f"unmeasured CPU); {len(unmeasured)} written to {PLAN.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
