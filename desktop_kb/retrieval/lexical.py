"""Lexical retrieval: FTS5 BM25 over segmented text. Returns ``(chunk_id, score)`` only (I6).

FTS5 has no early exit: it scores every row that any OR branch matches before
``ORDER BY … LIMIT``, and scoring (``bm25()``: each row's instances and length)
costs about ten times what finding the row does. Most matched rows are there
for a common term only ("时候", "rust" in a Rust library) and can never reach
the top. So branches are split by document frequency: the rarest, whose summed
frequencies stay within :data:`POSTINGS_BUDGET` (the rarest always), are
*scored*; the others are *common*. Two FTS5 queries then give every row that
holds a scored branch its exact full-query BM25 (:func:`split_match`): the
scored branches alone, and ``(scored) AND (common)`` for the rows that hold
both — BM25 is a sum over the query's phrases, each with its own IDF over the
whole index, so the second query's score is the full query's. Left out are the
rows that hold common terms only. Such a row cannot reach the top
:data:`CERTAIN_TOP` when the :data:`CERTAIN_TOP`-th best full score beats the
sum of the common branches' bounds: a BM25 phrase adds at most
``(k1 + 1)·IDF`` to any row, as FTS5's ``bm25()`` saturates term frequency
(MaxScore). Otherwise the rarest common branches move into the scored set
until that sum falls under that score, within :data:`POSTINGS_CAP` rows (or
:data:`CAP_SHARE` of the library), and the query runs once more
(:func:`ranked_rows`): the top :data:`CERTAIN_TOP` is then exactly the
unsplit query's. Fusion still sees every query term through term coverage.

Common words with stored postings (index/postings.py) skip all of this: they
are scored exactly with numpy over every row that holds them
(retrieval/stored_scores.py), and FTS5 scores only the other branches (rare
words, phrases) over all their rows, so every row gets its full-query BM25
without walking or scoring a common word's rows in FTS5
(:func:`word_rows`). A query whose other branches match more than
:data:`REST_BUDGET` rows, or whose common words wait for their postings (just
saved), takes the split above.

Words the segmenter does not know are matched by their ideograph pairs
(``kb_grams``) when the word-level match is weak: a query word the index has
never seen, or a stretch the segmenter chops into single characters
(:func:`~desktop_kb.index.segment.gram_spans`). Each such stretch becomes an
exact phrase of its bigrams, scored by BM25 in ``kb_grams`` and added, with
weight :data:`GRAM_WEIGHT`, to the word-level score of the same chunk.

Operators made only of punctuation (``?``, ``//!``, ``'a``), which no word token
holds, are matched in their own table (``kb_ops``) and their BM25 there is added
the same way (:data:`OP_WEIGHT`): a question about ``//!`` is no longer matched
on its other words only, and every other question scores exactly as before.
"""

from __future__ import annotations

import math
import sqlite3

from desktop_kb.index import user_words
from desktop_kb.index.postings import MIN_DF
from desktop_kb.index.segment import QueryAnalysis, analyse_query, gram_spans, han_bigrams
from desktop_kb.index.term_df import is_plain
from desktop_kb.retrieval.fts_query import Alternative, alternatives, join_match, quote_fts_token
from desktop_kb.retrieval.stored_scores import combined_top, rank_rows, stored_entries
from desktop_kb.retrieval.term_stats import index_stats
from desktop_kb.store.feed import snapshot

# Body matches matter most; a hit in the title (or heading path) is a strong signal too.
_BM25 = "bm25(kb_fts, 1.0, 2.0)"

