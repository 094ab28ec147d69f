"""Search orchestration: rank chunk ids (lexical, dense or fused), then resolve once (I6)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from desktop_kb.embed.engine import EmbeddingEngine
from desktop_kb.index import user_words
from desktop_kb.index.segment import QueryAnalysis, analyse_query
from desktop_kb.retrieval.calibration import MIN_CHUNKS, read_for_question
from desktop_kb.retrieval.candidates import Candidates, gather, gather_concurrently
from desktop_kb.retrieval.dense import DenseIndex
from desktop_kb.retrieval.fusion import (
    agreement_pair,
    fuse_scores,
    order,
    plain_rrf,
    relevance_floor,
)
from desktop_kb.retrieval.language_pull import without_language_pull
from desktop_kb.retrieval.regional_words import in_library_words
from desktop_kb.retrieval.relevance import (
    KEYWORD_COVERAGE,
    NAME_COVERAGE,
    dense_bar,
    held_terms,
    in_conflict,
    keyword_reading,
    meaning_may_vouch,
    name_bar,
    names_unknown_word,
    required_coverage,
)
from desktop_kb.retrieval.resolve import (
    ChunkRef,
    ResolvedSource,
    chunk_documents,
    chunk_refs,
    fits,
    resolve_sources,
)
from desktop_kb.retrieval.results import NOTHING_NOTICE, WEAK_NOTICE, SearchResponse, SearchResult
from desktop_kb.retrieval.script_levels import read_in_own_script
from desktop_kb.retrieval.snippets import make_snippet
from desktop_kb.retrieval.term_stats import index_stats
from desktop_kb.retrieval.tuning import Tuning
from desktop_kb.store import feed

CANDIDATES_PER_RESULT = 5
MODES = ("lexical", "dense", "hybrid", "rrf")


@dataclass
class Ranking:
    """Ranked chunk ids with both sides' scores, before anything is resolved."""

    ranked: list[tuple[int, float]] = field(default_factory=list)
    scores: dict[int, tuple[float, float]] = field(default_factory=dict)  # cid -> (lexical, dense)
    query_vector: np.ndarray | None = None
    best_dense: float = 0.0  # best cosine seen, for the relevance floor
    lexical_hits: int = 0
    floor: float | None = None  # the cosine under which dense-only hits mean "nothing"
    terms: list[str] = field(default_factory=list)  # the query's meaningful terms (highlights)
    operators: list[str] = field(default_factory=list)  # its operators (kb_ops; highlights)
    # The query as searched: regional words the library lacks put in the ones it holds
    # (retrieval/regional_words.py); the query itself when nothing was replaced.
    searched_as: str = ""
    refs: dict[int, ChunkRef] = field(default_factory=dict)  # chunk rows read for the tie-break
    candidates: Candidates | None = None  # both sides' evidence
    evidence: float = 0.0  # share of the question's informative weight the best keyword hit holds
    coverage: float = KEYWORD_COVERAGE  # the evidence that counts as finding the question
    dense_bar: float | None = None  # with weak keyword evidence, the cosine that counts
    # The question names something the library never mentions and keywords hold under
    # relevance.NAME_COVERAGE of it: only meaning search at ``name_bar`` vouches for it.
    unknown_name: bool = False
    name_bar: float | None = None
    # False where keywords could have found the question (another script than the library's, which
    # writes in the question's script too) and hold almost none of it: meaning does not vouch for it.
    meaning_vouches: bool = True


def _tie_breaker(refs: dict[int, ChunkRef]) -> Callable[[int], tuple[int, int]]:
    def tie(cid: int) -> tuple[int, int]:
        ref = refs.get(cid)
        return (ref.source_id, ref.ord) if ref else (1 << 62, cid)

    return tie


def _document_groups(store: sqlite3.Connection, cand: Candidates,
                     refs: dict[int, ChunkRef]) -> np.ndarray | None:
    """Document labels for the agreement rule, read from the store only when it can act.

    The rule keeps a document first when the keyword favourite and the dense first
    share it (``fusion.agreement_pair``). When the two are chunks of different
    documents, labelling each chunk on its own (None) gives the same scores, so the
    lookup of every candidate's document is skipped.
    """
    pair = agreement_pair(cand)
    if pair is None:
        return None
    firsts = [int(cand.ids[i]) for i in pair]
    if firsts[0] != firsts[1]:
        known = {c: refs[c] for c in firsts if c in refs}
        documents = chunk_documents(store, known)
        if documents.get(firsts[0], ("chunk", firsts[0])) != documents.get(firsts[1], ("chunk", firsts[1])):
            return None
    documents = chunk_documents(store, refs)
    labels: dict[object, int] = {}
    return np.array([labels.setdefault(documents.get(c, ("chunk", c)), len(labels))
                     for c in cand.ids.tolist()])


