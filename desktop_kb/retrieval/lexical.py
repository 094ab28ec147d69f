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

The index holds an identifier whole and as its parts (``macro_rules`` also as
``macro`` and ``rules``), so a question's word finds the identifiers that contain
it. Such a match is weaker than the word standing alone: "What are the ownership
rules?" is not about ``macro_rules!``. Where a hit holds a question's word only
inside identifiers, that word's share of its BM25 counts the square of how much of
the identifier the question names (:func:`part_discounted`): a quarter for
``macro_rules``, all of it for "interior mutability" in
``ch15-05-interior-mutability``. A word that also stands alone, or a question
naming the identifier itself, scores as before.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
import re
import sqlite3
from collections.abc import Collection

from desktop_kb.index import library_words, user_words
from desktop_kb.index.postings import MIN_DF, averages
from desktop_kb.index.segment import (
    QueryAnalysis,
    analyse_query,
    gram_spans,
    han_bigrams,
    identifier_parts,
    is_identifier,
    normalize,
)
from desktop_kb.index.term_df import is_plain
from desktop_kb.retrieval.fts_query import Alternative, alternatives, join_match, quote_fts_token
from desktop_kb.retrieval.stored_scores import BM25_B, combined_top, rank_rows, stored_entries
from desktop_kb.retrieval.term_stats import index_stats, token_rows
from desktop_kb.store.feed import snapshot
from desktop_kb.text.han import has_han

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
# The characters that join an identifier's parts (segment's connectors and "_"), and a token
# holding one: an identifier, whose parts follow it in the index text.
_JOINERS = re.escape("-._/+@#=:")
_JOINED_RE = re.compile(rf"(?<![^ ])[^ ]*[{_JOINERS}][^ ]*")
#: The rows :func:`part_discounted` reads, best first.
PART_ROWS = 2 * CERTAIN_TOP

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
    plain = [t for t in analysis.terms if not is_identifier(t) and not has_han(t)]
    with snapshot(index):  # counts, postings and rows of one moment
        total, doc_freq = index_stats(index, sorted({t for b in branches for t in b.tokens}))
        words = word_rows(index, branches, doc_freq, total, limit) if branches else []
        scores = dict(part_discounted(index, words, plain, set(analysis.all_terms), doc_freq, total))
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


def part_discounted(index: sqlite3.Connection, rows: list[tuple[int, float]], words: list[str],
                    asked: Collection[str], doc_freq: dict[str, int], total: int) -> list[tuple[int, float]]:
    """``rows`` (word-level BM25, best first) with each of ``words`` that a row holds only
    inside identifiers counting :func:`named_share` squared of its share (``asked``: every
    token of the question), best first again.

    A word's share is FTS5's ``bm25()`` term for it (its weighted count, body 1 and title
    2, against the row's length), recomputed from the row's tokens, where each identifier is
    followed by its parts (``segment.index_tokens``). Squared: a name the question half says is
    not what it asks about ("ownership rules" and ``macro_rules``). Rust book, keywords only,
    12 question sets: weighing a part by the share, its square or not at all changes R@1/R@5
    by -1/+3, 0/+3 and -1/+1 of 545 questions; left out one set at a time, the fit chose the
    square on 7 folds and no discount on 5 (R@1 ties decided by R@5): the gain is small and
    not sure; what the square does for certain is keep a half-named identifier from
    outranking the word itself.
    """
    words = [w for w in dict.fromkeys(words) if not has_han(w)]  # parts are never Han
    if not rows or not words:
        return rows
    n_rows, n_tokens = averages(index)
    if n_rows <= 0:
        return rows
    avgdl = n_tokens / n_rows
    wanted = set(words)
    # The best rows only (twice the shown top): reading every hit's tokens doubled the time of a
    # keyword search with a Latin word; below them a row keeps its score.
    best = [r for r, _ in rows[:PART_ROWS]]
    texts = [(rowid, body or "", title or "") for rowid, body, title in token_rows(index, best)]
    # One scan of all rows for a wanted word beside a connector (inside an identifier); only
    # those rows are read token by token.
    alts = "|".join(re.escape(w) for w in sorted(wanted, key=len, reverse=True))
    joined = "\n".join(f"{body}\n{title}" for _, body, title in texts)
    starts = list(itertools.accumulate((len(body) + len(title) + 2 for _, body, title in texts), initial=0))
    touched = sorted({bisect.bisect_right(starts, m.start()) - 1 for m in re.finditer(
        rf"[{_JOINERS}](?:{alts})|(?:{alts})[{_JOINERS}]", joined)})
    scores = dict(rows)
    for rowid, body, title in (texts[i] for i in touched):
        named: dict[str, float] = {}  # word -> its weight as the best-named identifier's part
        inside = dict.fromkeys(wanted, 0.0)  # weighted count of the word as a part
        columns = ((body, 1.0), (title, 2.0))
        for text, weight in columns:
            for ident in _JOINED_RE.findall(text):
                parts = identifier_parts(ident)
                if len(parts) < 2 or not is_identifier(ident) or wanted.isdisjoint(parts):
                    continue
                share = named_share(parts, asked) ** 2
                for part in wanted.intersection(parts):
                    named[part] = max(named.get(part, 0.0), share)
                    inside[part] += weight * parts.count(part)
        if not named or min(named.values()) >= 1.0:
            continue
        # Columns hold single-space-joined tokens: a word's count is its whole-token matches.
        held = {w: sum(weight * len(_whole(w).findall(text)) for text, weight in columns) for w in named}
        length = sum(text.count(" ") + 1 for text, _ in columns if text)
        norm = BM25_K1 * (1.0 - BM25_B + BM25_B * length / avgdl)
        lost = sum((1.0 - named[w]) * fts5_idf(total, doc_freq.get(w, 0)) * held[w] * (BM25_K1 + 1)
                   / (held[w] + norm) for w in named if held[w] > 0 and held[w] <= inside[w])
        if lost:
            scores[rowid] = max(0.0, scores[rowid] - lost)
    return rank_rows(list(scores.items()))


@functools.lru_cache(maxsize=256)
def _whole(word: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\S){re.escape(word)}(?!\S)")


def named_share(parts: list[str], asked: Collection[str]) -> float:
    """How much of an identifier the question names: the share of its word parts (those
    without digits: ``ch04``, ``05``, ``v1`` number things, they do not name them) that are
    words of the question. "ownership rules" names half of ``macro_rules``, "interior
    mutability" all of ``ch15-05-interior-mutability``."""
    named = [p for p in parts if not any(c.isdigit() for c in p)] or parts
    return sum(p in asked for p in named) / len(named)


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
    # While the library's own words are being re-cut, some passages hold them as the old set cut them.
    folded = normalize(query)
    recut = [w for w in library_words.recutting(index) if w in folded]
    spans = list(dict.fromkeys(unknown + recut + gram_spans(query)))
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
