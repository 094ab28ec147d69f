"""Imported documents and their fragments (the passages search and QA point at)."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

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


@dataclass(frozen=True)
class Fragment:
    id: int
    document_id: int
    ord: int
    heading_path: str
    text: str
    start: int
    end: int


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


class DocumentNotFound(LookupError):
    def __init__(self, document_id: int) -> None:
        super().__init__(f"No document with id {document_id}.")
        self.document_id = document_id


_DOC_COLS = "id, path, format, sha256, title, imported_at, local_only"
_FRAG_COLS = "id, document_id, ord, heading_path, text, start, end"


def _doc(row: sqlite3.Row) -> Document:
    return Document(
        id=row["id"], path=row["path"], format=row["format"], sha256=row["sha256"],
        title=row["title"], imported_at=row["imported_at"], local_only=bool(row["local_only"]),
    )


def _frag(row: sqlite3.Row) -> Fragment:
    return Fragment(
        id=row["id"], document_id=row["document_id"], ord=row["ord"],
        heading_path=row["heading_path"], text=row["text"], start=row["start"], end=row["end"],
    )


def get_document(conn: sqlite3.Connection, document_id: int) -> Document:
    row = conn.execute(f"SELECT {_DOC_COLS} FROM documents WHERE id = ?", (document_id,)).fetchone()
    if row is None:
        raise DocumentNotFound(document_id)
    return _doc(row)


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
class FragmentPlan:
    """How a re-import maps onto stored fragments.

    Fragments whose text is unchanged keep their id, so links to them survive a
    re-import; only the ids in ``removed`` go away (their index rows first, I4).
    """

    keep: dict[int, int]  # index into new specs -> existing fragment id
    removed: list[int]


def plan_fragments(
    conn: sqlite3.Connection, document_id: int | None, specs: Sequence[FragmentLike],
) -> FragmentPlan:
    if document_id is None:
        return FragmentPlan(keep={}, removed=[])
    by_text: dict[str, list[int]] = {}
    for frag in list_fragments(conn, document_id):
        by_text.setdefault(frag.text, []).append(frag.id)
    keep: dict[int, int] = {}
    for i, spec in enumerate(specs):
        ids = by_text.get(spec.text)
        if ids:
            keep[i] = ids.pop(0)
    removed = sorted(i for ids in by_text.values() for i in ids)
    return FragmentPlan(keep=keep, removed=removed)


def save_document(
    conn: sqlite3.Connection, *, path: str, fmt: str, sha256: str, title: str,
    specs: Sequence[FragmentLike], plan: FragmentPlan, document_id: int | None,
) -> int:
    """Insert or update a document and its fragments in one transaction."""
    now = time.time()
    with transaction(conn):
        if document_id is None:
            cur = conn.execute(
                "INSERT INTO documents(path, format, sha256, title, imported_at) VALUES (?, ?, ?, ?, ?)",
                (path, fmt, sha256, title, now),
            )
            assert cur.lastrowid is not None
            document_id = cur.lastrowid
        else:
            conn.execute(
                "UPDATE documents SET format = ?, sha256 = ?, title = ?, imported_at = ? WHERE id = ?",
                (fmt, sha256, title, now, document_id),
            )
        if plan.removed:
            conn.executemany("DELETE FROM fragments WHERE id = ?", [(i,) for i in plan.removed])
        for i, spec in enumerate(specs):
            values = (spec.ord, spec.heading_path, spec.text, spec.start, spec.end)
            if i in plan.keep:
                conn.execute(
                    "UPDATE fragments SET ord = ?, heading_path = ?, text = ?, start = ?, end = ? WHERE id = ?",
                    (*values, plan.keep[i]),
                )
            else:
                conn.execute(
                    "INSERT INTO fragments(document_id, ord, heading_path, text, start, end) VALUES (?, ?, ?, ?, ?, ?)",
                    (document_id, *values),
                )
    return document_id



def set_document_local_only(conn: sqlite3.Connection, document_id: int, local_only: bool) -> None:
    with transaction(conn):
        cur = conn.execute(
            "UPDATE documents SET local_only = ? WHERE id = ?", (int(local_only), document_id))
        if cur.rowcount == 0:
            raise DocumentNotFound(document_id)


def delete_document(conn: sqlite3.Connection, document_id: int) -> None:
    """Fragments go with it (cascade). Callers remove index rows first (I4)."""
    with transaction(conn):
        cur = conn.execute("DELETE FROM documents WHERE id = ?", (document_id,))
        if cur.rowcount == 0:
            raise DocumentNotFound(document_id)
