"""A screen reader's view and keyboard-only use of the window: every control has a name in the
UI language, and Tab walks the window in reading order."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)
from test_gui_support import gui_marks, open_window, use_memory_keyring

from desktop_kb.library import Library
from desktop_kb.ui import i18n

pytestmark = gui_marks()
CONTROLS = (QAbstractButton, QLineEdit, QComboBox, QAbstractItemView, QPlainTextEdit, QTextEdit)


@pytest.fixture(autouse=True)
def _english_after() -> None:
    use_memory_keyring()
    yield
    i18n.install_language("en")


def _unnamed(root: QWidget) -> list[str]:
    found = []
    for widget in root.findChildren(QWidget):
        if not widget.isVisible() or not isinstance(widget, CONTROLS):
            continue
        name = QAccessible.queryAccessibleInterface(widget).text(QAccessible.Text.Name)
        if not name.strip() or (isinstance(widget, QAbstractButton)
                                and not any(ch.isalnum() for ch in name)):
            found.append(f"{type(widget).__name__} {widget.objectName()!r} tooltip={widget.toolTip()!r}")
    return found


def test_every_control_has_a_name_a_screen_reader_can_read(qtbot, data_dir: Path) -> None:
    """The editor's lock, preview and trash buttons, the note list's new and trash buttons were
    read as 'button'; a suggestion's ✓ and ✕ as 'check mark' and 'multiplication x'; the filter
    and question fields, the note list, tag and library trees and the answers had no name."""
    with Library(data_dir, load_model=False) as lib:
        lib.add_note("所有权笔记", "Rust 的所有权规则：每个值都有一个所有者，所有权可以转移。#rust")
        lib.add_note("借用笔记", "借用规则：引用必须总是有效的，所有权不转移。")
    i18n.install_language("en")
    window = open_window(qtbot, data_dir)
    window.qa_dock.show()
    window.related_dock.show()
    qtbot.waitUntil(lambda: bool(window.related_panel.findChildren(QWidget, "acceptButton")),
                    timeout=10000)
    qtbot.waitUntil(lambda: not _unnamed(window), timeout=3000)
    accept = window.related_panel.findChildren(QWidget, "acceptButton")[0]
    assert accept.accessibleName() == "Link this to the open note"
    window.settings.open_settings()
    dialog = window.settings.dialog
    qtbot.waitUntil(lambda: dialog.snapshot is not None, timeout=5000)
    qtbot.waitUntil(lambda: not _unnamed(dialog), timeout=3000)

    i18n.install_language("zh_CN")
    qtbot.waitUntil(lambda: window.editor.trash_button.accessibleName() == window.editor.trash_button.toolTip()
                    and window.editor.trash_button.toolTip() != "Move to trash", timeout=3000)
    qtbot.waitUntil(lambda: not _unnamed(window), timeout=3000)
    transcript = window.qa_dock.findChild(QTextEdit, "qaTranscript")
    assert transcript.accessibleName() == "问题、回答及其来源"
    view_name = QAccessible.queryAccessibleInterface(window.note_list.view).text(QAccessible.Text.Name)
    assert view_name == "笔记"


def test_tab_walks_the_window_in_reading_order(qtbot, data_dir: Path) -> None:
    """Tab went from the note list to the library tree and reached the tags only after the
    note's text, and stopped on the related panel's frame."""
    with Library(data_dir, load_model=False) as lib:
        lib.add_note("笔记", "正文 #tag")
    window = open_window(qtbot, data_dir)
    window.activateWindow()
    # The tag tree is hidden until its rows arrive from the background load (Tab skips a hidden
    # widget): wait for them, as a person sees the tags before tabbing to them.
    qtbot.waitUntil(lambda: "tag" in window.tags.pane.items and window.tags.pane.tree.isVisible(),
                    timeout=5000)
    # The note's header buttons come just before its title (Tab from the title goes to the text).
    order = [window.note_list.view, window.tags.pane.tree, window.tree.tree,
             window.editor.local_button]
    for here, there in zip(order, order[1:], strict=False):
        here.setFocus()
        qtbot.waitUntil(here.hasFocus, timeout=3000)
        qtbot.keyClick(here, Qt.Key.Key_Tab)
        assert QApplication.focusWidget() is there, (here, QApplication.focusWidget())
    assert window.related_panel.scroll.focusPolicy() == Qt.FocusPolicy.NoFocus


def test_enter_in_settings_closes_it_instead_of_opening_the_data_folder(qtbot, data_dir: Path) -> None:
    """'Open folder' was the Settings dialog's default button: Enter after typing the provider's
    base URL opened a file manager."""
    window = open_window(qtbot, data_dir)
    window.settings.open_settings()
    dialog = window.settings.dialog
    qtbot.waitUntil(lambda: dialog.snapshot is not None, timeout=5000)
    assert dialog.close_button.isDefault() and not dialog.open_folder.isDefault()


def test_the_reader_search_list_and_shortcut_list_have_names_in_the_ui_language(
        qtbot, data_dir: Path, tmp_path: Path) -> None:
    """The document reader's text and outline, the search results and the search field's clear
    button, and the shortcut list were read as "edit", "tree", "list", "button" and "table"."""
    from test_gui_support import wait_index_idle

    i18n.install_language("en")
    window = open_window(qtbot, data_dir)
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "rust.md").write_text("# 所有权\n\n每个值都有一个所有者。\n\n# 借用\n\n引用不获取所有权。\n",
                                    encoding="utf-8")
    window.library.import_paths([folder])
    wait_index_idle(qtbot, window)
    document_id = window.library.store_reader.execute("SELECT id FROM documents").fetchone()[0]
    with qtbot.waitSignal(window.documents.fragmentOpened, timeout=10000):
        window.documents.open_document(document_id)
    assert _unnamed(window.reader) == []
    window.act_search.trigger()
    with qtbot.waitSignal(window.search.resultsShown, timeout=10000, check_params_cb=lambda n: n > 0):
        window.search.query.setText("所有权")
    assert _unnamed(window.search) == []
    window.search.hide()
    window.menus.act_shortcuts.trigger()
    dialog = window.menus.shortcuts_dialog
    assert _unnamed(dialog) == []
    i18n.install_language("zh_CN")
    qtbot.waitUntil(lambda: window.reader.text.accessibleName() == "文档正文", timeout=3000)
    assert window.search.list.accessibleName() == "搜索结果"
    assert dialog.table.accessibleName() == "键盘快捷键"
