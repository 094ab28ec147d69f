"""The summary after an import: what came in, per format, and what did not, with reasons."""

from __future__ import annotations

import os
import re

from PySide6.QtCore import QCoreApplication, QEvent, QRect, QSize, Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPushButton,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_kb.importer.files import GITIGNORED, OWN_LIBRARY_FOLDER
from desktop_kb.importer.run import ImportSummary

_UNSUPPORTED = re.compile(r"`\.(\w+)` is not supported yet \((.+)\)")
# Reasons for files skipped as generated or vendored (the override imports them).
_GENERATED = re.compile(r"^(lockfile|minified|vendored|machine-written|generated file|excluded by \.gitignore)")


# Reasons the Word and EPUB readers give for damaged files (details stay in the CLI's words).
_BROKEN_WORD = re.compile(r"not a (?:valid |readable )?Word document|Word document (?:part|is missing)")
_BROKEN_EPUB = re.compile(r"not (?:a valid EPUB|an EPUB)|EPUB (?:names no|part|is missing|.* is not valid XML)")
_TOO_MANY_PAGES = re.compile(r"the PDF has (\d+) pages; the limit is (\d+)")
_TOO_LARGE = re.compile(r"file too large \((?:(.+); the limit is|over) (.+)\)")
_CANNOT_READ = re.compile(r"the file cannot be read \((.+)\)")


def _kind_text(kind: str) -> str:
    return {
        "image": QCoreApplication.translate("ImportSummaryDialog", "image"),
        "audio": QCoreApplication.translate("ImportSummaryDialog", "audio"),
        "video": QCoreApplication.translate("ImportSummaryDialog", "video"),
        "archive": QCoreApplication.translate("ImportSummaryDialog", "archive"),
        "program": QCoreApplication.translate("ImportSummaryDialog", "program"),
        "font": QCoreApplication.translate("ImportSummaryDialog", "font"),
        "PowerPoint": QCoreApplication.translate("ImportSummaryDialog", "PowerPoint"),
        "Excel": QCoreApplication.translate("ImportSummaryDialog", "Excel"),
    }.get(kind, kind)


def _pattern_text(reason: str) -> str | None:
    m = _UNSUPPORTED.fullmatch(reason)
    if m:
        return QCoreApplication.translate("ImportSummaryDialog", "“.{0}” files are not supported yet ({1})").format(
            m.group(1), _kind_text(m.group(2)))
    if reason.startswith("lockfile"):
        return QCoreApplication.translate("ImportSummaryDialog", "lockfile (written by a package manager)")
    if reason.startswith("vendored dependencies"):
        return QCoreApplication.translate("ImportSummaryDialog", "vendored dependencies")
    if reason.startswith("machine-written schema"):
        return QCoreApplication.translate("ImportSummaryDialog", "machine-written schema or API spec")
    if reason.startswith("no text layer"):
        return QCoreApplication.translate("ImportSummaryDialog", "a scan with no text; install OCR (Settings → Text recognition) to read it")
    if reason.startswith("the PDF is password-protected"):
        return QCoreApplication.translate("ImportSummaryDialog", "password-protected PDF; import an unprotected copy")
    if reason.startswith("not a readable PDF"):
        return QCoreApplication.translate("ImportSummaryDialog", "damaged or not a PDF")
    if "zip bomb" in reason or "inflates past" in reason or "parts; refusing" in reason:
        return QCoreApplication.translate("ImportSummaryDialog", "would inflate to more than is safe to read (a zip bomb?)")
    if _BROKEN_WORD.match(reason):
        return QCoreApplication.translate("ImportSummaryDialog", "damaged or not a Word document")
    if reason == "the EPUB has no readable chapters":
        return QCoreApplication.translate("ImportSummaryDialog", "the EPUB has no readable chapters")
    if _BROKEN_EPUB.match(reason):
        return QCoreApplication.translate("ImportSummaryDialog", "damaged or not an EPUB")
    if m := _TOO_MANY_PAGES.fullmatch(reason):
        return QCoreApplication.translate("ImportSummaryDialog", "the PDF has {0} pages; the limit is {1}").format(
            m.group(1), m.group(2))
    if reason.startswith("not UTF-8 text"):
        return QCoreApplication.translate("ImportSummaryDialog", "not text in UTF-8, GBK or Big5")
    if m := _TOO_LARGE.fullmatch(reason):
        return QCoreApplication.translate("ImportSummaryDialog", "file too large (the limit is {0})").format(
            m.group(2))
    if m := _CANNOT_READ.fullmatch(reason):
        return QCoreApplication.translate("ImportSummaryDialog", "the file cannot be read ({0})").format(m.group(1))
    return None


