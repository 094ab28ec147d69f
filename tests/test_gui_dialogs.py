"""Import with its summary, rebuild with progress and cancel, verify, settings and keyring."""

from __future__ import annotations

import threading
from pathlib import Path

import keyring
import pytest
from keyring.backends import fail
from PySide6.QtWidgets import QPushButton
from test_gui_support import gui_marks, open_window, wait_index_idle

from desktop_kb import secrets

pytestmark = gui_marks()


@pytest.fixture
def study_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "study"
    (folder / "sub").mkdir(parents=True)
    (folder / "docker.md").write_text(
        "# Docker 安装\n\n用 Docker 安装 GitLab。\n\n## 配置\n\n修改 docker-compose.yml 后重启。\n",
        encoding="utf-8")
    (folder / "sub" / "notes.txt").write_text("Spaced repetition helps memory.\n\n间隔重复有助于记忆。\n",
                                              encoding="utf-8")
    (folder / "blob.md").write_bytes(b"\x00\x01\x02binary")
    (folder / ".secret.md").write_text("hidden", encoding="utf-8")
    (folder / "image.png").write_bytes(b"\x89PNG")
    return folder


def test_import_folder_shows_summary_and_fills_the_library(qtbot, data_dir: Path, study_folder: Path) -> None:
    window = open_window(qtbot, data_dir)
    with qtbot.waitSignal(window.import_export.importFinished, timeout=20000) as done:
        window.import_export.import_paths([study_folder])
    summary = done.args[0]
    assert summary.added == 2 and dict(summary.per_format) == {"md": 1, "txt": 1}
    dialog = window.import_export.import_summary
    assert dialog is not None and dialog.isVisible()
    formats = {dialog.formats.topLevelItem(i).text(0): dialog.formats.topLevelItem(i).text(1)
               for i in range(dialog.formats.topLevelItemCount())}
    assert formats == {"md": "1", "txt": "1"}
    skipped = [dialog.skipped.topLevelItem(i).text(0) for i in range(dialog.skipped.topLevelItemCount())]
    assert any(p.endswith("blob.md") for p in skipped)
    assert "binary" in dialog.skipped.topLevelItem(0).text(1)
    assert dialog.hidden_count == 1 and "1 hidden item" in dialog.hidden.text()
    dialog.accept()

    qtbot.waitUntil(lambda: len(window.tree.documents) == 2, timeout=5000)
    doc = next(d for d in window.tree.documents.values() if d.path.endswith("docker.md"))
    window.tree.documentActivated.emit(doc.id)  # a double-click in the tree
    qtbot.waitUntil(lambda: window.centre.currentWidget() is window.reader, timeout=5000)
    assert window.reader.document.id == doc.id
    assert all(f.text in window.reader.text.toPlainText() for f in window.reader.fragments)
    assert window.reader.outline.topLevelItemCount() >= 1

    # A fragment found by search opens scrolled to the hit, with the terms highlighted.
    wait_index_idle(qtbot, window)
    window.global_search.open_search_text("docker-compose.yml")
    qtbot.waitUntil(lambda: bool(window.search.results), timeout=5000)
    assert window.search.results[0].source_type == "fragment"
    window.search.open_current()
    qtbot.waitUntil(lambda: bool(window.reader.text.extraSelections()), timeout=5000)

    # New note from selection quotes the passage, links to it and keeps its local-only flag.
    hit_fragment = window.reader._focus[0]
    fragment_id = window.reader.fragments[hit_fragment].id
    window.tree.localOnlyRequested.emit(window.reader.document.id, True)
    qtbot.waitUntil(lambda: window.reader.local_button.isChecked(), timeout=5000)
    cursor = window.reader.text.textCursor()
    start = window.reader._starts[hit_fragment]
    cursor.setPosition(start)
    cursor.setPosition(start + 6, cursor.MoveMode.KeepAnchor)
    window.reader.text.setTextCursor(cursor)
    with qtbot.waitSignal(window.notes.noteCreated, timeout=5000) as created:
        window.reader.new_note_button.click()
    assert window.editor.body.toPlainText().startswith("> ")
    # Its title is chosen to type over, and shown from its start (it showed its tail).
    title = window.editor.title
    assert title.selectedText() == title.text() and title.cursorPosition() == 0
    note = window.library.get_note(created.args[0])
    assert note.local_only  # made from a local-only document (I11)
    links = window.library.note_links(note.id)
    assert any(link.target_type == "fragment" and link.target_id == fragment_id
               for link in links.outgoing)


