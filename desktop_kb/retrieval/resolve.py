"""The fail-closed source join (I6).

Ranked chunk ids are resolved once, after fusion: first to their chunk rows in
the index, then to the live source in the store. Anything that cannot be
resolved (deleted, trashed, or a chunk whose offsets no longer fit the text) is
dropped and counted, never shown.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from desktop_kb.index.sources import SourceKey, fragment_title
from desktop_kb.markup.plain import plain_title
from desktop_kb.retrieval.locators import with_locator
from desktop_kb.store.sql_lists import in_batches


class ChunkRef(NamedTuple):
    """A chunk's row in the index (a tuple: a query reads one for every candidate)."""

    chunk_id: int
    source_type: str
    source_id: int
    ord: int
    start: int
    end: int

    @property
    def key(self) -> SourceKey:
        return (self.source_type, self.source_id)


@dataclass(frozen=True)
class ResolvedSource:
    source_type: str
    source_id: int
    title: str
    text: str
    local_only: bool
    document_id: int | None  # for fragments
    path: str | None = None  # the imported file, for fragments
    page: int | None = None  # paged documents (PDF): where the fragment starts
    page_end: int | None = None


def chunk_refs(index: sqlite3.Connection, chunk_ids: list[int],
               text_hashes: dict[int, str] | None = None) -> dict[int, ChunkRef]:
    """The chunks' rows; with ``text_hashes``, each chunk's text hash is put there from the same
    read (a library of two scripts needs them next: ``script_levels.chunk_weights``)."""
    refs: dict[int, ChunkRef] = {}
    make = ChunkRef._make
    # In id order: neighbouring rows share B-tree pages, which SQLite then reads once.
    for part, marks in in_batches(sorted(set(chunk_ids))):
        if text_hashes is None:
            for row in index.execute(
                f"SELECT id, source_type, source_id, ord, start, end FROM kb_chunks WHERE id IN ({marks})",
                part,
            ):
                refs[row[0]] = make(row)
            continue
        for row in index.execute(
            f"SELECT id, source_type, source_id, ord, start, end, text_hash FROM kb_chunks WHERE id IN ({marks})",
            part,
        ):
            refs[row[0]] = make(row[:6])
            text_hashes[row[0]] = row[6]
    return refs


def resolve_sources(store: sqlite3.Connection, keys: list[SourceKey]) -> dict[SourceKey, ResolvedSource]:
    found: dict[SourceKey, ResolvedSource] = {}
    for kind, ident in dict.fromkeys(keys):
        if kind == "note":
            row = store.execute(
                "SELECT title, body, local_only FROM notes WHERE id = ? AND trashed_at IS NULL",
                (ident,)).fetchone()
            if row is not None:
                found[(kind, ident)] = ResolvedSource(kind, ident, row[0], row[1], bool(row[2]), None)
        elif kind == "fragment":
            row = store.execute(
                "SELECT d.title, f.heading_path, f.text, d.local_only, d.id, d.path, f.page, f.page_end "
                "FROM fragments f JOIN documents d ON d.id = f.document_id WHERE f.id = ?",
                (ident,)).fetchone()
            if row is not None:
                title = _shown_fragment_title(row[0], row[1], row[6], row[7])
                found[(kind, ident)] = ResolvedSource(
                    kind, ident, title, row[2], bool(row[3]), row[4], path=row[5], page=row[6],
                    page_end=row[7])
    return found


def _shown_fragment_title(document_title: str, heading_path: str, page: int | None,
                          page_end: int | None) -> str:
    # Shown, cited and sent as the reader sees it: "Rc<T> 引用计数", not "`Rc<T>` 引用计数".
    return with_locator(plain_title(fragment_title(document_title, heading_path)), page, page_end)


def source_titles(store: sqlite3.Connection, keys: list[SourceKey]) -> dict[SourceKey, tuple[str, str | None]]:
    """Each source's title as search shows it, and a fragment's imported file, for naming
    what was sent (the upload log). Unlike the join above, a note in the trash keeps its
    name: it was sent all the same. A source deleted since is missing from the answer."""
    found: dict[SourceKey, tuple[str, str | None]] = {}
    for kind, ident in dict.fromkeys(keys):
        if kind == "note":
            row = store.execute("SELECT title FROM notes WHERE id = ?", (ident,)).fetchone()
            if row is not None:
                found[(kind, ident)] = (row[0], None)
        elif kind == "fragment":
            row = store.execute(
                "SELECT d.title, f.heading_path, f.page, f.page_end, d.path "
                "FROM fragments f JOIN documents d ON d.id = f.document_id WHERE f.id = ?",
                (ident,)).fetchone()
            if row is not None:
                found[(kind, ident)] = (_shown_fragment_title(row[0], row[1], row[2], row[3]), row[4])
    return found


def fragment_documents(store: sqlite3.Connection, fragment_ids: Sequence[int]) -> dict[int, int]:
    """Each fragment's imported document (fragments gone since are left out), 500 ids a query."""
    document_of: dict[int, int] = {}
    for i in range(0, len(fragment_ids), 500):
        part = fragment_ids[i:i + 500]
        marks = ",".join("?" * len(part))
        document_of.update(store.execute(
            f"SELECT id, document_id FROM fragments WHERE id IN ({marks})", part).fetchall())
    return document_of


def chunk_documents(store: sqlite3.Connection, refs: dict[int, ChunkRef]) -> dict[int, SourceKey]:
    """The document each chunk belongs to: a fragment's imported document, else its own source."""
    document_of = fragment_documents(
        store, sorted({r.source_id for r in refs.values() if r.source_type == "fragment"}))
    return {cid: ("document", document_of[r.source_id])
            if r.source_type == "fragment" and r.source_id in document_of else r.key
            for cid, r in refs.items()}


def fits(ref: ChunkRef, source: ResolvedSource) -> bool:
    """A chunk whose span no longer fits the text is stale: fail closed."""
    return 0 <= ref.start <= ref.end <= len(source.text)