_SPLIT_PASSAGES = re.compile(r"(\d+) passage\(s\) longer than (\d+) characters were split into parts")
_DAMAGED_PAGES = re.compile(r"(\d+) damaged page\(s\) could not be read \(p\. (.+)\)")
_PAGES_FOR_OCR = re.compile(r"(\d+) page\(s\) without a text layer wait for OCR")
_DUPLICATE_KEYS = re.compile(r"duplicate JSON keys \((.+)\); only the last value of each was kept")
_CUT_CHARACTER = re.compile(r"the file (ends|starts) inside a character \(bytes ([0-9A-F ]+)\); "
                            "imported with \ufffd in its place, the file itself unchanged")


def remark_text(remark: str) -> str:
    """A reader's remark on a file it imported (``importer`` notes), in the UI language."""
    if m := _SPLIT_PASSAGES.fullmatch(remark):
        return QCoreApplication.translate(
            "ImportSummaryDialog", "%n passage(s) longer than {0} characters split into parts "
            "(nothing is lost)", "", int(m.group(1))).format(m.group(2))
    if m := _DAMAGED_PAGES.fullmatch(remark):
        return QCoreApplication.translate(
            "ImportSummaryDialog", "%n damaged page(s) could not be read (p. {0})", "",
            int(m.group(1))).format(m.group(2))
    if m := _PAGES_FOR_OCR.fullmatch(remark):
        return QCoreApplication.translate(
            "ImportSummaryDialog", "%n page(s) without a text layer wait for text recognition (OCR)",
            "", int(m.group(1)))
    if m := _DUPLICATE_KEYS.fullmatch(remark):
        return QCoreApplication.translate(
            "ImportSummaryDialog", "duplicate JSON keys ({0}); only the last value of each was kept"
            ).format(m.group(1))
    if m := _CUT_CHARACTER.fullmatch(remark):
        if m.group(1) == "ends":
            return QCoreApplication.translate(
                "ImportSummaryDialog", "its last character was cut off (bytes {0}); imported with \ufffd "
                "in its place, the file itself unchanged").format(m.group(2))
        return QCoreApplication.translate(
            "ImportSummaryDialog", "its first character was cut off (bytes {0}); imported with \ufffd "
            "in its place, the file itself unchanged").format(m.group(2))
    if remark == "no top-level YAML keys found; split into paragraphs":
        return QCoreApplication.translate(
            "ImportSummaryDialog", "no top-level YAML keys found; split into paragraphs")
    return remark


def is_generated_reason(reason: str) -> bool:
    return _GENERATED.match(reason) is not None


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
        "this is a folder, not a file": QCoreApplication.translate("ImportSummaryDialog", "not a regular file"),
        "folder already visited (linked folder)": QCoreApplication.translate("ImportSummaryDialog", "folder already visited (linked folder)"),
        "binary file (contains NUL bytes)": QCoreApplication.translate("ImportSummaryDialog", "binary file"),
        "binary file (contains control characters)": QCoreApplication.translate("ImportSummaryDialog", "binary file"),
        "format not supported": QCoreApplication.translate("ImportSummaryDialog", "format not supported"),
        GITIGNORED: QCoreApplication.translate("ImportSummaryDialog", "excluded by .gitignore"),
        OWN_LIBRARY_FOLDER: QCoreApplication.translate("ImportSummaryDialog", "Desktop KB's own library folder"),
        "minified or bundled code": QCoreApplication.translate("ImportSummaryDialog", "minified or bundled code"),
        "minified code (very long lines)": QCoreApplication.translate("ImportSummaryDialog", "minified or bundled code"),
        "generated file (marked as generated)": QCoreApplication.translate("ImportSummaryDialog", "generated file (marked “do not edit”)"),
        "the name is not valid UTF-8 text (rename it to import it)": QCoreApplication.translate("ImportSummaryDialog", "the name is not valid UTF-8 text (rename it to import it)"),
    }
    return known.get(reason) or _pattern_text(reason) or reason


