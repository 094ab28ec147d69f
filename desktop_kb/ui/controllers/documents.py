"""Library surface: the tree of imported documents and the fragment reader beside it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QMessageBox

from desktop_kb.store.documents import Document, Fragment
from desktop_kb.tasks import document_tasks
from desktop_kb.tasks.library_tasks import describe_error
from desktop_kb.ui.library_tree import fragment_label

if TYPE_CHECKING:
    from desktop_kb.ui.main_window import MainWindow

Spans = list[tuple[int, int]] | None


class DocumentsController(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._w = window
        window.tree.fragmentActivated.connect(self.open_fragment)
        window.tree.localOnlyRequested.connect(self.set_document_local_only)
        window.tree.deleteRequested.connect(self.confirm_delete_document)
        window.reader.localOnlyToggled.connect(self.set_document_local_only)

    def reload_tree(self) -> None:
        library = self._w.library
        if library is not None:
            self._w.runner.run(lambda: document_tasks.load_snapshot(library), self._w.tree.set_snapshot)

    def open_fragment(self, document_id: int, fragment_id: int, highlights: Spans = None,
                      scroll_to: int | None = None) -> None:
        w = self._w
        w.notes.save_now()
        doc = w.tree.documents.get(document_id)
        fragment = w.tree.fragments.get(fragment_id)
        if doc is not None and fragment is not None:
            self._show_fragment(doc, fragment, highlights, scroll_to)
            return
        library = w.library
        if library is None:
            return
        w.runner.run(lambda: document_tasks.load_fragment(library, document_id, fragment_id),
                     lambda pair: self._show_fragment(pair[0], pair[1], highlights, scroll_to),
                     lambda exc: w.statusBar().showMessage(describe_error(exc), 5000))

    def _show_fragment(self, doc: Document, fragment: Fragment, highlights: Spans,
                       scroll_to: int | None) -> None:
        w = self._w
        title = doc.title if not fragment.heading_path else f"{doc.title} — {fragment_label(fragment)}"
        w.reader.show_fragment(doc.id, fragment.id, title, doc.path, fragment.text, doc.local_only)
        w.centre.setCurrentWidget(w.reader)
        if highlights:
            w.reader.highlight(highlights, scroll_to)
        w.update_actions()

    def set_document_local_only(self, document_id: int, on: bool) -> None:
        w = self._w
        w.save_queue.submit(lambda lib: lib.set_document_local_only(document_id, on))
        w.tree.set_local_only(document_id, on)
        reader = w.reader
        if reader.document_id == document_id:
            reader.show_fragment(document_id, reader.fragment_id or 0, reader.title.text(),
                                 reader.path.text(), reader.text.toPlainText(), on)

    def confirm_delete_document(self, document_id: int) -> None:
        doc = self._w.tree.documents.get(document_id)
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Remove from library"),
                          self.tr("Remove “{0}” from the library? The file on disk is not touched.")
                          .format(doc.title if doc else document_id),
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel, self._w)
        box.button(QMessageBox.StandardButton.Yes).setText(self.tr("Remove"))
        box.button(QMessageBox.StandardButton.Cancel).setText(self.tr("Cancel"))
        box.finished.connect(lambda r: r == QMessageBox.StandardButton.Yes and self.delete_document(document_id))
        box.open()

    def delete_document(self, document_id: int) -> None:
        if self._w.reader.document_id == document_id:
            self._w.show_placeholder()
        self._w.save_queue.submit(lambda lib: lib.delete_document(document_id),
                                  lambda _r: self.reload_tree())
