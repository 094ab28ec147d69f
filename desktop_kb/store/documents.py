"""Imported documents and their fragments (the passages search and QA point at)."""

from __future__ import annotations

import os
import sqlite3
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from desktop_kb.store.fragment_identity import match_fragments
from desktop_kb.store.local_only import content_is_local_only, forget_content, remember_content
from desktop_kb.store.tx import transaction


@dataclass(frozen=True)
class Document:
    id: int
    path: str
    format: str
    sha256: str
    title: str
    imported_at: float
    local_only: bool
    ocr_pending: int = 0  # pages still waiting for OCR (PDF scans)


@dataclass(frozen=True)
class Fragment:
    id: int
    document_id: int
    ord: int
    heading_path: str
    text: str
    start: int
    end: int
    page: int | None = None  # 1-based, for paged formats (PDF)
    page_end: int | None = None


class FragmentLike(Protocol):
    """What the importer hands over (``importer.formats.FragmentSpec`` fits)."""

    @property
    def ord(self) -> int: ...
    @property
    def heading_path(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def page(self) -> int | None: ...
    @property
    def page_end(self) -> int | None: ...


class DocumentNotFound(LookupError):
    def __init__(self, document_id: int) -> None:
        super().__init__(f"No document with id {document_id}.")
        self.document_id = document_id


_DOC_COLS = "id, path, format, sha256, title, imported_at, local_only, ocr_pending"
_FRAG_COLS = "id, document_id, ord, heading_path, text, start, end, page, page_end"


def _doc(row: sqlite3.Row) -> Document:
    return Document(
        id=row["id"], path=row["path"], format=row["format"], sha256=row["sha256"],
        title=row["title"], imported_at=row["imported_at"], local_only=bool(row["local_only"]),
        ocr_pending=row["ocr_pending"],
    )


def _frag(row: sqlite3.Row) -> Fragment:
    return Fragment(
        id=row["id"], document_id=row["document_id"], ord=row["ord"],
        heading_path=row["heading_path"], text=row["text"], start=row["start"], end=row["end"],
        page=row["page"], page_end=row["page_end"],
    )


def get_document(conn: sqlite3.Connection, document_id: int) -> Document:
    row = conn.execute(f"SELECT {_DOC_COLS} FROM documents WHERE id = ?", (document_id,)).fetchone()
    if row is None:
        raise DocumentNotFound(document_id)
    return _doc(row)


def find_document(conn: sqlite3.Connection, document_id: int) -> Document | None:
    row = conn.execute(f"SELECT {_DOC_COLS} FROM documents WHERE id = ?", (document_id,)).fetchone()
    return None if row is None else _doc(row)


def find_document_by_path(conn: sqlite3.Connection, path: str) -> Document | None:
    row = conn.execute(f"SELECT {_DOC_COLS} FROM documents WHERE path = ?", (path,)).fetchone()
    return None if row is None else _doc(row)


def list_documents(conn: sqlite3.Connection) -> list[Document]:
    rows = conn.execute(f"SELECT {_DOC_COLS} FROM documents ORDER BY title COLLATE NOCASE, id")
    return [_doc(r) for r in rows]


def list_fragments(conn: sqlite3.Connection, document_id: int) -> list[Fragment]:
    rows = conn.execute(
        f"SELECT {_FRAG_COLS} FROM fragments WHERE document_id = ? ORDER BY ord", (document_id,)
    )
    return [_frag(r) for r in rows]


def get_fragment(conn: sqlite3.Connection, fragment_id: int) -> Fragment | None:
    row = conn.execute(f"SELECT {_FRAG_COLS} FROM fragments WHERE id = ?", (fragment_id,)).fetchone()
    return None if row is None else _frag(row)


def fragment_ids(conn: sqlite3.Connection, document_id: int) -> list[int]:
    return [r[0] for r in conn.execute(
        "SELECT id FROM fragments WHERE document_id = ? ORDER BY ord", (document_id,))]


@dataclass(frozen=True)
class LostLink:
    """A confirmed link whose fragment went away in a re-import (listed in the summary)."""

    note_id: int
    note_title: str
    fragment_id: int
    heading_path: str
    excerpt: str

    def as_json(self) -> dict[str, object]:
        return {"note_id": self.note_id, "note_title": self.note_title,
                "fragment_id": self.fragment_id, "heading_path": self.heading_path,
                "excerpt": self.excerpt}


@dataclass(frozen=True)
class SavedDocument:
    document_id: int
    outcome: str  # "added" | "updated" | "unchanged" | "moved"
    kept: int = 0  # fragments that kept their identity (and so their links)
    lost_links: tuple[LostLink, ...] = ()
    lost_dismissals: int = 0
    moved_from: str | None = None  # the path it had ("moved": renamed or moved, same content)


def content_twins(conn: sqlite3.Connection, path: str, sha256: str, fmt: str) -> list[tuple[int, str]]:
    """Documents elsewhere with this file's content (sha256, format) as (id, path), when no
    document is at ``path`` yet: what a new path may have been moved from."""
    if find_document_by_path(conn, path) is not None:
        return []  # a path already imported is never a move's destination
    return [(r[0], r[1]) for r in conn.execute(
        "SELECT id, path FROM documents WHERE sha256 = ? AND format = ? AND path != ? ORDER BY id",
        (sha256, fmt, path))]


def lost_paths(twins: Sequence[tuple[int, str]], path: str) -> dict[int, str]:
    """The ``content_twins`` whose path is gone or names this very file in another case (a
    case-insensitive disk: a stick, macOS, Windows), by id: the candidates for a move.
    Asked with no lock held: a sleeping disk or a network share can take seconds to answer,
    and every save of the app waited for the store's write lock meanwhile."""
    lost: dict[int, str] = {}
    for doc_id, old_path in twins:
        try:
            gone = not os.path.lexists(old_path)
            # Its name in another case, on a disk that answers for any case: the same file.
            # samefile alone missed it where each spelling gets an inode number of its own
            # (FUSE file systems: fusefat, exFAT or NTFS through FUSE), and the file was
            # imported twice, the old copy never pruned (it "exists" by either name).
            same = not gone and old_path.casefold() == path.casefold() \
                and (os.path.samefile(old_path, path) or not name_listed(old_path))
        except OSError:
            continue
        if gone or same:
            lost[doc_id] = old_path
    return lost


def listed_names(folder: str) -> frozenset[str] | None:
    """The names ``folder`` lists, in one Unicode form (macOS lists names decomposed, NFD,
    that were typed composed); None when it cannot be listed."""
    try:
        return frozenset(unicodedata.normalize("NFC", n) for n in os.listdir(folder or "."))
    except OSError:
        return None


def name_listed(path: str, listing: Callable[[str], frozenset[str] | None] = listed_names) -> bool:
    """Whether ``path``'s folder lists it by this very name. A case-insensitive disk (a USB
    stick, macOS, Windows) answers ``stat`` for a name in any case: after ``Note.md`` was
    renamed ``note.md``, ``Note.md`` still "exists" there, but is no longer listed.
    ``listing``: :func:`listed_names`, or a cache of it when many paths are asked about."""
    folder, name = os.path.split(path)
    names = listing(folder)
    if names is None:
        return os.path.lexists(path)
    return unicodedata.normalize("NFC", name) in names


def _moved_here(conn: sqlite3.Connection, sha256: str, fmt: str,
                lost: dict[int, str]) -> Document | None:
    """The document this file is, under its old path (one of ``lost``, still as it was
    when its path was checked). Imported anew, a renamed file lost every link and
    dismissal that pointed into it."""
    for row in conn.execute("SELECT * FROM documents WHERE sha256 = ? AND format = ? ORDER BY id",
                            (sha256, fmt)).fetchall():
        old = _doc(row)
        if lost.get(old.id) == old.path:
            return old
    return None


def save_document(
    conn: sqlite3.Connection, *, path: str, fmt: str, sha256: str, title: str,
    specs: Sequence[FragmentLike], ocr_pending: int = 0, lost: dict[int, str] | None = None,
) -> SavedDocument:
    """Insert or update a document and its fragments in one transaction.

    The stored state is read inside the transaction (under SQLite's write
    lock), so two imports of the same file at once both succeed: the second
    finds the first one's result. Fragments keep their ids where the passage
    is recognisably the same (``fragment_identity``); links to the others are
    returned, so the import can list them rather than drop them silently.
    ``ocr_pending``: scanned pages still waiting for OCR (a PDF whose scans were
    recognised since is saved again with the same content hash and 0 here).
    ``lost``: ``lost_paths`` asked by a caller that holds a lock of its own around this call.
    """
    now = time.time()
    moved_from: str | None = None
    if lost is None:
        lost = lost_paths(content_twins(conn, path, sha256, fmt), path)
    with transaction(conn):
        existing = find_document_by_path(conn, path)
        if existing is not None and existing.sha256 == sha256 and existing.format == fmt \
                and existing.ocr_pending == ocr_pending:
            return SavedDocument(existing.id, "unchanged")
        if existing is None and (existing := _moved_here(conn, sha256, fmt, lost)) is not None:
            moved_from = existing.path
            conn.execute("UPDATE documents SET path = ? WHERE id = ?", (path, existing.id))
        if existing is None:
            # Content once marked local-only stays so under a new path (renamed, moved): I11.
            cur = conn.execute(
                "INSERT INTO documents(path, format, sha256, title, imported_at, local_only, "
                "ocr_pending) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (path, fmt, sha256, title, now, int(content_is_local_only(conn, sha256)),
                 ocr_pending),
            )
            assert cur.lastrowid is not None
            document_id = cur.lastrowid
            match = match_fragments([], specs)
        else:
            document_id = existing.id
            conn.execute(
                "UPDATE documents SET format = ?, sha256 = ?, title = ?, imported_at = ?, "
                "ocr_pending = ? WHERE id = ?",
                (fmt, sha256, title, now, ocr_pending, document_id),
            )
            if existing.local_only:
                remember_content(conn, document_id, sha256)  # the edited version is local-only too
            match = match_fragments(list_fragments(conn, document_id), specs)
        lost = _links_to(conn, match.removed)
        lost_dismissals = _count_dismissals(conn, match.removed)
        if match.removed:
            conn.executemany("DELETE FROM fragments WHERE id = ?", [(i,) for i in match.removed])
        for i, spec in enumerate(specs):
            values = (spec.ord, spec.heading_path, spec.text, spec.start, spec.end,
                      spec.page, spec.page_end)
            if i in match.keep:
                conn.execute(
                    "UPDATE fragments SET ord = ?, heading_path = ?, text = ?, start = ?, end = ?, "
                    "page = ?, page_end = ? WHERE id = ?", (*values, match.keep[i]))
            else:
                conn.execute(
                    "INSERT INTO fragments(document_id, ord, heading_path, text, start, end, page, "
                    "page_end) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (document_id, *values))
    outcome = "added" if existing is None else "moved" if moved_from is not None else "updated"
    return SavedDocument(document_id, outcome, kept=len(match.keep), lost_links=tuple(lost),
                         lost_dismissals=lost_dismissals, moved_from=moved_from)


def _links_to(conn: sqlite3.Connection, fragment_ids: Sequence[int]) -> list[LostLink]:
    lost: list[LostLink] = []
    for fid in fragment_ids:
        for row in conn.execute(
            "SELECT l.note_id, n.title, f.heading_path, f.text FROM links l "
            "JOIN notes n ON n.id = l.note_id JOIN fragments f ON f.id = l.target_id "
            "WHERE l.target_type = 'fragment' AND l.target_id = ? ORDER BY l.note_id", (fid,)):
            excerpt = " ".join(row[3].split())[:80]
            lost.append(LostLink(row[0], row[1], fid, row[2], excerpt))
    return lost


def _count_dismissals(conn: sqlite3.Connection, fragment_ids: Sequence[int]) -> int:
    return sum(conn.execute(
        "SELECT count(*) FROM dismissed_suggestions WHERE target_type = 'fragment' AND target_id = ?",
        (fid,)).fetchone()[0] for fid in fragment_ids)


def set_document_local_only(conn: sqlite3.Connection, document_id: int, local_only: bool) -> None:
    with transaction(conn):
        row = conn.execute("SELECT sha256 FROM documents WHERE id = ?", (document_id,)).fetchone()
        if row is None:
            raise DocumentNotFound(document_id)
        conn.execute("UPDATE documents SET local_only = ? WHERE id = ?", (int(local_only), document_id))
        if local_only:
            remember_content(conn, document_id, row[0])
            # The same content imported earlier under another path (a copy, a backup folder) is
            # the same material: it stops leaving too (I11). Lifting is per document, on purpose.
            conn.execute("UPDATE documents SET local_only = 1 WHERE sha256 = ? AND local_only = 0", (row[0],))
        else:
            forget_content(conn, document_id, row[0])


def delete_document(conn: sqlite3.Connection, document_id: int) -> None:
    """Fragments go with it (cascade). Callers remove index rows first (I4)."""
    with transaction(conn):
        cur = conn.execute("DELETE FROM documents WHERE id = ?", (document_id,))
        if cur.rowcount == 0:
            raise DocumentNotFound(document_id)
