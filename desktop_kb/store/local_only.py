"""Local-only is contagious (I11): the rules the store keeps, whoever writes.

* A note made from material that includes a local-only source (a saved QA
  answer, a note from a selection) is created local-only, with the reason —
  which sources — kept beside the flag, until the person lifts it.
* A document's flag follows its content: the content hash of every version
  of a local-only document is remembered, so the same content imported under
  another path (renamed, moved) is local-only again, even after ``--prune``
  removed the old record. Lifting the flag forgets those hashes.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass

SourceRef = tuple[str, int]  # ("note" | "fragment" | "document", id)


@dataclass(frozen=True)
class LocalSource:
    kind: str  # note | document
    id: int
    title: str

    def as_json(self) -> dict[str, object]:
        return {"type": self.kind, "id": self.id, "title": self.title}


@dataclass(frozen=True)
class DerivedReason:
    """Why a note is local only: it was made from these local-only sources."""

    sources: tuple[LocalSource, ...]

    def to_text(self) -> str:
        return json.dumps({"derived_from": [s.as_json() for s in self.sources]}, ensure_ascii=False)

    @classmethod
    def from_text(cls, text: str | None) -> DerivedReason | None:
        if not text:
            return None
        try:
            data = json.loads(text)
            return cls(tuple(LocalSource(str(s["type"]), int(s["id"]), str(s.get("title", "")))
                             for s in data.get("derived_from", [])))
        except (ValueError, TypeError, KeyError, AttributeError):
            return cls(())  # an unreadable reason still means "derived"; the flag itself is what counts


def local_sources(conn: sqlite3.Connection, sources: Sequence[SourceRef]) -> list[LocalSource]:
    """The local-only notes and documents among ``sources`` (fragments count as their document)."""
    found: dict[tuple[str, int], LocalSource] = {}
    for kind, ident in dict.fromkeys(sources):
        if kind == "note":
            row = conn.execute("SELECT id, title, local_only FROM notes WHERE id = ?", (ident,)).fetchone()
            key = "note"
        elif kind == "fragment":
            row = conn.execute("SELECT d.id, d.title, d.local_only FROM fragments f "
                               "JOIN documents d ON d.id = f.document_id WHERE f.id = ?", (ident,)).fetchone()
            key = "document"
        elif kind == "document":
            row = conn.execute("SELECT id, title, local_only FROM documents WHERE id = ?", (ident,)).fetchone()
            key = "document"
        else:
            raise ValueError(f"unknown source type {kind!r}")
        if row is not None and row[2]:
            found[(key, row[0])] = LocalSource(key, row[0], row[1])
    return list(found.values())


def flags_now(conn: sqlite3.Connection, sources: Sequence[SourceRef]) -> dict[SourceRef, bool | None]:
    """Each note's or fragment's local-only flag as stored now; None when it is gone or trashed."""
    out: dict[SourceRef, bool | None] = {}
    for kind, ident in dict.fromkeys(sources):
        if kind == "note":
            row = conn.execute("SELECT local_only FROM notes WHERE id = ? AND trashed_at IS NULL",
                               (ident,)).fetchone()
        else:
            row = conn.execute("SELECT d.local_only FROM fragments f JOIN documents d ON d.id = f.document_id "
                               "WHERE f.id = ?", (ident,)).fetchone()
        out[(kind, ident)] = None if row is None else bool(row[0])
    return out


def remember_content(conn: sqlite3.Connection, document_id: int, sha256: str) -> None:
    """Record that content with this hash belongs to a local-only document (caller's transaction)."""
    conn.execute("INSERT INTO local_only_content(sha256, document_id, created_at) VALUES (?, ?, ?) "
                 "ON CONFLICT(sha256) DO UPDATE SET document_id = excluded.document_id",
                 (sha256, document_id, time.time()))


def forget_content(conn: sqlite3.Connection, document_id: int, sha256: str) -> None:
    """The person lifted the flag: this document's content is no longer local-only anywhere."""
    conn.execute("DELETE FROM local_only_content WHERE document_id = ? OR sha256 = ?", (document_id, sha256))


def content_is_local_only(conn: sqlite3.Connection, sha256: str) -> bool:
    return conn.execute("SELECT 1 FROM local_only_content WHERE sha256 = ?", (sha256,)).fetchone() is not None