def test_document_local_only_is_stored_and_shown(qtbot, data_dir: Path, study_folder: Path) -> None:
    window = open_window(qtbot, data_dir)
    with qtbot.waitSignal(window.import_export.importFinished, timeout=20000):
        window.import_export.import_paths([study_folder])
    window.import_export.import_summary.accept()
    qtbot.waitUntil(lambda: len(window.tree.documents) == 2, timeout=5000)
    doc_id = next(iter(window.tree.documents))
    window.documents.set_document_local_only(doc_id, True)
    assert window.save_queue.flush(5)
    assert {d.id: d.local_only for d in window.library.list_documents()}[doc_id]
    assert window.tree.documents[doc_id].local_only


def _library_with_notes(data_dir: Path, count: int) -> None:
    from desktop_kb.library import Library

    with Library(data_dir) as library:
        library.store.execute("PRAGMA synchronous = OFF")  # test data, not a durability test
        for i in range(count):
            library.add_note(f"笔记 {i}", f"第 {i} 条：用 Docker 安装 GitLab，note number {i}.")
        library.drain(60)


def test_rebuild_shows_progress_and_finishes(qtbot, data_dir: Path) -> None:
    _library_with_notes(data_dir, 300)
    window = open_window(qtbot, data_dir)
    steps: list[tuple[int, int]] = []
    with qtbot.waitSignal(window.index_status.rebuildFinished, timeout=60000) as done:
        window.index_status.rebuild_index()
        dialog = window.index_status.rebuild_dialog
        assert dialog is not None
        dialog.bridge.changed.connect(lambda _label, n, m: steps.append((n, m)))
    result = done.args[0]
    assert not result.cancelled and result.sources == 300
    assert steps and steps[-1] == (300, 300)
    assert window.index_status.rebuild_dialog is None
    qtbot.waitUntil(lambda: window.badge.state == "ok", timeout=5000)
    assert window.badge.text() == "Indexed ✓"


def test_rebuild_cancel_stops_and_says_so(qtbot, data_dir: Path) -> None:
    _library_with_notes(data_dir, 300)
    window = open_window(qtbot, data_dir)
    gate = threading.Event()  # hold the index worker so Cancel lands before the first batch
    window.library.worker.call(lambda _conn: gate.wait(10))
    with qtbot.waitSignal(window.index_status.rebuildFinished, timeout=60000) as done:
        window.index_status.rebuild_index()
        window.index_status.rebuild_dialog.findChild(QPushButton).click()
        gate.set()
    assert done.args[0].cancelled
    assert "cancelled" in window.statusBar().currentMessage()
    qtbot.waitUntil(lambda: window.badge.state == "incomplete", timeout=5000)
    assert "⚠" in window.badge.text()


def test_status_popup_verify_reports_and_repairs_drift(qtbot, data_dir: Path) -> None:
    window = open_window(qtbot, data_dir)
    library = window.library
    wait_index_idle(qtbot, window)
    # Drift: a note whose index rows are removed behind the app's back.
    note_id = window.editor.note_id
    library.worker.remove([("note", note_id)]).result()
    window.badge.click()
    assert window.status_popup.isVisible()
    with qtbot.waitSignal(window.index_status.verifyFinished, timeout=20000) as done:
        window.status_popup.verify_button.click()
    report = done.args[0]
    assert report.missing == [("note", note_id)] and report.repaired
    assert "1 missing" in window.status_popup.verify_result.text()
    assert "Repaired" in window.status_popup.verify_result.text()
    assert "keyword search only" in window.status_popup.model_line.text()
    assert window.degraded.isVisible() and "keyword search only" in window.degraded.text()


