"""Results read their sources (whole texts from the store) only as far as they are shown."""

from __future__ import annotations

import sqlite3

from desktop_kb.retrieval.search import materialize


def _note_reads(store: sqlite3.Connection) -> list[str]:
    reads: list[str] = []
    store.set_trace_callback(lambda sql: reads.append(sql) if "FROM notes WHERE id" in sql else None)
    return reads


def test_only_the_shown_results_sources_are_read(library) -> None:  # type: ignore[no-untyped-def]
    ids = [library.add_note(f"笔记 {i}", f"第 {i} 篇：借用检查器在编译时工作。") for i in range(30)]
    library.drain()
    index, store = library.index_reader, library.store_reader
    ranked = [(cid, 1.0) for (cid,) in index.execute("SELECT id FROM kb_chunks ORDER BY id")]
    assert len(ranked) == 30
    reads = _note_reads(store)
    try:
        results, dropped = materialize(index, store, ranked, ["借用"], 3)
    finally:
        store.set_trace_callback(None)
    assert [r.source_id for r in results] == ids[:3] and dropped == 0
    assert len(reads) == 3  # not 30: nobody sees the other 27


def test_unresolvable_hits_are_dropped_and_the_list_is_still_filled(library) -> None:  # type: ignore[no-untyped-def]
    ids = [library.add_note(f"笔记 {i}", f"第 {i} 篇：所有权规则。") for i in range(12)]
    library.drain()
    index, store = library.index_reader, library.store_reader
    ranked = [(cid, 1.0) for (cid,) in index.execute("SELECT id FROM kb_chunks ORDER BY id")]
    for note_id in ids[:4]:  # gone from the store, still in the index (I6: fail closed)
        library.write(lambda c, n=note_id: c.execute(
            "UPDATE notes SET trashed_at = 1 WHERE id = ?", (n,)))
    ranked = [(10**9, 2.0), *ranked]  # a chunk id the index does not know
    results, dropped = materialize(index, store, ranked, ["所有权"], 5)
    assert [r.source_id for r in results] == ids[4:9]
    assert dropped == 5
    # Several chunks of one source: one result, and its text is read once.
    again = [ranked[5], ranked[5], ranked[6]]
    results, dropped = materialize(index, store, again, ["所有权"], 5)
    assert [r.source_id for r in results] == [ids[4], ids[5]] and dropped == 0
