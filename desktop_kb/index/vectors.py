"""Vector rows and the embedding cache in ``index.sqlite``.

Vectors are stored per chunk for the model in use; the cache is keyed by
(text hash, model id) so unchanged text is never embedded twice, across edits,
rebuilds and model switches.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

import numpy as np

from desktop_kb.embed.engine import EmbeddingEngine
from desktop_kb.index import vector_file
from desktop_kb.retrieval.dense import sign_bits
from desktop_kb.store.sql_lists import in_batches


def to_blob(vector: np.ndarray) -> bytes:
    return np.ascontiguousarray(vector, dtype=np.float32).tobytes()


def from_blob(blob: bytes, dim: int) -> np.ndarray:
    return np.frombuffer(blob, dtype=np.float32, count=dim)


def cached_vectors(
    conn: sqlite3.Connection, model_id: str, hashes: Sequence[str], dim: int,
) -> dict[str, np.ndarray]:
    found: dict[str, np.ndarray] = {}
    unique = list(dict.fromkeys(hashes))
    for part, marks in in_batches(unique):
        for text_hash, blob in conn.execute(
            f"SELECT text_hash, vector FROM kb_embed_cache WHERE model_id = ? AND text_hash IN ({marks})",
            (model_id, *part),
        ):
            found[text_hash] = from_blob(blob, dim)
    return found


def vectors_for(
    conn: sqlite3.Connection, engine: EmbeddingEngine, items: Sequence[tuple[str, str]],
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Vectors for ``(text_hash, text)`` items: (all found, newly embedded ones to cache).

    Runs outside any write transaction: embedding is the slow part and must not
    hold the index's write lock.
    """
    have = cached_vectors(conn, engine.model_id, [h for h, _ in items], engine.dim)
    todo: dict[str, str] = {}
    for text_hash, text in items:
        if text_hash not in have and text_hash not in todo:
            todo[text_hash] = text
    fresh: dict[str, np.ndarray] = {}
    if todo:
        matrix = engine.embed_passages(list(todo.values()))
        fresh = {h: matrix[i] for i, h in enumerate(todo)}
        have.update(fresh)
    return have, fresh


def store_cache(conn: sqlite3.Connection, model_id: str, fresh: dict[str, np.ndarray]) -> None:
    conn.executemany(
        "INSERT OR REPLACE INTO kb_embed_cache(text_hash, model_id, vector) VALUES (?, ?, ?)",
        [(h, model_id, to_blob(v)) for h, v in fresh.items()],
    )


def store_vectors(conn: sqlite3.Connection, model_id: str, rows: Sequence[tuple[int, np.ndarray]]) -> None:
    """Write float vectors with their sign bits (what the dense index loads), and the
    vectors into their slots of ``index.vectors`` (what its rescoring reads)."""
    if not rows:
        return
    matrix = np.stack([np.asarray(v, dtype=np.float32) for _, v in rows])
    codes = sign_bits(matrix)
    conn.executemany(
        "INSERT OR REPLACE INTO kb_vectors(chunk_id, model_id, vector, code) VALUES (?, ?, ?, ?)",
        [(cid, model_id, to_blob(v), codes[i].tobytes()) for i, (cid, v) in enumerate(rows)],
    )
    vector_file.write_slots(conn, model_id, [cid for cid, _ in rows], matrix)


def load_codes(conn: sqlite3.Connection, model_id: str, dim: int) -> tuple[np.ndarray, np.ndarray]:
    """(ids, sign bits) of every stored vector of the model, read in slices.

    The float vectors stay on disk: at 10^6 chunks the codes are 64 MB where
    the floats would be 2 GB. Arrays are filled in place, never via a list of
    a million small objects.
    """
    width = (dim + 7) // 8
    count = conn.execute("SELECT count(*) FROM kb_vectors WHERE model_id = ?", (model_id,)).fetchone()[0]
    ids = np.empty(count, dtype=np.int64)
    codes = np.empty((count, width), dtype=np.uint8)
    n = 0
    cursor = conn.execute(
        "SELECT chunk_id, code FROM kb_vectors WHERE model_id = ? AND length(code) = ?",
        (model_id, width))
    while n < count:
        rows = cursor.fetchmany(65536)
        if not rows:
            break
        rows = rows[:count - n]
        ids[n:n + len(rows)] = [r[0] for r in rows]
        codes[n:n + len(rows)] = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.uint8).reshape(
            len(rows), width)
        n += len(rows)
    return ids[:n], codes[:n]


def prune_cache(conn: sqlite3.Connection) -> None:
    """Forget cached text no chunk holds any more (keeps the file from growing forever)."""
    conn.execute("DELETE FROM kb_embed_cache WHERE text_hash NOT IN (SELECT text_hash FROM kb_chunks)")
