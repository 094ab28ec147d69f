"""Putting a backup back (``desktop-kb backup restore``, Settings → Backups)."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from desktop_kb.store.backup import Backup, BackupError, check_backup, create_backup
from desktop_kb.store.connection import open_store
from desktop_kb.store.feed import new_epoch
from desktop_kb.store.schema import SCHEMA_VERSION
from desktop_kb.store.tx import transaction


def restore_backup(store_path: Path, backup_path: Path) -> Backup:
    """Replace the library's content with the backup's; returns the copy made of the current state.

    The backup is first copied aside and upgraded to the current schema, then
    copied into the live store in one write transaction, so a process that has
    the library open never sees an old schema or half a restore. The current
    state is backed up first: a restore can itself be undone.
    """
    check_backup(backup_path, SCHEMA_VERSION)
    safety = create_backup(store_path, reason="restore")
    staging = store_path.parent / f".restore-{backup_path.stem}.sqlite"
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
        with contextlib.closing(sqlite3.connect(staging)) as src, \
                contextlib.closing(open_store(store_path)) as live:
            src.backup(live)
    except sqlite3.Error as exc:
        raise BackupError(f"Could not restore {backup_path}: {exc}. "
                          f"The library is unchanged; a copy of it is in {safety.path}.") from exc
    finally:
        _discard(staging)
    return safety


def _discard(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            Path(f"{path}{suffix}").unlink()
