"""Lexical retrieval: FTS5 BM25 over segmented text. Returns ``(chunk_id, score)`` only (I6).

FTS5 has no early exit: it scores every row that any OR branch matches before
``ORDER BY … LIMIT``. A term found in a large share of a big library ("rust"
in a Rust library, "的" typed in quotes) would make each query scan most of
the index (10⁶ chunks: seconds). So branches are taken rarest first while
their summed document frequencies stay within :data:`POSTINGS_BUDGET`; the
rarest always stays. What is left out carries little BM25 weight anyway (IDF
≈ log 2 for a term in half the chunks), and fusion still sees it: term
coverage is computed over every query term for the chunks found.
"""

from __future__ import annotations

import sqlite3

from desktop_kb.index.segment import analyse_query
from desktop_kb.retrieval.fts_query import Alternative, alternatives, join_match
from desktop_kb.retrieval.term_stats import index_stats

# Body matches matter most; a hit in the title (or heading path) is a strong signal too.
_BM25 = "bm25(kb_fts, 1.0, 2.0)"

#: Rows one query may make FTS5 score, summed over the kept branches' document
#: frequencies. Below ~10⁵ chunks nothing real reaches it.
POSTINGS_BUDGET = 25_000


def prune(branches: list[Alternative], doc_freq: dict[str, int],
          budget: int = POSTINGS_BUDGET) -> list[Alternative]:
    """The branches worth scoring: rarest first within ``budget`` rows, in query order.

    A phrase matches at most as many rows as its rarest token. A branch that
    matches nothing costs nothing and is kept (it may still be a phrase typo).
    """
    if not branches:
        return []
    cost = {b.match: min(doc_freq.get(t, 0) for t in b.tokens) for b in branches}
    kept: set[str] = set()
    spent = 0
    for b in sorted(branches, key=lambda b: cost[b.match]):
        if kept and spent + cost[b.match] > budget:
            break
        kept.add(b.match)
        spent += cost[b.match]
    return [b for b in branches if b.match in kept]


def lexical_search(index: sqlite3.Connection, query: str, limit: int = 50) -> list[tuple[int, float]]:
    """Best chunks first; scores are ≥ 0 (negated BM25) so they can cross a seam safely."""
    branches = alternatives(analyse_query(query))
    if not branches:
        return []
    _total, doc_freq = index_stats(index, sorted({t for b in branches for t in b.tokens}))
    match = join_match(prune(branches, doc_freq, POSTINGS_BUDGET))
    if match is None:
        return []
    rows = index.execute(
        f"SELECT rowid, {_BM25} AS s FROM kb_fts WHERE kb_fts MATCH ? ORDER BY s, rowid LIMIT ?",
        (match, limit),
    ).fetchall()
    return [(int(rowid), max(0.0, -float(score))) for rowid, score in rows]
