"""The core's environment-error sentences (``store.errors``) in the UI language.

Core messages are English (they also go to the CLI and to logs); where the
window shows one — a save that keeps failing, an index that is paused — the
known sentences are swapped for their translation and the rest (paths, SQLite's
own words) stays as it is.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication

from desktop_kb.embed.errors import DISK_FULL_MESSAGE as MODEL_DISK_FULL_MESSAGE
from desktop_kb.embed.errors import READ_ONLY_MESSAGE as MODEL_READ_ONLY_MESSAGE
from desktop_kb.importer.ocr_install import READ_ONLY_MESSAGE as OCR_READ_ONLY_MESSAGE
from desktop_kb.index.db import DAMAGED_MESSAGE as INDEX_DAMAGED_MESSAGE
from desktop_kb.index.db import (
    REBUILD_NOT_STARTED_MESSAGE,
    REBUILD_STOPPED_MESSAGE,
    UNAVAILABLE_PREFIX,
)
from desktop_kb.index.writer_lock import (
    HOLDER_MESSAGE,
    HOLDER_STOPPED_MESSAGE,
    OWNER_STOPPED_MESSAGE,
)
from desktop_kb.store.backup import BACKUP_FAILED_PREFIX
from desktop_kb.store.errors import (
    DAMAGED_AND_OPEN_MESSAGE,
    DATA_DIR_MISSING_MESSAGE,
    EMPTY_LIBRARY_MESSAGE,
    ENVIRONMENT_MESSAGES,
    MISSING_LIBRARY_MESSAGE,
    MOVED_LIBRARY_MESSAGE,
    NO_INDEX_FOLDER_MESSAGE,
    NO_ROOM_FOR_BACKUP_MESSAGE,
    NOT_IMPORTED_PREFIX,
    OLD_READ_ONLY_LIBRARY_MESSAGE,
    PATH_TOO_LONG_MESSAGE,
    REPLACED_LIBRARY_MESSAGE,
    WAL_WITHOUT_SHM_MESSAGE,
)
from desktop_kb.store.restore import NOT_RESTORED_PREFIX
from desktop_kb.tasks.save_queue import UNFINISHED_SAVE_MESSAGE


def _translations() -> dict[str, str]:
    return {
        ENVIRONMENT_MESSAGES[5]: QCoreApplication.translate("EnvironmentError", "The library is busy in another program (database locked). Close the other window or try again."),
        ENVIRONMENT_MESSAGES[6]: QCoreApplication.translate("EnvironmentError", "The library is locked by another connection. Try again in a moment."),
        ENVIRONMENT_MESSAGES[8]: QCoreApplication.translate("EnvironmentError", "Saving is off because the library's folder cannot be written (a read-only disk, share or CD, or a folder you may not change): you can search and read it, and to change it, copy the folder to a disk you can write to and open the copy."),
        OCR_READ_ONLY_MESSAGE: QCoreApplication.translate("EnvironmentError", "The library's folder cannot be written (a read-only disk, share or CD), so text recognition (OCR) was not installed: copy the folder to a disk you can write to and install it there."),
        NO_INDEX_FOLDER_MESSAGE: QCoreApplication.translate("EnvironmentError", "The library's folder cannot be written, and neither can the folders where its search index would be kept instead (the per-user cache and the temporary folder): make one of them writable, or copy the library's folder to a disk you can write to and open the copy."),
        OLD_READ_ONLY_LIBRARY_MESSAGE: QCoreApplication.translate("EnvironmentError", "This library was made by an older version of Desktop KB and must be upgraded before it can be opened, which cannot be done where nothing can be written: copy its folder to a disk you can write to and open the copy."),
        WAL_WITHOUT_SHM_MESSAGE: QCoreApplication.translate("EnvironmentError", "The library's last changes are in its write-ahead log (a -wal file), which SQLite reads only with the -shm file beside it; that file is missing and cannot be made on a read-only disk, and no copy could be made in the per-user cache or the temporary folder either: copy the library's folder to a disk you can write to and open the copy."),
        ENVIRONMENT_MESSAGES[10]: QCoreApplication.translate("EnvironmentError", "A disk input/output error occurred while reading or writing the library."),
        ENVIRONMENT_MESSAGES[11]: QCoreApplication.translate("EnvironmentError", "The library file is damaged (corrupt). Restore a backup (Settings → Backups, or “Restore a backup…” when the library cannot be opened); the search index rebuilds itself afterwards."),
        ENVIRONMENT_MESSAGES[13]: QCoreApplication.translate("EnvironmentError", "The disk is full. Free some space and try again; nothing was lost."),
        ENVIRONMENT_MESSAGES[14]: QCoreApplication.translate("EnvironmentError", "The library file could not be opened. Check that the data folder exists and is writable."),
        ENVIRONMENT_MESSAGES[26]: QCoreApplication.translate("EnvironmentError", "This file is not a Desktop KB library (not a database), or it is damaged beyond reading. Restore a backup (Settings → Backups, or “Restore a backup…” when the library cannot be opened)."),
        EMPTY_LIBRARY_MESSAGE: QCoreApplication.translate("EnvironmentError", "The library file is empty (0 bytes), though this folder has held a library: a copy was probably cut short. Restore a backup with “Restore a backup…”."),
        MISSING_LIBRARY_MESSAGE: QCoreApplication.translate("EnvironmentError", "The library file is missing, though this folder holds backups of it. Restore one with “Restore a backup…”, or move the backups folder away to start a new library here."),
        DAMAGED_AND_OPEN_MESSAGE: QCoreApplication.translate("EnvironmentError", "The library is damaged and still open in another program, so it cannot be set aside for the backup now. Close the other Desktop KB windows and every desktop-kb command, then restore again."),
        DATA_DIR_MISSING_MESSAGE: QCoreApplication.translate("EnvironmentError", "Neither this folder nor the folder it is in exists: is a disk or stick not connected? Desktop KB does not start a new, empty library there. Connect the disk, or create the folder to start a new library in it."),
        NO_ROOM_FOR_BACKUP_MESSAGE: QCoreApplication.translate("EnvironmentError", "The daily backup was skipped: it would leave the disk with less free space than the library itself takes, and saving notes needs that room. Free some space; older backups are in the backups folder."),
        REPLACED_LIBRARY_MESSAGE: QCoreApplication.translate("EnvironmentError", "Another program replaced or removed the library file while it was open here (a sync client such as Dropbox, OneDrive or Syncthing, or its disk was disconnected), so nothing more is written to the old copy. Close Desktop KB and every desktop-kb command and open the library again; text that could not be saved is kept and offered back."),
        PATH_TOO_LONG_MESSAGE: QCoreApplication.translate("EnvironmentError", "The path of the library folder is too long for its database files (at most about 420 bytes; a Chinese character takes 3). Move the folder nearer the top of the disk, or give it or the folders above it shorter names; nothing in it was changed."),
        REBUILD_STOPPED_MESSAGE: QCoreApplication.translate("EnvironmentError", "The rebuild stopped part way; search uses the index as it is, and the rebuild goes on by itself once there is room."),
        REBUILD_NOT_STARTED_MESSAGE: QCoreApplication.translate("EnvironmentError", "The index was not rebuilt; search uses it as it was."),
        UNFINISHED_SAVE_MESSAGE: QCoreApplication.translate("EnvironmentError", "The save had not finished when Desktop KB closed; the text is kept and offered back when it starts again."),
    }


def _prefixes() -> dict[str, str]:
    """What was being done when the error came (the ``what`` of ``store.tx.transaction``)."""
    return {
        "Saving to the library: ": QCoreApplication.translate("EnvironmentError", "Saving to the library: "),
        "Cannot open the library at ": QCoreApplication.translate("EnvironmentError", "Cannot open the library at "),
        NOT_IMPORTED_PREFIX: QCoreApplication.translate("EnvironmentError", "Nothing was imported: "),
        NOT_RESTORED_PREFIX: QCoreApplication.translate("EnvironmentError", "Nothing was restored, and the library is unchanged: "),
        BACKUP_FAILED_PREFIX: QCoreApplication.translate("EnvironmentError", "Could not back up the library to "),
    }


_INDEX_PREFIX = re.compile(re.escape(UNAVAILABLE_PREFIX).replace(r"\{0\}", "(.+?)"))
_OWNER_STOPPED = re.compile(re.escape(OWNER_STOPPED_MESSAGE).replace(r"\{0\}", "(.+?)"))
_HOLDER_STOPPED = re.compile(re.escape(HOLDER_STOPPED_MESSAGE).replace(r"\{0\}", "(.+?)"))
_MOVED = re.compile(re.escape(MOVED_LIBRARY_MESSAGE).replace(r"\{0\}", "(?P<now>.+?)", 1)
                    .replace(r"\{0\}", "(?P=now)").replace(r"\{1\}", "(?P<was>.+?)"))
_MODEL_DISK_FULL = re.compile(re.escape(MODEL_DISK_FULL_MESSAGE).replace(r"\{0\}", "(.+?)"))
_INDEX_DAMAGED = re.compile(re.escape(INDEX_DAMAGED_MESSAGE).replace(r"\{0\}", "(.+?)"))
_MODEL_READ_ONLY = re.compile(re.escape(MODEL_READ_ONLY_MESSAGE).replace(r"\{0\}", "(.+?)"))
_HOLDER = re.compile(re.escape(HOLDER_MESSAGE).replace(r"\{0\}", "(.+?)"))


def localize(text: str) -> str:
    """``text`` with every known environment sentence in the UI language."""
    for english, local in {**_translations(), **_prefixes()}.items():
        if english in text:
            text = text.replace(english, local)
    prefix = QCoreApplication.translate("EnvironmentError", "The search index at {0} cannot be used: ")
    stopped = QCoreApplication.translate("EnvironmentError", "The search index is kept by {0}, which is stopped (suspended, or paused in a debugger): resume it or close it.")
    text = _OWNER_STOPPED.sub(lambda m: stopped.format(localize_owner(m.group(1))), text)
    holder = QCoreApplication.translate("EnvironmentError", "It may be held by {0}, which is stopped (suspended, or paused in a debugger): resume it or close it.")
    text = _HOLDER_STOPPED.sub(lambda m: holder.format(localize_owner(m.group(1))), text)
    moved = QCoreApplication.translate("EnvironmentError", "The library folder was moved or renamed while it was open here (it is now {0}), so nothing more is saved from here. Close Desktop KB and every desktop-kb command, then move the folder back to {1}, or open it where it is (desktop-kb --data-dir \"{0}\"); text that could not be saved is kept and offered back.")
    text = _MOVED.sub(lambda m: moved.format(m.group("now"), m.group("was")), text)
    full = QCoreApplication.translate("EnvironmentError", "The disk is full, so the model {0} was not installed and nothing was changed: free some space and install it again.")
    text = _MODEL_DISK_FULL.sub(lambda m: full.format(m.group(1)), text)
    read_only = QCoreApplication.translate("EnvironmentError", "The library's folder cannot be written (a read-only disk, share or CD), so the model {0} was not installed: copy the folder to a disk you can write to and install it there.")
    damaged = QCoreApplication.translate("EnvironmentError", "The search index at {0} is damaged (another program, such as a sync client, replaced or changed its file): rebuild it with Index → Rebuild index, or `desktop-kb index rebuild`; the library itself is not affected.")
    text = _INDEX_DAMAGED.sub(lambda m: damaged.format(m.group(1)), text)
    text = _MODEL_READ_ONLY.sub(lambda m: read_only.format(m.group(1)), text)
    busy = QCoreApplication.translate("EnvironmentError", "It is held by {0}: wait for it to finish, or close it.")
    text = _HOLDER.sub(lambda m: busy.format(localize_owner(m.group(1))), text)
    return _INDEX_PREFIX.sub(lambda m: prefix.format(m.group(1)), text)


_OWNER = re.compile(r"^(the Desktop KB app|a desktop-kb command) \(process (\d+)(?:: (desktop-kb \S+))?\)$")
_PROCESS = re.compile(r"^process (\d+)(?: \((.+)\))?$")


def localize_owner(text: str) -> str:
    """``LockOwner.describe()`` ("the Desktop KB app (process 1234)") or
    ``writer_lock.describe_process`` ("process 40 (sqlitebrowser)") in the UI language."""
    match = _OWNER.match(text)
    if match is None:
        other = _PROCESS.match(text)
        if other is None:
            return text
        if other.group(2) is None:
            return QCoreApplication.translate("EnvironmentError", "process {0}").format(other.group(1))
        return QCoreApplication.translate("EnvironmentError", "process {0} ({1})").format(
            other.group(1), other.group(2))
    if match.group(1) == "the Desktop KB app":
        return QCoreApplication.translate("EnvironmentError", "the Desktop KB app (process {0})").format(match.group(2))
    if match.group(3) is not None:
        return QCoreApplication.translate("EnvironmentError", "a desktop-kb command (process {0}: {1})").format(
            match.group(2), match.group(3))
    return QCoreApplication.translate("EnvironmentError", "a desktop-kb command (process {0})").format(match.group(2))
