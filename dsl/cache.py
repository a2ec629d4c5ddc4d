"""The disk cache shared by every stage: where it lives, and reading and writing its files safely.

The parser keeps its tables and parsed rule files here (dsl/grammar.py, dsl/parsed.py), the data
loader its marks of valid data files (dsl/data.py), and the compiler its compiled code
(interpreter/compile/codegen.py). The folder is `$BOARDWRIGHT_CACHE`, else the user's cache
folder; an empty `BOARDWRIGHT_CACHE` turns the disk cache off. Some of these files are loaded
as code, so every file is signed: it begins with an HMAC of its name and contents under a
secret key that only this user can read (kept in the user's config folder, not in the cache),
and a file whose signature does not match is never loaded. A file planted in the cache folder
(a `.bwcache` folder unpacked from someone's archive, say) cannot carry a valid signature
(docs/security.md). This module sits at the bottom of the house: it imports nothing of ours.
"""
from __future__ import annotations

import hashlib
import hmac
import os
import stat
from pathlib import Path

MAGIC = b"BWC1"                 # a signed cache file: MAGIC, the 32-byte HMAC-SHA256, the data
MAX_CACHE_FILE = 256 * 1024 * 1024
KEY_BYTES = 32
_KEYS: dict = {}


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


def key_file() -> Path:
    """The secret key that signs cache files: in the user's config folder ($XDG_CONFIG_HOME,
    else ~/.config), never in the cache folder, which may be one a stranger's archive made."""
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "boardwright" / "cache-key"


def _read_key(path: Path) -> bytes | None:
    """The key's bytes, only from a regular file of the current user's that no one else may
    read or write, and not through a symbolic link."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(f.fileno())
        if not stat.S_ISREG(info.st_mode) or not _ours(info):
            return None
        if hasattr(os, "getuid") and info.st_mode & 0o077:
            return None
        key = f.read(KEY_BYTES + 1)
    return key if len(key) == KEY_BYTES else None


def cache_key() -> bytes | None:
    """The user's secret cache key, made (32 random bytes, mode 0600) the first time; None when
    it cannot be made or read safely: then nothing is read from or written to the disk cache."""
    path = key_file()
    known = _KEYS.get(str(path))
    if known is not None:
        return known
    key = _read_key(path)
    if key is None and not (path.exists() or path.is_symlink()):
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            tmp = path.with_name(f".cache-key.{os.getpid()}.tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(os.urandom(KEY_BYTES))
            try:
                os.link(tmp, path)      # never replaces a key another process made first
            except FileExistsError:
                pass
            finally:
                tmp.unlink(missing_ok=True)
        except OSError:
            return None
        key = _read_key(path)
    if key is not None:
        _KEYS[str(path)] = key
    return key


def _signature(key: bytes, path: Path, data: bytes) -> bytes:
    return hmac.new(key, path.name.encode("utf-8") + b"\0" + data, hashlib.sha256).digest()


def read_cache_file(path: Path) -> bytes | None:
    """A cache file's data, or None when it is missing, not a regular file (a FIFO, a device),
    a symbolic link, not the current user's, writable by others, larger than MAX_CACHE_FILE, or
    not signed with the user's key for this file name (a planted file is never loaded)."""
    key = cache_key()
    if key is None:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as f:
            info = os.fstat(f.fileno())
            if not stat.S_ISREG(info.st_mode) or not _ours(info) or info.st_size > MAX_CACHE_FILE:
                return None
            raw = f.read(MAX_CACHE_FILE + 1)
    except OSError:
        return None
    head = len(MAGIC) + 32
    if len(raw) < head or raw[:len(MAGIC)] != MAGIC:
        return None
    data = raw[head:]
    if not hmac.compare_digest(raw[len(MAGIC):head], _signature(key, path, data)):
        return None
    return data


def store_cache_file(path: Path, data: bytes, keep: int) -> None:
    """Write `data`, signed, to `path` atomically and private (0600, whatever the umask); when
    more than `keep` files of its kind (same prefix before the first '-', same suffix) are on
    disk, delete the oldest half. A read-only or full disk only means no disk cache."""
    key = cache_key()
    if key is None:
        return
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        tmp.unlink(missing_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(MAGIC + _signature(key, path, data) + data)
        os.replace(tmp, path)
        files = list(path.parent.glob(f"{path.name.split('-')[0]}-*{path.suffix}"))
        if len(files) > keep:
            files.sort(key=lambda f: f.stat().st_mtime)
            for old in files[:len(files) - keep // 2]:
                old.unlink(missing_ok=True)
    except OSError:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
