"""Find and replace in the open note (Ctrl+F, Ctrl+H): a bar under the editor, like a browser's.

Matches are found in the editor's own document (``QTextDocument.find``), so
positions are Qt's and no offset mapping is needed; every match is tinted,
the current one selected, and "3 of 12" says where you are. Replacing edits
through the editor's cursor, so Ctrl+Z undoes it and autosave sees it.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QColor, QKeyEvent, QTextCharFormat, QTextCursor, QTextDocument
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

MATCH_COLOR = QColor("#ffe08a")
MAX_TINTED = 2000  # past this many matches only the count is exact, tinting stops (long notes)


class FindBar(QWidget):
    closed = Signal()

    def __init__(self, edit: QPlainTextEdit, parent: QWidget | None = None) -> None:
        super().__init__(parent, objectName="findBar")
        self.edit = edit
        self.matches: list[QTextCursor] = []
        self.current = -1
        self.query = QLineEdit(objectName="findQuery", clearButtonEnabled=True)
        self.query.textChanged.connect(lambda _t: self.search(keep_position=True))
        self.query.returnPressed.connect(self.next)
        self.count = QLabel(objectName="emptyHint")
        self.case = QCheckBox()
        self.case.toggled.connect(lambda _on: self.search(keep_position=True))
        self.prev_button = QToolButton(text="↑")
        self.prev_button.clicked.connect(self.previous)
        self.next_button = QToolButton(text="↓")
        self.next_button.clicked.connect(self.next)
        self.close_button = QToolButton(autoRaise=True, text="✕")
        self.close_button.clicked.connect(self.close_bar)
        self.replacement = QLineEdit(objectName="replaceText")
        self.replacement.returnPressed.connect(self.replace_one)
        self.replace_button = QToolButton()
        self.replace_button.clicked.connect(self.replace_one)
        self.replace_all_button = QToolButton()
        self.replace_all_button.clicked.connect(self.replace_all)

        find_row = QHBoxLayout()
        find_row.setContentsMargins(0, 0, 0, 0)
        find_row.addWidget(self.query, 1)
        find_row.addWidget(self.count)
        find_row.addWidget(self.case)
        find_row.addWidget(self.prev_button)
        find_row.addWidget(self.next_button)
        find_row.addWidget(self.close_button)
        self.replace_row = QWidget()
        replace = QHBoxLayout(self.replace_row)
        replace.setContentsMargins(0, 0, 0, 0)
        replace.addWidget(self.replacement, 1)
        replace.addWidget(self.replace_button)
        replace.addWidget(self.replace_all_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.setSpacing(4)
        layout.addLayout(find_row)
        layout.addWidget(self.replace_row)
        for widget in (self.query, self.replacement):
            widget.installEventFilter(self)
        edit.textChanged.connect(self._text_changed)
        self.hide()
        self.retranslateUi()

    # ----- opening and closing --------------------------------------------------------------

    def open_find(self, *, replace: bool = False) -> None:
        selected = self.edit.textCursor().selectedText()
        if selected and "\u2029" not in selected:  # one line of selection seeds the query
            self.query.setText(selected)
        self.replace_row.setVisible(replace and not self.edit.isReadOnly())
        self.show()
        self.query.setFocus()
        self.query.selectAll()
        self.search(keep_position=True)

    def close_bar(self) -> None:
        self.hide()
        self.edit.setExtraSelections([])
        self.matches = []
        self.edit.setFocus()
        self.closed.emit()

    # ----- searching ------------------------------------------------------------------------

    def _flags(self) -> QTextDocument.FindFlag:
        flags = QTextDocument.FindFlag(0)
        if self.case.isChecked():
            flags |= QTextDocument.FindFlag.FindCaseSensitively
        return flags

    def search(self, *, keep_position: bool = False) -> None:
        if not self.isVisible():
            return
        text = self.query.text()
        document = self.edit.document()
        self.matches = []
        if text:
            cursor = QTextCursor(document)
            while True:
                cursor = document.find(text, cursor, self._flags())
                if cursor.isNull():
                    break
                self.matches.append(QTextCursor(cursor))
        anchor = self.edit.textCursor().selectionStart() if keep_position else -1
        self.current = next((i for i, m in enumerate(self.matches) if m.selectionStart() >= anchor), 0) \
            if self.matches else -1
        self._show()

    def _text_changed(self) -> None:
        if self.isVisible() and not self._replacing:
            self.search(keep_position=True)

    _replacing = False

    def _show(self) -> None:
        fmt = QTextCharFormat()
        fmt.setBackground(MATCH_COLOR)
        fmt.setForeground(QColor("#111"))
        selections = []
        for match in self.matches[:MAX_TINTED]:
            selection = QTextEdit.ExtraSelection()
            selection.cursor = match  # type: ignore[misc]
            selection.format = fmt  # type: ignore[misc]
            selections.append(selection)
        self.edit.setExtraSelections(selections)
        if 0 <= self.current < len(self.matches):
            self.edit.setTextCursor(self.matches[self.current])
            self.edit.ensureCursorVisible()
            self.count.setText(self.tr("{0} of {1}").format(self.current + 1, len(self.matches)))
        else:
            self.count.setText(self.tr("No matches") if self.query.text() else "")
        self.query.setProperty("notFound", bool(self.query.text()) and not self.matches)
        self.query.style().polish(self.query)

    def next(self) -> None:
        if self.matches:
            self.current = (self.current + 1) % len(self.matches)
            self._show()

    def previous(self) -> None:
        if self.matches:
            self.current = (self.current - 1) % len(self.matches)
            self._show()

    # ----- replacing ------------------------------------------------------------------------

    def replace_one(self) -> None:
        if self.edit.isReadOnly() or not 0 <= self.current < len(self.matches):
            return
        index = self.current
        self._replacing = True
        try:
            self.matches[index].insertText(self.replacement.text())
        finally:
            self._replacing = False
        self.search(keep_position=True)

    def replace_all(self) -> int:
        if self.edit.isReadOnly() or not self.matches:
            return 0
        count = len(self.matches)
        self._replacing = True
        cursor = QTextCursor(self.edit.document())
        cursor.beginEditBlock()  # one undo step for the whole replacement
        try:
            for match in self.matches:
                match.insertText(self.replacement.text())
        finally:
            cursor.endEditBlock()
            self._replacing = False
        self.search()
        self.count.setText(self.tr("Replaced %n match(es)", "", count))
        return count

    # ----- keys -----------------------------------------------------------------------------

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            if event.key() == Qt.Key.Key_Escape:
                self.close_bar()
                return True
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) \
                    and event.modifiers() & Qt.KeyboardModifier.ShiftModifier and watched is self.query:
                self.previous()
                return True
        return super().eventFilter(watched, event)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        self.query.setPlaceholderText(self.tr("Find in note"))
        self.replacement.setPlaceholderText(self.tr("Replace with"))
        self.case.setText(self.tr("Match case"))
        self.prev_button.setToolTip(self.tr("Previous match (Shift+Enter)"))
        self.next_button.setToolTip(self.tr("Next match (Enter)"))
        self.close_button.setToolTip(self.tr("Close (Esc)"))
        self.replace_button.setText(self.tr("Replace"))
        self.replace_all_button.setText(self.tr("Replace all"))
