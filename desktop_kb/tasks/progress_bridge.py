"""A ``Progress`` whose updates arrive on the GUI thread as a signal.

Core code ticks from worker threads; this forwards at most ~20 updates a
second (plus the first and the last), so a fast import of thousands of small
files cannot fill the event queue. ``cancel()`` is safe from the GUI thread.
"""

from __future__ import annotations

import contextlib
import threading
import time

from PySide6.QtCore import QObject, Signal

from desktop_kb.progress import Progress

MIN_INTERVAL_S = 0.05


class ProgressBridge(QObject):
    changed = Signal(str, int, int)  # label, done, maximum

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._lock = threading.Lock()
        self._last = 0.0
        self.progress = Progress(self._on_change)

    def cancel(self) -> None:
        self.progress.cancel()

    @property
    def cancelled(self) -> bool:
        return self.progress.cancelled

    def report(self, label: str, done: int, maximum: int) -> None:
        """A plain ``(stage, done, total)`` callback; raising from it is how installs cancel."""
        self.progress.check()
        self._on_change(label, done, maximum)

    def _on_change(self, label: str, done: int, maximum: int) -> None:
        now = time.monotonic()
        with self._lock:
            edge = done == 0 or done >= maximum
            if not edge and now - self._last < MIN_INTERVAL_S:
                return
            self._last = now
        with contextlib.suppress(RuntimeError):  # the receiver is gone
            self.changed.emit(label, done, maximum)