def _shared_folder(paths: list[str]) -> str:
    """The folder every listed file is in ("" when they share none, or there is one path that
    is not absolute)."""
    folders = [os.path.dirname(p) for p in paths if os.path.isabs(p)]
    if not folders or len(folders) != len(paths):
        return ""
    try:
        return os.path.commonpath(folders)
    except ValueError:  # different drives
        return ""


def _below(path: str, folder: str) -> str:
    return os.path.relpath(path, folder) if folder else path


class _PathCells(QStyledItemDelegate):
    """File paths on one line, cut in the middle: the file name at the end stays in view
    (wrapped like the reasons beside them, a path was cut at its end)."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: object) -> None:  # noqa: N802
        super().initStyleOption(option, index)  # type: ignore[arg-type]
        option.features &= ~QStyleOptionViewItem.ViewItemFeature.WrapText
        option.textElideMode = Qt.TextElideMode.ElideMiddle


class _ReasonCells(QStyledItemDelegate):
    """Reasons wrapped to their column's width, each row as tall as its reason: a tree view
    asks a cell's height without its width, and every reason got one line, cut."""

    def __init__(self, view: QTreeWidget) -> None:
        super().__init__(view)
        self._view = view

    def sizeHint(self, option: QStyleOptionViewItem, index: object) -> QSize:  # noqa: N802
        hint = super().sizeHint(option, index)  # type: ignore[arg-type]
        cell = QStyleOptionViewItem(option)
        self.initStyleOption(cell, index)  # type: ignore[arg-type]
        width = max(40, self._view.columnWidth(index.column()) - 8)  # type: ignore[attr-defined]
        text = cell.fontMetrics.boundingRect(QRect(0, 0, width, 1 << 20), Qt.TextFlag.TextWordWrap, cell.text)
        return QSize(hint.width(), max(hint.height(), text.height() + 4))


