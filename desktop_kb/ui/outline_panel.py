"""The open note's headings as a tree (View → Outline); a click jumps there in the editor."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_kb.markup.headings import Heading, outline
from desktop_kb.ui.docks import raise_when_shown

if TYPE_CHECKING:
    from desktop_kb.ui.main_window import MainWindow

REFRESH_MS = 400
START_ROLE = Qt.ItemDataRole.UserRole + 1


class OutlinePanel(QWidget):
    def __init__(self, window: MainWindow) -> None:
        super().__init__()
        self.window = window
        self.headings: list[Heading] = []
        self.empty = QLabel(objectName="emptyHint", wordWrap=True)
        self.tree = QTreeWidget(objectName="outlineTree")
        self.tree.setHeaderHidden(True)
        self.tree.itemActivated.connect(self._jump)
        self.tree.itemClicked.connect(self._jump)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 4, 4)
        layout.addWidget(self.empty)
        layout.addWidget(self.tree, 1)
        self._timer = QTimer(self, singleShot=True, interval=REFRESH_MS)
        self._timer.timeout.connect(self.refresh)
        window.editor.body.textChanged.connect(self._timer.start)
        self.refresh()
        self.retranslateUi()

    def refresh(self) -> None:
        if not self.isVisible() and self.headings:
            return  # hidden: catch up when shown
        text = self.window.editor.body.toPlainText()
        headings = outline(text)
        if headings == self.headings and self.tree.topLevelItemCount():
            return
        self.headings = headings
        self.tree.clear()
        stack: list[tuple[int, QTreeWidgetItem]] = []
        for heading in headings:
            item = QTreeWidgetItem([heading.title])
            item.setData(0, START_ROLE, heading.start)
            item.setToolTip(0, heading.title)
            while stack and stack[-1][0] >= heading.level:
                stack.pop()
            (stack[-1][1].addChild(item) if stack else self.tree.addTopLevelItem(item))
            stack.append((heading.level, item))
        self.tree.expandAll()
        self.empty.setVisible(not headings)
        self.tree.setVisible(bool(headings))

    def showEvent(self, event: object) -> None:  # noqa: N802
        super().showEvent(event)  # type: ignore[arg-type]
        self.refresh()

    def _jump(self, item: QTreeWidgetItem) -> None:
        start = int(item.data(0, START_ROLE))
        editor = self.window.editor
        text = editor.body.toPlainText()
        end = text.find("\n", start)
        editor.highlight([(start, len(text) if end < 0 else end)], start)
        editor.body.setFocus()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        self.empty.setText(self.tr("Headings (# Title, ## Section) of the open note appear here."))


class OutlineDock(QDockWidget):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.setObjectName("outlineDock")
        self.panel = OutlinePanel(window)
        self.setWidget(self.panel)
        self.toggleViewAction().setShortcut(QKeySequence("Ctrl+Shift+O"))
        self.retranslateUi()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        self.setWindowTitle(self.tr("Outline"))
        self.toggleViewAction().setText(self.tr("&Outline"))


def install_outline(window: MainWindow) -> OutlineDock:
    dock = OutlineDock(window)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    related = getattr(window, "related_dock", None)
    if related is not None:
        window.tabifyDockWidget(related, dock)
        related.raise_()
    dock.hide()
    raise_when_shown(dock)
    return dock
