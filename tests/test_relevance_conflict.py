"""Where keywords alone say nothing and the two lists disagree, the meaning side must clear more.

e5 sits every Chinese question close to every Chinese passage, so "红烧肉怎么做才能肥而不腻"
cleared the dense bar on the Rust book while keyword search alone said "nothing close": with
the model the person was told less than without it (keyword search alone lists its hits only
as weak matches, and QA refuses). Its keyword hits (做) point at other
passages than its meaning hits; a question whose answer is there shares a passage between the
two lists' tops. Such a question must clear the model's ``margin_conflict``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import engines
import numpy as np
import pytest

from desktop_kb.library import Library
from desktop_kb.retrieval.calibration import Calibration
from desktop_kb.retrieval.candidates import Candidates
from desktop_kb.retrieval.floor_reference import FloorReference, reference_of
from desktop_kb.retrieval.relevance import KEYWORD_COVERAGE, dense_bar, in_conflict, lists_disagree
from desktop_kb.retrieval.results import NOTHING_NOTICE, WEAK_NOTICE
from desktop_kb.retrieval.search import search
from desktop_kb.retrieval.tuning import Tuning, shipped_calibrations

DIM = 8
NOTES = [  # title, body, the marker the engine reads, the vector's axis
    ("所有权", "Rust 的所有权规则：每个值都有一个所有者，所有者离开作用域时值被丢弃。这样做不需要垃圾回收。",
     "每个值都有一个所有者", 0),
    ("借用", "借用检查器保证引用总是有效的；可变引用同一时间只能有一个。我们来做一个例子。", "借用检查器", 1),
    ("Cargo", "用 cargo new 创建新项目，cargo build 编译，cargo run 运行。做完再提交。", "创建新项目", 2),
    ("生命周期", "生命周期注解描述多个引用之间的关系。", "生命周期注解", 3),
    ("模式匹配", "match 表达式按模式分支，每个分支都要覆盖。", "按模式分支", 4),
    ("闭包", "闭包可以捕获环境中的变量。", "捕获环境", 5),
]
OFF_TOPIC = "红烧肉怎么做才能肥而不腻"  # keywords: 做, in the first three notes only
WEAK_BUT_THERE = "来做个小练习吧"  # keywords: 做 again; its meaning is the 借用 note's


def _unit(weights: dict[int, float]) -> np.ndarray:
    return engines.unit(DIM, weights)


# Both questions stand 0.4 from their nearest passages: between the plain bar and the conflict bar.
QUESTIONS = {
    OFF_TOPIC: _unit({3: 0.4, 4: 0.4, 5: 0.4, 6: float(np.sqrt(1 - 3 * 0.16))}),
    WEAK_BUT_THERE: _unit({1: 0.4, 6: float(np.sqrt(1 - 0.16))}),
}


def _engine() -> engines.TableEngine:
    """Vectors chosen by the test: each note on its own axis, each question where it says."""
    return engines.TableEngine("table-conflict", DIM, QUESTIONS, {marker: axis for *_, marker, axis in NOTES},
                               other_axis=7)


@pytest.fixture
def rust_notes(data_dir: Path) -> Iterator[tuple[Library, engines.TableEngine]]:
    engine = _engine()
    with engines.embedded_library(data_dir, [(title, body) for title, body, *_ in NOTES], engine) as lib:
        yield lib, engine


def _tuning(margin_conflict: float | None) -> Tuning:
    """A measured library whose floor is 0.2 (the question's baseline: its cosine to a centroid on an
    axis no question uses, 0, plus 0.2 of a span of 1); margins in cosine: plain 0.1, conflict 0.3."""
    calibration = Calibration(unrelated=0.0, spread=0.1, related=1.0, sample=128, han_share=1.0)
    reference = FloorReference(_unit({7: 1.0}) * 0.5, closeness=0.2, coverage=0.5, margin=0.1,
                               margin_unit="cosine", margin_conflict=margin_conflict)
    return Tuning(calibration=calibration, reference=reference)


def _ask(lib: Library, engine: engines.TableEngine, question: str, tuning: Tuning) -> list[str]:
    response = search(lib.index_reader, lib.store_reader, question, mode="hybrid", engine=engine,
                      dense=lib.dense, tuning=tuning)
    # Under the floor hybrid says so: nothing at all, or only keyword hits marked as weak matches
    # (which QA never sends); either way the floor fired.
    if response.notice in (NOTHING_NOTICE, WEAK_NOTICE):
        return [response.notice]
    return [r.title for r in response.results]


def test_an_unrelated_question_whose_keywords_point_elsewhere_must_clear_the_conflict_margin(
        rust_notes: tuple[Library, engines.TableEngine]) -> None:
    lib, engine = rust_notes
    # Without a conflict margin the meaning side's 0.4 clears the plain bar (0.3): noise is shown as
    # found, though keyword search alone calls its hits weak (its evidence is under the floor).
    assert lib.search(OFF_TOPIC, mode="lexical").notice == WEAK_NOTICE
    assert _ask(lib, engine, OFF_TOPIC, _tuning(None))[:3] == ["生命周期", "模式匹配", "闭包"]
    assert _ask(lib, engine, OFF_TOPIC, _tuning(0.3)) == [WEAK_NOTICE]


def test_a_weak_question_whose_lists_agree_keeps_the_plain_margin(
        rust_notes: tuple[Library, engines.TableEngine]) -> None:
    lib, engine = rust_notes
    shown = _ask(lib, engine, WEAK_BUT_THERE, _tuning(0.3))
    assert shown and shown[0] == "借用"


def _cand(lex_rank: Sequence[int], dense_rank: Sequence[int], dense_ran: bool = True) -> Candidates:
    n = len(lex_rank)
    return Candidates(np.arange(n, dtype=np.int64), np.zeros(n), np.zeros(n), np.zeros(n),
                      np.array(lex_rank, dtype=np.int32), np.array(dense_rank, dtype=np.int32),
                      dense_ran=dense_ran)


def test_the_lists_disagree_when_no_keyword_first_is_among_the_meaning_firsts() -> None:
    assert lists_disagree(_cand([1, 2, 0, 0, 0], [0, 0, 1, 2, 3]))
    assert not lists_disagree(_cand([1, 2, 0, 0], [0, 3, 1, 2]))  # keyword 2nd is meaning 3rd
    assert lists_disagree(_cand([1, 0, 0, 0, 0], [4, 1, 2, 3, 0]))  # ... 4th is too far down
    assert lists_disagree(_cand([11, 1, 0, 0, 0], [0, 0, 1, 2, 3]))
    assert not lists_disagree(_cand([11, 0, 0, 0], [1, 2, 3, 4]))  # a keyword hit below the 10th
    assert not lists_disagree(_cand([0, 0, 0], [1, 2, 3]))  # no keyword hit: nothing to disagree
    assert not lists_disagree(_cand([1, 2], [0, 0], dense_ran=False))  # no meaning side
    disagreeing = _cand([1, 0, 0, 0], [0, 1, 2, 3])
    assert in_conflict(KEYWORD_COVERAGE - 0.01, disagreeing)
    assert not in_conflict(KEYWORD_COVERAGE, disagreeing)  # keyword search alone shows it


def test_the_conflict_margin_raises_the_bar_only_when_higher() -> None:
    chinese = Calibration(unrelated=0.8, spread=0.02, related=0.9, sample=128, han_share=0.9)
    reference = FloorReference(np.ones(4, dtype=np.float32) / 2, 0.1, margin=0.02, margin_unit="cosine",
                               margin_across=0.06, margin_conflict=0.04)
    assert dense_bar(0.75, chinese, reference, True) == pytest.approx(0.77)
    assert dense_bar(0.75, chinese, reference, True, conflict=True) == pytest.approx(0.79)
    assert dense_bar(0.75, chinese, reference, False, conflict=True) == pytest.approx(0.81)  # across: higher
    spans = FloorReference(np.ones(4, dtype=np.float32) / 2, 0.1, margin=0.3, margin_conflict=0.5)
    assert dense_bar(0.75, chinese, spans, True, conflict=True) == pytest.approx(0.75 + 0.5 * 0.1)
    prior = Calibration(unrelated=0.8, spread=0.02, related=0.9)  # too small to measure: plain floor
    assert dense_bar(0.75, prior, reference, True, conflict=True) == pytest.approx(0.75)


def test_shipped_models_carry_a_conflict_margin_above_their_margin() -> None:
    entries = [e for e in shipped_calibrations().values() if reference_of(e) is not None]
    assert entries
    for entry in entries:
        reference = reference_of(entry)
        assert reference is not None and reference.margin_conflict is not None, entry["model"]
        assert reference.margin_conflict > reference.margin, entry["model"]
