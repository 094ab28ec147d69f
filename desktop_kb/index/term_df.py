"""Document frequency of every indexed word (``kb_df``), kept by the index writer.

FTS5 stores no row count per term: ``fts5vocab`` counts a term's rows by walking
its whole posting list on every lookup. Search weighs every query term by its
document frequency, so at 10⁶ chunks each question walked the lists of its
common words (≈ 78,000 rows at the median) before FTS5 scored anything. The
writer keeps the counts here instead, in the same transaction as the ``kb_fts``
rows they count, so a reader (in any process) sees counts exactly as fresh as
the rows (I12). Rows whose count fell to 0 are deleted; the table is derived
like the rest of the index (a rebuild refills it, :func:`refill` recounts it
from FTS5 itself, which is how an index of schema 7 gains it).

:func:`fts_terms` cuts text exactly as FTS5's tokenizer
(:data:`~desktop_kb.index.segment.FTS5_TOKENIZE`) does: plain tokens directly,
anything else by FTS5 itself.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections import Counter
from collections.abc import Iterable

from desktop_kb.index.segment import FTS5_TOKENIZE_SQL

SCHEMA = "CREATE TABLE kb_df(term TEXT PRIMARY KEY, doc INTEGER NOT NULL) WITHOUT ROWID"

# Tokens made only of these characters are one FTS5 term each, unchanged: lower-case
# ASCII letters and digits, the tokenchars of FTS5_TOKENIZE, and the ideographs
# (basic block and extension A), which is nearly every token the segmenter writes.
_PLAIN = re.compile(r"[0-9a-z\-_./+@#=:\u3400-\u4dbf\u4e00-\u9fff]+")
_SCRATCH = threading.local()
_WRITES = [0]  # rows written through Counts in this process (postings.py caches by it)


def writes() -> int:
    """Changes this process has made to ``kb_fts`` rows through :class:`Counts` so far."""
    return _WRITES[0]


def _scratch() -> sqlite3.Connection:
    """An in-memory FTS5 table with the index's tokenizer, per thread."""
    conn: sqlite3.Connection | None = getattr(_SCRATCH, "conn", None)
    if conn is None:
        conn = sqlite3.connect(":memory:", isolation_level=None)
        conn.execute(f"CREATE VIRTUAL TABLE t USING fts5(x, tokenize={FTS5_TOKENIZE_SQL})")
        conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'row')")
        _SCRATCH.conn = conn
    return conn


def is_plain(token: str) -> bool:
    """Whether FTS5 keeps ``token`` as one term, unchanged."""
    return _PLAIN.fullmatch(token) is not None


def fts_terms(text: str) -> set[str]:
    """The distinct FTS5 terms of one column's text.

    Plain tokens are taken as they are; any other (capitals, accents,
    separators, scripts with their own marks) is cut by FTS5 itself in a
    scratch table, so the counts never depend on a copy of unicode61's rules.
    """
    out: set[str] = set()
    odd: list[str] = []
    for token in set(text.split()):
        if _PLAIN.fullmatch(token):
            out.add(token)
        else:
            odd.append(token)
    if odd:
        scratch = _scratch()
        scratch.execute("DELETE FROM t")
        scratch.execute("INSERT INTO t(x) VALUES (?)", (" ".join(odd),))
        out.update(term for (term,) in scratch.execute("SELECT term FROM v"))
    return out


def row_terms(*columns: str) -> set[str]:
    """The distinct terms of one ``kb_fts`` row (a term counts once per row)."""
    out: set[str] = set()
    for text in columns:
        if text:
            out |= fts_terms(text)
    return out


class Counts:
    """Document-count changes, gathered over many rows and written at once: a rebuild
    writes each word of a batch once instead of once per chunk that holds it."""

    def __init__(self) -> None:
        self.delta: Counter[str] = Counter()

    def add(self, rows: Iterable[tuple[str, ...]], sign: int = 1) -> None:
        """Count ``rows`` (each the texts of one ``kb_fts`` row) in or (``sign`` −1) out."""
        for columns in rows:
            for term in row_terms(*columns):
                self.delta[term] += sign

    def remove_rows(self, conn: sqlite3.Connection, rowids: Iterable[int]) -> None:
        """Count out the ``kb_fts`` rows ``rowids`` (before they are deleted)."""
        ids = list(rowids)
        for i in range(0, len(ids), 500):
            part = ids[i:i + 500]
            marks = ",".join("?" * len(part))
            self.add(conn.execute(
                f"SELECT body, title FROM kb_fts WHERE rowid IN ({marks})", part), -1)

    def flush(self, conn: sqlite3.Connection) -> None:
        """Write the changes (inside the transaction that wrote the rows) and forget them.

        Every word a changed row holds is written, even when its count came out
        the same (a row rewritten, or one row out and another in): the write is
        what drops the word's stored postings (postings.py's triggers).
        """
        changed = list(self.delta.items())
        self.delta.clear()
        _WRITES[0] += 1
        if not changed:
            return
        conn.executemany(
            "INSERT INTO kb_df(term, doc) VALUES (?, ?) "
            "ON CONFLICT(term) DO UPDATE SET doc = doc + excluded.doc", changed)
        gone = [(t,) for t, n in changed if n <= 0]
        if gone:
            conn.executemany("DELETE FROM kb_df WHERE term = ? AND doc <= 0", gone)


def add(conn: sqlite3.Connection, rows: Iterable[tuple[str, ...]], sign: int = 1) -> None:
    """Count ``rows`` in or out now (inside the caller's transaction)."""
    counts = Counts()
    counts.add(rows, sign)
    counts.flush(conn)


def remove_rows(conn: sqlite3.Connection, rowids: Iterable[int]) -> None:
    """Count out the ``kb_fts`` rows ``rowids`` now (call before deleting them)."""
    counts = Counts()
    counts.remove_rows(conn, rowids)
    counts.flush(conn)


def refill(conn: sqlite3.Connection) -> None:
    """Recount every term from FTS5 (inside the caller's transaction): one walk of the
    whole index, for a migration or a repair."""
    conn.execute("DELETE FROM kb_df")
    conn.execute("INSERT INTO kb_df(term, doc) SELECT term, doc FROM kb_vocab WHERE doc > 0")


def has_table(conn: sqlite3.Connection) -> bool:
    return conn.execute(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'kb_df'").fetchone()[0] == 1
