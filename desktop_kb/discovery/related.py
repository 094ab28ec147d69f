"""Related notes and fragments for one note, each with the reason it is suggested.

The note's own content is the query: its key terms (IDF-weighted, the words
that make it *this* note) go to the lexical side, and the vectors of its
chunks go to the dense side. Evidence is scored per chunk and aggregated per
target (note or fragment), then resolved against the store once (I6): a
target that is gone, trashed, the note itself, already linked or dismissed for
this note is never shown. Nothing here writes anything (I9).

Scores, per target chunk:

* lexical = IDF-weight of the note's key terms the chunk holds, relative to
  the weight of the note's few strongest terms (so sharing the two or three
  words that define the note counts fully, whatever the note's length);
* dense = the best cosine between any chunk of the note and the chunk,
  rescaled above the model's "unrelated" level.

A suggestion must clear a floor on one side or the other: the panel shows
fewer items rather than noise.
"""

from __future__ import annotations

import math
import re
import sqlite3
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from desktop_kb.embed.engine import EmbeddingEngine
from desktop_kb.index.prepare import chunk_source, embed_text_of
from desktop_kb.index.segment import STOPWORDS, index_tokens
from desktop_kb.index.sources import SourceKey, load_source
from desktop_kb.index.vectors import from_blob
from desktop_kb.retrieval.dense import DenseIndex
from desktop_kb.retrieval.fts_query import quote_fts_token
from desktop_kb.retrieval.resolve import chunk_refs, fits, resolve_sources
from desktop_kb.retrieval.snippets import make_snippet
from desktop_kb.retrieval.term_stats import bm25_idf, chunk_tokens, index_stats
from desktop_kb.store import links as store_links

DEFAULT_LIMIT = 8
MAX_KEY_TERMS = 24  # terms sent to the lexical side
MAX_REASON_TERMS = 6  # shared terms shown as the reason
SATURATION_TERMS = 3  # sharing the weight of this many top terms = full lexical evidence
MAX_QUERY_CHUNKS = 8  # chunks of a long note used as dense queries
LEXICAL_CANDIDATES = 200
DENSE_PER_CHUNK = 50
DENSE_BASE = 0.35  # cosine of unrelated text for the default model; below it dense adds nothing
DENSE_WEIGHT = 2.0  # chosen on tatoeba_cmn_dev_zhpara (1.0: R@5 0.890, 2.0: 0.917, 3.0: 0.922)
MIN_LEXICAL = 0.2  # roughly: shares at least one of the note's defining words
MIN_SIMILARITY = 0.5
SNIPPET_CHARS = 180

_HAN_RE = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003ffff]")
_LETTER_RE = re.compile(r"[^\W\d_]")


@dataclass(frozen=True)
class Suggestion:
    rank: int
    target_type: str
    target_id: int
    title: str
    terms: list[str]  # shared key terms, strongest first (index form)
    similarity: float | None  # best cosine; None when no model is in use
    snippet: str
    highlights: list[tuple[int, int]]  # offsets into ``snippet``
    start: int  # snippet span in the target's text, for opening it highlighted
    end: int
    score: float
    document_id: int | None = None  # fragments: the document to open

    @property
    def key(self) -> SourceKey:
        return (self.target_type, self.target_id)

    def as_json(self) -> dict[str, object]:
        return {
            "rank": self.rank, "target_type": self.target_type, "target_id": self.target_id,
            "title": self.title,
            "reason": {"terms": list(self.terms),
                       "similarity": None if self.similarity is None else round(self.similarity, 4)},
            "snippet": self.snippet,
        }


@dataclass
class RelatedResult:
    note_id: int
    suggestions: list[Suggestion] = field(default_factory=list)
    mode: str = "lexical"  # "hybrid" when a model took part
    key_terms: list[str] = field(default_factory=list)
    dropped: int = 0  # candidates that could not be resolved against the store (I6)
    missing: bool = False  # the note is gone or in the trash

    def as_json(self) -> dict[str, object]:
        return {"note_id": self.note_id, "mode": self.mode,
                "suggestions": [s.as_json() for s in self.suggestions]}


@dataclass
class _Evidence:
    lexical: float = 0.0
    similarity: float | None = None
    terms: tuple[str, ...] = ()


def _meaningful(term: str) -> bool:
    """A term worth matching on: no stopwords, no lone Latin letters, no short numbers."""
    if term in STOPWORDS:
        return False
    if _HAN_RE.search(term):
        return True
    if _LETTER_RE.search(term):
        return len(term) >= 2
    return len(term) >= 3  # "2024", "8080"


