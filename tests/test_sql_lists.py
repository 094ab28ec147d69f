"""Id lists longer than one statement's variables are read in batches, none lost or doubled."""

from __future__ import annotations

import sqlite3

from desktop_kb.store.sql_lists import IN_BATCH, in_batches


def test_batches_cover_every_value_once_with_matching_placeholders() -> None:
    assert list(in_batches([])) == []
    values = list(range(2 * IN_BATCH + 1))
    parts = list(in_batches(values))
    assert [len(p) for p, _ in parts] == [IN_BATCH, IN_BATCH, 1]
    assert [v for p, _ in parts for v in p] == values
    assert all(marks.count("?") == len(p) for p, marks in parts)


def test_a_long_id_list_reads_every_row(tmp_path) -> None:
    conn = sqlite3.connect(tmp_path / "t.sqlite")
    conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY)")
    conn.executemany("INSERT INTO t VALUES (?)", [(i,) for i in range(3000)])
    wanted = list(range(1, 3000, 2))  # 1,500 ids: three statements
    found = [r[0] for part, marks in in_batches(wanted)
             for r in conn.execute(f"SELECT id FROM t WHERE id IN ({marks})", part)]
    assert sorted(found) == wanted
