"""Two kinds of database errors (house rule 5).

Environment errors (disk full, locked, corrupt, unreadable) are shown to the
person with a way out; anything else is a bug and is raised unchanged.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

# SQLite primary result codes that describe the machine, not our code.
ENVIRONMENT_MESSAGES = {
    5: "The library is busy in another program (database locked). Close the other window or try again.",
    6: "The library is locked by another connection. Try again in a moment.",
    8: ("Saving is off because the library's folder cannot be written (a read-only disk, share "
        "or CD, or a folder you may not change): you can search and read it, and to change it, "
        "copy the folder to a disk you can write to and open the copy."),
    10: "A disk input/output error occurred while reading or writing the library.",
    11: ("The library file is damaged (corrupt). Restore a backup (Settings → Backups, or "
         "`desktop-kb backup list` then `desktop-kb backup restore NAME`); the search index "
         "rebuilds itself afterwards."),
    13: "The disk is full. Free some space and try again; nothing was lost.",
    14: "The library file could not be opened. Check that the data folder exists and is writable.",
    26: ("This file is not a Desktop KB library (not a database), or it is damaged beyond "
         "reading. Restore a backup (Settings → Backups, or `desktop-kb backup list` then "
         "`desktop-kb backup restore NAME`)."),
}

READ_ONLY_LIBRARY_MESSAGE = ENVIRONMENT_MESSAGES[8]

OLD_READ_ONLY_LIBRARY_MESSAGE = (
    "This library was made by an older version of Desktop KB and must be upgraded before it "
    "can be opened, which cannot be done where nothing can be written: copy its folder to a "
    "disk you can write to and open the copy.")

WAL_WITHOUT_SHM_MESSAGE = (
    "The library's last changes are in its write-ahead log (a -wal file), which SQLite reads "
    "only with the -shm file beside it; that file is missing and cannot be made on a read-only "
    "disk, and no copy could be made in the per-user cache or the temporary folder either: copy "
    "the library's folder to a disk you can write to and open the copy.")

NOT_IMPORTED_PREFIX = "Nothing was imported: "

NO_INDEX_FOLDER_MESSAGE = (
    "The library's folder cannot be written, and neither can the folders where its search index "
    "would be kept instead (the per-user cache and the temporary folder): make one of them "
    "writable, or copy the library's folder to a disk you can write to and open the copy.")

# A 0-byte library.sqlite where a library has been kept (backups or an index beside it):
# SQLite would open it as a new, empty library; it is a copy cut short.
EMPTY_LIBRARY_MESSAGE = (
    "The library file is empty (0 bytes), though this folder has held a library: a copy was "
    "probably cut short. Restore a backup (Settings → Backups, or `desktop-kb backup list` "
    "then `desktop-kb backup restore NAME`).")

MISSING_LIBRARY_MESSAGE = (
    "The library file is missing, though this folder holds backups of it. Restore a backup "
    "(Settings → Backups, or `desktop-kb backup list` then `desktop-kb backup restore NAME`), "
    "or move the backups folder away to start a new library here.")

DAMAGED_AND_OPEN_MESSAGE = (
    "The library is damaged and still open in another program, so it cannot be set aside "
    "for the backup now. Close Desktop KB and every desktop-kb command, then restore with "
    "`desktop-kb backup restore NAME`.")

DATA_DIR_MISSING_MESSAGE = (
    "Neither this folder nor the folder it is in exists: is a disk or stick not connected? "
    "Desktop KB does not start a new, empty library there. Connect the disk, or create the "
    "folder to start a new library in it.")

REPLACED_LIBRARY_MESSAGE = (
    "Another program replaced or removed the library file while it was open here (a sync "
    "client such as Dropbox, OneDrive or Syncthing, or its disk was disconnected), so nothing "
    "more is written to the old copy. Close Desktop KB and every desktop-kb command and open "
    "the library again; text that could not be saved is kept and offered back.")

# The library's folder was renamed or moved (on the same disk) while open: the file is whole at
# {0} (the folder it is in now); {1} is where it was.
MOVED_LIBRARY_MESSAGE = (
    "The library folder was moved or renamed while it was open here (it is now {0}), so nothing "
    "more is saved from here. Close Desktop KB and every desktop-kb command, then move the folder "
    "back to {1}, or open it where it is (desktop-kb --data-dir \"{0}\"); text that could not be "
    "saved is kept and offered back.")

PATH_TOO_LONG_MESSAGE = (
    "The path of the library folder is too long for its database files (at most about 420 "
    "bytes; a Chinese character takes 3). Move the folder nearer the top of the disk, or give "
    "it or the folders above it shorter names; nothing in it was changed.")

# SQLite opens a database by a path of at most 504 bytes (512 with "-journal" after it); the
# longest one a library makes is a backup's copy while it is being made.
SQLITE_PATH_BYTES = 504
_LONGEST_NAME = "/backups/.library-20261207T030000123Z-restore-n99999.sqlite.4194304.tmp"

NO_ROOM_FOR_BACKUP_MESSAGE = (
    "The daily backup was skipped: it would leave the disk with less free space than the "
    "library itself takes, and saving notes needs that room. Free some space; older backups "
    "are in the backups folder.")


# Only these mean the file itself is damaged; everything else in the table
# above is the machine (busy, full, read-only, I/O) and never a reason to
# throw a file away.
CORRUPTION_CODES = frozenset({11, 26})  # SQLITE_CORRUPT, SQLITE_NOTADB


def error_code(exc: BaseException) -> int | None:
    """The primary SQLite result code of an sqlite3 error (None for anything else)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


