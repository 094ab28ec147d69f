"""The index worker: one thread per process, and one process per data folder that writes.

Every process that opens a library runs a worker. The one holding the index
writer lock (``writer_lock``) is the *owner*: its thread alone writes
``index.sqlite`` (I3, house rule 3, I12). It follows the store's change feed
(``catchup``) — saves from this process wake it at once; commits from other
processes are noticed by polling ``PRAGMA data_version`` — so no change has
to reach it through a hook to be indexed. In-process saves are also handed
over as *hints* and indexed first, so a note saved here is searchable before
a long backlog (another process's import) is worked off.

The others are *followers*: they write only the store, hide nothing from the
owner (the feed carries their changes), pass rebuild and verify requests to
the owner (``handoff``), keep their dense matrix in step with the index, and
take the lock over when the owner exits.

Removals, rebuilds, verifies and model switches are control jobs that return
futures. Failures are recorded with their reason and reported; environment
errors (disk full, read-only, I/O) stall the worker with the reason shown and
are retried; a damaged index file is replaced and rebuilt.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from desktop_kb.embed.engine import EmbeddingEngine
from desktop_kb.freed_memory import release_freed_memory
from desktop_kb.index import db, handoff, postings, vector_file
from desktop_kb.index.apply import Applier, IndexEvent
from desktop_kb.index.backfill import backfill_vectors
from desktop_kb.index.catchup import CatchUp, read_cursor
from desktop_kb.index.eta import EmbeddingProgress
from desktop_kb.index.rebuild import RebuildResult, rebuild_index
from desktop_kb.index.sources import SourceKey
from desktop_kb.index.vector_file import SlotReader
from desktop_kb.index.vectors import load_codes
from desktop_kb.index.verify import VerifyReport, find_drift, repair_drift
from desktop_kb.index.writer_lock import OWNER_STOPPED_MESSAGE, LockOwner, WriterLock
from desktop_kb.paths import file_identity
from desktop_kb.progress import Progress
from desktop_kb.retrieval.dense import DenseIndex, SqliteVectors
from desktop_kb.store.connection import close_or_keep, open_store
from desktop_kb.store.errors import REPLACED_LIBRARY_MESSAGE, is_corruption, is_environment
from desktop_kb.store.processes import process_stopped
from desktop_kb.whole_file import sweep, write_whole

log = logging.getLogger(__name__)

BATCH = 64
# How long ``stop`` waits for the job in hand (one batch of a cancelled rebuild
# or backfill) before giving up on the thread; the index stays consistent either
# way, because every batch is one transaction.
STOP_TIMEOUT_S = 10.0
OWNER_POLL_S = 0.2  # how soon another process's commit is noticed
FOLLOWER_POLL_S = 0.25  # how soon a follower notices the lock is free or the index moved
DENSE_RELOAD_S = 2.0  # a follower reloads vectors at most this often while the index changes
FEED_SLICE_S = 2.0  # feed work between two batches of a rebuild or backfill
RETRY_MAX_S = 5.0  # back-off ceiling while the index is unavailable
ERROR_FILE = "index-error.json"  # the owner's reason for being stuck, for other processes
MODEL_ERROR_FILE = "index-model-error.json"  # why the owner's model could not be loaded

Listener = Callable[[IndexEvent], None]


class IndexStopped(RuntimeError):
    def __init__(self) -> None:
        super().__init__("The index worker has stopped.")


@dataclass
class _Job:
    kind: str  # "remove" | "call" | "rebuild" | "verify" | "model" | "backfill"
    as_owner: Callable[[], Any]
    # What a follower does instead; None means "hand it to the owner" (see ``handoff``).
    as_follower: Callable[[], Any] | None = None
    params: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        self.future: Future[Any] = Future()


class IndexWorker:
    def __init__(self, store_path: Path, index_path: Path, listener: Listener | None = None,
                 dense: DenseIndex | None = None, *, role: str = "cli") -> None:
        self._store_path = store_path
        self._index_path = index_path
        self.dense = dense if dense is not None else DenseIndex(SqliteVectors(index_path), SlotReader(index_path))
        self._listeners: list[Listener] = [listener] if listener else []
        self._lock = WriterLock(index_path.parent, role)
        self._requests = index_path.parent / handoff.REQUESTS_DIR
        self._cv = threading.Condition()
        self._pending: OrderedDict[SourceKey, None] = OrderedDict()  # hints: index these first
        self._control: deque[_Job] = deque()
        self._handoffs: dict[str, _Job] = {}
        self._busy = False
        self._stopping = False
        self._poked = True  # look at the feed on the first turn
        # Common words' postings may wait to be written (index/postings.py): looked at
        # after any turn that did other work, written only when nothing else waits.
        self._postings_due = True
        # The running turn applies changes (a batch of saved sources, a rebuild, a removal):
        # "indexing". Not a feed turn (its changes are the status's backlog already), loading
        # a model, a query, a verify, postings, nor anything a follower does (it applies
        # nothing): a status command counted its own start as "1 pending".
        self._turn_indexes = False
        self._thread: threading.Thread | None = None
        self._store: sqlite3.Connection | None = None
        self._apply: Applier | None = None
        self._index_ident: tuple[int, int] | None = None  # the index file this owner writes
        self._catchup: CatchUp | None = None
        self._reader: sqlite3.Connection | None = None  # follower: read-only index
        self._engine: EmbeddingEngine | None = None
        self._ready = threading.Event()
        self._startup_error: BaseException | None = None
        self._active_progress: Progress | None = None
        self._store_version: int | None = None
        self._index_version: int | None = None
        self._dense_loaded_at = 0.0
        self._index_moved_at = time.monotonic()
        self._dense_stale = False
        self._retry_s = 0.0
        self.stalls = 0  # times the index could not move on (``_stall``), for waiting commands
        self.mode = "starting"  # "owner" | "follower"
        self.error: str | None = None  # why the owner cannot index right now (shown as status)
        self.damaged: str | None = None  # a follower found the index damaged (only the owner rebuilds)
        self.applied = -1  # feed number the index is known to have applied
        self.startup_rebuild: Future[RebuildResult] | None = None
        self.startup_verify: Future[VerifyReport] | None = None
        # Set by the running backfill, read by ``Library.index_status`` from other threads
        # (one reference swap: no lock needed).
        self.embedding: EmbeddingProgress | None = None
        self.backfill_page: int | None = None  # fixed backfill page size (tests); None: by time
        self._backfilling = False
        # A model switch or backfill the disk stopped: run again once the index takes writes.
        self._model_due: Callable[[], int] | None = None
        self._between = False  # applying other work between backfill batches
        self._backfill_holds = 0  # imports under way in this process (``holding_backfill``)
        self._resuming = False  # stopped work runs again; ``error`` stands until it writes
        # Rebuilds asked for while one runs (this process's jobs, other processes' requests):
        # they get its result instead of a second whole rebuild after it. None: none runs.
        self._joined: list[_Job | handoff.Request] | None = None
        self._yielding = False  # the backfill stops at this batch for a rebuild or verify asked for

    # ----- lifecycle -------------------------------------------------------------

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="index-worker", daemon=True)
        self._thread.start()
        self._ready.wait()
        if self._startup_error is not None:
            raise self._startup_error

    def stop(self, timeout: float | None = STOP_TIMEOUT_S, *, quiet: bool = False) -> bool:
        """Cancel a running rebuild or backfill (both resume later) and end the thread.

        Returns False when the thread did not end within ``timeout``; it is a
        daemon thread and every batch it writes is one transaction, so the
        process may still exit safely. ``quiet``: the caller says what that means.
        """
        with self._cv:
            self._stopping = True
            if self._active_progress is not None:
                self._active_progress.cancel()
            self._cv.notify_all()
        if self._thread is not None:
            self._thread.join(timeout)
            if self._thread.is_alive():
                if not quiet:
                    log.warning("the index worker did not stop within %s s", timeout)
                return False
            self._thread = None
        return True

    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)

    @property
    def is_owner(self) -> bool:
        return self.mode == "owner"

    @property
    def unrecorded_failures(self) -> int:
        return 0 if self._apply is None else self._apply.unrecorded_failures

    def owner(self) -> LockOwner | None:
        """Who writes the index when it is not this process."""
        return None if self.is_owner else self._lock.owner()

    # ----- requests (any thread) -------------------------------------------------

    def enqueue(self, keys: Iterable[SourceKey]) -> None:
        """Save hook: a hint to index these first. The feed has them anyway (I12)."""
        with self._cv:
            for key in keys:
                self._pending.pop(key, None)
                self._pending[key] = None
            self._poked = True
            pending = len(self._pending)
            self._cv.notify_all()
        self._emit(IndexEvent("queue", pending=pending))

    def enqueue_note(self, note_id: int) -> None:
        self.enqueue([("note", note_id)])

    def wake(self) -> None:
        """Look at the feed now rather than at the next poll."""
        with self._cv:
            self._poked = True
            self._cv.notify_all()

    def remove(self, keys: Iterable[SourceKey], then: Callable[[], Any] | None = None) -> Future[Any]:
        """Remove index rows now-ish; the future's result is ``then()``'s.

        ``then`` is the store change (delete, trash) and runs on the worker
        thread right after the rows are gone, so no indexing of these sources
        (a queued save, a rebuild batch) can fall between the two (I4). The
        caller must hold the store's write lock while it waits. In a process
        that does not own the index, ``then`` runs alone: the owner removes
        the rows when it reads the tombstone, and until then the fail-closed
        source join (I6) keeps them out of every result.
        """
        keys = list(keys)

        def as_owner() -> Any:
            try:
                self._applier().remove(keys)
            except Exception as exc:  # noqa: BLE001
                if not (isinstance(exc, db.IndexUnavailable) or is_environment(exc)):
                    raise
                # The index cannot be written now; the store change still
                # happens and its tombstone removes the rows later (I6 hides them).
                log.warning("index rows of %s stay until the index is writable: %s", keys, exc)
            with self._cv:
                for key in keys:
                    self._pending.pop(key, None)
            return then() if then is not None else None

        def as_follower() -> Any:
            return then() if then is not None else None

        return self._submit(_Job("remove", as_owner, as_follower), front=True)

    def rebuild(self, progress: Progress | None = None) -> Future[RebuildResult]:
        progress = progress or Progress()
        return self._submit(_Job("rebuild", lambda: self._rebuild(progress), params={}))

    def verify(self, repair: bool = True) -> Future[VerifyReport]:
        return self._submit(_Job("verify", lambda: self._verify(repair), params={"repair": repair}))

    def set_engine(self, loader: Callable[[], EmbeddingEngine | None],
                   progress: Progress | None = None) -> Future[int]:
        """Switch the embedding model (``loader`` runs on the worker thread, off the GUI).

        Vectors of any other model are dropped first, then every chunk without a
        vector is embedded in the background (cache hits cost nothing). Returns
        the number of chunks embedded (0 in a follower: the owner embeds).
        """
        progress = progress or Progress()

        def as_follower() -> int:
            self._engine = loader()
            self._dense_stale = True
            self._follow_index(force=True)
            return 0

        return self._submit(_Job("model", lambda: self._set_engine(loader, progress), as_follower))

    @property
    def engine(self) -> EmbeddingEngine | None:
        return self._engine

    def call(self, fn: Callable[[sqlite3.Connection], Any]) -> Future[Any]:
        """Run ``fn(index_conn)`` on the worker thread (the write connection in the owner,
        a read-only one in a follower): for status queries and tests."""
        return self._submit(_Job("call", lambda: fn(self._applier().conn),
                                 lambda: fn(self._require_reader())))

    def drain(self, timeout: float | None = None, until_seq: int | None = None, *,
              backfill: bool = True) -> bool:
        """Block until every request made so far has been handled and, with ``until_seq``,
        the index has applied the store's feed up to that number (whoever owns it).

        ``backfill=False`` stops waiting once only an embedding backfill is left:
        changes are applied and the model is loaded, and search is right meanwhile
        (chunks without a vector yet are found by keywords), so a command need not
        wait the hour a large library may take to embed.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cv:
            self._poked = True
            self._cv.notify_all()
            while not self._drained(until_seq, backfill):
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return False
                self._cv.wait(remaining if remaining is not None else 1.0)
        return True

    def _drained(self, until_seq: int | None, backfill: bool = True) -> bool:
        busy = self._busy and (backfill or not self._backfilling)
        # A backfill waiting its turn is not a change to apply: waited for, it kept keyword
        # search of an import in the app waiting until every vector of it was made.
        control = self._control if backfill else [j for j in self._control if j.kind != "backfill"]
        if control or self._handoffs or busy or self._between:
            return False
        caught_up = until_seq is not None and self.applied >= until_seq
        if caught_up and not backfill:
            # Every change up to until_seq is applied: a poke or a save hint left for the
            # worker (busy embedding a batch) concerns later changes only.
            return True
        if self.is_owner and (self._pending or self._poked or self._library_words_due()
                              or (self._catchup is not None and self._catchup.in_round)):
            return False
        return until_seq is None or caught_up

    @property
    def pending(self) -> int:
        """In-process work not yet done (the feed's backlog is counted by the status)."""
        with self._cv:
            # A backfill is not pending indexing: the status shows it as "embedding".
            busy = self._busy and self._turn_indexes and not self._backfilling
            hints = len(self._pending) if self.is_owner else 0  # a follower's reach the owner by the feed
            return hints + (1 if busy else 0)

    # ----- worker thread: the loop ----------------------------------------------

    def _submit(self, job: _Job, front: bool = False) -> Future[Any]:
        with self._cv:
            if self._stopping:
                job.future.set_exception(IndexStopped())
                return job.future
            if front:
                self._control.appendleft(job)
            else:
                self._control.append(job)
            self._cv.notify_all()
        return job.future

    def _applier(self) -> Applier:
        if self._apply is None:
            raise db.IndexUnavailable(self.error or "The search index is not open in this process.")
        return self._apply

    def _require_reader(self) -> sqlite3.Connection:
        if self._reader is None:
            self._reader = db.open_index_reader(self._index_path)
        return self._reader

    def _run(self) -> None:
        try:
            self._store = open_store(self._store_path, readonly=True)
            self._take_over()
        except BaseException as exc:  # reported to start()'s caller
            self._startup_error = exc
            self._ready.set()
            return
        self._ready.set()
        try:
            while True:
                with self._cv:
                    if not self._stopping and not self._has_work():
                        self._cv.wait(self._poll_interval())
                    if self._stopping:
                        break
                    job = self._control.popleft() if self._control else None
                    keys = [] if job else self._take_pending(BATCH)
                    self._turn_indexes = self.is_owner and (
                        bool(keys) or (job is not None and job.kind in ("rebuild", "remove")))
                    self._busy = True
                try:
                    self._turn(job, keys)
                except Exception as exc:  # noqa: BLE001 - shown as the status, retried
                    self._stall(exc)
                finally:
                    with self._cv:
                        self._busy = self._turn_indexes = False
                        pending = len(self._pending)
                        self._cv.notify_all()
                    self._emit(IndexEvent("queue", pending=pending))
        finally:
            self._shut_down()

    def _has_work(self) -> bool:
        if self._control:
            return True
        if not self.is_owner or self.error is not None:
            return False
        return bool(self._pending) or self._poked or self._postings_due or self._library_words_due() or (
            self._catchup is not None and self._catchup.in_round)

    def _poll_interval(self) -> float:
        if self.error is not None:
            return self._retry_s
        return OWNER_POLL_S if self.is_owner else FOLLOWER_POLL_S

    def _turn(self, job: _Job | None, keys: list[SourceKey]) -> None:
        if not self.is_owner:
            self._take_over()
        if not self.is_owner:
            self._follower_turn(job)
            return
        if self.error is not None and self._apply is None:
            try:
                self._open_index()  # retry opening (IndexUnavailable propagates: stall again)
            except db.IndexUnavailable:
                # The job in hand still gets its answer: a removal makes its store change,
                # a rebuild or a call fails with the reason. Dropped, its caller (a
                # `desktop-kb index rebuild`, a note deletion) waited for ever on a full disk.
                if job is not None:
                    self._run_job(job)
                raise
        if job is not None:
            self._postings_due = True
            self._run_job(job)
            if self._resuming:  # it ended without stopping again (nothing left to write)
                self._clear_error()
            return
        if keys:
            self._postings_due = True
            self._index_hints(keys)
            return
        applied = self.applied
        if self._lock.another_file_in_its_place():
            # Not this process's folder any more: recreating "its" index there deleted the index
            # another process keeps for the library now at that path (a stick put back).
            raise db.IndexUnavailable(f"{REPLACED_LIBRARY_MESSAGE} ({self._index_path.parent})")
        if file_identity(self._index_path) != self._index_ident and self._index_path.parent.is_dir():
            # Deleted (or replaced) by another program while open: this process would go on
            # writing into a file nobody else can see (I1: the index may go at any time).
            # Not when the whole folder is gone (a stick pulled): that would make the folder
            # again on the computer's own disk, where the stick mounts.
            log.warning("the search index file was deleted or replaced; rebuilding it")
            self._recreate_index()
        self._follow_feed()
        self._serve_requests()
        if self.error is not None:
            if self._resume_stopped_work():
                # The reason stands until the resumed rebuild or backfill writes (its first
                # batch, or its end): cleared here, the status read "embedding" for the moment
                # of every retry while the disk was still full. The back-off stays, so should
                # it stop again, the next try waits longer.
                self._resuming = True
            else:
                self._retry_s = 0.0
                self._clear_error()
        if self.applied != applied:
            self._postings_due = True
        else:
            self._refresh_postings()
            self._refresh_library_words()

    def _clear_error(self) -> None:
        self.error = None
        self._resuming = False
        self._publish_error(None)
        self._emit(IndexEvent("queue", detail="recovered"))

    def _resume_stopped_work(self) -> bool:
        """The index takes writes again: go on with a rebuild or backfill the disk stopped.

        A rebuild stopped part way leaves the dirty flag (the next start resumes it), but
        an app left running would have shown "incomplete" until it was closed. Returns
        whether a job was queued.
        """
        dirty = db.is_dirty(self._applier().conn)
        with self._cv:
            queued = {job.kind for job in self._control}
            job = None
            if dirty and "rebuild" not in queued:
                job = _Job("rebuild", lambda: self._rebuild(Progress()), params={})
            elif self._model_due is not None and not queued & {"rebuild", "model", "backfill"}:
                job = _Job("model", self._model_due)
            self._model_due = None
            if job is not None:
                self._control.append(job)
                self._cv.notify_all()
        return job is not None

    def _refresh_postings(self) -> None:
        """With nothing else to do: write one slice of common words' postings.

        Not while the library's own words are being re-cut: each re-cut turn rewrites rows
        holding the commonest words, which drops their entries again, so filling them in
        between was redone turn after turn (a 10⁵-chunk library indexed before its words
        re-cut ~15 sources a second, mostly refilling 的's postings)."""
        with self._cv:
            if self._pending or self._control or not self._postings_due or self._library_words_due() or (
                    self._catchup is not None and self._catchup.in_round):
                return
        conn = self._applier().conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            postings.refresh(conn, stop=lambda: self._stopping)
            due = postings.pending(conn)
            conn.execute("COMMIT")
        except postings.Stopped:
            conn.execute("ROLLBACK")  # closing: the next owner writes this slice
            return
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        self._postings_due = due

    def _library_words_due(self) -> bool:
        apply = self._apply
        return apply is not None and apply.library_words_due and self.error is None

    def _refresh_library_words(self, between: bool = False) -> None:
        """With nothing else to do: the library's own frequent words (``index/library_words.py``)
        after passages came or went, and once at start. ``between``: between two pages of a
        backfill, which waits meanwhile (a queued backfill is no reason to wait)."""
        with self._cv:
            queued = [job for job in self._control if not (between and job.kind == "backfill")]
            if not self._library_words_due() or self._pending or queued or (
                    self._catchup is not None and self._catchup.in_round):
                return
        self._applier().refresh_library_words()

    def _index_hints(self, keys: list[SourceKey]) -> None:
        """Sources saved in this process. Notes are embedded with their words (a save is a
        small batch, and meaning search finds it at once); an import's passages get their
        words first and their vectors from the backfill that follows: embedding each batch
        before writing it kept a book the app imported unsearchable, even by its words,
        until a slow model had embedded all of it."""
        inline = self._lock.role != "app" or all(kind == "note" for kind, _ in keys)
        self._applier().index_keys(keys, embed=inline)

    @contextlib.contextmanager
    def holding_backfill(self) -> Iterator[None]:
        """While the app imports: passages get their words as each file is saved, and the
        backfill of their vectors starts after the last one. Started after the first batch,
        it held the worker in the model for a page at a time (seconds with a slow model, in
        which the next files' words waited)."""
        with self._cv:
            self._backfill_holds += 1
        try:
            yield
        finally:
            with self._cv:
                self._backfill_holds -= 1
                self._poked = True  # look again: the deferred vectors are due now
                self._cv.notify_all()

    def _take_pending(self, limit: int) -> list[SourceKey]:
        keys = []
        if not self.is_owner:
            self._pending.clear()  # the owner reads the same changes from the feed
            return keys
        while self._pending and len(keys) < limit:
            key, _ = self._pending.popitem(last=False)
            keys.append(key)
        return keys

    def _run_job(self, job: _Job) -> None:
        if not job.future.set_running_or_notify_cancel():
            return
        try:
            job.future.set_result(job.as_owner() if self.is_owner or job.as_follower is None
                                  else job.as_follower())
        except BaseException as exc:
            job.future.set_exception(exc)
        finally:
            if job.kind not in ("remove", "call"):  # those run inside long jobs
                with self._cv:
                    self._active_progress = None

    def _stall(self, exc: Exception) -> None:
        """The index cannot move on: say why (status), keep the work (the feed), retry later."""
        if is_corruption(exc) and self._apply is not None:
            log.error("the search index is damaged (%s); rebuilding it from the library", exc)
            self._recreate_index()
            return
        if not (is_environment(exc) or isinstance(exc, db.IndexUnavailable)):
            log.exception("index worker error")
        if isinstance(exc, db.IndexUnavailable):
            message = str(exc)
        elif isinstance(exc, sqlite3.Error) and is_environment(exc):
            message = db.unavailable_message(exc, self._index_path)
        else:
            message = f"{type(exc).__name__}: {exc}"
        if message != self.error:
            self._publish_error(message)
        self.error = message
        self._resuming = False
        self._retry_s = min(RETRY_MAX_S, max(0.5, self._retry_s * 2))
        self.stalls += 1
        self._emit(IndexEvent("failed", detail=message))

    def _publish_error(self, message: str | None) -> None:
        """Tell other processes (``index status`` from the CLI) why this owner is stuck."""
        self._publish_word(ERROR_FILE, message)

    def publish_model_error(self, message: str | None) -> None:
        """Tell other processes this owner's embedding model could not be loaded (or loads
        now): a status beside the app loads no model of its own, and said 'ok' meanwhile."""
        if self.is_owner:
            self._publish_word(MODEL_ERROR_FILE, message)

    def owner_model_error(self) -> str | None:
        """Why the model of the process that owns the index could not be loaded, if it said so."""
        return None if self.is_owner else self._owner_word(MODEL_ERROR_FILE)

    def _publish_word(self, name: str, message: str | None) -> None:
        path = self._index_path.parent / name
        try:
            if message is None:
                path.unlink(missing_ok=True)
            else:
                write_whole(path, json.dumps({"pid": os.getpid(), "message": message}))
        except OSError:  # the disk may be the problem; the status in this process still shows it
            log.info("could not publish %s: %r", name, message)

    def _owner_word(self, name: str) -> str | None:
        """What the process holding the lock wrote in ``name`` (not one written by an owner
        that is gone)."""
        owner = self._lock.owner()
        if owner is None:
            return None
        try:
            data = json.loads((self._index_path.parent / name).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or owner.pid != data.get("pid") or not data.get("message"):
            return None
        return str(data["message"])

    def owner_error(self) -> str | None:
        """Why the process that owns the index is stuck, if it is: the reason it gave, or
        that it is stopped (Ctrl+Z, SIGSTOP, a debugger), which it cannot say itself."""
        if self.is_owner:
            return self.error
        if self.damaged is not None:
            return self.damaged
        if self._lock.owner() is None:
            return None
        # Else no word from it (or written by an owner that is gone): stopped, if it is.
        return self._owner_word(ERROR_FILE) or self.owner_stopped()

    def owner_stopped(self) -> str | None:
        """That the process owning the index is stopped (it cannot say so itself), when it is."""
        owner = None if self.is_owner or self.mode != "follower" else self._lock.owner()
        if owner is not None and process_stopped(owner.pid, owner.host):
            return OWNER_STOPPED_MESSAGE.format(owner.describe())
        return None

    def index_quiet_s(self) -> float:
        """Seconds since a follower last saw the index change (the owner writing to it)."""
        return time.monotonic() - self._index_moved_at

    def _shut_down(self) -> None:
        with self._cv:
            jobs = list(self._control) + list(self._handoffs.values())
            self._control.clear()
            self._handoffs.clear()
            self._cv.notify_all()
        for job in jobs:
            if not job.future.done():
                job.future.set_exception(IndexStopped())
        if self._apply is not None:
            applier = self._apply
            try:
                if self._pending and self.error is None:
                    # This process's last saves: a handful of notes, worth finishing now.
                    self._index_hints(list(self._pending))
                applier.conn.execute("BEGIN IMMEDIATE")
                db.set_meta(applier.conn, "owner_clean", "1")
                applier.conn.execute("COMMIT")
            except Exception as exc:  # noqa: BLE001 - the next owner verifies instead
                if is_environment(exc):  # a full disk: the reason was already given, once
                    log.info("could not mark the index cleanly closed: %s", exc)
                else:
                    log.exception("could not mark the index cleanly closed")
            close_or_keep(applier.conn, self._index_path, self._index_ident)
            vector_file.release(self._index_path)
            if self.error is not None:
                self._publish_error(None)
        for conn in (self._reader, self._store):
            if conn is not None:
                conn.close()
        self._lock.release()

    # ----- ownership ----------------------------------------------------------------

    def _take_over(self) -> None:
        """Become the owner if the lock is free; stay (or become) a follower otherwise."""
        if self.is_owner:
            return
        if not self._lock.try_acquire():
            if self.mode != "follower":
                self.mode = "follower"
                self._follow_index(force=True)
            return
        self.mode = "owner"
        # Files half-written by a process killed (or stopped by a full disk) before: the
        # owner is the one that writes them, so it tidies them.
        for folder in (self._index_path.parent, self._requests):
            sweep(folder)
        if self._reader is not None:
            self._reader.close()
            self._reader = None
        handoff.recover_after_owner_change(self._requests)
        # Own requests handed over while following run here now, with their progress.
        with self._cv:
            mine = list(self._handoffs.items())
            self._handoffs.clear()
        for request_id, job in mine:
            handoff.withdraw(self._requests, request_id)
            with self._cv:
                self._control.append(job)
        try:
            self._open_index()
        except db.IndexUnavailable as exc:
            self._stall(exc)  # shown as the status; opening is retried with back-off

    def _open_index(self) -> None:
        """Open the index for writing; environment errors raise ``IndexUnavailable``."""
        assert self._store is not None
        conn = db.open_index_writer(self._index_path)
        try:
            unclean = (db.get_meta(conn, "owner_clean") == "0"
                       or db.get_meta(conn, "verify_needed") == "1")
            dirty = db.is_dirty(conn)
            conn.execute("BEGIN IMMEDIATE")
            db.set_meta(conn, "owner_clean", "0")
            if unclean and not dirty:
                db.set_meta(conn, "verify_needed", "1")
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            conn.close()
            if is_environment(exc):
                raise db.IndexUnavailable(db.unavailable_message(exc, self._index_path)) from exc
            raise
        self._apply = Applier(conn, self._store, self.dense, self._emit)
        self._index_ident = file_identity(self._index_path)
        self._apply.engine = self._engine
        self._catchup = CatchUp(self._apply)
        self.error = None
        cursor = read_cursor(conn)
        self.applied = cursor.seq if cursor else -1
        with self._cv:
            if dirty:
                job = _Job("rebuild", lambda: self._rebuild(Progress()), params={})
                self._control.appendleft(job)
                self.startup_rebuild = job.future
            elif unclean:
                # The last owner died without closing: the feed should have left
                # nothing behind, and this checks it (I5, I12).
                job = _Job("verify", lambda: self._verify(True), params={"repair": True})
                self._control.append(job)
                self.startup_verify = job.future
            self._poked = True
        if self._engine is not None:
            if (db.get_meta(conn, "embed_model") or "") != self._engine.model_id:
                engine = self._engine
                self._submit(_Job("model", lambda: self._set_engine(lambda: engine, Progress())))
            else:
                self._apply.reload_dense()
                self._submit(_Job("backfill", lambda: self._backfill(Progress())))

    def _recreate_index(self) -> None:
        if self._apply is not None:
            try:
                self._apply.conn.close()
            except Exception:  # noqa: BLE001
                log.exception("closing the damaged index")
        self._apply = None
        db.discard_index(self._index_path)
        self._open_index()

    # ----- owner: the feed and requests -----------------------------------------

    def _follow_feed(self) -> None:
        catchup = self._catchup
        assert catchup is not None and self._store is not None
        if catchup.in_round:
            catchup.step()
        else:
            version = self._store.execute("PRAGMA data_version").fetchone()[0]
            with self._cv:
                poked, self._poked = self._poked, False
            if version == self._store_version and not poked:
                return
            outside = version != self._store_version
            self._store_version = version
            if outside:
                self._emit(IndexEvent("store_changed"))
            if catchup.begin():
                catchup.step()
            if catchup.reconciled is not None:
                self._after_reconcile(catchup.reconciled)
                catchup.reconciled = None
        cursor = read_cursor(self._applier().conn)
        if cursor is not None:
            with self._cv:
                self.applied = cursor.seq
                self._cv.notify_all()
        if not catchup.in_round and self._apply is not None and self._apply.deferred \
                and not self._backfilling and not self._backfill_holds:
            # The feed wrote keywords only (catchup): their vectors come next, in the
            # background, while saves and other processes' changes go on being indexed.
            if self._store.execute("PRAGMA data_version").fetchone()[0] != self._store_version:
                # Committed since this round began (an import's last files): their words
                # first. Queued now, the backfill ran before them and they waited a page.
                with self._cv:
                    self._poked = True
                return
            self._apply.deferred = 0
            with self._cv:
                queued = any(job.kind == "backfill" for job in self._control)
            if not queued:  # one backfill embeds every chunk without a vector
                self._submit(_Job("backfill", lambda: self._backfill(Progress())))

    def _after_reconcile(self, report: VerifyReport) -> None:
        if report.drift:
            # A count per kind: after a restore the whole dict of keys went to the terminal.
            log.warning("the index did not match the library (%s); repaired", report.summary())
            self._backfill(Progress())
        self._emit(IndexEvent("verified", detail=str(report.drift)))

    def _serve_requests(self) -> None:
        for path in handoff.pending(self._requests):
            request = handoff.claim(path)
            if request is None:
                continue
            try:
                if request.kind == "rebuild":
                    payload: Any = self._rebuild(Progress()).__dict__
                elif request.kind == "verify":
                    payload = self._verify(bool(request.params.get("repair", True)),
                                           embed_now=False).as_dict()
                else:
                    raise ValueError(f"unknown index request {request.kind!r}")
            except Exception as exc:  # noqa: BLE001 - the requester shows it
                handoff.finish(self._requests, request, False, f"{type(exc).__name__}: {exc}")
            else:
                handoff.finish(self._requests, request, True, payload)

    def _service_between_batches(self) -> None:
        """During a rebuild or backfill: removals, saves and the feed must not wait for all of it."""
        if self._resuming:  # a batch of the resumed work was written: the index takes writes
            self._clear_error()
        self._join_rebuilds()
        self._yield_backfill_to_asks()
        try:
            while True:
                with self._cv:
                    job = None
                    for candidate in self._control:
                        if candidate.kind in ("remove", "call"):
                            job = candidate
                            self._control.remove(candidate)
                            break
                    keys = [] if job else self._take_pending(BATCH)
                    self._between = True  # drain(backfill=False) waits for what was taken
                if job is not None:
                    self._run_job(job)
                elif keys:
                    self._index_hints(keys)
                else:
                    break
            # Another process's changes: keywords only (catchup), so cheap. Up to FEED_SLICE_S
            # of them between two model pages: one batch each kept a 150-file import beside
            # an app embedding with e5 waiting a model page per 64 passages (63 s).
            started = time.monotonic()
            self._follow_feed()
            while self._catchup is not None and self._catchup.in_round \
                    and time.monotonic() - started < FEED_SLICE_S:
                self._follow_feed()
            if self._backfilling:
                # One turn of the library's own words (about RECUT_SLICE_S): waiting for the
                # last vector left a book imported meanwhile searched without them for an hour.
                self._refresh_library_words(between=True)
        finally:
            with self._cv:
                self._between = False
                self._cv.notify_all()

    def _long_job(self, progress: Progress) -> Progress:
        """Remember the running long job's progress, so ``stop`` can cancel it."""
        with self._cv:
            self._active_progress = progress
            if self._stopping:
                progress.cancel()
        return progress

    def _rebuild(self, progress: Progress) -> RebuildResult:
        """Rebuild, answering every rebuild asked for meanwhile with the same result: the app's
        own rebuild, a CLI 'index rebuild' beside it, the rebuild a damaged file's replacement
        queues for itself. Each waited for a second whole rebuild after this one."""
        self._joined = []
        try:
            result = self._rebuild_once(progress)
            self._join_rebuilds()
        except BaseException as exc:
            self._answer_joined(None, exc)
            raise
        self._answer_joined(result, None)
        return result

    def _join_rebuilds(self) -> None:
        if self._joined is None:
            return
        with self._cv:
            jobs = [job for job in self._control if job.kind == "rebuild"]
            for job in jobs:
                self._control.remove(job)
        self._joined.extend(jobs)
        for path in handoff.pending(self._requests):
            request = handoff.claim(path, kinds=("rebuild",))
            if request is not None:
                self._joined.append(request)

    def _answer_joined(self, result: RebuildResult | None, exc: BaseException | None) -> None:
        joined, self._joined = self._joined or [], None
        for item in joined:
            if isinstance(item, _Job):
                if exc is not None:
                    item.future.set_exception(exc)
                else:
                    item.future.set_result(result)
            elif exc is not None:
                handoff.finish(self._requests, item, False, f"{type(exc).__name__}: {exc}")
            elif result is not None and result.cancelled:
                # The rebuild it joined was cancelled (the person's Cancel, the app closing): the
                # command asked for a whole rebuild, so it waits for the next one, not 'rebuilt'.
                handoff.release(self._requests, item)
            else:
                handoff.finish(self._requests, item, True, vars(result))

    def _rebuild_once(self, progress: Progress) -> RebuildResult:
        applier = self._applier()

        def rebuild(applier: Applier) -> RebuildResult:
            return rebuild_index(applier, self._long_job(progress), self._service_between_batches,
                                 after=lambda: self._backfill(Progress()))

        try:
            # Damaged pages a rebuild in place never reads stay damaged: it said 'rebuilt',
            # and the next status read 'damaged' again. SQLite reads every page first.
            damage = db.pages_whole(self._index_path)
            try:
                if damage is None:
                    result = rebuild(applier)
            except sqlite3.DatabaseError as exc:
                if not is_corruption(exc):
                    raise
                damage = str(exc)
            if damage is not None:
                # A damaged index is rebuilt in a new file ("drop and refill", I1): rebuilding
                # it in place failed on its damaged pages, and the command asking said
                # "internal error" of the one way out.
                log.error("the search index is damaged (%s); rebuilding it in a new file", damage)
                self._recreate_index()
                applier = self._applier()
                result = rebuild(applier)
        except sqlite3.Error as exc:
            if not is_environment(exc):
                raise
            # A full or read-only disk: what was written stays, the dirty flag makes the
            # rest happen later, and the worker waits (status "unavailable") for room.
            self._stall(exc)
            stopped = (db.REBUILD_STOPPED_MESSAGE if db.is_dirty(applier.conn)
                       else db.REBUILD_NOT_STARTED_MESSAGE)
            raise db.IndexUnavailable(f"{self.error} {stopped}") from exc
        if not result.cancelled:
            self._clear_verify_needed()
        return result

    def _backfill(self, progress: Progress) -> int:
        """Embed chunks without vectors; a cancelled backfill resumes with the next one.

        A full (or read-only) disk is not the model's fault: the worker stalls with the
        reason shown, and the backfill starts again once the index takes writes (the
        vectors written so far stay). It failed the model switch ("cannot rollback"),
        and the rest of the library was never embedded until the next start.
        """
        self._set_backfilling(True)
        try:
            return backfill_vectors(self._applier(), self._long_job(progress),
                                    self._service_between_batches, publish=self._publish,
                                    batch_size=self.backfill_page).embedded
        except sqlite3.Error as exc:
            if not is_environment(exc):
                raise
            self._model_due = lambda: self._backfill(Progress())
            self._publish(None)
            self._stall(exc)
            return 0
        finally:
            self._set_backfilling(False)
            if self._yielding:
                # What was asked for runs first (other processes' requests, then this one's
                # jobs), and the backfill goes on after them from where it stopped.
                self._yielding = False
                self._submit(_Job("requests", self._serve_requests, lambda: None), front=True)
                self._queue_backfill()

    def _queue_backfill(self) -> None:
        """One backfill embeds every chunk without a vector: queue one unless one waits."""
        with self._cv:
            queued = any(job.kind == "backfill" for job in self._control)
        if not queued:
            self._submit(_Job("backfill", lambda: self._backfill(Progress())))

    def _yield_backfill_to_asks(self) -> None:
        """A rebuild asked for during a backfill (the person's, or 'desktop-kb index
        rebuild|verify' beside the app) waited for every vector to be made: an hour with e5 on
        a large library. The backfill stops at this batch instead (``_backfill`` resumes it)."""
        if not self._backfilling or self._joined is not None or self._yielding:
            return
        with self._cv:
            # Not this process's verifies: the daily one would run mid-backfill and take the
            # vectors still to be made for drift (the backfill makes them either way).
            asked = any(job.kind == "rebuild" for job in self._control)
            progress = self._active_progress
        if not asked and not handoff.pending(self._requests):
            return
        if progress is not None:
            self._yielding = True
            progress.cancel()

    def _set_backfilling(self, on: bool) -> None:
        with self._cv:
            self._backfilling = on
            self._cv.notify_all()  # wakes drain(backfill=False)

    def _publish(self, embedding: EmbeddingProgress | None) -> None:
        self.embedding = embedding

    def _verify(self, repair: bool, *, embed_now: bool = True) -> VerifyReport:
        """``embed_now=False``: vectors the repair left missing are made after the answer
        (a backfill queued): another process waiting for it waited for the whole backfill."""
        applier = self._applier()
        if repair:
            report = repair_drift(applier)
            if report.repaired and embed_now:
                self._backfill(Progress())
            elif report.repaired:
                self._queue_backfill()
            self._clear_verify_needed()
        else:
            report = find_drift(applier.conn, applier.store)
        self._emit(IndexEvent("verified", detail=str(report.drift)))
        return report

    def _clear_verify_needed(self) -> None:
        conn = self._applier().conn
        if db.get_meta(conn, "verify_needed") == "1":
            conn.execute("BEGIN IMMEDIATE")
            db.set_meta(conn, "verify_needed", "0")
            conn.execute("COMMIT")

    def _set_engine(self, loader: Callable[[], EmbeddingEngine | None], progress: Progress) -> int:
        engine = loader()
        if self._apply is None:
            # The index cannot be opened now (a full disk): opening it applies the model.
            self._engine = engine
            return 0
        applier = self._applier()
        conn = applier.conn
        model_id = engine.model_id if engine is not None else ""
        if (db.get_meta(conn, "embed_model") or "") != model_id:
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.execute("DELETE FROM kb_vectors")  # never mix two models' vectors
                db.set_meta(conn, "embed_model", model_id)
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                if not is_environment(exc):
                    raise
                # Not the model's fault: switch once the index takes writes again.
                self._model_due = lambda: self._set_engine(lambda: engine, Progress())
                self._stall(exc)
                return 0
        self._engine = applier.engine = engine
        applier.reload_dense()
        release_freed_memory()  # the rows and buffers the sign bits were read through
        self._emit(IndexEvent("model", detail=model_id))
        embedded = self._backfill(progress)
        release_freed_memory()  # a backfill's pages of passages and their batches
        return embedded

    # ----- follower ---------------------------------------------------------------

    def _follower_turn(self, job: _Job | None) -> None:
        if job is not None:
            if job.as_follower is None:
                self._hand_over(job)
            else:
                self._run_job(job)
            return
        self._collect_results()
        self._follow_index()

    def _hand_over(self, job: _Job) -> None:
        if not job.future.set_running_or_notify_cancel():
            return
        request_id = handoff.submit(self._requests, job.kind, **(job.params or {}))
        with self._cv:
            self._handoffs[request_id] = job

    def withdraw(self, future: Future[Any]) -> bool:
        """Stop waiting for a job handed to the owner (a rebuild, a verify): its request is
        not run if the owner has not taken it yet. False if ``future`` is no such job (yet)."""
        with self._cv:
            found = next((rid for rid, job in self._handoffs.items() if job.future is future), None)
            if found is None:
                return False
            del self._handoffs[found]
            self._cv.notify_all()
        handoff.withdraw(self._requests, found)
        if not future.done():
            future.set_exception(IndexStopped())
        return True

    def _collect_results(self) -> None:
        with self._cv:
            waiting = list(self._handoffs.items())
        for request_id, job in waiting:
            answer = handoff.result(self._requests, request_id)
            if answer is None:
                continue
            with self._cv:
                self._handoffs.pop(request_id, None)
                self._cv.notify_all()
            if not answer.get("ok"):
                reason = str(answer.get("payload"))
                unavailable = reason.startswith(f"{db.IndexUnavailable.__name__}: ")
                job.future.set_exception(
                    db.IndexUnavailable(reason.split(": ", 1)[1]) if unavailable
                    else RuntimeError(reason))
            elif job.kind == "rebuild":
                job.future.set_result(RebuildResult(**answer["payload"]))
            else:
                job.future.set_result(VerifyReport.from_dict(answer["payload"]))

    def _follow_index(self, force: bool = False) -> None:
        """Track the owner's progress (applied number) and keep the dense matrix in step."""
        try:
            reader = self._require_reader()
            version = reader.execute("PRAGMA data_version").fetchone()[0]
        except sqlite3.Error:
            self._reader = None  # no index yet, or it was replaced: reopen next time
            return
        if version != self._index_version or force or self.damaged is not None:
            if version != self._index_version:
                self._index_moved_at = time.monotonic()
            self._index_version = version
            self._dense_stale = True
            try:
                cursor = read_cursor(reader) if db.has_meta(reader) else None
            except sqlite3.DatabaseError as exc:
                if not is_corruption(exc):
                    raise
                # Damaged under a running owner (a sync client put another computer's copy in
                # its place beside a stale -wal, a disk error): this process says so (a
                # waiting command stops waiting with it, owner_error); only the owner can
                # rebuild it. Read again on every look until it is whole.
                self.damaged = db.DAMAGED_MESSAGE.format(self._index_path)
                self._reader = None
                return
            self.damaged = None
            with self._cv:
                self.applied = cursor.seq if cursor else -1
                self._cv.notify_all()
        if self._dense_stale and (force or time.monotonic() - self._dense_loaded_at > DENSE_RELOAD_S):
            self._reload_dense_from(reader)

    def _reload_dense_from(self, reader: sqlite3.Connection) -> None:
        self._dense_stale = False
        self._dense_loaded_at = time.monotonic()
        engine = self._engine
        if engine is None or not db.has_meta(reader):
            self.dense.reset(None, 0)
            return
        if (db.get_meta(reader, "embed_model") or "") != engine.model_id:
            self.dense.reset(None, 0)  # the owner has not switched to this model yet
            return
        ids, codes = load_codes(reader, engine.model_id, engine.dim)
        self.dense.reset(engine.model_id, engine.dim, ids, codes)
        release_freed_memory()  # the rows and buffers the sign bits were read through

    def _emit(self, event: IndexEvent) -> None:
        for listener in self._listeners:
            try:
                listener(event)
            except Exception:  # a broken listener must not kill indexing
                log.exception("index listener failed")
