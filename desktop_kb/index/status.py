"""What the index's state is, computed the same way in every process (I12: status never lies).

Read from ``index.sqlite`` (rows, failures, flags, the feed position applied)
and the store's change feed (how much is not applied yet), so a CLI
``index status`` run while the app owns the index reports the same backlog the
app is working off.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from desktop_kb.index import db
from desktop_kb.index.catchup import read_cursor
from desktop_kb.index.eta import EmbeddingProgress
from desktop_kb.index.writer import failures
from desktop_kb.store import feed

# Most urgent first: the badge shows the first state that applies.
STATES = ("unavailable", "failed", "incomplete", "indexing", "checking", "embedding", "ok")


@dataclass(frozen=True)
class IndexStatus:
    sources: int
    chunks: int
    pending: int  # changes in the store the index has not applied yet, plus in-process work
    failures: list[tuple[str, int, str, int]]  # (type, id, reason, attempts)
    dirty: bool  # a rebuild is needed or running
    segmenter: str
    embed_model: str
    applied_seq: int = -1
    store_seq: int = 0
    checking: bool = False  # the last owner exited uncleanly; a verify is pending or running
    missing_vectors: int = 0
    unrecorded_failures: int = 0  # failures that could not even be written down
    error: str | None = None  # why the index cannot be written right now (disk full, …)
    model_error: str | None = None  # the chosen embedding model failed to load
    owner: str = ""  # who writes the index when it is another process
    # This process's running backfill (share done, time left); another process's
    # shows as ``missing_vectors`` only.
    embedding: EmbeddingProgress | None = None
    # The owner (another process) is stopped, but the index holds every change: nothing to
    # alarm about until the next change, which waits for it (then ``error`` says why).
    owner_stopped: bool = False
    # The chosen, installed model that is still loading (search is keywords only until then).
    model_loading: str = ""

    @property
    def embedded_percent(self) -> int:
        if self.embedding is not None:
            return self.embedding.percent
        return int(100 * (self.chunks - self.missing_vectors) / self.chunks) if self.chunks else 100

    @property
    def state(self) -> str:
        if self.error:
            return "unavailable"
        if self.failures or self.unrecorded_failures or self.model_error:
            return "failed"
        if self.dirty:
            return "incomplete"
        if self.pending:
            return "indexing"
        if self.checking:
            return "checking"
        if self.missing_vectors:
            return "embedding"
        return "ok"

    def as_json(self) -> dict[str, object]:
        return {
            "state": self.state, "sources": self.sources, "chunks": self.chunks,
            "pending": self.pending, "dirty": self.dirty, "segmenter": self.segmenter,
            "embed_model": self.embed_model or None,
            "failures": [{"source_type": t, "source_id": i, "reason": r, "attempts": a}
                         for t, i, r, a in self.failures],
            "applied_seq": self.applied_seq, "store_seq": self.store_seq,
            "checking": self.checking, "missing_vectors": self.missing_vectors,
            "unrecorded_failures": self.unrecorded_failures, "error": self.error,
            "model_error": self.model_error, "owner": self.owner or None,
            "embedding": self.embedding.as_json() if self.embedding else None,
            "owner_stopped": self.owner_stopped,
        }

    @property
    def whole(self) -> bool:
        """Every change in the store is in the index, keywords and vectors."""
        return not (self.pending or self.dirty or self.checking or self.missing_vectors
                    or self.failures or self.unrecorded_failures)


def read_status(
    index: sqlite3.Connection | None, store: sqlite3.Connection, *, in_process: int = 0,
    error: str | None = None, model_error: str | None = None, unrecorded: int = 0,
    owner: str = "", embedding: EmbeddingProgress | None = None,
) -> IndexStatus:
    """``index`` is None when there is no index file yet (a new library, or one being replaced)."""
    with feed.snapshot(store):
        pos = feed.position(store)
    if index is None or not db.has_meta(index):
        backlog = feed.pending_count(store, 0)
        return IndexStatus(0, 0, backlog + in_process, [], True, "", "", -1, pos.seq, error=error,
                           model_error=model_error, unrecorded_failures=unrecorded, owner=owner)
    with feed.snapshot(index):
        cursor = read_cursor(index)
        embed_model = db.get_meta(index, "embed_model") or ""
        status_rows = (
            index.execute("SELECT count(*) FROM kb_sources").fetchone()[0],
            index.execute("SELECT count(*) FROM kb_chunks").fetchone()[0],
            failures(index),
            db.is_dirty(index),
            db.get_meta(index, "segmenter") or "",
            db.get_meta(index, "verify_needed") == "1",
            _missing_vectors(index, embed_model),
        )
    sources, chunks, failed, dirty, segmenter, checking, missing_vectors = status_rows
    # A position from another history (or none yet) means a full comparison is
    # due: "checking", not a backlog the size of the library.
    stale_cursor = cursor is None or cursor.epoch != pos.epoch or cursor.seq > pos.seq
    backlog = 0 if stale_cursor or cursor is None else feed.pending_count(store, cursor.seq)
    if not (backlog or stale_cursor):
        # Every change the store holds is applied. A save hint names a change already in the
        # feed (hinted after its commit), so one not taken yet (the worker held in a model's
        # batch) is no work left: it read 'indexing' while only vectors were missing.
        in_process = 0
    return IndexStatus(
        sources=sources, chunks=chunks, pending=backlog + in_process, failures=failed,
        dirty=dirty, segmenter=segmenter, embed_model=embed_model,
        applied_seq=cursor.seq if cursor else -1, store_seq=pos.seq,
        checking=checking or stale_cursor, missing_vectors=missing_vectors,
        unrecorded_failures=unrecorded, error=error, model_error=model_error, owner=owner,
        embedding=embedding if missing_vectors else None,
    )


def _missing_vectors(index: sqlite3.Connection, embed_model: str) -> int:
    if not embed_model:
        return 0
    chunks = index.execute("SELECT count(*) FROM kb_chunks").fetchone()[0]
    vectors = index.execute("SELECT count(*) FROM kb_vectors WHERE model_id = ?", (embed_model,)).fetchone()[0]
    return max(0, chunks - vectors)