def _result_units(cand: Candidates, refs: dict[int, ChunkRef]) -> np.ndarray:
    """The result each candidate is shown as (its note or fragment: ``materialize`` lists one
    per source), from the chunk rows already read; a chunk without a row is a result of its own."""
    labels: dict[object, int] = {}
    return np.array([labels.setdefault(ref.key if (ref := refs.get(c)) is not None else ("chunk", c), len(labels))
                     for c in cand.ids.tolist()], dtype=np.int64)


def rank_chunks(
    index: sqlite3.Connection, query: str, *, mode: str, engine: EmbeddingEngine | None,
    dense: DenseIndex | None, tuning: Tuning | None = None, store: sqlite3.Connection | None = None,
) -> Ranking:
    """Rank chunks; with ``store``, hybrid knows which document each chunk belongs to."""
    if mode not in MODES:
        raise ValueError(f"unknown search mode {mode!r}; choose one of {', '.join(MODES)}")
    tuning = tuning or Tuning()
    ranking = Ranking()
    user_words.sync(index)  # cut the query the way this index's rows were cut
    query = ranking.searched_as = in_library_words(index, query)
    analysis = analyse_query(query)
    ranking.terms = analysis.terms
    ranking.operators = analysis.operators
    keywords: list[KeywordReading] = []
    hashes: dict[int, str] = {}
    early: dict[int, ChunkRef] = {}

    def meanwhile(hits: Candidates) -> None:
        keywords.append(_read_keywords(index, query, analysis, hits))
        if mode in ("hybrid", "rrf"):
            _read_ahead(index, hits, tuning if mode == "hybrid" else None, early, hashes)

    if mode == "lexical":
        vector = None
        cand = gather(index, query, analysis, query_vector=None, dense=None)
    else:
        # Meaning-only search gathers the keyword side too, unranked: the floor's keyword
        # readings (evidence, names the library lacks, relevance.meaning_may_vouch) read it, and
        # without it every English question on a Chinese book was 'nothing close'. They read
        # the keyword hits alone, so they are made while the dense side still runs, and so are
        # the keyword hits' rows and script weights that fusion reads next.
        cand, vector = gather_concurrently(index, query, analysis, engine=engine, dense=dense,
                                           meanwhile=meanwhile)
    ranking.query_vector = vector
    ranking.candidates = cand
    ranking.lexical_hits = cand.lexical_hits
    ranking.best_dense = cand.best_cosine
    ranking.floor = relevance_floor(tuning.calibration, tuning.params, analysis.has_cjk, vector,
                                   tuning.reference)
    keyword = keywords[0] if keywords else _read_keywords(index, query, analysis, cand)
    ranking.evidence, ranking.unknown_name = keyword.evidence, keyword.unknown_name
    ranking.coverage = required_coverage(tuning.calibration, tuning.reference)
    ranking.dense_bar = dense_bar(ranking.floor, tuning.calibration, tuning.reference, analysis.has_cjk,
                                  in_conflict(ranking.evidence, cand))
    ranking.name_bar = name_bar(ranking.floor, tuning.calibration, tuning.reference)
    ranking.meaning_vouches = meaning_may_vouch(ranking.evidence, tuning.calibration, analysis.has_cjk)
    if mode == "lexical":
        ranking.ranked = [(int(c), float(b)) for c, b in zip(cand.ids, cand.bm25, strict=True) if b > 0]
        ranking.scores = {cid: (s, 0.0) for cid, s in ranking.ranked}
        return ranking
    ids = [int(c) for c in cand.ids]
    if mode == "dense":
        # Meaning alone is read as hybrid reads it: without that reading an English question
        # on a Chinese book finds the book's English pages, whatever it asks. A question in the
        # library's own script is left as it is: the levels are there for the other script's,
        # and reading its cosines against them lifted code and English pages over Chinese
        # chapters (multilingual-e5, Rust book set 14: variant R@1 1.0 -> 0.8).
        known = tuning.calibration is not None and tuning.calibration.han_share >= 0
        own = known and tuning.calibration.measured_in_script_of(analysis.has_cjk)
        read = cand if own else _read_cosines(index, cand, ids, vector, dense, tuning)
        listed = np.flatnonzero(read.dense_rank > 0)
        listed = listed[np.lexsort((read.dense_rank[listed], -read.cosine[listed]))]
        ranking.ranked = [(int(cand.ids[i]), max(0.0, float(read.cosine[i]))) for i in listed]
        ranking.scores = {cid: (0.0, score) for cid, score in ranking.ranked}
        return ranking
    refs = ranking.refs = {**early, **chunk_refs(index, [c for c in ids if c not in early],
                                                  hashes if tuning.scripts is not None else None)}
    tie = _tie_breaker(refs)
    if mode == "rrf":
        fused = plain_rrf(cand, tie)
    else:
        read = _read_cosines(index, cand, ids, vector, dense, tuning, hashes)
        groups = _document_groups(store, read, refs) if store is not None else None
        units = _result_units(read, refs) if tuning.params.overturn_gap else None
        calibration = read_for_question(tuning.calibration, vector, tuning.centre, analysis.has_cjk,
                                        tuning.reference is not None and tuning.reference.across_scripts)
        fused = order(read, fuse_scores(read, calibration, tuning.params, groups, units), tie)
    ranking.ranked = [(f.chunk_id, f.score) for f in fused]
    ranking.scores = {f.chunk_id: (f.lexical, f.dense) for f in fused}
    return ranking


