"""The disk cache (dsl/cache.py) and compiled rule code in it (docs/security.md): where it lives, when it is off,
and how it keeps its size bounded."""
from __future__ import annotations

import os

from boardwright.dsl import cache
from boardwright.interpreter.compile import codegen


def test_an_empty_boardwright_cache_turns_the_disk_cache_off(monkeypatch):
    monkeypatch.setenv("BOARDWRIGHT_CACHE", "  ")
    assert cache.cache_dir() is None
    assert codegen.cache_file("x = 1") is None


def test_without_boardwright_cache_the_user_cache_dir_is_used(monkeypatch, tmp_path):
    monkeypatch.delenv("BOARDWRIGHT_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    folder = cache.cache_dir()
    assert folder == tmp_path / "xdg" / "boardwright"
    assert folder.is_dir() and oct(folder.stat().st_mode & 0o777) == oct(0o700)


def test_without_any_setting_the_cache_is_under_the_home_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("BOARDWRIGHT_CACHE", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert cache.cache_dir() == tmp_path / ".cache" / "boardwright"


def test_a_folder_others_may_write_is_not_used(monkeypatch, tmp_path):
    folder = tmp_path / "shared"
    folder.mkdir()
    folder.chmod(0o777)
    monkeypatch.setenv("BOARDWRIGHT_CACHE", str(folder))
    assert cache.cache_dir() is None


def test_the_cache_keeps_at_most_keep_files_dropping_the_oldest(monkeypatch, tmp_path):
    monkeypatch.setenv("BOARDWRIGHT_CACHE", str(tmp_path))
    for i in range(4):
        old = tmp_path / f"rules-old{i}.bin"
        old.write_bytes(b"x")
        os.utime(old, (1000 + i, 1000 + i))
    cache.store_cache_file(tmp_path / "rules-new.bin", b"code", keep=4)
    # Five files is over the limit of four: the oldest go until half the limit (2) are left.
    left = sorted(p.name for p in tmp_path.glob("rules-*.bin"))
    assert left == ["rules-new.bin", "rules-old3.bin"]


def test_a_damaged_cache_file_is_compiled_afresh(monkeypatch, tmp_path):
    monkeypatch.setenv("BOARDWRIGHT_CACHE", str(tmp_path))
    source = "answer = 6 * 7\n"
    path = codegen.cache_file(source)
    path.write_bytes(b"not marshal data")
    codegen.forget_compiled()
    namespace: dict = {}
    exec(codegen.compiled(source, "<cache test>"), namespace)
    assert namespace["answer"] == 42
