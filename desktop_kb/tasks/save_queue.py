"""One thread applies every note change in the order the person made it.

A pool could run "save v2" before "save v1" or open a note before its last
save landed; a single ordered queue cannot. Repeated saves of the same note
that have not started yet coalesce into the newest text, so a fast typist
never builds a backlog. Loads of notes go through the same queue, so what the
editor shows is never older than what it last saved.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, Signal, Slot

from desktop_kb.library import Library

log = logging.getLogger(__name__)


@dataclass
class _Save:
    note_id: int
    title: str
    body: str


@dataclass
class _Job:
    ticket: int
    fn: Callable[[Library], Any]


class SaveQueue(QObject):
    """A dedicated writer thread for notes, reporting back by signal."""

    saved = Signal(int, bool)  # note id, whether anything changed
    saveFailed = Signal(int, str)  # note id, reason
    _jobDone = Signal(int, object)
    _jobFailed = Signal(int, object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._library: Library | None = None
        self._cv = threading.Condition()
        self._queue: deque[_Save | _Job] = deque()
        self._busy = False
        self._stopping = False
        self._tickets = 0
        self._callbacks: dict[int, tuple[Callable[[Any], None] | None,
                                         Callable[[BaseException], None] | None]] = {}
        self._jobDone.connect(self._deliver_done)
        self._jobFailed.connect(self._deliver_failed)
        self._thread = threading.Thread(target=self._run, name="note-saver", daemon=True)
        self._thread.start()

    def set_library(self, library: Library | None) -> None:
        with self._cv:
            self._library = library
            self._cv.notify_all()

    # ----- GUI thread --------------------------------------------------------------

    def save(self, note_id: int, title: str, body: str) -> None:
        with self._cv:
            for item in self._queue:
                if isinstance(item, _Save) and item.note_id == note_id:
                    item.title, item.body = title, body  # not started yet: newest text wins
                    return
            self._queue.append(_Save(note_id, title, body))
            self._cv.notify_all()

    def submit(
        self, fn: Callable[[Library], Any], on_done: Callable[[Any], None] | None = None,
        on_failed: Callable[[BaseException], None] | None = None,
    ) -> None:
        """Run ``fn(library)`` after every change queued before it."""
        self._tickets += 1
        ticket = self._tickets
        self._callbacks[ticket] = (on_done, on_failed)
        with self._cv:
            self._queue.append(_Job(ticket, fn))
            self._cv.notify_all()

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until everything queued so far is applied (the work runs on the saver thread)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cv:
            while self._queue or self._busy:
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return False
                self._cv.wait(remaining)
        return True

    def stop(self, timeout: float | None = 30.0) -> bool:
        """Apply what is queued, then end the thread; returns False if it timed out."""
        flushed = self.flush(timeout)
        with self._cv:
            self._stopping = True
            self._cv.notify_all()
        self._thread.join(timeout)
        return flushed

    @property
    def pending(self) -> int:
        with self._cv:
            return len(self._queue) + (1 if self._busy else 0)

    @Slot(int, object)
    def _deliver_done(self, ticket: int, result: object) -> None:
        on_done, _ = self._callbacks.pop(ticket, (None, None))
        if on_done is not None:
            on_done(result)

    @Slot(int, object)
    def _deliver_failed(self, ticket: int, exc: object) -> None:
        _, on_failed = self._callbacks.pop(ticket, (None, None))
        if on_failed is not None:
            on_failed(exc)  # type: ignore[arg-type]
        else:
            log.warning("note change failed: %s", exc)

    # ----- saver thread ------------------------------------------------------------

    def _run(self) -> None:
        while True:
            with self._cv:
                while not self._stopping and (not self._queue or self._library is None):
                    self._cv.wait()
                if self._stopping and not self._queue:
                    return
                if self._library is None:  # stopping before the library ever opened
                    self._queue.clear()
                    self._cv.notify_all()
                    return
                item = self._queue.popleft()
                library = self._library
                self._busy = True
            try:
                self._apply(library, item)
            finally:
                with self._cv:
                    self._busy = False
                    self._cv.notify_all()

    def _apply(self, library: Library, item: _Save | _Job) -> None:
        if isinstance(item, _Save):
            try:
                changed = library.save_note(item.note_id, title=item.title, body=item.body)
            except Exception as exc:  # noqa: BLE001 - reported, the editor keeps the text
                log.warning("saving note %s failed: %s", item.note_id, exc)
                self._emit(self.saveFailed, item.note_id, f"{type(exc).__name__}: {exc}")
            else:
                self._emit(self.saved, item.note_id, changed)
            return
        try:
            result = item.fn(library)
        except Exception as exc:  # noqa: BLE001 - handed to the caller's on_failed
            self._emit(self._jobFailed, item.ticket, exc)
        else:
            self._emit(self._jobDone, item.ticket, result)

    @staticmethod
    def _emit(signal: Any, *args: object) -> None:
        with contextlib.suppress(RuntimeError):  # the receiver is gone
            signal.emit(*args)
