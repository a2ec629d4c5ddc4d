"""The disk cache shared by every stage: where it lives, and reading and writing its files safely.

The parser keeps its tables and parsed rule files here (dsl/parser.py, dsl/parsed.py), the data
loader its marks of valid data files (dsl/data.py), and the compiler its compiled code
(interpreter/compile/codegen.py). The folder is `$BOARDWRIGHT_CACHE`, else the user's cache
folder; an empty `BOARDWRIGHT_CACHE` turns the disk cache off. Some of these files are loaded
as code, so a file is read only when it is the current user's and no one else may write it
(docs/security.md). This module sits at the bottom of the house: it imports nothing of ours.
"""
from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path | None:
    """Where compiled code, parsed rule files and the grammar are kept between runs:
    $BOARDWRIGHT_CACHE, else the user cache dir, created private (0700). None (no disk cache)
    when BOARDWRIGHT_CACHE is empty, or when the folder cannot be made, is not the current
    user's, or others may write in it: its files are loaded as code (docs/security.md)."""
    configured = os.environ.get("BOARDWRIGHT_CACHE")
    if configured is not None:
        if not configured.strip():
            return None
        folder = Path(configured)
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        folder = Path(base) / "boardwright"
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        return folder if _ours(os.stat(folder)) else None
    except (OSError, ValueError):
        return None


def _ours(info) -> bool:
    """Whether a cache file or folder belongs to the current user and no one else may write it."""
    if not hasattr(os, "getuid"):       # Windows: the user's profile folders are private
        return True
    return info.st_uid == os.getuid() and not info.st_mode & 0o022


def read_cache_file(path: Path) -> bytes | None:
    """A cache file's bytes, or None when it is missing, a symbolic link, not the current
    user's, or writable by others (a planted file is never loaded)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        return f.read() if _ours(os.fstat(f.fileno())) else None


def trusted_cache_file(path: Path) -> bool:
    """Whether an existing cache file may be read (see read_cache_file)."""
    try:
        return not path.is_symlink() and _ours(os.stat(path))
    except OSError:
        return False


def store_cache_file(path: Path, data: bytes, keep: int) -> None:
    """Write `data` to `path` atomically; when more than `keep` files of its kind (same prefix
    before the first '-', same suffix) are on disk, delete the oldest half. A read-only or full
    disk only means no disk cache."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)
        files = list(path.parent.glob(f"{path.name.split('-')[0]}-*{path.suffix}"))
        if len(files) > keep:
            files.sort(key=lambda f: f.stat().st_mtime)
            for old in files[:len(files) - keep // 2]:
                old.unlink(missing_ok=True)
    except OSError:
        pass
