"""Both sides of a hybrid query at once, and no work nobody sees: same candidates, same order."""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Sequence

import numpy as np
import pytest

from desktop_kb.index.segment import analyse_query
from desktop_kb.retrieval.candidates import Candidates, gather, gather_concurrently
from desktop_kb.retrieval.dense import DenseIndex
from desktop_kb.retrieval.fusion import fuse_scores
from desktop_kb.retrieval.resolve import ChunkRef, chunk_documents
from desktop_kb.retrieval.search import _document_groups
from desktop_kb.text.fold import model_text


class ThreadNotingEngine:
    """Unit vectors from a hash of the text; notes which thread embedded each query."""

    model_id = "hash-test"
    dim = 16

    def __init__(self) -> None:
        self.query_threads: list[int] = []
        self.fail = False

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        rows = []
        for text in texts:
            digest = hashlib.sha256(text.encode("utf-8")).digest()
            vec = np.frombuffer(digest, dtype=np.uint8)[: self.dim].astype(np.float32) - 127.5
            rows.append(vec / np.linalg.norm(vec))
        return np.stack(rows)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        self.query_threads.append(threading.get_ident())
        if self.fail:
            raise RuntimeError("model crashed")
        return self._embed(texts)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts)


def _dense_over(index: sqlite3.Connection, engine: ThreadNotingEngine) -> DenseIndex:
    rows = index.execute("SELECT c.id, f.body FROM kb_chunks c JOIN kb_fts f ON f.rowid = c.id").fetchall()
    dense = DenseIndex()
    dense.reset(engine.model_id, engine.dim)
    dense.add([r[0] for r in rows], engine.embed_passages([r[1] for r in rows]))
    return dense


