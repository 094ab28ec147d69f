"""Library documents for the window's tree and reader, loaded off the GUI thread."""

from __future__ import annotations

from dataclasses import dataclass

from desktop_kb.library import Library
from desktop_kb.store.documents import Document, Fragment


@dataclass(frozen=True)
class LibrarySnapshot:
    documents: list[Document]
    fragments: dict[int, list[Fragment]]  # document id -> fragments in order


def load_snapshot(library: Library) -> LibrarySnapshot:
    documents = library.list_documents()
    return LibrarySnapshot(documents, {d.id: library.list_fragments(d.id) for d in documents})


def load_fragment(library: Library, document_id: int, fragment_id: int) -> tuple[Document, Fragment]:
    """One fragment with its document (a search hit or link the tree has not loaded yet)."""
    documents = {d.id: d for d in library.list_documents()}
    fragments = {f.id: f for f in library.list_fragments(document_id)}
    return documents[document_id], fragments[fragment_id]