def test_verify_from_the_index_menu_says_its_outcome(qtbot, data_dir: Path) -> None:
    # Index → Verify index showed "Verifying the index…", then cleared it: the outcome went
    # only to the status popup, which the menu does not open.
    window = open_window(qtbot, data_dir)
    wait_index_idle(qtbot, window)
    assert not window.status_popup.isVisible()
    with qtbot.waitSignal(window.index_status.verifyFinished, timeout=20000):
        window.act_verify.trigger()
    assert window.statusBar().currentMessage() == "Verify: the index matches the library. Nothing to repair."


def test_settings_store_switches_and_provider(qtbot, data_dir: Path, _memory_keyring) -> None:
    window = open_window(qtbot, data_dir)
    window.settings.open_settings()
    dialog = window.settings.dialog
    qtbot.waitUntil(lambda: dialog.snapshot is not None, timeout=5000)
    assert dialog.data_folder.text() == str(data_dir)
    assert not dialog.cloud.isChecked() and dialog.discovery.isChecked()
    dialog.cloud.setChecked(True)
    dialog.discovery.setChecked(False)
    dialog.base_url.setText("http://127.0.0.1:11434/v1")
    dialog.base_url.editingFinished.emit()
    dialog.model_name.setText("qwen2.5")
    dialog.model_name.editingFinished.emit()
    assert window.save_queue.flush(5)
    assert window.library.get_setting("qa.cloud_enabled") is True
    assert window.library.get_setting("discovery.enabled") is False
    assert window.library.get_setting("qa.provider.base_url") == "http://127.0.0.1:11434/v1"
    assert window.library.get_setting("qa.provider.model") == "qwen2.5"

    dialog.api_key.setText("sk-test-123")
    with qtbot.waitSignal(dialog.keyStored, timeout=5000) as stored:
        dialog.save_key.click()
    assert stored.args == [True]
    key_name = secrets.provider_key_name("http://127.0.0.1:11434/v1")  # this provider's key
    assert _memory_keyring.store[(secrets.SERVICE, key_name)] == "sk-test-123"
    assert dialog.api_key.text() == ""
    assert "stored" in dialog.keyring_message.text()
    for path in data_dir.rglob("*"):  # never written to a file
        if path.is_file():
            assert b"sk-test-123" not in path.read_bytes()
    with qtbot.waitSignal(dialog.keyStored, timeout=5000):
        dialog.delete_key.click()
    assert secrets.get_api_key(key_name) is None


def test_settings_explain_a_missing_keyring(qtbot, data_dir: Path, monkeypatch) -> None:
    keyring.set_keyring(fail.Keyring())
    monkeypatch.delenv(secrets.API_KEY_ENV, raising=False)
    assert secrets.keyring_status()[0] is False
    window = open_window(qtbot, data_dir)
    window.settings.open_settings()
    dialog = window.settings.dialog
    qtbot.waitSignal(dialog.loaded, timeout=5000).wait() if dialog.snapshot is None else None
    text = dialog.keyring_message.text()
    assert "No system keyring is available" in text and "DESKTOP_KB_API_KEY" in text
    assert not dialog.save_key.isEnabled()
    with pytest.raises(secrets.KeyringUnavailable):
        secrets.set_api_key(secrets.PROVIDER_KEY, "sk-nope")
    monkeypatch.setenv(secrets.API_KEY_ENV, "sk-from-env")
    assert secrets.get_api_key(secrets.PROVIDER_KEY) == "sk-from-env"


