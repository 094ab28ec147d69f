"""Import and export surface: choose files or a folder, show progress, then the summary."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QFileDialog

from desktop_kb.tasks.export_notes import ExportError, ExportResult, export_notes
from desktop_kb.tasks.library_tasks import describe_error
from desktop_kb.tasks.progress_bridge import ProgressBridge
from desktop_kb.ui.import_dialog import ImportSummaryDialog
from desktop_kb.ui.progress_dialog import TaskProgressDialog

if TYPE_CHECKING:
    from desktop_kb.ui.main_window import MainWindow


class ImportExportController(QObject):
    importFinished = Signal(object)  # ImportSummary
    exportFinished = Signal(object)  # ExportResult

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._w = window
        self.import_summary: ImportSummaryDialog | None = None
        self.import_progress: TaskProgressDialog | None = None

    def choose_import_files(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(
            self._w, self.tr("Import files"), str(Path.home()),
            self.tr("Study material (*.pdf *.docx *.epub *.html *.htm *.md *.markdown *.txt *.yaml "
                    "*.yml *.json *.py);;Source code (*.go *.rs *.js *.ts *.c *.h *.cpp *.java *.kt "
                    "*.cs *.swift *.rb *.php *.sh *.sql *.toml Dockerfile Makefile);;All files (*)"))
        if paths:
            self.import_paths([Path(p) for p in paths])

    def choose_import_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self._w, self.tr("Import folder"), str(Path.home()))
        if folder:
            self.import_paths([Path(folder)])

    def import_paths(self, paths: list[Path], *, include_generated: bool = False) -> None:
        """Files and folders (menu, drag and drop): progress, cancel, then the summary.

        Scanned PDF pages are recognised afterwards, in the background, once the text
        is in (``OcrController``).
        """
        w = self._w
        library = w.library
        if library is None or not paths:
            return
        bridge = w.start_progress()
        dialog = TaskProgressDialog(bridge, self.tr("Importing files…"), w)
        self.import_progress = dialog
        w.runner.run(lambda: library.import_paths(paths, progress=bridge.progress,
                                                  include_generated=include_generated),
                     lambda summary: self._imported(bridge, dialog, summary, paths),
                     lambda exc: self._imported(bridge, dialog, exc, paths))

    def _imported(self, bridge: ProgressBridge, dialog: TaskProgressDialog, summary: Any,
                  paths: list[Path]) -> None:
        w = self._w
        w.end_progress(bridge)
        dialog.finish()
        if isinstance(summary, BaseException):
            w.statusBar().showMessage(self.tr("Import failed: {0}").format(describe_error(summary)), 10000)
            return
        self.import_summary = ImportSummaryDialog(summary, w)
        self.import_summary.includeGeneratedRequested.connect(
            lambda: self.import_paths(paths, include_generated=True))
        self.import_summary.open()
        w.documents.reload_tree()
        if summary.ocr_documents and not summary.cancelled:
            w.ocr.start(summary.ocr_documents)
        self.importFinished.emit(summary)

    def choose_export_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self._w, self.tr("Export notes to folder"), str(Path.home()))
        if folder:
            self.export_to(Path(folder))

    def export_to(self, folder: Path) -> None:
        w = self._w
        if w.library is None:
            return
        w.notes.save_now()
        bridge = w.start_progress()
        w.save_queue.submit(lambda lib: lib.list_notes(),
                            lambda notes: w.runner.run(
                                lambda: export_notes(notes, folder, bridge.progress),
                                lambda result: self._exported(bridge, result),
                                lambda exc: self._exported(bridge, exc)))

    def _export_stopped(self, err: ExportError) -> str:
        why = {
            "the disk is full": self.tr("the disk is full"),
            "the disk quota is used up": self.tr("the disk quota is used up"),
            "the folder is on a read-only disk": self.tr("the folder is on a read-only disk"),
            "the folder cannot be written": self.tr("the folder cannot be written"),
        }.get(err.reason, err.detail)
        return self.tr("Export to {0} stopped after {1} of {2} notes: {3}. Files of an earlier "
                       "export there are unchanged.").format(err.folder, err.written, err.total, why)

    def _exported(self, bridge: ProgressBridge, result: ExportResult | BaseException) -> None:
        w = self._w
        w.end_progress(bridge)
        if isinstance(result, ExportError):
            w.statusBar().showMessage(self._export_stopped(result), 15000)
            return
        if isinstance(result, BaseException):
            w.statusBar().showMessage(self.tr("Export failed: {0}").format(describe_error(result)), 10000)
            return
        w.statusBar().showMessage(
            self.tr("Exported %n note(s) to {0}.", "", result.written).format(result.folder), 10000)
        self.exportFinished.emit(result)
