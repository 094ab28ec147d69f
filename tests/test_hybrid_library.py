"""Hybrid retrieval through the Library with real onnxruntime sessions (I6, I7).

Uses the real default model (installed once per session by pip through the
model manager) and a tiny transformer model built by the test for model switches.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from desktop_kb.embed import DEFAULT_MODEL, EmbeddingEngine
from desktop_kb.library import Library

pytestmark = pytest.mark.slow

NOTES = [
    ("Docker", "如何在服务器上安装 Docker？先更新软件源，再安装 docker-ce。"),
    ("天气", "今天天气很好，我们去公园散步吧。"),
    ("猫", "我的猫喜欢在阳光下睡觉。"),
    ("GitLab", "团队的代码托管在 gitlab 上，合并请求需要两人审核。"),
    ("版本控制", "版本控制系统帮助团队协作管理源代码和历史记录。"),
    ("代码审查", "代码审查能发现缺陷，也能在团队里传播知识。"),
    ("分支", "使用功能分支开发新特性，完成后再合并到主分支。"),
]


@pytest.fixture
def hybrid(data_dir: Path, default_model_root: Path) -> Iterator[Library]:
    lib = Library(data_dir, models_dir=default_model_root / "models")
    ids = [lib.add_note(t, b) for t, b in NOTES]
    lib.drain()
    assert lib.model_ready is not None
    lib.model_ready.result()
    lib.ids = ids  # type: ignore[attr-defined]
    yield lib
    lib.close()


def top(lib: Library, query: str, mode: str | None = None, n: int = 3) -> list[int]:
    return [r.source_id for r in lib.search(query, limit=n, mode=mode).results]


def test_default_model_is_used_and_every_chunk_has_one_vector(hybrid: Library) -> None:
    assert hybrid.active_model_name() == DEFAULT_MODEL
    assert hybrid.default_mode() == "hybrid"
    conn = hybrid.index_reader
    chunks = conn.execute("SELECT count(*) FROM kb_chunks").fetchone()[0]
    models = conn.execute("SELECT DISTINCT model_id FROM kb_vectors").fetchall()
    assert conn.execute("SELECT count(*) FROM kb_vectors").fetchone()[0] == chunks == len(hybrid.dense)
    assert models == [(DEFAULT_MODEL,)]
    assert hybrid.index_status().embed_model == DEFAULT_MODEL
    assert hybrid.verify(repair=False).drift == 0


def test_finds_by_meaning_across_languages(hybrid: Library) -> None:
    ids = hybrid.ids  # type: ignore[attr-defined]
    assert hybrid.search("cat sleeping in the sun", mode="lexical").results == []
    assert top(hybrid, "cat sleeping in the sun", n=1) == [ids[2]]
    assert top(hybrid, "How do I install Docker?", n=1) == [ids[0]]
    assert top(hybrid, "nice weather for a walk", mode="dense", n=1) == [ids[1]]


def test_exact_identifier_hit_stays_in_top_three(hybrid: Library) -> None:
    ids = hybrid.ids  # type: ignore[attr-defined]
    assert ids[3] in top(hybrid, "gitlab", n=3)
    assert ids[0] in top(hybrid, "docker-ce", n=3)


def test_vectors_follow_edits_and_deletes(hybrid: Library) -> None:
    ids = hybrid.ids  # type: ignore[attr-defined]
    hybrid.save_note(ids[2], body="我的狗喜欢在草地上奔跑。")
    hybrid.drain()
    assert top(hybrid, "a dog running on the grass", n=1) == [ids[2]]
    hybrid.delete_note(ids[2])
    hybrid.drain()
    assert ids[2] not in top(hybrid, "a dog running on the grass", mode="dense", n=10)
    conn = hybrid.index_reader
    chunks = conn.execute("SELECT count(*) FROM kb_chunks").fetchone()[0]
    assert conn.execute("SELECT count(*) FROM kb_vectors").fetchone()[0] == chunks == len(hybrid.dense)


class CountingEngine:
    """Wraps the real engine to count passages it is asked to embed."""

    def __init__(self, inner: EmbeddingEngine) -> None:
        self.inner = inner
        self.passages = 0

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self.inner.embed_queries(texts)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        self.passages += len(texts)
        return self.inner.embed_passages(texts)


def test_rebuild_and_unchanged_text_never_re_embed(hybrid: Library) -> None:
    counting = CountingEngine(hybrid.engine)  # type: ignore[arg-type]
    hybrid.worker.set_engine(lambda: counting).result()
    assert counting.passages == 0
    hybrid.rebuild()
    assert counting.passages == 0  # every chunk came from the cache
    ids = hybrid.ids  # type: ignore[attr-defined]
    hybrid.save_note(ids[1], title="新标题")  # title change only: chunk text unchanged
    hybrid.drain()
    assert counting.passages == 0
    hybrid.add_note("new", "全新的内容需要嵌入。")
    hybrid.drain()
    assert counting.passages == 1
    assert hybrid.verify(repair=False).drift == 0


def test_model_switch_never_mixes_vectors(hybrid: Library, tmp_path: Path) -> None:
    from test_embed_transformer import Tiny

    tiny = Tiny(tmp_path)
    hybrid.models.install_from(tiny.folder)
    try:
        embedded = hybrid.use_model("tiny").result()
        conn = hybrid.index_reader
        chunks = conn.execute("SELECT count(*) FROM kb_chunks").fetchone()[0]
        assert embedded == chunks
        assert conn.execute("SELECT DISTINCT model_id FROM kb_vectors").fetchall() == [("tiny",)]
        assert hybrid.dense.model_id == "tiny" and hybrid.dense.dim == 8
        assert hybrid.search("docker").results  # hybrid still works with the other model
        hybrid.use_model(None).result()
        assert conn.execute("SELECT count(*) FROM kb_vectors").fetchone()[0] == 0
        response = hybrid.search("cat sleeping", mode="hybrid")
        assert response.mode == "lexical" and "keyword search only" in response.notice
        hybrid.use_model(DEFAULT_MODEL).result()  # back: vectors from the cache, one model only
        assert conn.execute("SELECT DISTINCT model_id FROM kb_vectors").fetchall() == [(DEFAULT_MODEL,)]
    finally:
        hybrid.models.remove("tiny")


def test_without_a_model_everything_is_lexical_and_says_so(data_dir: Path) -> None:
    lib = Library(data_dir)
    try:
        lib.add_note("t", "用 Docker 安装 GitLab")
        lib.drain()
        assert lib.default_mode() == "lexical"
        assert lib.search("gitlab").results
        dense = lib.search("gitlab", mode="dense")
        assert dense.results == [] and "keyword search only" in dense.notice
        assert lib.index_status().embed_model == ""
    finally:
        lib.close()


def run_cli(root: Path, *args: str) -> dict:
    proc = subprocess.run([sys.executable, "-m", "desktop_kb", "--data-dir", str(root), *args, "--json"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    return json.loads(proc.stdout)


def test_cli_models_search_modes_and_eval(default_model_root: Path, tmp_path: Path) -> None:
    root = tmp_path / "lib"
    root.mkdir()
    (root / "models").symlink_to(default_model_root / "models")
    listing = run_cli(root, "models", "list")
    assert listing["active"] == DEFAULT_MODEL
    assert any(m["id"] == DEFAULT_MODEL and m["installed"] for m in listing["models"])
    note = run_cli(root, "note", "add", "--title", "猫", "--body", "我的猫喜欢在阳光下睡觉。")["id"]
    run_cli(root, "note", "add", "--title", "天气", "--body", "今天天气很好。")
    assert run_cli(root, "search", "cat sleeping", "--mode", "lexical")["results"] == []
    dense = run_cli(root, "search", "cat sleeping", "--mode", "dense")
    assert dense["mode"] == "dense" and dense["results"][0]["source_id"] == note
    assert run_cli(root, "search", "cat sleeping")["mode"] == "hybrid"

    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("The cat is sleeping.\t猫在睡觉。\nIt is raining today.\t今天下雨了。\n"
                     "I like green tea.\t我喜欢绿茶。\nWhere is the station?\t车站在哪里？\n",
                     encoding="utf-8")
    result = run_cli(root, "eval", str(pairs))
    assert (result["n_queries"], result["n_docs"], result["model"]) == (4, 4, DEFAULT_MODEL)
    assert result["dense"]["r1"] == 1.0 and result["lexical"]["r1"] == 0.0
    assert result["hybrid"]["r1"] >= max(result["dense"]["r1"], result["lexical"]["r1"])
    assert set(result["timing"]) == {"index_s", "lexical_index_s", "embed_chunks_per_s",
                                     "query_ms_p50", "query_ms_p99"}
    squad = tmp_path / "set.json"
    squad.write_text(json.dumps({"data": [{"paragraphs": [
        {"context": "长城是中国古代的军事防御工程。它的总长度超过两万公里。",
         "qas": [{"question": "长城的总长度是多少？", "answers": [{"text": "两万公里"}]}]},
        {"context": "熊猫主要生活在四川的山区。它们以竹子为食。",
         "qas": [{"question": "熊猫吃什么？", "answers": [{"text": "竹子"}]}]},
    ]}]}, ensure_ascii=False), encoding="utf-8")
    result = run_cli(root, "eval", str(squad), "--budget-chars", "80")
    assert result["lexical"]["r1"] == 1.0
    assert result["context"]["budget_chars"] == 80
    assert result["context"]["answer_in_context"] == 1.0 and result["context"]["mean_chars"] <= 80


def test_off_topic_query_shows_no_results_instead_of_noise(hybrid: Library) -> None:
    response = hybrid.search("sourdough starter hydration ratio")
    assert response.results == [] and "nothing in the library" in response.notice
    assert hybrid.search("cat sleeping in the sun").results  # a real match is unaffected


def test_the_model_reads_both_scripts_alike(hybrid: Library) -> None:
    """A Simplified question scores a Traditional passage exactly as its Traditional
    spelling does: the model reads both in one script (text/fold.py model_text)."""
    trad = hybrid.add_note("備份", "這個軟體會在伺服器上自動備份資料庫，每天凌晨執行一次。")
    hybrid.drain()

    def cosine(query: str) -> float:
        hits = {r.source_id: r.dense_score for r in hybrid.search(query, limit=10, mode="dense").results}
        return hits[trad]

    simplified, traditional = "软体怎么自动备份资料库", "軟體怎麼自動備份資料庫"
    assert cosine(simplified) == pytest.approx(cosine(traditional), abs=1e-6)
    assert cosine(simplified) > 0.3
