"""Index state in the status bar, and the popup that explains and repairs it.

States: indexed ✓ / indexing n / n failed ⚠ / incomplete / paused (the disk is full…) /
checking (after an unclean exit) / embedding n % (a model's background backfill); plus
the I7 degraded notice when no embedding model is in use (keyword search only).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_kb.index.eta import EmbeddingProgress
from desktop_kb.index.verify import VerifyReport
from desktop_kb.library import IndexStatus
from desktop_kb.ui.env_messages import localize, localize_owner


class StatusBadge(QToolButton):
    """A flat button: the index state in a few characters; click for details."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, objectName="statusBadge")
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.status: IndexStatus | None = None
        self.open_failure = ""  # why the library could not be opened ("" while it opens or is open)
        self.retranslateUi()

    def set_status(self, status: IndexStatus) -> None:
        self.status = status
        self.retranslateUi()

    def set_open_failure(self, message: str) -> None:
        """The library could not be opened: "Opening the library…" would promise what never comes."""
        self.open_failure = message
        self.retranslateUi()

    @property
    def state(self) -> str:
        if self.status is None:
            return "not_open" if self.open_failure else "opening"
        return self.status.state

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        status = self.status
        if status is None and self.open_failure:
            self.setText(self.tr("Library not open ⚠"))
            self.setToolTip(self.tr("The library could not be opened — click for why"))
            return
        if status is None:
            self.setText(self.tr("Opening the library…"))
        elif status.state == "unavailable":
            self.setText(self.tr("Indexing paused ⚠"))
        elif status.state == "failed":
            failed = len(status.failures) + status.unrecorded_failures + (1 if status.model_error else 0)
            self.setText(self.tr("%n failed ⚠", "", failed))
        elif status.state == "indexing":
            self.setText(self.tr("Indexing %n", "", status.pending))
        elif status.state == "incomplete":
            self.setText(self.tr("Index incomplete ⚠"))
        elif status.state == "checking":
            self.setText(self.tr("Checking the index…"))
        elif status.state == "embedding":
            self.setText(self.tr("Embedding {0}%").format(status.embedded_percent))
        else:
            self.setText(self.tr("Indexed ✓"))
        self.setToolTip(self.tr("Index status — click for details, rebuild and verify"))


