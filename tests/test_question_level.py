"""Each question is read against its own unrelated level, not only the library's average one.

A multilingual model puts an English question below a Chinese library's unrelated level on
every passage (multilingual-e5 on the Rust book: a median 2.3 spreads under it). Read on the library's
scale, the chapter its meaning points to never counted and hybrid followed a keyword that
happened to match; read against the question's own mean cosine to the library, it does.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import engines
import numpy as np
import pytest

from desktop_kb.library import Library
from desktop_kb.retrieval.calibration import Calibration, library_centre, read_for_question
from desktop_kb.retrieval.dense import DenseIndex
from desktop_kb.retrieval.tuning import Tuning, TuningSource

CONCEPTS = [("闭包", "closure"), ("所有权", "ownership"), ("生命周期", "lifetime"), ("迭代器", "iterator"),
            ("模式匹配", "pattern"), ("宏", "macro"), ("线程", "thread"), ("智能指针", "pointer")]


def _engine() -> engines.BilingualEngine:
    """Character pairs hashed into a few dimensions: a sentence finds its own note."""
    return engines.BilingualEngine(CONCEPTS, "bilingual-level-test", 48, engines.character_pairs(48))


NOTES = [(zh, f"{zh}是本章的主题。这里用例子讲解{zh}的用法和常见的错误。第{n}节给出练习。")
         for n, (zh, _) in enumerate(CONCEPTS)] + [
    (f"杂记{n}", f"第{n}篇杂记：今天读书的笔记，记录了几个生词和一段感想。明天继续复习第{n}课。")
    for n in range(40)] + [
    # A Chinese note that holds one English word of the question, on another topic.
    ("环境变量", "读取环境变量：程序启动时从 environment 里取出配置，再决定输出到哪里。")]
QUESTION = "How does a closure capture its environment?"


@pytest.fixture
def book(data_dir: Path) -> Iterator[Library]:
    engine = _engine()
    with engines.embedded_library(data_dir, NOTES, engine) as lib:
        # What the app measures for an installed model (this engine has no manifest).
        source = TuningSource(data_dir)
        lib.tuning = lambda: source.tuning(  # type: ignore[method-assign]
            lib.index_reader, lib.store_reader, engine, lib.dense, "sha-level", {})
        yield lib


def test_an_english_question_finds_the_chinese_chapter_its_meaning_points_to(book: Library) -> None:
    tuning = book.tuning()
    assert tuning is not None and tuning.calibration is not None and tuning.centre is not None
    lexical = book.search(QUESTION, limit=3, mode="lexical").results
    assert [r.title for r in lexical] == ["环境变量"]  # keywords know only the shared word
    results = book.search(QUESTION, limit=3, mode="hybrid").results
    assert results[0].title == "闭包"
    # A Chinese question is unchanged: its chapter first, as before.
    assert book.search("闭包怎么捕获环境？", limit=3, mode="hybrid").results[0].title == "闭包"


def test_on_the_library_s_average_level_the_keyword_hit_wins(book: Library) -> None:
    """The same library without the question's own level (the test above can fail)."""
    whole = book.tuning
    book.tuning = lambda: replace(whole() or Tuning(), centre=None)  # type: ignore[method-assign]
    tuning = book.tuning()
    assert tuning is not None and tuning.calibration is not None
    vector = _engine().embed_queries([QUESTION])[0]
    cosines = book.dense.similarities(vector, book.dense.sample_ids(100))
    assert max(cosines.values()) < tuning.calibration.unrelated  # below unrelated Chinese text
    assert book.search(QUESTION, limit=3, mode="hybrid").results[0].title == "环境变量"


def test_the_question_s_level_is_its_mean_cosine_to_the_library() -> None:
    dense = DenseIndex()
    dense.reset("m", 3)
    rng = np.random.default_rng(0)
    rows = rng.standard_normal((40, 3)).astype(np.float32) + np.array([0, 0, 2], np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    dense.add(list(range(1, 41)), rows)
    centre = library_centre(dense)
    assert centre is not None and np.allclose(centre, rows.mean(axis=0), atol=1e-6)
    query = np.array([0.6, 0.0, 0.8], np.float32)
    library = Calibration(unrelated=0.5, spread=0.1, related=0.9, han_share=0.8)  # a Chinese library
    own = read_for_question(library, query, centre, query_has_han=False)
    assert own is not None
    assert own.unrelated == pytest.approx(float(np.mean(rows @ query)), abs=1e-6)
    assert own.separation == pytest.approx(library.separation)  # the library's scale is kept
    assert own.spread == library.spread
    # A question in the library's own script keeps the library's level; nothing to read it
    # with, too.
    assert read_for_question(library, query, centre, query_has_han=True) is library
    # A model whose levels hold across scripts (it aligns the two languages) keeps them.
    assert read_for_question(library, query, centre, query_has_han=False, across_scripts=True) is library
    assert read_for_question(library, None, centre, query_has_han=False) is library
    assert read_for_question(library, query, None, query_has_han=False) is library
    assert read_for_question(None, query, centre, query_has_han=False) is None
    small = DenseIndex()
    small.reset("m", 3)
    small.add([1, 2], rows[:2])
    assert library_centre(small) is None  # too few chunks to say


def test_an_english_note_is_offered_the_chinese_chapter_its_meaning_points_to(book: Library) -> None:
    """The related panel read an English note on the library's Chinese scale: nothing came near
    enough (multilingual-e5 on the Rust book: 8 of 8 English learner notes got no passage)."""
    note = book.add_note("Closures", "A closure can capture variables from its environment, unlike a function.")
    book.drain()
    got = book.related(note, limit=3).suggestions
    assert got and got[0].title == "闭包", [s.title for s in got]
    # Read on the library's average level, the same note gets nothing near enough.
    whole = book.tuning
    book.tuning = lambda: replace(whole() or Tuning(), centre=None)  # type: ignore[method-assign]
    assert "闭包" not in [s.title for s in book.related(note, limit=3).suggestions]
