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

from desktop_kb.index import db
from desktop_kb.index.prepare import PreparedSource, prepare_many, prepare_source
from desktop_kb.index.segment import SEGMENTER_VERSION
from desktop_kb.index.sources import (
    SourceKey,
    SourceText,
    fragment_keys_of_document,
    live_keys,
    load_source,
    load_sources,
)
from desktop_kb.index.verify import VerifyReport, delete_orphan_rows, find_drift
from desktop_kb.index.writer import record_failure, remove_source, write_source
from desktop_kb.progress import Cancelled, Progress
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

    kind: str  # "indexed" | "failed" | "removed" | "queue" | "rebuilt" | "verified" | "error"
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
    def __init__(self, store_path: Path, index_path: Path, listener: Listener | None = None) -> None:
        self._store_path = store_path
        self._index_path = index_path
        self._listeners: list[Listener] = [listener] if listener else []
        self._cv = threading.Condition()
        self._pending: OrderedDict[SourceKey | tuple[str, int], None] = OrderedDict()
        self._control: deque[_Job] = deque()
        self._busy = False
        self._stopping = False
        self._thread: threading.Thread | None = None
        self._conn: sqlite3.Connection | None = None
        self._store: sqlite3.Connection | None = None
        self._ready = threading.Event()
        self._startup_error: BaseException | None = None
        self._in_rebuild_gen: int | None = None
        self.failed_count = 0

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

    def enqueue_document(self, document_id: int) -> None:
        self.enqueue([("document", document_id)])

    def remove(self, keys: Iterable[SourceKey]) -> Future[None]:
        """Remove index rows now-ish; wait on the future before deleting the source (I4)."""
        keys = list(keys)
        return self._submit(lambda: self._remove(keys), "remove", front=True)

    def rebuild(self, progress: Progress | None = None) -> Future[RebuildResult]:
        return self._submit(lambda: self._rebuild(progress or Progress()), "rebuild")

    def verify(self, repair: bool = True) -> Future[VerifyReport]:
        return self._submit(lambda: self._verify(repair), "verify")

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
                    if self._stopping:
                        break
                    self._busy = True
                    job = self._control.popleft() if self._control else None
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

    def _take_pending(self, limit: int) -> list[SourceKey | tuple[str, int]]:
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

    def _expand(self, keys: Iterable[SourceKey | tuple[str, int]]) -> list[SourceKey]:
        assert self._store is not None
        out: list[SourceKey] = []
        for kind, ident in keys:
            if kind == "document":
                out.extend(fragment_keys_of_document(self._store, ident))
            else:
                out.append((kind, ident))
        return out

    def _index_keys(self, raw_keys: list[SourceKey | tuple[str, int]], generation: int = 0) -> None:
        """Index a batch; one transaction, falling back to one-by-one on failure."""
        assert self._store is not None
        conn = self._require_conn()
        keys = self._expand(raw_keys)
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
        try:
            conn.execute("BEGIN IMMEDIATE")
            for key in gone:
                remove_source(conn, key)
            for item in prepared:
                write_source(conn, item, generation=generation)
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
        for item in prepared:
            self._emit(IndexEvent("indexed", key=item.key))
        for key in gone:
            self._emit(IndexEvent("removed", key=key))

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
        self.failed_count += 1
        self._emit(IndexEvent("failed", key=key, detail=reason))

    def _remove(self, keys: list[SourceKey]) -> None:
        conn = self._require_conn()
        conn.execute("BEGIN IMMEDIATE")
        try:
            for key in self._expand(keys):
                remove_source(conn, key)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
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
        keys = live_keys(self._store)
        total_chars = self._store.execute(
            "SELECT coalesce((SELECT sum(length(body)) FROM notes WHERE trashed_at IS NULL), 0) + "
            "coalesce((SELECT sum(length(text)) FROM fragments), 0)").fetchone()[0]
        progress.start("rebuild", len(keys))
        chunks = 0
        try:
            for batch in self._prepared_batches(keys, total_chars, progress):
                conn.execute("BEGIN IMMEDIATE")
                try:
                    for item in batch:
                        write_source(conn, item, generation=generation, force=True)
                        chunks += len(item.chunks)
                    conn.execute("COMMIT")
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
                progress.tick(len(batch))
                self._service_between_batches()
            conn.execute("BEGIN IMMEDIATE")
            for row in conn.execute(
                    "SELECT source_type, source_id FROM kb_sources WHERE generation != ?",
                    (generation,)).fetchall():
                remove_source(conn, (row[0], row[1]))
            delete_orphan_rows(conn)
            conn.execute("DELETE FROM kb_failures")
            db.set_meta(conn, "segmenter", SEGMENTER_VERSION)
            db.set_meta(conn, "dirty", "0")
            conn.execute("COMMIT")
        except Cancelled:
            result = RebuildResult(len(keys), chunks, total_chars,
                                   time.perf_counter() - started, cancelled=True)
            self._emit(IndexEvent("rebuilt", detail="cancelled"))
            return result
        finally:
            self._in_rebuild_gen = None
            if conn.in_transaction:
                conn.execute("ROLLBACK")
        progress.finish()
        self.failed_count = 0
        self._emit(IndexEvent("rebuilt", detail="ok"))
        return RebuildResult(len(keys), chunks, total_chars, time.perf_counter() - started)

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
        with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
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
            report.repaired = True
        self._emit(IndexEvent("verified", detail=str(report.drift)))
        return report

    def _emit(self, event: IndexEvent) -> None:
        for listener in self._listeners:
            try:
                listener(event)
            except Exception:  # a broken listener must not kill indexing
                log.exception("index listener failed")