def key_terms(index: sqlite3.Connection, title: str, body: str,
              own_chunks: Sequence[int], limit: int = MAX_KEY_TERMS) -> dict[str, float]:
    """The note's defining terms with weights: (1 + log tf) × IDF over the *other* chunks.

    A term found only in this note matches nothing else, so it is left out.
    Single CJK characters count half: they are often particles or fragments.
    """
    counts = Counter(t for t in index_tokens(f"{title}\n{body}") if _meaningful(t))
    if not counts:
        return {}
    own_tokens = chunk_tokens(index, own_chunks)
    chunks, freqs = index_stats(index, list(counts))
    total = chunks - len(own_tokens)
    weights: dict[str, float] = {}
    for term, tf in counts.items():
        df = freqs.get(term, 0) - sum(1 for toks in own_tokens.values() if term in toks)
        if df <= 0 or total <= 0:
            continue
        idf = bm25_idf(total, df)
        factor = 0.5 if len(term) == 1 and _HAN_RE.match(term) else 1.0
        weights[term] = (1.0 + math.log(tf)) * idf * factor
    top = sorted(weights.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]
    return dict(top)


def _lexical_candidates(index: sqlite3.Connection, terms: Sequence[str]) -> list[int]:
    if not terms:
        return []
    match = " OR ".join(quote_fts_token(t) for t in terms)
    rows = index.execute(
        "SELECT rowid FROM kb_fts WHERE kb_fts MATCH ? ORDER BY bm25(kb_fts, 1.0, 2.0), rowid LIMIT ?",
        (match, LEXICAL_CANDIDATES)).fetchall()
    return [int(r[0]) for r in rows]


def _note_vectors(index: sqlite3.Connection, source_version: str, source: object,
                  own_chunks: Sequence[int], engine: EmbeddingEngine, dense: DenseIndex) -> np.ndarray:
    """Vectors of the note's chunks: from the index when it is current, else embedded now."""
    indexed = index.execute(
        "SELECT version FROM kb_sources WHERE source_type = 'note' AND source_id = ?",
        (source.source_id,)).fetchone()  # type: ignore[attr-defined]
    if indexed is not None and indexed[0] == source_version and own_chunks:
        ids = list(own_chunks)[:MAX_QUERY_CHUNKS]
        marks = ",".join("?" * len(ids))
        rows = index.execute(
            f"SELECT vector FROM kb_vectors WHERE model_id = ? AND chunk_id IN ({marks})",
            (dense.model_id, *ids)).fetchall()
        if len(rows) == len(ids):
            return np.stack([from_blob(r[0], dense.dim) for r in rows])
    texts = [embed_text_of(c.text, source.title)  # type: ignore[attr-defined]
             for c in chunk_source(source)][:MAX_QUERY_CHUNKS]  # type: ignore[arg-type]
    texts = [t for t in texts if t.strip()]
    if not texts:
        return np.empty((0, dense.dim), dtype=np.float32)
    return engine.embed_passages(texts)


def _dense_evidence(vectors: np.ndarray, dense: DenseIndex, extra: Iterable[int]) -> dict[int, float]:
    best: dict[int, float] = {}
    for vector in vectors:
        for cid, sim in dense.search(vector, DENSE_PER_CHUNK):
            if sim > best.get(cid, -1.0):
                best[cid] = sim
    missing = [cid for cid in extra if cid not in best]
    for vector in vectors:
        for cid, sim in dense.similarities(vector, missing).items():
            if sim > best.get(cid, -1.0):
                best[cid] = sim
    return best


def excluded_targets(store: sqlite3.Connection, note_id: int) -> set[SourceKey]:
    """The note itself, everything linked either way, and what was dismissed for it."""
    excluded: set[SourceKey] = {("note", note_id)}
    excluded |= {(link.target_type, link.target_id) for link in store_links.outgoing_links(store, note_id)}
    excluded |= {("note", link.note_id) for link in store_links.backlinks(store, "note", note_id)}
    excluded |= store_links.dismissed_targets(store, note_id)
    return excluded


def reason_terms(shared: Sequence[str]) -> list[str]:
    """The shared terms to show, strongest first.

    Single CJK characters help ranking short sentences but read as noise
    ("用", "了"), so they are shown only when nothing longer is shared.
    """
    words = [t for t in shared if not (len(t) == 1 and _HAN_RE.match(t))]
    return list((words or list(shared))[:MAX_REASON_TERMS])


