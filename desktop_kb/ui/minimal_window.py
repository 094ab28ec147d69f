"""A first window: search the library. The full editor window comes with the GUI issue."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QLabel, QLineEdit, QListWidget, QMainWindow, QVBoxLayout, QWidget

from desktop_kb.library import Library
from desktop_kb.tasks.library_tasks import run_in_background


class MinimalWindow(QMainWindow):
    def __init__(self, data_dir: Path) -> None:
        super().__init__()
        self.setWindowTitle(self.tr("Desktop KB"))
        self.resize(900, 600)
        self._library: Library | None = None
        self._status = QLabel(self.tr("Opening the library…"))
        self._query = QLineEdit()
        self._query.setPlaceholderText(self.tr("Search notes and the library"))
        self._results = QListWidget()
        layout = QVBoxLayout()
        for widget in (self._query, self._results, self._status):
            layout.addWidget(widget)
        central = QWidget()
        central.setLayout(layout)
        self.setCentralWidget(central)
        self._debounce = QTimer(self, singleShot=True, interval=200)
        self._debounce.timeout.connect(self._search)
        self._query.textChanged.connect(self._debounce.start)
        self._generation = 0
        run_in_background(self, lambda: Library(data_dir, verify_on_start=True),
                          self._opened, self._status.setText)

    def _opened(self, library: Library) -> None:
        self._library = library
        run_in_background(self, library.index_status,
                          lambda s: self._status.setText(
                              self.tr("Index: {0} sources, {1} chunks").format(s.sources, s.chunks)))

    def _search(self) -> None:
        if self._library is None:
            return
        self._generation += 1
        generation, query, library = self._generation, self._query.text(), self._library
        run_in_background(self, lambda: library.search(query, limit=20),
                          lambda r: self._show(generation, r), self._status.setText)

    def _show(self, generation: int, response: object) -> None:
        if generation != self._generation:
            return  # a newer query is on its way; drop stale results
        self._results.clear()
        for r in response.results:  # type: ignore[attr-defined]
            self._results.addItem(f"{r.title} — {r.snippet}")

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt naming
        if self._library is not None:
            self._library.close()
        super().closeEvent(event)
