"""Term statistics from the FTS index: IDF weights, per-chunk tokens, query coverage.

Search fusion, QA packing, related material and ``desktop-kb eval`` all weigh
terms the same way (BM25's IDF over chunks), so they share these functions.
"""

from __future__ import annotations

import math
import sqlite3
import threading
from collections.abc import Collection, Iterator, Mapping, Sequence

from desktop_kb.index.postings import averages
from desktop_kb.index.term_df import has_table as has_df_table
from desktop_kb.store.sql_lists import in_batches


def bm25_idf(total: int, df: int) -> float:
    """BM25's IDF (always > 0) of a term found in ``df`` of ``total`` chunks."""
    return math.log((total - df + 0.5) / (df + 0.5) + 1.0)


class _IndexStats:
    """Chunk count and document frequencies, cached until the index changes.

    ``PRAGMA data_version`` changes when another connection commits, so the
    cache never serves numbers from before a save; between saves every query
    reuses them instead of counting the whole index again. Frequencies come
    from the writer's counts (``kb_df``, index/term_df.py); an index not yet
    migrated to them (another process opened it first) is asked through
    ``fts5vocab``, which walks each term's posting list to count it.
    """

    def __init__(self) -> None:
        # The connection itself is kept (not its id): data_version values only
        # compare within one connection, and holding it stops id reuse.
        self._conn: sqlite3.Connection | None = None
        self._version = -1
        self._total = 0
        self._df: dict[str, int] = {}
        self._ops: dict[str, int] = {}  # chunks of kb_ops holding each operator
        self._source = "kb_vocab"
        self._mean_tokens: float | None = None

    def _refresh(self, index: sqlite3.Connection) -> None:
        version = index.execute("PRAGMA data_version").fetchone()[0]
        if index is not self._conn or version != self._version:
            self._conn, self._version = index, version
            self._total = index.execute("SELECT count(*) FROM kb_chunks").fetchone()[0]
            self._df = {}
            self._ops = {}
            self._source = "kb_df" if has_df_table(index) else "kb_vocab"
            self._mean_tokens = None

    def mean_tokens(self, index: sqlite3.Connection) -> float:
        self._refresh(index)
        if self._mean_tokens is None:
            rows, tokens = averages(index)
            self._mean_tokens = tokens / rows if rows else 0.0
        return self._mean_tokens

    def lookup(self, index: sqlite3.Connection, terms: Sequence[str]) -> tuple[int, dict[str, int]]:
        self._refresh(index)
        missing = [t for t in dict.fromkeys(terms) if t not in self._df]
        for part, marks in in_batches(missing, 200):
            self._df.update(dict.fromkeys(part, 0))
            for term, doc in index.execute(
                    f"SELECT term, doc FROM {self._source} WHERE term IN ({marks})", part):
                self._df[term] = doc
        return self._total, {t: self._df[t] for t in terms}

    def operators(self, index: sqlite3.Connection, operators: Sequence[str]) -> tuple[int, dict[str, int]]:
        """(number of chunks, chunks of ``kb_ops`` holding each operator): counting an operator
        walks its whole posting list (every '?' of a 10⁶-chunk library), so once per index state."""
        self._refresh(index)
        for op in dict.fromkeys(operators):
            if op not in self._ops:
                try:
                    self._ops[op] = index.execute("SELECT count(*) FROM kb_ops WHERE kb_ops MATCH ?",
                                                  ('"' + op.replace('"', '""') + '"',)).fetchone()[0]
                except sqlite3.OperationalError:  # an index written before kb_ops (rebuilt on start)
                    self._ops[op] = 0
        return self._total, {op: self._ops[op] for op in operators}


_STATS = threading.local()  # one cache per thread, as each thread has its own connection


def _stats() -> _IndexStats:
    stats: _IndexStats | None = getattr(_STATS, "stats", None)
    if stats is None:
        stats = _STATS.stats = _IndexStats()
    return stats


def index_stats(index: sqlite3.Connection, terms: Sequence[str]) -> tuple[int, dict[str, int]]:
    """(number of chunks, chunks containing each term) — 0 for a term the index lacks."""
    return _stats().lookup(index, terms)