def _same(a: Candidates, b: Candidates) -> None:
    for name in ("ids", "bm25", "coverage", "cosine", "lex_rank", "dense_rank"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    assert (a.has_cjk, a.has_latin, a.n_terms, a.dense_ran) == (b.has_cjk, b.has_latin, b.n_terms, b.dense_ran)


def test_the_dense_side_runs_on_another_thread_and_gives_the_same_record(library) -> None:  # type: ignore[no-untyped-def]
    for i in range(40):
        library.add_note(f"笔记 {i}", f"第 {i} 篇：借用检查器在编译时检查引用，所有权规则 rule {i % 7}。")
    library.drain()
    index = library.index_reader
    engine = ThreadNotingEngine()
    dense = _dense_over(index, engine)
    for query in ("借用检查器 rule 3", "所有权", "nothing like this at all", "第 12 篇"):
        analysis = analyse_query(query)
        vector = engine.embed_queries([model_text(query)])[0]
        serial = gather(index, query, analysis, query_vector=vector, dense=dense)
        engine.query_threads.clear()
        both, got = gather_concurrently(index, query, analysis, engine=engine, dense=dense)
        assert engine.query_threads and engine.query_threads[0] != threading.get_ident()
        assert got is not None and np.array_equal(got, vector)
        _same(serial, both)
        # Dense mode alone has nothing to overlap: it runs here, with the same record.
        only, _ = gather_concurrently(index, query, analysis, engine=engine, dense=dense, lexical=False)
        _same(gather(index, query, analysis, query_vector=vector, dense=dense, lexical=False), only)


def test_a_failing_model_fails_the_query_once_and_the_next_one_works(library) -> None:  # type: ignore[no-untyped-def]
    library.add_note("借用", "借用检查器在编译时检查引用。")
    library.drain()
    index = library.index_reader
    engine = ThreadNotingEngine()
    dense = _dense_over(index, engine)
    engine.fail = True
    with pytest.raises(RuntimeError, match="model crashed"):
        gather_concurrently(index, "借用", analyse_query("借用"), engine=engine, dense=dense)
    engine.fail = False
    cand, vector = gather_concurrently(index, "借用", analyse_query("借用"), engine=engine, dense=dense)
    assert vector is not None and cand.lexical_hits == 1 and cand.dense_ran


def test_without_a_model_the_concurrent_path_is_keywords_only(library) -> None:  # type: ignore[no-untyped-def]
    library.add_note("借用", "借用检查器在编译时检查引用。")
    library.drain()
    index = library.index_reader
    cand, vector = gather_concurrently(index, "借用", analyse_query("借用"), engine=None, dense=None)
    assert vector is None and not cand.dense_ran and cand.lexical_hits == 1


def _store(documents: dict[int, int]) -> sqlite3.Connection:
    store = sqlite3.connect(":memory:")
    store.execute("CREATE TABLE fragments(id INTEGER PRIMARY KEY, document_id INTEGER NOT NULL)")
    store.executemany("INSERT INTO fragments VALUES (?, ?)", documents.items())
    return store


def _full_groups(store: sqlite3.Connection, cand: Candidates, refs: dict[int, ChunkRef]) -> np.ndarray:
    """Every candidate's document, read the way search did before (the reference)."""
    documents = chunk_documents(store, refs)
    labels: dict[object, int] = {}
    return np.array([labels.setdefault(documents.get(c, ("chunk", c)), len(labels))
                     for c in cand.ids.tolist()])


def test_document_lookup_only_when_both_firsts_share_a_document_and_the_order_is_unchanged() -> None:
    rng = np.random.default_rng(7)
    fused_same = lookups_skipped = 0
    for trial in range(300):
        n = int(rng.integers(2, 40))
        ids = rng.permutation(np.arange(1, 200))[:n].astype(np.int64)
        # Fragments of a few documents, some notes, and a chunk whose row is gone.
        kinds = rng.choice(["fragment", "note"], size=n, p=[0.8, 0.2])
        refs = {int(c): ChunkRef(int(c), str(k), int(c) + 1000, 0, 0, 5)
                for c, k in zip(ids, kinds, strict=True) if rng.random() > 0.05}
        store = _store({int(c) + 1000: int(rng.integers(1, 4)) for c in ids})
        lex_n = int(rng.integers(0, n + 1))
        lex_rank = np.zeros(n, np.int32)
        lex_rank[:lex_n] = np.arange(1, lex_n + 1)
        dense_n = int(rng.integers(0, n + 1))
        dense_rank = np.zeros(n, np.int32)
        dense_rank[rng.permutation(n)[:dense_n]] = np.arange(1, dense_n + 1)
        if trial % 3 == 0 and lex_n and dense_n:  # often the same chunk first on both sides
            dense_rank[dense_rank == 1] = dense_rank[0]
            dense_rank[0] = 1
        cand = Candidates(ids, np.where(lex_rank > 0, np.sort(rng.random(n) * 20)[::-1], 0.0),
                          rng.random(n), rng.random(n) * 0.6 + 0.2, lex_rank, dense_rank)
        statements: list[str] = []
        store.set_trace_callback(statements.append)
        lazy = _document_groups(store, cand, refs)
        store.set_trace_callback(None)
        full = _full_groups(store, cand, refs)
        assert np.array_equal(fuse_scores(cand, None, groups=lazy), fuse_scores(cand, None, groups=full))
        fused_same += 1
        if lazy is None:
            # At most the two first chunks' documents were read, never every candidate's.
            assert all(s.count("?") <= 2 for s in statements)
            lookups_skipped += 1
    assert fused_same == 300 and 50 < lookups_skipped < 300


class WaitingEngine(ThreadNotingEngine):
    """Embeds a query only once ``ready`` is set (or after 10 s), noting which it was."""

    def __init__(self) -> None:
        super().__init__()
        self.ready = threading.Event()
        self.waited_for_keywords: list[bool] = []

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        self.waited_for_keywords.append(self.ready.wait(10))
        return super().embed_queries(texts)


def test_the_keyword_reading_is_made_while_the_dense_side_runs_and_is_the_same(library) -> None:  # type: ignore[no-untyped-def]
    from desktop_kb.retrieval.search import _read_keywords

    for i in range(40):
        library.add_note(f"笔记 {i}", f"第 {i} 篇：借用检查器在编译时检查引用，所有权规则 rule {i % 7}。")
    library.drain()
    index = library.index_reader
    engine = WaitingEngine()
    dense = _dense_over(index, engine)
    for query in ("借用检查器 rule 3", "所有权", "nothing like this at all", "第 12 篇 GitLab"):
        analysis = analyse_query(query)
        engine.ready.clear()
        early = []

        def meanwhile(hits: Candidates, query: str = query, analysis=analysis, early=early) -> None:  # type: ignore[no-untyped-def]
            assert not hits.dense_ran and np.all(hits.lex_rank > 0)  # the keyword hits alone
            early.append(_read_keywords(index, query, analysis, hits))
            engine.ready.set()  # the dense side may embed now

        cand, _ = gather_concurrently(index, query, analysis, engine=engine, dense=dense, meanwhile=meanwhile)
        assert engine.waited_for_keywords[-1]  # made before the dense side was waited for
        assert early == [_read_keywords(index, query, analysis, cand)]  # the same as after it
