"""The index writer lock: exactly one process at a time writes ``index.sqlite`` (I12).

An OS advisory lock (``flock`` on POSIX, ``LockFileEx`` through ``msvcrt`` on
Windows) on ``index.writer.lock`` in the data folder. The OS releases it when
the holder exits for any reason, kill -9 included, so a crash never leaves the
index without a possible writer. The holder writes who it is into the file,
so others can say "the Desktop KB app (process 1234) is keeping the index".
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import socket
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from desktop_kb.store.errors import ENVIRONMENT_MESSAGES, StoreError

LOCK_NAME = "index.writer.lock"
#: Why nothing becomes searchable while the owner (``LockOwner.describe()``) is stopped: it
#: holds the lock, so no other process may index, and it does nothing itself.
#: Added to "the library is busy" when a process that has the library open is stopped: it keeps
#: any transaction it was in, and every save waits for it in vain.
HOLDER_STOPPED_MESSAGE = ("It may be held by {0}, which is stopped (suspended, or paused in a "
                          "debugger): resume it or close it.")
#: Added to "the library is busy" when the process writing to it is known (/proc/locks): a long
#: import, the app, a database browser left in a transaction.
HOLDER_MESSAGE = "It is held by {0}: wait for it to finish, or close it."
OWNER_STOPPED_MESSAGE = ("The search index is kept by {0}, which is stopped (suspended, or paused "
                         "in a debugger): resume it or close it.")


@dataclass(frozen=True)
class LockOwner:
    pid: int
    role: str  # "app" | "cli"
    host: str

    def describe(self) -> str:
        who = "the Desktop KB app" if self.role == "app" else "a desktop-kb command"
        return f"{who} (process {self.pid})"


def describe_process(pid: int, data_dir: Path) -> str:
    """Who ``pid`` is, in the words ``LockOwner.describe`` uses, with the command it runs:
    "a desktop-kb command (process 12: desktop-kb import)", "process 40 (sqlitebrowser)"."""
    from desktop_kb.store.processes import command_line

    owner = WriterLock(data_dir, "").owner()
    args = command_line(pid)
    for i, arg in enumerate(args):
        if os.path.basename(arg) in ("desktop-kb", "desktop-kb.exe") or (
                arg == "desktop_kb" and i > 0 and args[i - 1] == "-m"):
            words = [w for j, w in enumerate(args[i + 1:])
                     if not w.startswith("-") and (j == 0 or args[i + j] != "--data-dir")]
            if not words:
                return LockOwner(pid, "app", "").describe()
            return f"{LockOwner(pid, 'cli', '').describe()[:-1]}: desktop-kb {words[0]})"
    if owner is not None and owner.pid == pid:
        return owner.describe()
    if args:
        return f"process {pid} ({os.path.basename(args[0])})"
    return f"process {pid}"


def _try_lock(fh: IO[bytes]) -> bool:
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        import msvcrt

        try:
            fh.seek(0)
            msvcrt.locking(fh.fileno(), msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False
    import fcntl

    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False


def _is_the_file_at(fd: int, path: Path) -> bool:
    """Whether the open file ``fd`` is the file at ``path`` now (False when it cannot be told).

    Device and inode first: a stick put back numbers its files as before, but under another
    device number — unless the kernel gives the new stick the old one's number, as it does for a
    USB disk back in the same port. Then the file held is known by the name the kernel keeps
    for it: unlinked (" (deleted)"), or on a file system that was detached (named from its own
    root), that name is not the file at the path."""
    try:
        held, there = os.fstat(fd), os.stat(path)
    except OSError:
        return False
    if (held.st_dev, held.st_ino) != (there.st_dev, there.st_ino):
        return False
    try:
        name = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return True  # no /proc (macOS, Windows): device and inode are all there is
    try:
        # By identity, not by spelling: FAT answers to either case of a name.
        named = os.stat(name)
    except OSError:
        return False
    return (named.st_dev, named.st_ino) == (held.st_dev, held.st_ino)


class WriterLock:
    """``try_acquire`` never blocks; the lock is held until ``release`` or process exit."""

    def __init__(self, data_dir: Path, role: str) -> None:
        self.path = data_dir / LOCK_NAME
        self.role = role
        self._fh: IO[bytes] | None = None

    @property
    def held(self) -> bool:
        return self._fh is not None

    def try_acquire(self) -> bool:
        if self._fh is not None:
            return True
        try:
            fh = open(self.path, "a+b")  # noqa: SIM115 - kept open while the lock is held
        except OSError as exc:
            if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
                # A write-protected stick or a read-only mount: said plainly, not "[Errno 30]".
                raise StoreError(f"Cannot open the library at {self.path.parent}: "
                                 f"{ENVIRONMENT_MESSAGES[14]} ({exc.strerror})") from exc
            raise
        if not _try_lock(fh):
            fh.close()
            return False
        # flock locks the open file, not the name: if the file was replaced
        # between open and lock, this lock guards nothing.
        if not _is_the_file_at(fh.fileno(), self.path):
            fh.close()
            return False
        info = {"pid": os.getpid(), "role": self.role, "host": socket.gethostname()}
        with contextlib.suppress(OSError):  # the description is a courtesy, the lock is what counts
            fh.seek(0)
            fh.truncate()
            fh.write(json.dumps(info).encode())
            fh.flush()
        self._fh = fh
        return True

    def another_file_in_its_place(self) -> bool:
        """Whether the lock file at the path is another file than the one held: the folder at
        the library's path is another one now (a stick put back, another disk mounted there),
        whose index another process may keep. Compares the device too (a remounted stick numbers
        its files as before). A lock file that is simply gone proves nothing."""
        fh = self._fh
        if fh is None or not self.path.exists():
            return False
        return not _is_the_file_at(fh.fileno(), self.path)

    def release(self) -> None:
        fh, self._fh = self._fh, None
        if fh is not None:
            fh.close()  # closing the descriptor drops the lock

    def stopped_owner(self) -> LockOwner | None:
        """The process that keeps the index, if it is stopped on this computer (Ctrl+Z,
        SIGSTOP, a debugger): it cannot say so itself."""
        from desktop_kb.store.processes import process_stopped

        owner = self.owner()
        return owner if owner is not None and process_stopped(owner.pid, owner.host) else None

    def owner(self) -> LockOwner | None:
        """Who holds the lock, as far as the file says (None if unknown or free)."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8") or "{}")
            return LockOwner(int(data["pid"]), str(data["role"]), str(data["host"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None