#: Rows the first FTS5 query may score, summed over the scored branches' document
#: frequencies (the rest only score rows that hold a scored branch as well).
POSTINGS_BUDGET = 1_000
#: Rows the scored set may widen to when common branches could still reach the top.
#: Both chosen at 10⁵ chunks against the unsplit query (``benchmarks/bench_lexical_split.py``,
#: CPU time, 300 real questions and another 300 held out): the lexical top 10 keeps
#: 0.998 / 0.999 of its rows (the cap stops a few widenings), the hybrid top 10 0.998
#: of its rows (295 of 300 lists identical), at p50 5.0 against the unsplit query's
#: 16.5 ms; last session's split without widening (budget 5,000) took 11 ms at p50
#: for the same 0.998. No question of CMRC trial or DRCD dev is split.
POSTINGS_CAP = 5_000
#: ... or this share of the library, whichever is larger: at 10⁶ chunks every term
#: matches ten times the rows it does at 10⁵, and a fixed cap would stop more widenings.
#: At 10⁶ (300 real questions, CPU time, ``bench_lexical_split.py --cap-share``) the
#: keyword top 10 equals full scoring at 0.9887 / 0.9970 / 1.0000 of places with
#: 1 / 2 / 5 %, at p99 195 / 198 / 295 ms: 2 % keeps the top 10 exact but for 0.3 %
#: of places and spares the widest questions a third of their time (at 10⁵ the
#: fixed cap of 5,000 rows governs either way).
CAP_SHARE = 0.02
#: The top this many rows are the unsplit query's whenever the cap allows (shown results).
CERTAIN_TOP = 10
#: FTS5's ``bm25()`` constants (fts5_aux.c): a phrase adds at most ``(k1 + 1)·IDF``.
BM25_K1 = 1.2
#: Rows FTS5 may score for the branches without stored postings before the query
#: is split instead (about 13 ms of ``bm25()`` at most).
REST_BUDGET = 5_000
#: How much an exact bigram-phrase match adds to a chunk's word-level BM25.
GRAM_WEIGHT = 1.0
#: How much an operator's BM25 in ``kb_ops`` adds to a chunk's word-level BM25: as
#: much as a word's (an operator is a word of the question like any other).
OP_WEIGHT = 1.0
#: Rows the bigram query may score (its rarest phrases first).
GRAM_POSTINGS_BUDGET = 5_000

_RANKED = f"SELECT rowid, {_BM25} AS s FROM kb_fts WHERE kb_fts MATCH ? ORDER BY s, rowid LIMIT ?"
# A row holding a scored and a common branch is in both halves; its full score is
# the second (more negative: every phrase adds ≥ 0 to BM25 before negation).
_RANKED_SPLIT = (
    f"SELECT rowid, min(s) AS s FROM ("
    f"SELECT rowid, {_BM25} AS s FROM kb_fts WHERE kb_fts MATCH ? UNION ALL "
    f"SELECT rowid, {_BM25} AS s FROM kb_fts WHERE kb_fts MATCH ?) "
    "GROUP BY rowid ORDER BY s, rowid LIMIT ?")


def branch_costs(branches: list[Alternative], doc_freq: dict[str, int]) -> dict[str, int]:
    """Rows each branch can match: a phrase matches at most as many as its rarest token."""
    return {b.match: min(doc_freq.get(t, 0) for t in b.tokens) for b in branches}


def prune(branches: list[Alternative], doc_freq: dict[str, int],
          budget: int = POSTINGS_BUDGET) -> list[Alternative]:
    """The branches worth scoring: rarest first within ``budget`` rows, in query order.

    A branch that matches nothing costs nothing and is kept (it may still be a
    phrase typo).
    """
    if not branches:
        return []
    cost = branch_costs(branches, doc_freq)
    kept: set[str] = set()
    spent = 0
    for b in sorted(branches, key=lambda b: cost[b.match]):
        if kept and spent + cost[b.match] > budget:
            break
        kept.add(b.match)
        spent += cost[b.match]
    return [b for b in branches if b.match in kept]


def fts5_idf(total: int, hits: int) -> float:
    """FTS5's ``bm25()`` IDF of a phrase in ``hits`` of ``total`` rows (clamped at 1e-6)."""
    idf = math.log((total - hits + 0.5) / (hits + 0.5))
    return idf if idf > 0 else 1e-6


def upper_bound(branch: Alternative, total: int, cost: int) -> float:
    """The most ``branch`` can add to any row's BM25 (a phrase's own row count is
    unknown, only capped by its rarest token's: bound it as if it matched none)."""
    return (BM25_K1 + 1) * fts5_idf(total, cost if len(branch.tokens) == 1 else 0)