def _read_ahead(index: sqlite3.Connection, hits: Candidates, tuning: Tuning | None,
                refs: dict[int, ChunkRef], hashes: dict[int, str]) -> None:
    """The keyword hits' chunk rows (into ``refs``, their text hashes into ``hashes``) and
    their script weights (remembered by ``ScriptLevels``), read while the meaning side still
    runs on the other core: at 10⁶ chunks its Hamming scan and vector reads take longer than
    keyword search, and this thread only waited for them. The same rows and weights as
    reading them with the meaning side's chunks afterwards."""
    ids = [int(c) for c in hits.ids]
    if not ids:
        return
    scripts = tuning.scripts if tuning is not None else None
    refs.update(chunk_refs(index, ids, hashes if scripts is not None else None))
    if scripts is not None:
        scripts.weights(index, ids, hits.hit_bodies, hashes)


@dataclass(frozen=True)
class KeywordReading:
    """What the keyword hits alone say about the question (``relevance``)."""

    evidence: float  # share of the question's informative weight the best keyword hit holds
    unknown_name: bool  # it names a word the library never mentions, and keywords hold little


def _read_keywords(index: sqlite3.Connection, query: str, analysis: QueryAnalysis,
                   cand: Candidates) -> KeywordReading:
    """The keyword hits' reading of the question: reads their rows (``lex_rank > 0``) only."""
    held = held_terms(index, [*analysis.terms, *analysis.operators], cand, analysis.operators)
    evidence, passing = keyword_reading(index, analysis.terms, cand, analysis.operators, held)
    # A word missing from a handful of notes says nothing: the library is too small to lack it.
    chunks, doc_freq = index_stats(index, analysis.terms)
    return KeywordReading(evidence, evidence < NAME_COVERAGE and chunks >= MIN_CHUNKS and names_unknown_word(
        analysis.terms, doc_freq, query, frozenset().union(*held.values()), passing))


def _read_cosines(index: sqlite3.Connection, cand: Candidates, ids: list[int], vector: np.ndarray | None,
                  dense: DenseIndex | None, tuning: Tuning, text_hashes: dict[int, str] | None = None
                  ) -> Candidates:
    """The cosines as fusion reads them: each against its own script's level (a library of two
    scripts), less an English question's pull toward English passages (``text_hashes``: the
    chunks' text hashes, when the caller read them with their rows)."""
    read = cand
    if tuning.scripts is not None:
        weights = tuning.scripts.weights(index, ids, cand.hit_bodies, text_hashes)
        read = read_in_own_script(cand, tuning.scripts.offsets(vector, weights))
    return without_language_pull(read, dense, tuning.reference, tuning.calibration)


def nothing_relevant(ranking: Ranking) -> bool:
    """Keywords hold too little of the question (``relevance``), and no dense hit reaches the
    bar (or there is no dense side at all, or meaning may not vouch: ``relevance.meaning_may_vouch``);
    or the question names something the library never mentions, keywords hold little of it and
    meaning search does not vouch for it."""
    if ranking.query_vector is None:
        return ranking.evidence < KEYWORD_COVERAGE or ranking.unknown_name
    if ranking.unknown_name and ranking.name_bar is not None and ranking.best_dense < ranking.name_bar:
        return True
    if ranking.evidence >= ranking.coverage:
        return False
    if not ranking.meaning_vouches:
        return True
    return ranking.dense_bar is not None and ranking.best_dense < ranking.dense_bar


