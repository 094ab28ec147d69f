"""A backfill reports how far it is and the time left; commands need not wait for it.

Uses the hashing engine of test_backfill.py, held mid-batch where a test needs a
backfill in flight.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_backfill import TIMEOUT, HashEngine, _notes

from desktop_kb.index.backfill import BACKFILL_BATCH
from desktop_kb.index.eta import EmbeddingProgress, RemainingTime
from desktop_kb.library import Library


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_time_left_follows_the_recent_pace() -> None:
    clock = Clock()
    pace = RemainingTime(window_s=60, clock=clock)
    pace.update(0)
    assert pace.seconds_left(0, 1000) is None  # unknown until a batch is done
    clock.now = 30.0  # the first batch also loaded the model: slow
    pace.update(100)
    assert pace.seconds_left(100, 1000) == pytest.approx(270.0)
    for step in range(1, 13):  # then 100 chunks every 5 s for a minute
        clock.now = 30.0 + 5 * step
        pace.update(100 + 100 * step)
    assert pace.seconds_left(1300, 2000) == pytest.approx(35.0, rel=0.15)


def test_a_stalled_or_finished_pace_gives_no_estimate_below_zero() -> None:
    clock = Clock()
    pace = RemainingTime(clock=clock)
    pace.update(5)
    clock.now = 10.0
    pace.update(5)
    assert pace.seconds_left(5, 10) is None  # no progress: no made-up number
    clock.now = 20.0
    pace.update(12)
    assert pace.seconds_left(12, 10) == 0.0


def test_status_shows_embedding_progress_while_the_backfill_runs(data_dir: Path) -> None:
    total = 2 * BACKFILL_BATCH + 10
    with Library(data_dir, load_model=False) as lib:
        _notes(lib, total)
        lib.worker.backfill_page = BACKFILL_BATCH
        engine = HashEngine()
        engine.hold_batch = 2
        future = lib.worker.set_engine(lambda: engine)
        assert engine.entered.wait(TIMEOUT)  # batch 1 committed, batch 2 in flight
        status = lib.index_status()
        assert status.state == "embedding"
        assert status.embedding == EmbeddingProgress(BACKFILL_BATCH, total,
                                                     status.embedding.seconds_left)
        assert status.embedding.percent == 100 * BACKFILL_BATCH // total
        assert status.as_json()["embedding"]["done"] == BACKFILL_BATCH
        # Commands that only read need not wait for the rest of the backfill ...
        assert lib.drain(timeout=0.5) is False
        assert lib.drain(timeout=TIMEOUT, backfill=False) is True
        # ... and search right away: chunks not embedded yet are found by keywords.
        hit = lib.search("zqbf00300", mode="hybrid")
        assert [r.title for r in hit.results][:1] == ["笔记 300"]
        # A save made meanwhile is applied between batches before drain returns.
        new = lib.add_note("新笔记", "rare word qxjvwz")
        assert lib.drain(timeout=0.5, backfill=False) is False  # held: no batch boundary yet
        engine.release.set()
        assert lib.drain(timeout=TIMEOUT, backfill=False) is True
        assert [r.source_id for r in lib.search("qxjvwz", mode="lexical").results] == [new]
        assert future.result(TIMEOUT) == total
        status = lib.index_status()
        assert status.embedding is None and status.state == "ok"
