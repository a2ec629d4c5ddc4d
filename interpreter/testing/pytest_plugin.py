"""A pytest plugin (entry point `boardwright`): collects `*.scenario.yaml` files as tests.

`pytest games/` then runs every game's scenarios beside the project's own tests, and a
failing scenario is reported with its file and the expectations that failed.
"""
from __future__ import annotations

from pathlib import Path

import pytest

PACKAGE_ROOT = Path(__file__).resolve().parents[2]      # the checkout: interpreter/testing/ is two floors down


if hasattr(pytest, "Dir"):          # pytest 8 and later
    @pytest.hookimpl(tryfirst=True)
    def pytest_collect_directory(path, parent):
        """Boardwright's own folders (the package root, games/ and the rest) hold no pytest
        tests of their own, only scenarios: they are collected as plain folders, never
        imported as Python packages. (In a checkout, the package is the checkout's folder,
        and a package named after it, such as `copy`, would shadow the standard library.)"""
        resolved = Path(path).resolve()
        if resolved == PACKAGE_ROOT or PACKAGE_ROOT in resolved.parents:
            return pytest.Dir.from_parent(parent, path=path)
        return None


class ScenarioFailed(Exception):
    def __init__(self, outcome):
        super().__init__("\n".join(outcome.failures))
        self.outcome = outcome


def pytest_collect_file(parent, file_path):
    if file_path.name.endswith(".scenario.yaml"):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self):
        yield ScenarioItem.from_parent(self, name=self.path.name.removesuffix(".scenario.yaml"))


class ScenarioItem(pytest.Item):
    def runtest(self):
        # Imported here, not at the top: pytest loads this plugin before coverage measurement
        # starts, and the whole interpreter would otherwise be imported unmeasured.
        from .scenario import run_scenario

        outcome = run_scenario(self.path)
        if not outcome.passed:
            raise ScenarioFailed(outcome)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ScenarioFailed):
            outcome = excinfo.value.outcome
            return "\n".join([f"scenario {self.path}: {outcome.name}"]
                             + [f"  {line}" for failure in outcome.failures for line in failure.splitlines()])
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"scenario: {self.name}"
