"""Whether a process that left a mark in the data folder (a half-made backup, an upload in
flight) is still running: its marks are left alone while it is, and read as abandoned after."""

from __future__ import annotations

import os
import socket


def process_running(pid: int, host: str | None = None) -> bool | None:
    """True or False for a process on this computer; None when it cannot be told (another
    computer sharing the folder, or Windows, where signal 0 would stop the process)."""
    if host is not None and host != socket.gethostname():
        return None
    if os.name != "posix":
        return None
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # alive, another user's
    return True


def process_stopped(pid: int, host: str | None = None) -> bool | None:
    """Whether a process on this computer is stopped: Ctrl+Z in its terminal, SIGSTOP, held
    at a debugger's breakpoint. It keeps every lock it holds and does nothing until it is
    resumed, so whoever waits for it must not wait for ever. None when it cannot be told
    (another computer, no /proc)."""
    if host is not None and host != socket.gethostname():
        return None
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read()
    except FileNotFoundError:
        return False if os.path.isdir("/proc/self") else None
    except OSError:
        return None
    # "pid (name) S …": the name may hold spaces and brackets, the state follows the last ')'.
    fields = stat[stat.rfind(b")") + 1:].split()
    return bool(fields) and fields[0] in (b"T", b"t")


#: Byte of ``-shm`` SQLite locks (fcntl, exclusive) while a connection writes a WAL database:
#: 120 = the end of the shm header, where WAL_WRITE_LOCK is the first of its lock bytes.
WAL_WRITE_LOCK_BYTE = 120


def wal_writer(database: str | os.PathLike[str]) -> int | None:
    """The process on this computer that holds the database's write lock, from /proc/locks.

    SQLite itself only says "database is locked"; a long import, another app's window or a
    database browser left in a transaction can all hold it, and the person needs to know
    which one to wait for or close. None when nobody holds it, or it cannot be told (no
    /proc, a network file system whose locks live elsewhere)."""
    try:
        st = os.stat(f"{os.fspath(database)}-shm")
        with open("/proc/locks", encoding="ascii", errors="replace") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return None
    where = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    for line in lines:
        # "2: POSIX  ADVISORY  WRITE 14499 fe:00:2466643 120 120"; blocked waiters start "->".
        fields = line.split()
        if len(fields) == 8 and fields[1] == "POSIX" and fields[3] == "WRITE" \
                and fields[5] == where and fields[6] == str(WAL_WRITE_LOCK_BYTE):
            try:
                return int(fields[4])
            except ValueError:
                return None
    return None


def command_line(pid: int) -> list[str]:
    """The process's arguments (empty when they cannot be read: gone, another user's, no /proc)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            raw = fh.read()
    except OSError:
        return []
    return [os.fsdecode(part) for part in raw.split(b"\0") if part]
