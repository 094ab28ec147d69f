"""Puts the QA pane in a dock beside the editor and wires it to the window."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QDockWidget, QMainWindow

from desktop_kb.retrieval.results import SearchResult
from desktop_kb.tasks.qa_tasks import QaBridge
from desktop_kb.ui.qa_pane import QaPane


class QaDock(QDockWidget):
    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.setObjectName("qaDock")
        self.bridge = QaBridge(window.runner, self)
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


def citation_result(record: dict[str, Any]) -> SearchResult:
    """A citation as the search result MainWindow.open_result already knows how to open."""
    highlights = [tuple(h) for h in record.get("highlights") or []] or [(record["start"], record["end"])]
    return SearchResult(rank=record["n"], source_type=record["source_type"], source_id=record["source_id"],
                        title=record["title"], snippet=record.get("snippet", ""),
                        highlights=highlights,  # type: ignore[arg-type]
                        start=record["start"], end=record["end"], score=0.0, chunk_id=0,
                        chunk_start=record["start"], chunk_end=record["end"],
                        document_id=record.get("document_id"))


def install_qa_dock(window: QMainWindow) -> QaDock:
    dock = QaDock(window)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    related = getattr(window, "related_dock", None)
    if related is not None:
        # Tabbed with the related panel: at 1280 px two side panes would squeeze the editor.
        window.tabifyDockWidget(related, dock)
        related.raise_()
    else:
        window.resizeDocks([dock], [380], Qt.Orientation.Horizontal)
    dock.hide()  # until the person opens it (Edit menu, Ctrl+Shift+A); the window state remembers
    dock.toggleViewAction().toggled.connect(lambda on: on and dock.raise_())
    window.libraryOpened.connect(dock.pane.set_library)  # type: ignore[attr-defined]
    dock.pane.citationActivated.connect(lambda rec: window.open_result(citation_result(rec)))  # type: ignore[attr-defined]
    dock.pane.noteSaved.connect(lambda note_id: (window.reload_notes(), window.open_note(note_id)))  # type: ignore[attr-defined]
    menu = getattr(window, "menu_edit", None)
    if menu is not None:
        menu.addSeparator()
        menu.addAction(dock.toggleViewAction())
    return dock
