"""The relevance floor: the per-question baseline, scripts, and a library's script read from its text."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from desktop_kb.library import Library
from desktop_kb.retrieval.calibration import Calibration
from desktop_kb.retrieval.floor_reference import FloorReference, encode_centroid, reference_of
from desktop_kb.retrieval.fusion import DEFAULT_PARAMS, relevance_floor
from desktop_kb.retrieval.tuning import CACHE_FILE, TuningSource, shipped_calibrations

CHINESE = Calibration(unrelated=0.84, spread=0.02, related=0.94, han_share=1.0)
ENGLISH = Calibration(unrelated=0.84, spread=0.02, related=0.94, han_share=0.0)
PRIOR = {"unrelated": 0.84, "spread": 0.02, "related": 0.94}


def _unit(*values: float) -> np.ndarray:
    v = np.asarray(values, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_the_per_question_floor_stands_on_the_question_s_own_baseline() -> None:
    centroid = _unit(1.0, 0.0, 0.0) * 0.9
    reference = FloorReference(centroid, closeness=0.2)
    everywhere = _unit(1.0, 0.1, 0.0)  # close to ordinary passages: a high baseline
    nowhere = _unit(0.0, 1.0, 0.0)
    high = relevance_floor(CHINESE, DEFAULT_PARAMS, True, everywhere, reference)
    low = relevance_floor(CHINESE, DEFAULT_PARAMS, True, nowhere, reference)
    absolute = CHINESE.cosine_at_closeness(DEFAULT_PARAMS.floor_closeness)
    assert high == pytest.approx(float(everywhere @ centroid) + 0.2 * 0.1)
    assert low == pytest.approx(absolute)  # under either floor: the higher one decides
    assert relevance_floor(CHINESE, DEFAULT_PARAMS, True, None, reference) == pytest.approx(absolute)
    # Another model's vector (another dimension) is not read against this centroid.
    assert relevance_floor(CHINESE, DEFAULT_PARAMS, True, _unit(1.0, 0.0), reference) == pytest.approx(absolute)


def test_across_scripts_only_what_was_measured_held_out() -> None:
    chinese_passages, english_passages = _unit(1.0, 0.0, 0.0), _unit(0.0, 1.0, 0.0)
    english_question, chinese_question = _unit(0.0, 1.0, 0.0), _unit(1.0, 0.0, 0.0)
    absolute = CHINESE.cosine_at_closeness(DEFAULT_PARAMS.floor_closeness)
    english_absolute = ENGLISH.cosine_at_closeness(DEFAULT_PARAMS.floor_closeness)
    # English on Chinese text: the per-question floor, read against Chinese passages
    # (Tatoeba en->zh held out) ...
    plain = FloorReference(chinese_passages * 0.5, 0.2)
    assert relevance_floor(CHINESE, DEFAULT_PARAMS, False, chinese_question, plain) == pytest.approx(0.5 + 0.02)
    # ... and the absolute one only for a model where it held out both ways.
    crossing = FloorReference(chinese_passages * 0.5, 0.2, across_scripts=True)
    assert relevance_floor(CHINESE, DEFAULT_PARAMS, False, english_question, crossing) == pytest.approx(absolute)
    assert relevance_floor(CHINESE, DEFAULT_PARAMS, False, english_question, plain) == pytest.approx(0.02)
    # Without a reference (a model we never fitted): no floor across scripts, as before.
    assert relevance_floor(CHINESE, DEFAULT_PARAMS, False, english_question, None) is None
    # Chinese on English text: read against Chinese passages a question sits too low (e5:
    # 13 % of those with their answer there would be silenced), so only with an English centroid.
    assert relevance_floor(ENGLISH, DEFAULT_PARAMS, True, chinese_question, plain) is None
    bilingual = FloorReference(chinese_passages * 0.9, 0.2, english=english_passages * 0.3)
    assert relevance_floor(ENGLISH, DEFAULT_PARAMS, True, chinese_question, bilingual) == pytest.approx(0.0 + 0.02)
    assert relevance_floor(ENGLISH, DEFAULT_PARAMS, False, english_question, bilingual) == pytest.approx(
        max(0.3 + 0.02, english_absolute))
    both_ways = FloorReference(chinese_passages, 0.2, across_scripts=True)
    assert relevance_floor(ENGLISH, DEFAULT_PARAMS, True, chinese_question, both_ways) == pytest.approx(
        english_absolute)


def test_the_baseline_is_read_in_the_library_s_languages() -> None:
    chinese, english = _unit(1.0, 0.0), _unit(0.0, 1.0)
    reference = FloorReference(chinese, 0.1, english=english)
    question = _unit(1.0, 1.0)
    assert reference.baseline(question, 1.0) == pytest.approx(float(question @ chinese))
    assert reference.baseline(question, 0.0) == pytest.approx(float(question @ english))
    assert reference.baseline(question, 0.25) == pytest.approx(float(question @ (0.25 * chinese + 0.75 * english)))
    assert reference.baseline(question, -1.0) == pytest.approx(float(question @ chinese))  # script unknown
    assert FloorReference(chinese, 0.1).baseline(question, 0.0) == pytest.approx(float(question @ chinese))


def test_a_reference_is_read_whole_or_not_at_all() -> None:
    centroid = np.linspace(-0.1, 0.1, 384).astype(np.float32)
    floor = {"reference": encode_centroid(centroid), "closeness": 0.19, "across_scripts": True}
    parsed = reference_of({"floor": floor})
    assert parsed is not None and parsed.closeness == 0.19 and parsed.across_scripts
    assert np.array_equal(parsed.centroid, centroid)
    english = reference_of({"floor": {**floor, "reference_en": encode_centroid(-centroid)}})
    assert english is not None and english.english is not None and np.array_equal(english.english, -centroid)
    for odd in (encode_centroid(centroid[:10]), "%%", 3):  # another dimension, not base64, not text
        lone = reference_of({"floor": {**floor, "reference_en": odd}})
        assert lone is not None and lone.english is None  # the Chinese centroid still serves
    loose = reference_of({"floor": {**floor, "across_scripts": "yes"}})
    assert loose is not None and not loose.across_scripts  # only a JSON true says so
    nan = encode_centroid(np.full(4, np.nan))
    for broken in ({}, {"floor": "x"}, {"floor": {"closeness": 0.1}}, {"floor": {**floor, "reference": "%%"}},
                   {"floor": {**floor, "reference": "AAA="}}, {"floor": {**floor, "reference": nan}},
                   {"floor": {**floor, "closeness": "high"}}, {"floor": {**floor, "reference": ""}}):
        assert reference_of(broken) is None


def test_every_shipped_model_has_a_per_question_floor_of_its_own_dimension() -> None:
    dims = {"use-multilingual": 512, "multilingual-e5-small": 384, "multilingual-e5-small-float": 384}
    shipped = shipped_calibrations()
    assert shipped
    for sha, entry in shipped.items():
        reference = reference_of(entry)
        assert reference is not None, sha
        assert reference.centroid.shape == (dims[entry["model"]],)
        assert reference.english is not None and reference.english.shape == reference.centroid.shape
        # A passage centroid of unit vectors: its length is the mean cosine of two passages.
        assert 0.0 < float(np.linalg.norm(reference.centroid)) < 1.0
        assert 0.0 <= reference.closeness < 1.0


class _HashEngine:
    """Deterministic unit vectors from a hash: the point here is the library's text, not meaning."""

    dim = 8
    model_id = "hash-floor"

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        rows = [np.frombuffer(hashlib.sha256(t.encode()).digest()[:8], dtype=np.uint8).astype(np.float32) + 1
                for t in texts]
        return np.stack([r / np.linalg.norm(r) for r in rows]) if rows else np.zeros((0, 8), np.float32)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts)


