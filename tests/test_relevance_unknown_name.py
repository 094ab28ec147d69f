"""A question naming something the library has never heard of is not rescued by a middling cosine.

"How do I configure nginx as a reverse proxy?" asked of the Rust book: keyword search alone
calls it weak (the book holds none of its words) and a model sits it near the book's passages on
servers, as near as questions the book answers. With USE it was shown as a normal result, so
installing a model made the app worse at saying "nothing here" than keywords alone. nginx is a
word neither everyday language nor the library knows: the meaning side must then reach the level
the library's own unrelated pairs reach (``relevance.UNKNOWN_NAME_LEVEL`` spreads above their
mean), read from this library's calibration, not from a model's constant.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import engines
import numpy as np
import pytest

from desktop_kb.index.everyday_words import known_word
from desktop_kb.library import Library
from desktop_kb.retrieval import relevance
from desktop_kb.retrieval.calibration import Calibration
from desktop_kb.retrieval.floor_reference import FloorReference
from desktop_kb.retrieval.relevance import (
    KEYWORD_COVERAGE,
    dense_bar,
    in_passing,
    name_bar,
    names_unknown_word,
)
from desktop_kb.retrieval.results import NOTHING_NOTICE, WEAK_NOTICE
from desktop_kb.retrieval.search import nothing_relevant, rank_chunks, search
from desktop_kb.retrieval.tuning import Tuning

DIM = 8
NOTES = [  # title, body (the marker the engine reads), the vector's axis
    ("Web 服务器", "最后一个项目：构建多线程 web 服务器，监听 TCP 端口并返回 HTML 页面。", 0),
    ("所有权", "每个值都有一个所有者，所有者离开作用域时值被丢弃。", 1),
    ("生命周期", "生命周期注解描述多个引用之间的关系。", 2),
]
NAMED = "How do I configure nginx as a reverse proxy?"  # nginx: no everyday list holds it
EVERYDAY = "How do I make the server answer on another port?"  # every word an everyday one


def _unit(weights: dict[int, float]) -> np.ndarray:
    return engines.unit(DIM, weights)


def _near_the_server_note(cosine: float) -> np.ndarray:
    return _unit({0: cosine, 6: float(np.sqrt(1 - cosine * cosine))})


def _engine() -> engines.TableEngine:
    """Each note on its own axis; each question at the cosine the test sets to the server note."""
    return engines.TableEngine("table-unknown-name", DIM, {}, {body[:12]: axis for _t, body, axis in NOTES},
                               other_axis=7)


#: Notes on other things, so the library is large enough that a word it lacks says something
#: (``calibration.MIN_CHUNKS``); each its own title and body, none near the questions.
FILLER = [(f"杂记 {i}", f"第 {i} 条杂记：关于整理书架、浇花和记账的随手笔记。") for i in range(24)]


@pytest.fixture
def book(data_dir: Path) -> Iterator[tuple[Library, engines.TableEngine]]:
    engine = _engine()
    notes = [(title, body) for title, body, _ in NOTES] + FILLER
    with engines.embedded_library(data_dir, notes, engine) as lib:
        yield lib, engine


def _tuning(level: float) -> Tuning:
    """A measured library whose unrelated pairs sit at 0 with a spread putting ``level`` spreads at
    cosine 0.5; the dense floor is 0.2 and the model's margin 0.1 (cosine): the plain bar is 0.3."""
    calibration = Calibration(unrelated=0.0, spread=0.5 / level, related=1.0, sample=128, han_share=1.0)
    reference = FloorReference(_unit({7: 1.0}) * 0.5, closeness=0.2, coverage=0.5, margin=0.1,
                               margin_unit="cosine")
    return Tuning(calibration=calibration, reference=reference)


def _shown(lib: Library, engine: engines.TableEngine, question: str, cosine: float) -> list[str]:
    engine.questions[question] = _near_the_server_note(cosine)
    assert relevance.UNKNOWN_NAME_LEVEL is not None
    response = search(lib.index_reader, lib.store_reader, question, mode="hybrid", engine=engine,
                      dense=lib.dense, tuning=_tuning(relevance.UNKNOWN_NAME_LEVEL))
    if response.notice in (NOTHING_NOTICE, WEAK_NOTICE):
        return [response.notice]
    return [r.title for r in response.results]


def test_a_question_naming_what_the_library_never_mentions_needs_the_librarys_level(
        book: tuple[Library, engines.TableEngine]) -> None:
    lib, engine = book
    assert lib.search(NAMED, mode="lexical").notice in (NOTHING_NOTICE, WEAK_NOTICE)
    # 0.4: above the model's plain bar (0.3), under the level the library's unrelated pairs reach.
    assert _shown(lib, engine, NAMED, 0.4) == [NOTHING_NOTICE]
    assert _shown(lib, engine, NAMED, 0.6)[:1] == ["Web 服务器"]  # above it: found by meaning


