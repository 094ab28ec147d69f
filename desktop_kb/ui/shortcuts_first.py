"""The window's own shortcuts reach it while the person types.

On Linux (X11 key bindings) the text fields claim Ctrl+K (delete to the end of the line),
Ctrl+E (to the end of the line) and Ctrl+Shift+A (deselect) before any shortcut: in a note,
Ctrl+K did not open search, Ctrl+E did not show the preview and Ctrl+Shift+A did not open
Ask the library, though the welcome note and the shortcuts list promise them. For the
actions given here, a text field inside the window no longer takes the key first.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QApplication, QWidget


class ShortcutsFirst(QObject):
    def __init__(self, window: QWidget, actions: Sequence[QAction]) -> None:
        super().__init__(window)
        self._window = window
        self._actions = list(actions)
        QApplication.instance().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if (event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent)
                and isinstance(watched, QWidget) and watched.window() is self._window):
            pressed = QKeySequence(event.keyCombination())
            for action in self._actions:
                if action.isEnabled() and any(
                        key.matches(pressed) == QKeySequence.SequenceMatch.ExactMatch
                        for key in action.shortcuts()):
                    event.ignore()  # the field does not claim it: the shortcut runs
                    return True
        return False
