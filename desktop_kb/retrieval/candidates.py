"""The candidate set of one query: every chunk either side found, with both sides' evidence.

Fusion is a pure function of this record (``fusion.fuse``), so the app and the
leave-one-set-out fitting in ``benchmarks/bench_fusion_loso.py`` score exactly
the same numbers: the benchmark dumps candidate sets once and refits offline.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace

import numpy as np

from desktop_kb.embed.engine import EmbeddingEngine
from desktop_kb.index.segment import QueryAnalysis
from desktop_kb.retrieval.dense import DenseIndex, SeenVectors
from desktop_kb.retrieval.lexical import lexical_search
from desktop_kb.retrieval.term_stats import (
    operator_weights,
    padded_operator_texts,
    term_coverage,
    term_weights,
    token_rows,
)
from desktop_kb.text.fold import model_text

LEXICAL_N = 100
DENSE_N = 100
#: Run the dense side on a helper thread during keyword search (benchmarks turn it off
#: to measure the one-thread path as a baseline in the same run).
CONCURRENT = True


@dataclass
class Candidates:
    """Parallel arrays, one row per candidate chunk (lexical hits first, in rank order).

    ``lex_rank``/``dense_rank`` are 1-based positions in each side's own
    top-N list, 0 when that side did not list the chunk. ``cosine`` is exact
    for every candidate that has a vector (NaN otherwise), so each candidate
    is judged on both sides even when only one side listed it.
    """

    ids: np.ndarray  # int64
    bm25: np.ndarray  # float64, ≥ 0 (0: not a lexical hit)
    coverage: np.ndarray  # float64, IDF-weighted share of the query's tokens (0..1)
    cosine: np.ndarray  # float64, NaN without a vector
    lex_rank: np.ndarray  # int32
    dense_rank: np.ndarray  # int32
    has_cjk: bool = False
    has_latin: bool = False
    n_terms: int = 0
    dense_ran: bool = False  # a query vector existed and the dense side was searched
    # The keyword hits' padded token text (term_stats.padded_token_texts), read once for their
    # coverage and kept for the relevance floor's keyword evidence.
    hit_texts: dict[int, str] = field(default_factory=dict)
    # Their body tokens alone, read in the same query: a library of two scripts weighs each
    # candidate's script by them (script_levels.chunk_weights) without reading them again.
    hit_bodies: dict[int, str] = field(default_factory=dict, compare=False, repr=False)
    # The float vectors this question has read (the dense side's rescoring, the keyword hits'
    # cosines): later reads of the same chunks (the language pull) take them from here.
    seen: SeenVectors | None = field(default=None, compare=False, repr=False)

    @property
    def lexical_hits(self) -> int:
        return int(np.count_nonzero(self.lex_rank))

    @property
    def best_cosine(self) -> float:
        listed = self.cosine[self.dense_rank > 0]
        return float(listed.max()) if listed.size else 0.0

    def __len__(self) -> int:
        return len(self.ids)

    def with_cosines(self, cosine: np.ndarray) -> Candidates:
        """The record with other cosines (read against a level, less a pull), the meaning list
        reordered by them: its first place is what the agreement rule compares with the keyword
        favourite. Which chunks it lists does not change."""
        listed = np.flatnonzero(self.dense_rank > 0)
        dense_rank = np.zeros_like(self.dense_rank)
        order = listed[np.argsort(-cosine[listed], kind="stable")]
        dense_rank[order] = np.arange(1, len(order) + 1, dtype=self.dense_rank.dtype)
        return replace(self, cosine=cosine, dense_rank=dense_rank)


def empty_candidates() -> Candidates:
    return Candidates(np.empty(0, np.int64), np.empty(0), np.empty(0), np.empty(0),
                      np.empty(0, np.int32), np.empty(0, np.int32))


@dataclass
class DenseSide:
    """The dense side of one query: its vector and its own top-N (empty without a model)."""

    vector: np.ndarray | None
    hits: list[tuple[int, float]]
    seen: SeenVectors = field(default_factory=SeenVectors)


def dense_side(engine: EmbeddingEngine | None, dense: DenseIndex | None, query: str) -> DenseSide:
    """Embed the query and search the vectors (both release the GIL: onnxruntime, numpy
    and sqlite3 run outside it, so this overlaps keyword search on a second core)."""
    return _searched(embed_query(engine, dense, query), dense)


def _searched(vector: np.ndarray | None, dense: DenseIndex | None) -> DenseSide:
    """The dense side of an embedded query, with the float vectors its rescoring read."""
    seen = SeenVectors()
    hits = dense.search(vector, DENSE_N, seen) if vector is not None and dense is not None else []
    return DenseSide(vector, hits, seen)


_POOL: ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()


def _pool() -> ThreadPoolExecutor:
    """Threads for the dense side (two: the search worker and the QA worker may query at once)."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="kb-dense-side")
        return _POOL


def gather(
    index: sqlite3.Connection, query: str, analysis: QueryAnalysis, *,
    query_vector: np.ndarray | None, dense: DenseIndex | None, lexical: bool = True,
) -> Candidates:
    """Run both sides once, one after the other, and record every candidate's evidence
    from both (the offline refit's path: the vector is embedded by the caller)."""
    lex = lexical_search(index, query, limit=LEXICAL_N, analysis=analysis) if lexical else []
    coverage = _coverage(index, analysis, lex)
    return _assemble(analysis, lex, coverage, _searched(query_vector, dense), dense)


