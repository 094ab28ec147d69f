"""Embedding engines whose vectors the tests choose, shared by the retrieval tests.

``BilingualEngine``: meaning shared across Chinese and English plus a strong pull of the
text's own language. ``TableEngine``: vectors looked up by what a text contains.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from desktop_kb.library import Library


def unit(dim: int, weights: Mapping[int, float]) -> np.ndarray:
    """A unit vector with ``weights`` on the given axes."""
    v = np.zeros(dim, dtype=np.float32)
    for axis, w in weights.items():
        v[axis] = w
    return v / np.linalg.norm(v)


def character_pairs(size: int) -> Callable[[str], np.ndarray]:
    """The lowered text's character pairs hashed into ``size`` dimensions: a sentence finds
    its own note."""
    def tail(text: str) -> np.ndarray:
        lowered = text.lower()
        pairs = np.zeros(size, np.float32)
        for a, b in zip(lowered, lowered[1:], strict=False):
            pairs[hashlib.sha256((a + b).encode()).digest()[0] % size] += 1.0
        return 0.9 * pairs / np.linalg.norm(pairs) if pairs.any() else pairs
    return tail


def text_noise(size: int) -> Callable[[str], np.ndarray]:
    """A little noise from a hash of the text: no two texts tie."""
    def tail(text: str) -> np.ndarray:
        noise = np.frombuffer(hashlib.sha256(text.encode()).digest()[:size], np.uint8)
        return noise.astype(np.float32) / 255.0 * 0.3
    return tail


class BilingualEngine:
    """Meaning shared across languages plus a strong component for the language itself.

    A concept word in either language lights the same dimension; the text's share of Han
    and Latin tokens lights two more, more strongly than one concept: any two texts in one
    language then sit closer than a question and its answer across languages, the
    same-language pull of real multilingual models. ``tail`` adds dimensions of its own
    (``character_pairs`` or ``text_noise``).
    """

    def __init__(self, concepts: Sequence[tuple[str, str]], model_id: str, tail_dim: int,
                 tail: Callable[[str], np.ndarray]) -> None:
        self.concepts = list(concepts)
        self.model_id = model_id
        self.tail = tail
        self.dim = len(self.concepts) + 2 + tail_dim
        self._tail_dim = tail_dim

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        rows = []
        for text in texts:
            v = np.zeros(self.dim, np.float32)
            lowered = text.lower()
            for i, (zh, en) in enumerate(self.concepts):
                v[i] = float(zh in text or en in lowered)
            han = sum("\u4e00" <= ch <= "\u9fff" for ch in text)
            latin = len([w for w in lowered.split() if w.strip("?.,!").isalpha()])
            share = han / (han + latin) if han + latin else 0.5
            v[len(self.concepts)], v[len(self.concepts) + 1] = 1.6 * share, 1.6 * (1 - share)
            v[-self._tail_dim:] = self.tail(text)
            rows.append(v / np.linalg.norm(v))
        return np.stack(rows) if rows else np.zeros((0, self.dim), np.float32)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts)


class TableEngine:
    """Vectors chosen by the test: a text holding one of ``questions`` gets its vector, one
    holding a note's marker that note's axis, anything else (a title alone) ``other_axis``."""

    def __init__(self, model_id: str, dim: int, questions: dict[str, np.ndarray],
                 markers: Mapping[str, int], other_axis: int) -> None:
        self.model_id = model_id
        self.dim = dim
        self.questions = questions  # the caller's mapping: a test may set a question's vector
        self.markers = markers
        self.other_axis = other_axis

    def _vector(self, text: str) -> np.ndarray:
        for question, vector in self.questions.items():
            if question in text:
                return vector
        for marker, axis in self.markers.items():
            if marker in text:
                return unit(self.dim, {axis: 1.0})
        return unit(self.dim, {self.other_axis: 1.0})

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return np.stack([self._vector(t) for t in texts]) if texts else np.zeros((0, self.dim), np.float32)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self.embed_queries(texts)


@contextmanager
def embedded_library(data_dir: Path, notes: Sequence[tuple[str, str]], engine: Any) -> Iterator[Library]:
    """A library of ``notes`` (one chunk each) whose every chunk ``engine`` has embedded."""
    lib = Library(data_dir, load_model=False)
    try:
        for title, body in notes:
            lib.add_note(title, body)
        lib.worker.set_engine(lambda: engine).result(60)
        lib.drain()
        assert lib.dense.ready and len(lib.dense) == len(notes)
        yield lib
    finally:
        lib.close()
