"""The candidate set of one query: every chunk either side found, with both sides' evidence.

Fusion is a pure function of this record (``fusion.fuse``), so the app and the
leave-one-set-out fitting in ``benchmarks/bench_fusion_loso.py`` score exactly
the same numbers: the benchmark dumps candidate sets once and refits offline.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

import numpy as np

from desktop_kb.embed.engine import EmbeddingEngine
from desktop_kb.index.segment import QueryAnalysis
from desktop_kb.retrieval.dense import DenseIndex
from desktop_kb.retrieval.lexical import lexical_search
from desktop_kb.retrieval.term_stats import term_coverage, term_weights
from desktop_kb.text.fold import model_text

LEXICAL_N = 100
DENSE_N = 100


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

    @property
    def lexical_hits(self) -> int:
        return int(np.count_nonzero(self.lex_rank))

    @property
    def best_cosine(self) -> float:
        listed = self.cosine[self.dense_rank > 0]
        return float(listed.max()) if listed.size else 0.0

    def __len__(self) -> int:
        return len(self.ids)


def empty_candidates() -> Candidates:
    return Candidates(np.empty(0, np.int64), np.empty(0), np.empty(0), np.empty(0),
                      np.empty(0, np.int32), np.empty(0, np.int32))


def gather(
    index: sqlite3.Connection, query: str, analysis: QueryAnalysis, *,
    query_vector: np.ndarray | None, dense: DenseIndex | None, lexical: bool = True,
) -> Candidates:
    """Run both sides once and record every candidate's evidence from both."""
    lex = lexical_search(index, query, limit=LEXICAL_N, analysis=analysis) if lexical else []
    dense_hits: list[tuple[int, float]] = []
    if query_vector is not None and dense is not None:
        dense_hits = dense.search(query_vector, DENSE_N)
    ids = list(dict.fromkeys([cid for cid, _ in lex] + [cid for cid, _ in dense_hits]))
    n = len(ids)
    out = Candidates(
        ids=np.array(ids, dtype=np.int64), bm25=np.zeros(n), coverage=np.zeros(n),
        cosine=np.full(n, np.nan), lex_rank=np.zeros(n, np.int32),
        dense_rank=np.zeros(n, np.int32), has_cjk=analysis.has_cjk,
        has_latin=analysis.has_latin, n_terms=len(analysis.all_terms),
        dense_ran=query_vector is not None and dense is not None,
    )
    row = {cid: i for i, cid in enumerate(ids)}
    for rank, (cid, score) in enumerate(lex, start=1):
        out.bm25[row[cid]] = score
        out.lex_rank[row[cid]] = rank
    for rank, (cid, sim) in enumerate(dense_hits, start=1):
        out.cosine[row[cid]] = sim
        out.dense_rank[row[cid]] = rank
    if lex:
        # Every token of the question weighs in the whole, but only its meaningful
        # terms earn a chunk coverage (``QueryAnalysis.terms``: stopwords only when
        # nothing else is left).
        weights = term_weights(index, analysis.all_terms)
        counted = frozenset(analysis.terms)
        for cid, cov in term_coverage(index, weights, [cid for cid, _ in lex], counted).items():
            out.coverage[row[cid]] = cov
        if query_vector is not None and dense is not None:
            unlisted = [cid for cid, _ in lex if out.dense_rank[row[cid]] == 0]
            for cid, sim in dense.similarities(query_vector, unlisted).items():
                out.cosine[row[cid]] = sim
    return out


def embed_query(engine: EmbeddingEngine | None, dense: DenseIndex | None, query: str) -> np.ndarray | None:
    if engine is None or dense is None or not dense.ready or not query.strip():
        return None
    return engine.embed_queries([model_text(query)])[0]