def is_corruption(exc: BaseException) -> bool:
    return error_code(exc) in CORRUPTION_CODES


def is_environment(exc: BaseException) -> bool:
    """Busy, locked, read-only, I/O, full, cannot open: the machine, not the file or our code."""
    code = error_code(exc)
    return code is not None and code in ENVIRONMENT_MESSAGES and code not in CORRUPTION_CODES


class StoreError(Exception):
    """An environment problem the person can act on; ``str(err)`` is the message to show.

    ``damaged`` says the file itself is broken (corrupt, not a database, emptied): the
    window then offers a restore, which it never does for a busy, full or read-only disk.
    """

    def __init__(self, message: str, *, damaged: bool = False) -> None:
        super().__init__(message)
        self.damaged = damaged


class LibraryReplacedError(StoreError):
    """``library.sqlite`` at the library's path is no longer the file this connection has
    open: a write would go into a file nobody will see again."""


class SchemaTooNewError(StoreError):
    """The file was written by a newer Desktop KB; we refuse rather than damage it."""


# Fewer free bytes than this on a disk where SQLite reports an I/O error: the disk is full.
FULL_DISK_BYTES = 64 * 1024


def disk_is_full(folder: Path) -> bool:
    try:
        return shutil.disk_usage(folder).free < FULL_DISK_BYTES
    except OSError:
        return False


def path_too_long(folder: Path) -> bool:
    """Whether a library in ``folder`` (its backups included) has paths SQLite cannot open:
    it says only "unable to open database file", which read as a folder that is missing or
    may not be written."""
    return len(os.fsencode(os.path.abspath(folder))) + len(_LONGEST_NAME) > SQLITE_PATH_BYTES


def environment_error(exc: sqlite3.Error, what: str, folder: Path | None = None, *,
                      also: str = "") -> StoreError | None:
    """Translate an sqlite3 error into a StoreError, or None when it is a bug.

    ``folder``: where the file is. SQLite reports a -shm file that cannot grow on a
    full disk as an I/O error; the person is told the disk is full, which they can fix.
    """
    code = error_code(exc)
    if code is None:
        return None
    if code == 10 and folder is not None and disk_is_full(folder):
        code = 13
    message = ENVIRONMENT_MESSAGES.get(code)
    if code == 14 and folder is not None and path_too_long(folder):
        message = PATH_TOO_LONG_MESSAGE
    if message is None:
        return None
    if also:
        message = f"{message} {also}"
    return StoreError(f"{what}: {message} ({exc})", damaged=code in CORRUPTION_CODES)
