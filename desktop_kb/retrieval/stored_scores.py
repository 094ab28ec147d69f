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
    best first, ties by rowid (as ``ORDER BY bm25(), rowid``), scores :func:`tie_rounded`."""
    rows, tokens = averages(index)
    if rows <= 0:
        return rank_rows(other)[:limit]
    avgdl = tokens / rows
    ids = [e[0] for e in entries.values()]
    vals = [term_scores(e, rows, avgdl) for e in entries.values()]
    if other:
        ids.append(np.fromiter((r for r, _ in other), dtype=np.int64, count=len(other)))
        vals.append(np.fromiter((s for _, s in other), dtype=np.float64, count=len(other)))
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
    scores = tie_rounded(scores)
    if len(cand) > limit:
        kth = np.partition(scores, len(scores) - limit)[len(scores) - limit]
        keep = scores >= kth
        cand, scores = cand[keep], scores[keep]
    order = np.lexsort((cand, -scores))[:limit]
    return [(int(cand[i]), float(scores[i])) for i in order]
