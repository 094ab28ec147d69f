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
