"""Closing with saves in flight: "Saving…" until they land; never drops an edit (I13).

The window does not close while a save is queued or being retried. If saving
keeps failing, the dialog says why and where the text is kept (it is offered
back on the next start), and the person chooses: try again, keep working, or
close — and when the text could not even be kept on disk, closing copies it to
the clipboard first.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop_kb.tasks.save_queue import SaveQueue, Unsaved
from desktop_kb.ui.env_messages import localize

POLL_MS = 50
SHOW_AFTER_MS = 300  # quick saves finish without a dialog flashing up


class SavingDialog(QDialog):
    closeNow = Signal()  # everything is saved, or the person chose to close

    def __init__(self, queue: SaveQueue, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setModal(True)
        self._queue = queue
        self.unsaved: list[Unsaved] = []
        self.message = QLabel(wordWrap=True, objectName="popupHeadline")
        self.detail = QLabel(wordWrap=True)
        self.busy = QProgressBar(maximum=0)
        self.retry_button = QPushButton()
        self.keep_button = QPushButton()
        self.close_button = QPushButton()
        self.retry_button.clicked.connect(self._retry)
        self.keep_button.clicked.connect(self.reject)
        self.close_button.clicked.connect(self._close_anyway)
        row = QHBoxLayout()
        row.addStretch(1)
        for button in (self.retry_button, self.keep_button, self.close_button):
            row.addWidget(button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 14, 16, 12)
        layout.addWidget(self.message)
        layout.addWidget(self.busy)
        layout.addWidget(self.detail)
        layout.addLayout(row)
        self.setMinimumWidth(480)
        self._timer = QTimer(self, interval=POLL_MS)
        self._timer.timeout.connect(self._check)
        self._show_timer = QTimer(self, singleShot=True, interval=SHOW_AFTER_MS)
        self._show_timer.timeout.connect(self._show_if_waiting)
        self.retranslateUi()

    def start(self) -> None:
        self._timer.start()
        self._show_timer.start()
        self._check()

    def _show_if_waiting(self) -> None:
        if self._queue.pending and not self.isVisible():
            self.open()

    def _check(self) -> None:
        if not self._queue.pending:
            self._finish()
            return
        unsaved = self._queue.unsaved()
        if [u.note_id for u in unsaved] != [u.note_id for u in self.unsaved] or \
                [u.reason for u in unsaved] != [u.reason for u in self.unsaved]:
            self.unsaved = unsaved
            self.retranslateUi()
            if unsaved and not self.isVisible():
                self.open()

    def _retry(self) -> None:
        self._queue.retry_now()

    def _close_anyway(self) -> None:
        lost = [u for u in self.unsaved if not u.kept_at]
        if lost:  # not on disk anywhere: at least the clipboard has it
            QGuiApplication.clipboard().setText(
                "\n\n".join(f"# {u.title}\n\n{u.body}" for u in lost))
        self._finish()

    def _finish(self) -> None:
        self._timer.stop()
        self._show_timer.stop()
        if self.isVisible():
            self.accept()
        self.closeNow.emit()

    def reject(self) -> None:
        """Keep working: the window stays open and saving goes on being retried."""
        self._timer.stop()
        self._show_timer.stop()
        super().reject()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        self.setWindowTitle(self.tr("Saving"))
        failing = bool(self.unsaved)
        self.retry_button.setText(self.tr("Try again"))
        self.keep_button.setText(self.tr("Keep working"))
        lost = any(not u.kept_at for u in self.unsaved)
        self.close_button.setText(self.tr("Copy the text and close") if lost else self.tr("Close anyway"))
        for button in (self.retry_button, self.keep_button, self.close_button):
            button.setVisible(failing)
        self.busy.setVisible(not failing)
        if not failing:
            self.message.setText(self.tr("Saving your notes…"))
            self.detail.clear()
            return
        self.message.setText(self.tr("%n note(s) could not be saved yet.", "", len(self.unsaved)))
        lines = []
        for u in self.unsaved:
            lines.append(self.tr("“{0}”: {1}").format(u.title or self.tr("Untitled"), localize(u.reason)))
            if u.kept_at:
                lines.append(self.tr("The text is kept in {0} and will be offered back the next "
                                     "time you open Desktop KB.").format(u.kept_at))
            else:
                lines.append(self.tr("The text could not be kept on disk either. Closing copies "
                                     "it to the clipboard."))
        self.detail.setText("\n".join(lines))