def test_every_shipped_model_reads_its_own_name_level() -> None:
    from desktop_kb.retrieval.floor_reference import reference_of
    from desktop_kb.retrieval.tuning import shipped_calibrations

    levels = {str(entry.get("model")): ref.name_level for entry in shipped_calibrations().values()
              if (ref := reference_of(entry)) is not None}
    assert levels and all(level is not None and level >= 0 for level in levels.values()), levels


def test_keywords_holding_the_rest_of_a_question_naming_another_tool_do_not_vouch_for_it(
        book: tuple[Library, engines.TableEngine]) -> None:
    """Fails before: keywords held more than the model's coverage (监听, TCP, 端口), so the question
    about nginx was shown as found whatever meaning search said."""
    lib, engine = book
    question = "nginx 怎么监听 TCP 端口"
    ranking = rank_chunks(lib.index_reader, question, mode="lexical", engine=None, dense=None)
    assert ranking.evidence >= 0.5  # the coverage _tuning's model asks of keywords
    assert _shown(lib, engine, question, 0.4) == [WEAK_NOTICE]
    assert _shown(lib, engine, question, 0.6)[:1] == ["Web 服务器"]  # meaning search vouches


def test_a_question_in_everyday_words_keeps_the_plain_bar(book: tuple[Library, engines.TableEngine]) -> None:
    lib, engine = book
    assert lib.search(EVERYDAY, mode="lexical").notice in (NOTHING_NOTICE, WEAK_NOTICE)
    assert _shown(lib, engine, EVERYDAY, 0.4)[:1] == ["Web 服务器"]


def test_a_name_is_unknown_only_when_both_the_library_and_everyday_language_lack_it() -> None:
    assert names_unknown_word(["configure", "nginx"], {"configure": 0})
    assert not names_unknown_word(["configure", "nginx"], {"nginx": 3})  # the library has it
    assert not names_unknown_word(["server", "port"], {})  # everyday words the library lacks
    assert names_unknown_word(["env_logger"], {})


def test_forms_of_everyday_words_are_not_names() -> None:
    # The segmenter cuts "wasn't" into wasn + t; the word list holds whole words only.
    for word in ("wasn", "couldn", "aren", "decoder", "zipping", "impolite", "avoidable", "computations"):
        assert known_word(word), word
    for name in ("nginx", "useEffect", "MaybeUninit", "env_logger", "monad", "coroutines", "sqlx"):
        assert not known_word(name), name
    assert known_word("分钟") and known_word("make")
    assert not names_unknown_word(["zipping", "counter"], {"counter": 18})


def test_the_level_is_the_library_s_own_and_only_on_a_measured_library() -> None:
    level = relevance.UNKNOWN_NAME_LEVEL
    assert level is not None
    measured = Calibration(unrelated=0.1, spread=0.1, related=0.5, sample=128, han_share=1.0)
    reference = FloorReference(np.ones(4, dtype=np.float32) / 2, 0.1, margin=0.02, margin_unit="cosine")
    assert dense_bar(0.2, measured, reference, True) == pytest.approx(0.22)
    assert name_bar(0.2, measured) == pytest.approx(0.1 + level * 0.1)
    own = FloorReference(np.ones(4, dtype=np.float32) / 2, 0.1, name_level=level + 1.0)
    assert name_bar(0.2, measured, own) == pytest.approx(0.1 + (level + 1.0) * 0.1)  # the model's own
    assert name_bar(0.2, measured, reference) == pytest.approx(0.1 + level * 0.1)  # none: the default
    prior = Calibration(unrelated=0.1, spread=0.1, related=0.5)  # too small to measure
    assert name_bar(0.2, prior) is None
    assert name_bar(None, measured) is None  # no floor at all


# A library that holds the words of a question about another tool, but never the tool.
THREADS = ["spawn", "thread", "threads", "join", "handle", "channel", "struct", "enum", "vector",
           "clone", "closure", "move", "send", "sync", "mutex", "lock", "value", "field", "method"]


def _threads_library(library: Any) -> Any:
    rng = random.Random(3)
    for i in range(40):
        library.add_note(f"note {i}", " ".join(rng.choice(THREADS) for _ in range(80)))
    library.drain()
    return library


