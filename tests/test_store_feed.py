"""The store's change feed (I12): numbering, tombstones, touch, collection, concurrent writers."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from desktop_kb.store import documents as docs
from desktop_kb.store import feed, notes
from desktop_kb.store.backup import list_backups
from desktop_kb.store.connection import open_store
from desktop_kb.store.schema import MIGRATIONS, SCHEMA_VERSION
from desktop_kb.store.tx import transaction


class Spec:
    def __init__(self, ord_: int, text: str, heading: str = "") -> None:
        self.ord, self.text, self.heading_path, self.start, self.end = ord_, text, heading, 0, len(text)
        self.page: int | None = None  # fragments of text files have no page
        self.page_end: int | None = None


def _changed(conn: sqlite3.Connection, after: int) -> dict[tuple[str, int], bool]:
    return {(c.kind, c.id): c.deleted for c in feed.changes_since(conn, after)[1]}


def test_every_note_change_is_numbered_and_deletions_leave_tombstones(tmp_path: Path) -> None:
    conn = open_store(tmp_path / "library.sqlite")
    start = feed.position(conn).seq
    a = notes.create_note(conn, "a", "alpha")
    b = notes.create_note(conn, "b", "beta")
    after_create = feed.position(conn).seq
    assert after_create == start + 2
    assert _changed(conn, start) == {("note", a): False, ("note", b): False}
    notes.update_note(conn, a, body="alpha 2")
    notes.set_trashed(conn, b, True)
    assert _changed(conn, after_create) == {("note", a): False, ("note", b): False}
    mid = feed.position(conn).seq
    notes.delete_note(conn, b)
    assert _changed(conn, mid) == {("note", b): True}
    # Changes arrive oldest first, each row once with its newest number.
    seqs = [c.seq for c in feed.changes_since(conn, start)[1]]
    assert seqs == sorted(seqs) and len(seqs) == 2


def test_document_rename_renumbers_its_fragments_and_cascade_deletes_leave_tombstones(
    tmp_path: Path,
) -> None:
    conn = open_store(tmp_path / "library.sqlite")
    specs = [Spec(0, "第一段"), Spec(1, "second part")]
    doc_id = docs.save_document(conn, path="/x.md", fmt="md", sha256="1", title="X",
                                specs=specs).document_id
    frag_ids = docs.fragment_ids(conn, doc_id)
    before = feed.position(conn).seq
    with transaction(conn):
        conn.execute("UPDATE documents SET title = 'Y' WHERE id = ?", (doc_id,))
    changed = _changed(conn, before)
    assert {("fragment", f) for f in frag_ids} <= set(changed)
    before = feed.position(conn).seq
    with transaction(conn):
        conn.execute("UPDATE documents SET local_only = 1 WHERE id = ?", (doc_id,))
    assert _changed(conn, before) == {("document", doc_id): False}  # fragments' text did not change
    before = feed.position(conn).seq
    docs.delete_document(conn, doc_id)
    assert _changed(conn, before) == {("document", doc_id): True,
                                      **{("fragment", f): True for f in frag_ids}}


def test_touch_renumbers_without_changing_content(tmp_path: Path) -> None:
    conn = open_store(tmp_path / "library.sqlite")
    note_id = notes.create_note(conn, "t", "body")
    before = feed.position(conn).seq
    with transaction(conn):
        feed.touch(conn, "note", [note_id])
    assert _changed(conn, before) == {("note", note_id): False}
    assert notes.get_note(conn, note_id).body == "body"


def test_collecting_tombstones_raises_the_floor(tmp_path: Path) -> None:
    conn = open_store(tmp_path / "library.sqlite")
    ids = [notes.create_note(conn, str(i), "x") for i in range(3)]
    for note_id in ids[:2]:
        notes.delete_note(conn, note_id)
    seq_old = feed.position(conn).seq
    with transaction(conn):  # age the first two tombstones
        conn.execute("UPDATE tombstones SET deleted_at = deleted_at - 40 * 86400")
    notes.delete_note(conn, ids[2])
    with transaction(conn):
        assert feed.collect_tombstones(conn) == 2
    pos = feed.position(conn)
    assert pos.floor == seq_old
    assert _changed(conn, 0) == {("note", ids[2]): True}


def test_rolled_back_transactions_give_their_numbers_back(tmp_path: Path) -> None:
    conn = open_store(tmp_path / "library.sqlite")
    before = feed.position(conn).seq
    try:
        with transaction(conn):
            conn.execute("INSERT INTO notes(title, body, created_at, updated_at) VALUES ('r', 'r', 0, 0)")
            raise RuntimeError("abandon")
    except RuntimeError:
        pass
    assert feed.position(conn).seq == before


def test_upgrading_a_v2_library_backs_it_up_first_and_keeps_every_note(tmp_path: Path) -> None:
    path = tmp_path / "library.sqlite"
    raw = sqlite3.connect(path)
    for version in (1, 2):
        for statement in MIGRATIONS[version]:
            raw.execute(statement)
    raw.execute("INSERT INTO notes(title, body, created_at, updated_at) VALUES ('old', '旧笔记', 1, 1)")
    raw.execute("PRAGMA user_version = 2")
    raw.commit()
    raw.close()
    conn = open_store(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert [n.body for n in notes.list_notes(conn)] == ["旧笔记"]
    backups = [b.path for b in list_backups(path) if b.reason == "upgrade"]
    assert len(backups) == 1
    copy = sqlite3.connect(backups[0])
    assert copy.execute("PRAGMA user_version").fetchone()[0] == 2
    assert copy.execute("SELECT body FROM notes").fetchall() == [("旧笔记",)]
    copy.close()


WRITER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from desktop_kb.store.connection import open_store
    from desktop_kb.store import notes
    conn = open_store(Path(sys.argv[1]))
    tag, n = sys.argv[2], int(sys.argv[3])
    ids = []
    for i in range(n):
        ids.append(notes.create_note(conn, f"{tag}{i}", "x"))
        if i % 3 == 1:
            notes.update_note(conn, ids[i - 1], body=f"edit {i}")
        if i % 5 == 4:
            notes.delete_note(conn, ids[i - 2])
    print("done", flush=True)
""")


