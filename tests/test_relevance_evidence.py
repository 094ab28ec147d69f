"""The relevance floor reads keyword hits as evidence only when they hold the question.

A hit on a single common character (做), a function word or a fragment of an
unknown word used to defeat "nothing in the library is close" altogether; now
the best hit must hold enough of the question's informative weight.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from desktop_kb.retrieval.calibration import Calibration
from desktop_kb.retrieval.floor_reference import FloorReference, encode_centroid, reference_of
from desktop_kb.retrieval.relevance import KEYWORD_COVERAGE, dense_bar, required_coverage
from desktop_kb.retrieval.results import WEAK_NOTICE
from desktop_kb.retrieval.search import NOTHING_NOTICE, Ranking, nothing_relevant, rank_chunks

RUST_NOTES = [
    ("所有权", "Rust 的所有权规则：每个值都有一个所有者，所有者离开作用域时值被丢弃。这样做不需要垃圾回收。"),
    ("借用", "借用检查器保证引用总是有效的；可变引用同一时间只能有一个。我们来做一个例子。"),
    ("Cargo", "用 cargo new 创建新项目，cargo build 编译，cargo run 运行。做完再提交。"),
]


def _library(library: Any, notes: list[tuple[str, str]]) -> Any:
    for title, body in notes:
        library.add_note(title, body)
    library.drain()
    return library


def test_a_single_common_character_is_not_evidence(library: Any) -> None:
    lib = _library(library, RUST_NOTES)
    # 做 is in every note: keywords match it, but it is not what the question asks about.
    for question in ("红烧肉怎么做", "周末去哪里钓鱼做饭", "how to bake bread"):
        ranking = rank_chunks(lib.index_reader, question, mode="lexical", engine=None, dense=None)
        assert nothing_relevant(ranking), question


def test_keyword_search_under_the_floor_lists_weak_matches_and_qa_still_refuses(library: Any) -> None:
    """Without a model, a question in everyday words holds few of its words in the library, as an
    unrelated one does: the floor emptied the search box for both, and a person lost passages that
    hold their words (Rust book set 8: two colloquial questions found at rank 1 were silenced).
    The search box lists them under a notice; the QA pane, which would upload, still refuses."""
    from desktop_kb.qa.engine import QaEngine

    lib = _library(library, [*RUST_NOTES, (
        "Weak 引用", "树的子节点用 Rc 持有，指向父节点用 Weak，这样父子节点之间不会形成引用循环，内存可以释放。")])
    question = "做一棵树，下面的节点要能找到上一级，又不想上下两级互相拽着谁都释放不了"
    assert nothing_relevant(rank_chunks(lib.index_reader, question, mode="lexical", engine=None,
                                        dense=None))
    response = lib.search(question)
    assert response.weak_matches and response.notice == WEAK_NOTICE
    assert response.results[0].title == "Weak 引用"
    assert response.as_json()["weak_matches"] is True
    unrelated = lib.search("红烧肉怎么做")  # 做 is held: listed, under the same notice
    assert unrelated.results and unrelated.weak_matches and unrelated.notice == WEAK_NOTICE
    engine = QaEngine(lib, key_lookup=lambda _name: None)
    for asked in (question, "红烧肉怎么做"):
        plan = engine.prepare(asked)
        assert plan.retrieved.nothing and plan.reason == "nothing_found" and not plan.retrieved.hits
    strong = lib.search("所有权是啥意思呀")
    assert strong.results and not strong.weak_matches and strong.notice == ""
    missed = lib.search("周末去哪里钓鱼做饭")  # no keyword hit at all: nothing to list
    assert missed.results == [] and missed.notice == NOTHING_NOTICE and not missed.weak_matches


def test_weak_matches_filtered_away_leave_nothing_close(library: Any) -> None:
    """A tag filter that keeps none of the weak matches leaves no list to mark: "nothing close"."""
    lib = _library(library, RUST_NOTES)
    lib.add_note("钓鱼", "周末去河边 #爱好")
    lib.drain()
    response = lib.search("tag:爱好 红烧肉怎么做")
    assert response.results == [] and not response.weak_matches
    assert response.notice == NOTHING_NOTICE


def test_a_question_that_names_the_library_s_term_keeps_its_hit(library: Any) -> None:
    lib = _library(library, RUST_NOTES)
    for question, title in (("所有权是啥意思呀", "所有权"), ("我朋友说借用检查器很难懂", "借用"),
                            ("cargo new", "Cargo")):
        response = lib.search(question)
        assert response.notice != NOTHING_NOTICE, question
        assert response.results and response.results[0].title == title, question


def test_a_missing_word_weighs_as_a_word_seen_once(library: Any) -> None:
    """In a one-note library BM25's IDF would weigh the missing 装 five times Docker; weighed by
    how rare each is in everyday language, Docker weighs more than 装."""
    lib = _library(library, [("GitLab", "用 Docker 安装 GitLab，先准备 docker-compose.yml。")])
    ranking = rank_chunks(lib.index_reader, "Docker 怎么装", mode="lexical", engine=None, dense=None)
    assert ranking.evidence > 0.5
    assert lib.search("Docker 怎么装").results


def test_qa_says_nothing_for_a_question_the_library_does_not_hold(library: Any) -> None:
    from desktop_kb.qa.engine import QaEngine

    lib = _library(library, RUST_NOTES)
    engine = QaEngine(lib, key_lookup=lambda _name: None)
    plan = engine.prepare("红烧肉怎么做")
    assert plan.retrieved.lexical_hits > 0  # 做 matched, and that is not enough
    assert plan.retrieved.nothing and plan.reason == "nothing_found"
    assert not engine.prepare("所有权是啥意思呀").retrieved.nothing


def _ranking(evidence: float, best: float, bar: float | None, coverage: float = 0.5) -> Ranking:
    return Ranking(query_vector=np.ones(2, dtype=np.float32), evidence=evidence, coverage=coverage,
                   best_dense=best, dense_bar=bar)


def test_with_a_model_both_sides_must_be_weak() -> None:
    assert nothing_relevant(_ranking(0.3, 0.40, 0.5))
    assert not nothing_relevant(_ranking(0.6, 0.40, 0.5))  # keywords hold the question
    assert not nothing_relevant(_ranking(0.3, 0.55, 0.5))  # the meaning side found it
    assert not nothing_relevant(_ranking(0.0, 0.10, None))  # no calibrated floor: never silent
    keywords_only = Ranking(evidence=KEYWORD_COVERAGE - 0.01)
    assert nothing_relevant(keywords_only)
    assert not nothing_relevant(Ranking(evidence=KEYWORD_COVERAGE))


def test_the_margin_raises_the_floor_only_on_a_measured_library() -> None:
    reference = FloorReference(np.ones(4, dtype=np.float32) / 2, 0.1, coverage=0.6, margin=0.5)
    measured = Calibration(unrelated=0.1, spread=0.1, related=0.5, sample=128)
    prior = Calibration(unrelated=0.1, spread=0.1, related=0.5)  # a library too small to measure
    assert dense_bar(0.2, measured, reference) == pytest.approx(0.2 + 0.5 * 0.4)
    assert dense_bar(0.2, prior, reference) == pytest.approx(0.2)
    assert dense_bar(None, measured, reference) is None
    assert dense_bar(0.2, measured, None) == pytest.approx(0.2)
    assert required_coverage(measured, reference) == pytest.approx(0.6)
    assert required_coverage(prior, reference) == pytest.approx(KEYWORD_COVERAGE)
    assert required_coverage(measured, None) == pytest.approx(KEYWORD_COVERAGE)


def test_a_question_in_the_other_script_gets_its_own_margin_and_a_cosine_margin_is_plain() -> None:
    chinese = Calibration(unrelated=0.8, spread=0.02, related=0.9, sample=128, han_share=0.9)
    reference = FloorReference(np.ones(4, dtype=np.float32) / 2, 0.1, margin=0.02, margin_unit="cosine",
                               margin_across=0.06)
    assert dense_bar(0.75, chinese, reference, query_has_han=True) == pytest.approx(0.77)
    assert dense_bar(0.75, chinese, reference, query_has_han=False) == pytest.approx(0.81)
    assert dense_bar(0.75, chinese, reference) == pytest.approx(0.77)  # script unknown
    spans = FloorReference(np.ones(4, dtype=np.float32) / 2, 0.1, margin=0.5)
    assert dense_bar(0.75, chinese, spans, query_has_han=False) == pytest.approx(0.75 + 0.5 * 0.1)


def test_the_manifest_carries_coverage_and_margin() -> None:
    floor = {"reference": encode_centroid(np.ones(4, dtype=np.float32) / 2), "closeness": 0.1}
    parsed = reference_of({"floor": {**floor, "coverage": 0.54, "margin": 0.34}})
    assert parsed is not None and parsed.coverage == pytest.approx(0.54)
    assert parsed.margin == pytest.approx(0.34)
    plain = reference_of({"floor": floor})
    assert plain is not None and plain.coverage is None and plain.margin == 0.0
    odd = reference_of({"floor": {**floor, "coverage": "high", "margin": True, "margin_unit": "miles",
                                  "margin_across": None}})
    assert odd is not None and odd.coverage is None and odd.margin == 0.0
    assert odd.margin_unit == "span" and odd.margin_across is None
    cosine = reference_of({"floor": {**floor, "margin": 0.026, "margin_unit": "cosine", "margin_across": 0.058}})
    assert cosine is not None and cosine.margin_unit == "cosine" and cosine.margin_across == pytest.approx(0.058)


def test_the_hits_token_rows_are_read_once_per_query(library: Any) -> None:
    """The keyword evidence read again the token rows of the hits whose coverage had just been
    read from them (up to 100 rows, ~1.6 ms CPU a question on the Rust book)."""
    lib = _library(library, RUST_NOTES)
    statements: list[str] = []
    lib.index_reader.set_trace_callback(statements.append)
    try:
        ranking = rank_chunks(lib.index_reader, "所有权和借用检查器", mode="lexical", engine=None, dense=None)
    finally:
        lib.index_reader.set_trace_callback(None)
    assert ranking.lexical_hits >= 2 and ranking.evidence >= 0.5
    assert sum("FROM kb_fts WHERE rowid IN" in s for s in statements) == 1
