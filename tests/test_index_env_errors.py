"""Environment errors are not corruption (house rule 5, I13): only a damaged file is replaced.

A locked or full index is shown with its reason, keeps its file and its work
(the store's change feed), and recovers by itself; a damaged one is rebuilt.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from desktop_kb.index import db
from desktop_kb.library import Library

TIMEOUT = 60


def _wait(predicate, timeout: float = TIMEOUT) -> bool:  # type: ignore[no-untyped-def]
    gate = threading.Event()
    for _ in range(int(timeout / 0.05)):
        if predicate():
            return True
        gate.wait(0.05)
    return predicate()


def test_a_locked_index_is_shown_kept_and_recovered(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Library(data_dir, load_model=False) as lib:
        note_id = lib.add_note("锁", "before the lock zqenv1")
        assert lib.drain(TIMEOUT)
    monkeypatch.setattr(db, "BUSY_TIMEOUT_MS", 200)
    holder = sqlite3.connect(data_dir / "index.sqlite", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another program holds the index file
    inode = (data_dir / "index.sqlite").stat().st_ino
    lib = Library(data_dir, load_model=False)
    try:
        status = lib.index_status()
        assert status.state == "unavailable", status
        assert "locked" in (status.error or "").lower() or "busy" in (status.error or "").lower()
        # Saving still works: the store is separate, and the feed keeps the work.
        lib.save_note(note_id, body="saved while the index was locked zqenv2")
        holder.execute("ROLLBACK")
        holder.close()
        assert _wait(lambda: lib.index_status().state == "ok")
        assert lib.drain(TIMEOUT)
        assert (data_dir / "index.sqlite").stat().st_ino == inode  # the same file, not a new one
        assert [(r.source_type, r.source_id) for r in lib.search("zqenv2").results] == [("note", note_id)]
    finally:
        lib.close()


def fill_the_index(lib: Library) -> None:
    """The index may grow no more (its writer's connection is capped at its size): a full disk."""
    pages = lib.worker.call(lambda c: c.execute("PRAGMA page_count").fetchone()[0]).result()
    lib.worker.call(lambda c: c.execute(f"PRAGMA max_page_count = {pages}")).result()


def make_room(lib: Library) -> None:
    lib.worker.call(lambda c: c.execute("PRAGMA max_page_count = 1000000")).result()


def test_a_full_index_stalls_with_the_reason_and_catches_up_when_there_is_room(data_dir: Path) -> None:
    with Library(data_dir, load_model=False) as lib:
        lib.add_note("first", "fits zqenv3")
        assert lib.drain(TIMEOUT)
        fill_the_index(lib)
        ids = [lib.add_note(f"n{i}", ("很长的笔记 long note " * 300) + f"zqenvfull{i}") for i in range(20)]
        assert _wait(lambda: lib.index_status().state == "unavailable")
        status = lib.index_status()
        assert "full" in (status.error or "").lower(), status
        assert status.failures == []  # the notes are not at fault: nothing recorded against them
        assert status.pending >= 1
        assert (data_dir / "index.sqlite").exists()
        make_room(lib)
        assert lib.drain(TIMEOUT)
        assert lib.index_status().state == "ok"
        for i, note_id in enumerate(ids):
            assert [(r.source_type, r.source_id) for r in lib.search(f"zqenvfull{i}").results] == [
                ("note", note_id)]
        assert lib.verify(repair=False).drift == 0


def test_a_damaged_index_is_replaced_and_rebuilt(data_dir: Path) -> None:
    with Library(data_dir, load_model=False) as lib:
        note_id = lib.add_note("坏", "survives corruption zqenv4")
        assert lib.drain(TIMEOUT)
    index = data_dir / "index.sqlite"
    for suffix in ("-wal", "-shm"):
        Path(f"{index}{suffix}").unlink(missing_ok=True)
    index.write_bytes(b"\0garbage" * 4096)
    with Library(data_dir, load_model=False) as lib:
        assert lib.startup_rebuild is not None
        assert not lib.startup_rebuild.result(TIMEOUT).cancelled
        assert lib.drain(TIMEOUT)
        assert [(r.source_type, r.source_id) for r in lib.search("zqenv4").results] == [("note", note_id)]
        assert lib.index_status().state == "ok"
