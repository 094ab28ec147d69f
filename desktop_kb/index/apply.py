"""Writing sources into the index: the part catch-up, verify, rebuild and backfill share.

Only the index worker thread uses an ``Applier`` (house rule 3). It owns no
thread and no queue; it turns "these sources changed" into committed index
rows, keeps the in-memory dense matrix in step with what it committed, and
records every failure with its reason (I3: never silent).
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from desktop_kb.embed.engine import EmbeddingEngine
from desktop_kb.index import db, term_df, vector_file
from desktop_kb.index import library_words as lw
from desktop_kb.index import user_words as uw
from desktop_kb.index.prepare import PreparedSource, embed_text_of, prepare_source
from desktop_kb.index.sources import SourceKey, SourceText, load_source
from desktop_kb.index.terms import source_terms
from desktop_kb.index.vectors import (
    cached_vectors,
    load_codes,
    store_cache,
    store_vectors,
    vectors_for,
)
from desktop_kb.index.writer import (
    WriteResult,
    indexed_version,
    mark_current,
    record_failure,
    remove_source,
    write_source,
)
from desktop_kb.retrieval.dense import DenseIndex
from desktop_kb.store.errors import is_corruption, is_environment

log = logging.getLogger(__name__)
RECUT_BATCH = 200  # sources re-cut per transaction when the library's words change, at most ...
RECUT_SLICE_S = 0.1  # ... and for about this long


@dataclass(frozen=True)
class IndexEvent:
    """What the worker reports; the Qt bridge turns these into signals."""

    # "indexed" | "failed" | "removed" | "queue" | "rebuilt" | "verified" | "embedding" | "model"
    kind: str
    key: SourceKey | None = None
    detail: str = ""
    pending: int = 0


Emit = Callable[[IndexEvent], None]


@dataclass(frozen=True)
class Cursor:
    """How far the index has followed the store's change feed (see ``catchup``)."""

    seq: int
    epoch: str


