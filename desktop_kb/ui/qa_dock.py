"""The dock that holds the QA pane beside the editor (wired by ``ui.controllers.qa``)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QDockWidget, QWidget

from desktop_kb.tasks.library_tasks import TaskRunner
from desktop_kb.tasks.qa_tasks import QaBridge
from desktop_kb.ui.qa_pane import QaPane


class QaDock(QDockWidget):
    def __init__(self, runner: TaskRunner, window: QWidget) -> None:
        super().__init__(window)
        self.setObjectName("qaDock")
        self.bridge = QaBridge(runner, self)
        self.pane = QaPane(self.bridge)
        self.setWidget(self.pane)
        self.setAllowedAreas(Qt.DockWidgetArea.LeftDockWidgetArea | Qt.DockWidgetArea.RightDockWidgetArea)
        self.toggleViewAction().setShortcut(QKeySequence("Ctrl+Shift+A"))
        self.retranslateUi()

    def shutdown(self) -> None:
        """Stop a live request so the window's task pool can finish."""
        self.bridge.stop()
        self.bridge.set_library(None)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        self.setWindowTitle(self.tr("Ask the library"))
