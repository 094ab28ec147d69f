"""kill -9 in the middle of a backup or a restore: the half-made copy does not stay for ever.

A backup is written under a temporary name and renamed when whole; a restore
prepares the backup in a staging file. A process killed in between left that
file behind — as big as the library, every time (the daily backup runs at
start, and people kill slow starts) — and nothing ever removed it, until the
disk was full. Real processes, real kill -9; the copy is held at its first
page through SQLite's own backup progress callback.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_kb.library import Library
from desktop_kb.store.backup import create_backup, list_backups

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
TIMEOUT = 120

HELD = """
import sqlite3, sys, threading
from pathlib import Path
from desktop_kb.store import backup, restore

real_connect = sqlite3.connect

class Held(sqlite3.Connection):
    def backup(self, target, **kw):
        def progress(status, remaining, total):
            print("COPYING", flush=True)
            threading.Event().wait()
        return super().backup(target, pages=1, progress=progress)

class Sqlite:
    def __getattr__(self, name):
        return getattr(sqlite3, name)

    @staticmethod
    def connect(*args, **kwargs):
        return real_connect(*args, factory=Held, **kwargs)

store = Path(sys.argv[1])
if sys.argv[2] == "backup":
    backup.sqlite3 = Sqlite()
    backup.create_backup(store, reason="auto")
else:  # held while the backup is prepared in its staging file
    restore.sqlite3 = Sqlite()
    restore.restore_backup(store, Path(sys.argv[3]))
"""


def cli(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir), *args],
                          capture_output=True, text=True, encoding="utf-8", timeout=TIMEOUT)


def _leftovers(data_dir: Path) -> list[str]:
    names = [p.name for p in data_dir.iterdir()] + [p.name for p in (data_dir / "backups").iterdir()]
    return sorted(n for n in names if n.startswith(".") and ("tmp" in n or "restore" in n))


@pytest.mark.parametrize("killed_in", ["backup", "restore"])
def test_the_copy_of_a_killed_backup_or_restore_is_removed_by_the_next_backup(
        data_dir: Path, killed_in: str) -> None:
    with Library(data_dir, load_model=False) as lib:
        for i in range(200):
            lib.add_note(f"笔记 {i}", f"正文 zqbkill{i} " + "字" * 500)
    first = create_backup(data_dir / "library.sqlite", reason="manual")
    child = subprocess.Popen(
        [sys.executable, "-c", HELD, str(data_dir / "library.sqlite"), killed_in, str(first.path)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().startswith("COPYING")
        left = _leftovers(data_dir)
        assert left, "the copy being made is not where this test looks"
        child.kill()
        child.wait(timeout=TIMEOUT)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        if child.stdout is not None:
            child.stdout.close()
    made = cli(data_dir, "backup", "create", "--json")
    assert made.returncode == 0, made.stderr
    assert _leftovers(data_dir) == []
    assert Path(json.loads(made.stdout)["path"]).exists()
    assert first.path in {b.path for b in list_backups(data_dir / "library.sqlite")}
    found = cli(data_dir, "search", "zqbkill7", "--json")
    assert found.returncode == 0 and json.loads(found.stdout)["results"], found.stdout


def test_a_copy_another_process_is_still_making_is_left_alone(data_dir: Path) -> None:
    """A backup running in another process (here: this one) keeps its temporary file."""
    import os

    with Library(data_dir, load_model=False) as lib:
        lib.add_note("笔记", "zqbkill")
    folder = data_dir / "backups"
    folder.mkdir()
    busy = folder / f".library-20261206T000000000Z-auto-n1.sqlite.{os.getpid()}.tmp"
    busy.write_bytes(b"being written")
    create_backup(data_dir / "library.sqlite", reason="manual")
    assert busy.exists()
