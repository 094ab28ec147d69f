"""The offer, on start, of text that could not be saved last time (I13)."""

from __future__ import annotations

import datetime

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_kb.recovery import RecoveredText
from desktop_kb.ui.env_messages import localize

RESTORE, LATER, DISCARD = 1, 2, 3


class RecoveryDialog(QDialog):
    """Lists the kept texts with a preview; the result is RESTORE, LATER or DISCARD."""

    def __init__(self, items: list[RecoveredText], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.items = items
        self.choice = LATER
        self.setMinimumSize(640, 420)
        self.headline = QLabel(objectName="popupHeadline", wordWrap=True)
        self.explanation = QLabel(wordWrap=True)
        self.list = QTreeWidget()
        self.list.setRootIsDecorated(False)
        self.list.setColumnCount(3)
        self.list.setColumnWidth(0, 220)
        self.list.setColumnWidth(1, 140)
        for item in items:
            when = datetime.datetime.fromtimestamp(item.saved_at).strftime("%Y-%m-%d %H:%M")
            reason = localize(item.reason)
            row = QTreeWidgetItem([item.title or "—", when, reason])
            row.setToolTip(2, reason)
            self.list.addTopLevelItem(row)
        self.preview = QPlainTextEdit(readOnly=True)
        self.list.currentItemChanged.connect(self._show_preview)
        self.list.header().setStretchLastSection(True)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.list)
        split.addWidget(self.preview)
        split.setSizes([160, 240])
        self.restore_button = QPushButton()
        self.later_button = QPushButton()
        self.discard_button = QPushButton()
        buttons = QDialogButtonBox()
        buttons.addButton(self.restore_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.later_button, QDialogButtonBox.ButtonRole.RejectRole)
        buttons.addButton(self.discard_button, QDialogButtonBox.ButtonRole.DestructiveRole)
        self.restore_button.clicked.connect(lambda: self._finish(RESTORE))
        self.later_button.clicked.connect(lambda: self._finish(LATER))
        self.discard_button.clicked.connect(self._confirm_discard)
        self.restore_button.setDefault(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 14, 16, 12)
        layout.addWidget(self.headline)
        layout.addWidget(self.explanation)
        layout.addWidget(split, 1)
        layout.addWidget(buttons)
        if items:
            self.list.setCurrentItem(self.list.topLevelItem(0))
        self.retranslateUi()

    def _show_preview(self) -> None:
        row = self.list.currentIndex().row()
        self.preview.setPlainText(self.items[row].body if 0 <= row < len(self.items) else "")

    def _finish(self, choice: int) -> None:
        self.choice = choice
        self.accept() if choice == RESTORE else self.reject()

    def _confirm_discard(self) -> None:
        answer = QMessageBox.question(
            self, self.tr("Discard the kept text?"),
            self.tr("The text listed here will be deleted for good. It is not in your library."),
            QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel)
        if answer == QMessageBox.StandardButton.Discard:
            self._finish(DISCARD)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        self.setWindowTitle(self.tr("Unsaved text"))
        self.headline.setText(self.tr(
            "%n note(s) had text that could not be saved last time. It was kept.", "",
            len(self.items)))
        self.explanation.setText(self.tr(
            "Restore puts each text back into its note; a note that was deleted or changed "
            "since becomes a separate note instead, so nothing is overwritten. Later keeps "
            "the text and asks again next time."))
        self.list.setHeaderLabels([self.tr("Note"), self.tr("Kept at"), self.tr("Why it was not saved")])
        self.restore_button.setText(self.tr("Restore"))
        self.later_button.setText(self.tr("Later"))
        self.discard_button.setText(self.tr("Discard…"))
