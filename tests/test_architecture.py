"""The house (docs/architecture.md): each floor imports only from itself and the floors below,
no module imports itself back through others, and no module grows past MAX_LINES.

Imports are read from the source with `ast`, those inside functions included (a lazy import
is still a dependency), so the test sees what Python would import without running anything.
"""
from __future__ import annotations

import ast
import re
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "boardwright"

# Lowest first: a module may import from its own floor and those before it.
FLOORS = ["dsl", "interpreter.run", "interpreter.compile", "interpreter.bots",
          "interpreter.playtest", "interpreter.testing", "cli"]
MAX_LINES = 500


def source_modules() -> dict[str, Path]:
    """Every module of the package below the repository root, by dotted name (no 'boardwright.')."""
    modules = {}
    for folder in ("dsl", "interpreter", "cli"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def imports_of(name: str, path: Path, known: set) -> set[str]:
    """The package's modules that `name` (at `path`) imports, anywhere in its text."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            elif (node.module or "").startswith(PACKAGE + "."):
                target = node.module[len(PACKAGE) + 1:]
            else:
                continue
            for alias in node.names:         # `from . import ast` names a module
                if f"{target}.{alias.name}" in known:
                    found.add(f"{target}.{alias.name}")
            if target in known:
                found.add(target)
        elif isinstance(node, ast.Import):
            found.update(a.name[len(PACKAGE) + 1:] for a in node.names
                         if a.name[len(PACKAGE) + 1:] in known)
    found.discard(name)
    return found


def floor_of(name: str) -> int | None:
    """The index in FLOORS of the floor that holds module `name` (the longest match)."""
    best = None
    for index, floor in enumerate(FLOORS):
        if name == floor or name.startswith(floor + "."):
            if best is None or len(floor) > len(FLOORS[best]):
                best = index
    return best


@lru_cache(maxsize=None)
def import_graph() -> dict[str, set[str]]:
    modules = source_modules()
    return {name: imports_of(name, path, set(modules)) for name, path in modules.items()}


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Each import of a module on a higher floor (or of a module outside every floor)."""
    found = []
    for name, targets in sorted(graph.items()):
        here = floor_of(name)
        for target in sorted(targets):
            there = floor_of(target)
            if here is None or there is None or there > here:
                found.append(f"{name} imports {target}")
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import one another in a circle (Tarjan's strongly connected
    components of more than one module)."""
    index, low, on_stack, stack, groups = {}, {}, set(), [], []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def test_no_module_imports_from_a_floor_above_its_own():
    assert upward_imports(import_graph()) == []


def test_no_modules_import_each_other_in_a_circle():
    assert cycles(import_graph()) == []


def test_every_module_is_on_a_floor():
    assert [name for name in source_modules() if floor_of(name) is None
            and name not in ("interpreter",)] == []


def test_no_module_is_longer_than_the_limit():
    long = {name: n for name, path in source_modules().items()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


# ---------------------------------------------------------------------------- the checks themselves
def test_an_upward_import_is_found():
    graph = {"dsl.loader": {"interpreter.compile.compiler"}, "interpreter.compile.compiler": {"dsl.ast"}}
    assert upward_imports(graph) == ["dsl.loader imports interpreter.compile.compiler"]


def test_a_cycle_is_found_and_a_chain_is_not():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


@pytest.mark.parametrize("name, text, expected", [
    ("cli.probe", "from ..dsl.errors import RuleError\n", {"dsl.errors"}),
    ("interpreter.compile.probe", "def f():\n    from ...dsl import ast\n", {"dsl", "dsl.ast"}),
    ("interpreter.compile.probe", "import boardwright.cli.main\n", {"cli.main"}),
    ("dsl.probe", "from boardwright.interpreter.run import engine\n", {"interpreter.run", "interpreter.run.engine"}),
    ("dsl.probe", "import os\nfrom lark import Lark\n", set()),
])
def test_imports_are_read_relative_absolute_and_inside_functions(tmp_path, name, text, expected):
    path = tmp_path / "probe.py"
    path.write_text(text)
    known = {"dsl.errors", "dsl.ast", "dsl", "cli.main", "interpreter.run.engine", "interpreter.run"}
    assert imports_of(name, path, known) == expected


def test_the_pytest_plugin_knows_the_checkout_root():
    # Its folder hook keeps pytest from importing the checkout as a package: it must name the root.
    from boardwright.interpreter.testing.pytest_plugin import PACKAGE_ROOT
    assert PACKAGE_ROOT == ROOT


def test_the_engine_names_no_bundled_game():
    # Rules are data: interpreter/, dsl/ and cli/ never name a game, not even in a comment.
    names = set()
    for folder in (ROOT / "games").iterdir():
        if folder.is_dir() and not folder.name.startswith("_"):
            names.add(folder.name.replace("-", " "))
    assert names, "no bundled games found"
    pattern = re.compile("|".join(re.escape(n).replace(r"\ ", "[ _-]") for n in sorted(names)), re.IGNORECASE)
    found = [f"{path.relative_to(ROOT)}:{number}"
             for top in ("interpreter", "dsl", "cli") for path in sorted((ROOT / top).rglob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if pattern.search(line)]
    assert found == []
