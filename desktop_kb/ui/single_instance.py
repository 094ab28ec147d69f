"""One app per data folder: a second instance would fight over the same files.

``QLockFile`` writes the owner's PID and host; a lock left by a crashed
process is detected as stale and taken over, so a crash never locks a person
out of their library. In a folder that cannot be written (a read-only mount or
card) a crashed app's lock cannot be taken over either; that is said as what it
is, not as "already open" in a process that no longer exists.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLockFile

LOCK_NAME = "desktop-kb.lock"


class AlreadyRunning(RuntimeError):
    """Another Desktop KB has this data folder open; the message says so in words."""


def acquire_instance_lock(data_dir: Path) -> QLockFile:
    data_dir = Path(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    lock = QLockFile(str(data_dir / LOCK_NAME))
    lock.setStaleLockTime(0)  # never by age (a long session is not stale); dead PIDs still are
    if lock.tryLock(100):
        return lock
    if lock.error() == QLockFile.LockError.LockFailedError and _writable(data_dir):
        info = lock.getLockInfo()  # PySide returns (pid, host, app), or fewer when unreadable
        owner = QCoreApplication.translate(
            "SingleInstance", " (process {0} on {1})").format(info[0], info[1]) if len(info) >= 2 else ""
        raise AlreadyRunning(QCoreApplication.translate(
            "SingleInstance",
            "Desktop KB is already open with the library in {0}{1}. Switch to that window, "
            "or close it first. Opening the same library twice could damage it.").format(data_dir, owner))
    raise AlreadyRunning(QCoreApplication.translate(
        "SingleInstance", "Cannot lock the library folder {0}. Check that it exists and is writable.")
        .format(data_dir))


def _writable(folder: Path) -> bool:
    """Whether a file can be made in ``folder`` (no app can hold a lock it could not write)."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False
