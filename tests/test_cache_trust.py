"""The disk cache trusts only files this user's key signed (dsl/cache.py, docs/security.md):
a cache folder unpacked from someone's archive (`BOARDWRIGHT_CACHE=.bwcache`) runs no code,
a damaged or odd entry (a FIFO, a device) never fails or blocks a command, and files are
written private whatever the umask."""
from __future__ import annotations

import marshal
import os
import pickle
import stat
import subprocess
import sys

import pytest

from boardwright.dsl import cache

GAME = 'game "Harmless"\nplayers 2..2\nvar n: int = 0\nplay {\n  n += 1\n}\n'


class _Planted:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.mkdir, (str(self.marker),))


def _validate(folder, config):
    env = dict(os.environ, BOARDWRIGHT_CACHE=".bwcache", XDG_CONFIG_HOME=str(config))
    return subprocess.run([sys.executable, "-m", "boardwright", "validate", "harmless.game"], cwd=folder,
                          env=env, capture_output=True, text=True, timeout=120)


def _planted(path, marker) -> bytes:
    if path.name.startswith("rules-"):
        payload = marshal.dumps(compile(f"import os\nos.mkdir({str(marker)!r})\n", "planted", "exec"))
    elif path.name.startswith("data-"):
        payload = b"valid"
    else:
        payload = pickle.dumps(_Planted(marker))
    return payload


@pytest.mark.parametrize("signed", [False, True])
def test_validate_in_an_unpacked_folder_never_loads_a_planted_cache(tmp_path, signed):
    folder = tmp_path / "unpacked"
    folder.mkdir()
    (folder / "harmless.game").write_text(GAME)
    config = tmp_path / "config"
    first = _validate(folder, config)
    assert first.returncode == 0, first.stderr
    entries = [p for p in (folder / ".bwcache").iterdir()]
    assert {p.name.split("-")[0] for p in entries} >= {"ast", "rules", "grammar"}
    marker = tmp_path / "it-ran"
    for path in entries:
        payload = _planted(path, marker)
        # A file in the signed layout, but signed with a key that is not this user's.
        path.write_bytes(cache.MAGIC + os.urandom(32) + payload if signed else payload)
        path.chmod(0o600)
    second = _validate(folder, config)
    assert second.returncode == 0, second.stderr
    assert "ok: harmless.game" in second.stdout
    assert not marker.exists()


def test_damaged_and_odd_cache_entries_never_fail_or_block_a_command(tmp_path):
    folder = tmp_path / "unpacked"
    folder.mkdir()
    (folder / "harmless.game").write_text(GAME)
    config = tmp_path / "config"
    assert _validate(folder, config).returncode == 0
    entries = sorted((folder / ".bwcache").iterdir())
    for i, path in enumerate(entries):
        path.unlink()
        if i % 3 == 0:
            os.mkfifo(path, 0o600)              # opening a FIFO to read blocks for good
        elif i % 3 == 1:
            path.write_bytes(b"\x00damaged\xff" * 10)
        else:
            path.symlink_to("/dev/zero")
    done = _validate(folder, config)            # the timeout is the test of blocking
    assert done.returncode == 0, done.stderr
    assert "ok: harmless.game" in done.stdout


def test_cache_files_are_private_and_read_back_under_umask_002(tmp_path, monkeypatch):
    monkeypatch.setenv("BOARDWRIGHT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    old = os.umask(0o002)
    try:
        folder = cache.cache_dir()
        path = folder / "rules-x.bin"
        cache.store_cache_file(path, b"data", keep=10)
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert cache.read_cache_file(path) == b"data"
    key = cache.key_file()
    assert stat.S_IMODE(key.stat().st_mode) == 0o600


def test_a_signed_file_moved_to_another_name_is_not_read(tmp_path, monkeypatch):
    monkeypatch.setenv("BOARDWRIGHT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    folder = cache.cache_dir()
    cache.store_cache_file(folder / "rules-a.bin", b"code a", keep=10)
    os.replace(folder / "rules-a.bin", folder / "rules-b.bin")
    assert cache.read_cache_file(folder / "rules-b.bin") is None


def test_a_key_others_may_read_turns_the_disk_cache_off(tmp_path, monkeypatch):
    monkeypatch.setenv("BOARDWRIGHT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    cache._KEYS.clear()
    assert cache.cache_key() is not None
    cache.key_file().chmod(0o644)
    cache._KEYS.clear()
    try:
        assert cache.cache_key() is None
        path = cache.cache_dir() / "rules-x.bin"
        cache.store_cache_file(path, b"data", keep=10)
        assert not path.exists() and cache.read_cache_file(path) is None
    finally:
        cache._KEYS.clear()
