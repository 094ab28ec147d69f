"""Rebuild: refill the index from the store ("drop and refill", I2, I5).

The ``dirty`` flag is committed before any change and cleared only after
success (house rule 4), so a rebuild that is cancelled or killed forces
another on the next start, which resumes where it stopped. Sources are rewritten in batches tagged with a new
*generation*; at the end every source of an older generation (gone from the
store) is dropped. Segmentation is CPU-bound pure Python, so big libraries
prepare their batches in a small process pool while this thread writes.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass

from desktop_kb.index import db, term_df
from desktop_kb.index import library_words as lw
from desktop_kb.index import user_words as uw
from desktop_kb.index.apply import Applier, Cursor, IndexEvent, RebuildScope, write_cursor
from desktop_kb.index.catchup import read_cursor
from desktop_kb.index.pool_init import lower_priority_and_warm_up
from desktop_kb.index.prepare import PreparedSource, prepare_many, prepare_source
from desktop_kb.index.segment import segmenter_signature, user_words
from desktop_kb.index.sources import SourceKey, SourceText, live_keys, load_source, load_sources
from desktop_kb.index.terms import store_terms
from desktop_kb.index.vectors import prune_cache
from desktop_kb.index.verify import delete_orphan_rows
from desktop_kb.index.writer import WriteResult, remove_source, write_source
from desktop_kb.progress import Cancelled, Progress
from desktop_kb.store import feed

REBUILD_BATCH = 128
# Below this many characters a rebuild stays in-thread: starting worker
# processes (each loads jieba's dictionary) costs more than it saves.
POOL_MIN_CHARS = 1_500_000


@dataclass
class RebuildResult:
    sources: int
    chunks: int
    chars: int
    seconds: float
    cancelled: bool = False


def rebuild_index(
    applier: Applier, progress: Progress, between_batches: Callable[[], None],
    after: Callable[[], None] = lambda: None,
) -> RebuildResult:
    """Rewrite every live source; ``between_batches`` serves saves and removals meanwhile.

    ``after`` runs once the new index is complete (the embedding backfill).
    """
    conn, store = applier.conn, applier.store
    started = time.perf_counter()
    started_at = time.time()
    with feed.snapshot(store):
        pos = feed.position(store)
        keys = live_keys(store)
        total_chars = store.execute(
            "SELECT coalesce((SELECT sum(length(body)) FROM notes WHERE trashed_at IS NULL), 0) + "
            "coalesce((SELECT sum(length(text)) FROM fragments), 0)").fetchone()[0]
    generation, done = _start_or_resume(applier, pos)
    applier.rebuild = scope = RebuildScope(generation)
    progress.start("rebuild", len(keys))
    if done:
        # A rebuild that was cancelled or killed resumes: what it wrote stays.
        keys = [k for k in keys if k not in done]
        progress.tick(progress.maximum - len(keys))
    chunks = 0
    try:
        for batch in prepared_batches(applier, keys, total_chars, progress):
            items = _current_versions(applier, batch, scope.touched)
            vectors, fresh, _error = applier.vectors(items)  # misses: backfilled below
            written = WriteResult()
            counts = term_df.Counts()  # each word of the batch counted once
            conn.execute("BEGIN IMMEDIATE")
            try:
                for item in items:
                    written.extend(write_source(conn, item, generation=generation, force=True,
                                                counts=counts))
                    chunks += len(item.chunks)
                counts.flush(conn)
                applier.store_vectors(written, vectors, fresh)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            applier.sync_dense(written)
            progress.tick(len(batch))
            between_batches()
        conn.execute("BEGIN IMMEDIATE")
        for row in conn.execute(
                "SELECT source_type, source_id FROM kb_sources WHERE generation != ?",
                (generation,)).fetchall():
            remove_source(conn, (row[0], row[1]))
        delete_orphan_rows(conn)
        prune_cache(conn)
        # Failures older than this rebuild were retried by it (a source that
        # failed again has a newer record); newer ones stay visible.
        conn.execute("DELETE FROM kb_failures WHERE last_at < ?", (started_at,))
        db.set_meta(conn, "segmenter", segmenter_signature())
        db.set_meta(conn, "dirty", "0")
        conn.execute("DELETE FROM kb_meta WHERE key IN ('rebuild_generation', 'rebuild_segmenter')")
        conn.execute("COMMIT")
        applier.rebuild = None
        applier.library_words_due = True  # the library's words, read again from what was written
        applier.reload_dense()
        after()
    except Cancelled:
        applier.emit(IndexEvent("rebuilt", detail="cancelled"))
        return RebuildResult(progress.maximum, chunks, total_chars, time.perf_counter() - started,
                             cancelled=True)
    finally:
        applier.rebuild = None
        if conn.in_transaction:
            conn.execute("ROLLBACK")
    progress.finish()
    applier.emit(IndexEvent("rebuilt", detail="ok"))
    return RebuildResult(progress.maximum, chunks, total_chars, time.perf_counter() - started)


def _start_or_resume(applier: Applier, pos: feed.FeedPosition) -> tuple[int, set[SourceKey]]:
    """Commit the dirty flag (house rule 4) and choose the generation to write.

    A dirty index whose last rebuild used this segmenter resumes it: sources
    already written in that generation are kept, and the feed position stays
    where that rebuild started, so changes since then are caught up too.
    Otherwise a new generation starts at the current feed position.
    """
    conn = applier.conn
    # The person's terms are recomputed from the store by every new rebuild
    # (a resumed one keeps the set its first part was segmented with).
    words = frozenset(store_terms(applier.store)) | lw.encode(lw.stored(conn) or {})
    paused = db.paused_rebuild(conn) if read_cursor(conn) is not None else None
    conn.execute("BEGIN IMMEDIATE")
    try:
        db.set_meta(conn, "dirty", "1")
        if paused is not None:
            generation = paused
        else:
            generation = int(db.get_meta(conn, "generation") or 0) + 1
            db.set_meta(conn, "generation", str(generation))
            db.set_meta(conn, "rebuild_generation", str(generation))
            db.set_meta(conn, "rebuild_segmenter", segmenter_signature())
            write_cursor(conn, Cursor(pos.seq, pos.epoch))
            uw.save(conn, words)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    uw.sync(conn)  # a resumed rebuild goes on with the set its first part used
    if paused is None:
        return generation, set()
    done = {(r[0], r[1]) for r in conn.execute(
        "SELECT source_type, source_id FROM kb_sources WHERE generation = ?", (generation,))}
    return generation, done


def _current_versions(
    applier: Applier, batch: list[PreparedSource], touched: set[SourceKey],
) -> list[PreparedSource]:
    """Re-read sources saved or removed after their batch was read (worker
    processes read ahead): the store's current text is written, or nothing
    if the source is gone, never the stale copy (I4)."""
    if not touched:
        return batch
    out: list[PreparedSource] = []
    for item in batch:
        if item.key in touched:
            current = load_source(applier.store, item.key)
            if current is None:
                continue
            item = prepare_source(current)
        out.append(item)
    return out


def prepared_batches(
    applier: Applier, keys: list[SourceKey], total_chars: int, progress: Progress,
) -> Iterator[list[PreparedSource]]:
    store = applier.store
    batches = [keys[i:i + REBUILD_BATCH] for i in range(0, len(keys), REBUILD_BATCH)]
    workers = min(2, os.cpu_count() or 1)
    if total_chars < POOL_MIN_CHARS or workers < 2:
        for batch in batches:
            progress.check()
            yield [prepare_source(s) for s in load_sources(store, batch)]
        return
    # Segmentation is CPU-bound pure Python: use processes, and keep a few
    # batches in flight so the SQL writes here overlap with segmentation there.
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx,
                             initializer=lower_priority_and_warm_up,
                             initargs=(os.getpid(),)) as pool:
        in_flight: deque[Future[list[PreparedSource]]] = deque()
        todo = iter(batches)

        def submit() -> None:
            batch = next(todo, None)
            if batch is not None:
                sources: list[SourceText] = load_sources(store, batch)
                in_flight.append(pool.submit(prepare_many, sources, user_words()))

        try:
            for _ in range(workers * 2):
                submit()
            while in_flight:
                progress.check()
                done = in_flight.popleft().result()
                submit()
                yield done
        finally:
            for fut in in_flight:
                fut.cancel()
