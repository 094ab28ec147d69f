"""The library in the window: folders in the tree, drag and drop import, the generated-files
override in the summary, a PDF opened at its page, scanned pages waiting for OCR."""

from __future__ import annotations

from pathlib import Path

from doc_fixtures import Para, write_image_pdf, write_pdf
from first_held import FirstCallHeld
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
    try:  # PySide6 6.12 takes a QPointF (its QPoint form is deprecated); 6.11 only a QPoint
        enter = QDragEnterEvent(QPointF(pos), Qt.DropAction.CopyAction, mime, buttons, mods)
    except TypeError:
        enter = QDragEnterEvent(pos, Qt.DropAction.CopyAction, mime, buttons, mods)
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


def test_a_passage_opened_from_search_takes_the_keys_not_the_lock(qtbot, data_dir: Path, tmp_path: Path) -> None:
    """Space in a document opened from a hit scrolls it; it must not reach the header's lock
    (focus fell from the hidden editor to the first button: Space made the document local only)."""
    window = open_window(qtbot, data_dir)
    (tmp_path / "rc.md").write_text("# `Rc<T>` 引用计数\n\n`Rc<T>` 记录引用计数。\n\n" + "正文。\n\n" * 80,
                                    encoding="utf-8")
    with qtbot.waitSignal(window.import_export.importFinished, timeout=WAIT):
        window.import_export.import_paths([tmp_path / "rc.md"])
    wait_index_idle(qtbot, window)
    window.activateWindow()
    window.editor.body.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.editor.body, timeout=WAIT)
    window.global_search.open_search_text("引用计数")
    qtbot.waitUntil(lambda: bool(window.search.results), timeout=WAIT)
    qtbot.keyClick(window.search.query, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.centre.currentWidget() is window.reader, timeout=WAIT)
    # Titles read as the heading shows, not as its Markdown: tree, reader, outline.
    assert window.reader.title.text() == "Rc<T> 引用计数"
    assert window.reader.outline.topLevelItem(0).text(0) == "Rc<T> 引用计数"
    qtbot.waitUntil(lambda: bool(window.tree.documents), timeout=WAIT)
    labels = [window.tree.tree.topLevelItem(i).text(0) for i in range(window.tree.tree.topLevelItemCount())]
    labels += [window.tree.tree.topLevelItem(i).child(j).text(0)
               for i in range(window.tree.tree.topLevelItemCount())
               for j in range(window.tree.tree.topLevelItem(i).childCount())]
    assert "Rc<T> 引用计数" in labels
    # The tree selects the document now open (it kept showing the last one clicked).
    qtbot.waitUntil(lambda: window.tree.tree.currentItem() is not None, timeout=WAIT)
    assert window.tree.tree.currentItem().data(0, DOC_ROLE) == window.reader.document.id
    window.activateWindow()  # the popup is gone: the window takes the keys back
    focused = window.focusWidget()
    qtbot.keyClick(focused, Qt.Key.Key_Space)
    assert not window.reader.local_button.isChecked()
    assert focused is window.reader.text
    # And back: a note opened from a hit while the reader had the keys gets them in its text.
    note = window.library.add_note("引用计数笔记", "我的引用计数笔记。")
    wait_index_idle(qtbot, window)
    window.global_search.open_search_text("引用计数笔记")
    qtbot.waitUntil(lambda: any(r.source_type == "note" for r in window.search.results), timeout=WAIT)
    window.search.list.setCurrentRow(next(i for i, r in enumerate(window.search.results)
                                          if r.source_type == "note"))
    with qtbot.waitSignal(window.notes.noteOpened, timeout=WAIT):
        qtbot.keyClick(window.search.query, Qt.Key.Key_Return)
    assert window.editor.note_id == note
    assert window.focusWidget() is window.editor.body


def test_a_pdf_without_a_title_is_listed_by_its_first_heading(qtbot, data_dir: Path, tmp_path: Path) -> None:
    # "notes.pdf" with no title of its own was listed as "课程/notes.pdf" in the library tree
    # (and "课程/notes" in results), where its first heading says what it is.
    window = open_window(qtbot, data_dir)
    folder = tmp_path / "课程"
    folder.mkdir()
    write_pdf(folder / "notes.pdf", [[Para("Rust 所有权讲义", 20), "每个值都有一个所有者。"]])
    with qtbot.waitSignal(window.import_export.importFinished, timeout=WAIT):
        drop(window, window.tree.tree.viewport(), [folder])
    qtbot.waitUntil(lambda: len(window.tree.documents) == 1, timeout=WAIT)
    tree = window.tree.tree
    rows = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    rows += [row.child(i) for row in rows for i in range(row.childCount())]
    assert [row.text(0) for row in rows if row.data(0, DOC_ROLE) is not None] == ["Rust 所有权讲义"]