def widen(scored: list[Alternative], branches: list[Alternative], doc_freq: dict[str, int],
          total: int, threshold: float, cap: int = POSTINGS_CAP) -> list[Alternative]:
    """``scored`` plus the rarest other branches, until the rest could not lift a row
    that holds only them to ``threshold`` (or the next would pass ``cap`` rows)."""
    cost = branch_costs(branches, doc_freq)
    kept = {b.match for b in scored}
    rest = sorted((b for b in branches if b.match not in kept), key=lambda b: cost[b.match])
    reach = sum(upper_bound(b, total, cost[b.match]) for b in rest)
    spent = sum(cost[m] for m in kept)
    for b in rest:
        if reach < threshold or spent + cost[b.match] > cap:
            break
        kept.add(b.match)
        spent += cost[b.match]
        reach -= upper_bound(b, total, cost[b.match])
    return [b for b in branches if b.match in kept]


def split_match(branches: list[Alternative], doc_freq: dict[str, int],
                budget: int = POSTINGS_BUDGET) -> tuple[str, str | None] | None:
    """(scored MATCH, ``(scored) AND (common)`` MATCH or None when nothing is common).

    None when there is nothing to search.
    """
    return _split_of(prune(branches, doc_freq, budget), branches)


def _split_of(scored: list[Alternative], branches: list[Alternative]) -> tuple[str, str | None] | None:
    """The MATCH pair for ``scored`` out of ``branches`` (see :func:`split_match`)."""
    kept = {b.match for b in scored}
    first = join_match(scored)
    if first is None:
        return None
    rest = join_match([b for b in branches if b.match not in kept])
    return first, (f"({first}) AND ({rest})" if rest is not None else None)


def lexical_search(index: sqlite3.Connection, query: str, limit: int = 50,
                   analysis: QueryAnalysis | None = None) -> list[tuple[int, float]]:
    """Best chunks first; scores are ≥ 0 (negated BM25) so they can cross a seam safely.

    ``analysis`` is ``analyse_query(query)`` when the caller already has it (made
    after ``user_words.sync`` on this index): the query is then not cut again.
    """
    if analysis is None:
        user_words.sync(index)  # cut the query the way this index's rows were cut
        analysis = analyse_query(query)
    branches = alternatives(analysis)
    if not branches and not analysis.operators:
        return []
    with snapshot(index):  # counts, postings and rows of one moment
        total, doc_freq = index_stats(index, sorted({t for b in branches for t in b.tokens}))
        scores = dict(word_rows(index, branches, doc_freq, total, limit)) if branches else {}
        if GRAM_WEIGHT > 0 and branches:
            for rowid, score in _gram_hits(index, query, analysis, doc_freq, limit).items():
                scores[rowid] = scores.get(rowid, 0.0) + GRAM_WEIGHT * score
        for rowid, score in _operator_hits(index, analysis, limit).items():
            scores[rowid] = scores.get(rowid, 0.0) + OP_WEIGHT * score
    ranked = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
    return ranked[:limit]


def word_rows(index: sqlite3.Connection, branches: list[Alternative], doc_freq: dict[str, int],
              total: int, limit: int) -> list[tuple[int, float]]:
    """Word-level BM25 (≥ 0) of the best ``limit`` rows, best first: exact for every row
    when the common words have stored postings, else :func:`ranked_rows`."""
    common = [b.tokens[0] for b in branches if len(b.tokens) == 1 and is_plain(b.tokens[0])
              and doc_freq.get(b.tokens[0], 0) >= MIN_DF]
    entries = stored_entries(index, common) if common else {}
    rest = [b for b in branches if not (len(b.tokens) == 1 and b.tokens[0] in entries)]
    if not entries or sum(branch_costs(rest, doc_freq).values()) > REST_BUDGET:
        return ranked_rows(index, branches, doc_freq, total, limit)
    match = join_match(rest)
    other = [] if match is None else [
        (int(rowid), max(0.0, -float(score)))
        for rowid, score in index.execute(f"SELECT rowid, {_BM25} FROM kb_fts WHERE kb_fts MATCH ?",
                                          (match,))]
    return combined_top(index, entries, other, limit)


