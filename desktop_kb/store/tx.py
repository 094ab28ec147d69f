"""Explicit write transactions (connections run in autocommit mode)."""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from desktop_kb.paths import file_identity
from desktop_kb.store.connection import StoreConnection
from desktop_kb.store.errors import (
    MOVED_LIBRARY_MESSAGE,
    REPLACED_LIBRARY_MESSAGE,
    LibraryReplacedError,
    environment_error,
    error_code,
)
from desktop_kb.store.processes import process_stopped, wal_writer


@contextmanager
def transaction(conn: sqlite3.Connection, what: str = "Saving to the library") -> Iterator[None]:
    """BEGIN IMMEDIATE … COMMIT; environment failures become StoreError, bugs propagate."""
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as exc:
        err = environment_error(exc, what, also=_holder(conn, exc))
        if err is None:
            raise
        raise err from exc
    try:
        yield
        _still_the_open_file(conn, what)
        conn.execute("COMMIT")
    except BaseException as exc:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        if isinstance(exc, LibraryReplacedError):
            empty_the_wal(conn)
        if isinstance(exc, sqlite3.Error):
            err = environment_error(exc, what)
            if err is not None:
                raise err from exc
        raise


def _holder(conn: sqlite3.Connection, exc: sqlite3.Error) -> str:
    """When the library stays busy: name the process that holds its write lock (a long import,
    the app, a database browser left in a transaction), saying so when it is stopped (the app
    suspended mid-import, a command stopped with Ctrl+Z: it keeps its transaction for as long
    as it stays stopped). 'close the other window or try again' did not say which."""
    if error_code(exc) != 5 or not isinstance(conn, StoreConnection) or conn.path is None:
        return ""
    from desktop_kb.index.writer_lock import (  # index imports store
        HOLDER_MESSAGE,
        HOLDER_STOPPED_MESSAGE,
        WriterLock,
        describe_process,
    )

    pid = wal_writer(conn.path)
    if pid is not None and pid != os.getpid():
        message = HOLDER_STOPPED_MESSAGE if process_stopped(pid) else HOLDER_MESSAGE
        return message.format(describe_process(pid, conn.path.parent))
    owner = WriterLock(conn.path.parent, "").stopped_owner()  # no /proc/locks to ask
    return "" if owner is None else HOLDER_STOPPED_MESSAGE.format(owner.describe())


def _still_the_open_file(conn: sqlite3.Connection, what: str) -> None:
    """Refuse to commit into a file that is no longer at the library's path (one stat)."""
    if replaced_under(conn):
        raise LibraryReplacedError(f"{what}: {replaced_message(conn)} ({conn.path})")


def replaced_message(conn: sqlite3.Connection) -> str:
    """Why the store's file is no longer at the library's path, as far as can be told: its
    folder renamed or moved (where to), else replaced or removed (a sync client, a disk)."""
    now = moved_to(conn)
    if now is None or not isinstance(conn, StoreConnection) or conn.path is None:
        return REPLACED_LIBRARY_MESSAGE
    return MOVED_LIBRARY_MESSAGE.format(now.parent, conn.path.parent)


def moved_to(conn: sqlite3.Connection) -> Path | None:
    """Where the store's open file is now when the library's folder was renamed or moved on its
    disk (the open file goes with it; Linux names it under /proc/self/fd). None when it was
    removed, replaced, renamed inside its folder (a sync client's conflict copy), or cannot be
    told."""
    if not isinstance(conn, StoreConnection) or conn.path is None or conn.opened is None:
        return None
    try:
        fds = os.listdir("/proc/self/fd")
    except OSError:
        return None
    for fd in fds:
        link = f"/proc/self/fd/{fd}"
        try:
            st = os.stat(link)
            if (st.st_dev, st.st_ino) != conn.opened:
                continue
            target = os.readlink(link)
        except OSError:
            continue
        now = Path(target)
        if target.endswith(" (deleted)") or now.name != conn.path.name or now.parent == conn.path.parent:
            return None
        # A pulled stick's file system, detached, names its files from its own root ("/library/…").
        return now if file_identity(now) == conn.opened else None
    return None


def replaced_under(conn: sqlite3.Connection) -> bool:
    """Whether the store's write connection's file is no longer at the library's path."""
    return (isinstance(conn, StoreConnection) and conn.path is not None
            and conn.opened is not None and file_identity(conn.path) != conn.opened)


EMPTY_WAL_WAIT_S = 30.0


def empty_the_wal(conn: sqlite3.Connection) -> None:
    """Move the old file's pages out of ``-wal`` into the old file itself: ``-wal`` is found by
    name, so any process opening the new ``library.sqlite`` would read them as its own
    pages (the other device's notes were overwritten by this one's).

    A reader of the old file (this process's index worker) holding an older snapshot stops the
    checkpoint short of the last pages; one try gives up after the busy timeout, which a loaded
    machine outlasts: try again until the log is empty (bounded, off the GUI thread)."""
    deadline = time.monotonic() + EMPTY_WAL_WAIT_S
    while True:
        try:
            row = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except sqlite3.Error:
            return
        if row is None or row[0] == 0 or time.monotonic() > deadline:
            return
        time.sleep(0.05)
