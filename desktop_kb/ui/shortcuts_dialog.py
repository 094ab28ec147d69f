"""Help → Keyboard shortcuts: every shortcut of the window, read from its actions, translated.

Listing the live actions (not a hand-kept table) means a shortcut added later
shows up here by itself; the few keys that are not actions are listed below them.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)


def _plain(text: str) -> str:
    """A menu text without its mnemonic marker and trailing dots ("&Save…" → "Save")."""
    import re

    text = re.sub(r"\(&\w\)", "", text)  # Chinese menus: "保存(&S)"
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip("…").strip()


class ShortcutsDialog(QDialog):
    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.window_ = window
        self.setObjectName("shortcutsDialog")
        self.resize(560, 620)
        self.intro = QLabel(wordWrap=True)
        self.table = QTableWidget(0, 2)
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QTableWidget.SelectionMode.NoSelection)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.table, 1)
        self.retranslateUi()

    def rows(self) -> list[tuple[str, str]]:
        found: dict[str, str] = {}
        for action in self.window_.findChildren(QAction):
            keys = [k for k in action.shortcuts() if not k.isEmpty()]
            text = _plain(action.text())
            if keys and text:
                found.setdefault(text, ", ".join(dict.fromkeys(
                    k.toString(QKeySequence.SequenceFormat.NativeText) for k in keys)))
        rows = sorted(found.items(), key=lambda kv: kv[0].casefold())
        rows += [
            (self.tr("Follow a [[link]] or #tag in the editor"), self.tr("Ctrl+click, or Ctrl+Enter")),
            (self.tr("Link to a note: type [[ and choose a title"), "[[ , ↑ ↓ , Enter / Tab"),
            (self.tr("From the title to the text"), self.tr("Enter")),
            (self.tr("Back to the editor from the question box"), "Esc"),
            (self.tr("Move the selected note to the trash"), self.tr("Delete (in the note list)")),
            (self.tr("Back / forward with the mouse"), self.tr("Mouse side buttons")),
            (self.tr("Previous match in Find"), "Shift+Enter"),
        ]
        return rows

    def refresh(self) -> None:
        rows = self.rows()
        self.table.setRowCount(len(rows))
        for i, (what, keys) in enumerate(rows):
            self.table.setItem(i, 0, QTableWidgetItem(what))
            item = QTableWidgetItem(keys)
            item.setTextAlignment(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft)
            self.table.setItem(i, 1, item)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        self.setWindowTitle(self.tr("Keyboard shortcuts"))
        self.intro.setText(self.tr("Every shortcut of Desktop KB. Menus show them too."))
        self.table.setHorizontalHeaderLabels([self.tr("Action"), self.tr("Keys")])
        self.refresh()
