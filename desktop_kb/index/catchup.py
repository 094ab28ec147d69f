"""Following the store's change feed: the index writer's main work (I12).

The index remembers in ``kb_meta`` the feed number it has applied
(``applied_seq``) and the store history it follows (``store_epoch``), written
in the same transaction as the rows: after a crash at any moment the index
is exactly "everything up to applied_seq", and the next writer continues from
there. Nothing has to reach the writer through an in-process hook: saves made
by the app, a CLI import in another process, or a script are all in the feed.

A round reads every change after ``applied_seq`` in one snapshot, oldest
first, and applies it in batches that end on a number boundary; each batch
commits its rows together with the new ``applied_seq``.

When the feed cannot say what the index missed — no ``applied_seq`` yet (an
index from before the feed), another epoch (a backup was restored), a number
beyond the store's (the store went back in time) or below the tombstone floor
(deletions were collected) — the index is *reconciled*: compared with the
whole store and repaired, then set to the position read before comparing.
"""

from __future__ import annotations

import sqlite3

from desktop_kb.index import db
from desktop_kb.index.apply import Applier, Cursor
from desktop_kb.index.sources import SourceKey
from desktop_kb.index.verify import VerifyReport, repair_drift
from desktop_kb.store import feed

BATCH = 64
SOURCE_KINDS = ("note", "fragment")


def read_cursor(index: sqlite3.Connection) -> Cursor | None:
    seq, epoch = db.get_meta(index, "applied_seq"), db.get_meta(index, "store_epoch")
    if seq is None or epoch is None:
        return None
    return Cursor(int(seq), epoch)


def needs_reconcile(cursor: Cursor | None, pos: feed.FeedPosition) -> bool:
    return (cursor is None or cursor.epoch != pos.epoch or cursor.seq > pos.seq
            or cursor.seq < pos.floor)


def reconcile(applier: Applier) -> VerifyReport:
    """Compare index and store in full, repair, and continue the feed from before the comparison."""
    with feed.snapshot(applier.store):
        pos = feed.position(applier.store)
    report = repair_drift(applier)
    applier.advance(Cursor(pos.seq, pos.epoch))
    return report


class CatchUp:
    """Rounds of catch-up, one batch per ``step`` so other work can run in between."""

    def __init__(self, applier: Applier, batch: int = BATCH) -> None:
        self.applier = applier
        self.batch = batch
        self._todo: list[feed.Change] = []
        self._epoch = ""
        self.reconciled: VerifyReport | None = None  # the last reconcile's findings

    @property
    def in_round(self) -> bool:
        return bool(self._todo)

    def begin(self) -> bool:
        """Read what changed since the applied position; True if there is work."""
        cursor = read_cursor(self.applier.conn)
        pos, changes = feed.changes_since(self.applier.store, cursor.seq if cursor else 0)
        if needs_reconcile(cursor, pos):
            self.reconciled = reconcile(self.applier)
            self._todo = []
            return False
        self._epoch = pos.epoch
        self._todo = changes
        if not changes and cursor is not None and cursor.seq < pos.seq:
            # Numbers handed out without a visible change (a row changed again
            # later carries only its newest number): just move along.
            self.applier.advance(Cursor(pos.seq, pos.epoch))
        return bool(changes)

    def step(self) -> bool:
        """Apply the next batch; True while this round has more."""
        if not self._todo:
            return False
        end = min(self.batch, len(self._todo))
        while end < len(self._todo) and self._todo[end].seq == self._todo[end - 1].seq:
            end += 1  # never split one number across two batches
        batch, self._todo = self._todo[:end], self._todo[end:]
        keys: list[SourceKey] = list(dict.fromkeys(
            (c.kind, c.id) for c in batch if c.kind in SOURCE_KINDS))
        cursor = Cursor(batch[-1].seq, self._epoch)
        # Keywords first: another process's import must not wait for a slow model one
        # batch at a time (an app embedding with multilingual-e5-small kept a 150-file
        # `desktop-kb import` waiting 112 s); the worker's backfill embeds what is left.
        self.applier.index_keys(keys, cursor=cursor, retry_failed=False, embed=False)
        return bool(self._todo)

    def run_all(self) -> None:
        """Catch up completely (used by tests and by callers that own the thread)."""
        while self.begin():
            while self.step():
                pass
