"""Temporary files: a write the disk refuses leaves none behind, and those a killed process
left are removed by the next one that owns the data folder (real tmpfs, real processes)."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from mounts import tmpfs
from test_full_disk_index import TIMEOUT, _fill, _keep_shm_files, _library, cli, filled

from desktop_kb import recovery, whole_file
from desktop_kb.index import handoff
from desktop_kb.library import Library


def _temporary(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*") if ".tmp" in p.name)


def _dead_pid() -> int:
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, timeout=TIMEOUT)
    return int(done.stdout)


def test_a_full_disk_leaves_no_temporary_files(tmp_path: Path) -> None:
    """'.index-error.json.tmp' (0 bytes) stayed in the data folder after every command run on
    a full disk; the calibration cache and index requests wrote theirs the same way."""
    with tmpfs(tmp_path / "disk", 3072) as disk:
        data_dir = disk / "library"
        _library(data_dir)
        _keep_shm_files(data_dir)
        with filled(disk):
            for command in (("index", "status"), ("index", "rebuild"), ("search", "zqfull07")):
                cli(data_dir, *command)
            target = data_dir / "calibration.json"
            with contextlib.suppress(OSError):
                whole_file.write_whole(target, json.dumps({"k": "x" * 100_000}))
            with contextlib.suppress(OSError):
                handoff.submit(data_dir / handoff.REQUESTS_DIR, "verify", repair=True)
            # Typed text goes to the per-user folder instead (a lone surrogate, pasted, kept). The
            # commands above may have freed a few blocks (landing run, 04:18): fill them again.
            _fill(disk / "refill")
            kept = recovery.keep(data_dir, 3, "笔记", "typed \ud800 on a full disk zqkept", "disk full")
            assert kept.parent != data_dir / recovery.FOLDER
            assert [k.body for k in recovery.pending(data_dir)] == ["typed \ud800 on a full disk zqkept"]
            assert _temporary(data_dir) == []
            (disk / "refill").unlink()
        assert _temporary(data_dir) == []


def test_temporary_files_a_killed_process_left_are_removed(tmp_path: Path) -> None:
    data_dir = tmp_path / "library"
    _library(data_dir)
    dead = _dead_pid()
    requests = data_dir / handoff.REQUESTS_DIR
    requests.mkdir()
    left = [data_dir / ".index-error.json.tmp", data_dir / f".index-error.json.{dead}.tmp",
            data_dir / f".calibration.json.{dead}.tmp", data_dir / f"index.vectors.tmp-{dead}",
            requests / f".abc.request.json.{dead}.tmp"]
    for path in left:
        path.write_text("half")
    hour_ago = time.time() - 2 * whole_file.STALE_AFTER_S
    os.utime(left[0], (hour_ago, hour_ago))  # no process id: old enough to be abandoned
    alive = data_dir / f".calibration.json.{os.getpid()}.tmp"  # its writer is still running
    alive.write_text("being written")
    theirs = data_dir / "notes.tmp"  # not a name we write: never ours to remove
    theirs.write_text("a person's file")
    with Library(data_dir, load_model=False) as lib:
        assert lib.worker.is_owner
    assert [p for p in left if p.exists()] == []
    assert alive.exists() and theirs.exists()
    assert handoff.pending(requests) == []


def test_an_export_killed_half_way_leaves_nothing_half_written(tmp_path: Path) -> None:
    from desktop_kb.tasks.export_notes import export_notes

    folder = tmp_path / "export"
    folder.mkdir()
    half = folder / f".笔记 1.md.{_dead_pid()}.tmp"
    half.write_text("---\ntitle: half")
    with Library(tmp_path / "library", load_model=False) as lib:
        lib.add_note("笔记 1", "正文")
        export_notes(lib.list_notes(), folder)
    assert sorted(p.name for p in folder.iterdir()) == ["笔记 1.md"]


def test_a_backup_on_a_full_disk_says_what_to_do(tmp_path: Path) -> None:
    """It said 'Could not back up the library to …/backups: database or disk is full': what
    happened, not what the person can do."""
    with tmpfs(tmp_path / "disk", 3072) as disk:
        data_dir = disk / "library"
        _library(data_dir)
        with filled(disk, leave_kb=64):
            done = cli(data_dir, "backup", "create")
        assert done.returncode == 1, done.stdout
        assert "Free some space and try again" in done.stderr, done.stderr
        assert _temporary(data_dir) == []
        made = cli(data_dir, "backup", "create")
        assert made.returncode == 0, made.stderr


def test_a_full_disk_backup_is_said_in_chinese(qtbot) -> None:  # type: ignore[no-untyped-def]
    from desktop_kb.store.backup import BACKUP_FAILED_PREFIX
    from desktop_kb.store.errors import ENVIRONMENT_MESSAGES
    from desktop_kb.ui import i18n
    from desktop_kb.ui.env_messages import localize

    i18n.install_language("zh_CN")
    try:
        shown = localize(f"{BACKUP_FAILED_PREFIX}/x/backups: {ENVIRONMENT_MESSAGES[13]} (full)")
        assert shown.startswith("无法把资料库备份到 /x/backups: 磁盘已满"), shown
    finally:
        i18n.install_language("en")





def test_a_restore_on_a_full_disk_says_nothing_was_restored(tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    """It said only 'Could not back up the library to …' (the copy a restore keeps first): the
    person had asked for a restore, and was not told whether one happened."""
    from desktop_kb.ui import i18n
    from desktop_kb.ui.env_messages import localize

    with tmpfs(tmp_path / "disk", 3072) as disk:
        data_dir = disk / "library"
        _library(data_dir)
        assert cli(data_dir, "backup", "create").returncode == 0
        name = json.loads(cli(data_dir, "--json", "backup", "list").stdout)["backups"][0]["name"]
        with Library(data_dir, load_model=False) as lib:
            lib.add_note("之后", "written after the backup zqafter")
        with filled(disk, leave_kb=64):
            done = cli(data_dir, "backup", "restore", name)
        assert done.returncode == 1, done.stdout
        assert "Nothing was restored, and the library is unchanged: " in done.stderr, done.stderr
        assert "Free some space and try again" in done.stderr, done.stderr
        with Library(data_dir, load_model=False) as lib:
            assert "之后" in [n.title for n in lib.list_notes()]
    i18n.install_language("zh_CN")
    try:
        shown = localize(done.stderr.removeprefix("desktop-kb: "))
        assert shown.startswith("没有恢复任何内容，资料库保持原样：无法把资料库备份到"), shown
    finally:
        i18n.install_language("en")