def _library(data_dir: Path, notes: Sequence[tuple[str, str]]) -> tuple[Library, _HashEngine]:
    lib = Library(data_dir, load_model=False)
    for title, body in notes:
        lib.add_note(title, body)
    engine = _HashEngine()
    lib.worker.set_engine(lambda: engine).result(60)
    lib.drain()
    assert lib.dense.ready and len(lib.dense) == len(notes)
    return lib, engine


def test_a_one_note_chinese_library_knows_its_script(data_dir: Path) -> None:
    lib, engine = _library(data_dir, [("红烧肉", "红烧肉的做法：五花肉切块，冰糖炒出糖色。加生抽老抽焖一个小时。")])
    try:
        tuning = TuningSource(data_dir).tuning(lib.index_reader, lib.store_reader, engine, lib.dense,
                                               "sha-x", PRIOR)
        assert tuning.calibration is not None and tuning.calibration.sample == 0  # the prior
        assert tuning.calibration.han_share == 1.0  # read from the note's own sentences
        assert tuning.reference is None  # a model never fitted: the absolute floor only
        # So an English question about it is not judged by a floor fitted on Chinese ones.
        assert relevance_floor(tuning.calibration, tuning.params, query_has_han=False) is None
        assert relevance_floor(tuning.calibration, tuning.params, query_has_han=True) is not None
    finally:
        lib.close()


def test_a_mostly_english_library_is_english(data_dir: Path) -> None:
    lib, engine = _library(data_dir, [
        ("gitlab", "Install GitLab with Docker. Write a docker-compose.yml first. Then run it."),
        ("词", "容器是一个轻量的运行环境。"),
    ])
    try:
        tuning = TuningSource(data_dir).tuning(lib.index_reader, lib.store_reader, engine, lib.dense,
                                               "sha-x", PRIOR)
        assert tuning.calibration is not None
        share = tuning.calibration.han_share
        assert 0.0 < share < 0.5  # one Chinese sentence of four (titles may add their own)
    finally:
        lib.close()


def test_a_stored_estimate_without_a_script_gets_one_now(data_dir: Path) -> None:
    notes = [(f"note {i}", f"Plain English note number {i}. It talks about topic {i % 5}.") for i in range(30)]
    lib, engine = _library(data_dir, notes)
    try:
        key = f"sha-x:{int(np.log2(len(lib.dense)))}"
        old = {"unrelated": 0.1, "spread": 0.1, "related": 0.7, "dense_found": 0.9, "lexical_found": 1.0,
               "sample": 128}  # written before han_share existed
        (data_dir / CACHE_FILE).write_text(json.dumps({key: old}), encoding="utf-8")
        tuning = TuningSource(data_dir).tuning(lib.index_reader, lib.store_reader, engine, lib.dense,
                                               "sha-x", {})
        assert tuning.calibration is not None and tuning.calibration.unrelated == 0.1  # the stored estimate
        assert tuning.calibration.han_share == 0.0  # measured now, not at the next size band
        stored = json.loads((data_dir / CACHE_FILE).read_text(encoding="utf-8"))
        assert stored[key]["han_share"] == 0.0 and stored[key]["unrelated"] == 0.1  # and remembered
    finally:
        lib.close()
