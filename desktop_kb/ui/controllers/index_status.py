"""Index status surface: the status-bar badge and notice, the status popup, rebuild, verify."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from desktop_kb.index.verify import VerifyReport
from desktop_kb.index.worker import RebuildResult
from desktop_kb.library import IndexStatus
from desktop_kb.tasks.gc_tuning import freeze_long_lived_objects
from desktop_kb.tasks.library_tasks import describe_error
from desktop_kb.tasks.progress_bridge import ProgressBridge
from desktop_kb.ui.env_messages import localize
from desktop_kb.ui.progress_dialog import TaskProgressDialog
from desktop_kb.ui.status_badge import degraded_text

if TYPE_CHECKING:
    from desktop_kb.ui.main_window import MainWindow


class IndexStatusController(QObject):
    rebuildFinished = Signal(object)  # RebuildResult or the exception
    verifyFinished = Signal(object)  # VerifyReport

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._w = window
        self._settled = False
        self.rebuild_dialog: TaskProgressDialog | None = None
        window.index.statusChanged.connect(self._index_status)
        window.badge.clicked.connect(self.show_index_status)
        window.status_popup.rebuildRequested.connect(self.rebuild_index)
        window.status_popup.verifyRequested.connect(self.verify_index)

    def _index_status(self, status: IndexStatus) -> None:
        w = self._w
        if status.state == "ok" and not self._settled:
            self._settled = True
            freeze_long_lived_objects()  # start-up indexing loaded jieba's dictionary by now
        w.badge.set_status(status)
        self.show_degraded_notice()
        if w.status_popup.isVisible():
            w.status_popup.set_status(status)

    def show_degraded_notice(self) -> None:
        """The status-bar words for a degraded index (keywords only, failures), if any."""
        text = degraded_text(self._w.index.last_status)
        self._w.degraded.setText(text)
        self._w.degraded.setVisible(bool(text))

    def show_index_status(self) -> None:
        popup = self._w.status_popup
        popup.set_status(self._w.index.last_status)
        popup.show()
        popup.raise_()
        self._w.index.refresh()

    def rebuild_index(self) -> None:
        w = self._w
        library = w.library
        if library is None or self.rebuild_dialog is not None:
            return
        bridge = w.start_progress()
        self.rebuild_dialog = TaskProgressDialog(bridge, self.tr("Rebuilding the index…"), w)
        w.status_popup.set_busy(True)
        w.runner.run(lambda: library.rebuild(bridge.progress),
                     lambda result: self._rebuilt(bridge, result),
                     lambda exc: self._rebuilt(bridge, exc))

    def _rebuilt(self, bridge: ProgressBridge, result: RebuildResult | BaseException) -> None:
        w = self._w
        w.end_progress(bridge)
        if self.rebuild_dialog is not None:
            self.rebuild_dialog.finish()
            self.rebuild_dialog = None
        w.status_popup.set_busy(False)
        if isinstance(result, BaseException):
            w.statusBar().showMessage(self.tr("Rebuild failed: {0}").format(localize(describe_error(result))), 10000)
        elif result.cancelled:
            w.statusBar().showMessage(
                self.tr("Rebuild cancelled. The index is marked incomplete and is rebuilt on the next start."), 10000)
        else:
            w.statusBar().showMessage(
                self.tr("Index rebuilt: {0}, {1} in {2:.1f} s.").format(
                    self.tr("%n source(s)", "", result.sources),
                    self.tr("%n chunk(s)", "", result.chunks), result.seconds), 10000)
        w.index.refresh()
        self.rebuildFinished.emit(result)

    def verify_index(self) -> None:
        w = self._w
        library = w.library
        if library is None:
            return
        w.status_popup.set_busy(True)
        w.statusBar().showMessage(self.tr("Verifying the index…"))
        w.runner.run(lambda: library.verify(repair=True), self._verified, self._verified)

    def _verified(self, report: VerifyReport | BaseException) -> None:
        w = self._w
        w.status_popup.set_busy(False)
        if isinstance(report, BaseException):
            w.statusBar().showMessage(self.tr("Verify failed: {0}").format(localize(describe_error(report))), 10000)
            return
        w.status_popup.set_verify_report(report)
        # Index → Verify index runs with the status popup closed: say the outcome where the
        # progress line was ("Verifying the index…" used to vanish without a word).
        w.statusBar().showMessage(w.status_popup.verify_result.text(), 10000)
        w.index.refresh()
        self.verifyFinished.emit(report)
