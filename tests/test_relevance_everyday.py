"""Keyword evidence weighs each word by how much it says about the question's topic.

A question that shares only everyday words with the library ("make", "just right",
分钟) used to count those words as much as the library's own terms: a cooking question
asked of a Rust book got confident-looking results. A word now earns what it weighs only
as far as the library holds it more often than everyday text would (its lift), and a
word rare in everyday language weighs more than an everyday one.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from desktop_kb.index.everyday_words import ZIPF_NUMBER, ZIPF_UNKNOWN, zipf
from desktop_kb.retrieval.relevance import KEYWORD_COVERAGE, topical_weights
from desktop_kb.retrieval.results import WEAK_NOTICE
from desktop_kb.retrieval.search import nothing_relevant, rank_chunks

TOPIC = ["ownership", "borrow", "borrowing", "lifetime", "trait", "struct", "enum", "closure",
         "iterator", "crate", "cargo", "module", "macro", "generic", "reference", "slice",
         "vector", "string", "thread", "channel", "mutex", "compiler", "pattern", "match",
         "option", "result", "panic", "unwrap", "clone", "copy", "heap", "stack", "pointer", "box",
         "rc", "refcell", "arc"]


def test_everyday_words_are_commoner_than_the_library_s_terms() -> None:
    assert zipf("the") > zipf("make") > zipf("borrow") > ZIPF_UNKNOWN
    assert zipf("Make") == zipf("make")
    assert zipf("tokio") == ZIPF_UNKNOWN and zipf("2024") == ZIPF_NUMBER
    assert zipf("的") > zipf("分钟") > zipf("红烧肉")
    # A term jieba's dictionary does not count (its HMM joined it: 写个, 做点; or it lists a
    # search-mode piece at its least count: 哪几种) reads as its rarest character.
    for term in ("闭包", "写个", "做点", "哪几种"):
        assert zipf(term) == min(zipf(c) for c in term), term


def test_a_word_earns_only_as_far_as_the_library_holds_it_more_than_everyday_text() -> None:
    terms = ["make", "pasta", "borrow"]
    weights, credits = topical_weights(terms, 1000, {"make": 2, "borrow": 300}, mean_tokens=150.0)
    assert weights["pasta"] > weights["make"]  # rarer in everyday language
    assert credits["borrow"] == pytest.approx(weights["borrow"])  # the library is about it
    assert credits["make"] < 0.05 * weights["make"]  # 2 of 1,000 chunks of 150 words: rarer than in any text


def _topic_library(library: Any) -> Any:
    rng = random.Random(5)
    for i in range(80):
        words = [rng.choice(TOPIC) for _ in range(120)]
        if i == 7:
            words[10:10] = ["make", "sure", "the", "lifetime", "is", "just", "right"]
        library.add_note(f"note {i}", " ".join(words))
    library.drain()
    return library


def test_a_question_sharing_only_everyday_words_is_a_weak_match(library: Any) -> None:
    """Fails before: 'make', 'just' and 'right' held 3 of the question's 5 terms (evidence 0.6)."""
    lib = _topic_library(library)
    question = "How to make the sauce just right for pasta?"
    ranking = rank_chunks(lib.index_reader, question, mode="lexical", engine=None, dense=None)
    assert ranking.lexical_hits > 0 and nothing_relevant(ranking)
    response = lib.search(question)
    assert response.weak_matches and response.notice == WEAK_NOTICE
    # The library's own words keep their hits as found, in everyday phrasing too.
    for asked in ("how do I borrow a value twice", "lifetime of a closure"):
        found = rank_chunks(lib.index_reader, asked, mode="lexical", engine=None, dense=None)
        assert found.evidence >= KEYWORD_COVERAGE and not nothing_relevant(found), asked
        assert not lib.search(asked).weak_matches
