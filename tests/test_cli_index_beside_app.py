"""``desktop-kb index …`` beside the app, which keeps the index.

Every command loaded the embedding model, and a status loads it only to drop it: polled by a
script beside the app on a loaded machine, each ``index status`` took 30-80 s, most of it
loading the model, and a status that ended while the model still loaded aborted the process.
Where the command keeps the index itself it indexes and embeds, so it loads the model then.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from desktop_kb.cli.index import open_for_index
from desktop_kb.embed import DEFAULT_MODEL
from desktop_kb.library import Library


def test_index_commands_load_the_model_only_where_they_keep_the_index(
        data_dir: Path, default_model_root: Path) -> None:
    (data_dir / "models").mkdir()
    (data_dir / "models" / DEFAULT_MODEL).symlink_to(default_model_root / "models" / DEFAULT_MODEL)
    args = argparse.Namespace(data_dir=str(data_dir))
    with Library(data_dir, role="app") as app:  # the window: it keeps the index, with its model
        app.add_note("所有权", "Rust 的所有权规则 zqbeside")
        assert app.model_ready is not None
        app.model_ready.result()
        assert app.drain(120) and app.worker.is_owner
        with open_for_index(args) as lib:
            assert not lib.worker.is_owner
            assert lib.model_ready is None and lib.engine is None
            status = lib.index_status()
            assert status.state == "ok" and status.embed_model == DEFAULT_MODEL and status.missing_vectors == 0
    with open_for_index(args) as lib:  # alone, it keeps the index: it embeds what is waiting
        assert lib.worker.is_owner
        assert lib.model_ready is not None
        lib.model_ready.result()
        assert lib.engine is not None and lib.engine.model_id == DEFAULT_MODEL


def test_a_status_beside_the_app_says_the_apps_model_failed(data_dir: Path, tmp_path: Path) -> None:
    # The status beside the app loads no model of its own, so only the app knows its model
    # could not be loaded (a damaged file): the status said 'ok' (or 'embedding' for ever)
    # while every search was keywords only; loading it itself, it used to say 'failed'.
    import subprocess
    import sys

    from test_embed_transformer import Tiny

    tiny = Tiny(tmp_path)
    with Library(data_dir) as lib:
        lib.models.install_from(tiny.folder)
        lib.use_model("tiny").result()
        lib.add_note("Docker 笔记", "用 docker-compose.yml 启动 GitLab 容器。")
        assert lib.drain(60)
    (data_dir / "models" / "tiny" / "model.onnx").write_bytes(b"not an onnx graph")

    def status() -> str:
        return subprocess.run([sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir), "index", "status"],
                              capture_output=True, text=True, encoding="utf-8", timeout=120).stdout

    with Library(data_dir, role="app") as app:
        assert app.model_ready is not None and app.model_ready.exception(60) is not None
        assert app.drain(60) and app.worker.is_owner and app.model_error is not None
        shown = status()
        assert shown.startswith("failed:") and "model failed: tiny" in shown, shown
    # Closed, the app's word is gone with it: the next owner says for itself.
    shown = status()
    assert shown.startswith("failed:") and "model failed: tiny" in shown, shown
