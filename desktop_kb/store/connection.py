"""Opening ``library.sqlite``: WAL, foreign keys, durable commits, forward migrations."""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import os
import shutil
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

from desktop_kb.paths import file_identity, read_only_folder
from desktop_kb.store.backup import BackupError, create_backup, list_backups
from desktop_kb.store.errors import (
    EMPTY_LIBRARY_MESSAGE,
    MISSING_LIBRARY_MESSAGE,
    WAL_WITHOUT_SHM_MESSAGE,
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
        if error_code(exc) != 14 or not read_only_folder(path.parent):
            raise
        if _wal_has_pages(path):
            return _connect_read_only(_snapshot_with_wal(path), "?mode=ro")
    return _connect_read_only(path, "?mode=ro&immutable=1")


def _wal_has_pages(path: Path) -> bool:
    wal = path.with_name(path.name + "-wal")
    return wal.exists() and wal.stat().st_size > 0


def _snapshot_with_wal(path: Path) -> Path:
    """``path`` and its ``-wal``, copied to the per-user cache, where SQLite can make the
    ``-shm`` it needs to read the log's pages.

    A library copied while the app ran (a sync, a backup tool, a copy that skips ``-shm``) and
    then found on a read-only disk keeps its last changes in ``-wal``; without a ``-shm``, which
    cannot be made there, SQLite cannot read them (only ``immutable``, which ignores them), and
    the library was refused. Nothing can change files on a read-only disk, so one copy per
    version of the two files serves every process; another version replaces it.
    """
    from desktop_kb.paths import read_only_index_dir  # paths reads store errors lazily too

    wal = path.with_name(path.name + "-wal")
    try:
        main, log = path.stat(), wal.stat()
        version = hashlib.sha256(repr((main.st_size, main.st_mtime_ns, log.st_size, log.st_mtime_ns,
                                       main.st_ino, log.st_ino)).encode()).hexdigest()[:16]
        cache = read_only_index_dir(path.parent)
        folder = cache / f"{path.name}-with-wal-{version}"
        if not (folder / path.name).exists():
            part = cache / f".{folder.name}.{os.getpid()}-{threading.get_ident()}"
            part.mkdir()
            try:
                shutil.copyfile(path, part / path.name)
                shutil.copyfile(wal, part / wal.name)
                os.rename(part, folder)
            except OSError:
                if not (folder / path.name).exists():
                    raise
            finally:
                shutil.rmtree(part, ignore_errors=True)  # another process's copy went in first
            for older in cache.glob(f"{path.name}-with-wal-*"):
                if older != folder:
                    shutil.rmtree(older, ignore_errors=True)
    except (OSError, StoreError) as exc:
        raise StoreError(f"Cannot open the library at {path}: {WAL_WITHOUT_SHM_MESSAGE} ({exc})") from exc
    return folder / path.name


def _connect_read_only(path: Path, query: str) -> sqlite3.Connection:
    conn = sqlite3.connect(f"{path.as_uri()}{query}", uri=True, check_same_thread=False,
                           isolation_level=None)
    try:
        conn.execute("SELECT 1 FROM sqlite_master LIMIT 1")  # opening is lazy
    except BaseException:
        conn.close()
        raise
    return conn


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
