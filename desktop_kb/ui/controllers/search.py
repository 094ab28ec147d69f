"""Global search surface (Ctrl+K): the popup, and opening what the person chose."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

from desktop_kb.library import Library
from desktop_kb.retrieval.results import SearchResult
from desktop_kb.ui.search_popup import LIMIT

if TYPE_CHECKING:
    from desktop_kb.ui.main_window import MainWindow


class SearchController(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._w = window
        window.search.resultChosen.connect(self.open_result)

    def set_library(self, library: Library) -> None:
        # The popup runs this on the task runner, never on the GUI thread.
        self._w.search.set_search(partial(library.search, limit=LIMIT))

    def open_search(self) -> None:
        self._w.notes.save_now()
        self._w.search.popup()

    def open_search_text(self, text: str) -> None:
        """Open the search popup with ``text`` typed (used by demos and tests)."""
        self.open_search()
        self._w.search.query.setText(text)

    def open_result(self, result: SearchResult) -> None:
        """Open a search hit (or a citation) at its passage, highlighted."""
        w = self._w
        if result.source_type == "note":
            if w.note_list.showing_trash:
                w.note_list.trash_button.setChecked(False)
            w.notes.open_note(result.source_id, result.highlights, result.start)
        elif result.document_id is not None:
            w.documents.open_fragment(result.document_id, result.source_id, result.highlights, result.start)
