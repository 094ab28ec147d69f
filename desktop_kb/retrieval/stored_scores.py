"""Word-level BM25 from stored postings: FTS5's ``bm25()``, without its walks.

Common words (those with an entry in ``kb_post``, index/postings.py) are scored
here with numpy over every row that holds them; the other branches of the query
(rare words, phrases) by one FTS5 query. BM25 is a sum over the query's
phrases, each with its own IDF over the whole index, so the two parts add up to
exactly what ``bm25(kb_fts, 1.0, 2.0)`` gives the whole query, for every row:
FTS5's formula (fts5_aux.c) with its constants, its IDF (clamped at 1e-6), its
row count and average length (the index's averages record), the row's tokens
in all columns and the word's count weighted body 1, title 2.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Sequence

import numpy as np

from desktop_kb.index.postings import averages
from desktop_kb.store.sql_lists import in_batches

BM25_K1 = 1.2
BM25_B = 0.75
#: Rows a dense score array may span (8 bytes each); sparser ids are grouped by sorting.
_DENSE_SPAN = 4_000_000
#: Low mantissa bits (of 52) a keyword score drops before it is ranked. FTS5 and numpy
#: add a row's per-word terms in different orders, so two rows whose scores are equal
#: could come out one ulp apart in one path and tied in the other, and swap places
#: when the idle writer stored a word's postings. Rounded, such rows tie in both and
#: go by chunk id; scores still differ from the exact ones by under 2·10⁻¹⁰ of themselves.
_TIE_BITS = 20

Entry = tuple[np.ndarray, np.ndarray, np.ndarray]  # rowids, weighted counts, row lengths


def stored_entries(index: sqlite3.Connection, terms: Sequence[str]) -> dict[str, Entry]:
    """The stored postings of those ``terms`` that have an entry."""
    out: dict[str, Entry] = {}
    for part, marks in in_batches(list(dict.fromkeys(terms)), 200):
        for term, rowids, freqs, lens in index.execute(
                f"SELECT term, rowids, freqs, lens FROM kb_post WHERE term IN ({marks})", part):
            out[term] = (np.frombuffer(rowids, dtype="<i4"), np.frombuffer(freqs, dtype="<u2"),
                         np.frombuffer(lens, dtype="<u2"))
    return out


def fts5_idf(rows: int, hits: int) -> float:
    idf = math.log((rows - hits + 0.5) / (hits + 0.5))
    return idf if idf > 0 else 1e-6


def term_scores(entry: Entry, rows: int, avgdl: float) -> np.ndarray:
    """Each holding row's share of ``bm25()`` for this word (≥ 0)."""
    rowids, freqs, lens = entry
    f = freqs.astype(np.float64)
    norm = BM25_K1 * (1.0 - BM25_B + BM25_B * lens.astype(np.float64) / avgdl)
    return fts5_idf(rows, len(rowids)) * (f * (BM25_K1 + 1.0)) / (f + norm)


def tie_rounded(scores: np.ndarray) -> np.ndarray:
    """Scores (float64, ≥ 0) with the low :data:`_TIE_BITS` mantissa bits rounded off:
    monotonic, so a rounded order never contradicts the exact one, it only adds ties."""
    bits = np.ascontiguousarray(scores, dtype=np.float64).view(np.int64)
    half = np.int64(1 << (_TIE_BITS - 1))
    return ((bits + half) & np.int64(~((1 << _TIE_BITS) - 1))).view(np.float64)


def rank_rows(rows: Sequence[tuple[int, float]]) -> list[tuple[int, float]]:
    """(rowid, score ≥ 0) pairs with their scores rounded by :func:`tie_rounded`, best first,
    ties by rowid: the order every keyword path gives its rows."""
    if not rows:
        return []
    scores = tie_rounded(np.fromiter((s for _, s in rows), dtype=np.float64, count=len(rows)))
    return sorted(zip((r for r, _ in rows), scores.tolist(), strict=True), key=lambda x: (-x[1], x[0]))


