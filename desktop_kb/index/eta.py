"""How far an embedding backfill is, and how long it still needs.

The estimate follows the recent pace (the last minute of batches), not the
average since the start: the first batch pays for loading the model, and the
pace changes when the person starts using the machine for something else.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

_RESOLUTION_S = 0.5


@dataclass(frozen=True)
class EmbeddingProgress:
    done: int
    total: int
    seconds_left: float | None  # None until the pace is known

    @property
    def percent(self) -> int:
        return int(100 * self.done / self.total) if self.total else 100

    def as_json(self) -> dict[str, object]:
        left = None if self.seconds_left is None else round(self.seconds_left)
        return {"done": self.done, "total": self.total, "seconds_left": left}


class RemainingTime:
    """Seconds left at the pace of the last ``window_s`` seconds of progress."""

    def __init__(self, window_s: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        self._window_s = window_s
        self._clock = clock
        self._samples: deque[tuple[float, int]] = deque()

    def update(self, done: int) -> None:
        now = self._clock()
        if len(self._samples) >= 2 and now - self._samples[-2][0] < _RESOLUTION_S:
            self._samples[-1] = (now, done)  # frequent callers (a CLI bar) keep one per step
        else:
            self._samples.append((now, done))
        while len(self._samples) > 2 and now - self._samples[1][0] >= self._window_s:
            self._samples.popleft()

    def seconds_left(self, done: int, total: int) -> float | None:
        if len(self._samples) < 2:
            return None
        (t0, d0), (t1, d1) = self._samples[0], self._samples[-1]
        if t1 - t0 <= 0 or d1 <= d0:
            return None
        return max(0.0, total - done) * (t1 - t0) / (d1 - d0)
