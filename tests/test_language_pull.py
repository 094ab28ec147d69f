"""An English question on a Chinese library: passages are not preferred for being English."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from desktop_kb.retrieval.calibration import Calibration
from desktop_kb.retrieval.candidates import Candidates
from desktop_kb.retrieval.dense import DenseIndex
from desktop_kb.retrieval.floor_reference import FloorReference
from desktop_kb.retrieval.fusion import agreement_pair, fuse_scores, order
from desktop_kb.retrieval.language_pull import without_language_pull


def unit(*xs: float) -> np.ndarray:
    v = np.array(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


# Axis 0: "English text", axis 1: "Chinese text", axis 2: the topic the question asks about.
ENGLISH_CENTRE, CHINESE_CENTRE = unit(1, 0, 0) * 0.9, unit(0, 1, 0) * 0.9
CHINESE_BOOK = Calibration(unrelated=0.2, spread=0.1, related=0.6, han_share=0.7)


def _library() -> DenseIndex:
    dense = DenseIndex()
    dense.reset("m", 3)
    # 1: the Chinese chapter on the topic; 2: an English list of link references, off topic.
    dense.add([1, 2], np.stack([unit(0, 0.6, 0.8), unit(1, 0.1, 0)]))
    return dense


def _question(dense: DenseIndex, has_cjk: bool) -> Candidates:
    query = unit(0.75, 0, 0.66)  # English words about the topic
    hits = dense.search(query, 2)
    cos = dict(hits)
    ids = [1, 2]
    return Candidates(np.array(ids, dtype=np.int64), np.zeros(2), np.zeros(2),
                      np.array([cos[i] for i in ids]), np.zeros(2, np.int32),
                      np.array([1 + [c for c, _ in hits].index(i) for i in ids], np.int32),
                      has_cjk=has_cjk, has_latin=True, dense_ran=True)


def test_an_english_question_finds_the_chinese_chapter_not_the_english_list() -> None:
    dense = _library()
    reference = FloorReference(CHINESE_CENTRE, 0.1, english=ENGLISH_CENTRE)
    cand = _question(dense, has_cjk=False)
    assert cand.dense_rank[1] == 1  # the raw cosine prefers the English list ...
    assert order(cand, fuse_scores(cand, CHINESE_BOOK), lambda c: (c, 0))[0].chunk_id == 2  # ... as did hybrid

    read = without_language_pull(cand, dense, reference, CHINESE_BOOK)
    first = order(read, fuse_scores(read, CHINESE_BOOK), lambda c: (c, 0))[0]
    assert first.chunk_id == 1
    assert read.cosine[0] == cand.cosine[0]  # a Chinese passage has no pull to take off


def test_nothing_changes_without_the_conditions() -> None:
    dense = _library()
    reference = FloorReference(CHINESE_CENTRE, 0.1, english=ENGLISH_CENTRE)
    cand = _question(dense, has_cjk=False)
    # A question with Chinese in it, an English library, a model without an English centre.
    mixed = replace(cand, has_cjk=True)
    assert without_language_pull(mixed, dense, reference, CHINESE_BOOK) is mixed
    for args in ((dense, reference, replace(CHINESE_BOOK, han_share=0.2)),
                 (dense, FloorReference(CHINESE_CENTRE, 0.1), CHINESE_BOOK),
                 (None, reference, CHINESE_BOOK), (dense, None, CHINESE_BOOK)):
        assert without_language_pull(cand, *args) is cand


def test_the_meaning_list_is_reordered_by_the_cosines_read_without_the_pull() -> None:
    """The agreement rule compares the keyword favourite with the meaning list's first place: after
    the pull that is the Chinese chapter, not the English list it was before. Left in its raw order,
    e5 on the Rust book (set 15) put a chapter both lists ranked first second, under a chunk neither
    did ('Why does the web server project move main.rs into a src/bin directory ...')."""
    dense = _library()
    reference = FloorReference(CHINESE_CENTRE, 0.1, english=ENGLISH_CENTRE)
    cand = _question(dense, has_cjk=False)
    # Keywords find the chapter first, the English list second.
    cand = replace(cand, bm25=np.array([9.0, 3.0]), coverage=np.array([0.3, 0.1]),
                   lex_rank=np.array([1, 2], np.int32))
    assert agreement_pair(cand) == (0, 1)  # raw: the lists disagree

    read = without_language_pull(cand, dense, reference, CHINESE_BOOK)
    assert read.cosine[0] > read.cosine[1]
    assert list(read.dense_rank) == [1, 2]
    assert agreement_pair(read) == (0, 0)  # read as fusion reads it: both put the chapter first
