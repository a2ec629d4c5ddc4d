"""This checkout, for child processes: a folder to put on PYTHONPATH so that `import
boardwright` imports this checkout, whatever the checkout's folder is called.

The repository root is the package itself (docs/architecture.md), so its parent folder on
PYTHONPATH would only work for a checkout named `boardwright`; one named like a standard
library module, such as `copy`, would even shadow that module in the child.
"""
from __future__ import annotations

import tempfile
from functools import lru_cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


@lru_cache(maxsize=None)
def import_path() -> str:
    folder = Path(tempfile.mkdtemp(prefix="boardwright-test-path-"))
    (folder / "boardwright").symlink_to(REPO, target_is_directory=True)
    return str(folder)
