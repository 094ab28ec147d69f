"""``index.sqlite``: the derived index (I2). Disposable: when in doubt, drop and refill.

Its schema version lives in ``PRAGMA user_version``; an index from another
version, or one that is not a database at all, is deleted and recreated with the
dirty flag set, which makes the next start rebuild it from the store.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from desktop_kb.index.segment import FTS5_TOKENIZE, segmenter_signature

INDEX_SCHEMA_VERSION = 4

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
    # Vectors of the model in use only (``kb_meta.embed_model``); a model switch
    # deletes them, so vectors of two models never mix.
    """CREATE TABLE kb_vectors(
        chunk_id INTEGER PRIMARY KEY,
        model_id TEXT NOT NULL,
        vector BLOB NOT NULL
    )""",
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


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    conn.execute("PRAGMA busy_timeout = 5000")
    conn.execute("PRAGMA journal_mode = WAL")
    # The index is rebuildable, so a lost last commit after a power cut is acceptable.
    conn.execute("PRAGMA synchronous = NORMAL")
    return conn


def _discard(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            Path(f"{path}{suffix}").unlink()


def open_index_writer(path: Path) -> sqlite3.Connection:
    """Open (creating or recreating) the index for the single writer thread."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        conn = _connect(path)
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version == 0:
            _create(conn)
        elif version != INDEX_SCHEMA_VERSION:
            raise sqlite3.DatabaseError("index schema mismatch")
        else:
            conn.execute("SELECT count(*) FROM kb_meta").fetchone()
        if get_meta(conn, "segmenter") != segmenter_signature():
            set_meta(conn, "dirty", "1")
        return conn
    except sqlite3.DatabaseError:
        # Corrupt, foreign or outdated: the index is derived, so start afresh (I1).
        with contextlib.suppress(Exception):
            conn.close()
        _discard(path)
        conn = _connect(path)
        _create(conn)
        return conn


def open_index_reader(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, check_same_thread=False,
                           isolation_level=None)
    conn.execute("PRAGMA busy_timeout = 5000")
    return conn


def get_meta(conn: sqlite3.Connection, key: str) -> str | None:
    row = conn.execute("SELECT value FROM kb_meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else row[0]


def set_meta(conn: sqlite3.Connection, key: str, value: str) -> None:
    conn.execute(
        "INSERT INTO kb_meta(key, value) VALUES (?, ?) "
        "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, value))


def is_dirty(conn: sqlite3.Connection) -> bool:
    return get_meta(conn, "dirty") == "1"
