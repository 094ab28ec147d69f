"""An import in the process that keeps the index (the app's File → Import) is searchable by
keywords before its passages are embedded.

The owner indexed an import's passages from the save hints, and embedded each batch of 64
before writing it: with multilingual-e5 (~4 chunks a second on two cores) a book was found
by nothing, not even its words, until the model had embedded it, batch after batch.
Hinted passages are written with their words first now and their vectors follow in the
background (the backfill), while the status says "embedding" until they are all there.
A saved note is still embedded with its words (one small batch: meaning search finds it
at once).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from test_backfill import HashEngine

from desktop_kb.library import Library

TIMEOUT = 60  # seconds; keywords took under a second here, the held model never returns


class HeldModel(HashEngine):
    """Cannot embed the imported text until released: as slow as a model can be."""

    def __init__(self) -> None:
        super().__init__()
        self.let_go = threading.Event()
        self.holding = threading.Event()  # the worker is inside the model, held

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if any("zqslow" in t for t in texts):
            self.holding.set()
            self.let_go.wait(TIMEOUT * 2)
        return super().embed_passages(texts)


def test_an_imported_book_is_found_by_its_words_while_the_model_embeds_it(
        data_dir: Path, tmp_path: Path) -> None:
    folder = tmp_path / "book"
    folder.mkdir()
    for i in range(40):  # more than one batch of passages
        (folder / f"ch{i:02d}.md").write_text(
            f"# 第 {i} 章\n\n所有权 zqslow{i:02d} ownership\n\n## 借用\n\n借用检查 borrowing {i}\n",
            encoding="utf-8")
    model = HeldModel()
    with Library(data_dir, load_model=False, role="app") as lib:
        assert lib.worker.is_owner
        lib.worker.set_engine(lambda: model).result(timeout=TIMEOUT)
        note = lib.add_note("笔记", "保存的笔记 zqnote")
        assert lib.drain(TIMEOUT)
        assert lib.index_status().missing_vectors == 0  # a save is embedded with its words
        try:
            summary = lib.import_paths([folder])
            assert summary.added == 40
            assert lib.drain(TIMEOUT, backfill=False), "keyword search waits for the model"
            for i in (0, 17, 39):
                hits = lib.search(f"zqslow{i:02d}", mode="lexical").results
                assert [h.source_type for h in hits] == ["fragment"], i
            status = lib.index_status()
            assert status.state == "embedding" and status.missing_vectors >= 80, status
            assert status.applied_seq == status.store_seq
        finally:
            model.let_go.set()
        assert lib.drain(TIMEOUT)
        status = lib.index_status()
        assert (status.state, status.missing_vectors) == ("ok", 0), status
        assert lib.verify(repair=False).drift == 0
        assert [h.source_id for h in lib.search("zqnote", mode="lexical").results] == [note]


def test_a_backfill_waiting_its_turn_does_not_hold_up_keyword_search(
        data_dir: Path, tmp_path: Path) -> None:
    """Measured (benchmarks/bench_import_keywords_first.py): now and then an import's words
    were searchable only once all its vectors were made — a second backfill was queued behind
    the running one, and drain(backfill=False) counted a queued backfill as a change to apply."""
    from desktop_kb.index.worker import _Job

    folder = tmp_path / "book"
    folder.mkdir()
    for i in range(3):
        (folder / f"ch{i}.md").write_text(f"# 第 {i} 章\n\n所有权 zqslow{i} ownership\n", encoding="utf-8")
    model = HeldModel()
    with Library(data_dir, load_model=False, role="app") as lib:
        lib.worker.set_engine(lambda: model).result(timeout=TIMEOUT)
        try:
            lib.import_paths([folder])
            assert lib.drain(TIMEOUT, backfill=False)
            queued = _Job("backfill", lambda: 0)
            with lib.worker._cv:  # behind the running backfill, held in the model
                lib.worker._control.append(queued)
            assert lib.drain(TIMEOUT, backfill=False), "waits for a backfill that has not started"
            assert lib.search("zqslow1", mode="lexical").results
            assert not queued.future.done()
        finally:
            model.let_go.set()
        assert lib.drain(TIMEOUT)
        assert queued.future.result(timeout=TIMEOUT) == 0
        assert lib.index_status().state == "ok"


def test_a_save_hint_for_a_change_already_applied_is_not_pending_work(
        data_dir: Path, tmp_path: Path) -> None:
    """The import saves a file and then hints its passages to the worker; when the worker's
    catch-up had applied them from the feed first and its backfill was already held in the
    model, the hint waited there and the status said 'indexing', pending 2, with every change
    applied (a landing flake of the test above). Here the hint comes while the model holds."""
    folder = tmp_path / "book"
    folder.mkdir()
    for i in range(3):
        (folder / f"ch{i}.md").write_text(f"# 第 {i} 章\n\n所有权 zqslow{i} ownership\n", encoding="utf-8")
    model = HeldModel()
    with Library(data_dir, load_model=False, role="app") as lib:
        lib.worker.set_engine(lambda: model).result(timeout=TIMEOUT)
        try:
            lib.import_paths([folder])
            assert lib.drain(TIMEOUT, backfill=False)
            assert model.holding.wait(TIMEOUT)  # the backfill is in the model
            (fragment, *_) = [h.source_id for h in lib.search("zqslow1", mode="lexical").results]
            lib.worker.enqueue([("fragment", fragment)])  # the import's late hint
            status = lib.index_status()
            assert status.applied_seq == status.store_seq
            assert (status.state, status.pending) == ("embedding", 0), status
            lib.add_note("新的", "a change not applied yet zqnew")  # held up behind the model
            status = lib.index_status()
            assert status.state == "indexing" and status.pending >= 1, status
        finally:
            model.let_go.set()
        assert lib.drain(TIMEOUT)
        assert lib.index_status().state == "ok"
