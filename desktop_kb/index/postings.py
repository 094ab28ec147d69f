"""Common words' postings (``kb_post``): what keyword search needs to score them itself.

FTS5's ``bm25()`` walks every row of every phrase of a query to count it, then
scores each matched row; a word found in 5 % of 10⁶ chunks costs that walk and
50,000 scorings on every question that names it. For words in at least
:data:`MIN_DF` chunks this table keeps, per word, the rows that hold it with
the word's weighted count there (body 1, title 2, as ``bm25(kb_fts, 1.0, 2.0)``)
and the row's length in tokens, so search scores them with numpy
(retrieval/stored_scores.py) exactly as ``bm25()`` would.

The table is a cache of FTS5, never a second truth:

* a word's entry is deleted in the same transaction as any change to the rows
  that hold it (triggers on ``kb_df``, whose count the writer changes then), so
  an entry that exists is exact; a word without one is scored by FTS5 as before;
* words that need an entry wait in ``kb_post_todo``; the index writer fills
  them when it has nothing else to do (:func:`refresh`), reading FTS5's own
  instance list (``kb_vocab_inst``) and row sizes (``kb_fts_docsize``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

import numpy as np

from desktop_kb.index.term_df import writes

#: Words in fewer chunks are scored by FTS5: their walk and scoring cost little.
MIN_DF = 256
#: Instances (word occurrences) one :func:`refresh` call reads: about 0.7 s of the
#: writer's time (2.3 µs each), so a save waits at most that long behind it.
REFRESH_INSTANCES = 300_000

SCHEMA = [
    "CREATE VIRTUAL TABLE kb_vocab_inst USING fts5vocab(kb_fts, 'instance')",
    # rowids int32, freqs and lens uint16, little-endian, rowids ascending.
    "CREATE TABLE kb_post(term TEXT PRIMARY KEY, rowids BLOB NOT NULL, freqs BLOB NOT NULL, "
    "lens BLOB NOT NULL)",
    "CREATE TABLE kb_post_todo(term TEXT PRIMARY KEY) WITHOUT ROWID",
    # Any change to a word's rows changes its count in kb_df (written by the same
    # transaction): the entry goes, and a common word waits for a new one.
    # (No OR IGNORE in these bodies: the writer's upsert would override it.)
    f"""CREATE TRIGGER kb_df_update AFTER UPDATE OF doc ON kb_df BEGIN
        DELETE FROM kb_post WHERE term = new.term;
        INSERT INTO kb_post_todo(term) SELECT new.term WHERE new.doc >= {MIN_DF}
            AND NOT EXISTS (SELECT 1 FROM kb_post_todo WHERE term = new.term);
    END""",
    f"""CREATE TRIGGER kb_df_insert AFTER INSERT ON kb_df WHEN new.doc >= {MIN_DF} BEGIN
        INSERT INTO kb_post_todo(term) SELECT new.term
            WHERE NOT EXISTS (SELECT 1 FROM kb_post_todo WHERE term = new.term);
    END""",
    """CREATE TRIGGER kb_df_delete AFTER DELETE ON kb_df BEGIN
        DELETE FROM kb_post WHERE term = old.term;
        DELETE FROM kb_post_todo WHERE term = old.term;
    END""",
]

_U16 = np.iinfo(np.uint16).max
#: Rows read from SQLite at a time while filling an entry.
_SLICE = 65_536


def queue_all(conn: sqlite3.Connection) -> None:
    """Every common word waits for an entry (after a migration or a recount)."""
    conn.execute("DELETE FROM kb_post")
    conn.execute(f"INSERT OR IGNORE INTO kb_post_todo(term) SELECT term FROM kb_df WHERE doc >= {MIN_DF}")


def queue_unstored(conn: sqlite3.Connection) -> None:
    """Common words without an entry wait for one (an index written when stop words got none)."""
    conn.execute("INSERT OR IGNORE INTO kb_post_todo(term) SELECT term FROM kb_df d "
                 f"WHERE doc >= {MIN_DF} AND NOT EXISTS (SELECT 1 FROM kb_post p WHERE p.term = d.term)")


def pending(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM kb_post_todo LIMIT 1").fetchone() is not None


class Stopped(Exception):
    """``refresh`` gave up its slice because the writer is closing: roll the transaction back."""


#: Rows decoded between two looks at ``stop`` (a few milliseconds' work).
_STOP_EVERY = 64
#: SQLite steps between two looks at ``stop`` inside one statement (a common word's rows).
_STOP_STEPS = 10_000


def refresh(conn: sqlite3.Connection, instances: int = REFRESH_INSTANCES,
            stop: Callable[[], bool] = lambda: False) -> int:
    """Inside the caller's transaction: write entries for waiting words, about
    ``instances`` occurrences' worth (at least one word); returns words written.

    ``stop`` (the writer closing) raises ``Stopped`` within moments: a slice of a large
    library outlasted a command's wait at exit (the lengths of 10^5 rows took longer than
    10 s at load 10), so the process left with the index marked not cleanly closed, and the
    next one checked the whole index again — and began the same slice, and left the same way.

    Stop words get one too: a question made only of them ("What do you do?") or quoting one
    ("「媽祖在馬祖」") searches them, and without an entry FTS5 walked and scored every row
    that holds one (200 ms for "What do you do?" at 10⁶ chunks).
    """
    terms: list[str] = []
    spent = 0
    for term, doc in conn.execute(
            "SELECT t.term, coalesce(d.doc, 0) FROM kb_post_todo t LEFT JOIN kb_df d USING (term)"):
        if terms and spent + doc > instances:
            break
        terms.append(term)
        spent += doc
    if not terms:
        return 0
    conn.set_progress_handler(stop, _STOP_STEPS)  # a true answer interrupts the statement
    try:
        lengths = _Lengths(conn, spent, stop)
        written = 0
        for term in terms:
            if stop():
                raise Stopped
            conn.execute("DELETE FROM kb_post_todo WHERE term = ?", (term,))
            entry = _entry(conn, term, lengths)
            if entry is not None:
                conn.execute("INSERT OR REPLACE INTO kb_post(term, rowids, freqs, lens) VALUES (?, ?, ?, ?)",
                             (term, *entry))
                written += 1
    except sqlite3.OperationalError:
        if stop():
            raise Stopped from None
        raise
    finally:
        conn.set_progress_handler(None, 0)
    return written


def _entry(conn: sqlite3.Connection, term: str, lengths: _Lengths) -> tuple[bytes, bytes, bytes] | None:
    cursor = conn.execute(
        "SELECT doc, sum(CASE col WHEN 'title' THEN 2 ELSE 1 END) FROM kb_vocab_inst "
        "WHERE term = ? GROUP BY doc ORDER BY doc", (term,))
    # In slices: a word in 40 % of 10⁶ rows as one list of row tuples was ~50 MB at once.
    parts = [np.array(rows, dtype=np.int64) for rows in iter(lambda: cursor.fetchmany(_SLICE), [])]
    if not parts:
        return None
    pairs = np.concatenate(parts)
    docs, freqs = pairs[:, 0], pairs[:, 1]
    lens = lengths.of(docs)
    if freqs.max() > _U16 or lens.max() > _U16:  # cannot happen with ≤ 800-character chunks
        return None
    return (docs.astype("<i4").tobytes(), freqs.astype("<u2").tobytes(),
            lens.astype("<u2").tobytes())


class _Lengths:
    """Rows' lengths in tokens, all columns (FTS5's ``xColumnSize(-1)``), from
    ``kb_fts_docsize``: every row at once when a refresh touches many (kept for the
    next slices until this process writes rows again), else by id."""

    _cache: tuple[sqlite3.Connection, int, np.ndarray] | None = None

    def __init__(self, conn: sqlite3.Connection, postings: int,
                 stop: Callable[[], bool] = lambda: False) -> None:
        self._conn = conn
        self._all: np.ndarray | None = None
        cached = _Lengths._cache
        if cached is not None and cached[0] is conn and cached[1] == writes():
            self._all = cached[2]
            return
        rows = conn.execute("SELECT count(*) FROM kb_fts_docsize").fetchone()[0]
        if postings > rows // 4:
            top = conn.execute("SELECT max(id) FROM kb_fts_docsize").fetchone()[0] or 0
            self._all = np.zeros(top + 1, dtype=np.int64)
            # Filled slice by slice: all rows as one list of tuples was ~130 MB at 10⁶ chunks,
            # the peak of a search process whose writer was filling postings.
            cursor = conn.execute("SELECT id, sz FROM kb_fts_docsize")
            for part in iter(lambda: cursor.fetchmany(_SLICE), []):
                for at in range(0, len(part), _STOP_EVERY):
                    if stop():
                        raise Stopped
                    rows = part[at:at + _STOP_EVERY]
                    self._all[[r for r, _ in rows]] = [_varint_sum(b) for _, b in rows]
            _Lengths._cache = (conn, writes(), self._all)

    def of(self, rowids: np.ndarray) -> np.ndarray:
        if self._all is not None and int(rowids.max()) < len(self._all):
            return self._all[rowids]
        out = np.zeros(len(rowids), dtype=np.int64)
        ids = rowids.tolist()
        for i in range(0, len(ids), 500):
            part = ids[i:i + 500]
            marks = ",".join("?" * len(part))
            sizes = dict(self._conn.execute(
                f"SELECT id, sz FROM kb_fts_docsize WHERE id IN ({marks})", part))
            out[i:i + len(part)] = [_varint_sum(sizes[r]) for r in part]
        return out


def _varints(blob: bytes) -> list[int]:
    """The SQLite varints in ``blob``, in order (FTS5's docsize and averages records)."""
    values: list[int] = []
    i = 0
    n = len(blob)
    while i < n:
        value = 0
        for k in range(9):
            byte = blob[i]
            i += 1
            if k == 8:
                value = (value << 8) | byte
                break
            value = (value << 7) | (byte & 0x7F)
            if not byte & 0x80:
                break
        values.append(value)
    return values


def _varint_sum(blob: bytes) -> int:
    """Sum of the SQLite varints in ``blob`` (one per column)."""
    return sum(_varints(blob))


def averages(conn: sqlite3.Connection) -> tuple[int, int]:
    """(rows, tokens in all columns) as FTS5's ``bm25()`` reads them (its averages record)."""
    row = conn.execute("SELECT block FROM kb_fts_data WHERE id = 1").fetchone()
    if row is None or not row[0]:
        return 0, 0
    values = _varints(bytes(row[0]))
    return values[0], sum(values[1:])

