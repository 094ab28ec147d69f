"""Embedding backfill: give every chunk without a vector one, in batches, between other work.

Resumable by construction: the work list is "chunks that have no vector for
the model in use", read again for every batch, so a backfill that was
cancelled, killed or interrupted by a model switch simply continues where the
vectors stop. Cancellable: the cancel flag is read before every batch (a
batch is the longest the caller waits). Progress hooks: ``progress.start``
with the total, ``progress.tick`` per batch, and ``publish`` with the share
done and the time left (``eta``) for the index status. Batches are pages of
chunks in id order; the engine sorts each page by token count, so rows of
similar length share a padded batch.

Pages are sized by time, not count: saves, removals and a model switch wait
for the page in hand (the worker thread is inside the model), so a page should
take seconds whatever the model. A fast model (USE: ~40 chunks/s on two cores)
gets pages of 64-256 chunks; multilingual-e5-small (~4 chunks/s) gets ~8, which
still fills the engine's padded batches of 512-token rows.

A batch whose embedding fails is recorded as a failure of each source it
touched (shown in the status, retried by the next verify or rebuild) and ends
the backfill for now: a model that cannot embed one batch usually cannot embed
the next either.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from desktop_kb.embed.engine import EmbeddingEngine
from desktop_kb.index.apply import Applier, IndexEvent
from desktop_kb.index.eta import EmbeddingProgress, RemainingTime
from desktop_kb.index.prepare import embed_text_of
from desktop_kb.index.sources import SourceKey, SourceText, load_source, text_hash
from desktop_kb.index.vectors import store_cache, store_vectors, vectors_for
from desktop_kb.index.writer import record_failure
from desktop_kb.progress import Progress

log = logging.getLogger(__name__)

BACKFILL_BATCH = 256  # the largest page
FIRST_PAGE = 32  # until the model's pace is known
MIN_PAGE = 8  # one padded batch of 512-token rows (BATCH_TOKENS / 512)
PAGE_SECONDS = 2.0  # how long a page should take

_MISSING = ("FROM kb_chunks c WHERE NOT EXISTS "
            "(SELECT 1 FROM kb_vectors v WHERE v.chunk_id = c.id)")


@dataclass
class BackfillResult:
    embedded: int = 0  # chunks that got a vector
    skipped: int = 0  # stale chunks (their source changed; the next catch-up re-chunks them)
    failed: int = 0  # chunks whose batch could not be embedded (recorded as failures)
    cancelled: bool = False  # stopped between batches; the next backfill resumes


def count_missing_vectors(applier: Applier) -> int:
    if applier.engine is None:
        return 0
    return int(applier.conn.execute(f"SELECT count(*) {_MISSING}").fetchone()[0])


def backfill_vectors(
    applier: Applier, progress: Progress, between_batches: Callable[[], None] = lambda: None,
    *, batch_size: int | None = None,
    publish: Callable[[EmbeddingProgress | None], None] = lambda _p: None,
) -> BackfillResult:
    """Embed every chunk that has no vector yet, until done or cancelled.

    ``publish`` receives how far it is (with the time left) after every batch,
    and None when it stops, for the index status. ``batch_size`` fixes the page
    size (default: sized by time, see ``next_page_size``).
    """
    result = BackfillResult()
    engine = applier.engine
    if engine is None:
        return result
    applier.deferred = 0  # counted in the total below
    total = count_missing_vectors(applier)
    if total == 0:
        return result
    progress.start("embed", total)
    pace = RemainingTime()
    pace.update(0)
    publish(EmbeddingProgress(0, total, None))
    try:
        _embed_missing(applier, engine, progress, between_batches, batch_size, result, total,
                       lambda done, total: _publish(publish, pace, done, total))
    finally:
        publish(None)
    return result


def next_page_size(size: int, rows: int, elapsed_s: float,
                   target_s: float = PAGE_SECONDS) -> int:
    """The next page's size from the last page's pace: about ``target_s`` of work,
    at most twice the last size (one quick page is not yet a trend), within
    [MIN_PAGE, BACKFILL_BATCH]. A short last page (the end, or skipped rows) or
    no measurable time keeps the size."""
    if rows < size or elapsed_s <= 0:
        return size
    paced = int(rows * target_s / elapsed_s)
    return max(MIN_PAGE, min(BACKFILL_BATCH, 2 * size, paced))


def _publish(publish: Callable[[EmbeddingProgress | None], None], pace: RemainingTime,
             done: int, total: int) -> None:
    pace.update(done)
    publish(EmbeddingProgress(done, total, pace.seconds_left(done, total)))


def _embed_missing(
    applier: Applier, engine: EmbeddingEngine, progress: Progress,
    between_batches: Callable[[], None], batch_size: int | None, result: BackfillResult,
    total: int, after_batch: Callable[[int, int], None],
) -> None:
    conn = applier.conn
    last_id = -1
    page = batch_size or FIRST_PAGE
    while True:
        started = time.monotonic()
        if progress.cancelled:
            result.cancelled = True
            return
        if applier.engine is not engine:  # switched by a job run between batches
            break
        rows = conn.execute(
            f"SELECT c.id, c.source_type, c.source_id, c.start, c.end {_MISSING} "
            "AND c.id > ? ORDER BY c.id LIMIT ?", (last_id, page)).fetchall()
        if not rows:
            break
        last_id = rows[-1][0]
        texts: dict[int, tuple[str, str]] = {}
        owners: set[SourceKey] = set()
        sources: dict[SourceKey, SourceText | None] = {}
        for cid, kind, sid, start, end in rows:
            key = (kind, sid)
            if key not in sources:
                sources[key] = load_source(applier.store, key)
            source = sources[key]
            if source is None or end > len(source.text):
                result.skipped += 1
                continue
            text = embed_text_of(source.text[start:end], source.title)
            texts[cid] = (text_hash(text), text)
            owners.add(key)
        try:
            vectors, fresh = vectors_for(conn, engine, list(texts.values()))
        except Exception as exc:  # noqa: BLE001 - recorded and shown; verify retries later
            result.failed += len(texts)
            _record_failures(applier, owners, exc)
            break
        rows_out = [(cid, vectors[h]) for cid, (h, _) in texts.items() if h in vectors]
        conn.execute("BEGIN IMMEDIATE")
        try:
            store_vectors(conn, engine.model_id, rows_out)
            store_cache(conn, engine.model_id, fresh)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        if rows_out and applier.dense.model_id == engine.model_id:
            applier.dense.add([cid for cid, _ in rows_out], np.stack([v for _, v in rows_out]))
        result.embedded += len(rows_out)
        if batch_size is None:
            page = next_page_size(page, len(rows), time.monotonic() - started)
        progress.tick(len(rows))
        after_batch(progress.done, total)
        applier.emit(IndexEvent("embedding", detail=f"{progress.done}/{total}"))
        between_batches()
        if applier.deferred:  # chunks the feed wrote meanwhile join this backfill (higher ids)
            total += applier.deferred
            applier.deferred = 0
            progress.set_maximum(total)
    progress.finish()


def _record_failures(applier: Applier, owners: set[SourceKey], exc: Exception) -> None:
    reason = f"embedding failed: {type(exc).__name__}: {exc}"
    log.warning("%s", reason)
    conn = applier.conn
    try:
        conn.execute("BEGIN IMMEDIATE")
        for key in sorted(owners):
            record_failure(conn, key, reason)
        conn.execute("COMMIT")
    except Exception:  # noqa: BLE001 - the event below still reports it
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        log.exception("could not record the embedding failure")
    applier.emit(IndexEvent("failed", detail=reason))
