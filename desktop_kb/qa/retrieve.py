"""Retrieval for QA: hybrid hits, the relevance floor, and link expansion (DESIGN §5).

* Relevance floor: zero lexical hits and a best dense similarity under the
  model's calibrated threshold mean the library has nothing on the question;
  QA says so and no cloud request is made.
* Link expansion: the confirmed links of the top hits (both directions, depth
  ≤ 2) add their best passage, ranked below every seed. Only the links table
  is read; nothing is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from desktop_kb.index.segment import query_terms
from desktop_kb.retrieval.results import SearchResult
from desktop_kb.retrieval.search import materialize, nothing_relevant, rank_chunks
from desktop_kb.retrieval.snippets import sentence_spans
from desktop_kb.retrieval.term_stats import (
    index_stats,
    operator_doc_freq,
    term_coverage,
    term_weights,
)
from desktop_kb.store import feed
from desktop_kb.store import links as store_links
from desktop_kb.text.fold import model_text

SEEDS_TO_EXPAND = 3
MAX_EXPANSIONS = 4
MAX_DEPTH = 2
SCOPES = ("all", "notes", "library")


@dataclass
class QaHit:
    result: SearchResult
    text: str  # the full source text (offsets in result are into it)
    via_link: bool = False
    best_sentence: tuple[int, int] | None = None


@dataclass
class Retrieved:
    question: str
    mode: str
    hits: list[QaHit] = field(default_factory=list)
    nothing: bool = False
    lexical_hits: int = 0
    best_dense: float = 0.0
    dropped: int = 0
    notice: str = ""
    terms: list[str] = field(default_factory=list)
    doc_freq: dict[str, int] = field(default_factory=dict)
    n_docs: int = 1


def _source_texts(store: Any, results: list[SearchResult]) -> dict[tuple[str, int], str]:
    from desktop_kb.retrieval.resolve import resolve_sources

    found = resolve_sources(store, [(r.source_type, r.source_id) for r in results])
    return {k: v.text for k, v in found.items()}


def _in_scope(result: SearchResult, scope: str) -> bool:
    return scope == "all" or (scope == "notes") == (result.source_type == "note")


def retrieve(library: Any, question: str, *, limit: int = 8, scope: str = "all",
             expand_links: bool = True) -> Retrieved:
    """``library`` is a :class:`desktop_kb.library.Library` (typed loosely to avoid a cycle)."""
    if scope not in SCOPES:
        raise ValueError(f"unknown scope {scope!r}; choose one of {', '.join(SCOPES)}")
    mode = library.default_mode()
    out = Retrieved(question=question, mode=mode)
    if mode == "lexical" and library.engine is None:
        out.notice = "no embedding model in use: keyword search only"
    if not question.strip():
        out.terms = query_terms(question)
        out.nothing = True
        return out
    tuning = library.tuning() if mode != "lexical" else None
    # The hits' ids and their rows from one moment of the index (retrieval.search.search).
    with feed.snapshot(library.index_reader):
        return _retrieve(library, question, out, tuning, limit=limit, scope=scope,
                         expand_links=expand_links)


def _retrieve(library: Any, question: str, out: Retrieved, tuning: Any, *, limit: int, scope: str,
              expand_links: bool) -> Retrieved:
    index, store = library.index_reader, library.store_reader
    ranking = rank_chunks(index, question, mode=out.mode, engine=library.engine, dense=library.dense,
                          tuning=tuning, store=store)
    # The terms as searched: a regional word replaced by the library's (執行緒 → 线程)
    # is the one the passages hold, for highlights and packing alike; with the question's
    # operators (``?``, ``//!``), counted in the chunks of ``kb_ops`` that hold them.
    out.terms = ranking.terms + ranking.operators
    total, out.doc_freq = index_stats(index, ranking.terms)
    if ranking.operators:
        out.doc_freq |= operator_doc_freq(index, ranking.operators)
    out.n_docs = total or 1
    out.lexical_hits, out.best_dense = ranking.lexical_hits, ranking.best_dense
    if nothing_relevant(ranking):
        out.nothing = True
        return out
    results, out.dropped = materialize(index, store, ranking.ranked, out.terms, limit * 3,
                                       scores=ranking.scores, refs=ranking.refs)
    results = [r for r in results if _in_scope(r, scope)][:limit]
    if not results:
        out.nothing = True
        return out
    texts = _source_texts(store, results)
    out.hits = [QaHit(r, texts[(r.source_type, r.source_id)]) for r in results
                if (r.source_type, r.source_id) in texts]
    if expand_links:
        out.hits += _expand(library, out, ranking.query_vector, scope)
    for i, hit in enumerate(out.hits):
        if hit.result.rank != i + 1:
            hit.result = _with_rank(hit.result, i + 1)
    if ranking.query_vector is not None and library.engine is not None:
        _best_dense_sentences(library.engine, ranking.query_vector, out.hits[:5], ranking.terms)
    return out


def _with_rank(result: SearchResult, rank: int) -> SearchResult:
    from dataclasses import replace

    return replace(result, rank=rank)


def _neighbours(store: Any, key: tuple[str, int]) -> list[tuple[str, int]]:
    kind, ident = key
    found: list[tuple[str, int]] = []
    if kind == "note":
        found += [(link.target_type, link.target_id) for link in store_links.outgoing_links(store, ident)]
    found += [("note", link.note_id) for link in store_links.backlinks(store, kind, ident)]
    return found


def _expand(library: Any, out: Retrieved, query_vector: np.ndarray | None, scope: str) -> list[QaHit]:
    """Linked passages of the top seeds (depth ≤ 2), each ranked below every seed."""
    store, index = library.store_reader, library.index_reader
    seen = {(h.result.source_type, h.result.source_id) for h in out.hits}
    frontier = [(h.result.source_type, h.result.source_id) for h in out.hits[:SEEDS_TO_EXPAND]]
    linked: list[tuple[str, int]] = []
    for _depth in range(MAX_DEPTH):
        nxt: list[tuple[str, int]] = []
        for key in frontier:
            for target in _neighbours(store, key):
                if target not in seen:
                    seen.add(target)
                    linked.append(target)
                    nxt.append(target)
        frontier = nxt
    extra: list[QaHit] = []
    weights = term_weights(index, out.terms) if out.terms else {}
    for kind, ident in linked:
        if len(extra) >= MAX_EXPANSIONS:
            break
        ids = [r[0] for r in index.execute(
            "SELECT id FROM kb_chunks WHERE source_type = ? AND source_id = ? ORDER BY ord", (kind, ident))]
        if not ids:
            continue
        if query_vector is not None and library.dense is not None and library.dense.ready:
            sims = library.dense.similarities(query_vector, ids)
            best = max(ids, key=lambda c: (sims.get(c, -1.0), -ids.index(c)))
        elif weights:
            cov = term_coverage(index, weights, ids)
            best = max(ids, key=lambda c: (cov.get(c, 0.0), -ids.index(c)))
        else:
            best = ids[0]
        results, _dropped = materialize(index, store, [(best, 0.0)], out.terms, 1)
        results = [r for r in results if _in_scope(r, scope)]
        if not results:
            continue
        texts = _source_texts(store, results)
        key = (results[0].source_type, results[0].source_id)
        if key in texts:
            extra.append(QaHit(results[0], texts[key], via_link=True))
    return extra


def _best_dense_sentences(engine: Any, query_vector: np.ndarray, hits: list[QaHit],
                          terms: list[str]) -> None:
    """For hits with no query term in them (e.g. an English question on Chinese notes)."""
    from desktop_kb.index.segment import normalize

    for hit in hits:
        r = hit.result
        chunk = normalize(hit.text[r.chunk_start:r.chunk_end])
        if any(t and t in chunk for t in terms):
            continue
        spans = sentence_spans(hit.text, r.chunk_start, r.chunk_end)[:40]
        if len(spans) < 2:
            continue
        vectors = engine.embed_passages([model_text(hit.text[a:b]) for a, b in spans])
        scores = vectors @ query_vector
        hit.best_sentence = spans[int(np.argmax(scores))]