def gather_concurrently(
    index: sqlite3.Connection, query: str, analysis: QueryAnalysis, *,
    engine: EmbeddingEngine | None, dense: DenseIndex | None, lexical: bool = True,
    meanwhile: Callable[[Candidates], object] | None = None,
) -> tuple[Candidates, np.ndarray | None]:
    """:func:`gather` with the query embedding and the dense search on a helper thread
    while this thread runs keyword search and term coverage: the same record, in the
    wall time of the slower side rather than the sum. Returns it with the query vector.

    ``meanwhile`` is called on this thread with the keyword hits alone (the record without
    the dense side: the same hits, in the same order, with the same texts) before the dense
    side is waited for, so work that reads keyword hits only fills that wait."""
    if not CONCURRENT or not lexical or engine is None or dense is None or not dense.ready:
        side = dense_side(engine, dense, query)
        lex = lexical_search(index, query, limit=LEXICAL_N, analysis=analysis) if lexical else []
        coverage = _coverage(index, analysis, lex)
        if meanwhile is not None:
            meanwhile(_assemble(analysis, lex, coverage, DenseSide(None, []), None))
        return _assemble(analysis, lex, coverage, side, dense), side.vector
    pending = _pool().submit(dense_side, engine, dense, query)
    try:
        lex = lexical_search(index, query, limit=LEXICAL_N, analysis=analysis)
        coverage = _coverage(index, analysis, lex)
        if meanwhile is not None:
            meanwhile(_assemble(analysis, lex, coverage, DenseSide(None, []), None))
    except BaseException:
        pending.cancel()
        raise
    side = pending.result()
    return _assemble(analysis, lex, coverage, side, dense), side.vector


@dataclass
class Coverage:
    """Each lexical hit's coverage, with the token text it was read from."""

    shares: dict[int, float] = field(default_factory=dict)
    texts: dict[int, str] = field(default_factory=dict)
    bodies: dict[int, str] = field(default_factory=dict)


def _coverage(index: sqlite3.Connection, analysis: QueryAnalysis,
              lex: list[tuple[int, float]]) -> Coverage:
    """Each lexical hit's coverage: every token of the question weighs in the whole, but
    only its meaningful terms earn a chunk coverage (``QueryAnalysis.terms``: stopwords
    only when nothing else is left). A question's operators (``?``, ``//!``) are terms of it
    like its words: a passage that holds ``//!`` covers more of "//! 注释" than one that holds
    注释 alone."""
    if not lex:
        return Coverage()
    ids = [cid for cid, _ in lex]
    rows = list(token_rows(index, ids))
    texts = {rowid: f" {body} {title} " for rowid, body, title in rows}  # padded_token_texts
    bodies = {rowid: body for rowid, body, _title in rows}
    weights = term_weights(index, analysis.all_terms)
    if not analysis.operators:
        return Coverage(term_coverage(index, weights, ids, frozenset(analysis.terms), texts), texts, bodies)
    ops = padded_operator_texts(index, ids)
    weights |= operator_weights(index, analysis.operators)
    counted = frozenset(analysis.terms) | frozenset(analysis.operators)
    with_ops = {cid: text + ops.get(cid, "") for cid, text in texts.items()}
    # The texts with their operators: keyword evidence reads what each hit holds from them.
    return Coverage(term_coverage(index, weights, ids, counted, with_ops), with_ops, bodies)


def _assemble(analysis: QueryAnalysis, lex: list[tuple[int, float]], coverage: Coverage,
              side: DenseSide, dense: DenseIndex | None) -> Candidates:
    ids = list(dict.fromkeys([cid for cid, _ in lex] + [cid for cid, _ in side.hits]))
    n = len(ids)
    dense_ran = side.vector is not None and dense is not None
    out = Candidates(
        ids=np.array(ids, dtype=np.int64), bm25=np.zeros(n), coverage=np.zeros(n),
        cosine=np.full(n, np.nan), lex_rank=np.zeros(n, np.int32),
        dense_rank=np.zeros(n, np.int32), has_cjk=analysis.has_cjk,
        has_latin=analysis.has_latin, n_terms=len(analysis.all_terms), dense_ran=dense_ran,
        hit_texts=coverage.texts, hit_bodies=coverage.bodies, seen=side.seen,
    )
    row = {cid: i for i, cid in enumerate(ids)}
    for rank, (cid, score) in enumerate(lex, start=1):
        out.bm25[row[cid]] = score
        out.lex_rank[row[cid]] = rank
    for rank, (cid, sim) in enumerate(side.hits, start=1):
        out.cosine[row[cid]] = sim
        out.dense_rank[row[cid]] = rank
    for cid, cov in coverage.shares.items():
        out.coverage[row[cid]] = cov
    if lex and dense_ran:
        assert dense is not None and side.vector is not None
        unlisted = [cid for cid, _ in lex if out.dense_rank[row[cid]] == 0]
        for cid, sim in dense.similarities(side.vector, unlisted, side.seen).items():
            out.cosine[row[cid]] = sim
    return out


def embed_query(engine: EmbeddingEngine | None, dense: DenseIndex | None, query: str) -> np.ndarray | None:
    if engine is None or dense is None or not dense.ready or not query.strip():
        return None
    return engine.embed_queries([model_text(query)])[0]