def weak_matches_shown(ranking: Ranking) -> bool:
    """A search under the floor lists its keyword hits anyway, marked as weak.

    Keyword evidence cannot tell a question in everyday words from one the library does not
    hold (on the Rust book, colloquial questions found at rank 1 hold 13-14 % of their
    weight; half of the CMRC questions asked of it hold over 15 %): hiding hits that contain
    the person's own words loses what keyword search finds, with or without a model (hybrid
    must never be worse than keywords alone). A list under an honest notice costs nothing and
    sends nothing; the QA pane, which would upload snippets, still refuses
    (``nothing_relevant``). Dense-only hits stay hidden: they are the least-bad noise the
    floor is there to keep out (DESIGN §5).
    """
    return ranking.lexical_hits > 0


def _keyword_hits_only(ranking: Ranking) -> list[tuple[int, float]]:
    """The ranking without the chunks only the dense side listed (weak matches)."""
    cand = ranking.candidates
    if cand is None:
        return ranking.ranked
    held = set(cand.ids[cand.lex_rank > 0].tolist())
    return [(cid, score) for cid, score in ranking.ranked if cid in held]


def materialize(
    index: sqlite3.Connection, store: sqlite3.Connection, ranked: Sequence[tuple[int, float]],
    terms: Sequence[str], limit: int, *, per_source: bool = True,
    scores: dict[int, tuple[float, float]] | None = None,
    refs: dict[int, ChunkRef] | None = None,
) -> tuple[list[SearchResult], int]:
    """Turn ranked ``(chunk_id, score)`` pairs into results; returns (results, dropped).

    With ``per_source`` only the best chunk of each note or fragment is shown.
    ``refs`` are chunk rows the caller already read (the rest are read here).
    """
    ranked = list(ranked)[: max(limit * CANDIDATES_PER_RESULT, 50)]
    refs = dict(refs or {})
    missing = [cid for cid, _ in ranked if cid not in refs]
    if missing:
        refs.update(chunk_refs(index, missing))
    sources: dict[tuple[str, int], ResolvedSource] = {}
    asked: set[tuple[str, int]] = set()
    results: list[SearchResult] = []
    seen: set[tuple[str, int]] = set()
    dropped = 0
    for i, (cid, score) in enumerate(ranked):
        ref = refs.get(cid)
        if ref is not None and ref.key not in asked:
            # Read sources (whole texts) only as far down the list as results are still
            # missing: the next ones not read yet, as many as there are free slots.
            want = list(dict.fromkeys(
                r.key for c, _ in ranked[i:] if (r := refs.get(c)) is not None
                and r.key not in asked))[: max(1, limit - len(results))]
            sources.update(resolve_sources(store, want))
            asked.update(want)
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
            lexical_score=lex, dense_score=dense, path=source.path, page=source.page,
            page_end=source.page_end,
        ))
        if len(results) >= limit:
            break
    return results, dropped


def search(
    index: sqlite3.Connection, store: sqlite3.Connection, query: str, *, limit: int = 10,
    mode: str = "lexical", engine: EmbeddingEngine | None = None, dense: DenseIndex | None = None,
    tuning: Tuning | None = None,
) -> SearchResponse:
    response = SearchResponse(query=query, mode=mode)
    if mode in ("dense", "hybrid", "rrf") and (engine is None or dense is None or not dense.ready):
        response.notice = "no embedding model in use: keyword search only"
        if mode == "dense":
            return response
        mode = response.mode = "lexical"
    if limit <= 0:
        return response
    # The hits' ids and their rows from one moment of the index: a rebuild (the first start
    # after an upgrade) or a save may rewrite a chunk in between, and every hit was dropped.
    with feed.snapshot(index):
        return _search(index, store, query, response, limit=limit, mode=mode, engine=engine,
                       dense=dense, tuning=tuning)


def _search(
    index: sqlite3.Connection, store: sqlite3.Connection, query: str, response: SearchResponse, *,
    limit: int, mode: str, engine: EmbeddingEngine | None, dense: DenseIndex | None,
    tuning: Tuning | None,
) -> SearchResponse:
    ranking = rank_chunks(index, query, mode=mode, engine=engine, dense=dense, tuning=tuning, store=store)
    if ranking.searched_as != query:
        response.searched_as = ranking.searched_as
    if nothing_relevant(ranking):
        # A hybrid search that fell back to keywords keeps saying so (I7): the degraded state
        # is the first thing to fix when nothing is found.
        if not weak_matches_shown(ranking):
            response.notice = response.notice or NOTHING_NOTICE
            return response
        response.weak_matches = True
    ranked = _keyword_hits_only(ranking) if response.weak_matches else ranking.ranked
    response.results, response.dropped = materialize(
        index, store, ranked, ranking.terms + ranking.operators, limit, scores=ranking.scores,
        refs=ranking.refs)
    if response.weak_matches:
        response.notice = response.notice or WEAK_NOTICE
        response.settle_weak_matches()
    return response
