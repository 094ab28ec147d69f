"""A library on a read-only disk or mount (a write-protected stick, a read-only share).

Every command said ``[Errno 30] Read-only file system: '…/index.writer.lock'``:
true, but not what happened or what to do. Real read-only mounts (``mounts``).
"""

from __future__ import annotations

import gc
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from mounts import remount, tmpfs

from desktop_kb.library import Library

TIMEOUT = 120


def cli(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir), *args],
                          capture_output=True, text=True, encoding="utf-8", timeout=TIMEOUT)


@pytest.mark.parametrize("copied_while_open", [False, True])
def test_a_library_on_a_read_only_mount_says_so_in_one_line_and_changes_nothing(
        tmp_path: Path, copied_while_open: bool) -> None:
    with tmpfs(tmp_path / "stick", 8192) as stick:
        data_dir = stick / "library"
        with Library(data_dir, load_model=False) as lib:
            lib.add_note("只读", "on a write-protected stick zqro")
            if copied_while_open:  # its -wal and -shm came along (the case that said Errno 30)
                copy = stick / "copy"
                shutil.copytree(data_dir, copy, ignore=shutil.ignore_patterns("*.lock"))
        if copied_while_open:
            data_dir = copy
        before = {p.name: p.read_bytes() for p in data_dir.iterdir() if p.is_file()}
        gc.collect()  # connections other threads opened close when collected
        remount(stick, read_only=True)
        try:
            for command in (["note", "list"], ["search", "zqro"], ["index", "status"],
                            ["note", "add", "--title", "新", "--body", "x"]):
                done = cli(data_dir, *command)
                assert done.returncode == 1, (command, done.stdout)
                lines = done.stderr.strip().splitlines()
                assert len(lines) == 1 and "writ" in lines[0], (command, done.stderr)
                assert "Errno" not in lines[0], lines[0]
            after = {p.name: p.read_bytes() for p in data_dir.iterdir() if p.is_file()}
            assert after == before
        finally:
            remount(stick, read_only=False)


def test_a_library_on_a_stick_that_is_not_connected_is_not_started_anew(tmp_path: Path) -> None:
    """--data-dir /media/me/STICK/library with the stick unplugged (its mount point gone):
    every command made the folders and a new, empty library on the computer's own disk —
    "(no notes)" — and the stick, mounted later, found its path taken."""
    import os

    stick = tmp_path / "media" / "STICK"  # not mounted: the folder does not exist
    data_dir = stick / "library"
    for command in (["note", "list"], ["note", "add", "--title", "t", "--body", "b"],
                    ["index", "status"], ["backup", "list"]):
        done = cli(data_dir, *command)
        assert done.returncode == 1, (command, done.stdout)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "not connected" in lines[0], (command, done.stderr)
    env = {**os.environ, "DESKTOP_KB_DATA_DIR": str(data_dir)}
    done = subprocess.run([sys.executable, "-m", "desktop_kb", "note", "list"], env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=TIMEOUT)
    assert done.returncode == 1 and "not connected" in done.stderr, done.stderr
    assert not stick.exists()
    # A new folder in a folder that exists is a new library, as always.
    fresh = tmp_path / "fresh"
    assert cli(fresh, "note", "add", "--title", "新", "--body", "zqnew").returncode == 0
