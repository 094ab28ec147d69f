"""QA surface ("Ask the library"): the pane's dock, tabbed with related material."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt

from desktop_kb.retrieval.results import SearchResult
from desktop_kb.ui.docks import raise_when_shown
from desktop_kb.ui.qa_dock import QaDock

if TYPE_CHECKING:
    from desktop_kb.ui.main_window import MainWindow


def citation_result(record: dict[str, Any]) -> SearchResult:
    """A citation as the search result ``SearchController.open_result`` already knows how to open."""
    highlights = [tuple(h) for h in record.get("highlights") or []] or [(record["start"], record["end"])]
    return SearchResult(rank=record["n"], source_type=record["source_type"], source_id=record["source_id"],
                        title=record["title"], snippet=record.get("snippet", ""),
                        highlights=highlights,  # type: ignore[arg-type]
                        start=record["start"], end=record["end"], score=0.0, chunk_id=0,
                        chunk_start=record["start"], chunk_end=record["end"],
                        document_id=record.get("document_id"))


def install(window: MainWindow) -> QaDock:
    """Add the QA dock (hidden until asked for) and wire citations and saved answers."""
    dock = QaDock(window.runner, window)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    # Tabbed with the related panel: at 1280 px two side panes would squeeze the editor.
    window.tabifyDockWidget(window.related_dock, dock)
    window.related_dock.raise_()
    dock.hide()  # until the person opens it (Edit menu, Ctrl+Shift+A); the window state remembers
    raise_when_shown(dock)
    window.libraryOpened.connect(dock.pane.set_library)
    dock.pane.citationActivated.connect(lambda rec: window.global_search.open_result(citation_result(rec)))
    dock.pane.noteSaved.connect(lambda note_id: (window.notes.reload_notes(), window.notes.open_note(note_id)))
    window.menu_edit.addSeparator()
    window.menu_edit.addAction(dock.toggleViewAction())
    return dock
