"""Opening ``library.sqlite``: WAL, foreign keys, durable commits, forward migrations."""

from __future__ import annotations

import contextlib
import ctypes
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from desktop_kb.paths import file_identity, read_only_folder
from desktop_kb.store.backup import BackupError, create_backup, list_backups
from desktop_kb.store.errors import (
    EMPTY_LIBRARY_MESSAGE,
    MISSING_LIBRARY_MESSAGE,
    SchemaTooNewError,
    StoreError,
    environment_error,
    error_code,
)
from desktop_kb.store.schema import MIGRATIONS, SCHEMA_VERSION

BUSY_TIMEOUT_MS = 5000
#: How long a write that the person can do without (a chat kept for a question that was
#: answered by reading) waits for another program's write lock: a save's commit takes
#: milliseconds, a long import's transaction minutes, and asking must not wait for that.
SHORT_BUSY_MS = 100


class StoreConnection(sqlite3.Connection):
    """The store's write connection, knowing which file it opened.

    A sync client (Dropbox, OneDrive, Syncthing) puts another device's copy in
    place by renaming it over ``library.sqlite``; an open connection goes on
    writing into the old file, which nobody sees again (a note saved after that
    was gone on the next start). ``store.tx.transaction`` compares before each
    commit.
    """

    path: Path | None = None
    opened: tuple[int, int] | None = None  # (device, inode) when it was opened


def _configure(conn: sqlite3.Connection) -> None:
    conn.row_factory = sqlite3.Row
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA foreign_keys = ON")


def open_store(path: Path, *, readonly: bool = False, backup_before_upgrade: bool = True,
               ) -> sqlite3.Connection:
    """Open the store; the writer migrates it, readers only check the version.

    ``synchronous=FULL`` makes a committed save survive a power cut, which is
    the promise "a save is durable before it returns". An existing library is
    backed up before its schema is upgraded; if that backup cannot be made
    the upgrade does not happen (and the file is not changed).
    """
    _refuse_a_lost_library(path)
    try:
        if readonly:
            conn = open_read_only(path)
            try:
                _configure(conn)
                _check_version(conn, path)
            except BaseException:
                conn.close()
                raise
            return conn
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None,
                               factory=StoreConnection)
        conn.path, conn.opened = path, file_identity(path)
        _configure(conn)
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        _migrate(conn, path, backup_before_upgrade)
        return conn
    except sqlite3.Error as exc:
        err = environment_error(exc, f"Cannot open the library at {path}", path.parent)
        if err is None:
            raise
        raise err from exc


def open_read_only(path: Path) -> sqlite3.Connection:
    """A connection that only reads ``path`` (the store, or an index to copy), also where it
    lies on a read-only disk with no ``-shm`` beside it."""
    try:
        return _connect_read_only(path, "?mode=ro")
    except sqlite3.OperationalError as exc:
        if not _unshared_on_a_read_only_folder(path, exc):
            raise
    return _connect_read_only(path, "?mode=ro&immutable=1")


def _connect_read_only(path: Path, query: str) -> sqlite3.Connection:
    conn = sqlite3.connect(f"{path.as_uri()}{query}", uri=True, check_same_thread=False,
                           isolation_level=None)
    try:
        conn.execute("SELECT 1 FROM sqlite_master LIMIT 1")  # opening is lazy
    except BaseException:
        conn.close()
        raise
    return conn


def _unshared_on_a_read_only_folder(path: Path, exc: sqlite3.Error) -> bool:
    """A library closed cleanly and then found on a read-only disk has no ``-shm`` beside it,
    and none can be made, so SQLite cannot open it for reading at all ("unable to open").
    Nothing can write it there either, so it may be read as immutable; not when a ``-wal``
    holds pages (immutable would not read them)."""
    if error_code(exc) != 14 or not read_only_folder(path.parent):
        return False
    wal = path.with_name(path.name + "-wal")
    return not wal.exists() or wal.stat().st_size == 0


def _refuse_a_lost_library(path: Path) -> None:
    """A 0-byte or missing file where a library was kept is a lost library, not a new one.

    SQLite opens an empty file (or creates a missing one) as a new database:
    the person saw "(no notes)", the index's rows were "repaired" away, and
    each daily backup of the empty library pushed a good one out of the seven
    kept. Backups beside it (or, for a 0-byte file, an index) say a library
    was here.
    """
    try:
        size: int | None = path.stat().st_size
    except FileNotFoundError:
        size = None
    except OSError:
        return  # the open itself reports what is wrong
    if size is None:
        if list_backups(path):
            raise StoreError(f"Cannot open the library at {path}: {MISSING_LIBRARY_MESSAGE}", damaged=True)
    elif size == 0:
        index = path.with_name("index.sqlite")
        if list_backups(path) or (index.exists() and index.stat().st_size > 0):
            raise StoreError(f"Cannot open the library at {path}: {EMPTY_LIBRARY_MESSAGE}", damaged=True)


