"""Which document a chunk belongs to (fusion keeps a document both lists rank first)."""

from __future__ import annotations

import sqlite3

from desktop_kb.retrieval.resolve import ChunkRef, chunk_documents


def test_fragments_map_to_their_document_and_notes_to_themselves() -> None:
    store = sqlite3.connect(":memory:")
    store.execute("CREATE TABLE fragments(id INTEGER PRIMARY KEY, document_id INTEGER NOT NULL)")
    store.executemany("INSERT INTO fragments VALUES (?, ?)", [(10, 1), (11, 1), (12, 2)])
    refs = {
        1: ChunkRef(1, "fragment", 10, 0, 0, 5),
        2: ChunkRef(2, "fragment", 11, 0, 0, 5),
        3: ChunkRef(3, "fragment", 12, 0, 0, 5),
        4: ChunkRef(4, "note", 10, 0, 0, 5),  # a note with a fragment's id is not that fragment
        5: ChunkRef(5, "fragment", 99, 0, 0, 5),  # deleted since it was indexed: its own source
    }
    documents = chunk_documents(store, refs)
    assert documents[1] == documents[2] == ("document", 1)
    assert documents[3] == ("document", 2)
    assert documents[4] == ("note", 10) and documents[5] == ("fragment", 99)
