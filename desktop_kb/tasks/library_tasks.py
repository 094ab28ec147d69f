"""The bridge between the Qt-free core and the GUI: run core calls off the GUI thread.

Results come back by signal (Anki's ``QueryOp`` idea): the GUI thread only draws.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal


class _Signals(QObject):
    done = Signal(object)
    failed = Signal(str)


class _Task(QRunnable):
    def __init__(self, fn: Callable[[], Any], signals: _Signals) -> None:
        super().__init__()
        self._fn = fn
        self._signals = signals

    def run(self) -> None:
        try:
            result = self._fn()
        except Exception as exc:  # noqa: BLE001 - shown to the person by the receiver
            self._signals.failed.emit(f"{type(exc).__name__}: {exc}")
        else:
            self._signals.done.emit(result)


def run_in_background(
    parent: QObject, fn: Callable[[], Any], on_done: Callable[[Any], None],
    on_failed: Callable[[str], None] | None = None,
) -> None:
    signals = _Signals(parent)
    signals.done.connect(on_done)
    if on_failed is not None:
        signals.failed.connect(on_failed)
    signals.done.connect(signals.deleteLater)
    signals.failed.connect(signals.deleteLater)
    QThreadPool.globalInstance().start(_Task(fn, signals))