def test_a_reader_following_the_feed_misses_nothing_from_concurrent_writers(tmp_path: Path) -> None:
    """Two processes write while this one follows the feed; the copy it keeps ends equal to the store."""
    path = tmp_path / "library.sqlite"
    conn = open_store(path)
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), tag, "150"],
                                stdout=subprocess.PIPE, text=True) for tag in ("a", "b")]
    copy: dict[int, tuple[str, str]] = {}
    applied = 0

    def follow() -> None:
        nonlocal applied
        pos, changes = feed.changes_since(conn, applied)
        for change in changes:
            if change.kind != "note":
                continue
            row = conn.execute("SELECT title, body FROM notes WHERE id = ?", (change.id,)).fetchone()
            if row is None:
                copy.pop(change.id, None)
            else:
                copy[change.id] = (row[0], row[1])
        assert pos.seq >= applied
        applied = pos.seq

    deadline = time.monotonic() + 120
    while any(w.poll() is None for w in writers) and time.monotonic() < deadline:
        follow()
    for w in writers:
        assert w.wait(timeout=120) == 0
    follow()
    truth = {r[0]: (r[1], r[2]) for r in conn.execute("SELECT id, title, body FROM notes")}
    assert copy == truth
    assert len(truth) == 2 * (150 - 30)


def test_a_snapshot_whose_transaction_sqlite_ended_reports_the_error_that_ended_it(
        tmp_path: Path) -> None:
    """SQLite rolls a transaction back by itself on some errors (I/O, a file a sync client
    swapped under it); the reader then saw 'cannot commit - no transaction is active' in
    place of the error that said what happened (a flaky index worker after a swap)."""
    open_store(tmp_path / "library.sqlite").close()
    conn = open_store(tmp_path / "library.sqlite", readonly=True)
    try:
        with pytest.raises(sqlite3.OperationalError, match="disk I/O error"), feed.snapshot(conn):
            feed.position(conn)
            conn.execute("ROLLBACK")  # what SQLite does itself before raising such errors
            raise sqlite3.OperationalError("disk I/O error")
        with feed.snapshot(conn):  # ended without an error: nothing to commit, nothing raised
            conn.execute("ROLLBACK")
        assert not conn.in_transaction
        assert feed.position(conn).seq >= 0
    finally:
        conn.close()
