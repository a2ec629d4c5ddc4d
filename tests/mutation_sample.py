"""A fresh, seeded sample of mutants of dsl/, interpreter/ and cli/, each run against the tests
that import its module (docs/testing.md "A quick sample without mutmut's recording run").

    python tests/mutation_sample.py --seed 26 --recent 30 --rest 30          # draw and run
    python tests/mutation_sample.py --seed 26 --recent 30 --rest 30 --list   # only show the draw
    python tests/mutation_sample.py --seed 26 --recent 30 --rest 30 --only 3 17   # rerun some

`tests/mutation.py` (mutmut) first runs the whole suite once under instrumentation to learn
which test calls which function, an hour or more on two shared cores. This sampler needs no
such run: it makes mutmut's own mutants (its operators, through `create_mutations`, so the
kinds of change are the same as in the mutmut scores), draws a seeded sample, writes one
mutant at a time into a copy of the checkout and runs the quick tests of every test file that
imports the mutated module (`-m "not slow" -x`, no coverage, no disk cache). The sample is
stratified: `--recent` mutants from the modules of the features that landed last (shapes,
records, trace, sweep, tune, serve: RECENT), `--rest` from every other module, each stratum
drawn uniformly over its mutants. A test file imports a module by itself or through a helper
module of tests/ (web_support.py). With `--widen`, a survivor runs again against every test file
of its subpackage (tests reach the compiler's stages through the loader, the commands through
cli.main); with `--slow`, against the slow tests of the files importing its module (whole games,
commands in subprocesses: the whole suite's verdict). A mutant whose module no test file
reaches counts as "no tests", i.e. not killed.
Nothing is written into the checkout.
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "boardwright"
MUTATED_DIRS = ("dsl", "interpreter", "cli")
NOT_MUTATED = {"interpreter/testing/pytest_plugin.py"}  # pytest finds its hooks by name, as in mutation.py
# The modules of the features that landed on 2026-11-27 (issue 26's brief): shapes, records,
# trace, sweep, tune and the web table (`serve`).
RECENT = re.compile(r"(shape|record|trace|sweep|tune|param_ranges|cli/web/|web_commands)")
# Tests left out as in mutation.py: they assert wall-clock limits or read the sources' layout.
LEFT_OUT = ["test_architecture.py"]


def source_files() -> list[str]:
    out = subprocess.run(["git", "ls-files", *MUTATED_DIRS], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.split()
    return sorted(name for name in out if name.endswith(".py") and name not in NOT_MUTATED)


def mutations_of(relative: str, source: Path = ROOT):
    """mutmut's mutants of one file, those inside a function or method (as mutmut keeps them):
    (module tree, [(original node, mutated node, line)])."""
    import libcst as cst
    from libcst.metadata import MetadataWrapper, PositionProvider
    from mutmut.mutation import pragma_handling
    from mutmut.mutation.file_mutation import create_mutations

    # mutmut would read its configuration (for `do_not_mutate_patterns`, none here) from a
    # pyproject.toml with [tool.mutmut], which the checkout does not have.
    pragma_handling.get_lines_ignored_by_pattern = lambda source: set()
    code = (source / relative).read_text()
    module, mutations, _, _ = create_mutations(relative, code)
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    kept = [(m.original_node, m.mutated_node, positions[m.original_node].start.line)
            for m in mutations if isinstance(m.contained_by_top_level_function, cst.FunctionDef)]
    return module, kept


def change_text(original, mutated) -> str:
    """A mutant as `--list` and the results show it: `'before' -> 'after'`."""
    import libcst as cst

    before = cst.Module(body=[]).code_for_node(original)
    after = cst.Module(body=[]).code_for_node(mutated)
    return f"{before.strip()[:70]!r} -> {after.strip()[:70]!r}"


def draw(seed: int, recent: int, rest: int, files: str | None = None,
         change: str | None = None) -> list[tuple[str, int, int]]:
    """(file, index among the file's mutants, line), `recent` from RECENT's modules and `rest`
    from the others, uniformly within each stratum; with `files`, only from the modules whose
    path the regex matches, and with `change`, only the mutants whose change (as `--list`
    prints it) the regex matches (a census of a few modules or of one kind of mutant: not a
    fresh sample of them all)."""
    strata: dict[bool, list[tuple[str, int, int]]] = {True: [], False: []}
    for relative in source_files():
        if files is not None and not re.search(files, relative):
            continue
        _, kept = mutations_of(relative)
        strata[bool(RECENT.search(relative))].extend(
            (relative, i, line) for i, (original, mutated, line) in enumerate(kept)
            if change is None or re.search(change, change_text(original, mutated)))
    for option, wanted, stratum in (("--recent", recent, strata[True]), ("--rest", rest, strata[False])):
        if wanted > len(stratum):       # e.g. --files naming only modules of the other stratum
            raise SystemExit(f"mutation_sample: {option} {wanted} asks more mutants than its stratum has "
                             f"({len(stratum)}" + (f" in the modules matching --files {files!r}" if files else "")
                             + (f" of the changes matching --change {change!r}" if change else "") + ")")
    rng = random.Random(seed)
    chosen = rng.sample(strata[True], recent) + rng.sample(strata[False], rest)
    print(f"mutants: {len(strata[True])} in recent modules, {len(strata[False])} in the others", flush=True)
    return chosen


def mutated_code(relative: str, index: int, source: Path = ROOT) -> tuple[str, str]:
    module, kept = mutations_of(relative, source)
    original, mutated, _ = kept[index]
    return module.deep_replace(original, mutated).code, change_text(original, mutated)


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module":
            names.update(arg.value for arg in node.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str))
    return names


def with_helpers(path: Path) -> set[str]:
    """The modules a test file imports, and those its helper modules in tests/ import
    (web_support.py reaches the web table's server for test_serve.py). conftest.py is left
    out: nearly every test imports it, for one fixture or another."""
    names, seen, todo = set(), set(), [path]
    while todo:
        found = imported_modules(todo.pop())
        names |= found
        for name in found:
            helper = path.parent / f"{name}.py"
            if name not in seen and name != "conftest" and helper.is_file():
                seen.add(name)
                todo.append(helper)
    return names


def importers(relative: str, source: Path = ROOT) -> list[str]:
    """Test files that import the module (or, for a package's __init__, the package), by
    themselves or through a helper module of tests/."""
    dotted = PACKAGE + "." + relative[:-3].replace("/", ".").removesuffix(".__init__")
    return sorted(str(path.relative_to(source)) for path in (source / "tests").glob("test_*.py")
                  if path.name not in LEFT_OUT and dotted in with_helpers(path))


class TestsByLine:
    """Which quick tests run a line, from coverage runs with test contexts
    (`--cov-context=test`); tests that ran it only in a subprocess are not recorded there.
    Several data files may be given (the quick suite measured on one commit, new test files
    measured later); a data file's paths are mapped to the checkout through `roots`, the folders
    the package was measured in (besides the checkout itself and any `.../boardwright/`)."""

    def __init__(self, data_files: list[Path] | None, roots: list[Path] | None = None):
        self.data = []
        self.roots = [str(ROOT)] + [str(root) for root in roots or []]
        for data_file in data_files or []:
            from coverage import CoverageData

            data = CoverageData(basename=str(data_file))
            data.read()
            self.data.append(data)
        self._breadth: dict[str, int] | None = None

    def _measured(self, data, relative: str) -> list[str]:
        return [name for name in data.measured_files()
                if name.endswith("/" + PACKAGE + "/" + relative)
                or any(name == root + "/" + relative for root in self.roots)]

    def tests(self, relative: str, line: int) -> list[str]:
        found: set[str] = set()
        for data in self.data:
            for name in self._measured(data, relative):
                for context in data.contexts_by_lineno(name).get(line, []):
                    test = context.split("|", 1)[0].split("[", 1)[0]
                    if test and Path(test.split("::", 1)[0]).name not in LEFT_OUT:
                        found.add(test)
        return sorted(found)

    def breadth(self) -> dict[str, int]:
        """For each test, how many lines of the package it runs: a test that runs few is most
        often a quick, focused one, so running those first finds a kill sooner (with -x)."""
        if self._breadth is None:
            self._breadth = {}
            for data in self.data:
                for name in data.measured_files():
                    for contexts in data.contexts_by_lineno(name).values():
                        for context in contexts:
                            test = context.split("|", 1)[0].split("[", 1)[0]
                            self._breadth[test] = self._breadth.get(test, 0) + 1
        return self._breadth


def tests_for(relative: str, line: int, by_line: TestsByLine, source: Path = ROOT) -> tuple[list[str], str]:
    """The tests that run the mutated line in process (with --contexts); else every test file
    importing its module; else every test file importing a module of its subpackage (the
    compiler's stages are reached through `load_game`, the CLI's commands through `main`).
    With --contexts, a line no quick test runs in process can be reached only by a slow test
    or in a subprocess: its files then run with their slow tests ("import+slow")."""
    tests = by_line.tests(relative, line) or by_line.tests(relative, statement_start(source / relative, line))
    if tests:
        breadth = by_line.breadth()
        return sorted(tests, key=lambda test: (breadth.get(test, 0), test)), "line"
    slow = "+slow" if by_line.data else ""
    tests = importers(relative, source)
    if tests:
        return tests, "import" + slow
    return package_tests(relative, source), "package" + slow


def statement_start(path: Path, line: int) -> int:
    """The first line of the innermost statement holding `line`: coverage.py records a statement
    written over several lines at its first line only, so the tests of a mutant on a later line
    (a help text on the second line of an `add_argument(...)`) are those of the first."""
    starts = [node.lineno for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
              if isinstance(node, ast.stmt) and node.lineno <= line <= (node.end_lineno or node.lineno)]
    return max(starts, default=line)


def package_tests(relative: str, source: Path = ROOT) -> list[str]:
    """Every test file importing a module of the mutated module's subpackage (for cli/, also
    `cli.main`, through which the commands are reached)."""
    package = PACKAGE + "." + relative.rsplit("/", 1)[0].replace("/", ".")
    entry = {"boardwright.cli": "boardwright.cli.main"}.get(package)
    return sorted(str(path.relative_to(source)) for path in (source / "tests").glob("test_*.py")
                  if path.name not in LEFT_OUT and any(name == entry or name.startswith(package + ".")
                                                       for name in with_helpers(path)))


def stage_copy(stage: Path, ref: str | None) -> Path:
    """The checkout (its working tree, or commit `ref`) as STAGE/boardwright."""
    target = stage / PACKAGE
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    if ref:
        archive = subprocess.run(["git", "archive", ref], cwd=ROOT, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
        return target
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.split("\n")
    for name in filter(None, files):
        if (ROOT / name).is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, target / name)
    return target


def ordered_tests(relative: str, tests: list[str]) -> list[str]:
    """Test files named after the module's words first (with -x, a kill is found sooner)."""
    words = {w for w in re.split(r"[/_.]", relative[:-3]) if len(w) > 3} - {"interpreter", "playtest", "testing",
                                                                           "commands", "command"}
    return sorted(tests, key=lambda t: not any(w in Path(t.split("::")[0]).name for w in words))


def run_tests(copy: Path, stage: Path, tests: list[str], timeout: float,
              slow: bool = False, only_slow: bool = False) -> tuple[str, float, str]:
    """(status, seconds, the first failing test); the slow tests too with `slow`, only them
    with `only_slow`. Byte code
    is kept in the stage (PYTHONDONTWRITEBYTECODE dropped): each run then compiles only the
    mutated module, and pytest rewrites the test files' asserts once (1.3 s of CPU a run)."""
    env = dict(os.environ, PYTHONPATH=str(stage), BOARDWRIGHT_CACHE="",
               PYTHONPYCACHEPREFIX=str(stage / "pycache"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    command = [sys.executable, "-m", "pytest", "-q", "-x", "-n", "0", "--no-cov", "-p", "no:randomly",
               *(["-m", "slow"] if only_slow else [] if slow else ["-m", "not slow"]), *tests]
    start = time.monotonic()
    try:
        done = subprocess.run(command, cwd=copy, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", time.monotonic() - start, ""
    seconds = time.monotonic() - start
    if done.returncode == 0:
        return "survived", seconds, ""
    if done.returncode == 5:  # no test selected
        return "no tests", seconds, ""
    failed = re.search(r"^(?:FAILED|ERROR) (\S+)", done.stdout, re.M)
    return ("killed" if failed else "error " + str(done.returncode)), seconds, failed.group(1) if failed else done.stdout[-300:]


def write(path: Path, text: str, stamp: list[int]) -> None:
    """Write and give the file a new modification time: byte code is reused when the source's
    time and size match, and a mutant often keeps the size."""
    path.write_text(text)
    stamp[0] += 1
    os.utime(path, (stamp[0], stamp[0]))


def mutant_key(result: dict) -> str:
    """The name tests/mutation_accepted.txt gives a sampled mutant: `sample FILE:LINE#INDEX`."""
    return f"sample {result['file']}:{result['line']}#{result['index']}"


def accepted_keys() -> set[str]:
    path = ROOT / "tests" / "mutation_accepted.txt"
    lines = path.read_text().splitlines() if path.exists() else []
    return {line.split("  #", 1)[0].strip() for line in lines if line.startswith("sample ")}


def report(results_file: Path) -> str:
    """Scores of a run (the last result of each drawn number), per stratum and in all, with the
    95% Wilson interval; equivalent mutants (tests/mutation_accepted.txt) are left out."""
    from mutation import wilson_interval

    latest: dict[int, dict] = {}
    for line in results_file.read_text().splitlines():
        result = json.loads(line)
        latest[result["number"]] = result
    accepted = accepted_keys()
    groups: dict[str, list[dict]] = {"recent": [], "other": [], "all": []}
    for result in latest.values():
        groups["recent" if RECENT.search(result["file"]) else "other"].append(result)
        groups["all"].append(result)
    out = [f"{'':8} {'mutants':>7} {'killed':>6} {'survived':>8} {'no tests':>8} {'equivalent':>10} {'score':>6}  95% interval"]
    for name, results in groups.items():
        equivalent = [r for r in results if mutant_key(r) in accepted and r["status"] != "killed"]
        counted = [r for r in results if r not in equivalent]
        killed = sum(r["status"] in ("killed", "timeout") for r in counted)
        survived = sum(r["status"] == "survived" for r in counted)
        untested = len(counted) - killed - survived
        low, high = wilson_interval(killed, len(counted))
        score = killed / len(counted) if counted else 0.0
        out.append(f"{name:8} {len(results):7} {killed:6} {survived:8} {untested:8} {len(equivalent):10} {score:6.1%}"
                   f"  {low:.1%}-{high:.1%}")
    for r in sorted(latest.values(), key=lambda r: r["number"]):
        if r["status"] not in ("killed", "timeout"):
            tag = "equivalent" if mutant_key(r) in accepted else r["status"]
            out.append(f"{tag}: {mutant_key(r)} {r['change']}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=26, help="seed of the draw (default: 26)")
    parser.add_argument("--recent", type=int, default=30, help="mutants from RECENT's modules (default: 30)")
    parser.add_argument("--rest", type=int, default=30, help="mutants from the other modules (default: 30)")
    parser.add_argument("--timeout", type=float, default=900, help="seconds per mutant (default: 900)")
    parser.add_argument("--ref", help="mutate and test this commit instead of the working tree (e.g. the "
                        "commit before new tests, for a score before them)")
    parser.add_argument("--also", nargs="+", default=[], metavar="TEST",
                        help="run these tests too, first (where importing misses the tests that reach a module)")
    parser.add_argument("--widen", action="store_true",
                        help="run a survivor again against every test file of its subpackage (as a module no "
                             "test file imports gets): a test that reaches the module through the loader or "
                             "cli.main then kills it")
    parser.add_argument("--slow", action="store_true",
                        help="run a survivor of the quick tests again against the slow tests of the test files "
                             "importing its module (else of its subpackage): the whole suite's verdict; a slow run "
                             "out of time is no kill")
    parser.add_argument("--files", metavar="REGEX",
                        help="draw only from the modules whose path matches REGEX (a census of a few modules, "
                             "e.g. 'playtest/report'; default: every module)")
    parser.add_argument("--change", metavar="REGEX",
                        help="draw only the mutants whose change, as --list prints it, matches REGEX (a census of "
                             "one kind, e.g. 'XX' for the strings; default: every mutant)")
    parser.add_argument("--list", action="store_true", help="print the draw and stop")
    parser.add_argument("--only", type=int, nargs="+", metavar="N",
                        help="run only these numbers of the draw, in this order (interleave the strata: the mutants "
                             "run by any time are then a prefix of each stratum's draw, in proportion)")
    parser.add_argument("--results", type=Path, help="JSON lines file to append results to")
    parser.add_argument("--contexts", type=Path, nargs="+", help="coverage data files of runs with "
                        "--cov-context=test: each mutant then runs the tests that run its line (default: the test "
                        "files importing its module); a line no quick test runs gets its files' slow tests too")
    parser.add_argument("--contexts-root", type=Path, nargs="+", default=[], metavar="DIR",
                        help="the folders the data files measured the package in, where not the checkout "
                             "(e.g. /work/main)")
    parser.add_argument("--draw-file", type=Path, help="keep the draw in this JSON file (it takes minutes)")
    parser.add_argument("--report", type=Path, metavar="RESULTS",
                        help="print the scores of a results file (--results) and stop")
    args = parser.parse_args(argv)
    if args.report:
        print(report(args.report))
        return 0
    if args.draw_file and args.draw_file.exists():
        chosen = [tuple(item) for item in json.loads(args.draw_file.read_text())]
    else:
        chosen = draw(args.seed, args.recent, args.rest, args.files, args.change)
        if args.draw_file:
            args.draw_file.write_text(json.dumps(chosen))
    if args.list:
        for number, (relative, index, line) in enumerate(chosen):
            print(f"{number:3} {relative}:{line} #{index} {mutated_code(relative, index)[1]}")
        return 0
    stage = Path(tempfile.mkdtemp(prefix="boardwright-mutation-sample-"))
    copy = stage_copy(stage, args.ref)
    source = copy       # the snapshot the runs test: the working tree may change while they run
    stamp = [int(time.time()) + 10**6]
    by_line = TestsByLine(args.contexts, args.contexts_root)
    results = []
    try:
        for number in (dict.fromkeys(args.only) if args.only else range(len(chosen))):
            relative, index, line = chosen[number]
            tests, selected_by = tests_for(relative, line, by_line, source)
            if selected_by != "line":
                tests = ordered_tests(relative, tests)
            tests = args.also + [t for t in tests if t not in args.also]
            original = (source / relative).read_text()
            code, change = mutated_code(relative, index, source)
            failed = ""
            if not tests:
                status, seconds = "no tests", 0.0
            else:
                write(copy / relative, code, stamp)
                try:
                    status, seconds, failed = run_tests(copy, stage, tests, args.timeout,
                                                        slow=selected_by.endswith("+slow"))
                    if status == "timeout" and selected_by.endswith("+slow"):
                        status = "survived"     # whole test files with their slow tests may take that long
                        # on the real code too: only a failing test is a kill there
                    wider = [t for t in ordered_tests(relative, package_tests(relative, source)) if t not in tests]
                    if status == "survived" and args.widen and wider:
                        status, more, failed = run_tests(copy, stage, wider, args.timeout)
                        # a wide run out of time is no kill: only a failing test is
                        status, seconds = ("survived" if status == "timeout" else status), seconds + more
                        selected_by += " then package"
                        tests = tests + wider
                    if status == "survived" and args.slow and not selected_by.startswith(("import+slow", "package+slow")):
                        slow_files = ordered_tests(relative, importers(relative, source) or package_tests(relative, source))
                        status, more, failed = run_tests(copy, stage, slow_files, args.timeout, only_slow=True)
                        status, seconds = ("survived" if status in ("timeout", "no tests") else status), seconds + more
                        selected_by += " then slow"
                finally:
                    write(copy / relative, original, stamp)
            result = dict(number=number, file=relative, line=line, index=index, change=change,
                          status=status, seconds=round(seconds, 1), tests=len(tests),
                          selected_by=selected_by, failed=failed)
            results.append(result)
            print(f"{number:3} {status:14} {seconds:6.1f}s {relative}:{line} {change} [{len(tests)} by {selected_by}] {failed}", flush=True)
            if args.results:
                with args.results.open("a") as out:
                    out.write(json.dumps(result) + "\n")
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    killed = sum(r["status"] in ("killed", "timeout") for r in results)
    counted = sum(r["status"] in ("killed", "timeout", "survived", "no tests") for r in results)
    print(f"killed {killed} of {counted}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
