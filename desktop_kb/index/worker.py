"""The index worker: one thread owns ``index.sqlite``'s write connection (I3, house rule 3).

Save hooks enqueue source keys; repeated requests for the same source coalesce
into one. Removals, rebuilds and verifies are control jobs that return futures,
so a caller can wait for "index rows gone" before deleting the source row (I4).
Failures are recorded with their reason and reported; they are retried on the
next save, verify or rebuild.

This module is the thread, its queue and its jobs; what the jobs do lives in
``apply`` (writing sources), ``rebuild`` and ``backfill`` (embedding).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from desktop_kb.embed.engine import EmbeddingEngine
from desktop_kb.index import db
from desktop_kb.index.apply import Applier, IndexEvent
from desktop_kb.index.backfill import backfill_vectors
from desktop_kb.index.rebuild import RebuildResult, rebuild_index
from desktop_kb.index.sources import SourceKey
from desktop_kb.index.verify import VerifyReport, delete_orphan_rows, find_drift
from desktop_kb.index.writer import remove_source
from desktop_kb.progress import Progress
from desktop_kb.retrieval.dense import DenseIndex
from desktop_kb.store.connection import open_store

log = logging.getLogger(__name__)

BATCH = 64
# How long ``stop`` waits for the job in hand (one batch of a cancelled rebuild
# or backfill) before giving up on the thread; the index stays consistent either
# way, because every batch is one transaction.
STOP_TIMEOUT_S = 10.0

Listener = Callable[[IndexEvent], None]


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
        self._index_path = index_path
        self._listeners: list[Listener] = [listener] if listener else []
        self._cv = threading.Condition()
        self._pending: OrderedDict[SourceKey, None] = OrderedDict()
        self._control: deque[_Job] = deque()
        self._busy = False
        self._stopping = False
        self._thread: threading.Thread | None = None
        self._apply: Applier | None = None
        self._ready = threading.Event()
        self._startup_error: BaseException | None = None
        self._active_progress: Progress | None = None

    # ----- lifecycle -------------------------------------------------------------

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="index-worker", daemon=True)
        self._thread.start()
        self._ready.wait()
        if self._startup_error is not None:
            raise self._startup_error

    def stop(self, timeout: float | None = STOP_TIMEOUT_S) -> bool:
        """Cancel a running rebuild or backfill (both resume later) and end the thread.

        Returns False when the thread did not end within ``timeout``; it is a
        daemon thread and every batch it writes is one transaction, so the
        process may still exit safely.
        """
        with self._cv:
            self._stopping = True
            if self._active_progress is not None:
                self._active_progress.cancel()
            self._cv.notify_all()
        if self._thread is not None:
            self._thread.join(timeout)
            if self._thread.is_alive():
                log.warning("the index worker did not stop within %s s", timeout)
                return False
            self._thread = None
        return True

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
            self._applier().remove(keys)
            with self._cv:
                for key in keys:
                    self._pending.pop(key, None)
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
        return None if self._apply is None else self._apply.engine

    def call(self, fn: Callable[[sqlite3.Connection], Any]) -> Future[Any]:
        """Run ``fn(index_write_conn)`` on the worker thread (for status queries and tests)."""
        return self._submit(lambda: fn(self._applier().conn), "call")

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

    def _applier(self) -> Applier:
        assert self._apply is not None
        return self._apply

    def _run(self) -> None:
        try:
            conn = db.open_index_writer(self._index_path)
            store = open_store(self._store_path, readonly=True)
            self._apply = Applier(conn, store, self.dense, self._emit)
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
                        self._applier().index_keys(keys)
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
            self._applier().conn.close()
            self._applier().store.close()

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
        finally:
            if job.kind not in ("remove", "call"):  # those run inside long jobs
                with self._cv:
                    self._active_progress = None

    def _service_between_batches(self) -> None:
        """During a rebuild or backfill, removals and saves must not wait for all of it."""
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
                self._applier().index_keys(keys)
            else:
                return

    def _long_job(self, progress: Progress) -> Progress:
        """Remember the running long job's progress, so ``stop`` can cancel it."""
        with self._cv:
            self._active_progress = progress
            if self._stopping:
                progress.cancel()
        return progress

    def _rebuild(self, progress: Progress) -> RebuildResult:
        applier = self._applier()
        return rebuild_index(applier, self._long_job(progress), self._service_between_batches,
                             after=lambda: self._backfill(Progress()))

    def _backfill(self, progress: Progress) -> int:
        """Embed chunks without vectors; a cancelled backfill resumes with the next one."""
        return backfill_vectors(self._applier(), self._long_job(progress),
                                self._service_between_batches).embedded

    def _verify(self, repair: bool) -> VerifyReport:
        applier = self._applier()
        conn = applier.conn
        report = find_drift(conn, applier.store)
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
            after = find_drift(conn, applier.store)
            todo = after.missing + after.stale
            for i in range(0, len(todo), BATCH):
                applier.index_keys(todo[i:i + BATCH])
            applier.reload_dense()
            self._backfill(Progress())
            report.repaired = True
        self._emit(IndexEvent("verified", detail=str(report.drift)))
        return report

    def _set_engine(self, loader: Callable[[], EmbeddingEngine | None], progress: Progress) -> int:
        applier = self._applier()
        conn = applier.conn
        engine = loader()
        model_id = engine.model_id if engine is not None else ""
        if (db.get_meta(conn, "embed_model") or "") != model_id:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("DELETE FROM kb_vectors")  # never mix two models' vectors
            db.set_meta(conn, "embed_model", model_id)
            conn.execute("COMMIT")
        applier.engine = engine
        applier.reload_dense()
        self._emit(IndexEvent("model", detail=model_id))
        return self._backfill(progress)

    def _emit(self, event: IndexEvent) -> None:
        for listener in self._listeners:
            try:
                listener(event)
            except Exception:  # a broken listener must not kill indexing
                log.exception("index listener failed")