def combined_top(index: sqlite3.Connection, entries: dict[str, Entry],
                 other: list[tuple[int, float]], limit: int) -> list[tuple[int, float]]:
    """Best ``limit`` rows by the stored words' scores plus ``other`` (rowid, score ≥ 0),
    best first, ties by rowid (as ``ORDER BY bm25(), rowid``), scores :func:`tie_rounded`.

    The commonest words' lists are the longest and add the least (MaxScore): rows holding
    only words whose bounds (:func:`word_bound`) sum under the ``limit``-th best score already
    found cannot reach the top, so those words are looked up for the rows that can
    (:func:`_top_of_candidates`) instead of scoring every row that holds them.
    """
    rows, tokens = averages(index)
    if rows <= 0:
        return rank_rows(other)[:limit]
    avgdl = tokens / rows
    other_ids = np.fromiter((r for r, _ in other), dtype=np.int64, count=len(other))
    other_vals = np.fromiter((s for _, s in other), dtype=np.float64, count=len(other))
    if limit > 0 and sum(len(e[0]) for e in entries.values()) >= STOP_POSTINGS:
        top = _top_of_candidates(entries, other_ids, other_vals, rows, avgdl, limit)
        if top is not None:
            return top
    return _top_of_all(entries, other_ids, other_vals, rows, avgdl, limit)


def word_bound(entry: Entry, rows: int) -> float:
    """The most a word adds to any row's score: FTS5's ``bm25()`` saturates its count, so a
    phrase adds under ``(k1 + 1)·IDF``."""
    return (BM25_K1 + 1.0) * fts5_idf(rows, len(entry[0]))


#: Postings (all the question's stored words) from which :func:`combined_top` looks for words
#: it may spare: below, scoring every row costs less than finding out (``bench_keyword_top.py``,
#: 300 questions: at 10⁵ chunks, ~20-60k postings a question, 1.69 against 1.32 ms p50; at
#: 10⁶, ~10⁵-10⁶, 7.5 against 10.4 ms).
STOP_POSTINGS = 100_000
#: Bounds are compared with this much room: floating sums of a row's terms may exceed the
#: exact sum by a few ulps, and :func:`tie_rounded` moves a score by under 2⁻³².
_BOUND_ROOM = 1e-9


def _top_of_candidates(entries: dict[str, Entry], other_ids: np.ndarray, other_vals: np.ndarray,
                       rows: int, avgdl: float, limit: int) -> list[tuple[int, float]] | None:
    """:func:`combined_top` over the rows that can reach the top, or None when the bounds
    cannot spare a word (every row is scored then).

    The ``limit``-th best exact score of the ``other`` rows (or, with fewer, of those and the
    rarest word's rows) is a floor under the ``limit``-th best of all; the commonest words
    whose bounds sum under it are looked up, the others scored over all their rows. A row
    holding none but the looked-up words scores under that floor.
    """
    terms = list(entries)
    bound = {t: word_bound(entries[t], rows) for t in terms}
    by_rarity = sorted(terms, key=lambda t: (-bound[t], t))
    postings = sum(len(e[0]) for e in entries.values())
    span = 1 + max([int(other_ids.max()) if len(other_ids) else 0,
                    *(int(e[0][-1]) for e in entries.values() if len(e[0]))])
    for count in (0, 1):  # the floor from the other rows; else from them and the rarest word's
        if count >= len(terms) - 1:
            return None
        seeded = by_rarity[:count]
        if len(other_ids) + sum(len(entries[t][0]) for t in seeded) < limit:
            continue
        floor = _kth(_scored(entries, terms, set(seeded), _rows_of(span, other_ids, entries, seeded),
                             other_ids, other_vals, rows, avgdl)[1], limit)
        spared = 0
        while spared < len(terms) - count and sum(
                bound[t] for t in by_rarity[len(terms) - spared - 1:]) < floor * (1.0 - _BOUND_ROOM):
            spared += 1
        if not spared:
            return None
        scored = by_rarity[:len(terms) - spared]
        if sum(len(entries[t][0]) for t in scored) > postings // 2:
            return None  # looking the others up would cost about what scoring them all does
        cand, scores = _scored(entries, terms, set(scored), _rows_of(span, other_ids, entries, scored),
                               other_ids, other_vals, rows, avgdl)
        # Rows outside ``cand`` hold only spared words: under the floor, which is at most this.
        return _best(cand, scores, limit)
    return None


def _rows_of(span: int, other_ids: np.ndarray, entries: dict[str, Entry], terms: list[str]) -> np.ndarray:
    """The rows (ascending) of ``other`` and of those words."""
    mark = np.zeros(span, dtype=bool)
    mark[other_ids] = True
    for t in terms:
        mark[entries[t][0]] = True
    return np.flatnonzero(mark)


