"""Compare store and index and say what drifted (I5): missing, stale and orphan rows."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field

from desktop_kb.index import term_df
from desktop_kb.index.apply import Applier
from desktop_kb.index.sources import SOURCE_KINDS, SourceKey, live_versions
from desktop_kb.index.writer import remove_source


@dataclass
class VerifyReport:
    missing: list[SourceKey] = field(default_factory=list)  # live in the store, absent from the index
    stale: list[SourceKey] = field(default_factory=list)  # indexed from an older text
    orphans: list[SourceKey] = field(default_factory=list)  # indexed, but gone from the store
    orphan_chunks: int = 0  # chunk, FTS or vector rows without an owner
    missing_vectors: int = 0  # chunks without a vector for the model in use
    repaired: bool = False

    @property
    def drift(self) -> int:
        return (len(self.missing) + len(self.stale) + len(self.orphans) + self.orphan_chunks
                + self.missing_vectors)

    def summary(self) -> str:
        """One line for a person or a log: how many of each, never the list of every key."""
        return (f"{len(self.missing)} missing, {len(self.stale)} stale, "
                f"{len(self.orphans)} orphan sources, {self.orphan_chunks} orphan rows, "
                f"{self.missing_vectors} missing vectors")

    def as_dict(self) -> dict[str, object]:
        return {
            "missing": [list(k) for k in self.missing],
            "stale": [list(k) for k in self.stale],
            "orphans": [list(k) for k in self.orphans],
            "orphan_chunks": self.orphan_chunks,
            "missing_vectors": self.missing_vectors,
            "drift": self.drift,
            "repaired": self.repaired,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> VerifyReport:
        """Back from ``as_dict`` (a report computed by the process that owns the index)."""
        def keys(name: str) -> list[SourceKey]:
            return [(str(k[0]), int(k[1])) for k in data.get(name, [])]  # type: ignore[union-attr]

        return cls(missing=keys("missing"), stale=keys("stale"), orphans=keys("orphans"),
                   orphan_chunks=int(data.get("orphan_chunks", 0)),  # type: ignore[arg-type]
                   missing_vectors=int(data.get("missing_vectors", 0)),  # type: ignore[arg-type]
                   repaired=bool(data.get("repaired", False)))


def find_drift(index: sqlite3.Connection, store: sqlite3.Connection) -> VerifyReport:
    report = VerifyReport()
    # A merge of two id-ordered streams per kind, so memory holds the drift only: a dict
    # of every indexed source and a set of every live one took ~200 MB at 10⁶ sources,
    # the peak of opening a big library after an unclean exit.
    for kind in SOURCE_KINDS:
        indexed = index.execute("SELECT source_id, version FROM kb_sources WHERE source_type = ? "
                                "ORDER BY source_id", (kind,))
        have = next(indexed, None)
        for source_id, version in live_versions(store, kind):
            while have is not None and have[0] < source_id:
                report.orphans.append((kind, have[0]))
                have = next(indexed, None)
            if have is None or have[0] != source_id:
                report.missing.append((kind, source_id))
                continue
            if have[1] != version:
                report.stale.append((kind, source_id))
            have = next(indexed, None)
        while have is not None:
            report.orphans.append((kind, have[0]))
            have = next(indexed, None)
    # Rows of a kind no store table holds (never written today): orphans too. Ranges of the
    # primary key, so the known kinds' rows are not walked again.
    report.orphans += [(str(t), int(i)) for t, i in index.execute(
        "SELECT source_type, source_id FROM kb_sources WHERE source_type < 'fragment' "
        "OR (source_type > 'fragment' AND source_type < 'note') OR source_type > 'note'")]
    report.orphans.sort()
    report.orphan_chunks = count_orphan_rows(index)
    report.missing_vectors = count_missing_vectors(index)
    return report


def count_missing_vectors(index: sqlite3.Connection) -> int:
    model = index.execute("SELECT value FROM kb_meta WHERE key = 'embed_model'").fetchone()
    if model is None or not model[0]:
        return 0
    return index.execute(
        "SELECT count(*) FROM kb_chunks c WHERE NOT EXISTS "
        "(SELECT 1 FROM kb_vectors v WHERE v.chunk_id = c.id)").fetchone()[0]


def count_orphan_rows(index: sqlite3.Connection) -> int:
    chunks = index.execute(
        "SELECT count(*) FROM kb_chunks c WHERE NOT EXISTS (SELECT 1 FROM kb_sources s "
        "WHERE s.source_type = c.source_type AND s.source_id = c.source_id)").fetchone()[0]
    fts = index.execute(
        "SELECT count(*) FROM kb_fts WHERE rowid NOT IN (SELECT id FROM kb_chunks)").fetchone()[0]
    unindexed = index.execute(
        "SELECT count(*) FROM kb_chunks WHERE id NOT IN (SELECT rowid FROM kb_fts)").fetchone()[0]
    vectors = index.execute(
        "SELECT count(*) FROM kb_vectors WHERE chunk_id NOT IN (SELECT id FROM kb_chunks) "
        "OR model_id != (SELECT value FROM kb_meta WHERE key = 'embed_model')").fetchone()[0]
    grams = index.execute(
        "SELECT count(*) FROM kb_grams WHERE rowid NOT IN (SELECT id FROM kb_chunks)").fetchone()[0]
    ops = index.execute(
        "SELECT count(*) FROM kb_ops WHERE rowid NOT IN (SELECT id FROM kb_chunks)").fetchone()[0]
    return chunks + fts + unindexed + vectors + grams + ops


def delete_orphan_rows(index: sqlite3.Connection) -> None:
    """Inside the caller's transaction: drop rows no source owns, and sources whose rows broke."""
    broken = index.execute(
        "SELECT DISTINCT source_type, source_id FROM kb_chunks "
        "WHERE id NOT IN (SELECT rowid FROM kb_fts)").fetchall()
    for key in broken:
        # Forget the source so the repair re-indexes it whole.
        index.execute("DELETE FROM kb_sources WHERE source_type = ? AND source_id = ?", tuple(key))
    index.execute(
        "DELETE FROM kb_chunks WHERE NOT EXISTS (SELECT 1 FROM kb_sources s "
        "WHERE s.source_type = kb_chunks.source_type AND s.source_id = kb_chunks.source_id)")
    term_df.remove_rows(index, [r[0] for r in index.execute(
        "SELECT rowid FROM kb_fts WHERE rowid NOT IN (SELECT id FROM kb_chunks)")])
    index.execute("DELETE FROM kb_fts WHERE rowid NOT IN (SELECT id FROM kb_chunks)")
    index.execute("DELETE FROM kb_grams WHERE rowid NOT IN (SELECT id FROM kb_chunks)")
    index.execute("DELETE FROM kb_ops WHERE rowid NOT IN (SELECT id FROM kb_chunks)")
    index.execute("DELETE FROM kb_terms WHERE NOT EXISTS (SELECT 1 FROM kb_sources s "
                  "WHERE s.source_type = kb_terms.source_type AND s.source_id = kb_terms.source_id)")
    index.execute(
        "DELETE FROM kb_vectors WHERE chunk_id NOT IN (SELECT id FROM kb_chunks) "
        "OR model_id != (SELECT value FROM kb_meta WHERE key = 'embed_model')")


def repair_drift(applier: Applier, report: VerifyReport | None = None, batch: int = 64) -> VerifyReport:
    """Find drift (unless given) and repair it: orphans out, missing and stale sources re-indexed.

    Vectors are not embedded here; the caller runs the backfill afterwards.
    """
    conn = applier.conn
    report = report or find_drift(conn, applier.store)
    if not report.drift:
        return report
    conn.execute("BEGIN IMMEDIATE")
    try:
        for key in report.orphans:
            remove_source(conn, key)
        delete_orphan_rows(conn)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    after = find_drift(conn, applier.store)
    todo = after.missing + after.stale
    for i in range(0, len(todo), batch):
        applier.index_keys(todo[i:i + batch])
    applier.reload_dense()
    report.repaired = True
    return report
