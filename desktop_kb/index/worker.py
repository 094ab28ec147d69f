"""The index worker: one thread owns ``index.sqlite``'s write connection (I3, house rule 3).

Save hooks enqueue source keys; repeated requests for the same source coalesce
into one. Removals, rebuilds and verifies are control jobs that return futures,
so a caller can wait for "index rows gone" before deleting the source row (I4).
Failures are recorded with their reason and reported; they are retried on the
next save, verify or rebuild.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import sqlite3
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from desktop_kb.embed.engine import EmbeddingEngine
from desktop_kb.index import db
from desktop_kb.index.pool_init import lower_priority_and_warm_up
from desktop_kb.index.prepare import (
    PreparedSource,
    embed_text_of,
    prepare_many,
    prepare_source,
)
from desktop_kb.index.segment import segmenter_signature
from desktop_kb.index.sources import (
    SourceKey,
    SourceText,
    live_keys,
    load_source,
    load_sources,
    text_hash,
)
from desktop_kb.index.vectors import (
    load_all_vectors,
    prune_cache,
    store_cache,
    store_vectors,
    vectors_for,
)
from desktop_kb.index.verify import VerifyReport, delete_orphan_rows, find_drift
from desktop_kb.index.writer import WriteResult, record_failure, remove_source, write_source
from desktop_kb.progress import Cancelled, Progress
from desktop_kb.retrieval.dense import DenseIndex
from desktop_kb.store.connection import open_store

log = logging.getLogger(__name__)

BATCH = 64
REBUILD_BATCH = 128
# Below this many characters a rebuild stays in-thread: starting worker
# processes (each loads jieba's dictionary) costs more than it saves.
POOL_MIN_CHARS = 1_500_000


@dataclass(frozen=True)
class IndexEvent:
    """What the worker reports; the Qt bridge turns these into signals."""

    # "indexed" | "failed" | "removed" | "queue" | "rebuilt" | "verified" | "embedding" | "model"
    kind: str
    key: SourceKey | None = None
    detail: str = ""
    pending: int = 0


Listener = Callable[[IndexEvent], None]


@dataclass
class RebuildResult:
    sources: int
    chunks: int
    chars: int
    seconds: float
    cancelled: bool = False


class _Job:
    def __init__(self, fn: Callable[[], Any], kind: str) -> None:
        self.fn = fn
        self.kind = kind  # "remove" and "call" jobs may run between rebuild batches
        self.future: Future[Any] = Future()


class IndexWorker:
    def __init__(self, store_path: Path, index_path: Path, listener: Listener | None = None,
                 dense: DenseIndex | None = None) -> None:
        self._store_path = store_path
        self.dense = dense if dense is not None else DenseIndex()
        self._engine: EmbeddingEngine | None = None
        self._index_path = index_path
        self._listeners: list[Listener] = [listener] if listener else []
        self._cv = threading.Condition()
        self._pending: OrderedDict[SourceKey, None] = OrderedDict()
        self._control: deque[_Job] = deque()
        self._busy = False
        self._stopping = False
        self._thread: threading.Thread | None = None
        self._conn: sqlite3.Connection | None = None
        self._store: sqlite3.Connection | None = None
        self._ready = threading.Event()
        self._startup_error: BaseException | None = None
        self._in_rebuild_gen: int | None = None
        # Keys saved or removed while a rebuild runs; the rebuild's own copy of
        # them may have been read before the change, so it must not be written.
        self._rebuild_touched: set[SourceKey] | None = None

    # ----- lifecycle -------------------------------------------------------------

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="index-worker", daemon=True)
        self._thread.start()
        self._ready.wait()
        if self._startup_error is not None:
            raise self._startup_error

    def stop(self) -> None:
        with self._cv:
            self._stopping = True
            self._cv.notify_all()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)

    # ----- requests (any thread) -------------------------------------------------

    def enqueue(self, keys: Iterable[SourceKey]) -> None:
        """Save hook entry: index these sources soon; duplicates coalesce."""
        with self._cv:
            for key in keys:
                self._pending.pop(key, None)
                self._pending[key] = None
            pending = len(self._pending)
            self._cv.notify_all()
        self._emit(IndexEvent("queue", pending=pending))

    def enqueue_note(self, note_id: int) -> None:
        self.enqueue([("note", note_id)])

    def remove(self, keys: Iterable[SourceKey], then: Callable[[], Any] | None = None) -> Future[Any]:
        """Remove index rows now-ish; the future's result is ``then()``'s.

        ``then`` is the store change (delete, trash) and runs on the worker
        thread right after the rows are gone, so no indexing of these sources
        (a queued save, a rebuild batch) can fall between the two (I4). The
        caller must hold the store's write lock while it waits.
        """
        keys = list(keys)

        def job() -> Any:
            self._remove(keys)
            return then() if then is not None else None

        return self._submit(job, "remove", front=True)

    def rebuild(self, progress: Progress | None = None) -> Future[RebuildResult]:
        return self._submit(lambda: self._rebuild(progress or Progress()), "rebuild")

    def verify(self, repair: bool = True) -> Future[VerifyReport]:
        return self._submit(lambda: self._verify(repair), "verify")

    def set_engine(self, loader: Callable[[], EmbeddingEngine | None],
                   progress: Progress | None = None) -> Future[int]:
        """Switch the embedding model (``loader`` runs on the worker thread, off the GUI).

        Vectors of any other model are dropped first, then every chunk without a
        vector is embedded in the background (cache hits cost nothing). Returns
        the number of chunks embedded.
        """
        return self._submit(lambda: self._set_engine(loader, progress or Progress()), "model")

    @property
    def engine(self) -> EmbeddingEngine | None:
        return self._engine

    def call(self, fn: Callable[[sqlite3.Connection], Any]) -> Future[Any]:
        """Run ``fn(index_write_conn)`` on the worker thread (for status queries and tests)."""
        return self._submit(lambda: fn(self._require_conn()), "call")

    def drain(self, timeout: float | None = None) -> bool:
        """Block until every request made so far has been handled."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cv:
            while self._pending or self._control or self._busy:
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return False
                self._cv.wait(remaining)
        return True

    @property
    def pending(self) -> int:
        with self._cv:
            return len(self._pending) + (1 if self._busy else 0)

    # ----- worker thread ---------------------------------------------------------

    def _submit(self, fn: Callable[[], Any], kind: str, front: bool = False) -> Future[Any]:
        job = _Job(fn, kind)
        with self._cv:
            if self._stopping:
                job.future.set_exception(RuntimeError("The index worker has stopped."))
                return job.future
            if front:
                self._control.appendleft(job)
            else:
                self._control.append(job)
            self._cv.notify_all()
        return job.future

    def _require_conn(self) -> sqlite3.Connection:
        assert self._conn is not None
        return self._conn

    def _run(self) -> None:
        try:
            self._conn = db.open_index_writer(self._index_path)
            self._store = open_store(self._store_path, readonly=True)
        except BaseException as exc:  # reported to start()'s caller
            self._startup_error = exc
            self._ready.set()
            return
        self._ready.set()
        try:
            while True:
                with self._cv:
                    while not (self._pending or self._control or self._stopping):
                        self._cv.wait()
                    # Saves already committed to the store must reach the index
                    # before the worker exits: nothing else would re-queue them
                    # (the index is not dirty), so flush them; queued control
                    # jobs are refused below.
                    if self._stopping and not self._pending:
                        break
                    self._busy = True
                    job = (self._control.popleft()
                           if self._control and not self._stopping else None)
                    keys = [] if job else self._take_pending(BATCH)
                try:
                    if job is not None:
                        self._run_job(job)
                    else:
                        self._index_keys(keys)
                finally:
                    with self._cv:
                        self._busy = False
                        pending = len(self._pending)
                        self._cv.notify_all()
                    self._emit(IndexEvent("queue", pending=pending))
        finally:
            with self._cv:
                for job in self._control:
                    job.future.set_exception(RuntimeError("The index worker has stopped."))
                self._control.clear()
                self._cv.notify_all()
            self._conn.close()
            self._store.close()

    def _take_pending(self, limit: int) -> list[SourceKey]:
        keys = []
        while self._pending and len(keys) < limit:
            key, _ = self._pending.popitem(last=False)
            keys.append(key)
        return keys

    def _run_job(self, job: _Job) -> None:
        if not job.future.set_running_or_notify_cancel():
            return
        try:
            job.future.set_result(job.fn())
        except BaseException as exc:
            job.future.set_exception(exc)

    def _index_keys(self, keys: list[SourceKey], generation: int = 0) -> None:
        """Index a batch; one transaction, falling back to one-by-one on failure."""
        assert self._store is not None
        conn = self._require_conn()
        if self._rebuild_touched is not None:
            self._rebuild_touched.update(keys)
        if self._in_rebuild_gen is not None:
            generation = self._in_rebuild_gen
        prepared: list[PreparedSource] = []
        gone: list[SourceKey] = []
        for key in keys:
            try:
                source = load_source(self._store, key)
                if source is None:
                    gone.append(key)
                else:
                    prepared.append(prepare_source(source))
            except Exception as exc:  # noqa: BLE001 - recorded, counted, retried
                self._fail(key, exc)
        vectors, fresh, embed_error = self._vectors(prepared)
        written = WriteResult()
        try:
            conn.execute("BEGIN IMMEDIATE")
            for key in gone:
                written.removed.extend(remove_source(conn, key))
            for item in prepared:
                written.extend(write_source(conn, item, generation=generation))
            self._store_vectors(conn, written, vectors, fresh)
            conn.execute("COMMIT")
        except Exception as exc:  # noqa: BLE001
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if len(prepared) + len(gone) <= 1:
                for key in gone or [p.key for p in prepared]:
                    self._fail(key, exc)
                return
            for item in prepared:
                self._index_keys([item.key], generation)
            for key in gone:
                self._index_keys([key], generation)
            return
        self._sync_dense(written, vectors)
        if embed_error is not None:
            for item in prepared:
                self._fail(item.key, embed_error)
            return
        for item in prepared:
            self._emit(IndexEvent("indexed", key=item.key))
        for key in gone:
            self._emit(IndexEvent("removed", key=key))

    def _vectors(
        self, prepared: list[PreparedSource],
    ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray], Exception | None]:
        """Embed what the batch needs before the write transaction (cache first)."""
        engine = self._engine
        if engine is None or not prepared:
            return {}, {}, None
        items = [(chunk.embed_hash, embed_text_of(chunk.text, item.title))
                 for item in prepared for chunk in item.chunks]
        try:
            have, fresh = vectors_for(self._require_conn(), engine, items)
        except Exception as exc:  # noqa: BLE001 - lexical rows still land; verify re-embeds
            log.warning("embedding failed: %s", exc)
            return {}, {}, exc
        return have, fresh, None

    def _store_vectors(
        self, conn: sqlite3.Connection, written: WriteResult, vectors: dict[str, np.ndarray],
        fresh: dict[str, np.ndarray],
    ) -> None:
        engine = self._engine
        if engine is None or not vectors:
            return
        for cid, chunk in written.added:
            vector = vectors.get(chunk.embed_hash)
            if vector is not None:
                written.vectors.append((cid, vector))
        store_vectors(conn, engine.model_id, written.vectors)
        store_cache(conn, engine.model_id, fresh)

    def _sync_dense(self, written: WriteResult, vectors: dict[str, np.ndarray]) -> None:
        """Keep the in-memory matrix in step with what was just committed."""
        if written.removed:
            self.dense.remove(written.removed)
        rows = written.vectors
        if rows and self._engine is not None and self.dense.model_id == self._engine.model_id:
            self.dense.add([cid for cid, _ in rows], np.stack([v for _, v in rows]))

    def _fail(self, key: SourceKey, exc: BaseException) -> None:
        reason = f"{type(exc).__name__}: {exc}"
        log.warning("indexing %s failed: %s", key, reason)
        conn = self._require_conn()
        try:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            conn.execute("BEGIN IMMEDIATE")
            record_failure(conn, key, reason)
            conn.execute("COMMIT")
        except sqlite3.Error:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
        self._emit(IndexEvent("failed", key=key, detail=reason))

    def _remove(self, keys: list[SourceKey]) -> None:
        conn = self._require_conn()
        if self._rebuild_touched is not None:
            self._rebuild_touched.update(keys)
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
        with self._cv:
            for key in keys:
                self._pending.pop(key, None)
        for key in keys:
            self._emit(IndexEvent("removed", key=key))

    def _service_between_batches(self) -> None:
        """During a rebuild, removals and saves must not wait for the whole rebuild."""
        while True:
            with self._cv:
                job = None
                for candidate in self._control:
                    if candidate.kind in ("remove", "call"):
                        job = candidate
                        self._control.remove(candidate)
                        break
                keys = [] if job else self._take_pending(BATCH)
            if job is not None:
                self._run_job(job)
            elif keys:
                self._index_keys(keys)
            else:
                return

    def _rebuild(self, progress: Progress) -> RebuildResult:
        assert self._store is not None
        conn = self._require_conn()
        started = time.perf_counter()
        db.set_meta(conn, "dirty", "1")  # committed before any change (house rule 4)
        generation = int(db.get_meta(conn, "generation") or 0) + 1
        db.set_meta(conn, "generation", str(generation))
        self._in_rebuild_gen = generation
        self._rebuild_touched = touched = set()
        keys = live_keys(self._store)
        total_chars = self._store.execute(
            "SELECT coalesce((SELECT sum(length(body)) FROM notes WHERE trashed_at IS NULL), 0) + "
            "coalesce((SELECT sum(length(text)) FROM fragments), 0)").fetchone()[0]
        progress.start("rebuild", len(keys))
        chunks = 0
        try:
            for batch in self._prepared_batches(keys, total_chars, progress):
                items = self._current_versions(batch, touched)
                vectors, fresh, _error = self._vectors(items)  # misses: backfilled below
                written = WriteResult()
                conn.execute("BEGIN IMMEDIATE")
                try:
                    for item in items:
                        written.extend(write_source(conn, item, generation=generation, force=True))
                        chunks += len(item.chunks)
                    self._store_vectors(conn, written, vectors, fresh)
                    conn.execute("COMMIT")
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
                self._sync_dense(written, vectors)
                progress.tick(len(batch))
                self._service_between_batches()
            conn.execute("BEGIN IMMEDIATE")
            for row in conn.execute(
                    "SELECT source_type, source_id FROM kb_sources WHERE generation != ?",
                    (generation,)).fetchall():
                remove_source(conn, (row[0], row[1]))
            delete_orphan_rows(conn)
            prune_cache(conn)
            conn.execute("DELETE FROM kb_failures")
            db.set_meta(conn, "segmenter", segmenter_signature())
            db.set_meta(conn, "dirty", "0")
            conn.execute("COMMIT")
            self._reload_dense()
            self._backfill_vectors(Progress())
        except Cancelled:
            result = RebuildResult(len(keys), chunks, total_chars,
                                   time.perf_counter() - started, cancelled=True)
            self._emit(IndexEvent("rebuilt", detail="cancelled"))
            return result
        finally:
            self._in_rebuild_gen = None
            self._rebuild_touched = None
            if conn.in_transaction:
                conn.execute("ROLLBACK")
        progress.finish()
        self._emit(IndexEvent("rebuilt", detail="ok"))
        return RebuildResult(len(keys), chunks, total_chars, time.perf_counter() - started)

    def _current_versions(
        self, batch: list[PreparedSource], touched: set[SourceKey],
    ) -> list[PreparedSource]:
        """Re-read sources saved or removed after their batch was read (worker
        processes read ahead): the store's current text is written, or nothing
        if the source is gone, never the stale copy (I4)."""
        assert self._store is not None
        if not touched:
            return batch
        out: list[PreparedSource] = []
        for item in batch:
            if item.key in touched:
                current = load_source(self._store, item.key)
                if current is None:
                    continue
                item = prepare_source(current)
            out.append(item)
        return out

    def _prepared_batches(
        self, keys: list[SourceKey], total_chars: int, progress: Progress,
    ) -> Iterator[list[PreparedSource]]:
        assert self._store is not None
        batches = [keys[i:i + REBUILD_BATCH] for i in range(0, len(keys), REBUILD_BATCH)]
        workers = min(2, os.cpu_count() or 1)
        if total_chars < POOL_MIN_CHARS or workers < 2:
            for batch in batches:
                progress.check()
                yield [prepare_source(s) for s in load_sources(self._store, batch)]
            return
        # Segmentation is CPU-bound pure Python: use processes, and keep a few
        # batches in flight so the SQL writes here overlap with segmentation there.
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=workers, mp_context=ctx,
                                 initializer=lower_priority_and_warm_up) as pool:
            in_flight: deque[Future[list[PreparedSource]]] = deque()
            todo = iter(batches)
            try:
                for _ in range(workers * 2):
                    self._submit_batch(pool, in_flight, todo)
                while in_flight:
                    progress.check()
                    done = in_flight.popleft().result()
                    self._submit_batch(pool, in_flight, todo)
                    yield done
            finally:
                for fut in in_flight:
                    fut.cancel()

    def _submit_batch(
        self, pool: ProcessPoolExecutor, in_flight: deque[Future[list[PreparedSource]]],
        todo: Iterator[list[SourceKey]],
    ) -> None:
        assert self._store is not None
        batch = next(todo, None)
        if batch is not None:
            sources: list[SourceText] = load_sources(self._store, batch)
            in_flight.append(pool.submit(prepare_many, sources))

    def _verify(self, repair: bool) -> VerifyReport:
        assert self._store is not None
        conn = self._require_conn()
        report = find_drift(conn, self._store)
        if repair and report.drift:
            conn.execute("BEGIN IMMEDIATE")
            try:
                for key in report.orphans:
                    remove_source(conn, key)
                delete_orphan_rows(conn)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            after = find_drift(conn, self._store)
            todo = after.missing + after.stale
            for i in range(0, len(todo), BATCH):
                self._index_keys(todo[i:i + BATCH])
            self._reload_dense()
            self._backfill_vectors(Progress())
            report.repaired = True
        self._emit(IndexEvent("verified", detail=str(report.drift)))
        return report

    def _set_engine(self, loader: Callable[[], EmbeddingEngine | None], progress: Progress) -> int:
        conn = self._require_conn()
        engine = loader()
        model_id = engine.model_id if engine is not None else ""
        if (db.get_meta(conn, "embed_model") or "") != model_id:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("DELETE FROM kb_vectors")  # never mix two models' vectors
            db.set_meta(conn, "embed_model", model_id)
            conn.execute("COMMIT")
        self._engine = engine
        self._reload_dense()
        self._emit(IndexEvent("model", detail=model_id))
        return self._backfill_vectors(progress)

    def _reload_dense(self) -> None:
        engine = self._engine
        if engine is None:
            self.dense.reset(None, 0)
            return
        ids, matrix, n = load_all_vectors(self._require_conn(), engine.model_id, engine.dim)
        self.dense.reset(engine.model_id, engine.dim, ids, matrix, n)

    def _backfill_vectors(self, progress: Progress) -> int:
        """Embed every chunk that has no vector yet, in batches, between other work."""
        engine = self._engine
        if engine is None:
            return 0
        assert self._store is not None
        conn = self._require_conn()
        missing_sql = ("FROM kb_chunks c WHERE NOT EXISTS "
                       "(SELECT 1 FROM kb_vectors v WHERE v.chunk_id = c.id)")
        total = conn.execute(f"SELECT count(*) {missing_sql}").fetchone()[0]
        if total == 0:
            return 0
        progress.start("embed", total)
        done = 0
        last_id = -1
        while True:
            progress.check()
            rows = conn.execute(
                f"SELECT c.id, c.source_type, c.source_id, c.start, c.end {missing_sql} "
                "AND c.id > ? ORDER BY c.id LIMIT 256", (last_id,)).fetchall()
            if not rows:
                break
            last_id = rows[-1][0]
            texts: dict[int, tuple[str, str]] = {}
            sources: dict[SourceKey, SourceText | None] = {}
            for cid, kind, sid, start, end in rows:
                key = (kind, sid)
                if key not in sources:
                    sources[key] = load_source(self._store, key)
                source = sources[key]
                if source is None or end > len(source.text):
                    continue  # stale chunk: the next save or verify fixes it
                text = embed_text_of(source.text[start:end], source.title)
                texts[cid] = (text_hash(text), text)
            try:
                vectors, fresh = vectors_for(conn, engine, list(texts.values()))
            except Exception as exc:  # noqa: BLE001 - reported; verify retries later
                self._emit(IndexEvent("failed", detail=f"embedding failed: {exc}"))
                return done
            rows_out = [(cid, vectors[h]) for cid, (h, _) in texts.items() if h in vectors]
            conn.execute("BEGIN IMMEDIATE")
            try:
                store_vectors(conn, engine.model_id, rows_out)
                store_cache(conn, engine.model_id, fresh)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            if rows_out:
                self.dense.add([cid for cid, _ in rows_out], np.stack([v for _, v in rows_out]))
            done += len(rows)
            progress.tick(len(rows))
            self._emit(IndexEvent("embedding", detail=f"{done}/{total}"))
            self._service_between_batches()
        progress.finish()
        return done

    def _emit(self, event: IndexEvent) -> None:
        for listener in self._listeners:
            try:
                listener(event)
            except Exception:  # a broken listener must not kill indexing
                log.exception("index listener failed")
