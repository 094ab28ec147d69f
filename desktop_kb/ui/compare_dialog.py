"""Two texts side by side, for a near-duplicate hint: read both, decide, nothing is merged.

Scrolling one side scrolls the other proportionally, so the same passage stays
level; the texts load off the GUI thread.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QDialog, QLabel, QPlainTextEdit, QSplitter, QVBoxLayout, QWidget

from desktop_kb.discovery.panel import NearDuplicate
from desktop_kb.tasks import link_tasks

if TYPE_CHECKING:
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
        layout = QVBoxLayout(self)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.note)
        self.retranslateUi()

    def show_texts(self, left: tuple[str, str], right: tuple[str, str]) -> None:
        for (title, text), label, edit in zip((left, right), self.titles, self.texts, strict=True):
            label.setText(title or self.tr("Untitled"))
            edit.setPlainText(text)

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
        self.note.setText(self.tr("Nothing is changed or merged here. Edit, link or delete either one "
                                  "yourself if you want to."))


def open_comparison(window: MainWindow, duplicate: NearDuplicate) -> CompareDialog | None:
    library, note_id = window.library, window.editor.note_id
    if library is None or note_id is None:
        return None
    window.notes.save_now()
    dialog = CompareDialog(window)
    window.compare_dialog = dialog  # type: ignore[attr-defined]
    window.save_queue.submit(lambda lib: link_tasks.load_comparison(lib, note_id, duplicate),
                             lambda pair: (dialog.show_texts(*pair), dialog.show()))
    return dialog
