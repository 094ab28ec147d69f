"""``index.sqlite``: the derived index (I2). Disposable: when in doubt, drop and refill.

Its schema version lives in ``PRAGMA user_version``; an index from another
version, or one that is damaged or not a database at all, is deleted and
recreated with the dirty flag set, which makes the next start rebuild it from
the store. ``kb_meta`` also records how far the index has followed the store's
change feed (``applied_seq`` and ``store_epoch``, written in the same
transaction as the rows they describe).
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from desktop_kb.index import postings, term_df
from desktop_kb.index.segment import FTS5_TOKENIZE, OPS_TOKENIZE, segmenter_signature
from desktop_kb.store.errors import environment_error, is_corruption

INDEX_SCHEMA_VERSION = 11

# The sign bits with the chunk ids (a rowid table's index holds the rowid): loading
# them reads this index alone, about 90 bytes a chunk, where a scan of kb_vectors
# reads every 2 KB vector too (10⁶ chunks: 17.5 s wall, 3.7 s CPU before).
_CODES_INDEX = "CREATE INDEX IF NOT EXISTS kb_vectors_code ON kb_vectors(model_id, code)"

# rowid = kb_chunks.id: the chunk's operators made only of punctuation (``?``, ``//!``,
# ``'a``: index/segment.py operator_tokens), which word tokens never hold. A table of its
# own, so kb_fts's row lengths and word frequencies (every other question's BM25) stay as
# they were.
_OPS_TABLE = f"CREATE VIRTUAL TABLE IF NOT EXISTS kb_ops USING fts5(ops, tokenize=\"{OPS_TOKENIZE}\")"

_SCHEMA = [
    "CREATE TABLE kb_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    # One row per indexed source; ``version`` is a hash of exactly what was
    # indexed, so verify can tell stale rows from fresh ones without re-reading chunks.
    """CREATE TABLE kb_sources(
        source_type TEXT NOT NULL,
        source_id INTEGER NOT NULL,
        version TEXT NOT NULL,
        title_hash TEXT NOT NULL,
        generation INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY(source_type, source_id)
    ) WITHOUT ROWID""",
    # The terms each indexed note names (index/user_words.py): the segmenter's
    # user dictionary is exactly the distinct terms here.
    """CREATE TABLE kb_terms(
        source_type TEXT NOT NULL,
        source_id INTEGER NOT NULL,
        term TEXT NOT NULL,
        PRIMARY KEY(source_type, source_id, term)
    ) WITHOUT ROWID""",
    "CREATE INDEX kb_terms_term ON kb_terms(term)",
    """CREATE TABLE kb_chunks(
        id INTEGER PRIMARY KEY,
        source_type TEXT NOT NULL,
        source_id INTEGER NOT NULL,
        ord INTEGER NOT NULL,
        start INTEGER NOT NULL,
        end INTEGER NOT NULL,
        heading_path TEXT NOT NULL,
        text_hash TEXT NOT NULL
    )""",
    "CREATE INDEX kb_chunks_source ON kb_chunks(source_type, source_id, ord)",
    # rowid = kb_chunks.id. Columns hold segmented text only; titles are matched
    # here but never read back for display (I6).
    f"CREATE VIRTUAL TABLE kb_fts USING fts5(body, title, tokenize=\"{FTS5_TOKENIZE}\")",
    # rowid = kb_chunks.id: adjacent-ideograph pairs of the chunk and its title, for
    # words the segmenter does not know (retrieval/lexical.py). A table of its own,
    # so kb_vocab's document frequencies stay those of words.
    "CREATE VIRTUAL TABLE kb_grams USING fts5(grams, tokenize='unicode61 remove_diacritics 0')",
    "CREATE VIRTUAL TABLE kb_grams_vocab USING fts5vocab(kb_grams, 'row')",
    _OPS_TABLE,
    # Vectors of the model in use only (``kb_meta.embed_model``); a model switch
    # deletes them, so vectors of two models never mix. ``code`` holds the
    # vector's sign bits, the only part search keeps in memory
    # (desktop_kb/retrieval/dense.py), read through their own covering index.
    """CREATE TABLE kb_vectors(
        chunk_id INTEGER PRIMARY KEY,
        model_id TEXT NOT NULL,
        vector BLOB NOT NULL,
        code BLOB NOT NULL
    )""",
    _CODES_INDEX,
    # Embeddings by (text hash, model): rebuilds, re-chunked notes and switching
    # back to a model never re-embed text seen before.
    """CREATE TABLE kb_embed_cache(
        text_hash TEXT NOT NULL,
        model_id TEXT NOT NULL,
        vector BLOB NOT NULL,
        PRIMARY KEY(text_hash, model_id)
    ) WITHOUT ROWID""",
    # Document frequencies straight from the FTS index, for query-term IDF weights.
    "CREATE VIRTUAL TABLE kb_vocab USING fts5vocab(kb_fts, 'row')",
    # ... and the same counts kept by the writer (index/term_df.py): fts5vocab walks
    # a term's whole posting list to count it, on every lookup.
    term_df.SCHEMA,
    # Common words' postings, for keyword search to score them itself (index/postings.py).
    *postings.SCHEMA,
    """CREATE TABLE kb_failures(
        source_type TEXT NOT NULL,
        source_id INTEGER NOT NULL,
        reason TEXT NOT NULL,
        attempts INTEGER NOT NULL,
        last_at REAL NOT NULL,
        PRIMARY KEY(source_type, source_id)
    ) WITHOUT ROWID""",
]


def _create(conn: sqlite3.Connection) -> None:
    conn.execute("BEGIN IMMEDIATE")
    for statement in _SCHEMA:
        conn.execute(statement)
    conn.executemany(
        "INSERT INTO kb_meta(key, value) VALUES (?, ?)",
        [("segmenter", segmenter_signature()), ("embed_model", ""), ("dirty", "1")],
    )
    conn.execute(f"PRAGMA user_version = {INDEX_SCHEMA_VERSION}")
    conn.execute("COMMIT")


#: Versions that :func:`_migrate` brings up to date in place.
MIGRATES_FROM = (7, 8, 9, 10)


def _migrate(conn: sqlite3.Connection) -> None:
    """Schema 7 to 10 → 11 in place: rebuilding a large library takes hours.

    7 → 8: the writer's document counts (``kb_df``), counted once from FTS5 (one
    walk of the FTS index: 0.7 s CPU at 10⁵ chunks, 5.8 s at 10⁶). 8 → 9: common
    words' postings (``kb_post``), queued for the index writer to fill when idle
    (14 s CPU at 10⁵, 119 s at 10⁶: 498 MB); search scores them through FTS5
    meanwhile, as before. 9 → 10: the sign bits' covering index (one read of
    ``kb_vectors``). 10 → 11: the operators' table (``kb_ops``), empty: the
    segmenter version that came with it makes the index rebuild its rows (text is
    segmented again; embeddings come from the cache, none is computed again), and
    search works meanwhile. One transaction: a process killed meanwhile leaves the old
    version, which the next start migrates again.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version in (7, 8):
            if version == 7:
                conn.execute(term_df.SCHEMA)
            for statement in postings.SCHEMA:
                conn.execute(statement)
            if version == 7:
                term_df.refill(conn)  # its triggers queue the common words
            else:
                postings.queue_all(conn)
        if version in MIGRATES_FROM:
            conn.execute(_CODES_INDEX)
            conn.execute(_OPS_TABLE)
            conn.execute(f"PRAGMA user_version = {INDEX_SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


BUSY_TIMEOUT_MS = 5000


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA journal_mode = WAL")
    # The index is rebuildable, so a lost last commit after a power cut is acceptable.
    conn.execute("PRAGMA synchronous = NORMAL")
    return conn


def discard_index(path: Path) -> None:
    """Delete the index files (only the writer lock's holder does this)."""
    from desktop_kb.index import vector_file

    vector_file.discard(path)
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            Path(f"{path}{suffix}").unlink()


class IndexUnavailable(Exception):
    """The index cannot be opened or written for a reason of the machine (full, read-only,
    busy, I/O); ``str(err)`` says which. The index is kept: this is never corruption."""


UNAVAILABLE_PREFIX = "The search index at {0} cannot be used: "
#: The index file is damaged while another process keeps it (only that one may rebuild it).
DAMAGED_MESSAGE = (
    "The search index at {0} is damaged (another program, such as a sync client, replaced or "
    "changed its file): rebuild it with Index → Rebuild index, or `desktop-kb index rebuild`; "
    "the library itself is not affected.")
# Said after the reason when a full or read-only disk stopped a rebuild.
REBUILD_STOPPED_MESSAGE = ("The rebuild stopped part way; search uses the index as it is, "
                           "and the rebuild goes on by itself once there is room.")
REBUILD_NOT_STARTED_MESSAGE = "The index was not rebuilt; search uses it as it was."


def _discard_and_create(path: Path) -> sqlite3.Connection:
    discard_index(path)
    conn = _connect(path)
    _create(conn)
    return conn


#: kb_meta key: common stop words were queued for stored postings (see open_index_writer).
_STOPWORD_POSTINGS = "postings_stopwords"


def open_index_writer(path: Path) -> sqlite3.Connection:
    """Open (creating or recreating) the index for the single writer thread.

    Only the index writer lock's holder calls this, so no other process is
    writing the file it may replace. A file that is damaged (SQLITE_CORRUPT,
    SQLITE_NOTADB), foreign or from another schema version is replaced by an
    empty index with the dirty flag set, which makes the worker rebuild it
    from the store (I1). Locked, full, read-only or failing disks raise
    ``IndexUnavailable`` and leave the file alone (house rule 5).
    """
    conn: sqlite3.Connection | None = None
    try:
        # No folder is made: the library's is made when it opens, and one gone since (renamed,
        # moved) is not made again at the old path for a new library to start in.
        conn = _connect(path)
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if version == 0 and tables == 0:
            _create(conn)
        elif version in MIGRATES_FROM and has_meta(conn):
            _migrate(conn)
        elif version != INDEX_SCHEMA_VERSION or not has_meta(conn):
            # Outdated or not ours: derived data, so start afresh.
            conn.close()
            return _discard_and_create(path)
        if get_meta(conn, "segmenter") != segmenter_signature():
            set_meta(conn, "dirty", "1")
        if get_meta(conn, _STOPWORD_POSTINGS) != "1":
            # Once per index: stop words had no stored postings before; the writer fills
            # them when idle, search uses FTS5 for them meanwhile (index/postings.py).
            try:
                conn.execute("BEGIN IMMEDIATE")
                postings.queue_unstored(conn)
                set_meta(conn, _STOPWORD_POSTINGS, "1")
                conn.execute("COMMIT")
            except sqlite3.OperationalError as exc:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                if environment_error(exc, "") is None:
                    raise  # a bug; a full or read-only disk: queued on a later open
        return conn
    except sqlite3.DatabaseError as exc:
        if conn is not None:
            with contextlib.suppress(sqlite3.Error):
                conn.close()
        if is_corruption(exc):
            return _discard_and_create(path)
        raise IndexUnavailable(unavailable_message(exc, path)) from exc
    except OSError as exc:
        raise IndexUnavailable(f"Cannot open the search index at {path}: {exc}") from exc


def has_meta(conn: sqlite3.Connection) -> bool:
    return conn.execute(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'kb_meta'").fetchone()[0] == 1


def unavailable_message(exc: BaseException, path: Path) -> str:
    what = UNAVAILABLE_PREFIX.format(path)
    err = environment_error(exc, what.removesuffix(": "), path.parent) \
        if isinstance(exc, sqlite3.Error) else None
    return str(err) if err is not None else f"{what}{exc}"


#: Page cache of a searching thread's index connection (KiB). SQLite's default, 2 MB, holds
#: less than one hybrid question reads at 10⁵ chunks (FTS doclists, chunk rows, hit tokens):
#: ~600 page reads from the OS per search, each a system call. 8 MB: ~270 (150 real questions
#: after 50 others, benchmark library), for at most 6 MB more per searching thread.
SEARCH_CACHE_KIB = 8192


def open_index_reader(path: Path, cache_kib: int | None = None) -> sqlite3.Connection:
    conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, check_same_thread=False,
                           isolation_level=None)
    conn.execute("PRAGMA busy_timeout = 5000")
    if cache_kib is not None:
        conn.execute(f"PRAGMA cache_size = -{int(cache_kib)}")
    return conn


def get_meta(conn: sqlite3.Connection, key: str) -> str | None:
    row = conn.execute("SELECT value FROM kb_meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else row[0]


def set_meta(conn: sqlite3.Connection, key: str, value: str) -> None:
    conn.execute(
        "INSERT INTO kb_meta(key, value) VALUES (?, ?) "
        "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, value))


def pages_whole(path: Path) -> str | None:
    """None when SQLite finds every page of the index file whole, else what it found first.

    A connection of its own: the writer's page cache still held good copies of pages damaged
    on disk since (a raw write does not tell SQLite), so its check passed a damaged file.
    ``quick_check`` reads every page once: ~50 s for a 10^5-chunk index (730 MB) on a loaded
    2-core machine, against the several minutes the rebuild it precedes takes."""
    try:
        conn = open_index_reader(path)
    except sqlite3.Error as exc:
        return str(exc) if is_corruption(exc) else None  # the writer's open says the rest
    try:
        found = conn.execute("PRAGMA quick_check(1)").fetchone()
    except sqlite3.DatabaseError as exc:
        if not is_corruption(exc):
            raise
        return str(exc)
    finally:
        conn.close()
    return None if found is None or found[0] == "ok" else str(found[0])


def is_dirty(conn: sqlite3.Connection) -> bool:
    return get_meta(conn, "dirty") == "1"


def paused_rebuild(conn: sqlite3.Connection) -> int | None:
    """The generation of a rebuild that stopped part way (cancelled, killed, disk full) and
    will go on with this segmenter; None when the next rebuild starts afresh."""
    generation = get_meta(conn, "rebuild_generation")
    if generation is None or not is_dirty(conn) or get_meta(conn, "rebuild_segmenter") != segmenter_signature():
        return None
    return int(generation)
