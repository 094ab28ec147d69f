"""Search orchestration: rank chunk ids (lexical, dense or fused), then resolve once (I6)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from desktop_kb.embed.engine import EmbeddingEngine
from desktop_kb.index.segment import analyse_query, query_terms
from desktop_kb.retrieval.dense import DenseIndex
from desktop_kb.retrieval.fusion import DEFAULT_PARAMS, FusionParams, adaptive_fuse, plain_rrf
from desktop_kb.retrieval.lexical import lexical_search
from desktop_kb.retrieval.resolve import chunk_refs, fits, resolve_sources
from desktop_kb.retrieval.results import SearchResponse, SearchResult
from desktop_kb.retrieval.snippets import make_snippet
from desktop_kb.retrieval.term_stats import term_coverage, term_weights

CANDIDATES_PER_RESULT = 5
LEXICAL_N = 100
DENSE_N = 100
MODES = ("lexical", "dense", "hybrid", "rrf")

# Relevance floor (DESIGN §5): best query–chunk cosine under which a query with
# no lexical hit has nothing in the library. Calibrated for use-multilingual on
# the CMRC trial set: 1 % of real questions score under 0.168 against their own
# passage, off-topic questions 0.12–0.16, English questions ≥ 0.28 against their
# Chinese translation (Tatoeba, 99 %). Models without a calibration only get the
# floor when no dense side ran at all.
DENSE_FLOOR: dict[str, float] = {"use-multilingual": 0.17}
NOTHING_NOTICE = "nothing in the library is close to this"


@dataclass
class Ranking:
    """Ranked chunk ids with both sides' scores, before anything is resolved."""

    ranked: list[tuple[int, float]] = field(default_factory=list)
    scores: dict[int, tuple[float, float]] = field(default_factory=dict)  # cid -> (lexical, dense)
    query_vector: np.ndarray | None = None
    best_dense: float = 0.0  # best cosine seen, for the relevance floor
    lexical_hits: int = 0


def _tie_breaker(index: sqlite3.Connection, ids: Sequence[int]) -> Callable[[int], tuple[int, int]]:
    refs = chunk_refs(index, list(ids))

    def tie(cid: int) -> tuple[int, int]:
        ref = refs.get(cid)
        return (ref.source_id, ref.ord) if ref else (1 << 62, cid)

    return tie


def rank_chunks(
    index: sqlite3.Connection, query: str, *, mode: str, engine: EmbeddingEngine | None,
    dense: DenseIndex | None, params: FusionParams = DEFAULT_PARAMS,
) -> Ranking:
    if mode not in MODES:
        raise ValueError(f"unknown search mode {mode!r}; choose one of {', '.join(MODES)}")
    ranking = Ranking()
    lexical: list[tuple[int, float]] = []
    if mode != "dense":
        lexical = lexical_search(index, query, limit=LEXICAL_N)
        ranking.lexical_hits = len(lexical)
    if mode == "lexical":
        ranking.ranked = lexical
        ranking.scores = {cid: (s, 0.0) for cid, s in lexical}
        return ranking
    dense_hits: list[tuple[int, float]] = []
    if engine is not None and dense is not None and dense.ready and query.strip():
        vector = engine.embed_queries([query])[0]
        ranking.query_vector = vector
        dense_hits = dense.search(vector, DENSE_N)
        ranking.best_dense = dense_hits[0][1] if dense_hits else 0.0
    if mode == "dense":
        ranking.ranked = [(cid, max(0.0, s)) for cid, s in dense_hits]
        ranking.scores = {cid: (0.0, s) for cid, s in dense_hits}
        return ranking
    ids = list(dict.fromkeys([cid for cid, _ in lexical] + [cid for cid, _ in dense_hits]))
    tie = _tie_breaker(index, ids)
    if mode == "rrf":
        fused = plain_rrf(lexical, dense_hits, tie)
    else:
        in_dense = {cid for cid, _ in dense_hits}
        extra = {}
        if ranking.query_vector is not None:
            extra = dense.similarities(  # type: ignore[union-attr]
                ranking.query_vector, [cid for cid, _ in lexical if cid not in in_dense])
        weights = term_weights(index, analyse_query(query).all_terms)
        # Fusion reads coverage for lexical candidates only.
        coverage = term_coverage(index, weights, [cid for cid, _ in lexical])
        fused = adaptive_fuse(lexical, dense_hits, extra, coverage, tie, params)
    ranking.ranked = [(f.chunk_id, f.score) for f in fused]
    ranking.scores = {f.chunk_id: (f.lexical, f.dense) for f in fused}
    return ranking


def nothing_relevant(ranking: Ranking, model_id: str | None) -> bool:
    """No lexical hit and no dense hit above the model's calibrated floor."""
    if ranking.lexical_hits:
        return False
    floor = DENSE_FLOOR.get(model_id or "")
    return ranking.query_vector is None or (floor is not None and ranking.best_dense < floor)


def materialize(
    index: sqlite3.Connection, store: sqlite3.Connection, ranked: Sequence[tuple[int, float]],
    terms: Sequence[str], limit: int, *, per_source: bool = True,
    scores: dict[int, tuple[float, float]] | None = None,
) -> tuple[list[SearchResult], int]:
    """Turn ranked ``(chunk_id, score)`` pairs into results; returns (results, dropped).

    With ``per_source`` only the best chunk of each note or fragment is shown.
    """
    ranked = list(ranked)[: max(limit * CANDIDATES_PER_RESULT, 50)]
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
            lexical_score=lex, dense_score=dense, path=source.path,
        ))
        if len(results) >= limit:
            break
    return results, dropped


def search(
    index: sqlite3.Connection, store: sqlite3.Connection, query: str, *, limit: int = 10,
    mode: str = "lexical", engine: EmbeddingEngine | None = None, dense: DenseIndex | None = None,
) -> SearchResponse:
    response = SearchResponse(query=query, mode=mode)
    if mode in ("dense", "hybrid", "rrf") and (engine is None or dense is None or not dense.ready):
        response.notice = "no embedding model in use: keyword search only"
        if mode == "dense":
            return response
        mode = response.mode = "lexical"
    if limit <= 0:
        return response
    ranking = rank_chunks(index, query, mode=mode, engine=engine, dense=dense)
    if mode != "lexical" and nothing_relevant(ranking, engine.model_id if engine else None):
        response.notice = NOTHING_NOTICE
        return response
    response.results, response.dropped = materialize(
        index, store, ranking.ranked, query_terms(query), limit, scores=ranking.scores)
    return response
