"""The ``[[`` title popup: matching note titles under the cursor as the person types.

The popup never takes focus: keys reach the editor, which hands Up/Down/Enter/
Tab/Esc to the popup while it is open. Matching runs on the task runner (a
long title list in pinyin mode is real work); answers to text the person has
typed past are dropped.
"""

from __future__ import annotations

import html
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, Signal
from PySide6.QtGui import QKeyEvent, QTextCursor
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QPlainTextEdit
from shiboken6 import isValid

from desktop_kb.markup.title_match import TitleMatch
from desktop_kb.markup.wiki_links import open_link_prefix
from desktop_kb.tasks.library_tasks import TaskRunner

Rank = Callable[[str, int, int | None], list[TitleMatch]]  # (typed, limit, exclude id)

MAX_ROWS = 8


def match_html(match: TitleMatch) -> str:
    out, pos = [], 0
    for start, end in match.spans:
        out.append(html.escape(match.title[pos:start]))
        out.append(f"<b>{html.escape(match.title[start:end])}</b>")
        pos = end
    out.append(html.escape(match.title[pos:]))
    return "".join(out)


class LinkCompleter(QObject):
    """Watches one editor; ``rank`` ranks the titles of live notes (``TitleCatalog.rank``)."""

    inserted = Signal(str)  # the chosen title
    shown = Signal(int)  # rows listed (tests)

    def __init__(self, edit: QPlainTextEdit, runner: TaskRunner, rank: Rank,
                 own_id: Callable[[], int | None]) -> None:
        super().__init__(edit)
        self.edit = edit
        self._runner = runner
        self._rank = rank
        self._own_id = own_id
        self._generation = 0
        self._typed: str | None = None
        self.matches: list[TitleMatch] = []
        self.popup = QListWidget(edit, objectName="linkCompleter")
        self.popup.setWindowFlags(Qt.WindowType.ToolTip | Qt.WindowType.FramelessWindowHint)
        self.popup.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)
        self.popup.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.popup.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.popup.itemClicked.connect(lambda item: self.choose(self.popup.row(item)))
        edit.textChanged.connect(self._update)
        edit.cursorPositionChanged.connect(self._update)
        edit.installEventFilter(self)

    # ----- what is being typed ------------------------------------------------------------

    def typed(self) -> str | None:
        cursor = self.edit.textCursor()
        if cursor.hasSelection():
            return None
        block = cursor.block()
        return open_link_prefix(block.text()[: cursor.positionInBlock()])

    def _update(self) -> None:
        if self.edit.isReadOnly() or not self.edit.hasFocus():
            self.hide()
            return
        typed = self.typed()
        if typed is None:
            self.hide()
            return
        if typed == self._typed and self.popup.isVisible():
            return
        self._typed = typed
        self._generation += 1
        generation, own, rank = self._generation, self._own_id(), self._rank
        self._runner.run(lambda: rank(typed, MAX_ROWS, own), lambda found: self._show(generation, found))

    def _show(self, generation: int, matches: list[TitleMatch]) -> None:
        if generation != self._generation or self.typed() is None:
            return
        self.matches = matches[:MAX_ROWS]
        self.popup.clear()
        if not self.matches:
            self.hide()
            return
        for match in self.matches:
            item = QListWidgetItem()
            label = QLabel(match_html(match))
            label.setTextFormat(Qt.TextFormat.RichText)
            label.setContentsMargins(6, 2, 6, 2)
            label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
            item.setSizeHint(label.sizeHint())
            self.popup.addItem(item)
            self.popup.setItemWidget(item, label)
        self.popup.setCurrentRow(0)
        rect = self.edit.cursorRect()
        origin = self.edit.viewport().mapToGlobal(QPoint(rect.left(), rect.bottom() + 4))
        rows = sum(self.popup.sizeHintForRow(i) for i in range(self.popup.count()))
        self.popup.setFixedSize(360, rows + 2 * self.popup.frameWidth())
        self.popup.move(origin)
        self.popup.show()
        self.shown.emit(len(self.matches))

    def hide(self) -> None:
        self._typed = None
        self.popup.hide()

    # ----- choosing -----------------------------------------------------------------------

    def choose(self, row: int) -> None:
        if not 0 <= row < len(self.matches):
            return
        typed = self.typed()
        if typed is None:
            self.hide()
            return
        title = self.matches[row].title
        cursor = self.edit.textCursor()
        cursor.beginEditBlock()
        cursor.movePosition(QTextCursor.MoveOperation.Left, QTextCursor.MoveMode.KeepAnchor, len(typed))
        after = self.edit.document().characterAt(cursor.selectionEnd())
        closing = "" if after == "]" else "]]"
        cursor.insertText(title + closing)
        if not closing:  # step over the "]]" that was already there
            cursor.movePosition(QTextCursor.MoveOperation.Right, n=2)
        cursor.endEditBlock()
        self.edit.setTextCursor(cursor)
        self.hide()
        self.inserted.emit(title)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.FocusOut and isValid(self.popup):
            self.hide()
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) and self.popup.isVisible():
            key = event.key()
            if key in (Qt.Key.Key_Down, Qt.Key.Key_Up):
                step = 1 if key == Qt.Key.Key_Down else -1
                self.popup.setCurrentRow(max(0, min(self.popup.count() - 1, self.popup.currentRow() + step)))
                return True
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Tab):
                self.choose(self.popup.currentRow())
                return True
            if key == Qt.Key.Key_Escape:
                self.hide()
                return True
        return super().eventFilter(watched, event)
