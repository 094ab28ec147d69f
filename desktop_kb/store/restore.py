"""Putting a backup back (``desktop-kb backup restore``, Settings → Backups)."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from datetime import UTC, datetime
from pathlib import Path

from desktop_kb.index.writer_lock import WriterLock
from desktop_kb.store.backup import (
    Backup,
    BackupError,
    DamagedLibraryError,
    backups_dir,
    check_backup,
    create_backup,
)
from desktop_kb.store.connection import open_store
from desktop_kb.store.errors import DAMAGED_AND_OPEN_MESSAGE
from desktop_kb.store.feed import new_epoch
from desktop_kb.store.schema import SCHEMA_VERSION
from desktop_kb.store.tx import transaction

#: A restore keeps a copy of the library as it is first; when that copy cannot be made (a full
#: disk) it said only "Could not back up the library to …", though a restore was asked for.
NOT_RESTORED_PREFIX = "Nothing was restored, and the library is unchanged: "


def restore_backup(store_path: Path, backup_path: Path) -> Backup | None:
    """Replace the library's content with the backup's; returns the copy kept of the current
    state (None when the library file was missing).

    The backup is first copied aside and upgraded to the current schema, then
    copied into the live store in one write transaction, so a process that has
    the library open never sees an old schema or half a restore. The current
    state is backed up first: a restore can itself be undone. A damaged or
    emptied library cannot be backed up, and is set aside whole instead.
    """
    check_backup(backup_path, SCHEMA_VERSION)
    safety: Backup | None = None
    # A damaged library (the one the message told the person to restore over) cannot be
    # backed up: it is set aside whole instead (_replace_damaged).
    try:
        if store_path.exists():
            safety = create_backup(store_path, reason="restore")
    except DamagedLibraryError:
        pass
    except BackupError as exc:  # a full disk: the restore, asked for, is what did not happen
        raise BackupError(f"{NOT_RESTORED_PREFIX}{exc}") from exc
    staging = store_path.parent / f".restore-{backup_path.stem}.{os.getpid()}.sqlite"
    _discard(staging)
    try:
        with contextlib.closing(sqlite3.connect(f"{backup_path.resolve().as_uri()}?mode=ro",
                                                uri=True)) as src, \
                contextlib.closing(sqlite3.connect(staging)) as dst:
            src.backup(dst)
        with contextlib.closing(open_store(staging, backup_before_upgrade=False)) as staged:
            with transaction(staged, "Preparing the backup"):
                new_epoch(staged)
            staged.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        if safety is None:
            return _replace_damaged(store_path, staging)
        with contextlib.closing(sqlite3.connect(staging)) as src, \
                contextlib.closing(open_store(store_path)) as live:
            src.backup(live)
    except (sqlite3.Error, OSError) as exc:
        kept = f"a copy of it is in {safety.path}" if safety else "nothing was moved"
        raise BackupError(f"Could not restore {backup_path}: {exc}. "
                          f"The library is unchanged; {kept}.") from exc
    finally:
        _discard(staging)
    return safety


def _replace_damaged(store_path: Path, staging: Path) -> Backup | None:
    """Set the damaged (or emptied) file aside and put the prepared backup in its place.

    It cannot be copied into through SQLite, and nobody has it open (opening it
    fails). Its -wal goes with it: left beside the restored file, its pages
    would be replayed onto it. Set aside, never deleted: a person may still
    recover pages from it with ``sqlite3 .recover``.
    """
    # Whoever has the library open would go on writing into the file set aside: the index
    # writer lock says whether anyone (the app, or a command that keeps the index) does.
    lock = WriterLock(store_path.parent, "cli")
    if not lock.try_acquire():
        owner = lock.owner()
        raise BackupError(f"{DAMAGED_AND_OPEN_MESSAGE} ({owner.describe() if owner else '?'})")
    try:
        return _set_aside_and_replace(store_path, staging)
    finally:
        lock.release()


def _set_aside_and_replace(store_path: Path, staging: Path) -> Backup | None:
    now = time.time()
    stamp = datetime.fromtimestamp(now, UTC).strftime("%Y%m%dT%H%M%S")
    aside = backups_dir(store_path) / f"damaged-library-{stamp}{int(now * 1000) % 1000:03d}Z.sqlite"
    aside.parent.mkdir(parents=True, exist_ok=True)
    kept = store_path.exists()
    if kept:
        os.replace(store_path, aside)
    wal = Path(f"{store_path}-wal")
    if wal.exists():
        os.replace(wal, Path(f"{aside}-wal"))
    with contextlib.suppress(FileNotFoundError):
        Path(f"{store_path}-shm").unlink()
    os.replace(staging, store_path)
    _sync_folder(store_path.parent)
    return Backup(aside, now, "damaged", aside.stat().st_size) if kept else None


def _sync_folder(folder: Path) -> None:
    """The renames survive a power cut (POSIX; Windows has no folder handles to sync)."""
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _discard(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            Path(f"{path}{suffix}").unlink()
