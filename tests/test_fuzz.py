"""Fuzzing every kind of input file (docs/security.md): Hypothesis mutates each bundled rule
file, data file, a scenario per game, a saved game and a game log; each mutated file is run
by the command that reads it, in a subprocess with memory and CPU limits. No mutation may
end in an internal error (exit 3), a Python traceback, a hang or the limits' kill."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardwright.dsl.loader import GAMES_DIR, bundled_games
from conftest import cached_game, examples

MUTATIONS = examples(5)         # per file: enough to reach every loader, fast enough for CI (125 thorough)
PIECES = ["9" * 5000, "..", "/etc/passwd", "{", "}", "{value.__class__}", "{x:>999999999}", "\xff", "\ufeff",
          "-", "0", "&a", "*a", "[", "]", ":", "\n", "    ", '"', "range(1000000000)", "players 2..30000",
          "null", "true", "[[[[[[[[[[", "by 7", "2 ** 99", "²", "\x00"]

WORKER = textwrap.dedent("""
    import io, json, resource, signal, sys
    resource.setrlimit(resource.RLIMIT_AS, (1 << 31, 1 << 31))      # 2 GB
    from boardwright.cli.main import main
    results = []

    def timeout(*_):
        raise TimeoutError
    signal.signal(signal.SIGALRM, timeout)
    for argv, stdin in json.load(sys.stdin):
        sys.stdin, out = io.StringIO(stdin), io.StringIO()
        sys.stdout = sys.stderr = out
        signal.alarm(20)
        try:
            code = main(argv)
        except TimeoutError:
            code = "hang"
        except SystemExit as exc:       # argparse's usage errors
            code = exc.code
        except BaseException as exc:
            code = "escaped " + type(exc).__name__
        signal.alarm(0)
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
        results.append([argv, code, out.getvalue()[-600:]])
    print(json.dumps(results))
""")


def mutations(data: bytes, count: int) -> list:
    """`count` mutations of a file's bytes, drawn by Hypothesis (derandomized)."""
    found = []

    @settings(max_examples=count, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def collect(draw):
        out = data
        for _ in range(draw.draw(st.integers(1, 3))):
            where = draw.draw(st.integers(0, len(out)))
            size = draw.draw(st.integers(0, 12))
            action = draw.draw(st.sampled_from(["insert", "replace", "truncate", "duplicate"]))
            piece = draw.draw(st.sampled_from(PIECES)).encode("utf-8", "surrogatepass")
            if action == "insert":
                out = out[:where] + piece + out[where:]
            elif action == "replace":
                out = out[:where] + piece + out[where + size:]
            elif action == "truncate":
                out = out[:where]
            else:
                line_end = out.find(b"\n", where)
                out = out[:line_end] + out[out.rfind(b"\n", 0, where) + 1:line_end] + out[line_end:] \
                    if line_end >= 0 else out
        found.append(out)
    collect()
    return found


def run_jobs(jobs: list) -> list:
    done = subprocess.run([sys.executable, "-c", WORKER], input=json.dumps(jobs), capture_output=True,
                          text=True, timeout=60 + 20 * len(jobs))
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads(done.stdout)
    assert jobs and len(results) == len(jobs), "every job ran"
    return results


def assert_clean(results: list) -> None:
    for argv, code, out in results:
        assert code in (0, 1, 2), (argv, code, out)
        assert "Traceback" not in out and "internal error" not in out, (argv, out)


def _targets() -> list:
    targets = []
    for name in bundled_games():
        folder = GAMES_DIR / name
        targets += [(name, path.name) for path in sorted(folder.glob("*.game"))[:2]]
        targets += [(name, path.name) for path in sorted(folder.glob("*.yaml"))]
        targets += [(name, str(path.relative_to(folder))) for path in sorted(folder.glob("scenarios/*.yaml"))[:1]]
    return targets


@pytest.mark.slow
@pytest.mark.parametrize("game, relative", _targets())
def test_mutated_game_files_fail_cleanly(tmp_path, game, relative):
    original = (GAMES_DIR / game / relative).read_bytes()
    jobs = []
    for number, mutated in enumerate(mutations(original, MUTATIONS)):
        folder = tmp_path / f"m{number}" / game
        shutil.copytree(GAMES_DIR / game, folder)
        (folder / relative).write_bytes(mutated)
        if relative.endswith(".scenario.yaml"):
            jobs.append([["test", str(folder / relative)], ""])
        elif relative.endswith(".game"):
            players = str(cached_game(game, None if relative == f"{game}.game" else relative[:-5]).min_players)
            jobs.append([["simulate", str(folder / relative), "--games", "2", "--players", players], ""])
        else:
            jobs.append([["validate", str(folder)], ""])
    assert_clean(run_jobs(jobs))


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["save", "log"])
def test_mutated_saves_and_logs_fail_cleanly(tmp_path, kind):
    target = tmp_path / f"game.{kind}"
    if kind == "save":
        setup = [[["play", "punto", "--players", "2", "--seats", "human,random", "--seed", "5"],
                  "1\n1\n1\n" + f"save {target}\nquit\n"]]
    else:
        setup = [[["play", "punto", "--players", "2", "--seats", "random,random", "--log", str(target)], ""]]
    assert_clean(run_jobs(setup))
    jobs = []
    for number, mutated in enumerate(mutations(target.read_bytes(), MUTATIONS * 2)):
        path = tmp_path / f"m{number}.json"
        path.write_bytes(mutated)
        jobs.append([["play", "--load", str(path)], "1\n" * 3 + "quit\n"] if kind == "save" else
                    [["replay", str(path), "--step", "2"], ""])
    assert_clean(run_jobs(jobs))