@contextlib.contextmanager
def waiting_briefly(conn: sqlite3.Connection) -> Iterator[None]:
    """Writes inside wait at most :data:`SHORT_BUSY_MS` for another process's write lock
    (the caller holds the connection's own lock, so no other thread sees the change)."""
    before = conn.execute("PRAGMA busy_timeout").fetchone()[0]
    conn.execute(f"PRAGMA busy_timeout = {min(before, SHORT_BUSY_MS)}")
    try:
        yield
    finally:
        conn.execute(f"PRAGMA busy_timeout = {before}")


#: Connections left open on purpose (``close_or_keep``), for the life of the process.
_KEPT_OPEN: list[sqlite3.Connection] = []


def another_file_with_its_inode(path: Path, opened: tuple[int, int] | None) -> bool:
    """Whether the file at ``path`` is another file than the one opened, with the same inode
    number: a stick pulled and put back (or another one mounted at the same place) numbers its
    files as before — FAT derives them from where the entry sits in the folder."""
    if opened is None:
        return False
    try:
        st = os.stat(path)
    except OSError:
        return False
    return st.st_ino == opened[1] and st.st_dev != opened[0]


def close_or_keep(conn: sqlite3.Connection, path: Path, opened: tuple[int, int] | None) -> None:
    """Close ``conn`` unless its file was replaced by one with the same inode number.

    The last connection to a WAL database deletes ``-wal`` and ``-shm`` *by name* as it
    closes. SQLite skips that for a file that has moved, but it tells by the inode number
    alone, so closing the old stick's connection deleted the new stick's ``-wal`` and
    ``-shm``: pages another program had committed there were gone, and connections still
    reading them failed with SQLITE_IOERR_SHORT_READ. Such a connection is left open until
    the process ends (the kernel then drops its locks and deletes nothing); a reference
    nobody releases keeps the interpreter from closing it at exit.
    """
    if another_file_with_its_inode(path, opened):
        _KEPT_OPEN.append(conn)
        ctypes.pythonapi.Py_IncRef(ctypes.py_object(conn))
        return
    conn.close()


def close_writer(conn: sqlite3.Connection) -> None:
    """Close the write connection with the library whole in ``library.sqlite``.

    People copy that one file once the app is closed. A read-only connection
    cannot checkpoint, so when the writer was not the last to close, the newest
    pages stayed in ``-wal`` and a copy of the file alone was an empty library.
    TRUNCATE also empties ``-wal``, so an older copy put back as
    ``library.sqlite`` (README: how to restore by hand) cannot have stale
    pages replayed onto it. Without a busy wait: pages another process still
    reads stay in the WAL for that process to checkpoint when it closes.
    """
    # A full disk, a read-only mount or a damaged file: closing must still work.
    with contextlib.suppress(sqlite3.Error):
        conn.execute("PRAGMA busy_timeout = 0")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    if isinstance(conn, StoreConnection) and conn.path is not None:
        close_or_keep(conn, conn.path, conn.opened)
    else:
        conn.close()


def _check_version(conn: sqlite3.Connection, path: Path) -> int:
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise SchemaTooNewError(
            f"The library at {path} was created by a newer version of Desktop KB "
            f"(schema {version}, this version understands up to {SCHEMA_VERSION}). "
            "Update Desktop KB to open it; the file was not changed."
        )
    return version


def _migrate(conn: sqlite3.Connection, path: Path, backup: bool) -> None:
    version = _check_version(conn, path)
    if backup and 0 < version < SCHEMA_VERSION:
        try:
            create_backup(path, reason="upgrade", source=conn)
        except BackupError as exc:
            conn.close()
            raise StoreError(f"{exc} The library was not upgraded and is unchanged; "
                             "free some space or check the folder's permissions.") from exc
    for target in range(version + 1, SCHEMA_VERSION + 1):
        conn.execute("BEGIN IMMEDIATE")
        try:
            if conn.execute("PRAGMA user_version").fetchone()[0] >= target:
                # Another process (the app and a command started together, three imports
                # on a new folder) took this step between our look and our lock.
                conn.execute("COMMIT")
                continue
            for statement in MIGRATIONS[target]:
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {target}")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise


__all__ = ["close_or_keep", "close_writer", "open_read_only", "open_store", "waiting_briefly", "StoreConnection", "StoreError",
           "SchemaTooNewError"]
