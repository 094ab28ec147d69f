"""Search orchestration: rank chunk ids, then resolve against the store once (I6)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from desktop_kb.index.segment import query_terms
from desktop_kb.retrieval.lexical import lexical_search
from desktop_kb.retrieval.resolve import chunk_refs, fits, resolve_sources
from desktop_kb.retrieval.results import SearchResponse, SearchResult
from desktop_kb.retrieval.snippets import make_snippet

CANDIDATES_PER_RESULT = 5


def materialize(
    index: sqlite3.Connection, store: sqlite3.Connection, ranked: Sequence[tuple[int, float]],
    terms: Sequence[str], limit: int, *, per_source: bool = True,
    scores: dict[int, tuple[float, float]] | None = None,
) -> tuple[list[SearchResult], int]:
    """Turn ranked ``(chunk_id, score)`` pairs into results; returns (results, dropped).

    With ``per_source`` only the best chunk of each note or fragment is shown.
    """
    refs = chunk_refs(index, [cid for cid, _ in ranked])
    sources = resolve_sources(store, [refs[cid].key for cid, _ in ranked if cid in refs])
    results: list[SearchResult] = []
    seen: set[tuple[str, int]] = set()
    dropped = 0
    for cid, score in ranked:
        ref = refs.get(cid)
        source = sources.get(ref.key) if ref else None
        if ref is None or source is None or not fits(ref, source):
            dropped += 1
            continue
        if per_source and ref.key in seen:
            continue
        seen.add(ref.key)
        if ref.end > ref.start:
            snip = make_snippet(source.text, ref.start, ref.end, terms)
            text, start, end, highlights = snip.text, snip.start, snip.end, list(snip.highlights)
        else:
            text, start, end, highlights = "", ref.start, ref.end, []
        lex, dense = (scores or {}).get(cid, (score, 0.0))
        results.append(SearchResult(
            rank=len(results) + 1, source_type=ref.source_type, source_id=ref.source_id,
            title=source.title, snippet=text, highlights=highlights, start=start, end=end,
            score=score, chunk_id=cid, chunk_start=ref.start, chunk_end=ref.end,
            document_id=source.document_id, local_only=source.local_only,
            lexical_score=lex, dense_score=dense,
        ))
        if len(results) >= limit:
            break
    return results, dropped


def search(
    index: sqlite3.Connection, store: sqlite3.Connection, query: str, *, limit: int = 10,
    mode: str = "lexical",
) -> SearchResponse:
    if mode != "lexical":
        raise ValueError(f"unknown search mode {mode!r}")
    response = SearchResponse(query=query, mode=mode)
    if limit <= 0:
        return response
    ranked = lexical_search(index, query, limit=max(50, limit * CANDIDATES_PER_RESULT))
    response.results, response.dropped = materialize(
        index, store, ranked, query_terms(query), limit)
    return response
