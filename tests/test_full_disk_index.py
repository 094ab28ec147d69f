"""The search index on a real full disk (a small tmpfs, ``mounts``): commands return with what
happened and what to do, the old index keeps answering, and the index catches up by itself
once there is room again. Compared each time: what the store holds and what the index holds.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from mounts import tmpfs

from desktop_kb.library import Library

TIMEOUT = 120  # seconds; reached only when a command hangs (the bug)
N_NOTES = 20


def cli(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir), *args],
                          capture_output=True, text=True, encoding="utf-8", timeout=TIMEOUT)


def _library(data_dir: Path) -> None:
    with Library(data_dir, load_model=False) as lib:
        for i in range(N_NOTES):
            lib.add_note(f"笔记 {i}", f"正文 body text zqfull{i:02d} " * 200)


def _keep_shm_files(data_dir: Path) -> None:
    """What a running app leaves beside the files: their -shm, so a process can still open
    them on a disk with no free block (SQLite cannot make a new -shm there)."""
    for name in ("library.sqlite-shm", "index.sqlite-shm"):
        (data_dir / name).write_bytes(bytes(32768))


def _fill(path: Path) -> None:
    with path.open("wb", buffering=0) as handle:
        try:
            while True:
                handle.write(bytes(4096))
        except OSError:  # no space left
            pass


@contextmanager
def filled(disk: Path, leave_kb: int = 0) -> Iterator[None]:
    """Fill the disk but ``leave_kb``; the room comes back afterwards."""
    reserve = disk / "reserve"
    reserve.write_bytes(bytes(leave_kb * 1024))
    _fill(disk / "filler")
    reserve.unlink()
    try:
        yield
    finally:
        (disk / "filler").unlink()


def _empty_wal(index: Path) -> None:
    """Empty the index's write-ahead log, so the next write needs new blocks on a full disk.

    A log reset after a checkpoint is written again from its start: batches that fit in the
    blocks it already held were written on the "full" disk, and the test skipped when the
    last batches fit (``PRAGMA wal_checkpoint(RESTART)`` here made it skip every time)."""
    with contextlib.closing(sqlite3.connect(index, timeout=TIMEOUT)) as con:
        assert con.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone() == (0, 0, 0)
    assert Path(f"{index}-wal").stat().st_size == 0


def _status(data_dir: Path) -> dict:
    done = cli(data_dir, "index", "status", "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _all_found(data_dir: Path) -> None:
    status = _status(data_dir)
    assert status["state"] == "ok" and status["sources"] == N_NOTES, status
    found = cli(data_dir, "search", "zqfull07", "--json")
    assert found.returncode == 0, found.stderr
    assert [r["title"] for r in json.loads(found.stdout)["results"]][:1] == ["笔记 7"]


def test_a_rebuild_on_a_full_disk_returns_and_says_what_to_do(tmp_path: Path) -> None:
    """'desktop-kb index rebuild' on a disk with no free block never returned: the index could
    not be opened for writing, and the rebuild asked of it was dropped unanswered."""
    with tmpfs(tmp_path / "disk", 3072) as disk:
        data_dir = disk / "library"
        _library(data_dir)
        _keep_shm_files(data_dir)
        with filled(disk):
            done = cli(data_dir, "index", "rebuild")
            assert done.returncode == 1, (done.stdout, done.stderr)
            assert "disk is full" in done.stderr and "Free some space" in done.stderr, done.stderr
            assert "internal error" not in done.stderr
            status = _status(data_dir)
            assert status["state"] == "unavailable" and "disk is full" in status["error"], status
        _all_found(data_dir)


def test_a_rebuild_the_disk_stops_part_way_goes_on_once_there_is_room(tmp_path: Path) -> None:
    """With a little room (enough to open the index, not to rewrite it) the rebuild failed with
    'internal error: cannot rollback - no transaction is active', and so did every later
    command: the dirty flag made each one start the rebuild again and fail the same way."""
    with tmpfs(tmp_path / "disk", 3072) as disk:
        data_dir = disk / "library"
        _library(data_dir)
        with filled(disk, leave_kb=96):
            done = cli(data_dir, "index", "rebuild")
            assert done.returncode == 1, (done.stdout, done.stderr)
            assert "disk is full" in done.stderr and "internal error" not in done.stderr, done.stderr
            status = cli(data_dir, "index", "status", "--json")
            assert status.returncode == 0, status.stderr
            assert json.loads(status.stdout)["state"] != "ok"
            found = cli(data_dir, "search", "zqfull07", "--json")  # the index as it is answers
            assert "internal error" not in found.stderr, found.stderr
        _all_found(data_dir)


def test_index_status_on_a_full_disk_says_why_instead_of_internal_error(tmp_path: Path) -> None:
    """A 3-byte index.sqlite-shm (left by a process the full disk stopped) cannot grow on a
    disk with no free block: 'index status' exited 70, 'internal error: disk I/O error'."""
    with tmpfs(tmp_path / "disk", 3072) as disk:
        data_dir = disk / "library"
        _library(data_dir)
        _keep_shm_files(data_dir)
        (data_dir / "index.sqlite-shm").write_bytes(b"abc")
        with filled(disk):
            status = _status(data_dir)
            assert status["state"] == "unavailable", status
            assert "disk is full" in status["error"], status
        _all_found(data_dir)


def test_a_removal_asked_while_the_index_cannot_open_is_not_dropped(tmp_path: Path) -> None:
    """The index worker dropped the job in hand when reopening the index failed: a note
    deletion on a full disk waited for ever (the window froze with the store's lock held)."""
    with tmpfs(tmp_path / "disk", 3072) as disk:
        data_dir = disk / "library"
        _library(data_dir)
        _keep_shm_files(data_dir)
        with filled(disk), Library(data_dir, load_model=False) as lib:
            assert lib.worker.error is not None  # the index could not be opened
            removed = lib.worker.remove([("note", 1)], then=lambda: "store change made")
            assert removed.result(timeout=TIMEOUT) == "store change made"
            rebuilt = lib.worker.rebuild()
            assert "disk is full" in str(rebuilt.exception(timeout=TIMEOUT))


def test_what_a_full_disk_did_to_a_rebuild_is_said_in_chinese(qtbot) -> None:  # type: ignore[no-untyped-def]
    from desktop_kb.index import db
    from desktop_kb.ui import i18n
    from desktop_kb.ui.env_messages import localize

    reason = db.UNAVAILABLE_PREFIX.format("/media/stick/library/index.sqlite") + (
        "The disk is full. Free some space and try again; nothing was lost. (disk I/O error)")
    i18n.install_language("zh_CN")
    try:
        for said in (db.REBUILD_STOPPED_MESSAGE, db.REBUILD_NOT_STARTED_MESSAGE):
            shown = localize(f"{reason} {said}")
            assert shown.startswith("无法使用搜索索引 /media/stick/library/index.sqlite：磁盘已满"), shown
            assert "rebuil" not in shown and "index" not in shown.split("：", 1)[1], shown
    finally:
        i18n.install_language("en")


def test_an_embedding_backfill_the_disk_stops_goes_on_once_there_is_room(tmp_path: Path) -> None:
    """A full disk during embedding showed 'model failed: … cannot rollback - no transaction is
    active', and the rest of the library was never embedded until the app was started again."""
    from test_backfill import HashEngine

    from desktop_kb.index.backfill import BACKFILL_BATCH

    with tmpfs(tmp_path / "disk", 16384) as disk:
        data_dir = disk / "library"
        with Library(data_dir, load_model=False) as lib:
            for i in range(3 * BACKFILL_BATCH):
                lib.add_note(f"笔记 {i}", f"第 {i} 条笔记 note number {i} zqemb{i:05d}")
            assert lib.drain(TIMEOUT)
            lib.worker.backfill_page = BACKFILL_BATCH
            engine = HashEngine()
            engine.hold_batch = 2
            embedded = lib.worker.set_engine(lambda: engine)
            assert engine.entered.wait(TIMEOUT)  # batch 1 is written, batch 2 in hand
            events: list[tuple[str, str]] = []
            seen = threading.Condition()

            def record(event) -> None:  # noqa: ANN001 - on the worker thread
                with seen:
                    events.append((event.kind, event.detail or ""))
                    seen.notify_all()

            lib.worker.add_listener(record)
            _empty_wal(data_dir / "index.sqlite")
            with filled(disk):
                engine.release.set()
                embedded.result(TIMEOUT)  # not an exception: the model is fine
                assert lib.model_error is None
                # The worker retries on its own while the disk is full. Each retry said
                # "recovered" and the status read "embedding" until the batch failed again:
                # the badge flickered between "Embedding 40%" and "Indexing paused".
                with seen:  # three stops: the first and two retries
                    stopped = seen.wait_for(lambda: sum(k == "failed" for k, _ in events) >= 3, TIMEOUT)
                    said = list(events)
                assert stopped, (said, lib.index_status())
                assert ("queue", "recovered") not in said, said
                status = lib.index_status()
                assert status.state == "unavailable" and "disk is full" in (status.error or ""), status
                assert status.missing_vectors > 0
            # The worker retries with back-off (up to 5 s): wait on the clock, not a count.
            deadline = time.monotonic() + TIMEOUT
            while lib.index_status().state != "ok" and time.monotonic() < deadline:
                lib.drain(1.0)
            status = lib.index_status()
            assert status.state == "ok" and status.missing_vectors == 0, status
            assert status.chunks == 3 * BACKFILL_BATCH
            assert lib.verify(repair=False).drift == 0
