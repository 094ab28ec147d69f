"""Writing sources into the index: the part catch-up, verify, rebuild and backfill share.

Only the index worker thread uses an ``Applier`` (house rule 3). It owns no
thread and no queue; it turns "these sources changed" into committed index
rows, keeps the in-memory dense matrix in step with what it committed, and
records every failure with its reason (I3: never silent).
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from desktop_kb.embed.engine import EmbeddingEngine
from desktop_kb.index.prepare import PreparedSource, embed_text_of, prepare_source
from desktop_kb.index.sources import SourceKey, load_source
from desktop_kb.index.vectors import load_all_vectors, store_cache, store_vectors, vectors_for
from desktop_kb.index.writer import WriteResult, record_failure, remove_source, write_source
from desktop_kb.retrieval.dense import DenseIndex

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class IndexEvent:
    """What the worker reports; the Qt bridge turns these into signals."""

    # "indexed" | "failed" | "removed" | "queue" | "rebuilt" | "verified" | "embedding" | "model"
    kind: str
    key: SourceKey | None = None
    detail: str = ""
    pending: int = 0


Emit = Callable[[IndexEvent], None]


@dataclass
class RebuildScope:
    """While a rebuild runs, sources indexed outside it join its generation and are
    remembered, so the rebuild never writes its older read-ahead copy over them."""

    generation: int
    touched: set[SourceKey] = field(default_factory=set)


class Applier:
    def __init__(self, conn: sqlite3.Connection, store: sqlite3.Connection, dense: DenseIndex,
                 emit: Emit) -> None:
        self.conn = conn  # index.sqlite, the one write connection
        self.store = store  # library.sqlite, read-only
        self.dense = dense
        self.emit = emit
        self.engine: EmbeddingEngine | None = None
        self.rebuild: RebuildScope | None = None

    # ----- sources --------------------------------------------------------------

    def index_keys(self, keys: list[SourceKey], generation: int = 0) -> None:
        """Index a batch; one transaction, falling back to one-by-one on failure."""
        conn = self.conn
        if self.rebuild is not None:
            self.rebuild.touched.update(keys)
            generation = self.rebuild.generation
        prepared: list[PreparedSource] = []
        gone: list[SourceKey] = []
        for key in keys:
            try:
                source = load_source(self.store, key)
                if source is None:
                    gone.append(key)
                else:
                    prepared.append(prepare_source(source))
            except Exception as exc:  # noqa: BLE001 - recorded, counted, retried
                self.fail(key, exc)
        vectors, fresh, embed_error = self.vectors(prepared)
        written = WriteResult()
        try:
            conn.execute("BEGIN IMMEDIATE")
            for key in gone:
                written.removed.extend(remove_source(conn, key))
            for item in prepared:
                written.extend(write_source(conn, item, generation=generation))
            self.store_vectors(written, vectors, fresh)
            conn.execute("COMMIT")
        except Exception as exc:  # noqa: BLE001
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if len(prepared) + len(gone) <= 1:
                for key in gone or [p.key for p in prepared]:
                    self.fail(key, exc)
                return
            for item in prepared:
                self.index_keys([item.key], generation)
            for key in gone:
                self.index_keys([key], generation)
            return
        self.sync_dense(written)
        if embed_error is not None:
            for item in prepared:
                self.fail(item.key, embed_error)
            return
        for item in prepared:
            self.emit(IndexEvent("indexed", key=item.key))
        for key in gone:
            self.emit(IndexEvent("removed", key=key))

    def remove(self, keys: list[SourceKey]) -> None:
        conn = self.conn
        if self.rebuild is not None:
            self.rebuild.touched.update(keys)
        removed: list[int] = []
        conn.execute("BEGIN IMMEDIATE")
        try:
            for key in keys:
                removed.extend(remove_source(conn, key))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        self.dense.remove(removed)
        for key in keys:
            self.emit(IndexEvent("removed", key=key))

    def fail(self, key: SourceKey, exc: BaseException) -> None:
        reason = f"{type(exc).__name__}: {exc}"
        log.warning("indexing %s failed: %s", key, reason)
        conn = self.conn
        try:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            conn.execute("BEGIN IMMEDIATE")
            record_failure(conn, key, reason)
            conn.execute("COMMIT")
        except sqlite3.Error:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
        self.emit(IndexEvent("failed", key=key, detail=reason))

    # ----- vectors --------------------------------------------------------------

    def vectors(
        self, prepared: list[PreparedSource],
    ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray], Exception | None]:
        """Embed what the batch needs before the write transaction (cache first)."""
        engine = self.engine
        if engine is None or not prepared:
            return {}, {}, None
        items = [(chunk.embed_hash, embed_text_of(chunk.text, item.title))
                 for item in prepared for chunk in item.chunks]
        try:
            have, fresh = vectors_for(self.conn, engine, items)
        except Exception as exc:  # noqa: BLE001 - lexical rows still land; verify re-embeds
            log.warning("embedding failed: %s", exc)
            return {}, {}, exc
        return have, fresh, None

    def store_vectors(
        self, written: WriteResult, vectors: dict[str, np.ndarray], fresh: dict[str, np.ndarray],
    ) -> None:
        """Inside the caller's transaction: vectors for the chunks just added."""
        engine = self.engine
        if engine is None or not vectors:
            return
        for cid, chunk in written.added:
            vector = vectors.get(chunk.embed_hash)
            if vector is not None:
                written.vectors.append((cid, vector))
        store_vectors(self.conn, engine.model_id, written.vectors)
        store_cache(self.conn, engine.model_id, fresh)

    def sync_dense(self, written: WriteResult) -> None:
        """Keep the in-memory matrix in step with what was just committed."""
        if written.removed:
            self.dense.remove(written.removed)
        rows = written.vectors
        if rows and self.engine is not None and self.dense.model_id == self.engine.model_id:
            self.dense.add([cid for cid, _ in rows], np.stack([v for _, v in rows]))

    def reload_dense(self) -> None:
        engine = self.engine
        if engine is None:
            self.dense.reset(None, 0)
            return
        ids, matrix, n = load_all_vectors(self.conn, engine.model_id, engine.dim)
        self.dense.reset(engine.model_id, engine.dim, ids, matrix, n)
