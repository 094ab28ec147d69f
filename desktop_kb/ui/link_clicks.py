"""Following ``[[links]]`` and ``#tags`` from the editor: Ctrl+click, or Ctrl+Enter at the cursor.

A plain click keeps placing the cursor (the text is being edited); holding Ctrl
turns links into pointing-hand targets, as in code editors and Obsidian.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QPlainTextEdit

from desktop_kb.markup.literal import LiteralMask
from desktop_kb.markup.tags import Tag, parse_tags
from desktop_kb.markup.wiki_links import WikiLink, parse_wiki_links
from desktop_kb.ui.text_offsets import from_utf16


def target_at(text: str, offset: int) -> WikiLink | Tag | None:
    """The link or tag whose text covers ``offset`` (code-point offset into ``text``)."""
    mask = LiteralMask.of(text)
    for link in parse_wiki_links(text, mask):
        if link.start <= offset < link.end:
            return link
    for tag in parse_tags(text, mask):
        if tag.start <= offset < tag.end:
            return tag
    return None


class LinkClicks(QObject):
    linkActivated = Signal(object)  # WikiLink
    tagActivated = Signal(str)  # tag key

    def __init__(self, edit: QPlainTextEdit) -> None:
        super().__init__(edit)
        self.edit = edit
        self._viewport = edit.viewport()  # compared without touching the editor (it may be closing)
        self._viewport.installEventFilter(self)
        edit.installEventFilter(self)
        self._viewport.setMouseTracking(True)

    def _target(self, utf16_pos: int) -> WikiLink | Tag | None:
        text = self.edit.toPlainText()
        block = self.edit.document().findBlock(utf16_pos)
        # Parse only the paragraph around the position: cheap on long notes. Fences are
        # multi-block, so the whole text decides when the block might sit inside one.
        if "```" in text or "~~~" in text:
            return target_at(text, from_utf16(text, utf16_pos))
        line = block.text()
        return target_at(line, from_utf16(line, utf16_pos - block.position()))

    def activate_at(self, utf16_pos: int) -> bool:
        found = self._target(utf16_pos)
        if isinstance(found, WikiLink):
            self.linkActivated.emit(found)
            return True
        if isinstance(found, Tag):
            self.tagActivated.emit(found.key)
            return True
        return False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        kind = event.type()
        if watched is self._viewport and isinstance(event, QMouseEvent):
            ctrl = bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
            if kind == QEvent.Type.MouseMove:
                over = ctrl and self._target(self.edit.cursorForPosition(event.position().toPoint()).position())
                self._viewport.setCursor(Qt.CursorShape.PointingHandCursor if over
                                         else Qt.CursorShape.IBeamCursor)
            elif kind == QEvent.Type.MouseButtonRelease and ctrl and event.button() == Qt.MouseButton.LeftButton:
                pos = self.edit.cursorForPosition(event.position().toPoint()).position()
                if self.activate_at(pos):
                    return True
        elif (watched is self.edit and kind == QEvent.Type.KeyPress and isinstance(event, QKeyEvent)
              and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
              and event.modifiers() & Qt.KeyboardModifier.ControlModifier):
            return self.activate_at(self.edit.textCursor().position())
        return super().eventFilter(watched, event)
