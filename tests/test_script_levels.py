"""Per-script levels: an English question on a Chinese library is not pulled to English text."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import engines
import numpy as np
import pytest

from desktop_kb.library import Library
from desktop_kb.retrieval.candidates import Candidates
from desktop_kb.retrieval.script_levels import (
    MIN_SCRIPT_CHUNKS,
    ScriptLevels,
    chunk_weights,
    fit,
    han_weight,
    han_weights,
    read_in_own_script,
)
from desktop_kb.retrieval.tuning import Tuning, TuningSource


def test_a_chunk_s_script_is_its_share_of_han_words() -> None:
    assert han_weight("所有权 规则 rust") == pytest.approx(2 / 3)
    assert han_weight("fn main println") == 0.0
    assert han_weight("继承 封装") == 1.0
    assert han_weight("42 := ->") is None  # digits and symbols say nothing
    assert han_weight("") is None
    assert han_weight("𠮷野 家") == 1.0  # planes 2-3 are Han too
    assert han_weight("docker-compose.yml 文件") == pytest.approx(1 / 4)  # runs of letters
    # Many texts at once give each its own share (runs never cross from one text to the next).
    assert han_weights(["ab", "中", "", "cd 文"]).tolist()[:2] == [0.0, 1.0]
    assert np.isnan(han_weights(["ab", "中", "", "cd 文"])[2])
    assert han_weights(["ab", "中", "", "cd 文"])[3] == 0.5
    assert han_weights(["a\0b 中", "中"]).tolist() == [pytest.approx(1 / 3), 1.0]  # a NUL inside is no seam


def _cloud(rng: np.random.Generator, centre: np.ndarray, n: int) -> np.ndarray:
    rows = centre + 0.3 * rng.standard_normal((n, len(centre)))
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_the_fit_measures_the_difference_of_the_two_scripts_mean_vectors() -> None:
    rng = np.random.default_rng(3)
    han_centre, latin_centre = np.eye(6)[0], np.eye(6)[1]
    han, latin = _cloud(rng, han_centre, 60), _cloud(rng, latin_centre, 12)
    levels = fit(np.r_[np.ones(60), np.zeros(12)], np.vstack([han, latin]))
    assert levels is not None and (levels.han_chunks, levels.latin_chunks) == (60, 12)
    assert levels.mean_weight == pytest.approx(60 / 72)
    assert np.allclose(levels.direction, han.mean(axis=0) - latin.mean(axis=0), atol=1e-5)
    # Chunks without a script (NaN) neither count nor move.
    with_unknown = fit(np.r_[np.ones(60), np.zeros(12), [np.nan]], np.vstack([han, latin, han[:1]]))
    assert with_unknown is not None and np.allclose(with_unknown.direction, levels.direction)


def test_too_few_chunks_of_a_script_keep_the_single_level() -> None:
    rng = np.random.default_rng(4)
    few = MIN_SCRIPT_CHUNKS - 1
    vectors = np.vstack([_cloud(rng, np.eye(4)[0], 40), _cloud(rng, np.eye(4)[1], few)])
    assert fit(np.r_[np.ones(40), np.zeros(few)], vectors) is None
    assert fit(np.ones(40), vectors[:40]) is None  # one script: nothing to correct


def _candidates(cosine: list[float]) -> Candidates:
    n = len(cosine)
    return Candidates(ids=np.arange(n, dtype=np.int64), bm25=np.zeros(n), coverage=np.zeros(n),
                      cosine=np.array(cosine), lex_rank=np.zeros(n, np.int32),
                      dense_rank=np.arange(1, n + 1, dtype=np.int32))


def test_each_cosine_is_read_against_its_own_script_and_the_meaning_list_reorders() -> None:
    levels = ScriptLevels(direction=np.array([1.0, -1.0], np.float32), mean_weight=0.9)
    english_question = np.array([0.0, 1.0], np.float32)  # q . (c_han - c_latin) = -1
    offsets = levels.offsets(english_question, np.array([0.0, 1.0, np.nan]))
    assert offsets == pytest.approx([0.9, -0.1, 0.0])  # English chunk down, Chinese up, unknown kept
    read = read_in_own_script(_candidates([0.80, 0.75, 0.70]), offsets)
    assert read.cosine == pytest.approx([-0.10, 0.85, 0.70])
    assert read.dense_rank.tolist() == [3, 1, 2]
    # A library at one script (every chunk at the mean share) moves nothing.
    same = _candidates([0.8, 0.7])
    assert read_in_own_script(same, levels.offsets(english_question, np.array([0.9, 0.9]))) is same
    assert not levels.offsets(None, np.array([0.0])).any()
    assert not levels.offsets(np.ones(3, np.float32), np.array([0.0])).any()  # another model


# ----- through the app's search path ---------------------------------------------------

CONCEPTS = [("继承", "inheritance"), ("闭包", "closure"), ("线程", "thread"), ("所有权", "ownership"),
            ("生命周期", "lifetime"), ("宏", "macro"), ("迭代器", "iterator"), ("泛型", "generic")]


def _engine() -> engines.BilingualEngine:
    """Four dimensions of noise from a hash of the text: no two texts tie."""
    return engines.BilingualEngine(CONCEPTS, "bilingual-test", 4, engines.text_noise(4))


CHINESE_NOTES = [(zh, f"{zh}是本章的主题。这里用例子讲解{zh}的用法和常见的错误。第{n}节给出练习。")
                 for n, (zh, _) in enumerate(CONCEPTS)] + [
    (f"杂记{n}", f"第{n}篇杂记：今天读书的笔记，记录了几个生词和一段感想。明天继续复习第{n}课。")
    for n in range(20)]
ENGLISH_NOTES = [
    ("README", "This repository holds the translated book. Pull requests are welcome on GitHub."),
    ("Shopping list", "Eggs, milk, bread and apples for the weekend. Buy coffee beans too."),
    ("Travel plan", "Train to the coast on Friday morning, back on Sunday evening."),
    ("Licence", "Licensed under the MIT licence or the Apache licence, at your option."),
]


@pytest.fixture
def mixed(data_dir: Path) -> Iterator[Library]:
    engine = _engine()
    with engines.embedded_library(data_dir, CHINESE_NOTES + ENGLISH_NOTES, engine) as lib:
        # What the app measures for an installed model (this engine has no manifest, for which
        # Library.tuning gives the uncalibrated default): calibration and script levels.
        source = TuningSource(data_dir)
        lib.tuning = lambda: source.tuning(  # type: ignore[method-assign]
            lib.index_reader, lib.store_reader, engine, lib.dense, "sha-bilingual", {})
        yield lib


def _first(lib: Library, query: str) -> str:
    results = lib.search(query, limit=3, mode="hybrid").results
    assert results, query
    return results[0].title


def test_english_questions_on_a_chinese_library_find_the_chinese_answer(mixed: Library) -> None:
    tuning = mixed.tuning()
    assert tuning is not None and tuning.scripts is not None
    assert (tuning.scripts.latin_chunks, tuning.scripts.han_chunks) == (4, 28)
    for zh, en in CONCEPTS:
        assert _first(mixed, f"What is {en}?") == zh
    # Chinese questions keep their answers too.
    assert _first(mixed, "闭包怎么用？") == "闭包"


def test_meaning_search_alone_reads_each_cosine_in_its_own_script_too(mixed: Library) -> None:
    """The dense-only mode ranks as hybrid reads cosines (it ranked by the raw cosine, and every
    English question found the English notes first)."""
    for zh, en in CONCEPTS:
        results = mixed.search(f"What is {en}?", limit=3, mode="dense").results
        assert results and results[0].title == zh, en
        assert all(r.score >= 0 and r.dense_score == r.score for r in results)


def test_meaning_search_alone_leaves_a_question_in_the_library_s_script_as_it_is(mixed: Library) -> None:
    """A Chinese question on a Chinese library ranks and scores as without script levels: they
    are there for questions in the other script (read against them, a Chinese question's
    cosines moved English and code chunks up; multilingual-e5 on Rust book set 14 lost variant
    R@1 1.0 -> 0.8). English questions still read them (the test above)."""
    asked = [f"{zh}怎么用？" for zh, _ in CONCEPTS] + ["今天读书的笔记"]

    def listed() -> list[list[tuple[str, float]]]:
        return [[(r.title, round(r.score, 6)) for r in mixed.search(q, limit=5, mode="dense").results]
                for q in asked]

    read = listed()
    whole = mixed.tuning
    assert (whole() or Tuning()).scripts is not None  # the library has two scripts
    mixed.tuning = lambda: replace(whole() or Tuning(), scripts=None)  # type: ignore[method-assign]
    assert read == listed()
    assert all(titles and titles[0][0] == zh for titles, (zh, _) in zip(read, CONCEPTS, strict=False))


def test_without_per_script_levels_english_text_wins_whatever_the_topic(mixed: Library) -> None:
    """The same library read on one scale: the pull this module removes (the test can fail)."""
    whole = mixed.tuning
    mixed.tuning = lambda: replace(whole() or Tuning(), scripts=None)  # type: ignore[method-assign]
    english = {title for title, _ in ENGLISH_NOTES}
    pulled = sum(_first(mixed, f"What is {en}?") in english for _, en in CONCEPTS)
    assert pulled == len(CONCEPTS)


def test_a_one_script_library_measures_no_script_levels(data_dir: Path) -> None:
    engine = _engine()
    with engines.embedded_library(data_dir, CHINESE_NOTES, engine) as lib:
        tuning = TuningSource(data_dir).tuning(lib.index_reader, lib.store_reader, engine, lib.dense,
                                               "sha-x", {})
        assert tuning.scripts is None


def test_weights_are_read_from_the_index_and_follow_an_edit(data_dir: Path) -> None:
    lib = Library(data_dir, load_model=False)
    try:
        note = lib.add_note("笔记", "所有权规则让内存安全，借用检查器在编译时检查引用。")
        lib.drain()
        ids = [cid for (cid,) in lib.index_reader.execute("SELECT id FROM kb_chunks")]
        known: dict[str, float] = {}
        assert chunk_weights(lib.index_reader, ids, known).tolist() == [1.0]
        lib.save_note(note, body="Ownership rules keep memory safe; the borrow checker checks references.")
        lib.drain()
        ids = [cid for (cid,) in lib.index_reader.execute("SELECT id FROM kb_chunks")]
        # Remembered by text hash, so an edited chunk (even one that kept its id) is read anew.
        weights = chunk_weights(lib.index_reader, ids, known)
        assert weights.tolist() == [0.0] and len(known) == 2
        assert np.isnan(chunk_weights(lib.index_reader, [10_000], known)).all()  # no such chunk
    finally:
        lib.close()


def test_weights_met_before_survive_the_memo_being_emptied(data_dir: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # The memo is emptied when it grows past its bound; a chunk of this query that an earlier
    # query had met kept no weight then and was read as having no script (NaN).
    from desktop_kb.retrieval import script_levels

    lib = Library(data_dir, load_model=False)
    try:
        lib.add_note("笔记", "所有权规则让内存安全，借用检查器在编译时检查引用。")
        lib.add_note("notes", "Ownership rules keep memory safe; the borrow checker checks references.")
        lib.drain()
        ids = sorted(cid for (cid,) in lib.index_reader.execute("SELECT id FROM kb_chunks"))
        known: dict[str, float] = {}
        assert chunk_weights(lib.index_reader, ids[:1], known).tolist() == [1.0]
        monkeypatch.setattr(script_levels, "KNOWN_WEIGHTS", 1)  # the next query empties it
        assert chunk_weights(lib.index_reader, ids, known).tolist() == [1.0, 0.0]
        assert len(known) == 2
    finally:
        lib.close()


def test_the_app_measures_the_model_on_its_library_before_the_first_search(data_dir: Path) -> None:
    """The first search after the app opened a library paid for jieba's dictionary, OpenCC's
    regional tables and the model's measurements on the library (2.8 s wall at 10⁵ chunks, the
    next search 0.06 s): the app now loads them on a thread of its own once a model is in use, and
    its first search reads no vectors to measure anything. Other roles (the CLI) do not."""
    engine = _engine()
    lib = Library(data_dir, load_model=False, role="app")
    try:
        source = TuningSource(data_dir)
        lib.tuning = lambda: source.tuning(  # type: ignore[method-assign]
            lib.index_reader, lib.store_reader, engine, lib.dense, "sha-bilingual", {})
        for title, body in CHINESE_NOTES + ENGLISH_NOTES:
            lib.add_note(title, body)
        lib.drain()
        assert lib.warmed is None
        lib.worker.set_engine(lambda: engine).result(60)
        assert lib.warmed is not None
        lib.warmed.result(60)
        statements: list[str] = []
        lib.index_reader.set_trace_callback(statements.append)
        try:
            first = lib.search("What is closure?", limit=3, mode="hybrid").results
        finally:
            lib.index_reader.set_trace_callback(None)
        assert first and first[0].title == "闭包"
        assert not [s for s in statements if "kb_vectors" in s]
    finally:
        lib.close()
    with engines.embedded_library(data_dir / "cli", CHINESE_NOTES, engine) as cli:
        assert cli.warmed is None


class _LockTakers:
    """A lock that remembers which threads took it."""

    def __init__(self) -> None:
        import threading

        self._lock = threading.Lock()
        self.takers: list[int] = []

    def __enter__(self) -> None:
        import threading

        self._lock.acquire()
        self.takers.append(threading.get_ident())

    def __exit__(self, *_exc: object) -> None:
        self._lock.release()


def test_a_search_waits_for_the_measurement_under_way_instead_of_making_its_own(
        data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A search that arrived while the app's warm-up measured the same size band measured it
    again beside it (two estimates on two busy cores: 6-12 s searches during a backfill); it now
    waits for that one and gets the same numbers."""
    import threading
    import time

    from desktop_kb.retrieval import tuning as tuning_module

    engine = _engine()
    with engines.embedded_library(data_dir, CHINESE_NOTES + ENGLISH_NOTES, engine) as lib:
        source = TuningSource(data_dir)
        real = tuning_module.estimate
        calls: list[int] = []
        started, release = threading.Event(), threading.Event()

        def slow(*args, **kwargs):  # type: ignore[no-untyped-def]
            calls.append(1)
            started.set()
            release.wait(30)
            return real(*args, **kwargs)

        monkeypatch.setattr(tuning_module, "estimate", slow)
        looked = _LockTakers()  # who has looked for a measurement already made
        source._lock = looked  # type: ignore[assignment]
        found: list[object] = []

        def measure() -> None:
            try:
                found.append(source.measured(lib.index_reader, lib.store_reader, engine, lib.dense, "sha-b"))
            finally:
                lib._close_readers()

        first = threading.Thread(target=measure)
        first.start()
        assert started.wait(30)
        second = threading.Thread(target=measure)
        second.start()
        # The second has looked and found nothing made yet: it measures at once (as it did
        # before) or waits at the gate; 0.5 s of sleep stood in for this and under load the
        # second could arrive after the first had finished, passing without being tested.
        deadline = time.monotonic() + 30
        while second.ident not in looked.takers and time.monotonic() < deadline:
            time.sleep(0.01)
        assert second.ident in looked.takers
        release.set()
        first.join(30)
        second.join(30)
        assert calls == [1]
        assert len(found) == 2 and found[0] == found[1] and found[0] is not None