def write_cursor(index: sqlite3.Connection, cursor: Cursor) -> None:
    """Inside the caller's transaction, with the rows this position describes."""
    index.execute("INSERT INTO kb_meta(key, value) VALUES ('applied_seq', ?) "
                  "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (str(cursor.seq),))
    index.execute("INSERT INTO kb_meta(key, value) VALUES ('store_epoch', ?) "
                  "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (cursor.epoch,))


def _not_the_sources_fault(exc: BaseException) -> bool:
    """Full, read-only, busy or failing disks and damaged files stop the worker, not a source."""
    return is_environment(exc) or is_corruption(exc)


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
        # Failures that could not even be written to kb_failures (index full,
        # read-only): kept here so the status can still show them.
        self.unrecorded_failures = 0
        self.last_unrecorded = ""
        self._failed_versions: dict[SourceKey, str] = {}  # text a source last failed on
        # Chunks written without a vector (``index_keys(embed=False)``), for the backfill to
        # embed and count; the worker takes and zeroes it.
        self.deferred = 0
        # The library's own frequent words are to be looked at again (``index/library_words.py``)
        # after passages came or went, and at start only for an index written before them (or
        # one with passages left to re-cut): every command that owns the writer would otherwise
        # pay for reading them at start.
        try:
            self.library_words_due = lw.stored(conn) is None or bool(lw.pending(conn))
        except sqlite3.Error:  # an index still without its tables: the first write makes them
            self.library_words_due = True

    # ----- sources --------------------------------------------------------------

    def index_keys(self, keys: list[SourceKey], generation: int = 0,
                   cursor: Cursor | None = None, *, retry_failed: bool = True,
                   embed: bool = True) -> None:
        """Bring these sources' rows in line with the store, in one transaction.

        ``cursor`` (the feed position these keys complete) is committed with
        the rows. When the batch fails, each source is retried alone and the
        ones that still fail are recorded with their reason; the cursor then
        moves only if every failure was recorded, so nothing is lost unseen.
        With ``retry_failed`` False (catch-up), a source that already failed
        in this process with this very text is not tried again: saves, verify
        and rebuild retry it. With ``embed`` False only cached vectors are
        written; the chunks left without one are counted in ``deferred``.
        Errors of the machine (disk full, read-only, I/O) and corruption are
        not any source's fault: they propagate to the worker untouched.
        """
        conn = self.conn
        if self.rebuild is not None:
            self.rebuild.touched.update(keys)
            generation = self.rebuild.generation
        elif not generation:
            # Written between a stopped rebuild and its resumption, a source joins that
            # rebuild's generation: it is current, and the resumed run need not write it again.
            generation = db.paused_rebuild(conn) or 0
        prepared: list[PreparedSource] = []
        gone: list[SourceKey] = []
        current: list[SourceKey] = []
        failed = False
        unrecorded_before = self.unrecorded_failures
        loaded: list[tuple[SourceKey, SourceText | None, Exception | None]] = []
        for key in keys:
            try:
                loaded.append((key, load_source(self.store, key), None))
            except Exception as exc:  # noqa: BLE001 - recorded below like any source failure
                if _not_the_sources_fault(exc):
                    raise
                loaded.append((key, None, exc))
        words, new_words, resegment = self._update_terms([(k, s) for k, s, e in loaded if e is None])
        if any(kind == "fragment" for kind, _ in keys):
            self.library_words_due = True
        for key, source, load_error in loaded:
            try:
                if load_error is not None:
                    raise load_error
                if source is None:
                    gone.append(key)
                elif indexed_version(conn, key) == source.version:
                    current.append(key)  # already indexed from this very text: no re-segmenting
                elif not retry_failed and self._failed_versions.get(key) == source.version:
                    continue  # its failure is recorded; retried by the next save, verify or rebuild
                else:
                    prepared.append(prepare_source(source))
            except Exception as exc:  # noqa: BLE001 - recorded, counted, retried
                if _not_the_sources_fault(exc):
                    raise
                failed |= not self.fail(key, exc, source)
        if not self.library_words_due and self._titles_changed(prepared, gone):
            self.library_words_due = True
        vectors, fresh, embed_error = self.vectors(prepared) if embed else self.cached(prepared)
        written = WriteResult()
        counts = term_df.Counts()  # each word of the batch counted once
        try:
            conn.execute("BEGIN IMMEDIATE")
            for key in gone:
                written.removed.extend(remove_source(conn, key))
            if self.rebuild is not None:
                # Only a rebuild under way claims unchanged rows as its own: outside one they
                # keep theirs, so a stopped rebuild resumed later still writes a row written
                # before it (with another segmenter or other words) and skips its own.
                for key in current:
                    mark_current(conn, key, self.rebuild.generation)
            for item in prepared:
                written.extend(write_source(conn, item, generation=generation, counts=counts))
            for item in resegment:
                write_source(conn, item, generation=generation, resegment=True, counts=counts)
            counts.flush(conn)
            if new_words:
                uw.save(conn, words)
            self.store_vectors(written, vectors, fresh)
            if cursor is not None and not failed:
                write_cursor(conn, cursor)
            conn.execute("COMMIT")
        except Exception as exc:  # noqa: BLE001
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if new_words:
                uw.forget()
            if _not_the_sources_fault(exc):
                raise
            singles = [p.key for p in prepared] + gone + current
            if len(singles) <= 1:
                for key in singles:
                    failed |= not self.fail(key, exc)
            else:
                for key in singles:
                    self.index_keys([key], generation, retry_failed=retry_failed, embed=embed)
                failed |= self.unrecorded_failures > unrecorded_before
            if cursor is not None and not failed:
                self.advance(cursor)
            return
        self.sync_dense(written)
        if self.engine is not None and not embed:
            self.deferred += len(written.added) - len(written.vectors)
        for item in prepared:
            self._failed_versions.pop(item.key, None)
        if embed_error is not None:
            for item in prepared:
                self.fail(item.key, embed_error)
            return
        for item in prepared:
            self.emit(IndexEvent("indexed", key=item.key))
        for key in gone:
            self.emit(IndexEvent("removed", key=key))

    def _titles_changed(self, prepared: list[PreparedSource], gone: list[SourceKey]) -> bool:
        """Whether a note's new title (a new note's or a renamed one's) names a word that would
        join the library's own words: notes' titles are among the headings that name them
        (``library_words.heading_words``). A note gone, or renamed away from the one title that
        named a word, leaves that word in place until the next passage comes or goes."""
        for item in prepared:
            if item.key[0] != "note":
                continue
            row = self.conn.execute("SELECT title_hash FROM kb_sources WHERE source_type = ? AND source_id = ?",
                                    item.key).fetchone()
            if (row is None or row[0] != item.title_hash) and lw.title_may_add(self.conn, item.title):
                return True
        return False

    def _update_terms(self, loaded: list[tuple[SourceKey, SourceText | None]],
                      ) -> tuple[frozenset[str], bool, list[PreparedSource]]:
        """The dictionary these sources will be cut with (``index/user_words.py``).

        The set is the distinct terms of every indexed note, with these
        sources' current terms in place of their old ones (a note deleted or
        renamed takes its term out, unless another note names it too).
        Returns the set, whether it changed, and the indexed sources outside
        this batch that hold a term that came or went, prepared again to be
        re-segmented. The caller saves the set with the rows; should that
        fail, the next ``user_words.sync`` puts the saved set back.
        """
        stored = uw.sync(self.conn)
        words = uw.terms_elsewhere(self.conn, [k for k, _s in loaded])
        words |= lw.encode(lw.stored(self.conn) or {})  # changed only by refresh_library_words
        for _key, source in loaded:
            if source is not None:
                words |= source_terms(source)
        target = frozenset(words)
        changed = target ^ stored
        if not changed:
            return stored, False, []
        uw.take(target)
        again: list[PreparedSource] = []
        batch = {k for k, _s in loaded}
        for key in sorted(uw.holders(self.conn, set(changed)) - batch):
            source = load_source(self.store, key)
            # A source with newer text is indexed by its own change, with the new set.
            if source is not None and indexed_version(self.conn, key) == source.version:
                again.append(prepare_source(source))
        return target, True, again

    def refresh_library_words(self) -> bool:
        """Look at the library's own frequent words again (``index/library_words.py``); when
        their entries changed, save them and re-cut the passages that hold a word whose entry
        changed, about :data:`RECUT_SLICE_S` of cutting (at most :data:`RECUT_BATCH` sources) a
        transaction, one idle turn each (a large library's first set is most of its passages:
        one transaction held the writer, and every save behind it, for minutes). The sources still to re-cut are kept in ``kb_meta`` with the set, so a
        stop in between goes on where it stopped. Returns whether anything was written."""
        conn = self.conn
        pending = lw.pending(conn)
        target: frozenset[str] | None = None
        new: dict[str, int] | None = None
        changed: set[str] | None = None
        if not pending:
            old = lw.stored(conn)
            new = lw.compute(conn, self.store)
            if new == old:
                self.library_words_due = False
                return False
            old = old or {}
            changed = {w for w in old.keys() | new.keys() if old.get(w) != new.get(w)}
            target = frozenset(uw.sync(conn) - lw.encode(old)) | lw.encode(new)
            uw.take(target)
            pending = sorted(uw.holders(conn, changed))
        else:
            uw.sync(conn)
        again: list[PreparedSource] = []
        started = time.perf_counter()
        taken = 0
        # A save that arrives meanwhile waits for this turn: it stops after RECUT_SLICE_S of
        # cutting (one source at least), well inside the save-to-searchable budget.
        while taken < min(RECUT_BATCH, len(pending)) and (
                not taken or time.perf_counter() - started < RECUT_SLICE_S):
            key = pending[taken]
            taken += 1
            source = load_source(self.store, key)
            # A source with newer text is indexed by its own change, with the set saved here.
            if source is not None and indexed_version(conn, key) == source.version:
                again.append(prepare_source(source))
        rest = pending[taken:]
        counts = term_df.Counts()
        try:
            conn.execute("BEGIN IMMEDIATE")
            for item in again:
                write_source(conn, item, resegment=True, counts=counts)
            counts.flush(conn)
            if target is not None and new is not None:
                uw.save(conn, target)
                lw.save(conn, new)
            lw.save_pending(conn, rest, changed)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            uw.forget()
            raise
        self.library_words_due = bool(rest)
        log.info("library words: %d sources cut again, %d to go", len(again), len(rest))
        return True

    def advance(self, cursor: Cursor) -> None:
        """Move the feed position alone (no rows changed with it)."""
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            write_cursor(conn, cursor)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def remove(self, keys: list[SourceKey]) -> None:
        conn = self.conn
        if any(kind == "fragment" for kind, _ in keys):
            self.library_words_due = True
        if self.rebuild is not None:
            self.rebuild.touched.update(keys)
        removed: list[int] = []
        conn.execute("BEGIN IMMEDIATE")
        try:
            for key in keys:
                removed.extend(remove_source(conn, key))
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        self.dense.remove(removed)
        for key in keys:
            self.emit(IndexEvent("removed", key=key))

    def fail(self, key: SourceKey, exc: BaseException, source: SourceText | None = None) -> bool:
        """Record a source's failure; False (and counted, and reported) when even that fails."""
        if source is not None:
            self._failed_versions[key] = source.version
        reason = f"{type(exc).__name__}: {exc}"
        log.warning("indexing %s failed: %s", key, reason)
        conn = self.conn
        recorded = True
        try:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            conn.execute("BEGIN IMMEDIATE")
            record_failure(conn, key, reason)
            conn.execute("COMMIT")
        except sqlite3.Error as record_exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            recorded = False
            self.unrecorded_failures += 1
            self.last_unrecorded = f"{key[0]} {key[1]}: {reason} (not recorded: {record_exc})"
            log.error("could not record the failure of %s: %s", key, record_exc)
        self.emit(IndexEvent("failed", key=key, detail=reason))
        return recorded

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

    def cached(
        self, prepared: list[PreparedSource],
    ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray], Exception | None]:
        """The vectors the batch's chunks already have in the cache (no embedding)."""
        engine = self.engine
        if engine is None or not prepared:
            return {}, {}, None
        hashes = [chunk.embed_hash for item in prepared for chunk in item.chunks]
        return cached_vectors(self.conn, engine.model_id, hashes, engine.dim), {}, None

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
        vector_file.ensure(self.conn, engine.model_id, engine.dim)
        ids, codes = load_codes(self.conn, engine.model_id, engine.dim)
        self.dense.reset(engine.model_id, engine.dim, ids, codes)
