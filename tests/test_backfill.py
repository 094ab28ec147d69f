"""Embedding backfill: cancellable (close never waits for it), resumable, failures recorded.

The engine here is a deterministic hashing embedder wrapped so the test can
hold a batch in flight: the point is the worker's control flow (cancel between
batches, resume from "chunks without a vector", bounded stop), not the model.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from desktop_kb.index.backfill import BACKFILL_BATCH, FIRST_PAGE, MIN_PAGE, next_page_size
from desktop_kb.library import Library
from desktop_kb.progress import Progress

TIMEOUT = 60


class HashEngine:
    """Unit vectors from a hash of the text; ``gate`` holds chosen batches."""

    dim = 16

    def __init__(self, model_id: str = "hash-test") -> None:
        self.model_id = model_id
        self.batches = 0
        self.texts = 0
        self.hold_batch: int | None = None  # 1-based batch number to hold
        self.entered = threading.Event()
        self.release = threading.Event()
        self.fail = False

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        rows = []
        for text in texts:
            digest = hashlib.sha256(text.encode("utf-8")).digest()
            vec = np.frombuffer(digest[: self.dim * 2], dtype=np.uint8)[: self.dim].astype(np.float32) + 1
            rows.append(vec / np.linalg.norm(vec))
        return np.stack(rows) if rows else np.zeros((0, self.dim), dtype=np.float32)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        self.batches += 1
        if self.fail:
            raise RuntimeError("model crashed")
        if self.hold_batch == self.batches:
            self.entered.set()
            assert self.release.wait(TIMEOUT)
        self.texts += len(texts)
        return self._embed(texts)


class WatchedProgress(Progress):
    def __init__(self) -> None:
        super().__init__()
        self.cancel_seen = threading.Event()

    def cancel(self) -> None:
        super().cancel()
        self.cancel_seen.set()


def _notes(lib: Library, n: int) -> None:
    for i in range(n):
        lib.add_note(f"笔记 {i}", f"第 {i} 条笔记 note number {i} zqbf{i:05d}")
    assert lib.drain(TIMEOUT)


def _vectors(data_dir: Path) -> int:
    import sqlite3

    conn = sqlite3.connect(data_dir / "index.sqlite")
    try:
        return conn.execute("SELECT count(*) FROM kb_vectors").fetchone()[0]
    finally:
        conn.close()


def test_close_cancels_a_backfill_and_the_next_start_resumes_it(data_dir: Path) -> None:
    total = 2 * BACKFILL_BATCH + 50
    lib = Library(data_dir, load_model=False)
    _notes(lib, total)
    lib.worker.backfill_page = BACKFILL_BATCH
    engine = HashEngine()
    engine.hold_batch = 2
    progress = WatchedProgress()
    future = lib.worker.set_engine(lambda: engine, progress)
    assert engine.entered.wait(TIMEOUT)  # batch 1 is committed, batch 2 in flight
    closer = threading.Thread(target=lib.close)
    closer.start()
    assert progress.cancel_seen.wait(TIMEOUT)
    engine.release.set()  # the batch in hand finishes; no third batch starts
    closer.join(TIMEOUT)
    assert not closer.is_alive()
    assert future.result(TIMEOUT) == 2 * BACKFILL_BATCH
    assert engine.batches == 2
    assert _vectors(data_dir) == 2 * BACKFILL_BATCH

    again = HashEngine()
    with Library(data_dir, load_model=False) as lib2:
        assert lib2.worker.set_engine(lambda: again).result(TIMEOUT) == 50
        assert again.texts == 50  # only what was missing
        assert lib2.verify(repair=False).drift == 0
        assert len(lib2.dense) == total


def test_stop_is_bounded_even_when_a_batch_hangs(data_dir: Path) -> None:
    lib = Library(data_dir, load_model=False)
    _notes(lib, 10)
    engine = HashEngine()
    engine.hold_batch = 1
    lib.worker.set_engine(lambda: engine)
    assert engine.entered.wait(TIMEOUT)
    try:
        assert lib.worker.stop(timeout=0.2) is False  # returns instead of hanging
    finally:
        engine.release.set()
    assert lib.worker.stop(timeout=TIMEOUT) is True
    lib.close()


def test_backfill_failures_are_recorded_and_shown(data_dir: Path) -> None:
    with Library(data_dir, load_model=False) as lib:
        _notes(lib, 5)
        engine = HashEngine()
        engine.fail = True
        assert lib.worker.set_engine(lambda: engine).result(TIMEOUT) == 0
        status = lib.index_status()
        assert status.state == "failed"
        assert len(status.failures) == 5
        assert all("model crashed" in reason for _, _, reason, _ in status.failures)
        engine.fail = False
        report = lib.verify(repair=True)  # the retry embeds them
        assert report.repaired
        assert lib.verify(repair=False).drift == 0


def test_pages_follow_the_model_pace() -> None:
    # A slow model (e5 on a busy machine: 32 chunks in 16 s) gets small pages, so a
    # save waits seconds, not minutes; never below one padded batch of long rows.
    assert next_page_size(32, 32, 16.0) == MIN_PAGE
    assert next_page_size(32, 32, 4.0) == 16
    # A fast one grows, at most doubling per page, up to the largest page.
    assert next_page_size(32, 32, 0.05) == 64
    assert next_page_size(256, 256, 0.1) == BACKFILL_BATCH
    # The last, short page and an unmeasurable one say nothing about the pace.
    assert next_page_size(64, 10, 0.001) == 64
    assert next_page_size(64, 64, 0.0) == 64


class SizedEngine(HashEngine):
    def __init__(self) -> None:
        super().__init__()
        self.sizes: list[int] = []

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        self.sizes.append(len(texts))
        return super().embed_passages(texts)


def test_a_backfill_starts_with_a_small_page_and_embeds_everything_once(data_dir: Path) -> None:
    with Library(data_dir, load_model=False) as lib:
        _notes(lib, 300)
        engine = SizedEngine()
        assert lib.worker.set_engine(lambda: engine).result(TIMEOUT) == 300
        assert engine.sizes[0] == FIRST_PAGE
        assert sum(engine.sizes) == 300
        assert all(size <= BACKFILL_BATCH for size in engine.sizes)
        assert _vectors(data_dir) == 300
