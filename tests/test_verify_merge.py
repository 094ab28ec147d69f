"""verify's drift report is the same as a whole-table comparison, for drift of every kind.

find_drift merges two id-ordered streams per kind of source instead of holding every
indexed and every live key in memory; this checks it against the comparison it replaced
(a dict of the index's rows, a set of the live ones) on drift made at random: rows lost,
stale, left over past either end and between live ids, of a kind no table holds, notes
trashed behind the index's back.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from desktop_kb.index.sources import SOURCE_KINDS, live_versions
from desktop_kb.index.verify import find_drift
from desktop_kb.library import Library


def whole_table_drift(index: sqlite3.Connection, store: sqlite3.Connection) -> tuple[list, list, list]:
    indexed = {(t, i): v for t, i, v in index.execute("SELECT source_type, source_id, version FROM kb_sources")}
    missing, stale, seen = [], [], set()
    for kind in SOURCE_KINDS:
        for source_id, version in live_versions(store, kind):
            key = (kind, source_id)
            seen.add(key)
            if key not in indexed:
                missing.append(key)
            elif indexed[key] != version:
                stale.append(key)
    return missing, stale, sorted(k for k in indexed if k not in seen)


def test_merged_drift_equals_the_whole_table_comparison(library: Library, tmp_path: Path) -> None:
    notes = [library.add_note(f"n{i}", f"body {i} zqx{i}") for i in range(40)]
    book = tmp_path / "book.md"
    book.write_text("\n\n".join(f"# Part {i}\n\nText of part {i}." for i in range(12)), encoding="utf-8")
    library.import_paths([book])
    library.drain()
    assert library.verify(repair=False).drift == 0
    fragments = [r[0] for r in library.store_reader.execute("SELECT id FROM fragments ORDER BY id")]
    assert len(fragments) >= 10
    rng = random.Random(7)
    for round_ in range(6):
        lost = [("note", i) for i in rng.sample(notes, 5)] + [("fragment", i) for i in rng.sample(fragments, 3)]
        stale = [("note", i) for i in rng.sample(notes, 4)] + [("fragment", i) for i in rng.sample(fragments, 2)]
        extra = [("note", 0), ("note", max(notes) + 1 + round_), ("fragment", max(fragments) + 7),
                 ("fragment", -3), ("zzz", 5), ("document", 2), ("a", 1)]

        def tamper(conn: sqlite3.Connection, lost=lost, stale=stale, extra=extra) -> None:
            conn.execute("BEGIN")
            conn.executemany("DELETE FROM kb_sources WHERE source_type = ? AND source_id = ?", lost)
            conn.executemany("UPDATE kb_sources SET version = 'old' WHERE source_type = ? AND source_id = ?",
                             stale)
            conn.executemany("INSERT OR REPLACE INTO kb_sources VALUES (?, ?, 'v', 't', 0)", extra)
            conn.execute("COMMIT")

        library.worker.call(tamper).result()
        trashed = rng.choice(notes)
        library.write(lambda c, t=trashed: c.execute("UPDATE notes SET trashed_at = 1 WHERE id = ?", (t,)))

        def compare(conn: sqlite3.Connection) -> tuple:
            report = find_drift(conn, library.store_reader)
            return (report.missing, report.stale, report.orphans), whole_table_drift(conn, library.store_reader)

        merged, whole = library.worker.call(compare).result()
        assert merged == tuple(map(list, whole)), round_
        assert merged[0] and merged[1] and len(merged[2]) >= len(extra)  # every kind of drift was there
        library.verify(repair=True)
        assert library.verify(repair=False).drift == 0
