"""The transformer engine and the manager, on a tiny model built by the test.

The model is an embedding lookup masked by ``attention_mask``, so the pooled
vectors can be computed independently with numpy from the same table.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import numpy as np
import onnx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper, numpy_helper
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors

from desktop_kb.embed import (
    EmbeddingEngine,
    ModelInstallError,
    ModelManager,
    ModelNotFoundError,
    NullEngine,
)
from desktop_kb.embed.engine import token_batches

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", ":", "query", "passage"]
VOCAB += ["hello", "world", "cat", "dog", "猫", "狗", "docker", "install"]
IDS = {token: i for i, token in enumerate(VOCAB)}
DIM = 8
MAX_LENGTH = 12


def build_tokenizer(path: Path, *, fixed_padding: bool = False) -> None:
    tokenizer = Tokenizer(models.WordLevel(IDS, unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.BertNormalizer(lowercase=True, handle_chinese_chars=True)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", IDS["[CLS]"]), ("[SEP]", IDS["[SEP]"])]
    )
    if fixed_padding:  # what many exports ship; the engine must override it
        tokenizer.enable_padding(length=64, pad_id=0, pad_token="[PAD]")
    tokenizer.save(str(path))


def build_model(path: Path, table: np.ndarray, type_table: np.ndarray | None, id_type: int) -> None:
    names = ["input_ids", "attention_mask"] + (["token_type_ids"] if type_table is not None else [])
    inputs = [helper.make_tensor_value_info(n, id_type, ["batch", "seq"]) for n in names]
    output = helper.make_tensor_value_info(
        "last_hidden_state", TensorProto.FLOAT, ["batch", "seq", DIM]
    )
    initializers = [
        numpy_helper.from_array(table, "table"),
        numpy_helper.from_array(np.array([2], dtype=np.int64), "axis2"),
    ]
    nodes = [helper.make_node("Gather", ["table", "input_ids"], ["tokens"], axis=0)]
    if type_table is not None:
        initializers.append(numpy_helper.from_array(type_table, "type_table"))
        nodes += [
            helper.make_node("Gather", ["type_table", "token_type_ids"], ["types"], axis=0),
            helper.make_node("Add", ["tokens", "types"], ["embedded"]),
        ]
    else:
        nodes.append(helper.make_node("Identity", ["tokens"], ["embedded"]))
    nodes += [
        helper.make_node("Unsqueeze", ["attention_mask", "axis2"], ["mask3"]),
        helper.make_node("Cast", ["mask3"], ["maskf"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["embedded", "maskf"], ["last_hidden_state"]),
    ]
    graph = helper.make_graph(nodes, "tiny-encoder", inputs, [output], initializer=initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


class Tiny:
    """A tiny model folder plus the tables needed to predict its output."""

    def __init__(self, root: Path, *, pooling: str = "mean", bert_like: bool = False, **manifest):
        rng = np.random.default_rng(7)
        self.table = rng.normal(size=(len(VOCAB), DIM)).astype(np.float32)
        self.type_table = rng.normal(size=(2, DIM)).astype(np.float32) if bert_like else None
        self.folder = root / "export"
        self.folder.mkdir()
        id_type = TensorProto.INT32 if bert_like else TensorProto.INT64
        build_model(self.folder / "model.onnx", self.table, self.type_table, id_type)
        build_tokenizer(self.folder / "tokenizer.json", fixed_padding=bert_like)
        data = {"id": "tiny", "kind": "transformer", "dim": DIM, "pooling": pooling}
        data |= {"max_length": MAX_LENGTH, "licence": "test", **manifest}
        (self.folder / "manifest.json").write_text(json.dumps(data), encoding="utf-8")
        self.manager = ModelManager(root / "data")

    def expected(self, tokens: list[str], pooling: str = "mean") -> np.ndarray:
        ids = [IDS["[CLS]"], *(IDS[t] for t in tokens), IDS["[SEP]"]]
        rows = self.table[ids]
        if self.type_table is not None:
            rows = rows + self.type_table[0]
        vector = rows[0] if pooling == "cls" else rows.mean(axis=0)
        return (vector / np.linalg.norm(vector)).astype(np.float32)


@pytest.fixture
def tiny(tmp_path: Path) -> Tiny:
    return Tiny(tmp_path)


def installed(tiny: Tiny, **kwargs: int) -> EmbeddingEngine:
    tiny.manager.install_from(tiny.folder)
    return tiny.manager.load_engine("tiny", threads=1, **kwargs)


def test_mean_pooling_matches_numpy(tiny: Tiny) -> None:
    engine = installed(tiny)
    assert isinstance(engine, EmbeddingEngine)
    assert (engine.model_id, engine.dim) == ("tiny", DIM)
    got = engine.embed_passages(["Hello world", "猫狗 cat", "install DOCKER!"])
    assert got.dtype == np.float32 and got.shape == (3, DIM)
    np.testing.assert_allclose(got[0], tiny.expected(["hello", "world"]), atol=1e-6)
    np.testing.assert_allclose(got[1], tiny.expected(["猫", "狗", "cat"]), atol=1e-6)
    np.testing.assert_allclose(got[2], tiny.expected(["install", "docker", "[UNK]"]), atol=1e-6)
    np.testing.assert_allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-6)


def test_cls_pooling_with_token_types_and_int32_inputs(tmp_path: Path) -> None:
    tiny = Tiny(tmp_path, pooling="cls", bert_like=True)
    engine = installed(tiny)
    got = engine.embed_queries(["hello", "cat dog dog"])
    for row in got:
        np.testing.assert_allclose(row, tiny.expected([], pooling="cls"), atol=1e-6)
    mean_engine_expected = tiny.expected(["hello"])
    assert not np.allclose(got[0], mean_engine_expected)


def test_batches_match_one_by_one(tiny: Tiny) -> None:
    engine = installed(tiny, batch_size=3)
    texts = ["cat", "", "hello world dog cat 猫", "docker install", "狗", "dog dog dog dog", "x"]
    together = engine.embed_passages(texts)
    alone = np.vstack([engine.embed_passages([t]) for t in texts])
    np.testing.assert_allclose(together, alone, atol=1e-6)


def test_prefixes_come_from_the_manifest(tmp_path: Path) -> None:
    tiny = Tiny(tmp_path, query_prefix="query: ", passage_prefix="passage: ")
    engine = installed(tiny)
    query, passage = engine.embed_queries(["cat"])[0], engine.embed_passages(["cat"])[0]
    np.testing.assert_allclose(query, tiny.expected(["query", ":", "cat"]), atol=1e-6)
    np.testing.assert_allclose(passage, tiny.expected(["passage", ":", "cat"]), atol=1e-6)
    assert not np.allclose(query, passage)


def test_empty_inputs_and_truncation(tiny: Tiny) -> None:
    engine = installed(tiny)
    assert engine.embed_queries([]).shape == (0, DIM)
    assert engine.embed_passages([]).dtype == np.float32
    empty, long = engine.embed_passages(["", "cat " * 5000])
    np.testing.assert_allclose(empty, tiny.expected([]), atol=1e-6)
    np.testing.assert_allclose(long, tiny.expected(["cat"] * (MAX_LENGTH - 2)), atol=1e-6)


def test_concurrent_callers_get_the_same_answers(tiny: Tiny) -> None:
    engine = installed(tiny)
    texts = ["hello world", "猫 狗", "docker"] * 5
    reference = engine.embed_passages(texts)
    results: list[np.ndarray] = []

    def work() -> None:
        for _ in range(20):
            results.append(engine.embed_queries(texts))

    threads = [threading.Thread(target=work) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 60
    for result in results:
        np.testing.assert_allclose(result, reference, atol=1e-6)


def test_manifest_sha256_is_filled_and_listed(tiny: Tiny) -> None:
    progress: list[tuple[str, int, int]] = []
    manifest = tiny.manager.install_from(tiny.folder, progress=lambda *a: progress.append(a))
    assert len(manifest.sha256) == 64
    assert tiny.manager.manifest("tiny") == manifest
    assert [m.id for m in tiny.manager.list_installed()] == ["tiny"]
    assert tiny.manager.verify("tiny")
    assert progress[-1][0] == "copy" and progress[-1][1] == progress[-1][2] > 0
    stored = json.loads((tiny.manager.models_dir / "tiny" / "manifest.json").read_text("utf-8"))
    assert stored["sha256"] == manifest.sha256 and stored["pooling"] == "mean"


def test_reinstall_replaces_and_remove_deletes(tiny: Tiny) -> None:
    tiny.manager.install_from(tiny.folder)
    tiny.manager.install_from(tiny.folder)
    assert [p.name for p in tiny.manager.models_dir.iterdir()] == ["tiny"]
    tiny.manager.remove("tiny")
    assert list(tiny.manager.models_dir.iterdir()) == []
    with pytest.raises(ModelNotFoundError):
        tiny.manager.load_engine("tiny")


@pytest.mark.parametrize(
    ("override", "message"),
    [({"sha256": "0" * 64}, "sha256"), ({"dim": DIM + 1}, "manifest dim is 9")],
)
def test_bad_manifest_is_rejected_without_leftovers(
    tmp_path: Path, override: dict[str, object], message: str
) -> None:
    tiny = Tiny(tmp_path, **override)
    with pytest.raises(ModelInstallError, match=message):
        tiny.manager.install_from(tiny.folder)
    assert list(tiny.manager.models_dir.iterdir()) == []
    assert tiny.manager.list_installed() == []


def test_null_engine_has_no_dimensions() -> None:
    engine = NullEngine()
    assert isinstance(engine, EmbeddingEngine)
    assert engine.embed_queries(["a", "b"]).shape == (2, 0)
    assert engine.embed_passages([]).shape == (0, 0)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 600), max_size=80),
    st.integers(1, 5000),
    st.integers(1, 40),
)
def test_token_batches_cover_every_row_once_within_the_budget(
    lengths: list[int], budget: int, rows: int
) -> None:
    seen: list[int] = []
    for batch in token_batches(lengths, budget, rows):
        assert batch and len(batch) <= rows
        longest = max(max(1, lengths[i]) for i in batch)
        assert len(batch) == 1 or len(batch) * longest <= budget  # one long row may exceed it
        seen.extend(batch)
    assert sorted(seen) == list(range(len(lengths)))
    order = [lengths[i] for i in seen]
    assert order == sorted(order)  # similar lengths share a batch


def test_mixed_lengths_pad_little_and_match_one_by_one(tiny: Tiny) -> None:
    engine = installed(tiny, batch_size=64)
    texts = ["cat"] * 30 + ["hello world cat dog 猫 狗 docker install"] * 3 + ["dog"]
    together = engine.embed_passages(texts)
    alone = np.vstack([engine.embed_passages([t]) for t in texts])
    np.testing.assert_allclose(together, alone, atol=1e-6)


class _RunSpy:
    """The engine's session, recording the run options of every run."""

    def __init__(self, session: object) -> None:
        self._session = session
        self.options: list[object] = []

    def run(self, outputs: object, feed: object, run_options: object = None) -> object:
        self.options.append(run_options)
        return self._session.run(outputs, feed, run_options)  # type: ignore[attr-defined]


def _releases(options: object) -> bool:
    return options is not None and options.get_run_config_entry(  # type: ignore[attr-defined]
        "memory.enable_memory_arena_shrinkage") == "cpu:0"


def test_a_page_of_passages_hands_the_arena_back_and_queries_keep_it(tiny: Tiny) -> None:
    """onnxruntime's CPU arena kept what the largest batch of a backfill page needed for the life
    of the process (the default model: 227 -> 508 MB after one page of 800-character passages,
    e5 455 -> 806 MB). The last batch of every embed_passages call now releases it; the vectors
    are the same, and queries (one small batch each) keep theirs."""
    engine = installed(tiny, batch_size=2)
    texts = ["cat", "hello world dog cat 猫", "docker install", "狗", "dog dog dog dog"]
    before = engine.embed_passages(texts)
    spy = engine._session = _RunSpy(engine._session)  # type: ignore[attr-defined]
    np.testing.assert_array_equal(engine.embed_passages(texts), before)
    assert len(spy.options) == 3
    assert [_releases(o) for o in spy.options] == [False, False, True]
    spy.options.clear()
    engine.embed_queries(["cat dog"])
    assert spy.options == [None]
