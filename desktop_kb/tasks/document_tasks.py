"""Library documents for the window's tree and reader, loaded off the GUI thread."""

from __future__ import annotations

from dataclasses import dataclass

from desktop_kb.library import Library
from desktop_kb.store.documents import Document, Fragment, get_document


@dataclass(frozen=True)
class LibrarySnapshot:
    """What the tree shows: documents only (the reader loads a document's text when opened)."""

    documents: list[Document]


def load_snapshot(library: Library) -> LibrarySnapshot:
    return LibrarySnapshot(library.list_documents())


@dataclass(frozen=True)
class DocumentView:
    document: Document
    fragments: list[Fragment]


def load_document(library: Library, document_id: int) -> DocumentView:
    """A whole document for the reader: its record and every fragment in order."""
    return DocumentView(get_document(library.store_reader, document_id),
                        library.list_fragments(document_id))
