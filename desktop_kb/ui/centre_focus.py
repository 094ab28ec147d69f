"""Switching the centre page (editor, reader) without leaving the keys on a stray button."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QStackedWidget, QWidget


def show_page(centre: QStackedWidget, page: QWidget, keys_to: QWidget) -> None:
    """Show ``page``; if the keys were in the centre, they go to ``keys_to``.

    Hiding the page that held the focus hands it to the next widget in the chain,
    which on the reader is its lock button: Space, meant to scroll a document
    opened from a search hit, made it local only. Focus elsewhere (the note list,
    the library tree, the QA pane) stays where the person is working.
    """
    window = centre.window()
    before = window.focusWidget()
    in_centre = before is not None and (before is centre or centre.isAncestorOf(before))
    centre.setCurrentWidget(page)
    if in_centre:
        keys_to.setFocus(Qt.FocusReason.OtherFocusReason)
