"""While the installed embedding model is still loading, the app says so: the related panel and
the status bar must not tell the person to install the model they already have."""

from __future__ import annotations

from pathlib import Path

import pytest
from first_held import FirstCallHeld
from test_embed_transformer import Tiny
from test_gui_support import gui_marks, open_window

from desktop_kb.embed.manager import ModelManager
from desktop_kb.library import Library

pytestmark = gui_marks()


def test_a_model_still_loading_is_named_loading_not_missing(
    qtbot, data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch  # noqa: ANN001
) -> None:
    tiny = Tiny(tmp_path)
    with Library(data_dir) as lib:
        lib.models.install_from(tiny.folder)
        lib.use_model("tiny").result()
        lib.add_note("Docker 笔记", "用 docker-compose.yml 启动 GitLab 容器。")
        lib.add_note("GitLab", "GitLab 在 Docker 容器里运行，docker-compose.yml 写好端口。")
        assert lib.drain(20)
    # The next start's load is held (the real load, later): a slow disk, a big model.
    held = FirstCallHeld(ModelManager.load_engine)
    monkeypatch.setattr(ModelManager, "load_engine", lambda self, *a, **k: held(self, *a, **k))
    window = open_window(qtbot, data_dir)
    try:
        assert held.called.wait(30)
        panel = window.related_panel
        qtbot.waitUntil(lambda: panel.view is not None and not panel.rendering, timeout=10000)
        assert panel.view.result.mode == "lexical"
        qtbot.waitUntil(lambda: panel.degraded.isVisible(), timeout=5000)
        assert "still loading" in panel.degraded.text() and "install" not in panel.degraded.text()
        label = window.meaning.label
        qtbot.waitUntil(lambda: label.isVisible() and label.text() == "Meaning search loading…", timeout=5000)
        assert window.degraded.text() == ""  # not "No embedding model — keyword search only"
    finally:
        held.release.set()
    # Loaded: meaning search is on, and the panel refreshes by itself with the model.
    qtbot.waitUntil(lambda: label.text() == "Meaning search on", timeout=20000)
    qtbot.waitUntil(lambda: panel.view is not None and panel.view.result.mode == "hybrid"
                    and not panel.degraded.isVisible(), timeout=20000)


def test_a_model_that_cannot_be_loaded_is_not_called_on(qtbot, data_dir: Path, tmp_path: Path) -> None:  # noqa: ANN001
    # The status bar said "Meaning search on" (in green) beside "1 failed ⚠" while the chosen
    # model could not be loaded and every search was keywords only.
    tiny = Tiny(tmp_path)
    with Library(data_dir) as lib:
        lib.models.install_from(tiny.folder)
        lib.use_model("tiny").result()
        lib.add_note("Docker 笔记", "用 docker-compose.yml 启动 GitLab 容器。")
        assert lib.drain(20)
    (data_dir / "models" / "tiny" / "model.onnx").write_bytes(b"not an onnx graph")  # a damaged file
    window = open_window(qtbot, data_dir)
    label = window.meaning.label
    qtbot.waitUntil(lambda: window.index.last_status is not None
                    and window.index.last_status.model_error is not None, timeout=20000)
    qtbot.waitUntil(lambda: label.text() == "Meaning search off ⚠", timeout=5000)
    assert "could not be loaded" in label.toolTip()