def ranked_rows(index: sqlite3.Connection, branches: list[Alternative], doc_freq: dict[str, int],
                total: int, limit: int, budget: int | None = None,
                cap: int | None = None) -> list[tuple[int, float]]:
    """Word-level BM25 (≥ 0) of the best ``limit`` rows holding a scored branch, best first;
    the top :data:`CERTAIN_TOP` are the unsplit query's unless ``cap`` stopped the widening."""
    budget = POSTINGS_BUDGET if budget is None else budget
    cap = max(POSTINGS_CAP, int(CAP_SHARE * total)) if cap is None else cap
    scored = prune(branches, doc_freq, budget)
    rows = _run_split(index, scored, branches, limit)
    if len(scored) < len(branches):
        kth = rows[CERTAIN_TOP - 1][1] if len(rows) >= CERTAIN_TOP else 0.0
        wider = widen(scored, branches, doc_freq, total, kth, max(cap, budget))
        if len(wider) > len(scored):
            rows = _run_split(index, wider, branches, limit)
    return rows


def _run_split(index: sqlite3.Connection, scored: list[Alternative], branches: list[Alternative],
               limit: int) -> list[tuple[int, float]]:
    parts = _split_of(scored, branches)
    if parts is None:
        return []
    first, both = parts
    rows = (index.execute(_RANKED, (first, limit)) if both is None
            else index.execute(_RANKED_SPLIT, (first, both, limit)))
    # Rounded as the stored path rounds (ties by rowid in both); the cut at ``limit`` is
    # still FTS5's exact order, which can differ only between rows one ulp apart.
    return rank_rows([(int(rowid), max(0.0, -float(score))) for rowid, score in rows])


def _operator_hits(index: sqlite3.Connection, analysis: QueryAnalysis, limit: int) -> dict[int, float]:
    """BM25 in ``kb_ops`` of the question's operators (none: no query)."""
    match = join_match([Alternative(quote_fts_token(op), (op,)) for op in analysis.operators])
    if match is None:
        return {}
    try:
        rows = index.execute("SELECT rowid, bm25(kb_ops) AS s FROM kb_ops WHERE kb_ops MATCH ? "
                             "ORDER BY s, rowid LIMIT ?", (match, limit)).fetchall()
    except sqlite3.OperationalError:  # an index written before kb_ops (rebuilt on start)
        return {}
    return {int(rowid): max(0.0, -float(score)) for rowid, score in rows}


def _gram_hits(index: sqlite3.Connection, query: str, analysis: QueryAnalysis,
               doc_freq: dict[str, int], limit: int) -> dict[int, float]:
    """BM25 of exact bigram phrases for the query's doubtful stretches (none: no query)."""
    unknown = [t for t in analysis.terms if len(t) > 1 and not doc_freq.get(t)
               and han_bigrams(t)]
    spans = list(dict.fromkeys(unknown + gram_spans(query)))
    branches = [Alternative(quote_fts_token(" ".join(grams)), tuple(grams))
                for grams in (han_bigrams(span) for span in spans) if grams]
    if not branches:
        return {}
    grams = sorted({g for b in branches for g in b.tokens})
    marks = ",".join("?" * len(grams))
    gram_freq = dict(index.execute(
        f"SELECT term, doc FROM kb_grams_vocab WHERE term IN ({marks})", grams).fetchall())
    match = join_match(prune(branches, gram_freq, GRAM_POSTINGS_BUDGET))
    if match is None:
        return {}
    return {int(rowid): max(0.0, -float(score)) for rowid, score in index.execute(
        "SELECT rowid, bm25(kb_grams) AS s FROM kb_grams WHERE kb_grams MATCH ? "
        "ORDER BY s, rowid LIMIT ?", (match, limit))}
