"""The summary after an import: what came in, per format, and what did not, with reasons."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_kb.importer.run import ImportSummary


def reason_text(reason: str) -> str:
    """The importer's stable reason strings, in the UI language; others as given."""
    known = {
        "hidden": QCoreApplication.translate("ImportSummaryDialog", "hidden"),
        "format not selected": QCoreApplication.translate("ImportSummaryDialog", "format not selected"),
        "not found": QCoreApplication.translate("ImportSummaryDialog", "not found"),
        "file not found": QCoreApplication.translate("ImportSummaryDialog", "not found"),
        "permission denied": QCoreApplication.translate("ImportSummaryDialog", "permission denied"),
        "permission denied (the file cannot be read)": QCoreApplication.translate("ImportSummaryDialog", "permission denied"),
        "not a regular file": QCoreApplication.translate("ImportSummaryDialog", "not a regular file"),
        "folder already visited (linked folder)": QCoreApplication.translate("ImportSummaryDialog", "folder already visited (linked folder)"),
        "binary file (contains NUL bytes)": QCoreApplication.translate("ImportSummaryDialog", "binary file"),
        "binary file (contains control characters)": QCoreApplication.translate("ImportSummaryDialog", "binary file"),
    }
    return known.get(reason, reason)


class ImportSummaryDialog(QDialog):
    def __init__(self, summary: ImportSummary, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = summary
        self.setMinimumSize(600, 420)
        self.headline = QLabel(wordWrap=True)
        self.formats = QTreeWidget()
        self.formats.setRootIsDecorated(False)
        self.skipped_header = QLabel(objectName="paneHeader")
        self.skipped = QTreeWidget()
        self.skipped.setRootIsDecorated(False)
        self.skipped.setColumnWidth(0, 320)
        self.hidden = QLabel(wordWrap=True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok)
        buttons.accepted.connect(self.accept)
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 14, 16, 12)
        layout.addWidget(self.headline)
        layout.addWidget(self.formats)
        layout.addWidget(self.skipped_header)
        layout.addWidget(self.skipped, 1)
        layout.addWidget(self.hidden)
        layout.addWidget(buttons)
        self._fill()
        self.retranslateUi()

    def _fill(self) -> None:
        s = self.summary
        self.formats.clear()
        for fmt, count in sorted(s.per_format.items()):
            self.formats.addTopLevelItem(QTreeWidgetItem([fmt, str(count)]))
        self.formats.setMaximumHeight(40 + 24 * max(1, len(s.per_format)))
        self.skipped.clear()
        for path, reason in s.skipped:
            item = QTreeWidgetItem([path, reason_text(reason)])
            item.setToolTip(0, path)
            self.skipped.addTopLevelItem(item)
        for path, remark in s.remarks:
            item = QTreeWidgetItem([path, remark])
            item.setToolTip(1, remark)
            self.skipped.addTopLevelItem(item)
        has_rows = bool(s.skipped or s.remarks)
        self.skipped.setVisible(has_rows)
        self.skipped_header.setVisible(has_rows)

    @property
    def hidden_count(self) -> int:
        return int(self.summary.quiet_skipped.get("hidden", 0))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        s = self.summary
        self.setWindowTitle(self.tr("Import finished") if not s.cancelled else self.tr("Import cancelled"))
        lines = [self.tr("{0} new, {1} updated, {2} unchanged; {3} fragments.").format(
            s.added, s.updated, s.unchanged, s.fragments)]
        if s.removed:
            lines.append(self.tr("%n document(s) removed because their files are gone.", "", s.removed))
        if s.cancelled:
            lines.append(self.tr("Cancelled: the files imported before you cancelled are kept."))
        self.headline.setText("\n".join(lines))
        self.formats.setHeaderLabels([self.tr("Format"), self.tr("Files")])
        self.skipped_header.setText(self.tr("Skipped files and remarks"))
        self.skipped.setHeaderLabels([self.tr("File"), self.tr("Reason")])
        other = sum(n for reason, n in s.quiet_skipped.items() if reason != "hidden")
        parts = [self.tr("%n hidden item(s) skipped (names starting with a dot).", "", self.hidden_count)]
        if other:
            parts.append(self.tr("%n other item(s) skipped (formats not selected, linked folders).", "", other))
        self.hidden.setText(" ".join(parts))
        self.ok_button.setText(self.tr("OK"))
