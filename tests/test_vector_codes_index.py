"""The sign bits' covering index (schema 10): dense search loads its bits without
reading the float vectors, an older index gains it in place, and a kill -9 in the
middle of that leaves an index the next start migrates again."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from desktop_kb.index import db
from desktop_kb.index.vectors import load_codes
from tests.test_vector_file import TIMEOUT, HashEngine, _library

LOAD_QUERY = "SELECT chunk_id, code FROM kb_vectors WHERE model_id = ? AND length(code) = ?"


def _schema_9_index(data_dir: Path) -> tuple[Path, list[tuple[int, str, bytes, bytes]]]:
    """A library with vectors whose index is turned back into schema 9 (no covering index)."""
    with _library(data_dir, notes=60) as lib:
        index_path = lib.paths.index
    conn = sqlite3.connect(index_path, isolation_level=None)
    rows = conn.execute("SELECT chunk_id, model_id, vector, code FROM kb_vectors ORDER BY chunk_id").fetchall()
    assert len(rows) >= 60
    conn.execute("DROP INDEX kb_vectors_code")
    conn.execute("PRAGMA user_version = 9")
    conn.close()
    return index_path, rows


def _plan(conn: sqlite3.Connection) -> str:
    """How ``load_codes``' query runs now. A statement of new text each time: a cached EXPLAIN
    is never prepared again after another connection changed the schema (a SELECT is)."""
    _plans.append(0)
    sql = "EXPLAIN QUERY PLAN " + LOAD_QUERY + " " * len(_plans)
    return " ".join(r[-1] for r in conn.execute(sql, (HashEngine().model_id, 3)))


_plans: list[int] = []


def _assert_migrated(index_path: Path, rows: list[tuple[int, str, bytes, bytes]]) -> None:
    conn = db.open_index_writer(index_path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == db.INDEX_SCHEMA_VERSION
        assert not db.is_dirty(conn)  # in place: no rebuild
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute(
            "SELECT chunk_id, model_id, vector, code FROM kb_vectors ORDER BY chunk_id").fetchall() == rows
        assert "COVERING INDEX kb_vectors_code" in _plan(conn)
    finally:
        conn.close()


def test_loading_the_sign_bits_reads_the_covering_index_not_the_vectors(data_dir: Path) -> None:
    with _library(data_dir, notes=40) as lib:
        engine = lib.engine
        assert engine is not None
        reader = db.open_index_reader(lib.paths.index)  # as a process following the index reads
        try:
            assert "COVERING INDEX kb_vectors_code" in _plan(reader)
            ids, codes = load_codes(reader, engine.model_id, engine.dim)
            expected = reader.execute(
                "SELECT chunk_id, code FROM kb_vectors NOT INDEXED ORDER BY chunk_id").fetchall()
        finally:
            reader.close()
    order = np.argsort(ids)
    assert ids[order].tolist() == [cid for cid, _ in expected]
    assert [bytes(c) for c in codes[order]] == [code for _, code in expected]


def test_a_schema_9_index_gains_the_covering_index_in_place(data_dir: Path) -> None:
    index_path, rows = _schema_9_index(data_dir)
    follower = db.open_index_reader(index_path)  # opened before the migration, used after it
    try:
        assert "COVERING INDEX" not in _plan(follower)
        _assert_migrated(index_path, rows)
        engine = HashEngine()
        ids, codes = load_codes(follower, engine.model_id, engine.dim)
        assert sorted(ids.tolist()) == [r[0] for r in rows]
        assert "COVERING INDEX kb_vectors_code" in _plan(follower)
    finally:
        follower.close()
    with _library(data_dir, notes=0) as lib:  # the app opens it as usual and searches
        assert lib.engine is not None and len(lib.dense) == len(rows)
        assert lib.search("topic 3", mode="dense").results


CHILD = textwrap.dedent("""
    import sys
    from pathlib import Path
    from desktop_kb.index import db

    class PausesBeforeCommit:
        def __init__(self, conn):
            self.conn = conn

        def execute(self, sql, *args):
            if sql == "COMMIT":
                print("migrated, not committed", flush=True)
                sys.stdin.readline()  # the parent kills this process here
            return self.conn.execute(sql, *args)

    db._migrate(PausesBeforeCommit(db._connect(Path(sys.argv[1]))))
""")


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_kill_minus_nine_during_the_migration_leaves_schema_9_and_the_next_start_migrates(
        data_dir: Path) -> None:
    index_path, rows = _schema_9_index(data_dir)
    repo = str(Path(__file__).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [repo, os.environ.get("PYTHONPATH")])))
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(index_path)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "migrated, not committed"
        child.send_signal(signal.SIGKILL)
        child.wait(TIMEOUT)
    finally:
        if child.poll() is None:
            child.kill()
    conn = sqlite3.connect(index_path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 9
        assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'kb_vectors_code'").fetchone()[0] == 0
    finally:
        conn.close()
    _assert_migrated(index_path, rows)
