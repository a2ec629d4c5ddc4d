"""Start-up stays lean (docs/performance.md): `validate` of a game whose data the cache
knows to be valid imports none of the slow libraries that only other commands need."""
from __future__ import annotations

import pytest

import json
import os
import subprocess
import sys

SLOW_LIBRARIES = ("jsonschema", "hypothesis", "matplotlib", "dask")

VALIDATE_AND_LIST_IMPORTS = f"""
import json, sys
from boardwright.cli.main import main
code = main(["validate", "punto"])
print(json.dumps({{"code": code, "slow": [m for m in {SLOW_LIBRARIES!r} if m in sys.modules]}}))
"""


def _validate_in_a_fresh_process(cache) -> dict:
    env = dict(os.environ, BOARDWRIGHT_CACHE=str(cache))
    done = subprocess.run([sys.executable, "-c", VALIDATE_AND_LIST_IMPORTS], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.slow
def test_validate_imports_no_slow_library_once_the_cache_knows_the_data(tmp_path):
    first = _validate_in_a_fresh_process(tmp_path / "cache")
    assert first["code"] == 0
    assert "jsonschema" in first["slow"]        # the premise: an empty cache checks the data
    second = _validate_in_a_fresh_process(tmp_path / "cache")
    assert second == {"code": 0, "slow": []}


TEST_AND_LIST_IMPORTS = f"""
import contextlib, io, json, sys
from boardwright.cli.main import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(["test", sys.argv[1]])
print(json.dumps({{"code": code, "jsonschema": "jsonschema" in sys.modules}}))
"""


@pytest.mark.slow
def test_scenarios_whose_shape_the_cache_knows_are_run_without_jsonschema(tmp_path):
    # docs/security.md: a scenario's shape is checked once per text (a marker in the cache)
    # Punto's scenarios without its bot puzzles, whose searches took most of the two runs and
    # whose shape is checked as every other scenario's is.
    import shutil
    from pathlib import Path
    folder = tmp_path / "scenarios"
    folder.mkdir()
    for scenario in (Path(__file__).resolve().parents[1] / "games" / "punto" / "scenarios").glob("*.scenario.yaml"):
        shutil.copy(scenario, folder)
    env = dict(os.environ, BOARDWRIGHT_CACHE=str(tmp_path / "cache"))

    def run() -> dict:
        done = subprocess.run([sys.executable, "-c", TEST_AND_LIST_IMPORTS, str(folder)], env=env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout.splitlines()[-1])
    assert run() == {"code": 0, "jsonschema": True}
    assert run() == {"code": 0, "jsonschema": False}