def _scored(entries: dict[str, Entry], terms: list[str], whole: set[str], cand: np.ndarray,
            other_ids: np.ndarray, other_vals: np.ndarray, rows: int,
            avgdl: float) -> tuple[np.ndarray, np.ndarray]:
    """Exact rounded scores of the rows ``cand`` (ascending, holding every row of the ``whole``
    words and of ``other``), each word's share added in ``terms`` order and then ``other``'s,
    the order :func:`_top_of_all` adds them in: the same sums, to the last bit. Rows that
    score nothing are left out, as there."""
    scores = np.zeros(len(cand))
    span = int(cand[-1]) + 1 if len(cand) else 0
    where = np.full(span, -1, dtype=np.int64)  # row -> its place in cand
    where[cand] = np.arange(len(cand))
    for t in terms:
        ids, freqs, lens = entries[t]
        if t in whole:
            scores[where[ids]] += term_scores(entries[t], rows, avgdl)
            continue
        if len(cand) * 24 < len(ids):  # few rows in a long list: find each by bisection
            at = np.minimum(np.searchsorted(ids, cand), len(ids) - 1)
            held = ids[at] == cand
            if held.any():
                picked = at[held]
                scores[held] += _subset_scores(freqs[picked], lens[picked], len(ids), rows, avgdl)
            continue
        inside = ids < span
        if not inside.all():
            ids, freqs, lens = ids[inside], freqs[inside], lens[inside]
        at = where[ids]
        held = at >= 0
        if held.any():
            scores[at[held]] += _subset_scores(freqs[held], lens[held], len(entries[t][0]), rows, avgdl)
    if len(other_ids):
        scores[where[other_ids]] += other_vals
    listed = scores > 0
    return cand[listed], tie_rounded(scores[listed])


def _kth(scores: np.ndarray, limit: int) -> float:
    """The ``limit``-th best score (0 with fewer rows)."""
    if len(scores) < limit:
        return 0.0
    return float(np.partition(scores, len(scores) - limit)[len(scores) - limit])


def _subset_scores(freqs: np.ndarray, lens: np.ndarray, holders: int, rows: int,
                   avgdl: float) -> np.ndarray:
    """:func:`term_scores` of some of a word's rows (``holders``: all rows that hold it)."""
    f = freqs.astype(np.float64)
    norm = BM25_K1 * (1.0 - BM25_B + BM25_B * lens.astype(np.float64) / avgdl)
    return fts5_idf(rows, holders) * (f * (BM25_K1 + 1.0)) / (f + norm)


def _top_of_all(entries: dict[str, Entry], other_ids: np.ndarray, other_vals: np.ndarray,
                rows: int, avgdl: float, limit: int) -> list[tuple[int, float]]:
    """Every row that holds a word scored (the words' lists summed by row)."""
    ids = [e[0] for e in entries.values()]
    vals = [term_scores(e, rows, avgdl) for e in entries.values()]
    if len(other_ids):
        ids.append(other_ids)
        vals.append(other_vals)
    if not ids:
        return []
    all_ids = np.concatenate(ids).astype(np.int64)
    all_vals = np.concatenate(vals)
    if all_ids.size == 0:
        return []
    span = int(all_ids.max()) + 1
    if span <= max(_DENSE_SPAN, 4 * all_ids.size):
        summed = np.bincount(all_ids, weights=all_vals, minlength=span)
        cand = np.flatnonzero(summed)
        scores = summed[cand]
    else:
        cand, inverse = np.unique(all_ids, return_inverse=True)
        scores = np.bincount(inverse, weights=all_vals)
    return _best(cand, tie_rounded(scores), limit)


def _best(cand: np.ndarray, scores: np.ndarray, limit: int) -> list[tuple[int, float]]:
    """The best ``limit`` of rows ``cand`` with (rounded) ``scores``, ties by rowid."""
    if len(cand) > limit:
        kth = np.partition(scores, len(scores) - limit)[len(scores) - limit]
        keep = scores >= kth
        cand, scores = cand[keep], scores[keep]
    order = np.lexsort((cand, -scores))[:limit]
    return [(int(cand[i]), float(scores[i])) for i in order]
