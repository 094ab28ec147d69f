"""The bridge between the Qt-free core and the GUI: run core calls off the GUI thread.

Results come back by signal (Anki's ``QueryOp`` idea): the GUI thread only draws.
A window owns one ``TaskRunner`` with its own pool, so closing the window can
wait for exactly its own work before the library is closed.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

log = logging.getLogger(__name__)


class _Signals(QObject):
    done = Signal(object)
    failed = Signal(object)  # the exception, so receivers can tell kinds apart


class _Task(QRunnable):
    def __init__(self, fn: Callable[[], Any], signals: _Signals) -> None:
        super().__init__()
        self._fn = fn
        self._signals = signals

    def run(self) -> None:
        try:
            result = self._fn()
        except Exception as exc:  # noqa: BLE001 - shown to the person by the receiver
            log.debug("background task failed", exc_info=True)
            self._emit(self._signals.failed, exc)
        else:
            self._emit(self._signals.done, result)

    @staticmethod
    def _emit(signal: Any, value: object) -> None:
        with contextlib.suppress(RuntimeError):  # the receiver is gone
            signal.emit(value)


class LatestOnly:
    """Hands on the result of the latest run asked for, dropping those of runs asked for before it.

    A ``TaskRunner`` has two threads, so two runs of the same reload (a list, a count) can end
    in either order: the one that read the library first must not draw over a later one."""

    def __init__(self) -> None:
        self._asked = 0

    def __call__(self, on_done: Callable[[Any], None]) -> Callable[[Any], None]:
        self._asked += 1
        asked = self._asked

        def done(result: Any) -> None:
            if asked == self._asked:
                on_done(result)

        return done


def describe_error(exc: BaseException) -> str:
    """One line a person can read; the type name helps when reporting a bug."""
    text = str(exc).strip()
    return text if text else type(exc).__name__


class TaskRunner(QObject):
    """Runs callables on a small private pool; callbacks run on the GUI thread."""

    def __init__(self, parent: QObject | None = None, *, threads: int = 2) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(threads)
        self._live: set[_Signals] = set()  # keeps queued results deliverable

    def run(
        self, fn: Callable[[], Any], on_done: Callable[[Any], None] | None = None,
        on_failed: Callable[[BaseException], None] | None = None,
    ) -> None:
        # No parent: the signals object must outlive a receiver that is closing.
        signals = _Signals()
        if on_done is not None:
            signals.done.connect(on_done)
        if on_failed is not None:
            signals.failed.connect(on_failed)
        else:
            signals.failed.connect(lambda exc: log.warning("task failed: %s", exc))
        self._live.add(signals)
        signals.done.connect(lambda _r: self._live.discard(signals))
        signals.failed.connect(lambda _e: self._live.discard(signals))
        task = _Task(fn, signals)
        self._pool.start(task)

    def wait(self, msecs: int = -1) -> bool:
        return self._pool.waitForDone(msecs)

    @property
    def active(self) -> int:
        return self._pool.activeThreadCount()


def run_in_background(
    parent: QObject, fn: Callable[[], Any], on_done: Callable[[Any], None],
    on_failed: Callable[[str], None] | None = None,
) -> None:
    """Fire-and-forget on the global pool (kept for small callers)."""
    signals = _Signals(parent)
    signals.done.connect(on_done)
    if on_failed is not None:
        signals.failed.connect(lambda exc: on_failed(describe_error(exc)))
    signals.done.connect(signals.deleteLater)
    signals.failed.connect(signals.deleteLater)
    QThreadPool.globalInstance().start(_Task(fn, signals))