def combined_score(evidence: _Evidence) -> float:
    dense = 0.0
    if evidence.similarity is not None:
        dense = max(0.0, evidence.similarity - DENSE_BASE) / (1.0 - DENSE_BASE)
    return evidence.lexical + DENSE_WEIGHT * dense


def _passes_floor(evidence: _Evidence) -> bool:
    return evidence.lexical >= MIN_LEXICAL or (
        evidence.similarity is not None and evidence.similarity >= MIN_SIMILARITY)


def related_for_note(
    index: sqlite3.Connection, store: sqlite3.Connection, note_id: int, *,
    engine: EmbeddingEngine | None = None, dense: DenseIndex | None = None,
    limit: int = DEFAULT_LIMIT, floor: bool = True,
) -> RelatedResult:
    result = RelatedResult(note_id)
    source = load_source(store, ("note", note_id))
    if source is None:
        result.missing = True
        return result
    if limit <= 0:
        return result
    own_chunks = [r[0] for r in index.execute(
        "SELECT id FROM kb_chunks WHERE source_type = 'note' AND source_id = ? ORDER BY ord", (note_id,))]
    own = set(own_chunks)
    weights = key_terms(index, source.title, source.text, own_chunks)
    result.key_terms = list(weights)
    lexical_ids = [cid for cid in _lexical_candidates(index, list(weights)) if cid not in own]

    similarities: dict[int, float] = {}
    use_dense = engine is not None and dense is not None and dense.ready and len(dense) > 0
    if use_dense:
        vectors = _note_vectors(index, source.version, source, own_chunks, engine, dense)  # type: ignore[arg-type]
        if len(vectors):
            similarities = _dense_evidence(vectors, dense, lexical_ids)  # type: ignore[arg-type]
            result.mode = "hybrid"
        else:
            use_dense = False

    candidates = list(dict.fromkeys(lexical_ids + [c for c in similarities if c not in own]))
    tokens = chunk_tokens(index, candidates)
    strongest = sorted(weights.values(), reverse=True)[:SATURATION_TERMS]
    saturation = sum(strongest) or 1.0
    evidence: dict[int, _Evidence] = {}
    for cid in candidates:
        shared = tuple(t for t in weights if t in tokens.get(cid, ()))
        evidence[cid] = _Evidence(
            lexical=min(1.0, sum(weights[t] for t in shared) / saturation),
            similarity=similarities.get(cid) if use_dense else None,
            terms=shared)

    # Aggregate per target: its best chunk speaks for it.
    refs = chunk_refs(index, candidates)
    excluded = excluded_targets(store, note_id)
    best: dict[SourceKey, tuple[float, int]] = {}
    for cid, ev in evidence.items():
        ref = refs.get(cid)
        if ref is None or ref.key in excluded:
            continue
        score = combined_score(ev)
        if ref.key not in best or score > best[ref.key][0]:
            best[ref.key] = (score, cid)

    def order(item: tuple[SourceKey, tuple[float, int]]) -> tuple[float, float, float, str, int]:
        key, (score, cid) = item
        ev = evidence[cid]
        return (-score, -ev.lexical, -(ev.similarity or 0.0), key[0], key[1])

    ranked = sorted(best.items(), key=order)
    if floor:
        ranked = [item for item in ranked if _passes_floor(evidence[item[1][1]])]
    shortlist = ranked[: limit * 3]
    sources = resolve_sources(store, [key for key, _ in shortlist])
    for key, (score, cid) in shortlist:
        ref = refs[cid]
        target = sources.get(key)
        if target is None or not fits(ref, target):
            result.dropped += 1
            continue
        ev = evidence[cid]
        terms = reason_terms(ev.terms)
        if ref.end > ref.start:
            snip = make_snippet(target.text, ref.start, ref.end, terms, max_chars=SNIPPET_CHARS)
            snippet, start, end = snip.text, snip.start, snip.end
            highlights = [(a - start, b - start) for a, b in snip.highlights]
        else:
            snippet, start, end, highlights = "", ref.start, ref.end, []
        result.suggestions.append(Suggestion(
            rank=len(result.suggestions) + 1, target_type=key[0], target_id=key[1],
            title=target.title, terms=terms, similarity=ev.similarity, snippet=snippet,
            highlights=highlights, start=start, end=end, score=score,
            document_id=target.document_id))
        if len(result.suggestions) >= limit:
            break
    return result
