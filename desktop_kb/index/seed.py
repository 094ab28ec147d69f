"""Which index a library on a read-only disk starts from: the one kept for it in the per-user
cache, or the one beside it, when that one has less work left.

The cached index follows the library by the change feed and embeds what it lacks. A library
changed elsewhere since (another computer added to it or switched its model) carries an index
beside it that already holds that work; catching up instead embedded it all again (1,039 of
the Rust book's 1,071 chunks when its model had changed: minutes on a loaded machine), where
a copy of the index takes well under a second.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from desktop_kb.index import db
from desktop_kb.index.segment import segmenter_signature
from desktop_kb.store import feed


@dataclass(frozen=True)
class IndexState:
    epoch: str
    seq: int
    segmenter: str
    dirty: bool
    chunks: int
    #: Chunks with a vector of the model the library uses (all of them when it uses none).
    embedded: int


def read_state(index: sqlite3.Connection, model: str | None) -> IndexState | None:
    """None for an index that cannot be read or has no feed position (built before the feed)."""
    try:
        with feed.snapshot(index):
            seq, epoch = db.get_meta(index, "applied_seq"), db.get_meta(index, "store_epoch")
            if seq is None or epoch is None:
                return None
            chunks = index.execute("SELECT count(*) FROM kb_chunks").fetchone()[0]
            embedded = chunks if model is None else index.execute(
                "SELECT count(*) FROM kb_vectors WHERE model_id = ?", (model,)).fetchone()[0]
            return IndexState(epoch, int(seq), db.get_meta(index, "segmenter") or "",
                              db.is_dirty(index), chunks, embedded)
    except sqlite3.Error:
        return None


def work_left(state: IndexState | None, store: feed.FeedPosition) -> int | None:
    """Changes to apply plus chunks to embed; None when the index cannot be caught up at all
    (another library's history, a position past the store's, a rebuild left half done,
    another segmenter): it would be rebuilt."""
    if (state is None or state.dirty or state.epoch != store.epoch or state.seq > store.seq
            or state.segmenter != segmenter_signature()):
        return None
    return (store.seq - state.seq) + max(0, state.chunks - state.embedded)


def beside_has_less_left(beside: IndexState | None, cached: IndexState | None,
                         store: feed.FeedPosition) -> bool:
    """Whether to start again from the index beside the library (ties keep the cached one)."""
    theirs, ours = work_left(beside, store), work_left(cached, store)
    return theirs is not None and (ours is None or theirs < ours)
