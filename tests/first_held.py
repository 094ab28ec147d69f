"""A function whose first call is held until the test releases it: the way to make the older of
two background reads land last, deterministically (the race behind an old view drawn over a new one)."""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any


class FirstCallHeld:
    """Wraps ``fn``; its first call returns only after ``release`` is set (or 30 s)."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self._fn = fn
        self.called = threading.Event()  # the first call has read its result
        self.release = threading.Event()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        result = self._fn(*args, **kwargs)
        if not self.called.is_set():
            self.called.set()
            self.release.wait(30)
        return result
