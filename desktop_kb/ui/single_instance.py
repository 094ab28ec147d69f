"""One app per data folder: a second instance would fight over the same files.

``QLockFile`` writes the owner's PID and host; a lock left by a crashed
process is detected as stale and taken over, so a crash never locks a person
out of their library. In a folder that cannot be written (a read-only mount or
card) a crashed app's lock cannot be taken over either; that is said as what it
is, not as "already open" in a process that no longer exists.

A lock written on another computer cannot be checked that way: a library on a
stick pulled out while the app ran there (or a laptop that crashed, or whose
host name changed since) stayed "already open on other-laptop" for ever. When
nobody holds the index writer's OS lock (so no running app has the library open
on a disk both computers lock through), the person is asked whether the app
there is still open, and may open the library here.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLockFile, QSysInfo

from desktop_kb.paths import LibraryPaths, read_only_folder, read_only_index_dir
from desktop_kb.store.errors import StoreError
from desktop_kb.store.processes import process_stopped

LOCK_NAME = "desktop-kb.lock"


class AlreadyRunning(RuntimeError):
    """Another Desktop KB has this data folder open; the message says so in words.

    ``other_computer``: the host the lock was written on, when it is not this one and
    the lock may be left over; the person may then choose to open the library anyway.
    """

    def __init__(self, message: str, other_computer: str | None = None) -> None:
        super().__init__(message)
        self.other_computer = other_computer


def acquire_instance_lock(data_dir: Path,
                          take_over: Callable[[AlreadyRunning], bool] | None = None) -> QLockFile:
    """The folder's lock; ``take_over`` is asked (with the refusal) whether to take a lock
    another computer left, and the lock is taken when it answers True."""
    data_dir = Path(data_dir)
    folder = data_dir
    if read_only_folder(data_dir) and LibraryPaths(data_dir).store.exists():
        # A library on a read-only disk is opened to be read; its lock lives with its index.
        try:
            folder = read_only_index_dir(data_dir)
        except StoreError as exc:  # no folder for its index either: said as the window would
            from desktop_kb.ui.env_messages import localize

            raise AlreadyRunning(localize(str(exc))) from exc
    folder.mkdir(parents=True, exist_ok=True)
    lock = QLockFile(str(folder / LOCK_NAME))
    lock.setStaleLockTime(0)  # never by age (a long session is not stale); dead PIDs still are
    if lock.tryLock(100):
        return lock
    if lock.error() == QLockFile.LockError.LockFailedError and _writable(folder):
        info = lock.getLockInfo()  # PySide returns (pid, host, app), or fewer when unreadable
        host = str(info[1]) if len(info) >= 2 else ""
        if host and host != QSysInfo.machineHostName() and not _index_kept(folder):
            refusal = AlreadyRunning(QCoreApplication.translate(
                "SingleInstance",
                "The library in {0} was opened by Desktop KB on another computer ({1}) and not "
                "closed there. If Desktop KB is no longer open there (that computer is off, the "
                "disk was unplugged, or the app ended), open the library here. Opening it in two "
                "places at once could damage it.").format(data_dir, host), other_computer=host)
            if take_over is not None and take_over(refusal) and lock.removeStaleLockFile() \
                    and lock.tryLock(100):
                return lock
            raise refusal
        owner = QCoreApplication.translate(
            "SingleInstance", " (process {0} on {1})").format(info[0], info[1]) if len(info) >= 2 else ""
        if len(info) >= 2 and process_stopped(int(info[0]), str(info[1])):
            # Suspended or held in a debugger: its window cannot be switched to, nor closed.
            raise AlreadyRunning(QCoreApplication.translate(
                "SingleInstance",
                "Desktop KB is already open with the library in {0}{1}, but that program is "
                "stopped (suspended, or paused in a debugger), so its window does not answer. "
                "Resume it, or end that process, then start Desktop KB again.").format(data_dir, owner))
        raise AlreadyRunning(QCoreApplication.translate(
            "SingleInstance",
            "Desktop KB is already open with the library in {0}{1}. Switch to that window, "
            "or close it first. Opening the same library twice could damage it.").format(data_dir, owner))
    raise AlreadyRunning(QCoreApplication.translate(
        "SingleInstance", "Cannot lock the library folder {0}. Check that it exists and is writable.")
        .format(data_dir))


def _index_kept(data_dir: Path) -> bool:
    """Whether a running process holds the index writer's OS lock: it has the library open
    (an app or a command on this computer, or on another one locking through the same share)."""
    from desktop_kb.index.writer_lock import WriterLock
    from desktop_kb.store.errors import StoreError

    probe = WriterLock(data_dir, "app")
    try:
        if probe.try_acquire():
            probe.release()
            return False
    except (OSError, StoreError):
        pass
    return True


def _writable(folder: Path) -> bool:
    """Whether a file can be made in ``folder`` (no app can hold a lock it could not write)."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False