def duration_text(seconds: float) -> str:
    from PySide6.QtCore import QCoreApplication

    minutes = round(seconds / 60)
    if minutes < 1:
        return QCoreApplication.translate("StatusBadge", "under a minute")
    if minutes < 60:
        return QCoreApplication.translate("StatusBadge", "about {0} min").format(minutes)
    return QCoreApplication.translate("StatusBadge", "about {0} h {1} min").format(
        minutes // 60, minutes % 60)


def embedding_text(status: IndexStatus) -> str:
    """The popup's words for a running backfill: how far, how long, what search does meanwhile."""
    from PySide6.QtCore import QCoreApplication

    progress = status.embedding or EmbeddingProgress(
        status.chunks - status.missing_vectors, status.chunks, None)
    if progress.seconds_left is None:
        return QCoreApplication.translate(
            "StatusBadge", "Embedding for meaning search: {0} of {1} chunks done. Meanwhile "
            "search finds the other chunks by their keywords.").format(progress.done, progress.total)
    return QCoreApplication.translate(
        "StatusBadge", "Embedding for meaning search: {0} of {1} chunks done, {2} left. Meanwhile "
        "search finds the other chunks by their keywords.").format(
        progress.done, progress.total, duration_text(progress.seconds_left))


def degraded_text(status: IndexStatus | None) -> str:
    from PySide6.QtCore import QCoreApplication

    if status is not None and not status.embed_model and not status.model_loading:
        return QCoreApplication.translate("StatusBadge", "No embedding model — keyword search only")
    return ""


class IndexStatusPopup(QDialog):
    rebuildRequested = Signal()
    verifyRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # Wide enough for the sentences; as tall as its lines (a fixed minimum height left a
        # blank band above the buttons whenever nothing had failed).
        self.setMinimumWidth(560)
        self.headline = QLabel(objectName="popupHeadline", wordWrap=True)
        self.summary = QLabel(wordWrap=True)
        self.model_line = QLabel(wordWrap=True)
        self.failures_header = QLabel(objectName="paneHeader")
        self.failures = QTreeWidget()
        self.failures.setMinimumHeight(160)
        self.failures.setRootIsDecorated(False)
        self.failures.setColumnCount(3)
        self.failures.setColumnWidth(0, 120)
        self.verify_result = QLabel(wordWrap=True)
        self.rebuild_button = QPushButton()
        self.verify_button = QPushButton()
        self.rebuild_button.clicked.connect(self.rebuildRequested)
        self.verify_button.clicked.connect(self.verifyRequested)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        self.close_button = buttons.button(QDialogButtonBox.StandardButton.Close)
        # Enter closes; a rebuild (minutes on a big library) is never one stray key away.
        for button in (self.rebuild_button, self.verify_button):
            button.setAutoDefault(False)
        self.close_button.setDefault(True)
        self.close_button.setFocus()
        row = QHBoxLayout()
        row.addWidget(self.rebuild_button)
        row.addWidget(self.verify_button)
        row.addStretch(1)
        row.addWidget(buttons)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 14, 16, 12)
        layout.addWidget(self.headline)
        layout.addWidget(self.summary)
        layout.addWidget(self.model_line)
        layout.addWidget(self.failures_header)
        layout.addWidget(self.failures, 3)
        layout.addWidget(self.verify_result)
        layout.addLayout(row)
        self.status: IndexStatus | None = None
        self.report: VerifyReport | None = None
        self.open_failure = ""  # see StatusBadge.open_failure
        self.retranslateUi()

    def set_open_failure(self, message: str) -> None:
        self.open_failure = message
        self.set_status(self.status)

    def set_status(self, status: IndexStatus | None) -> None:
        self.status = status
        self.failures.clear()
        if status is not None:
            for source_type, source_id, reason, attempts in status.failures:
                item = QTreeWidgetItem([f"{source_type} {source_id}", reason, str(attempts)])
                item.setToolTip(1, reason)
                self.failures.addTopLevelItem(item)
        self.failures.setVisible(bool(status and status.failures))
        self.failures_header.setVisible(bool(status and status.failures))
        self.retranslateUi()
        self._fit()

    def set_busy(self, busy: bool) -> None:
        self.rebuild_button.setEnabled(not busy)
        self.verify_button.setEnabled(not busy)

    def set_verify_report(self, report: VerifyReport | None) -> None:
        self.report = report
        self.retranslateUi()
        self._fit()

    def _fit(self) -> None:
        """Grow or shrink to the lines shown now (a failures list, a verify result come and go)."""
        layout = self.layout()
        layout.activate()
        width = max(self.width(), self.minimumWidth())
        height = (layout.totalHeightForWidth(width) if layout.hasHeightForWidth()
                  else self.sizeHint().height())
        self.resize(width, height)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        self.setWindowTitle(self.tr("Index status"))
        self.rebuild_button.setText(self.tr("Rebuild index"))
        self.verify_button.setText(self.tr("Verify index"))
        self.close_button.setText(self.tr("Close"))
        self.failures_header.setText(self.tr("Failures"))
        self.failures.setHeaderLabels([self.tr("Source"), self.tr("Reason"), self.tr("Attempts")])
        status = self.status
        # Nothing to rebuild or verify while no library is open.
        self.rebuild_button.setVisible(status is not None)
        self.verify_button.setVisible(status is not None)
        if status is None and self.open_failure:
            self.headline.setText(self.open_failure)  # already in the UI language
            self.summary.clear()
            self.model_line.clear()
        elif status is None:
            self.headline.setText(self.tr("The library is still opening."))
            self.summary.clear()
            self.model_line.clear()
        else:
            state = {
                "ok": self.tr("The index is up to date."),
                "indexing": self.tr("Indexing: %n item(s) waiting.", "", status.pending),
                "failed": self.tr("%n item(s) could not be indexed. They are retried on the next save or rebuild.", "", len(status.failures)),
                "incomplete": self.tr("The index is incomplete (a rebuild was interrupted). Rebuild it to repair."),
                "unavailable": self.tr("Indexing is paused."),
                "checking": self.tr("Checking the index: Desktop KB was not closed properly last time."),
                "embedding": embedding_text(status),
            }[status.state]
            lines = [self.tr("{0}, {1} indexed.").format(
                self.tr("%n source(s)", "", status.sources), self.tr("%n chunk(s)", "", status.chunks))]
            if status.error:
                lines.insert(0, self.tr("{0} Your notes are saved; indexing resumes by itself once "
                                        "this is fixed.").format(localize(status.error)))
            if status.model_error:
                lines.append(self.tr("The embedding model could not be loaded: {0}").format(status.model_error))
            if status.unrecorded_failures:
                lines.append(self.tr("%n failure(s) could not even be recorded (the index could not be written).", "", status.unrecorded_failures))
            if status.owner_stopped:
                lines.append(self.tr("The index is kept by {0}, which is stopped (suspended, or paused in a "
                                     "debugger). It holds every change so far; changes made now wait until "
                                     "it is resumed or closed.").format(localize_owner(status.owner)))
            elif status.owner:
                lines.append(self.tr("The index is kept by another program: {0}.").format(localize_owner(status.owner)))
            self.headline.setText(state)
            self.summary.setText("\n".join(lines))
            if status.model_loading:
                self.model_line.setText(self.tr("Embedding model: {0} is loading — keyword search until "
                                                "it is ready.").format(status.model_loading))
            elif status.embed_model:
                self.model_line.setText(self.tr("Embedding model: {0} (keyword + meaning search)").format(status.embed_model))
            else:
                self.model_line.setText(self.tr("No embedding model — keyword search only. Install one in Settings → Embedding model."))
        report = self.report
        if report is None:
            self.verify_result.clear()
        elif report.drift == 0:
            self.verify_result.setText(self.tr("Verify: the index matches the library. Nothing to repair."))
        else:
            text = self.tr("Verify found {0} difference(s): {1} missing, {2} stale, {3} orphaned, {4} orphan rows, {5} missing vectors.").format(
                report.drift, len(report.missing), len(report.stale), len(report.orphans),
                report.orphan_chunks, report.missing_vectors)
            if report.repaired:
                text += " " + self.tr("Repaired.")
            self.verify_result.setText(text)
