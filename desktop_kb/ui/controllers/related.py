"""Related-material surface: the panel's dock beside the editor, wired to the open note."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt

from desktop_kb.discovery.panel import NearDuplicate
from desktop_kb.library import IndexStatus
from desktop_kb.tasks.related_tasks import RelatedController
from desktop_kb.ui.related_panel import RelatedDock, RelatedPanel

if TYPE_CHECKING:
    from desktop_kb.ui.main_window import MainWindow


def install(window: MainWindow) -> RelatedDock:
    """Put the panel beside the editor and wire it to the window (called once, at construction)."""
    controller = RelatedController(window.runner, window.save_queue.submit, window)
    panel = RelatedPanel(controller)
    dock = RelatedDock(panel, window)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    window.resizeDocks([dock], [320], Qt.Orientation.Horizontal)
    controller.enabledChanged.connect(dock.setVisible)
    panel.header.hide()  # the dock's title (or tab) already names the panel

    def current_changed(_index: int) -> None:
        panel.reading = window.centre.currentWidget() is window.reader
        if window.centre.currentWidget() is not window.editor:
            panel.show_note(None)

    in_use: list[str | None] = [None]  # the embedding model the shown suggestions were made with
    # What the index held when it last settled: (sources, chunks still without a vector).
    settled: list[tuple[int, int] | None] = [None]

    def status_changed(status: IndexStatus) -> None:
        # Installing or switching a model in Settings left the open note's panel saying
        # "Keyword matches only" (and its keyword-only suggestions) until another note opened.
        if in_use[0] is not None and status.embed_model != in_use[0]:
            controller.refresh()
        in_use[0] = status.embed_model
        # A book imported (here or by another program), sources deleted, the embedding done:
        # the open note's panel said "Nothing related found yet" until the note was edited.
        if status.pending or status.dirty:
            return
        now = (status.sources, status.missing_vectors)
        if settled[0] is not None and now != settled[0]:
            controller.refresh()
        settled[0] = now

    window.libraryOpened.connect(controller.set_library)
    window.index.statusChanged.connect(status_changed)
    window.shutdownFinished.connect(controller.stop)
    window.notes.noteOpened.connect(panel.show_note)
    window.centre.currentChanged.connect(current_changed)
    panel.openNote.connect(window.notes.open_note)
    panel.openFragment.connect(window.documents.open_fragment)
    panel.compareRequested.connect(lambda d: _compare(window, d))
    return dock


def _compare(window: MainWindow, duplicate: NearDuplicate) -> None:
    from desktop_kb.ui.compare_dialog import open_comparison

    open_comparison(window, duplicate)
