"""Start-up of the rebuild's segmentation processes.

Kept tiny on purpose: a spawned process imports this module first, so it can
lower its own priority *before* the heavy imports (numpy, jieba's dictionary)
that would otherwise compete with the app's window for the CPU.

A pool process must never outlive the process that started it (a kill -9 of
the app during a rebuild would otherwise leave it segmenting for nobody). On
Linux the kernel sends it SIGKILL when its parent dies (``PR_SET_PDEATHSIG``);
elsewhere a watchdog thread notices that the parent is gone.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading

_PR_SET_PDEATHSIG = 1
WATCHDOG_S = 1.0


def _die_with_parent(parent_pid: int) -> None:
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    # Also covers the parent dying before prctl ran, and systems without it.
    if os.getppid() != parent_pid:
        os._exit(1)

    def watch() -> None:
        while True:
            threading.Event().wait(WATCHDOG_S)
            if os.getppid() != parent_pid:
                os._exit(1)

    threading.Thread(target=watch, name="parent-watchdog", daemon=True).start()


def lower_priority_and_warm_up(parent_pid: int | None = None) -> None:
    if parent_pid is not None:
        _die_with_parent(parent_pid)
    with contextlib.suppress(AttributeError, OSError):  # os.nice is not on every platform
        os.nice(10)
    from desktop_kb.index.segment import segment_for_index

    segment_for_index("预热")  # load jieba's dictionary now, not inside the first batch