@pytest.mark.parametrize("question", [
    "How do I spawn a thread with tokio?",  # tokio: no everyday list holds it
    "What is the difference between a struct and an enum in Swift?",  # written as a name
    "Swift 里 struct 和 enum 有什么区别？",
])
def test_keywords_holding_the_rest_of_a_question_about_something_else_are_weak(
        library: Any, question: str) -> None:
    """Fails before: the library holds every other word (evidence well above KEYWORD_COVERAGE), so
    a question about tokio or Swift was shown as found, as if the library answered it."""
    lib = _threads_library(library)
    ranking = rank_chunks(lib.index_reader, question, mode="lexical", engine=None, dense=None)
    assert ranking.evidence >= KEYWORD_COVERAGE and ranking.unknown_name
    assert nothing_relevant(ranking)
    response = lib.search(question)
    assert response.weak_matches and response.notice == WEAK_NOTICE and response.results


@pytest.mark.parametrize("question", [
    "How do I spawn a thread?",
    "What is the difference between a struct and an enum?",
    "Swift: what is the difference between a struct and an enum?",  # a sentence's first word
    "How do I clone a vector in a swift way?",  # the everyday word, not the name
])
def test_the_library_s_own_words_stay_found(library: Any, question: str) -> None:
    lib = _threads_library(library)
    ranking = rank_chunks(lib.index_reader, question, mode="lexical", engine=None, dense=None)
    assert not ranking.unknown_name and not nothing_relevant(ranking), ranking.evidence
    assert not lib.search(question).weak_matches


def test_what_names_something_and_what_does_not() -> None:
    assert names_unknown_word(["struct", "swift"], {"struct": 4}, "a struct in Swift?")
    assert names_unknown_word(["swift", "struct"], {"struct": 4}, "Swift 里的 struct")
    # A library that holds none of the question's Latin words writes names its own way (汤姆).
    assert not names_unknown_word(["tom", "visited", "boston"], {}, "Tom visited Boston last year.")
    assert not names_unknown_word(["struct", "swift"], {"struct": 4}, "a struct, the swift way")
    assert not names_unknown_word(["swift", "struct"], {"struct": 4}, "Swift structs?")  # first word
    assert names_unknown_word(["github", "actions", "run"], {"run": 3}, "How do GitHub Actions run?")
    assert not names_unknown_word(["2024-03-01", "12:00"], {}, "解析 2024-03-01 12:00")  # no name
    assert not names_unknown_word(["async/await"], {}, held={"async/await"})  # held by its parts
    for word in ("built-in", "hand-compiled", "multibyte", "reproducible", "command-line"):
        assert known_word(word), word
    for name in ("wasm-pack", "actix-web"):
        assert not known_word(name), name


def test_a_name_the_library_mentions_only_in_passing_is_as_absent(library: Any) -> None:
    """Fails before: the library says "go" once, in a note about something else, so "Go" in a
    question about goroutines' cousin counted as held and the rest of its words made it found."""
    lib = _threads_library(library)
    lib.add_note("aside", "when the value is no longer needed we let it go and move on")
    lib.drain()
    question = "Go 里怎么 spawn 一个 thread"
    ranking = rank_chunks(lib.index_reader, question, mode="lexical", engine=None, dense=None)
    assert ranking.evidence >= KEYWORD_COVERAGE and ranking.unknown_name and nothing_relevant(ranking)
    assert lib.search(question).weak_matches
    # Not written as a name: the everyday word.
    everyday = rank_chunks(lib.index_reader, "spawn 一个 thread 以后怎么 go", mode="lexical",
                           engine=None, dense=None)
    assert not everyday.unknown_name and not nothing_relevant(everyday)


def test_in_passing_reads_the_lift_and_the_best_hit() -> None:
    weights = {"python": 1.0, "thread": 1.0, "spawn": 1.0}
    credits = {"python": 0.5, "thread": 1.0, "spawn": 1.0}  # python: rarer here than in everyday text
    assert in_passing({1: {"thread", "spawn"}, 2: {"python"}}, weights, credits) == {"python"}
    assert in_passing({1: {"thread", "spawn", "python"}}, weights, credits) == frozenset()  # in the best hit
    assert in_passing({}, weights, credits) == frozenset()


def test_a_library_too_small_to_lack_a_word_keeps_its_hits(library: Any) -> None:
    """A note on installing GitLab is what a person asking how to install GitLab with Docker wants,
    though it never says Docker: in a library of a few notes a missing word says nothing."""
    library.add_note("GitLab 安装", "GitLab 安装笔记：先准备配置文件，第一次启动需要几分钟。")
    library.drain()
    ranking = rank_chunks(library.index_reader, "怎么用 Docker 安装 GitLab？", mode="lexical", engine=None,
                          dense=None)
    assert not ranking.unknown_name and not nothing_relevant(ranking)
