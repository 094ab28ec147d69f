"""Progress is an object passed into long work, with a cancel flag (house rule 7).

Core code calls ``start/tick/finish`` and checks ``cancelled``; the GUI bridge
turns the callback into signals, the CLI into a bar on stderr.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

ProgressCallback = Callable[[str, int, int], None]  # (label, done, maximum)


class Cancelled(Exception):
    """Raised inside long work when the person pressed Cancel."""


class Progress:
    def __init__(self, on_change: ProgressCallback | None = None) -> None:
        self._on_change = on_change
        self._cancel = threading.Event()
        self.label = ""
        self.done = 0
        self.maximum = 0
        self.detail = ""  # what is being worked on now ("notes/第三章.md"), for the person to see

    def start(self, label: str, maximum: int) -> None:
        self.label, self.done, self.maximum = label, 0, maximum
        self._emit()

    def set_maximum(self, maximum: int) -> None:
        self.maximum = maximum
        self._emit()

    def tick(self, n: int = 1) -> None:
        self.done += n
        self._emit()

    def finish(self) -> None:
        self.done = self.maximum
        self._emit()

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def check(self) -> None:
        if self._cancel.is_set():
            raise Cancelled()

    def _emit(self) -> None:
        if self._on_change is not None:
            self._on_change(self.label, self.done, self.maximum)