def test_body_tokens_a_search_already_read_are_not_read_again(data_dir: Path) -> None:
    """The keyword hits' tokens (read for their coverage) weigh their script; only the others'
    rows are read from the index, and the weights are the ones read from it."""
    lib = Library(data_dir, load_model=False)
    try:
        lib.add_note("笔记", "所有权规则让内存安全，借用检查器在编译时检查引用。")
        lib.add_note("note", "Ownership rules keep memory safe; the borrow checker checks references.")
        lib.drain()
        ids = [cid for (cid,) in lib.index_reader.execute("SELECT id FROM kb_chunks ORDER BY id")]
        assert len(ids) == 2
        bodies = dict(lib.index_reader.execute("SELECT rowid, body FROM kb_fts WHERE rowid = ?", (ids[0],)))
        asked: list[str] = []
        lib.index_reader.set_trace_callback(asked.append)
        weights = chunk_weights(lib.index_reader, ids, {}, bodies)
        lib.index_reader.set_trace_callback(None)
        assert weights.tolist() == [1.0, 0.0] == chunk_weights(lib.index_reader, ids, {}).tolist()
        body_reads = [sql for sql in asked if "FROM kb_fts" in sql]
        assert len(body_reads) == 1 and f"IN ({ids[1]})" in body_reads[0]
    finally:
        lib.close()
