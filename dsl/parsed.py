"""Parsed rule files, kept in memory and in the user's cache folder.

The AST is immutable, so a rule file read again with the same text is not parsed again:
in memory within a process (scenario runs load the same game many times), and across
processes through a pickle in the user's cache folder, keyed by the file's name and text and
by the parser's own sources (a new grammar or AST never reads an old entry). A missing,
stale or damaged cache file is ignored: the file is parsed and the entry rewritten.
Unpickling runs code, so an entry is unpickled only when it carries the signature that only
this user's secret key makes (dsl/cache.py `read_cache_file`, docs/security.md): a planted
file is parsed over, never loaded. Lark is imported only when a file must really be parsed.
"""
from __future__ import annotations

import hashlib
import pickle
from functools import lru_cache
from pathlib import Path

from .errors import SOURCES, Diagnostic, RuleFileError, Span, read_source

_PARSED: dict = {}
# Unsaved editor buffers by path (the language server's): read instead of the file on disk.
OVERLAY: dict[str, str] = {}
_HERE = Path(__file__).resolve().parent


def parse_file(path: str | Path):
    path = Path(path)
    try:
        overlay = OVERLAY.get(str(path.resolve()))
        text = overlay if overlay is not None else read_source(path)
    except OSError as exc:
        raise RuleFileError(Diagnostic(Span(str(path), 0, 0, 0, 0), f"cannot read {path}: {exc.strerror}"))
    key = (str(path), text)
    module = _PARSED.get(key)
    if module is None:
        module = _from_disk(str(path), text)
        if module is None:
            from .parser import parse_text
            module = parse_text(text, str(path))
            _to_disk(str(path), text, module)
        if len(_PARSED) >= 64:
            _PARSED.clear()
        _PARSED[key] = module
    SOURCES[str(path)] = text
    return module


def forget_parsed() -> None:
    """Drop the parsed files kept in memory (the benchmark times loading afresh)."""
    _PARSED.clear()


@lru_cache(maxsize=1)
def _parser_version() -> str:
    digest = hashlib.sha256()
    for name in ("grammar.lark", "grammar.py", "ast.py", "build_ast.py", "parser.py", "syntax_errors.py",
                 "errors.py"):
        digest.update((_HERE / name).read_bytes())
    return digest.hexdigest()


def _cache_path(filename: str, text: str) -> Path | None:
    from .cache import cache_dir
    folder = cache_dir()
    if folder is None:
        return None
    digest = hashlib.sha256("\0".join((_parser_version(), filename, text)).encode("utf-8")).hexdigest()
    return folder / f"ast-{digest[:32]}.pickle"


def _from_disk(filename: str, text: str):
    path = _cache_path(filename, text)
    if path is None:
        return None
    from .cache import read_cache_file
    try:
        data = read_cache_file(path)
        if data is None:
            return None
        module = pickle.loads(data)
        if module.source != text:
            return None
        return module
    except Exception:           # missing, unreadable or damaged: parse afresh
        return None


def _to_disk(filename: str, text: str, module) -> None:
    path = _cache_path(filename, text)
    if path is None:
        return
    from .cache import store_cache_file
    try:
        data = pickle.dumps(module, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, RecursionError):
        return
    store_cache_file(path, data, keep=200)