def test_a_book_imported_from_its_chapter_files_is_listed_in_reading_order(qtbot, data_dir: Path,
                                                                           tmp_path: Path) -> None:
    # The Rust book's 105 chapter files were listed by title ("Cargo 工作空间", "Hello, Cargo!",
    # "if let 简单控制流" …), chapter 14 before chapter 1: a learner lost the book's order.
    window = open_window(qtbot, data_dir)
    book = tmp_path / "book"
    book.mkdir()
    for name, title in [("ch10-00-generics.md", "泛型"), ("ch02-00-guessing-game.md", "猜数字游戏"),
                        ("ch01-02-hello-world.md", "Hello, World!"), ("ch01-00-getting-started.md", "入门指南"),
                        ("appendix-01-keywords.md", "附录 A：关键字")]:
        (book / name).write_text(f"# {title}\n\n这一章讲{title}。\n", encoding="utf-8")
    with qtbot.waitSignal(window.import_export.importFinished, timeout=WAIT):
        drop(window, window.tree.tree.viewport(), [book])
    qtbot.waitUntil(lambda: len(window.tree.documents) == 5, timeout=WAIT)
    tree = window.tree.tree
    rows = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    rows = [row.child(i) for row in rows for i in range(row.childCount())] or rows
    assert [row.text(0) for row in rows] == ["附录 A：关键字", "入门指南", "Hello, World!", "猜数字游戏", "泛型"]


def test_numbered_files_and_folders_sort_as_numbers() -> None:
    from desktop_kb.ui.library_tree import natural_key

    names = ["week10", "Week2", "week1", "notes", "01 intro"]
    assert sorted(names, key=natural_key) == ["01 intro", "notes", "week1", "Week2", "week10"]


def test_the_open_document_stays_chosen_when_the_tree_reloads(qtbot, data_dir: Path, tmp_path: Path) -> None:
    # The tree is rebuilt after every import and every change from outside: the open document's
    # row lost its highlight, and a reload that came after the document had opened (a run
    # under load: the import's own reload) left the tree choosing nothing.
    window = open_window(qtbot, data_dir)
    (tmp_path / "rc.md").write_text("# 引用计数\n\n`Rc<T>` 记录引用计数。\n", encoding="utf-8")
    (tmp_path / "box.md").write_text("# Box\n\n`Box<T>` 指向堆上的数据。\n", encoding="utf-8")
    with qtbot.waitSignal(window.import_export.importFinished, timeout=WAIT):
        window.import_export.import_paths([tmp_path / "rc.md"])
    qtbot.waitUntil(lambda: len(window.tree.documents) == 1, timeout=WAIT)
    (opened,) = window.tree.documents
    window.documents.open_document(opened)
    qtbot.waitUntil(lambda: window.reader.document is not None and window.tree.tree.currentItem() is not None,
                    timeout=WAIT)
    with qtbot.waitSignal(window.import_export.importFinished, timeout=WAIT):
        window.import_export.import_paths([tmp_path / "box.md"])
    qtbot.waitUntil(lambda: len(window.tree.documents) == 2, timeout=WAIT)
    chosen = window.tree.tree.currentItem()
    assert chosen is not None and chosen.isSelected() and chosen.data(0, DOC_ROLE) == opened


def test_a_reload_that_read_the_library_first_never_lands_over_a_later_one(
        qtbot, data_dir: Path, tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    # Two reloads in flight: an import from outside asks for one every second, and a big library
    # takes longer than that to list under load. The one that read the library first landed
    # last and the tree left out the newest documents until the next change.
    from desktop_kb.tasks import document_tasks

    window = open_window(qtbot, data_dir)
    window.outside.stop()  # only the reloads this test asks for
    for name in ("rc", "box"):
        (tmp_path / f"{name}.md").write_text(f"# {name}\n\n正文 {name}。\n", encoding="utf-8")
    with qtbot.waitSignal(window.import_export.importFinished, timeout=WAIT):
        window.import_export.import_paths([tmp_path / "rc.md"])
    qtbot.waitUntil(lambda: len(window.tree.documents) == 1, timeout=WAIT)
    first = FirstCallHeld(document_tasks.load_snapshot)  # lands after the reload asked for later
    monkeypatch.setattr(document_tasks, "load_snapshot", first)
    window.documents.reload_tree()
    assert first.called.wait(30)
    window.library.import_paths([tmp_path / "box.md"])
    window.documents.reload_tree()
    qtbot.waitUntil(lambda: len(window.tree.documents) == 2, timeout=WAIT)
    first.release.set()
    assert window.runner.wait(WAIT)
    QApplication.processEvents()  # the first reload's result, queued as its task ended
    assert len(window.tree.documents) == 2
