"""Rolling backups of ``library.sqlite`` with SQLite's online backup API (I13).

A backup is a consistent copy taken while other connections keep reading and
writing (the API copies a snapshot page by page). Copies live in
``<data folder>/backups/`` as ordinary single-file databases a person can
open with any SQLite tool. They are made on start when the newest is older
than a day, before every schema migration and before a restore; the newest
``KEEP`` are kept. "Newest" is the order they were made in (a number in the
name), not the clock's: after the clock went back, the time in the names
says the copies made while it was ahead are the newest, and by that order
each new backup was deleted as it was made.

Restoring copies a backup *into* the live store through the same API, in one
write transaction: other processes that have the library open see the
restored content at their next read, never a half-copied file. The restored
store gets a new feed epoch, so every derived copy (the index, the app's
lists) reconciles instead of trusting numbers from another history.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import sqlite3
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from desktop_kb.paths import read_only_folder
from desktop_kb.store.errors import (
    ENVIRONMENT_MESSAGES,
    NO_ROOM_FOR_BACKUP_MESSAGE,
    PATH_TOO_LONG_MESSAGE,
    disk_is_full,
    error_code,
    is_corruption,
    path_too_long,
)
from desktop_kb.text.sizes import human_size
from desktop_kb.whole_file import sweep

KEEP = 7
DAY_S = 24 * 3600
BACKUP_DIR_NAME = "backups"
REASONS = ("auto", "manual", "upgrade", "restore")
# library-<UTC time>Z-<reason>-n<making order>.sqlite; names of older versions have no order
# (read as 0: made before any that has one).
_NAME = re.compile(r"^library-(\d{8}T\d{6})(\d{3})Z-([a-z]+)(?:-n(\d+))?\.sqlite$")


BACKUP_FAILED_PREFIX = "Could not back up the library to "


class BackupError(Exception):
    """A backup could not be made or used; ``str(err)`` is the message to show."""


class DamagedLibraryError(BackupError):
    """The library itself is damaged or empty, so there is nothing sound to back up."""


@dataclass(frozen=True)
class Backup:
    path: Path
    created_at: float  # seconds since the epoch (UTC)
    reason: str  # one of REASONS, or "damaged" for a damaged library set aside by a restore
    size: int
    order: int = 0  # the making order: 1 + the highest before it (0 in older names)

    def as_json(self) -> dict[str, object]:
        return {"path": str(self.path), "name": self.path.name, "created_at": self.created_at,
                "reason": self.reason, "size": self.size}


def backups_dir(store_path: Path) -> Path:
    return store_path.parent / BACKUP_DIR_NAME


def list_backups(store_path: Path) -> list[Backup]:
    """Newest first. Files that do not look like our backups are ignored."""
    folder = backups_dir(store_path)
    found: list[Backup] = []
    try:
        entries = list(os.scandir(folder))
    except FileNotFoundError:
        return []
    for entry in entries:
        match = _NAME.match(entry.name)
        if match is None or not entry.is_file():
            continue
        stamp = datetime.strptime(match.group(1), "%Y%m%dT%H%M%S").replace(tzinfo=UTC)
        created = stamp.timestamp() + int(match.group(2)) / 1000
        found.append(Backup(Path(entry.path), created, match.group(3), entry.stat().st_size,
                            int(match.group(4) or 0)))
    return sorted(found, key=lambda b: (b.order, b.created_at), reverse=True)


def backup_due(store_path: Path, max_age_s: float = DAY_S) -> bool:
    """No backup yet, the newest is older than a day, or it is "from the future" (the clock
    went back since: its age says nothing, and waiting for the clock could take months)."""
    newest = list_backups(store_path)
    return not newest or not 0 <= time.time() - newest[0].created_at <= max_age_s


def _name(reason: str, now: float, order: int) -> str:
    stamp = datetime.fromtimestamp(now, UTC).strftime("%Y%m%dT%H%M%S")
    return f"library-{stamp}{int(now * 1000) % 1000:03d}Z-{reason}-n{order}.sqlite"


def create_backup(
    store_path: Path, *, reason: str = "manual", keep: int = KEEP,
    source: sqlite3.Connection | None = None,
) -> Backup:
    """Copy the store into a new backup file (written under a temp name, then renamed).

    ``source`` is an open connection to the store (the migrating connection
    passes itself); otherwise a read-only one is opened.
    """
    if reason not in REASONS:
        raise ValueError(f"unknown backup reason {reason!r}")
    folder = backups_dir(store_path)
    now = time.time()
    order = 1 + max((b.order for b in list_backups(store_path)), default=0)
    final = folder / _name(reason, now, order)
    tmp = folder / f".{final.name}.{os.getpid()}.tmp"
    remove_stale_copies(store_path)
    own = source is None
    if own and _is_empty(store_path):
        raise DamagedLibraryError(f"The library file {store_path} is empty (0 bytes).")
    try:
        folder.mkdir(exist_ok=True)  # in the library's folder, never making that one again
        src = source or sqlite3.connect(f"{store_path.as_uri()}?mode=ro", uri=True)
        try:
            dst = sqlite3.connect(tmp)
            try:
                src.backup(dst)
                # A self-contained single file (no -wal beside it), checked before it counts.
                dst.execute("PRAGMA journal_mode = DELETE")
                if dst.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                    raise DamagedLibraryError("The new backup failed its integrity check.")
            finally:
                dst.close()
        finally:
            if own:
                src.close()
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, final)
    except (sqlite3.Error, OSError, DamagedLibraryError) as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        kind = DamagedLibraryError if isinstance(exc, DamagedLibraryError) or is_corruption(exc) \
            else BackupError
        if _is_full(exc, folder):  # what happened, and what the person can do about it
            raise kind(f"{BACKUP_FAILED_PREFIX}{folder}: {ENVIRONMENT_MESSAGES[13]} ({exc})") from exc
        if read_only_folder(store_path.parent):  # a CD, a read-only share: "[Errno 30]" said less
            raise kind(f"{BACKUP_FAILED_PREFIX}{folder}: {ENVIRONMENT_MESSAGES[8]}") from exc
        if error_code(exc) == 14 and path_too_long(store_path.parent):
            raise kind(f"{BACKUP_FAILED_PREFIX}{folder}: {PATH_TOO_LONG_MESSAGE} ({exc})") from exc
        raise kind(f"{BACKUP_FAILED_PREFIX}{folder}: {exc}") from exc
    _prune(store_path, keep)
    return Backup(final, now, reason, final.stat().st_size, order)


# Half-made copies: a backup's temporary file (backups/.library-….sqlite.<pid>.tmp) and a
# restore's staging file (.restore-….<pid>.sqlite), with SQLite's -journal/-wal/-shm beside
# them. Names without a process id come from older versions.
_HALF_MADE = re.compile(
    r"^\.(?:library-.*\.sqlite(?:\.(\d+))?\.tmp|restore-.*?(?:\.(\d+))?\.sqlite)(?:-journal|-wal|-shm)?$")


def remove_stale_copies(store_path: Path) -> int:
    """Remove half-made copies whose process is gone (killed mid-backup or mid-restore).

    Each is as big as the library and nothing else would ever remove it. A copy
    another process is still making is left alone: its process is alive (POSIX)
    or, where that cannot be asked, it was written to within the hour.
    """
    removed = 0
    for folder in (backups_dir(store_path), store_path.parent):
        removed += len(sweep(folder, _HALF_MADE))
    return removed


def room_for_a_backup(store_path: Path) -> None:
    """Raise ``BackupError`` when a backup would leave less free space than the library takes.

    A backup is a copy of the whole library; on a nearly full disk it took the last free
    space, and the next save of a note failed ("the disk is full"). The daily backup asks
    this first; one made by hand does not (the person asked for it).
    """
    size = sum(p.stat().st_size for p in (store_path, Path(f"{store_path}-wal")) if p.exists())
    try:
        free = shutil.disk_usage(store_path.parent).free
    except OSError:
        return  # the backup itself reports what is wrong
    if free < 2 * size:
        raise BackupError(f"{NO_ROOM_FOR_BACKUP_MESSAGE} ({human_size(free, 'B')} free; "
                          f"the library takes {human_size(size, 'B')})")


def _is_full(exc: BaseException, folder: Path) -> bool:
    if isinstance(exc, OSError):
        return exc.errno in (errno.ENOSPC, errno.EDQUOT)
    return error_code(exc) == 13 or (error_code(exc) == 10 and disk_is_full(folder))


def _is_empty(path: Path) -> bool:
    try:
        return path.stat().st_size == 0
    except OSError:
        return False


def _prune(store_path: Path, keep: int) -> None:
    for old in list_backups(store_path)[keep:]:
        with contextlib.suppress(OSError):
            old.path.unlink()


def check_backup(path: Path, newest_schema: int) -> int:
    """The backup's schema version, after checking it is an intact library we can read."""
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise BackupError(f"Cannot open the backup {path}: {exc}") from exc
    try:
        if conn.execute("PRAGMA quick_check").fetchone()[0] != "ok":
            raise BackupError(f"The backup {path} is damaged (integrity check failed).")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path} is not a Desktop KB library: {exc}") from exc
    finally:
        conn.close()
    if not {"notes", "documents", "fragments"} <= tables or version < 1:
        raise BackupError(f"{path} is not a Desktop KB library.")
    if version > newest_schema:
        raise BackupError(f"The backup {path} was made by a newer version of Desktop KB.")
    return int(version)
