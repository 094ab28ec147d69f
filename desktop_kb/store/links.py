"""Links from a note to a note or fragment, and dismissed suggestions (I9).

``create_link`` is the only function in the app that writes a link; target types
are a whitelist and creating the same link twice is a no-op.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass

from desktop_kb.store.tx import transaction

TARGET_TYPES = ("note", "fragment")
# manual: a person's explicit link (a saved answer's sources); suggestion: an accepted
# suggestion; wiki: typed as [[title]] in the note (kept in step with the text).
ORIGINS = ("manual", "suggestion", "wiki")


class InvalidLinkTarget(ValueError):
    pass


@dataclass(frozen=True)
class Link:
    note_id: int
    target_type: str
    target_id: int
    origin: str
    created_at: float


def _check(target_type: str) -> None:
    if target_type not in TARGET_TYPES:
        raise InvalidLinkTarget(
            f"Links can point at a note or a fragment, not {target_type!r}.")


def _target_exists(conn: sqlite3.Connection, target_type: str, target_id: int) -> bool:
    table = "notes" if target_type == "note" else "fragments"
    return conn.execute(f"SELECT 1 FROM {table} WHERE id = ?", (target_id,)).fetchone() is not None


def create_link(
    conn: sqlite3.Connection, note_id: int, target_type: str, target_id: int,
    *, origin: str = "manual",
) -> bool:
    """Returns True when a link was created, False when it already existed."""
    with transaction(conn):
        return create_link_in_transaction(conn, note_id, target_type, target_id, origin=origin)


def create_link_in_transaction(
    conn: sqlite3.Connection, note_id: int, target_type: str, target_id: int, *, origin: str,
) -> bool:
    """The checks and the insert, for a caller that already holds the write transaction
    (typed wiki links are stored in the same transaction as the text that holds them)."""
    _check(target_type)
    if origin not in ORIGINS:
        raise ValueError(f"Unknown link origin {origin!r}.")
    if target_type == "note" and target_id == note_id:
        raise InvalidLinkTarget("A note cannot link to itself.")
    if conn.execute("SELECT 1 FROM notes WHERE id = ?", (note_id,)).fetchone() is None:
        raise InvalidLinkTarget(f"No note with id {note_id}.")
    if not _target_exists(conn, target_type, target_id):
        raise InvalidLinkTarget(f"No {target_type} with id {target_id}.")
    cur = conn.execute(
        "INSERT OR IGNORE INTO links(note_id, target_type, target_id, origin, created_at) "
        "VALUES (?, ?, ?, ?, ?)",
        (note_id, target_type, target_id, origin, time.time()),
    )
    return cur.rowcount == 1


def remove_link(conn: sqlite3.Connection, note_id: int, target_type: str, target_id: int) -> bool:
    _check(target_type)
    with transaction(conn):
        cur = conn.execute(
            "DELETE FROM links WHERE note_id = ? AND target_type = ? AND target_id = ?",
            (note_id, target_type, target_id),
        )
    return cur.rowcount == 1


def remove_wiki_link_in_transaction(conn: sqlite3.Connection, note_id: int, target_id: int) -> None:
    """Drop a typed link whose text is gone; a link made another way stays."""
    conn.execute(
        "DELETE FROM links WHERE note_id = ? AND target_type = 'note' AND target_id = ? "
        "AND origin = 'wiki'", (note_id, target_id))


def wiki_link_targets(conn: sqlite3.Connection, note_id: int) -> set[int]:
    return {r[0] for r in conn.execute(
        "SELECT target_id FROM links WHERE note_id = ? AND target_type = 'note' AND origin = 'wiki'",
        (note_id,))}


def _link(row: sqlite3.Row) -> Link:
    return Link(row["note_id"], row["target_type"], row["target_id"], row["origin"], row["created_at"])


def outgoing_links(conn: sqlite3.Connection, note_id: int) -> list[Link]:
    rows = conn.execute(
        "SELECT note_id, target_type, target_id, origin, created_at FROM links "
        "WHERE note_id = ? ORDER BY created_at, id", (note_id,))
    return [_link(r) for r in rows]


def backlinks(conn: sqlite3.Connection, target_type: str, target_id: int) -> list[Link]:
    _check(target_type)
    rows = conn.execute(
        "SELECT note_id, target_type, target_id, origin, created_at FROM links "
        "WHERE target_type = ? AND target_id = ? ORDER BY created_at, id", (target_type, target_id))
    return [_link(r) for r in rows]


def dismiss_suggestion(conn: sqlite3.Connection, note_id: int, target_type: str, target_id: int) -> None:
    _check(target_type)
    with transaction(conn):
        conn.execute(
            "INSERT OR IGNORE INTO dismissed_suggestions(note_id, target_type, target_id, created_at) "
            "VALUES (?, ?, ?, ?)", (note_id, target_type, target_id, time.time()))


def undismiss_suggestion(conn: sqlite3.Connection, note_id: int, target_type: str, target_id: int) -> None:
    _check(target_type)
    with transaction(conn):
        conn.execute(
            "DELETE FROM dismissed_suggestions WHERE note_id = ? AND target_type = ? AND target_id = ?",
            (note_id, target_type, target_id))


def set_dismissed(conn: sqlite3.Connection, note_id: int, targets: Sequence[tuple[str, int]], *,
                  dismissed: bool) -> None:
    """Dismiss or restore several targets together (the copies of one passage)."""
    for target_type, _id in targets:
        _check(target_type)
    with transaction(conn):
        for target_type, target_id in targets:
            if dismissed:
                conn.execute(
                    "INSERT OR IGNORE INTO dismissed_suggestions(note_id, target_type, target_id, created_at) "
                    "VALUES (?, ?, ?, ?)", (note_id, target_type, target_id, time.time()))
            else:
                conn.execute("DELETE FROM dismissed_suggestions WHERE note_id = ? AND target_type = ? "
                             "AND target_id = ?", (note_id, target_type, target_id))


def dismissed_targets(conn: sqlite3.Connection, note_id: int) -> set[tuple[str, int]]:
    return {(r[0], r[1]) for r in conn.execute(
        "SELECT target_type, target_id FROM dismissed_suggestions WHERE note_id = ?", (note_id,))}
