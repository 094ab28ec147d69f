"""Two texts side by side, for a near-duplicate hint: read both, decide, nothing is merged.

Scrolling one side scrolls the other proportionally, so the same passage stays
level; what one side has and the other does not is marked, so the reader finds the
difference instead of reading both word by word; the texts and their differences
are loaded off the GUI thread.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from desktop_kb.discovery.differences import Span, differences
from desktop_kb.discovery.panel import NearDuplicate
from desktop_kb.tasks import link_tasks
from desktop_kb.ui.note_editor import hit_selections

if TYPE_CHECKING:
    from desktop_kb.library import Library
    from desktop_kb.ui.main_window import MainWindow


class CompareDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("compareDialog")
        self.resize(1100, 700)
        self.titles: list[QLabel] = []
        self.texts: list[QPlainTextEdit] = []
        splitter = QSplitter(Qt.Orientation.Horizontal)
        for _ in range(2):
            pane = QWidget()
            title = QLabel(objectName="paneHeader", wordWrap=True)
            text = QPlainTextEdit(readOnly=True)
            text.document().setDocumentMargin(10)
            box = QVBoxLayout(pane)
            box.setContentsMargins(0, 0, 0, 0)
            box.addWidget(title)
            box.addWidget(text, 1)
            splitter.addWidget(pane)
            self.titles.append(title)
            self.texts.append(text)
        self._syncing = False
        for i, text in enumerate(self.texts):
            text.verticalScrollBar().valueChanged.connect(lambda _v, i=i: self._sync(i))
        self.note = QLabel(objectName="emptyHint", wordWrap=True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.buttons.rejected.connect(self.close)
        bottom = QHBoxLayout()
        bottom.addWidget(self.note, 1)
        bottom.addWidget(self.buttons)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter, 1)
        layout.addLayout(bottom)
        self.retranslateUi()

    def show_texts(self, left: tuple[str, str], right: tuple[str, str],
                   marks: tuple[list[Span], list[Span]] | None = None) -> None:
        """``marks``: the spans of each text the other one lacks (computed here when not given)."""
        if marks is None:
            marks = differences(left[1], right[1])
        for (title, text), spans, label, edit in zip((left, right), marks, self.titles, self.texts, strict=True):
            label.setText(title or self.tr("Untitled"))
            edit.setPlainText(text)
            edit.setExtraSelections(hit_selections(edit, text, spans))

    def _sync(self, source: int) -> None:
        if self._syncing:
            return
        self._syncing = True
        try:
            bar = self.texts[source].verticalScrollBar()
            other = self.texts[1 - source].verticalScrollBar()
            share = bar.value() / bar.maximum() if bar.maximum() else 0.0
            other.setValue(round(share * other.maximum()))
        finally:
            self._syncing = False

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        self.setWindowTitle(self.tr("Compare side by side"))
        marked = self.tr("Marked: text the other side does not have.")
        self.note.setText(marked + ("" if marked.endswith("。") else " ")  # no space after a 。
                          + self.tr("Nothing is changed or merged here. Edit, link or delete either one "
                                    "yourself if you want to."))


def open_comparison(window: MainWindow, duplicate: NearDuplicate) -> CompareDialog | None:
    library, note_id = window.library, window.editor.note_id
    if library is None or note_id is None:
        return None
    window.notes.save_now()
    dialog = CompareDialog(window)
    window.compare_dialog = dialog  # type: ignore[attr-defined]
    def load(lib: Library) -> tuple[tuple[str, str], tuple[str, str], tuple[list[Span], list[Span]]]:
        left, right = link_tasks.load_comparison(lib, note_id, duplicate)
        return left, right, differences(left[1], right[1])

    window.save_queue.submit(load, lambda loaded: (dialog.show_texts(*loaded), dialog.show()))
    return dialog
