"""Index worker events → Qt signals, without flooding the GUI thread.

The worker's listener runs on the worker thread and may fire thousands of
times during a big reindex. Here it only records the newest state and posts
at most one wake-up; the GUI side then asks for ``index_status()`` off-thread,
at most a few times a second.
"""

from __future__ import annotations

import contextlib
import threading

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from desktop_kb.index.worker import IndexEvent
from desktop_kb.library import IndexStatus, Library
from desktop_kb.tasks.library_tasks import TaskRunner

REFRESH_INTERVAL_MS = 250


class IndexBridge(QObject):
    statusChanged = Signal(object)  # IndexStatus
    indexEvent = Signal(str)  # the kind of the latest notable event ("rebuilt", "verified", ...)
    _poke = Signal()

    def __init__(self, runner: TaskRunner, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._library: Library | None = None
        self._lock = threading.Lock()
        self._posted = False
        self._in_flight = False
        self._again = False
        self.last_status: IndexStatus | None = None
        self._timer = QTimer(self, singleShot=True, interval=REFRESH_INTERVAL_MS)
        self._timer.timeout.connect(self.refresh)
        self._poke.connect(self._on_poke)

    def set_library(self, library: Library | None) -> None:
        self._library = library
        if library is not None:
            self.refresh()

    def listener(self, event: IndexEvent) -> None:
        """Called on the index worker thread: record, post one wake-up, return fast."""
        with self._lock:
            if self._posted:
                return
            self._posted = True
        with contextlib.suppress(RuntimeError):  # the receiver is gone
            self._poke.emit()

    @Slot()
    def _on_poke(self) -> None:
        with self._lock:
            self._posted = False
        if not self._timer.isActive():
            self._timer.start()

    @Slot()
    def refresh(self) -> None:
        library = self._library
        if library is None:
            return
        if self._in_flight:
            self._again = True
            return
        self._in_flight = True
        self._runner.run(library.index_status, self._got_status, self._failed)

    def _got_status(self, status: IndexStatus) -> None:
        self._in_flight = False
        self.last_status = status
        self.statusChanged.emit(status)
        if self._again:
            self._again = False
            self._timer.start()

    def _failed(self, exc: BaseException) -> None:
        self._in_flight = False
        if self._again:
            self._again = False
            self._timer.start()
