"""Drag files and folders from the desktop onto the window to import them.

Installed on the application, so a drop works wherever it lands in the window
— the note editor and the reader included, which would otherwise paste the
file's path as text. Only drops of local files are taken; text drags inside
the app behave as before.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QWidget

_DRAG_EVENTS = (QEvent.Type.DragEnter, QEvent.Type.DragMove, QEvent.Type.Drop)


def local_paths(event: QDropEvent | QDragEnterEvent | QDragMoveEvent) -> list[Path]:
    mime = event.mimeData()
    if mime is None or not mime.hasUrls():
        return []
    return [Path(url.toLocalFile()) for url in mime.urls() if url.isLocalFile() and url.toLocalFile()]


class DropImport(QObject):
    def __init__(self, window: QWidget, on_drop: Callable[[list[Path]], None],
                 on_hover: Callable[[int], None]) -> None:
        super().__init__(window)
        self._window = window
        self._on_drop = on_drop
        self._on_hover = on_hover
        window.setAcceptDrops(True)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() not in _DRAG_EVENTS or not isinstance(watched, QWidget):
            return False
        if watched.window() is not self._window:
            return False
        paths = local_paths(event)  # type: ignore[arg-type]
        if not paths:
            return False
        if event.type() == QEvent.Type.Drop:
            event.acceptProposedAction()  # type: ignore[attr-defined]
            self._on_drop(paths)
        else:
            event.acceptProposedAction()  # type: ignore[attr-defined]
            if event.type() == QEvent.Type.DragEnter:
                self._on_hover(len(paths))
        return True
