"""A progress dialog driven by a ``ProgressBridge``: shown only for work over ~0.5 s.

Cancel sets the core's cancel flag; the work stops at its next check and
reports ``cancelled`` in its result, so the dialog never kills anything.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QProgressDialog, QPushButton, QWidget

from desktop_kb.tasks.progress_bridge import ProgressBridge


def stage_text(label: str) -> str:
    """Core progress labels → words the person reads."""
    return {
        "rebuild": QCoreApplication.translate("TaskProgressDialog", "Rebuilding the index…"),
        "import": QCoreApplication.translate("TaskProgressDialog", "Importing files…"),
        "export": QCoreApplication.translate("TaskProgressDialog", "Exporting notes…"),
        "download": QCoreApplication.translate("TaskProgressDialog", "Downloading the model…"),
        "verify": QCoreApplication.translate("TaskProgressDialog", "Checking the download…"),
        "extract": QCoreApplication.translate("TaskProgressDialog", "Unpacking the model…"),
        "copy": QCoreApplication.translate("TaskProgressDialog", "Copying the model…"),
        "convert": QCoreApplication.translate("TaskProgressDialog", "Converting the model…"),
        "check": QCoreApplication.translate("TaskProgressDialog", "Comparing with the reference embeddings…"),
        "pdf pages": QCoreApplication.translate("TaskProgressDialog", "Reading PDF pages…"),
        "ocr": QCoreApplication.translate("TaskProgressDialog", "Recognising scanned pages…"),
        "ocr-download": QCoreApplication.translate("TaskProgressDialog", "Downloading OCR…"),
        "ocr-extract": QCoreApplication.translate("TaskProgressDialog", "Unpacking OCR…"),
    }.get(label, label)


class TaskProgressDialog(QProgressDialog):
    def __init__(self, bridge: ProgressBridge, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.setWindowTitle(title)
        self.setLabelText(title)
        self.setCancelButtonText(self.tr("Cancel"))
        self.setWindowModality(Qt.WindowModality.WindowModal)
        self.setMinimumDuration(500)
        self.setAutoClose(False)
        self.setAutoReset(False)
        self.setMinimumWidth(420)
        self.setRange(0, 0)
        self.setValue(0)
        self.canceled.connect(self._cancel)
        bridge.changed.connect(self._changed)
        # Enter must not stop the work: the Enter that chose a folder in the file dialog, pressed
        # twice, cancelled the import that had just begun. Esc and a click still cancel.
        for button in self.findChildren(QPushButton):
            button.setAutoDefault(False)
            button.setDefault(False)

    def _changed(self, label: str, done: int, maximum: int) -> None:
        if self.bridge.cancelled:
            return
        text = stage_text(label)
        if label == "import" and maximum > 0:
            # Counts and the file at hand: a long import says where it is.
            text = self.tr("Importing file {0} of {1}…").format(min(done + 1, maximum), maximum)
            detail = self.bridge.progress.detail
            if detail and done < maximum:
                text += "\n" + detail
        self.setLabelText(text)
        if maximum > 0:
            if self.maximum() != maximum:
                self.setRange(0, maximum)
            self.setValue(min(done, maximum))

    def _cancel(self) -> None:
        self.bridge.cancel()
        self.setLabelText(self.tr("Cancelling…"))

    def finish(self) -> None:
        """Close without counting as a cancel."""
        self.canceled.disconnect(self._cancel)
        self.reset()
        self.close()
        self.deleteLater()
