"""The library in the window: folders in the tree, drag and drop import, the generated-files
override in the summary, a PDF opened at its page, scanned pages waiting for OCR."""

from __future__ import annotations

from pathlib import Path

from doc_fixtures import write_image_pdf, write_pdf
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication
from test_gui_support import gui_marks, open_window, wait_index_idle

from desktop_kb.ui.library_tree import DOC_ROLE, FOLDER_ROLE

pytestmark = gui_marks()
WAIT = 30000


def drop(window, widget, paths: list[Path]) -> None:
    """What the windowing system delivers for a drag from the file manager: enter, then drop,
    to the window, which routes them to the widget under the pointer."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    pos = widget.mapTo(window, widget.rect().center())
    buttons, mods = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    enter = QDragEnterEvent(QPointF(pos), Qt.DropAction.CopyAction, mime, buttons, mods)
    assert QApplication.sendEvent(window.windowHandle(), enter)
    QApplication.sendEvent(window.windowHandle(),
                           QDropEvent(QPointF(pos), Qt.DropAction.CopyAction, mime, buttons, mods))


def test_drop_folder_tree_keeps_folders_and_pdf_opens_at_its_page(qtbot, data_dir: Path, tmp_path: Path) -> None:
    window = open_window(qtbot, data_dir)
    root = tmp_path / "course"
    (root / "week1").mkdir(parents=True)
    (root / "week2" / "lab").mkdir(parents=True)
    (root / "week1" / "intro.md").write_text("# 导论\n\n学习计划。\n", encoding="utf-8")
    write_pdf(root / "week2" / "lab" / "lab.pdf", [["Setup the lab machine first."],
                                                  ["Measure the eigenvalues of the matrix."]],
              title="Lab manual")
    (root / "week2" / "package-lock.json").write_text("{}", encoding="utf-8")
    before = window.editor.body.toPlainText()
    with qtbot.waitSignal(window.import_export.importFinished, timeout=WAIT) as done:
        drop(window, window.editor.body.viewport(), [root])  # onto the editor: imported, not pasted
    assert window.editor.body.toPlainText() == before
    summary = done.args[0]
    assert summary.added == 2
    dialog = window.import_export.import_summary
    assert dialog.include_button.isVisible() and dialog.generated_count == 1

    # The tree keeps the folders.
    qtbot.waitUntil(lambda: len(window.tree.documents) == 2, timeout=WAIT)
    folders = [window.tree.tree.topLevelItem(i) for i in range(window.tree.tree.topLevelItemCount())]
    labels = sorted(item.text(0) for item in folders)
    assert labels == ["week1", "week2/lab"]  # a folder holding one folder is one row
    lab = next(item for item in folders if item.text(0) == "week2/lab")
    assert lab.data(0, FOLDER_ROLE).endswith("week2/lab") and lab.child(0).text(0) == "Lab manual"
    assert lab.child(0).data(0, DOC_ROLE) is not None

    # A hit on page 2 opens the whole PDF there, highlighted, page in the outline.
    wait_index_idle(qtbot, window)
    window.global_search.open_search_text("eigenvalues")
    qtbot.waitUntil(lambda: bool(window.search.results), timeout=WAIT)
    hit = window.search.results[0]
    assert hit.title == "Lab manual · p. 2"
    window.search.open_current()
    qtbot.waitUntil(lambda: window.centre.currentWidget() is window.reader, timeout=WAIT)
    qtbot.waitUntil(lambda: any(s.cursor.selectedText().lower() == "eigenvalues"
                                for s in window.reader.text.extraSelections()), timeout=WAIT)
    assert "Setup the lab machine" in window.reader.text.toPlainText()  # the whole document
    assert window.reader.outline.currentItem().text(0) == "p. 2"

    # "Import the generated file too" re-imports with the override.
    with qtbot.waitSignal(window.import_export.importFinished, timeout=WAIT) as again:
        dialog.include_button.click()
    assert again.args[0].added == 1


def test_scans_wait_for_ocr_and_the_summary_says_so(qtbot, data_dir: Path, tmp_path: Path) -> None:
    window = open_window(qtbot, data_dir)
    scan = write_image_pdf(tmp_path / "scan.pdf", ["扫描"])
    with qtbot.waitSignal(window.import_export.importFinished, timeout=WAIT) as done:
        window.import_export.import_paths([scan])
    summary = done.args[0]
    reasons = [window.import_export.import_summary.skipped.topLevelItem(i).text(1)
               for i in range(window.import_export.import_summary.skipped.topLevelItemCount())]
    assert summary.skipped and "OCR" in reasons[0]
    assert not window.ocr.running
