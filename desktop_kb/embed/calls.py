"""Model calls a closing library waits for, and refuses once it closes.

onnxruntime must not be torn down under a session in use: a process that exited while its
index worker was still loading a model (or embedding a batch) aborted ("terminate called
without an active exception", exit 134) or crashed. A short command beside the app does just
that on a loaded machine, where loading the model takes longer than closing waits for the
worker. Every call goes through ``EngineCalls``: closing waits for those running and refuses
new ones (``EngineClosed``, which the worker meets as any failed model call).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TypeVar

import numpy as np

from desktop_kb.embed.engine import EmbeddingEngine

T = TypeVar("T")


class EngineClosed(RuntimeError):
    """The library is closing: no new model call starts."""


class EngineCalls:
    def __init__(self) -> None:
        self._cv = threading.Condition()
        self._running = 0
        self._closed = False
        #: A model was loaded or called here: a session may exist that exit must not tear down.
        self.used = False

    @contextmanager
    def call(self) -> Iterator[None]:
        with self._cv:
            if self._closed:
                raise EngineClosed("the library is closing")
            self._running += 1
            self.used = True
        try:
            yield
        finally:
            with self._cv:
                self._running -= 1
                self._cv.notify_all()

    def run(self, fn: Callable[[], T]) -> T:
        with self.call():
            return fn()

    def close(self, timeout: float) -> bool:
        """Refuse new calls; True once none is running (False: still running at ``timeout``)."""
        with self._cv:
            self._closed = True
            return self._cv.wait_for(lambda: self._running == 0, timeout)


class CountedEngine:
    """``engine`` with each call counted in ``calls``."""

    def __init__(self, engine: EmbeddingEngine, calls: EngineCalls) -> None:
        self._engine = engine
        self._calls = calls

    @property
    def model_id(self) -> str:
        return self._engine.model_id

    @property
    def dim(self) -> int:
        return self._engine.dim

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._calls.run(lambda: self._engine.embed_queries(texts))

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._calls.run(lambda: self._engine.embed_passages(texts))
