"""Lexical retrieval: FTS5 BM25 over segmented text. Returns ``(chunk_id, score)`` only (I6)."""

from __future__ import annotations

import sqlite3

from desktop_kb.retrieval.fts_query import build_match

# Body matches matter most; a hit in the title (or heading path) is a strong signal too.
_BM25 = "bm25(kb_fts, 1.0, 2.0)"


def lexical_search(index: sqlite3.Connection, query: str, limit: int = 50) -> list[tuple[int, float]]:
    """Best chunks first; scores are ≥ 0 (negated BM25) so they can cross a seam safely."""
    match = build_match(query)
    if match is None:
        return []
    rows = index.execute(
        f"SELECT rowid, {_BM25} AS s FROM kb_fts WHERE kb_fts MATCH ? ORDER BY s, rowid LIMIT ?",
        (match, limit),
    ).fetchall()
    return [(int(rowid), max(0.0, -float(score))) for rowid, score in rows]
