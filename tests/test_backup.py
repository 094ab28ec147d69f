"""Backups of the library with SQLite's backup API: create, keep 7, restore (I13)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_kb.library import Library
from desktop_kb.store.backup import KEEP, BackupError, backup_due, create_backup, list_backups
from desktop_kb.store.restore import restore_backup


def cli(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir), *args],
                          capture_output=True, text=True, encoding="utf-8", timeout=120)


def test_backups_are_complete_single_files_and_only_the_newest_seven_stay(library: Library) -> None:
    store = library.paths.store
    assert backup_due(store)
    library.add_note("备份前", "before the backup zqbk1")
    first = create_backup(store, reason="manual")
    assert not backup_due(store)
    copy = sqlite3.connect(first.path)
    assert copy.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # no -wal needed
    assert copy.execute("SELECT body FROM notes").fetchall() == [("before the backup zqbk1",)]
    copy.close()
    for _ in range(KEEP + 2):
        create_backup(store, reason="auto")
    kept = list_backups(store)
    assert len(kept) == KEEP
    assert first.path not in {b.path for b in kept}  # the oldest went first
    assert [b.created_at for b in kept] == sorted((b.created_at for b in kept), reverse=True)


def test_restore_brings_the_old_state_back_and_the_index_follows(library: Library) -> None:
    keep_id = library.add_note("保留", "kept before the backup zqbk2")
    backup = create_backup(library.paths.store, reason="manual")
    gone_id = library.add_note("之后", "written after the backup zqbk3")
    library.save_note(keep_id, body="edited after the backup zqbk4")
    assert library.drain(60)
    safety = restore_backup(library.paths.store, backup.path)
    assert safety.reason == "restore"
    # The open library (another connection) sees the restored content at its next read.
    assert [n.id for n in library.list_notes()] == [keep_id]
    assert library.get_note(keep_id).body == "kept before the backup zqbk2"
    assert library.drain(60)  # the index notices a new history and reconciles
    assert [(r.source_type, r.source_id) for r in library.search("zqbk2").results] == [("note", keep_id)]
    assert library.search("zqbk3").results == [] and library.search("zqbk4").results == []
    assert library.verify(repair=False).drift == 0
    # The restore itself can be undone: the state before it was kept.
    restore_backup(library.paths.store, safety.path)
    assert {n.id for n in library.list_notes()} == {keep_id, gone_id}


def test_a_damaged_or_foreign_file_is_refused_and_the_library_is_unchanged(library: Library,
                                                                           tmp_path: Path) -> None:
    note_id = library.add_note("t", "stays zqbk5")
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(BackupError):
        restore_backup(library.paths.store, junk)
    other = tmp_path / "other.sqlite"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE x(y)")
    conn.commit()
    conn.close()
    with pytest.raises(BackupError, match="not a Desktop KB library"):
        restore_backup(library.paths.store, other)
    assert [n.id for n in library.list_notes()] == [note_id]


def test_backup_cli_create_list_restore(data_dir: Path) -> None:
    with Library(data_dir, load_model=False) as lib:
        lib.add_note("命令行", "cli backup zqbk6")
    made = cli(data_dir, "backup", "create", "--json")
    assert made.returncode == 0, made.stderr
    name = json.loads(made.stdout)["name"]
    listed = cli(data_dir, "backup", "list", "--json")
    assert [b["name"] for b in json.loads(listed.stdout)["backups"]] == [name]
    with Library(data_dir, load_model=False) as lib:
        lib.add_note("之后", "after zqbk7")
    restored = cli(data_dir, "backup", "restore", name)
    assert restored.returncode == 0, restored.stderr
    search = cli(data_dir, "search", "zqbk7", "--json")
    assert search.returncode == 0 and json.loads(search.stdout)["results"] == []
    missing = cli(data_dir, "backup", "restore", "no-such-backup")
    assert missing.returncode == 1 and "backup list" in missing.stderr


def test_daily_upkeep_backs_up_once_a_day_and_collects_old_tombstones(library: Library) -> None:
    note_id = library.add_note("旧", "old")
    library.delete_note(note_id)
    library.add_note("活的", "alive zqbk8")
    assert library.drain(60)
    library.write(lambda c: c.execute("UPDATE tombstones SET deleted_at = deleted_at - 60 * 86400"))
    conn = sqlite3.connect(library.paths.index)  # drift only a full verify can see
    conn.execute("DELETE FROM kb_sources")
    conn.commit()
    conn.close()
    made = library.daily_upkeep()
    assert made is not None and made.reason == "auto"
    assert library.verify(repair=False).drift == 0
    assert library.store_reader.execute("SELECT count(*) FROM tombstones").fetchone()[0] == 0
    assert library.daily_upkeep() is None  # the newest backup is fresh
    assert len(list_backups(library.paths.store)) == 1


def test_a_restore_under_an_open_library_logs_one_line(data_dir: Path) -> None:
    """After a restore the window's terminal got the whole report as a Python dict: 'the index
    did not match the library ({'missing': [], 'stale': [], 'orphans': [['fragment', 1], …528
    keys…]…})'. It now says how many of each."""
    import logging
    import threading

    said: list[str] = []
    heard = threading.Event()

    class Catch(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if "did not match" in record.getMessage():
                said.append(record.getMessage())
                heard.set()

    worker_log = logging.getLogger("desktop_kb.index.worker")
    catch = Catch(logging.WARNING)
    worker_log.addHandler(catch)
    try:
        with Library(data_dir, load_model=False) as lib:
            if lib.startup_rebuild is not None:
                lib.startup_rebuild.result()
            lib.add_note("留下", "kept zqrestore")
            made = create_backup(data_dir / "library.sqlite")
            for i in range(30):
                lib.add_note(f"后来 {i}", f"written after the backup {i}")
            assert lib.drain(20)
            restore_backup(data_dir / "library.sqlite", made.path)
            assert heard.wait(30)  # the worker notices the new file on its next look
    finally:
        worker_log.removeHandler(catch)
    assert "30 orphan sources" in said[0] and "[" not in said[0] and "{" not in said[0], said[0]
