"""Help → Keyboard shortcuts: every shortcut of the window, read from its actions, translated.

Listing the live actions (not a hand-kept table) means a shortcut added later
shows up here by itself, under the menu that holds it (in menu order); the few
keys that are not actions are listed last.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QAction, QFont, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QMainWindow,
    QMenu,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)


def _row(action: QAction) -> tuple[str, str] | None:
    keys = [k for k in action.shortcuts() if not k.isEmpty()]
    text = _plain(action.text())
    if not keys or not text:
        return None
    return text, ", ".join(dict.fromkeys(k.toString(QKeySequence.SequenceFormat.NativeText) for k in keys))


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
        # A way out that needs no title bar or Esc: a window manager may draw no close button.
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        self.close_button = buttons.button(QDialogButtonBox.StandardButton.Close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)
        self.retranslateUi()

    def sections(self) -> list[tuple[str, list[tuple[str, str]]]]:
        """(heading, rows) in the menus' own order, so a key is found where its command lives."""
        seen: set[str] = set()
        out: list[tuple[str, list[tuple[str, str]]]] = []

        def take(action: QAction, rows: list[tuple[str, str]]) -> None:
            row = _row(action)
            if row is not None and row[0] not in seen:
                seen.add(row[0])
                rows.append(row)

        def walk(menu: QMenu, rows: list[tuple[str, str]]) -> None:
            for action in menu.actions():
                sub = action.menu()
                if isinstance(sub, QMenu):
                    walk(sub, rows)
                else:
                    take(action, rows)

        bar = self.window_.menuBar() if isinstance(self.window_, QMainWindow) else None
        for top in bar.actions() if bar is not None else []:
            menu, rows = top.menu(), []
            if isinstance(menu, QMenu):
                walk(menu, rows)
            if rows:
                out.append((_plain(menu.title()), rows))
        rest: list[tuple[str, str]] = []
        for action in self.window_.findChildren(QAction):
            take(action, rest)
        if rest:
            out.append((self.tr("Other"), sorted(rest, key=lambda kv: kv[0].casefold())))
        out.append((self.tr("Keys without a menu item"), [
            (self.tr("Follow a [[link]] or #tag in the editor"), self.tr("Ctrl+click, or Ctrl+Enter")),
            (self.tr("Link to a note: type [[ and choose a title"), "[[ , ↑ ↓ , Enter / Tab"),
            (self.tr("From the title to the text"), self.tr("Enter")),
            (self.tr("Back to the editor from the question box"), "Esc"),
            (self.tr("Move the selected note to the trash"), self.tr("Delete (in the note list)")),
            (self.tr("Back / forward with the mouse"), self.tr("Mouse side buttons")),
            (self.tr("Previous match in Find"), "Shift+Enter"),
        ]))
        return out

    def rows(self) -> list[tuple[str, str]]:
        return [row for _heading, rows in self.sections() for row in rows]

    def refresh(self) -> None:
        sections = self.sections()
        self.table.clearSpans()
        self.table.setRowCount(sum(1 + len(rows) for _h, rows in sections))
        bold = QFont(self.table.font())
        bold.setBold(True)
        i = 0
        for heading, rows in sections:
            head = QTableWidgetItem(heading)
            head.setFont(bold)
            self.table.setItem(i, 0, head)
            self.table.setItem(i, 1, QTableWidgetItem(""))
            self.table.setSpan(i, 0, 1, 2)
            i += 1
            for what, keys in rows:
                self.table.setItem(i, 0, QTableWidgetItem("    " + what))
                item = QTableWidgetItem(keys)
                item.setTextAlignment(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft)
                self.table.setItem(i, 1, item)
                i += 1

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        self.setWindowTitle(self.tr("Keyboard shortcuts"))
        self.intro.setText(self.tr("Every shortcut of Desktop KB. Menus show them too."))
        self.table.setHorizontalHeaderLabels([self.tr("Action"), self.tr("Keys")])
        self.table.setAccessibleName(self.tr("Keyboard shortcuts"))
        self.table.horizontalHeader().setAccessibleName(self.tr("Keyboard shortcuts"))
        self.refresh()