def test_every_settings_tab_shows_its_whole_name(qtbot, data_dir: Path) -> None:
    # In English the seven tabs are wider than the dialog's 620 px: "Text recognition (O…"
    # was cut and "Backups" hid behind scroll arrows.
    window = open_window(qtbot, data_dir)
    window.settings.open_settings()
    dialog = window.settings.dialog
    qtbot.waitUntil(lambda: dialog.snapshot is not None, timeout=5000)
    bar = dialog.tabs.tabBar()
    qtbot.waitUntil(lambda: bar.width() > 0, timeout=5000)
    last = bar.tabRect(bar.count() - 1)
    assert dialog.tabs.tabText(bar.count() - 1) == "Backups"
    assert last.right() < bar.width()
    for i in range(bar.count()):
        assert bar.tabRect(i).width() >= bar.fontMetrics().horizontalAdvance(dialog.tabs.tabText(i))


def test_enter_in_the_index_status_closes_it_and_rebuilds_nothing(qtbot, data_dir: Path) -> None:
    # "Rebuild index" was the dialog's default button: Enter (or Space on the focused button)
    # threw the index away and rebuilt it, minutes on a big library, without a question.
    from PySide6.QtCore import Qt

    window = open_window(qtbot, data_dir)
    window.badge.click()
    popup = window.status_popup
    assert popup.isVisible()
    rebuilds: list[bool] = []
    popup.rebuildRequested.connect(lambda: rebuilds.append(True))
    qtbot.keyClick(popup.focusWidget() or popup, Qt.Key.Key_Return)
    assert rebuilds == [] and not popup.isVisible()


def test_the_index_status_popup_has_no_blank_area(qtbot, data_dir: Path) -> None:
    # The popup kept a 340 px minimum height and a stretch: with nothing failed, a third of it
    # was an empty band between "keyword search only" and the buttons. It now fits its lines,
    # and grows for the failures list when there is one.
    window = open_window(qtbot, data_dir)
    wait_index_idle(qtbot, window)
    window.badge.click()
    popup = window.status_popup
    qtbot.waitUntil(popup.isVisible, timeout=5000)
    popup.set_verify_report(None)
    last_line = max((w for w in (popup.headline, popup.summary, popup.model_line, popup.verify_result)
                     if w.isVisible() and w.text()), key=lambda w: w.geometry().bottom())
    gap = popup.rebuild_button.geometry().top() - last_line.geometry().bottom()
    assert gap < 3 * popup.fontMetrics().height(), gap
    assert popup.height() <= popup.sizeHint().height() + 4


def test_the_import_summary_names_each_file_so_it_can_be_read(qtbot) -> None:  # noqa: ANN001
    # Every row of the Rust book's import read "/work/shared/corpora/rust-book-cn/src/…": the
    # paths were wrapped like the reasons and cut at their end, where the file names are.
    from desktop_kb.importer.run import ImportSummary
    from desktop_kb.ui.import_dialog import ImportSummaryDialog

    folder = "/home/learner/study/corpora/rust-book-cn/src"
    names = ["ch08-02-strings.md", "ch15-05-interior-mutability.md", "appendix/ch19-01-unsafe-rust.md"]
    summary = ImportSummary(added=3)
    summary.remarks = [(f"{folder}/{n}", "1 passage(s) longer than 4000 characters were split into parts")
                       for n in names]
    dialog = ImportSummaryDialog(summary)
    qtbot.addWidget(dialog)
    dialog.resize(600, 420)
    dialog.show()
    qtbot.waitExposed(dialog)
    rows = [dialog.skipped.topLevelItem(i) for i in range(dialog.skipped.topLevelItemCount())]
    assert [r.text(0) for r in rows] == names
    assert [r.toolTip(0) for r in rows] == [f"{folder}/{n}" for n in names]
    metrics = dialog.skipped.fontMetrics()
    assert all(metrics.horizontalAdvance(r.text(0)) < dialog.skipped.columnWidth(0) for r in rows)


