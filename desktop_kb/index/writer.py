"""Index write operations. Only the index worker thread calls these (house rule 3)."""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass, field

import numpy as np

from desktop_kb.index import term_df
from desktop_kb.index.prepare import PreparedChunk, PreparedSource
from desktop_kb.index.sources import SourceKey


@dataclass
class WriteResult:
    """Chunk rows added (with what they hold) and removed, for the vector side to follow."""

    added: list[tuple[int, PreparedChunk]] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    vectors: list[tuple[int, np.ndarray]] = field(default_factory=list)  # filled by the worker

    def extend(self, other: WriteResult) -> None:
        self.added.extend(other.added)
        self.removed.extend(other.removed)


def _existing_chunks(conn: sqlite3.Connection, key: SourceKey) -> list[tuple[int, int, int, int, str, str]]:
    return conn.execute(
        "SELECT id, ord, start, end, heading_path, text_hash FROM kb_chunks "
        "WHERE source_type = ? AND source_id = ? ORDER BY ord", key).fetchall()


def write_source(
    conn: sqlite3.Connection, prepared: PreparedSource, *, generation: int = 0, force: bool = False,
    resegment: bool = False, counts: term_df.Counts | None = None,
) -> WriteResult:
    """Bring one source's rows up to date inside the caller's transaction.

    Chunks whose text and heading are unchanged keep their row (and so their
    vectors); only changed chunks are rewritten. ``force`` rewrites everything,
    for rebuilds after a segmenter change. ``resegment`` rewrites the word
    rows of an unchanged source (the person's dictionary gained a term it holds).
    Document counts (``kb_df``) change with the rows: into ``counts`` when given
    (the caller flushes them before it commits), else written here.
    """
    key = prepared.key
    row = conn.execute(
        "SELECT version, title_hash FROM kb_sources WHERE source_type = ? AND source_id = ?",
        key).fetchone()
    if row is not None and row[0] == prepared.version and not force and not resegment:
        conn.execute(
            "UPDATE kb_sources SET generation = ? WHERE source_type = ? AND source_id = ?",
            (generation, *key))
        conn.execute("DELETE FROM kb_failures WHERE source_type = ? AND source_id = ?", key)
        return WriteResult()
    own = counts is None
    counts = term_df.Counts() if counts is None else counts
    result = WriteResult()
    title_changed = force or resegment or row is None or row[1] != prepared.title_hash

    reusable: dict[tuple[str, str], list[tuple[int, int, int, int]]] = {}
    if not force:
        for cid, ord_, start, end, heading, thash in _existing_chunks(conn, key):
            reusable.setdefault((thash, heading), []).append((cid, ord_, start, end))
    else:
        result.removed.extend(_delete_chunks(conn, key, counts))

    for chunk in prepared.chunks:
        candidates = reusable.get((chunk.text_hash, chunk.heading_path))
        if candidates:
            cid, ord_, start, end = candidates.pop(0)
            if (ord_, start, end) != (chunk.ord, chunk.start, chunk.end):
                conn.execute("UPDATE kb_chunks SET ord = ?, start = ?, end = ? WHERE id = ?",
                             (chunk.ord, chunk.start, chunk.end, cid))
            if title_changed:
                _write_fts(conn, cid, chunk, prepared.title_tokens, counts, replace=True)
            continue
        cur = conn.execute(
            "INSERT INTO kb_chunks(source_type, source_id, ord, start, end, heading_path, text_hash) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (*key, chunk.ord, chunk.start, chunk.end, chunk.heading_path, chunk.text_hash))
        cid = cur.lastrowid
        assert cid is not None
        _write_fts(conn, cid, chunk, prepared.title_tokens, counts, replace=False)
        result.added.append((cid, chunk))
    stale_ids = [c[0] for rest in reusable.values() for c in rest]
    counts.remove_rows(conn, stale_ids)
    for cid in stale_ids:
        conn.execute("DELETE FROM kb_fts WHERE rowid = ?", (cid,))
        conn.execute("DELETE FROM kb_grams WHERE rowid = ?", (cid,))
        conn.execute("DELETE FROM kb_ops WHERE rowid = ?", (cid,))
        conn.execute("DELETE FROM kb_chunks WHERE id = ?", (cid,))
        conn.execute("DELETE FROM kb_vectors WHERE chunk_id = ?", (cid,))
    result.removed.extend(stale_ids)
    conn.execute(
        "INSERT INTO kb_sources(source_type, source_id, version, title_hash, generation) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT(source_type, source_id) DO UPDATE SET "
        "version = excluded.version, title_hash = excluded.title_hash, generation = excluded.generation",
        (*key, prepared.version, prepared.title_hash, generation))
    conn.execute("DELETE FROM kb_failures WHERE source_type = ? AND source_id = ?", key)
    conn.execute("DELETE FROM kb_terms WHERE source_type = ? AND source_id = ?", key)
    conn.executemany("INSERT INTO kb_terms(source_type, source_id, term) VALUES (?, ?, ?)",
                     [(*key, t) for t in sorted(prepared.terms)])
    if own:
        counts.flush(conn)
    return result


def indexed_version(conn: sqlite3.Connection, key: SourceKey) -> str | None:
    row = conn.execute(
        "SELECT version FROM kb_sources WHERE source_type = ? AND source_id = ?", key).fetchone()
    return None if row is None else row[0]


def mark_current(conn: sqlite3.Connection, key: SourceKey, generation: int) -> None:
    """Inside the caller's transaction: the source is indexed from its current text already."""
    conn.execute("UPDATE kb_sources SET generation = ? WHERE source_type = ? AND source_id = ?",
                 (generation, *key))
    conn.execute("DELETE FROM kb_failures WHERE source_type = ? AND source_id = ?", key)


def _write_fts(conn: sqlite3.Connection, cid: int, chunk: PreparedChunk, title_tokens: str,
               counts: term_df.Counts, *, replace: bool) -> None:
    """A chunk's word row (kb_fts, counted in kb_df), ideograph-pair row (kb_grams) and
    operator row (kb_ops), same rowid."""
    if replace:
        counts.remove_rows(conn, [cid])
        conn.execute("DELETE FROM kb_fts WHERE rowid = ?", (cid,))
        conn.execute("DELETE FROM kb_grams WHERE rowid = ?", (cid,))
        conn.execute("DELETE FROM kb_ops WHERE rowid = ?", (cid,))
    conn.execute("INSERT INTO kb_fts(rowid, body, title) VALUES (?, ?, ?)",
                 (cid, chunk.body_tokens, title_tokens))
    counts.add([(chunk.body_tokens, title_tokens)])
    if chunk.gram_tokens:
        conn.execute("INSERT INTO kb_grams(rowid, grams) VALUES (?, ?)", (cid, chunk.gram_tokens))
    if chunk.op_tokens:
        conn.execute("INSERT INTO kb_ops(rowid, ops) VALUES (?, ?)", (cid, chunk.op_tokens))


def _delete_chunks(conn: sqlite3.Connection, key: SourceKey, counts: term_df.Counts) -> list[int]:
    ids = [r[0] for r in conn.execute(
        "SELECT id FROM kb_chunks WHERE source_type = ? AND source_id = ?", key)]
    counts.remove_rows(conn, ids)
    conn.executemany("DELETE FROM kb_fts WHERE rowid = ?", [(i,) for i in ids])
    conn.executemany("DELETE FROM kb_grams WHERE rowid = ?", [(i,) for i in ids])
    conn.executemany("DELETE FROM kb_ops WHERE rowid = ?", [(i,) for i in ids])
    conn.executemany("DELETE FROM kb_vectors WHERE chunk_id = ?", [(i,) for i in ids])
    conn.execute("DELETE FROM kb_chunks WHERE source_type = ? AND source_id = ?", key)
    return ids


def remove_source(conn: sqlite3.Connection, key: SourceKey) -> list[int]:
    """Remove every row of a source (inside the caller's transaction); returns chunk ids."""
    counts = term_df.Counts()
    removed = _delete_chunks(conn, key, counts)
    counts.flush(conn)
    conn.execute("DELETE FROM kb_sources WHERE source_type = ? AND source_id = ?", key)
    conn.execute("DELETE FROM kb_terms WHERE source_type = ? AND source_id = ?", key)
    conn.execute("DELETE FROM kb_failures WHERE source_type = ? AND source_id = ?", key)
    return removed


def record_failure(conn: sqlite3.Connection, key: SourceKey, reason: str) -> None:
    conn.execute(
        "INSERT INTO kb_failures(source_type, source_id, reason, attempts, last_at) "
        "VALUES (?, ?, ?, 1, ?) ON CONFLICT(source_type, source_id) DO UPDATE SET "
        "reason = excluded.reason, attempts = attempts + 1, last_at = excluded.last_at",
        (*key, reason, time.time()))


def failures(conn: sqlite3.Connection) -> list[tuple[str, int, str, int]]:
    return conn.execute(
        "SELECT source_type, source_id, reason, attempts FROM kb_failures "
        "ORDER BY last_at DESC").fetchall()