class ImportSummaryDialog(QDialog):
    includeGeneratedRequested = Signal()

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
        self.skipped.setColumnWidth(0, 260)
        # Reasons are read in full: wrapped in their column, never only in a tooltip.
        self.skipped.setWordWrap(True)
        self.skipped.setUniformRowHeights(False)
        self.skipped.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self._path_cells = _PathCells(self.skipped)
        self.skipped.setItemDelegateForColumn(0, self._path_cells)
        self._reason_cells = _ReasonCells(self.skipped)
        self.skipped.setItemDelegateForColumn(1, self._reason_cells)
        self.skipped.header().setStretchLastSection(True)
        # A column that changes width has its rows measured again (``_ReasonCells``).
        self.skipped.header().sectionResized.connect(lambda *_: self.skipped.doItemsLayout())
        self.hidden = QLabel(wordWrap=True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok)
        buttons.accepted.connect(self.accept)
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.include_button = QPushButton()
        self.include_button.clicked.connect(self._include_generated)
        buttons.addButton(self.include_button, QDialogButtonBox.ButtonRole.ActionRole)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 14, 16, 12)
        layout.addWidget(self.headline)
        layout.addWidget(self.formats)
        layout.addWidget(self.skipped_header)
        layout.addWidget(self.skipped, 1)
        layout.addWidget(self.hidden)
        # With nothing skipped the list is hidden and its room would go to the headline, whose
        # line then floated mid-dialog with 100 px of blank above it: the room goes here.
        layout.addStretch()
        layout.addWidget(buttons)
        self.retranslateUi()

    def _fill(self) -> None:
        s = self.summary
        rows: list[tuple[str, str, str]] = []  # path, text, tooltip of the text
        self.formats.clear()
        for fmt, count in sorted(s.per_format.items()):
            self.formats.addTopLevelItem(QTreeWidgetItem([fmt, str(count)]))
        self.formats.setMaximumHeight(40 + 24 * max(1, len(s.per_format)))
        self.skipped.clear()
        for path, reason in s.skipped:
            rows.append((path, reason_text(reason), reason_text(reason)))
        for old, new in s.moved:
            text = self.tr("Moved or renamed from “{0}”: the same document, its links kept").format(old)
            rows.append((new, text, text))
        for path, original in s.conflicted:
            text = self.tr("Conflicted copy of “{0}”, kept by a sync client when both changed: "
                           "compare the two and keep one").format(original)
            rows.append((path, text, text))
        for path, remark in s.remarks:
            rows.append((path, remark_text(remark), remark_text(remark)))
        for path, reason in s.failed:
            rows.append((path, self.tr("Not imported: {0}").format(reason), reason))
        for path, link in s.links_lost:
            text = self.tr("Link from “{0}” removed: the passage “{1}” is no longer in the file").format(
                link.note_title, link.excerpt)
            rows.append((path, text, text))
        # Named from the folder they share: every row read "/work/shared/corpora/rust-book-cn/src/…",
        # the file names cut off. The whole path is the tooltip.
        shared = _shared_folder([path for path, _, _ in rows])
        for path, text, tip in rows:
            item = QTreeWidgetItem([_below(path, shared), text])
            item.setToolTip(0, path)
            item.setToolTip(1, tip)
            self.skipped.addTopLevelItem(item)
        has_rows = bool(s.skipped or s.remarks or s.failed or s.links_lost or s.conflicted or s.moved)
        self.skipped.setVisible(has_rows)
        self.skipped_header.setVisible(has_rows)
        self.include_button.setVisible(self.generated_count > 0)

    @property
    def generated_count(self) -> int:
        return sum(1 for _path, reason in self.summary.skipped if is_generated_reason(reason))

    def _include_generated(self) -> None:
        self.accept()
        self.includeGeneratedRequested.emit()

    @property
    def hidden_count(self) -> int:
        return int(self.summary.quiet_skipped.get("hidden", 0))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        self._fill()  # its reasons and remarks are in the UI language too
        s = self.summary
        self.setWindowTitle(self.tr("Import finished") if not s.cancelled else self.tr("Import cancelled"))
        # The passages count is of the new and updated files only ("共 0 个片段" read as an empty
        # library after re-importing a folder whose files had not changed).
        lines = [self.tr("{0} new, {1} updated, {2} unchanged; {3} passages added or updated.").format(
            s.added, s.updated, s.unchanged, s.fragments)]
        if s.removed:
            lines.append(self.tr("%n document(s) removed because their files are gone.", "", s.removed))
        if s.cancelled:
            lines.append(self.tr("Cancelled: the files imported before you cancelled are kept."))
        if s.ocr_documents:
            lines.append(self.tr("Scanned pages in %n document(s) are being recognised in the "
                                 "background; their text pages are searchable now.", "",
                                 len(s.ocr_documents)))
        if s.ocr_waiting_pages:
            lines.append(self.tr("%n scanned page(s) wait for text recognition: install OCR in "
                                 "Settings → Text recognition.", "", s.ocr_waiting_pages))
        if s.failed:
            lines.append(self.tr("%n file(s) could not be imported (listed below).", "", len(s.failed)))
        if s.stopped:
            lines.append(self.tr("The import stopped early: {0} The files imported before are kept.")
                         .format(s.stopped))
        if s.links_lost:
            lines.append(self.tr("%n link(s) pointed at passages that are gone (listed below).", "",
                                 len(s.links_lost)))
        if s.dismissals_lost:
            lines.append(self.tr("%n dismissed suggestion(s) pointed at passages that are gone.", "",
                                 s.dismissals_lost))
        self.headline.setText("\n".join(lines))
        self.formats.setHeaderLabels([self.tr("Format"), self.tr("Files")])
        self.skipped_header.setText(self.tr("Skipped files, failures and remarks"))
        self.skipped.setHeaderLabels([self.tr("File"), self.tr("Reason")])
        other = sum(n for reason, n in s.quiet_skipped.items() if reason != "hidden")
        parts = []  # "0 hidden items skipped" told nothing
        if self.hidden_count:
            parts.append(self.tr("%n hidden item(s) skipped (names starting with a dot).", "",
                                 self.hidden_count))
        if other:
            parts.append(self.tr("%n other item(s) skipped (pictures, media, other formats, linked folders).", "", other))
        self.hidden.setText(" ".join(parts))
        self.hidden.setVisible(bool(parts))
        self.ok_button.setText(self.tr("OK"))
        self.include_button.setText(self.tr("Import the %n generated file(s) too", "", self.generated_count))
        self.include_button.setToolTip(self.tr("Lockfiles, minified code, vendored folders, huge schemas "
                                               "and .gitignored paths are skipped by default"))
