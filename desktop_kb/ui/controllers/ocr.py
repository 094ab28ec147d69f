"""Scanned pages, recognised in the background after their text pages are searchable.

An import lists the PDFs with scanned pages; when OCR is installed this
controller recognises them one after another on the task runner, with a
progress bar and a Cancel button in the status bar, and reloads what is shown
when it is done.  Documents still waiting from an earlier session (or from
before OCR was installed) are picked up when the library opens or OCR is
installed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QHBoxLayout, QProgressBar, QToolButton, QWidget

from desktop_kb.tasks.library_tasks import describe_error
from desktop_kb.tasks.progress_bridge import ProgressBridge

if TYPE_CHECKING:
    from desktop_kb.ui.main_window import MainWindow


class OcrController(QObject):
    finished = Signal(int)  # pages recognised

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._w = window
        self._bridge: ProgressBridge | None = None
        self._queued: list[int] = []
        self._running: list[int] = []
        self.box = QWidget()
        self.bar = QProgressBar()
        self.bar.setMaximumWidth(220)
        self.bar.setTextVisible(True)
        self.cancel_button = QToolButton(autoRaise=True)
        self.cancel_button.clicked.connect(self.cancel)
        row = QHBoxLayout(self.box)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.bar)
        row.addWidget(self.cancel_button)
        self.box.hide()
        window.statusBar().addPermanentWidget(self.box)
        window.libraryOpened.connect(lambda _lib: self.start_waiting())
        self.retranslateUi()

    @property
    def running(self) -> bool:
        return self._bridge is not None

    def start_waiting(self) -> None:
        """Every document with scanned pages still waiting, if OCR is installed."""
        library = self._w.library
        if library is None:
            return

        def waiting() -> list[int]:
            if not library.ocr.installed:
                return []
            return [d.id for d in library.documents_waiting_for_ocr()]

        self._w.runner.run(waiting, self.start)

    def start(self, document_ids: list[int]) -> None:
        ids = [i for i in document_ids if i not in self._queued and i not in self._running]
        if not ids:
            return
        self._queued.extend(ids)
        if self._bridge is None:
            self._run_next()

    def _run_next(self) -> None:
        library = self._w.library
        if library is None or not self._queued:
            return
        ids, self._queued = list(self._queued), []
        self._running = ids
        bridge = self._w.start_progress()
        self._bridge = bridge
        bridge.changed.connect(self._progress)
        self.bar.setRange(0, 0)
        self.box.show()
        self._w.runner.run(lambda: library.recognise_scans(ids, progress=bridge.progress),
                           lambda pages: self._done(bridge, pages),
                           lambda exc: self._done(bridge, exc))

    def _progress(self, _label: str, done: int, total: int) -> None:
        if total > 0:
            self.bar.setRange(0, total)
            self.bar.setValue(done)
            self.bar.setFormat(self.tr("OCR %v/%m pages"))

    def cancel(self) -> None:
        if self._bridge is not None:
            self._bridge.cancel()
            self._queued = []

    def _done(self, bridge: ProgressBridge, result: Any) -> None:
        w = self._w
        w.end_progress(bridge)
        self._bridge = None
        self.box.hide()
        self._running_done = self._running
        if isinstance(result, BaseException):
            w.statusBar().showMessage(self.tr("Text recognition failed: {0}").format(describe_error(result)), 10000)
        else:
            w.statusBar().showMessage(
                self.tr("Recognised %n scanned page(s); they are searchable now.", "", result), 10000)
            w.documents.reload_tree()
            reader = w.reader
            if reader.document is not None and reader.document.id in self._running_done:
                w.documents.open_document(reader.document.id)  # show the recognised pages
            self.finished.emit(int(result))
        self._running = []
        if self._queued:
            self._run_next()

    def retranslateUi(self) -> None:  # noqa: N802
        self.cancel_button.setText(self.tr("Cancel"))
        self.cancel_button.setToolTip(self.tr("Stop recognising scanned pages (they keep waiting)"))
        self.bar.setToolTip(self.tr("Recognising text on scanned pages"))