def test_the_import_summary_shows_each_reason_whole(qtbot) -> None:  # noqa: ANN001
    # After importing the Rust book each remark read "1 passage longer than 4…characters split
    # into …" at the dialog's size: the reasons were to wrap in their column, but the rows kept
    # the height they had before the dialog was laid out, one line, and the text was cut.
    from desktop_kb.importer.run import ImportSummary
    from desktop_kb.ui.import_dialog import ImportSummaryDialog

    folder = "/home/learner/study/corpora/rust-book-cn/src"
    summary = ImportSummary(added=2)
    summary.remarks = [(f"{folder}/{n}", "1 passage(s) longer than 4000 characters were split into parts")
                       for n in ("ch08-02-strings.md", "ch15-05-interior-mutability.md")]
    dialog = ImportSummaryDialog(summary)
    qtbot.addWidget(dialog)
    dialog.resize(600, 420)
    dialog.show()
    qtbot.waitExposed(dialog)
    view = dialog.skipped
    metrics = view.fontMetrics()
    for i in range(view.topLevelItemCount()):
        item = view.topLevelItem(i)
        text = item.text(1)
        lines = -(-metrics.horizontalAdvance(text) // max(1, view.columnWidth(1) - 12))  # ceil
        qtbot.waitUntil(lambda item=item, lines=lines: view.visualItemRect(item).height()
                        >= lines * metrics.lineSpacing(), timeout=3000)


def test_an_import_with_nothing_skipped_keeps_its_headline_at_the_top(qtbot) -> None:  # noqa: ANN001
    # With the skipped list hidden, its room went to the headline: "4 new, 0 updated…" floated
    # mid-dialog with 100 px of blank above it.
    from desktop_kb.importer.run import ImportSummary
    from desktop_kb.ui.import_dialog import ImportSummaryDialog

    summary = ImportSummary(added=4)
    for fmt in ("docx", "epub", "html", "pdf"):
        summary.per_format[fmt] = 1
    dialog = ImportSummaryDialog(summary)
    qtbot.addWidget(dialog)
    dialog.resize(600, 420)
    dialog.show()
    qtbot.waitExposed(dialog)
    headline = dialog.headline
    assert headline.height() <= headline.heightForWidth(headline.width()) + 8


def test_an_ocr_state_read_first_never_lands_over_a_later_one(qtbot, data_dir: Path,  # noqa: ANN001
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    # Settings → OCR opened as OCR was being installed from a terminal (`desktop-kb ocr install`):
    # the state read before the install could land after the one read after it, and the page
    # said OCR was not installed, with Install enabled and Remove greyed out.
    import json

    from PySide6.QtWidgets import QApplication

    from desktop_kb.tasks import settings_tasks

    window = open_window(qtbot, data_dir)
    window.settings.open_settings()
    page = window.settings.dialog.ocr_page
    assert window.runner.wait(30000)
    listed, release = threading.Event(), threading.Event()
    load = settings_tasks.load_ocr_state

    def first_held(library):  # noqa: ANN001, ANN202
        state = load(library)
        if not listed.is_set():
            listed.set()
            release.wait(30)  # lands after the state read once OCR is installed
        return state

    monkeypatch.setattr(settings_tasks, "load_ocr_state", first_held)
    page.reload()
    assert listed.wait(30)
    root = window.library.ocr.root  # what an install finishes by writing
    root.mkdir(parents=True, exist_ok=True)
    (root / "manifest.json").write_text(json.dumps({"source": "a folder"}), "utf-8")
    page.reload()
    qtbot.waitUntil(lambda: page.remove_button.isEnabled(), timeout=10000)
    release.set()
    assert window.runner.wait(30000)
    QApplication.processEvents()  # the first state, queued as its task ended
    assert page.remove_button.isEnabled() and not page.install_button.isEnabled()
    assert "installed" in page.status.text() and "not installed" not in page.status.text()
