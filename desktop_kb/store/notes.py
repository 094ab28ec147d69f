"""Notes: the person's own writing. Markdown body, title, timestamps, local-only, trash."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass

from desktop_kb.store import markup_sync
from desktop_kb.store.local_only import DerivedReason, SourceRef, local_sources
from desktop_kb.store.sql_lists import in_batches
from desktop_kb.store.tx import transaction


@dataclass(frozen=True)
class Note:
    id: int
    title: str
    body: str
    created_at: float
    updated_at: float
    local_only: bool
    trashed_at: float | None
    local_only_reason: str | None = None  # JSON (store.local_only.DerivedReason) when made from local-only material
    change_seq: int = 0  # the store's feed number of this version (see store.feed)

    @property
    def trashed(self) -> bool:
        return self.trashed_at is not None


class NoteNotFound(LookupError):
    def __init__(self, note_id: int) -> None:
        super().__init__(f"No note with id {note_id}.")
        self.note_id = note_id


_COLUMNS = ("id, title, body, created_at, updated_at, local_only, trashed_at, local_only_reason, "
            "change_seq")


def _row_to_note(row: sqlite3.Row) -> Note:
    return Note(
        id=row["id"], title=row["title"], body=row["body"], created_at=row["created_at"],
        updated_at=row["updated_at"], local_only=bool(row["local_only"]),
        trashed_at=row["trashed_at"], local_only_reason=row["local_only_reason"],
        change_seq=row["change_seq"],
    )


def create_note(conn: sqlite3.Connection, title: str, body: str, *, local_only: bool = False,
                derived_from: Sequence[SourceRef] = ()) -> int:
    """A new note; made from ``derived_from`` sources it is local-only if any of them is (I11)."""
    now = time.time()
    with transaction(conn):
        inherited = local_sources(conn, derived_from)
        reason = DerivedReason(tuple(inherited)).to_text() if inherited else None
        cur = conn.execute(
            "INSERT INTO notes(title, body, created_at, updated_at, local_only, local_only_reason) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (title, body, now, now, int(local_only or bool(inherited)), reason),
        )
        assert cur.lastrowid is not None
        markup_sync.sync_note(conn, cur.lastrowid)
    return cur.lastrowid


def update_note(
    conn: sqlite3.Connection, note_id: int, *, title: str | None = None, body: str | None = None,
) -> bool:
    """Returns False when nothing changed, so callers can skip the save hook."""
    with transaction(conn):
        row = conn.execute("SELECT title, body FROM notes WHERE id = ?", (note_id,)).fetchone()
        if row is None:
            raise NoteNotFound(note_id)
        new_title = row["title"] if title is None else title
        new_body = row["body"] if body is None else body
        if (new_title, new_body) == (row["title"], row["body"]):
            return False
        conn.execute(
            "UPDATE notes SET title = ?, body = ?, updated_at = ? WHERE id = ?",
            (new_title, new_body, time.time(), note_id),
        )
        markup_sync.sync_note(conn, note_id, body_changed=new_body != row["body"])
    return True


@dataclass(frozen=True)
class Base:
    """The version of a note an editor loaded: what its next save replaces."""

    change_seq: int
    title: str
    body: str


@dataclass(frozen=True)
class SaveOutcome:
    changed: bool
    base: Base  # the note as saved: the base of the next save
    other_version: int | None = None  # a new note keeping text someone else saved meanwhile


def save_over(
    conn: sqlite3.Connection, note_id: int, title: str, body: str, base: Base | None,
    other_title: str,
) -> SaveOutcome:
    """Save an editor's text; if someone else changed the note's text since ``base``, keep
    their version as a new note titled ``other_title`` first (one transaction, so a save
    from another process can never slip in between the check and the write).

    Text saved from two places is never silently overwritten: the editor's version
    wins the note (it is what the person is looking at) and the other version is kept.
    """
    with transaction(conn):
        row = conn.execute("SELECT title, body, change_seq, local_only, local_only_reason "
                           "FROM notes WHERE id = ?", (note_id,)).fetchone()
        if row is None:
            raise NoteNotFound(note_id)
        current = (row["title"], row["body"])
        other: int | None = None
        if (base is not None and row["change_seq"] != base.change_seq
                and current != (base.title, base.body) and current != (title, body)):
            now = time.time()
            # The kept version is as private as the note it came from (I11).
            cur = conn.execute(
                "INSERT INTO notes(title, body, created_at, updated_at, local_only, local_only_reason) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (other_title, row["body"], now, now, row["local_only"], row["local_only_reason"]))
            other = cur.lastrowid
            markup_sync.sync_note(conn, other)
        changed = current != (title, body)
        if changed:
            conn.execute("UPDATE notes SET title = ?, body = ?, updated_at = ? WHERE id = ?",
                         (title, body, time.time(), note_id))
            # Tags, wiki links and title keys follow the text, as in update_note.
            markup_sync.sync_note(conn, note_id, body_changed=body != row["body"])
        seq = conn.execute("SELECT change_seq FROM notes WHERE id = ?", (note_id,)).fetchone()[0]
    return SaveOutcome(changed, Base(seq, title, body), other)


def set_note_local_only(conn: sqlite3.Connection, note_id: int, local_only: bool) -> None:
    """The person's own choice; it replaces (and so lifts) an inherited reason."""
    with transaction(conn):
        cur = conn.execute("UPDATE notes SET local_only = ?, local_only_reason = NULL WHERE id = ?",
                           (int(local_only), note_id))
        if cur.rowcount == 0:
            raise NoteNotFound(note_id)


