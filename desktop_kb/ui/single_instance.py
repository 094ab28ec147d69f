"""One app per data folder: a second instance would fight over the same files.

``QLockFile`` writes the owner's PID and host; a lock left by a crashed
process is detected as stale and taken over, so a crash never locks a person
out of their library.
"""

from __future__ import annotations

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
    if lock.error() == QLockFile.LockError.LockFailedError:
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
