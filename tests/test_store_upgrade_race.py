"""Two processes opening one library at the same moment both upgrade its schema: the app
and a command started together after an update, or three imports started at once on a new
folder. The one that looked at the version before the other's upgrade committed ran the
same step again ('table chat_sessions already exists': `desktop-kb import` exited 70 with
'internal error', seen with three imports of overlapping folders into a new data folder)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from desktop_kb.store import connection
from desktop_kb.store.schema import MIGRATIONS, SCHEMA_VERSION

TIMEOUT = 60


def _library_at(path: Path, version: int) -> None:
    raw = sqlite3.connect(path, isolation_level=None)
    raw.execute("PRAGMA journal_mode = WAL")
    for step in range(1, version + 1):
        for statement in MIGRATIONS[step]:
            raw.execute(statement)
    raw.execute(f"PRAGMA user_version = {version}")
    raw.close()


def _upgrade(path: Path, frm: int) -> None:
    """What the other process does: every step after ``frm``, each in its own transaction."""
    raw = sqlite3.connect(path, isolation_level=None)
    for step in range(frm + 1, SCHEMA_VERSION + 1):
        raw.execute("BEGIN IMMEDIATE")
        for statement in MIGRATIONS[step]:
            raw.execute(statement)
        raw.execute(f"PRAGMA user_version = {step}")
        raw.execute("COMMIT")
    raw.close()


@pytest.mark.parametrize("frm", [0, SCHEMA_VERSION - 1])
def test_a_library_another_process_upgraded_meanwhile_opens(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, frm: int) -> None:
    path = tmp_path / "library.sqlite"
    if frm:
        _library_at(path, frm)
    looked, go = threading.Event(), threading.Event()
    real_check = connection._check_version

    def check_then_wait(conn: sqlite3.Connection, at: Path) -> int:
        version = real_check(conn, at)
        looked.set()
        assert go.wait(TIMEOUT)
        return version

    monkeypatch.setattr(connection, "_check_version", check_then_wait)
    opened: list[object] = []

    def open_it() -> None:
        try:
            opened.append(connection.open_store(path, backup_before_upgrade=False))
        except Exception as exc:  # noqa: BLE001 - asserted below
            opened.append(exc)

    opener = threading.Thread(target=open_it)
    opener.start()
    assert looked.wait(TIMEOUT)
    _upgrade(path, frm)  # the other process, between this one's look and its lock
    go.set()
    opener.join(TIMEOUT)
    assert len(opened) == 1 and isinstance(opened[0], sqlite3.Connection), opened
    conn = opened[0]
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.close()
