"""An English question keywords could have found on a Chinese library that writes English too, and
found nothing of, is not vouched for by meaning alone.

multilingual-e5 put "Roughly how many calories does thirty minutes of freestyle swimming burn?" on the
Chinese Rust book at 0.817, above its bar (0.800), while keywords held 0.04 of it: the book was
shown as holding an answer. The book writes English (its code, 0.38 of its sentences), and every
English question it answers holds at least 0.10 of its weight there. On a wholly Chinese library
(Tatoeba's Chinese sentences) keywords can never hold an English question, and meaning still vouches.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import engines
import numpy as np
import pytest

from desktop_kb.library import Library
from desktop_kb.retrieval.calibration import Calibration
from desktop_kb.retrieval.floor_reference import FloorReference
from desktop_kb.retrieval.relevance import (
    BARE_EVIDENCE,
    SCRIPT_SHARE,
    keywords_could_tell,
    meaning_may_vouch,
)
from desktop_kb.retrieval.results import NOTHING_NOTICE, WEAK_NOTICE
from desktop_kb.retrieval.search import search
from desktop_kb.retrieval.tuning import Tuning

DIM = 8
NOTES = [  # title, body, the marker the engine reads, the vector's axis
    ("Cargo", "用 cargo new 创建新项目，cargo build 编译，cargo run 运行。", "创建新项目", 0),
    ("所有权", "每个值都有一个所有者。fn main() { let s = String::from(\"hello\"); println!(\"{s}\"); }",
     "每个值都有一个所有者", 1),
    ("线程", "用 thread::spawn 创建线程，join 等待它结束。", "创建线程", 2),
]
FAR = "How can I fall asleep faster at night?"  # no word of it in the library
ANSWERED = "How do I build a project with cargo?"  # cargo, build, project: the library's words


def _unit(weights: dict[int, float]) -> np.ndarray:
    return engines.unit(DIM, weights)


# Both stand 0.4 from a note: above the bar (0.3) the tuning below sets.
QUESTIONS = {FAR: _unit({1: 0.4, 6: float(np.sqrt(1 - 0.16))}), ANSWERED: _unit({0: 0.4, 6: float(np.sqrt(1 - 0.16))})}


@pytest.fixture
def book(data_dir: Path) -> Iterator[tuple[Library, engines.TableEngine]]:
    engine = engines.TableEngine("table-bare", DIM, QUESTIONS, {marker: axis for *_, marker, axis in NOTES},
                                 other_axis=7)
    with engines.embedded_library(data_dir, [(title, body) for title, body, *_ in NOTES], engine) as lib:
        yield lib, engine


def _tuning(han_share: float) -> Tuning:
    """A measured library whose share of Chinese sentences is ``han_share``; the bar 0.3 (the
    question's baseline 0 plus 0.2 of a span of 1, plus a margin of 0.1 in cosine)."""
    calibration = Calibration(unrelated=0.0, spread=0.1, related=1.0, sample=128, han_share=han_share)
    reference = FloorReference(_unit({7: 1.0}) * 0.5, closeness=0.2, coverage=0.5, margin=0.1,
                               margin_unit="cosine")
    return Tuning(calibration=calibration, reference=reference)


def _ask(lib: Library, engine: engines.TableEngine, question: str, tuning: Tuning,
         mode: str = "hybrid") -> list[str]:
    response = search(lib.index_reader, lib.store_reader, question, mode=mode, engine=engine,
                      dense=lib.dense, tuning=tuning)
    if response.notice in (NOTHING_NOTICE, WEAK_NOTICE):
        return [response.notice]
    return [r.title for r in response.results]


def test_meaning_alone_does_not_vouch_where_keywords_could_have_found_the_question(
        book: tuple[Library, engines.TableEngine]) -> None:
    lib, engine = book
    # The library writes English in 0.4 of its sentences: keywords found nothing of the question.
    assert _ask(lib, engine, FAR, _tuning(0.6)) == [NOTHING_NOTICE]
    # Its own words found, the same cosine vouches.
    assert _ask(lib, engine, ANSWERED, _tuning(0.6))[0] == "Cargo"


def test_meaning_only_search_reads_the_keywords_the_floor_needs(
        book: tuple[Library, engines.TableEngine]) -> None:
    # Meaning-only search gathered no keywords, so every English question on a library writing
    # English too read as 'keywords found nothing of it': all of them were 'nothing close'
    # (the Rust book's English questions, dense R@5 0.8 -> 0.0).
    lib, engine = book
    assert _ask(lib, engine, ANSWERED, _tuning(0.6), mode="dense")[0] == "Cargo"
    assert _ask(lib, engine, FAR, _tuning(0.6), mode="dense") == [NOTHING_NOTICE]


def test_meaning_still_vouches_on_a_library_that_writes_no_english(
        book: tuple[Library, engines.TableEngine]) -> None:
    lib, engine = book
    assert _ask(lib, engine, FAR, _tuning(1.0))[0] == "所有权"


def test_keywords_could_tell_only_across_scripts_on_a_measured_library_that_writes_both() -> None:
    def cal(han_share: float, sample: int = 128) -> Calibration:
        return Calibration(unrelated=0.8, spread=0.02, related=0.9, sample=sample, han_share=han_share)

    assert keywords_could_tell(cal(0.62), query_has_han=False)  # English question, the Rust book
    assert not keywords_could_tell(cal(1.0), query_has_han=False)  # ... a wholly Chinese library
    assert not keywords_could_tell(cal(1.0 - SCRIPT_SHARE + 0.01), query_has_han=False)
    assert not keywords_could_tell(cal(0.62), query_has_han=True)  # the library's own script
    assert keywords_could_tell(cal(0.3), query_has_han=True)  # Chinese question, English library with Chinese
    assert not keywords_could_tell(cal(0.0), query_has_han=True)
    assert not keywords_could_tell(cal(0.62, sample=0), query_has_han=False)  # a prior: not measured
    assert not keywords_could_tell(cal(-1.0), query_has_han=False)  # script not measured
    assert not keywords_could_tell(None, query_has_han=False)
    assert BARE_EVIDENCE is not None
    assert not meaning_may_vouch(BARE_EVIDENCE - 0.01, cal(0.62), query_has_han=False)
    assert meaning_may_vouch(BARE_EVIDENCE, cal(0.62), query_has_han=False)
    assert meaning_may_vouch(0.0, cal(1.0), query_has_han=False)
