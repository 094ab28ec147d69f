"""Settings → OCR: install text recognition for scanned PDF pages, on demand, with progress.

OCR is off until the person installs it here (or with ``desktop-kb ocr
install``); installing fetches the RapidOCR wheels with pip or takes them from
a folder, then any scanned pages that were waiting are recognised in the
background.  The page only draws: install, status and removal run on the
task runner.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop_kb.tasks import settings_tasks
from desktop_kb.tasks.library_tasks import LatestOnly, TaskRunner, describe_error
from desktop_kb.tasks.progress_bridge import ProgressBridge
from desktop_kb.ui.env_messages import localize
from desktop_kb.ui.progress_dialog import stage_text


class OcrPage(QWidget):
    ocrInstalled = Signal()

    def __init__(self, runner: TaskRunner, library: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._latest = LatestOnly()  # an older reload never draws over a later one
        self._library = library
        self._install: ProgressBridge | None = None
        self.header = QLabel(objectName="paneHeader")
        self.explain = QLabel(wordWrap=True)
        self.status = QLabel(wordWrap=True)
        self.install_button = QPushButton()
        self.install_button.clicked.connect(lambda: self.install(None))
        self.from_folder_button = QPushButton()
        self.from_folder_button.clicked.connect(self._choose_folder)
        self.remove_button = QPushButton()
        self.remove_button.clicked.connect(self.remove)
        self.progress = QProgressBar()
        self.progress.hide()
        self.cancel_button = QPushButton()
        self.cancel_button.clicked.connect(self._cancel)
        self.cancel_button.hide()
        self.message = QLabel(wordWrap=True)
        buttons = QHBoxLayout()
        buttons.addWidget(self.install_button)
        buttons.addWidget(self.from_folder_button)
        buttons.addStretch(1)
        buttons.addWidget(self.remove_button)
        progress = QHBoxLayout()
        progress.addWidget(self.progress, 1)
        progress.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.header)
        layout.addWidget(self.explain)
        layout.addWidget(self.status)
        layout.addLayout(buttons)
        layout.addLayout(progress)
        layout.addWidget(self.message)
        layout.addStretch(1)
        self._installed = False
        self._waiting = 0
        self.retranslateUi()
        self.reload()

    def reload(self) -> None:
        library = self._library

        self._runner.run(lambda: settings_tasks.load_ocr_state(library), self._latest(self._loaded),
                         lambda exc: self.message.setText(describe_error(exc)))

    def _loaded(self, state: tuple[bool, str, int]) -> None:
        self._installed, _detail, self._waiting = state
        self._show_state()

    def _show_state(self) -> None:
        busy = self._install is not None
        self.install_button.setEnabled(not busy and not self._installed)
        self.from_folder_button.setEnabled(not busy and not self._installed)
        self.remove_button.setEnabled(not busy and self._installed)
        if self._installed:
            text = self.tr("OCR is installed. Scanned pages are recognised after their text pages are searchable.")
        else:
            text = self.tr("OCR is not installed: scanned pages are skipped with a reason.")
        if self._waiting:
            text += " " + self.tr("%n scanned page(s) are waiting for OCR.", "", self._waiting)
        self.status.setText(text)

    # ----- install ----------------------------------------------------------------------

    def _choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Folder with the OCR wheels"))
        if folder:
            self.install(Path(folder))

    def install(self, from_path: Path | None) -> None:
        if self._install is not None:
            return
        bridge = ProgressBridge(self)
        self._install = bridge
        bridge.changed.connect(self._progress)
        self.progress.setRange(0, 0)
        self.progress.show()
        self.cancel_button.show()
        self.message.setText(self.tr("Installing OCR…"))
        self._show_state()
        library = self._library
        self._runner.run(lambda: library.ocr.install(bridge.report, from_path),
                         self._done, self._failed)

    def _progress(self, label: str, done: int, total: int) -> None:
        self.progress.setFormat(stage_text(label) + "  %p%")
        if total > 0:
            self.progress.setRange(0, total)
            self.progress.setValue(done)

    def _cancel(self) -> None:
        if self._install is not None:
            self._install.cancel()

    def _finish(self) -> None:
        self._install = None
        self.progress.hide()
        self.cancel_button.hide()

    def _done(self, _status: object) -> None:
        self._finish()
        self.message.setText(self.tr("OCR is installed."))
        self.ocrInstalled.emit()
        self.reload()

    def _failed(self, exc: BaseException) -> None:
        cancelled = self._install is not None and self._install.cancelled
        self._finish()
        self.message.setText(self.tr("Installation cancelled. Nothing was installed.") if cancelled
                             else localize(describe_error(exc)))
        self.reload()

    def remove(self) -> None:
        library = self._library
        self._runner.run(library.ocr.remove, lambda _r: self.reload(),
                         lambda exc: self.message.setText(describe_error(exc)))

    # ----- language ---------------------------------------------------------------------

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        self.header.setText(self.tr("Text recognition (OCR)"))
        self.explain.setText(self.tr(
            "Scanned PDF pages have no text to search. OCR recognises Chinese and English on them, "
            "on this computer: RapidOCR with PaddleOCR models that come inside its package (about "
            "200 MB once installed). Nothing is sent anywhere."))
        self.install_button.setText(self.tr("Install OCR"))
        self.from_folder_button.setText(self.tr("Install from a folder…"))
        self.remove_button.setText(self.tr("Remove"))
        self.cancel_button.setText(self.tr("Cancel"))
        self._show_state()