def get_note(conn: sqlite3.Connection, note_id: int) -> Note:
    row = conn.execute(f"SELECT {_COLUMNS} FROM notes WHERE id = ?", (note_id,)).fetchone()
    if row is None:
        raise NoteNotFound(note_id)
    return _row_to_note(row)


def notes_by_ids(conn: sqlite3.Connection, ids: list[int]) -> list[Note]:
    """The notes with these ids that exist (live or in the trash), in no particular order."""
    found: list[Note] = []
    for part, marks in in_batches(ids):
        found += [_row_to_note(r) for r in conn.execute(
            f"SELECT {_COLUMNS} FROM notes WHERE id IN ({marks})", part)]
    return found


def list_notes(
    conn: sqlite3.Connection, *, trashed: bool = False, order: str = "updated",
) -> list[Note]:
    """Live notes (or the trash), newest first or by title."""
    order_sql = "updated_at DESC, id DESC" if order == "updated" else "title COLLATE NOCASE, id"
    where = "trashed_at IS NOT NULL" if trashed else "trashed_at IS NULL"
    rows = conn.execute(f"SELECT {_COLUMNS} FROM notes WHERE {where} ORDER BY {order_sql}")
    return [_row_to_note(r) for r in rows]


def set_trashed(conn: sqlite3.Connection, note_id: int, trashed: bool) -> None:
    with transaction(conn):
        cur = conn.execute(
            "UPDATE notes SET trashed_at = ? WHERE id = ?",
            (time.time() if trashed else None, note_id),
        )
        if cur.rowcount == 0:
            raise NoteNotFound(note_id)
        # Links typed to this title now resolve elsewhere, or to nothing (or back here).
        markup_sync.relink_referrers(conn, [markup_sync.title_key_of(conn, note_id) or ""])


def delete_note(conn: sqlite3.Connection, note_id: int) -> None:
    """Hard delete. Callers remove the note's index rows first (I4)."""
    with transaction(conn):
        key = markup_sync.title_key_of(conn, note_id)
        cur = conn.execute("DELETE FROM notes WHERE id = ?", (note_id,))
        if cur.rowcount == 0:
            raise NoteNotFound(note_id)
        markup_sync.relink_referrers(conn, [key or ""])
