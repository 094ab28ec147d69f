"""Cosine calibration measured on the library, and which constants apply to a model."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from desktop_kb.library import Library
from desktop_kb.retrieval.calibration import Calibration
from desktop_kb.retrieval.fusion import DEFAULT_PARAMS, relevance_floor
from desktop_kb.retrieval.tuning import (
    CACHE_FILE,
    manifest_calibration,
    params_of,
    prior_of,
    shipped_calibrations,
)

USE_SHA = "b8b05b01f0861094f0475cb288ad1b303ae8aee2ebe96e650d210805d5ca70f7"


def test_levels_closeness_and_fit() -> None:
    cal = Calibration(unrelated=0.8, spread=0.05, related=0.95, dense_found=0.9, lexical_found=1.0, sample=48)
    assert cal.standardize(0.9) == pytest.approx(2.0)
    assert cal.cosine_at(2.0) == pytest.approx(0.9)
    assert cal.closeness(0.8) == 0.0 and cal.closeness(0.95) == 1.0 and cal.closeness(0.5) == 0.0
    assert cal.cosine_at_closeness(0.2) == pytest.approx(0.83)
    assert cal.fit == 1.0  # finds 90 % of what keywords find
    # The Rust book's ratio with USE (dense matches keywords on its real questions): full weight.
    assert Calibration(0.15, 0.1, dense_found=0.375, lexical_found=0.73, sample=128).fit == 1.0
    assert Calibration(0.1, 0.1, dense_found=0.35, lexical_found=1.0, sample=48).fit == pytest.approx(0.5)
    # An English-only model on Chinese text (0.23 on CMRC): no weight.
    assert Calibration(0.1, 0.1, dense_found=0.23, lexical_found=1.0, sample=48).fit == 0.0


@pytest.mark.parametrize(("model", "draws"), [
    # Estimates on the Chinese Rust book (seeds 0-5 of ``calibration.estimate``, 128
    # pseudo-questions each): (dense_found, lexical_found) as measured.
    ("use-multilingual", [(0.3516, 0.7656), (0.3984, 0.8203), (0.5, 0.7578), (0.4766, 0.7422),
                          (0.4141, 0.7578), (0.4375, 0.7578)]),
    ("multilingual-e5-small", [(0.3828, 0.7656), (0.3828, 0.8203), (0.4141, 0.7578),
                               (0.4531, 0.7422), (0.4297, 0.7578), (0.4297, 0.7578)]),
])
def test_every_draw_gives_a_model_that_fits_the_book_full_weight(model: str, draws: list) -> None:
    # The first USE draw (ratio 0.46) gave 0.84 with the old ends (0.25-0.5), the second 0.94.
    for dense_found, lexical_found in draws:
        assert Calibration(0.15, 0.1, dense_found=dense_found, lexical_found=lexical_found,
                           sample=128).fit == 1.0, (model, dense_found, lexical_found)


def test_every_draw_gives_an_english_only_model_on_the_book_no_weight() -> None:
    # all-MiniLM-L6-v2 on the Chinese Rust book, the same six draws: ratios 0.16-0.26. The
    # third (0.258) gave weight 0.03 with the old ends, which already orders keyword hits by
    # coverage instead of BM25: hybrid fell below keywords in 6 question groups.
    draws = [(0.125, 0.7656), (0.2031, 0.8203), (0.1953, 0.7578), (0.1641, 0.7422),
             (0.1484, 0.7578), (0.1484, 0.7578)]
    for dense_found, lexical_found in draws:
        assert Calibration(0.23, 0.12, dense_found=dense_found, lexical_found=lexical_found,
                           sample=128).fit == 0.0, (dense_found, lexical_found)
    assert Calibration(0.1, 0.1).fit == 1.0  # a prior (nothing measured) does not judge the model


def test_the_relevance_floor_is_a_share_of_the_library_s_own_separation() -> None:
    # e5 on the Rust book: a passage's own sentence stands only 1.4 spreads above unrelated
    # text (long chunks), on Tatoeba 6. A floor of 0.7 spreads (fitted on the public sets)
    # sat half-way up the book's range and silenced real English questions; a share of
    # the separation sits at the same place on both.
    params = replace(DEFAULT_PARAMS, floor_closeness=0.1)
    book = Calibration(unrelated=0.8455, spread=0.02966, related=0.8867)
    tatoeba = Calibration(unrelated=0.8413, spread=0.0212, related=0.9706)
    assert book.standardize(relevance_floor(book, params)) == pytest.approx(0.1 * book.separation)
    assert tatoeba.standardize(relevance_floor(tatoeba, params)) == pytest.approx(0.1 * tatoeba.separation)
    assert relevance_floor(None, params) is None  # no calibration: no floor


def test_no_floor_for_a_question_in_another_script_than_the_library_was_measured_in() -> None:
    # e5 on the Chinese Rust book: English questions about its chapters sit up to 0.87 of the
    # library's separation *below* unrelated Chinese text; no floor fitted on Chinese
    # questions can tell them from noise, and a missing floor only adds results.
    params = replace(DEFAULT_PARAMS, floor_closeness=-0.25)
    chinese = Calibration(unrelated=0.845, spread=0.03, related=0.887, han_share=0.9)
    english = replace(chinese, han_share=0.1)
    prior = replace(chinese, han_share=-1.0)  # not measured: the floor applies to every question
    assert relevance_floor(chinese, params, query_has_han=True) == pytest.approx(0.845 - 0.25 * 0.042)
    assert relevance_floor(chinese, params, query_has_han=False) is None
    assert relevance_floor(english, params, query_has_han=False) is not None
    assert relevance_floor(english, params, query_has_han=True) is None
    assert relevance_floor(prior, params, query_has_han=False) is not None
    assert relevance_floor(chinese, params) is not None  # script not given: as before


def test_shipped_calibrations_are_found_by_weights_hash_not_by_id() -> None:
    assert USE_SHA in shipped_calibrations()
    assert manifest_calibration({}, USE_SHA) == shipped_calibrations()[USE_SHA]
    own = {"fusion": {"dense_from": 7.0, "unknown_field": 1}, "unrelated": 0.5, "spread": 0.1}
    assert manifest_calibration(own, USE_SHA) == own  # the manifest's own values win
    assert params_of(own).dense_from == 7.0 and params_of({}) == DEFAULT_PARAMS
    assert prior_of(own) == Calibration(unrelated=0.5, spread=0.1)
    assert prior_of({"unrelated": "x"}) is None and prior_of({}) is None
    assert manifest_calibration({}, "0" * 64) == {}  # an unknown model: measured on the library



def test_every_graph_of_one_model_carries_the_same_fitted_constants() -> None:
    # A re-export of the same weights (a new graph, a new sha256) must not keep an older
    # fit: the install hands out the newest graph, so its key is the one a person uses.
    fused: dict[str, dict[str, float]] = {}
    fitted = set(bench_grid_fields()) | {"floor_closeness"}
    for sha, entry in shipped_calibrations().items():
        model = str(entry["model"]).removesuffix("-float")
        fusion = entry["fusion"]
        assert fitted <= set(fusion), (sha, fitted - set(fusion))
        assert fused.setdefault(model, fusion) == fusion, (sha, model)


def test_a_model_without_a_fit_gets_the_lowest_floor_any_shipped_model_was_fitted_to() -> None:
    # A lower floor only adds results to questions no keyword matched; a floor too high
    # silences a person's own notes. So an unknown model never gets a higher one.
    floors = [float(entry["fusion"]["floor_closeness"]) for entry in shipped_calibrations().values()]
    assert floors and DEFAULT_PARAMS.floor_closeness <= min(floors)


def bench_grid_fields() -> list[str]:
    """The constants the leave-one-set-out script fits (its GRID), read without importing it."""
    import ast

    source = (Path(__file__).parents[1] / "benchmarks" / "bench_fusion_loso.py").read_text("utf-8")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "GRID" for t in node.targets):
            return [ast.literal_eval(k) for k in node.value.keys]  # type: ignore[attr-defined]
    raise AssertionError("GRID not found in bench_fusion_loso.py")

@pytest.mark.slow
def test_library_measures_the_model_once_and_remembers_it(data_dir: Path, default_model_root: Path) -> None:
    topics = ["猫在阳光下睡觉", "如何安装 Docker", "红烧肉的做法", "季度报税截止日期", "Python 列表推导式",
              "长城的历史", "咖啡豆的烘焙", "马拉松训练计划"]
    with Library(data_dir, models_dir=default_model_root / "models") as lib:
        for i in range(40):
            topic = topics[i % len(topics)]
            lib.add_note(f"{topic} {i}", f"{topic}。这是第 {i} 篇关于{topic}的笔记，记录了一些细节和想法。")
        lib.drain()
        assert lib.model_ready is not None
        lib.model_ready.result()
        tuning = lib.tuning()
        assert tuning is not None and tuning.calibration is not None
        cal = tuning.calibration
        assert cal.sample > 0 and cal.unrelated < cal.related and cal.spread > 0
        assert 0.0 <= cal.fit <= 1.0
        assert cal.han_share == 1.0  # measured on Chinese sentences: the floor is for Chinese questions
        stored = json.loads((data_dir / CACHE_FILE).read_text(encoding="utf-8"))
        assert list(stored) == [f"{USE_SHA}:5"]  # 40 notes: size band log2(40) = 5
    # Another process (a CLI call) reads it instead of measuring again.
    (data_dir / CACHE_FILE).write_text(json.dumps({f"{USE_SHA}:5": {**cal.as_json(), "unrelated": 0.01}}))
    with Library(data_dir, models_dir=default_model_root / "models") as lib:
        assert lib.model_ready is not None
        lib.model_ready.result()
        again = lib.tuning()
        assert again is not None and again.calibration is not None
        assert again.calibration.unrelated == 0.01
    # A damaged file is derived data: measured again, never an error.
    (data_dir / CACHE_FILE).write_text("{not json")
    with Library(data_dir, models_dir=default_model_root / "models") as lib:
        assert lib.model_ready is not None
        lib.model_ready.result()
        third = lib.tuning()
        assert third is not None and third.calibration is not None and third.calibration.unrelated != 0.01


def test_the_estimate_reads_the_unrelated_chunks_once_and_measures_the_same(data_dir: Path) -> None:
    """Every pseudo-question was compared with the same 400 drawn chunks by reading their vectors
    again (128 x 400 slot reads where 400 do); the cosines, and so the estimate, are the same."""
    import engines

    from desktop_kb.retrieval import calibration as cal
    from desktop_kb.retrieval.dense import DenseIndex

    notes = [(f"笔记{n}", f"第{n}篇笔记讲所有权和借用。今天复习第{n}课的生词，明天做第{n}组练习题。")
             for n in range(40)]
    engine = engines.TableEngine("table", 8, {}, {f"第{n}篇": n % 7 for n in range(40)}, 7)
    with engines.embedded_library(data_dir, notes, engine) as lib:
        asked: list[int] = []
        real = DenseIndex.vectors

        def counted(self: DenseIndex, ids, seen=None):  # type: ignore[no-untyped-def]
            ids = list(ids)
            asked.append(len(ids))
            return real(self, ids, seen)

        DenseIndex.vectors = counted  # type: ignore[method-assign]
        try:
            measured = cal.estimate(lib.index_reader, lib.store_reader, engine, lib.dense, sample=16)
        finally:
            DenseIndex.vectors = real  # type: ignore[method-assign]
        assert measured is not None and measured.sample == 16
        assert sum(asked) <= 40 + 16  # the drawn chunks once, each question's own chunk once
        pool_ids, pool = lib.dense.vectors(lib.dense.sample_ids(cal.NEGATIVES, 1))
        expected = []
        for cid, vector in _questions(lib, engine, 16):
            sims = lib.dense.similarities(vector, [c for c in pool_ids.tolist() if c != cid])
            expected.extend(sims.values())
        assert measured.unrelated == round(float(np.mean(expected)), 5)
        assert measured.spread == round(max(float(np.std(expected)), 1e-4), 5)


def _questions(lib: Library, engine: object, sample: int) -> list[tuple[int, np.ndarray]]:
    """The estimate's pseudo-questions and their vectors, drawn as it draws them."""
    from desktop_kb.retrieval import calibration as cal
    from desktop_kb.text.fold import model_text

    rng = np.random.default_rng(0)
    questions = []
    for cid, ref, source in cal._drawn_chunks(lib.index_reader, lib.store_reader, lib.dense.sample_ids(sample * 2, 0)):
        question = cal._pseudo_question(source.text, ref.start, ref.end, rng)
        if question:
            questions.append((cid, question))
        if len(questions) >= sample:
            break
    vectors = engine.embed_queries([model_text(q) for _, q in questions])  # type: ignore[attr-defined]
    return [(cid, v) for (cid, _), v in zip(questions, vectors, strict=True)]


