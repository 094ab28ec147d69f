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
