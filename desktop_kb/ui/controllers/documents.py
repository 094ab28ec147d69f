"""Library surface: the tree of imported documents (in their folders) and the document reader.

A document opens whole, in order, wherever it is opened from — the tree, a
search hit, a QA citation, a related suggestion — scrolled to the passage with
the hit highlighted.  Loading runs on the task runner; the reader only draws.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMessageBox

from desktop_kb.markup.plain import plain_title
from desktop_kb.tasks import document_tasks
from desktop_kb.tasks.document_tasks import DocumentView
from desktop_kb.tasks.library_tasks import LatestOnly, describe_error
from desktop_kb.ui.centre_focus import show_page

if TYPE_CHECKING:
    from desktop_kb.ui.main_window import MainWindow

Spans = list[tuple[int, int]] | None


class DocumentsController(QObject):
    fragmentOpened = Signal(int, int)  # document id, fragment id (0: the whole document, from its start)

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._w = window
        self._generation = 0
        self._tree_latest = LatestOnly()
        window.tree.documentActivated.connect(lambda doc_id: self.open_document(doc_id))
        window.tree.localOnlyRequested.connect(self.set_document_local_only)
        window.tree.deleteRequested.connect(self.confirm_delete_document)
        window.reader.localOnlyToggled.connect(self.set_document_local_only)

    def reload_tree(self) -> None:
        library = self._w.library
        if library is None:
            return
        # Two reloads in flight (an import from outside asks for one every second, and a big
        # library takes longer to list under load): the newest documents must stay listed.
        self._w.runner.run(lambda: document_tasks.load_snapshot(library), self._tree_latest(self._tree_loaded))

    def _tree_loaded(self, snapshot: document_tasks.LibrarySnapshot) -> None:
        w = self._w
        w.tree.set_snapshot(snapshot)
        # A reload rebuilds every row: the open document's row stays the selection (after an
        # import or a change from outside the tree highlighted nothing, or nothing ever when
        # the reload came after the document had opened).
        if w.centre.currentWidget() is w.reader and w.reader.document is not None:
            w.tree.show_open(w.reader.document.id)

    def open_fragment(self, document_id: int, fragment_id: int, highlights: Spans = None,
                      scroll_to: int | None = None) -> None:
        """A passage (hit, citation, link): its whole document, scrolled to it, highlighted."""
        del scroll_to  # the reader scrolls to the first highlight, or the passage's start
        self.open_document(document_id, fragment_id, highlights)

    def open_document(self, document_id: int, fragment_id: int | None = None,
                      highlights: Spans = None) -> None:
        w = self._w
        w.notes.save_now()
        reader = w.reader
        if reader.document is not None and reader.document.id == document_id and fragment_id is not None \
                and any(f.id == fragment_id for f in reader.fragments):
            reader.go_to_fragment(fragment_id, highlights or [])  # already loaded: just move
            self._show_reader(document_id, fragment_id)
            return
        library = w.library
        if library is None:
            return
        self._generation += 1
        generation = self._generation
        w.runner.run(lambda: document_tasks.load_document(library, document_id),
                     lambda view: self._show(generation, view, fragment_id, highlights),
                     lambda exc: w.statusBar().showMessage(describe_error(exc), 5000))

    def _show(self, generation: int, view: DocumentView, fragment_id: int | None,
              highlights: Spans) -> None:
        if generation != self._generation:
            return  # a later open won
        self._w.reader.show_document(view.document, view.fragments, focus_fragment=fragment_id,
                                     highlights=highlights)
        self._show_reader(view.document.id, fragment_id)

    def _show_reader(self, document_id: int, fragment_id: int | None) -> None:
        w = self._w
        show_page(w.centre, w.reader, w.reader.text)
        w.note_list.select(None, notify=False)  # a passage is open, not a note
        w.tree.show_open(document_id)
        w.update_actions()
        self.fragmentOpened.emit(document_id, fragment_id or 0)

    def set_document_local_only(self, document_id: int, on: bool) -> None:
        w = self._w
        w.save_queue.submit(lambda lib: lib.set_document_local_only(document_id, on))
        w.tree.set_local_only(document_id, on)
        w.reader.set_local_only(document_id, on)

    def confirm_delete_document(self, document_id: int) -> None:
        doc = self._w.tree.documents.get(document_id)
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Remove from library"),
                          self.tr("Remove “{0}” from the library? The file on disk is not touched.")
                          .format(plain_title(doc.title) if doc else document_id),
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel, self._w)
        box.button(QMessageBox.StandardButton.Yes).setText(self.tr("Remove"))
        box.button(QMessageBox.StandardButton.Cancel).setText(self.tr("Cancel"))
        box.finished.connect(lambda r: r == QMessageBox.StandardButton.Yes and self.delete_document(document_id))
        box.open()

    def delete_document(self, document_id: int) -> None:
        reader = self._w.reader
        if reader.document is not None and reader.document.id == document_id:
            reader.clear()
            self._w.show_placeholder()
        self._w.save_queue.submit(lambda lib: lib.delete_document(document_id),
                                  lambda _r: self.reload_tree())
