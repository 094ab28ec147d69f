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

from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from desktop_kb.index.everyday_words import known_word
from desktop_kb.library import Library
from desktop_kb.retrieval import relevance
from desktop_kb.retrieval.calibration import Calibration
from desktop_kb.retrieval.floor_reference import FloorReference
from desktop_kb.retrieval.relevance import dense_bar, names_unknown_word
from desktop_kb.retrieval.results import NOTHING_NOTICE, WEAK_NOTICE
from desktop_kb.retrieval.search import search
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
    v = np.zeros(DIM, dtype=np.float32)
    for axis, w in weights.items():
        v[axis] = w
    return v / np.linalg.norm(v)


def _near_the_server_note(cosine: float) -> np.ndarray:
    return _unit({0: cosine, 6: float(np.sqrt(1 - cosine * cosine))})


class _TableEngine:
    """Each note on its own axis; each question at the cosine the test sets to the server note."""

    dim = DIM
    model_id = "table-unknown-name"

    def __init__(self) -> None:
        self.questions: dict[str, np.ndarray] = {}

    def _vector(self, text: str) -> np.ndarray:
        for question, vector in self.questions.items():
            if question in text:
                return vector
        for _title, body, axis in NOTES:
            if body[:12] in text:
                return _unit({axis: 1.0})
        return _unit({7: 1.0})  # a title alone, or anything else

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return np.stack([self._vector(t) for t in texts]) if texts else np.zeros((0, DIM), np.float32)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self.embed_queries(texts)


@pytest.fixture
def book(data_dir: Path) -> Iterator[tuple[Library, _TableEngine]]:
    lib = Library(data_dir, load_model=False)
    for title, body, _axis in NOTES:
        lib.add_note(title, body)
    engine = _TableEngine()
    lib.worker.set_engine(lambda: engine).result(60)
    lib.drain()
    assert lib.dense.ready and len(lib.dense) == len(NOTES)
    try:
        yield lib, engine
    finally:
        lib.close()


def _tuning(level: float) -> Tuning:
    """A measured library whose unrelated pairs sit at 0 with a spread putting ``level`` spreads at
    cosine 0.5; the dense floor is 0.2 and the model's margin 0.1 (cosine): the plain bar is 0.3."""
    calibration = Calibration(unrelated=0.0, spread=0.5 / level, related=1.0, sample=128, han_share=1.0)
    reference = FloorReference(_unit({7: 1.0}) * 0.5, closeness=0.2, coverage=0.5, margin=0.1,
                               margin_unit="cosine")
    return Tuning(calibration=calibration, reference=reference)


def _shown(lib: Library, engine: _TableEngine, question: str, cosine: float) -> list[str]:
    engine.questions[question] = _near_the_server_note(cosine)
    assert relevance.UNKNOWN_NAME_LEVEL is not None
    response = search(lib.index_reader, lib.store_reader, question, mode="hybrid", engine=engine,
                      dense=lib.dense, tuning=_tuning(relevance.UNKNOWN_NAME_LEVEL))
    if response.notice in (NOTHING_NOTICE, WEAK_NOTICE):
        return [response.notice]
    return [r.title for r in response.results]


def test_a_question_naming_what_the_library_never_mentions_needs_the_librarys_level(
        book: tuple[Library, _TableEngine]) -> None:
    lib, engine = book
    assert lib.search(NAMED, mode="lexical").notice in (NOTHING_NOTICE, WEAK_NOTICE)
    # 0.4: above the model's plain bar (0.3), under the level the library's unrelated pairs reach.
    assert _shown(lib, engine, NAMED, 0.4) == [NOTHING_NOTICE]
    assert _shown(lib, engine, NAMED, 0.6)[:1] == ["Web 服务器"]  # above it: found by meaning


def test_a_question_in_everyday_words_keeps_the_plain_bar(book: tuple[Library, _TableEngine]) -> None:
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


def test_the_level_raises_the_bar_only_when_higher_and_only_on_a_measured_library() -> None:
    level = relevance.UNKNOWN_NAME_LEVEL
    assert level is not None
    measured = Calibration(unrelated=0.1, spread=0.1, related=0.5, sample=128, han_share=1.0)
    reference = FloorReference(np.ones(4, dtype=np.float32) / 2, 0.1, margin=0.02, margin_unit="cosine")
    assert dense_bar(0.2, measured, reference, True) == pytest.approx(0.22)
    assert dense_bar(0.2, measured, reference, True, unknown_name=True) == pytest.approx(0.1 + level * 0.1)
    assert dense_bar(0.9, measured, reference, True, unknown_name=True) == pytest.approx(0.92)
    prior = Calibration(unrelated=0.1, spread=0.1, related=0.5)  # too small to measure: plain floor
    assert dense_bar(0.2, prior, reference, True, unknown_name=True) == pytest.approx(0.2)
    assert dense_bar(None, measured, reference, True, unknown_name=True) is None  # no floor at all
