"""Screens of the notes habits for the README: links and tags, live preview, [[ completion,
the shortcut list, and the dark theme. Called by tools/screenshots.py per language."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtGui import QPixmap


def shoot_notes(window: Any, language: str, save: Callable[[str, QPixmap], None],
                compose: Callable[..., QPixmap], center: Callable[..., None],
                wait_until: Callable[..., None], settle: Callable[..., None]) -> None:
    row = next(r for r in window.note_list.model._rows if r.title.startswith("Spaced"))
    window.notes.open_note(row.id)
    wait_until(lambda: window.editor.note_id == row.id)
    window.tags.refresh()
    wait_until(lambda: bool(window.tags.pane.items))
    window.left.setSizes([330, 170, 260])

    # Links, tags and the side-by-side live preview with the editor's typography.
    window.editor.split_button.setChecked(True)
    settle(0.5)
    save("links_tags", compose(window, None))

    # The tag pane filtering the list.
    key = next(iter(window.tags.pane.items))
    window.tags.pane.items[key].setSelected(True)
    wait_until(lambda: window.note_list.tag_filter == [key])
    settle(0.5)
    save("tags", compose(window, None))
    window.note_list.set_tag_filter([])
    window.editor.split_button.setChecked(False)

    # [[ completion, typed in pinyin.
    body = window.editor.body
    window.activateWindow()
    body.setFocus()
    wait_until(body.hasFocus, timeout=10)
    cursor = body.textCursor()
    cursor.movePosition(cursor.MoveOperation.End)
    body.setTextCursor(cursor)
    before = body.toPlainText()
    body.insertPlainText("\n\n[[dock")
    wait_until(lambda: window.links.completer.popup.isVisible(), timeout=10)
    settle(0.3)
    save("link_completion", compose(window, window.links.completer.popup))
    window.links.completer.hide()
    body.setPlainText(before)
    window.notes.save_now()

    # Every shortcut, from the live actions.
    window.menus.show_shortcuts()
    dialog = window.menus.shortcuts_dialog
    center(dialog, window)
    settle(0.3)
    save("shortcuts", compose(window, dialog))
    dialog.close()

    # Dark theme (the note and the related panel).
    window.appearance.set_theme("dark")
    settle(0.8)
    save("dark", compose(window, None))
    window.appearance.set_theme("light")
    settle(0.3)
