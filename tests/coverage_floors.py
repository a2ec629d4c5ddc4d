"""Line-coverage floors per source directory, checked after a whole-suite run.

pytest-cov (started by `--cov` in pyproject's addopts) measures the package, the CLI
subprocesses and forked workers included, and combines the data when the tests end. This
module reads that data, prints one line per directory, and fails the run when `dsl/` or
`interpreter/` falls below its floor. A targeted run (file or test arguments, `-k`, `-m`,
`--deselect`, or a failing test) only prints the figures: the floors speak about the whole suite.
"""
from __future__ import annotations

import io
from pathlib import Path

import pytest

PACKAGE_ROOT = Path(__file__).resolve().parent.parent

# Percent of statements run, per directory of the package; None: reported, no floor.
FLOORS: dict[str, float | None] = {"dsl": 97.0, "interpreter": 97.0, "cli": None}


def whole_suite(config: pytest.Config) -> bool:
    """True when the run is the default one over `testpaths`, unfiltered."""
    option = config.option
    filtered = option.keyword or option.markexpr or getattr(option, "deselect", None)
    return config.args_source == pytest.Config.ArgsSource.TESTPATHS and not filtered


def directory_percent(cov, directory: str) -> float | None:
    """Percent of statements covered in PACKAGE_ROOT/directory, None when nothing was measured."""
    pattern = str(PACKAGE_ROOT / directory / "*")
    try:
        return cov.report(include=[pattern], file=io.StringIO())
    except Exception as error:  # coverage raises NoDataError when no file matched
        if type(error).__name__ == "NoDataError":
            return None
        raise


def check_floors(session: pytest.Session) -> None:
    plugin = session.config.pluginmanager.getplugin("_cov")
    controller = getattr(plugin, "cov_controller", None)
    if controller is None or getattr(plugin, "_disabled", True):
        return
    enforce = whole_suite(session.config) and not session.testsfailed and not session.shouldfail
    reporter = session.config.pluginmanager.getplugin("terminalreporter")
    lines, short = [], []
    for directory, floor in FLOORS.items():
        percent = directory_percent(controller.cov, directory)
        if percent is None:
            continue
        text = f"{directory}/ {percent:.2f}%"
        if floor is not None:
            text += f" (floor {floor:g}%)"
            if enforce and percent < floor:
                short.append(f"{directory}/ line coverage {percent:.2f}% is below its floor of {floor:g}%")
        lines.append(text)
    if reporter is not None and lines:
        reporter.write_line("line coverage: " + ", ".join(lines))
    for message in short:
        if reporter is not None:
            reporter.write_line(f"ERROR: {message}", red=True, bold=True)
        session.testsfailed += 1
