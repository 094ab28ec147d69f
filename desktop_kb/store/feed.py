"""Reading the store's change feed (I12; the numbering itself is done by triggers, see schema v3).

Every insert or update of a note, document or fragment carries the feed
number (``change_seq``) of the transaction that made it; every deletion leaves
a tombstone with its number. Whoever keeps a copy (the index, the app's note
list) remembers the number it has applied and asks for what came after.

* ``seq`` is the newest number handed out; numbers are allocated under
  SQLite's single write lock, so they become visible in commit order.
* ``floor``: tombstones up to this number were collected; a reader that
  applied less than ``floor`` cannot know what it missed and must reconcile
  against the whole store instead of catching up.
* ``epoch`` changes when the store is replaced (a backup restored), so a
  copy made from another history is not mistaken for a lagging one.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

SOURCE_TABLES = {"note": "notes", "fragment": "fragments", "document": "documents"}
# Tombstones are kept this long; an index that has not caught up for that long
# (a library copied from an old backup, say) reconciles against the store instead.
TOMBSTONE_DAYS = 30


@dataclass(frozen=True)
class FeedPosition:
    seq: int
    floor: int
    epoch: str


@dataclass(frozen=True)
class Change:
    kind: str  # "note" | "fragment" | "document"
    id: int
    seq: int
    deleted: bool


@contextmanager
def snapshot(conn: sqlite3.Connection) -> Iterator[None]:
    """One read transaction: every query inside sees the same committed state.

    The connection runs in autocommit mode, where each statement would
    otherwise see its own (possibly newer) state.
    """
    if conn.in_transaction:  # already inside one (the caller's write transaction)
        yield
        return
    conn.execute("BEGIN")
    try:
        yield
    finally:
        # SQLite ends a transaction itself on some errors (I/O, a file swapped under it):
        # committing then would raise "no transaction is active" over the error that did it.
        if conn.in_transaction:
            conn.execute("COMMIT")


def position(conn: sqlite3.Connection) -> FeedPosition:
    row = conn.execute("SELECT seq, floor, epoch FROM feed_state WHERE id = 1").fetchone()
    return FeedPosition(int(row[0]), int(row[1]), str(row[2]))


_CHANGES_SQL = """
    SELECT 'note', id, change_seq, 0 FROM notes WHERE change_seq > :after
    UNION ALL SELECT 'fragment', id, change_seq, 0 FROM fragments WHERE change_seq > :after
    UNION ALL SELECT 'document', id, change_seq, 0 FROM documents WHERE change_seq > :after
    UNION ALL SELECT source_type, source_id, change_seq, 1 FROM tombstones WHERE change_seq > :after
    ORDER BY 3, 1, 2
"""


def changes_since(conn: sqlite3.Connection, after: int) -> tuple[FeedPosition, list[Change]]:
    """Everything changed after ``after``, oldest first, read in one snapshot with the position.

    A row changed several times appears once, with its newest number.
    """
    with snapshot(conn):
        pos = position(conn)
        rows = conn.execute(_CHANGES_SQL, {"after": after}).fetchall()
    return pos, [Change(str(r[0]), int(r[1]), int(r[2]), bool(r[3])) for r in rows]


def pending_count(conn: sqlite3.Connection, after: int, kinds: Iterable[str] = ("note", "fragment")) -> int:
    """How many sources of ``kinds`` changed after ``after`` (cheap: indexed columns)."""
    total = 0
    kinds = tuple(kinds)
    with snapshot(conn):
        for kind in kinds:
            total += conn.execute(
                f"SELECT count(*) FROM {SOURCE_TABLES[kind]} WHERE change_seq > ?", (after,)).fetchone()[0]
        marks = ",".join("?" * len(kinds))
        total += conn.execute(
            f"SELECT count(*) FROM tombstones WHERE change_seq > ? AND source_type IN ({marks})",
            (after, *kinds)).fetchone()[0]
    return total


def touch(conn: sqlite3.Connection, kind: str, ids: Iterable[int]) -> None:
    """Inside the caller's write transaction: ask every reader of the feed to look at these again.

    The update trigger numbers any update that leaves ``change_seq`` alone.
    """
    table = SOURCE_TABLES[kind]
    conn.executemany(f"UPDATE {table} SET change_seq = change_seq WHERE id = ?", [(i,) for i in ids])


def collect_tombstones(conn: sqlite3.Connection, *, older_than_days: float = TOMBSTONE_DAYS) -> int:
    """Inside the caller's write transaction: drop old tombstones and raise the floor."""
    cutoff = time.time() - older_than_days * 86400
    row = conn.execute(
        "SELECT max(change_seq), count(*) FROM tombstones WHERE deleted_at < ?", (cutoff,)).fetchone()
    if not row[1]:
        return 0
    conn.execute("DELETE FROM tombstones WHERE change_seq <= ?", (row[0],))
    conn.execute("UPDATE feed_state SET floor = max(floor, ?) WHERE id = 1", (row[0],))
    return int(row[1])


def new_epoch(conn: sqlite3.Connection) -> str:
    """Inside the caller's write transaction: this store now has a different history."""
    conn.execute("UPDATE feed_state SET epoch = lower(hex(randomblob(16))) WHERE id = 1")
    return position(conn).epoch