def test_a_library_on_a_read_only_disk_measures_the_model_once(
        tmp_path: Path, default_model_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A library on a CD or a write-protected stick could not keep its measurement beside it, so
    every open (each CLI command, each start of the app) measured the model again: 128
    pseudo-questions embedded, seconds per command. It is kept beside the library's index in the
    per-user cache; one the library carried beside it is read too."""
    import gc

    from mounts import remount, tmpfs

    from desktop_kb.paths import read_only_index_dir
    from desktop_kb.retrieval import tuning as tuning_module

    measured: list[int] = []
    real_estimate = tuning_module.estimate

    def counted(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        measured.append(1)
        return real_estimate(*args, **kwargs)

    monkeypatch.setattr(tuning_module, "estimate", counted)
    topics = ["猫在阳光下睡觉", "如何安装 Docker", "红烧肉的做法", "季度报税截止日期"]

    def calibrated(data_dir: Path) -> Calibration:
        with Library(data_dir, models_dir=default_model_root / "models") as lib:
            assert lib.model_ready is not None
            lib.model_ready.result()
            tuning = lib.tuning()
            assert tuning is not None and tuning.calibration is not None
            return tuning.calibration

    with tmpfs(tmp_path / "stick", 16384) as stick:
        data_dir = stick / "library"
        with Library(data_dir, models_dir=default_model_root / "models") as lib:
            for i in range(40):
                topic = topics[i % len(topics)]
                lib.add_note(f"{topic} {i}", f"{topic}。这是第 {i} 篇关于{topic}的笔记，记录了一些细节。")
            assert lib.drain(120)
            assert lib.model_ready is not None
            lib.model_ready.result()
        (data_dir / CACHE_FILE).unlink(missing_ok=True)  # never measured where it was written
        gc.collect()  # connections other threads opened close when collected
        remount(stick, read_only=True)
        try:
            first = calibrated(data_dir)
            assert len(measured) == 1
            second = calibrated(data_dir)
            assert len(measured) == 1, "measured again on the next open"
            assert second == first
            assert not (data_dir / CACHE_FILE).exists()
        finally:
            remount(stick, read_only=False)
        # Carried beside it (measured before the disk was write-protected): read, not measured.
        carried = {f"{USE_SHA}:5": {**first.as_json(), "unrelated": 0.01}}
        (data_dir / CACHE_FILE).write_text(json.dumps(carried), encoding="utf-8")
        kept = list(read_only_index_dir(data_dir).glob("calibration-*.json"))
        assert len(kept) == 1
        kept[0].unlink()
        remount(stick, read_only=True)
        try:
            assert calibrated(data_dir).unrelated == 0.01 and len(measured) == 1
        finally:
            remount(stick, read_only=False)