def mean_tokens(index: sqlite3.Connection) -> float:
    """Indexed tokens per chunk (body and title), from FTS5's own totals (its averages record)."""
    return _stats().mean_tokens(index)


def term_weights(index: sqlite3.Connection, terms: Sequence[str]) -> dict[str, float]:
    """BM25-style IDF of each query term, from the FTS index's own document counts."""
    total, doc_freq = index_stats(index, terms)
    total = total or 1
    return {t: bm25_idf(total, doc_freq[t]) for t in dict.fromkeys(terms)}


def chunk_tokens(index: sqlite3.Connection, chunk_ids: Sequence[int]) -> dict[int, set[str]]:
    """The indexed tokens (body and title) of each chunk, read in batches."""
    return {rowid: set(body.split()) | set(title.split())
            for rowid, body, title in token_rows(index, chunk_ids)}


def token_rows(index: sqlite3.Connection, chunk_ids: Sequence[int]) -> Iterator[tuple[int, str, str]]:
    """(rowid, body tokens, title tokens) of each distinct chunk, read 500 at a time."""
    ids = list(dict.fromkeys(chunk_ids))
    for part, marks in in_batches(ids):
        yield from index.execute(f"SELECT rowid, body, title FROM kb_fts WHERE rowid IN ({marks})", part)


def padded_token_texts(index: sqlite3.Connection, chunk_ids: Sequence[int]) -> dict[int, str]:
    """Each chunk's indexed tokens as one padded string, ``" body title "``.

    Columns hold single-space-joined tokens, so ``" t " in text`` is exactly "t is one of the
    chunk's tokens", without splitting every hit's text into a set. Read once per query for
    the keyword hits: coverage and the relevance floor's keyword evidence both test them.
    """
    return {rowid: f" {body} {title} " for rowid, body, title in token_rows(index, chunk_ids)}


def operator_doc_freq(index: sqlite3.Connection, operators: Sequence[str]) -> dict[str, int]:
    """How many chunks of ``kb_ops`` hold each operator (0 for all in an index without it)."""
    return _stats().operators(index, operators)[1]


def operator_weights(index: sqlite3.Connection, operators: Sequence[str]) -> dict[str, float]:
    """BM25-style IDF of each operator, from the chunks of ``kb_ops`` that hold it."""
    if not operators:
        return {}
    total, doc_freq = _stats().operators(index, operators)
    return {op: bm25_idf(total or 1, df) for op, df in doc_freq.items()}


def padded_operator_texts(index: sqlite3.Connection, chunk_ids: Sequence[int]) -> dict[int, str]:
    """Each chunk's operators (``kb_ops``) as one padded string, like :func:`padded_token_texts`."""
    out: dict[int, str] = {}
    try:
        for part, marks in in_batches(list(dict.fromkeys(chunk_ids))):
            out.update((rowid, f" {ops} ") for rowid, ops in index.execute(
                f"SELECT rowid, ops FROM kb_ops WHERE rowid IN ({marks})", part))
    except sqlite3.OperationalError:
        return {}
    return out


def term_coverage(
    index: sqlite3.Connection, weights: dict[str, float], chunk_ids: Sequence[int],
    counted: Collection[str] | None = None, texts: Mapping[int, str] | None = None,
) -> dict[int, float]:
    """Per chunk: the IDF-weighted share of the query's terms it contains (0..1).

    Unlike a BM25 score relative to the best hit, this is absolute: a chunk
    holding every rare term of the question scores near 1 whatever else matched.
    With ``counted``, only those terms earn a chunk coverage; the others still
    weigh in the whole (function words: a passage is not closer to "什么是所有权"
    for also holding 什么, but "How are you, Tom?" is more than "tom").
    ``texts``: the chunks' :func:`padded_token_texts` when the caller already read them.
    """
    total = sum(weights.values())
    if total <= 0:
        return {cid: 0.0 for cid in chunk_ids}
    # A term that is not one token (empty, or with a space) is no token of any chunk.
    padded = [(f" {t} ", w) for t, w in weights.items()
              if t.split() == [t] and (counted is None or t in counted)]
    if texts is None:
        texts = padded_token_texts(index, chunk_ids)
    return {rowid: sum(w for t, w in padded if t in text) / total
            for rowid in dict.fromkeys(chunk_ids) if (text := texts.get(rowid)) is not None}
