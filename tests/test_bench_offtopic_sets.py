"""The off-topic benchmark reports per set and mode what the person is shown.

The lead measures "nothing in the library is close" on sealed sets of off-topic questions that
enter ``offtopic_questions.tsv`` after their measurement; the benchmark must tell those sets apart
(a figure over all of them hides the one that regressed) and report beside them the cost: the
in-domain questions whose answer is still shown as a normal result, per question set.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import numpy as np

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import bench_offtopic  # noqa: E402
import offtopic_data  # noqa: E402


def test_each_released_sealed_set_is_its_own_section() -> None:
    sections = offtopic_data.own_sections()
    by_set = Counter((section, kind) for kind, _, libraries, section in sections if "book" in libraries)
    for sealed in ("set 11", "set 12", "set 13", "set 14", "set 15", "set 17", "set 18", "set 19"):
        assert [by_set[(sealed, kind)] for kind in bench_offtopic.KINDS] == [10, 10, 10]
    assert by_set[("written", "far")] > 0  # those written before the first sealed set
    assert offtopic_data.own_section_of()["王安石变法最后为什么失败了？"] == "set 12"


def _asked(qset: str, library: str, text: str, group: str = "") -> offtopic_data.Asked:
    return offtopic_data.Asked(qset, library, text, qset == library, group, None, None, None, None,
                               [], [], {}, 0, {}, {})


def test_caught_and_cost_are_counted_per_set_and_mode() -> None:
    book = [(path, q) for path in offtopic_data.BOOK_QUESTION_FILES
            for _, q, _ in offtopic_data.fusion_data.book_questions(path)]
    sets = [bench_offtopic.book_set_of(path) for path, _ in book]
    records = [
        _asked("own", "book", "王安石变法最后为什么失败了？", "far"),
        _asked("own", "book", "How do I make a sourdough starter from scratch?", "far"),
        _asked("own", "book", "红烧肉怎么做才能肥而不腻？", "far"),  # set 11
        _asked("cmrc", "cmrc", "一个维基百科问题"),
        *(_asked("book", "book", q) for _, q in book),
    ]
    # Set 12's answers are all shown as weak matches; one of set 1's is not in the first 10.
    first_of_set_1 = sets.index(1)
    fired = np.array([True, False, True, False, *(n == 12 for n in sets)])
    rank = np.array([99, 99, 99, 12, *(99 if i == first_of_set_1 else 1 for i in range(len(book)))])
    figures = bench_offtopic.sets_report(records, {"hybrid": (fired, rank)})["hybrid"]
    assert figures["own set 12 -> book far"] == [1, 2]
    assert figures["own set 11 -> book far"] == [1, 1]
    assert figures["in:book set 1"] == [sets.count(1) - 1, sets.count(1)]
    assert figures["in:book set 12"] == [0, sets.count(12)]
    assert figures["in:book set 11"] == [sets.count(11), sets.count(11)]
    assert figures["in:book, all sets"] == [len(book) - 1 - sets.count(12), len(book)]
    assert figures["in:cmrc"] == [0, 1]  # its answer is not in the first 10


def test_a_change_is_reported_as_the_rows_that_differ() -> None:
    before = {"keywords only": {"own set 14 -> book all": [24, 30], "in:book, all sets": [490, 545],
                                "in:cmrc": [299, 300]},
              "hybrid": {"own set 14 -> book all": [26, 30]}}
    after = {"keywords only": {"own set 14 -> book all": [27, 30], "in:book, all sets": [488, 545],
                               "in:cmrc": [299, 300], "own set 15 -> book all": [1, 30]},
             "hybrid": {"own set 14 -> book all": [26, 30]}}
    assert bench_offtopic.sets_changes(before, after) == [
        "keywords only own set 14 -> book all: 24/30 -> 27/30",
        "keywords only in:book, all sets: 490/545 -> 488/545",
    ]
    assert bench_offtopic.sets_changes(after, after) == []
