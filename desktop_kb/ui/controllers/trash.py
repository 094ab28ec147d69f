"""Trash surface: move the open note to the trash (with Undo), restore, empty the trash."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QMessageBox

from desktop_kb.store.notes import Note
from desktop_kb.tasks import note_tasks
from desktop_kb.tasks.library_tasks import describe_error
from desktop_kb.tasks.note_tasks import NoteRow

if TYPE_CHECKING:
    from desktop_kb.ui.main_window import MainWindow

UNDO_VISIBLE_MS = 10000


class TrashController(QObject):
    noteTrashed = Signal(int)
    noteRestored = Signal(int)

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._w = window
        self._last_trashed: int | None = None
        self.delete_box: QMessageBox | None = None  # the open "delete for good" questions (tests)
        self.empty_box: QMessageBox | None = None
        self._undo_timer = QTimer(self, singleShot=True, interval=UNDO_VISIBLE_MS)
        self._undo_timer.timeout.connect(window.undo_bar.hide)
        window.undo_button.clicked.connect(self.undo_trash)
        window.editor.trashRequested.connect(self.trash_current_note)
        window.note_list.restoreRequested.connect(self.restore_note)
        window.note_list.emptyTrashRequested.connect(self.confirm_empty_trash)
        window.note_list.trashRequested.connect(self.trash_note)
        window.note_list.deleteForeverRequested.connect(self.confirm_delete_forever)

    def trash_current_note(self) -> None:
        w = self._w
        note_id = w.editor.note_id
        if note_id is None or w.library is None or w.centre.currentWidget() is not w.editor:
            return
        self.trash_note(note_id)

    def trash_note(self, note_id: int) -> None:
        """Move a note to the trash (the open one, or one chosen in the list); undoable."""
        w = self._w
        if w.library is None:
            return
        if note_id == w.editor.note_id:
            w.notes.save_now()
            title = w.editor.title.text()
        else:
            row = w.note_list.model.get(note_id)
            title = row.title if row else ""
        w.save_queue.submit(lambda lib: lib.trash_note(note_id),
                            lambda _r: self._trashed(note_id, title),
                            lambda exc: w.statusBar().showMessage(describe_error(exc), 8000))

    def confirm_delete_forever(self, note_id: int) -> None:
        row = self._w.note_list.model.get(note_id)
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Delete for good"),
                          self.tr("Delete “{0}” for good? This cannot be undone.").format(
                              (row.title if row else "") or self.tr("Untitled")),
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel, self._w)
        box.button(QMessageBox.StandardButton.Yes).setText(self.tr("Delete for good"))
        box.button(QMessageBox.StandardButton.Cancel).setText(self.tr("Cancel"))
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)  # Enter must not destroy for good
        box.finished.connect(lambda r: r == QMessageBox.StandardButton.Yes and self._w.save_queue.submit(
            lambda lib: lib.delete_note(note_id), lambda _r: self._w.notes.reload_notes()))
        self.delete_box = box
        box.open()

    def _trashed(self, note_id: int, title: str) -> None:
        w = self._w
        w.note_list.model.remove(note_id)
        w.links.catalog.drop(note_id)
        if w.editor.note_id == note_id:
            w.show_placeholder()
        self._last_trashed = note_id
        w.act_undo_trash.setEnabled(True)
        w.undo_label.setText(self.tr("“{0}” moved to the trash.").format(title or self.tr("Untitled")))
        w.undo_bar.show()
        self._undo_timer.start()
        self.noteTrashed.emit(note_id)

    def undo_trash(self) -> None:
        note_id = self._last_trashed
        if note_id is None:
            return
        self._last_trashed = None
        self._w.act_undo_trash.setEnabled(False)
        self._w.undo_bar.hide()
        self.restore_note(note_id, reopen=True)

    def restore_note(self, note_id: int, *, reopen: bool = False) -> None:
        self._w.save_queue.submit(lambda lib: note_tasks.restore_note(lib, note_id),
                                  lambda note: self._restored(note, reopen))

    def _restored(self, note: Note, reopen: bool) -> None:
        w = self._w
        if w.note_list.showing_trash:
            w.note_list.model.remove(note.id)
            w.show_placeholder()
            w.statusBar().showMessage(self.tr("Restored “{0}”.").format(note.title), 5000)
        else:
            w.note_list.model.upsert(NoteRow.from_note(note))
            if reopen:
                w.notes.open_note(note.id)
        w.links.catalog.put(note.id, note.title)
        self.noteRestored.emit(note.id)

    def confirm_empty_trash(self) -> None:
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Empty trash"),
                          self.tr("Delete every note in the trash for good? This cannot be undone."),
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel, self._w)
        box.button(QMessageBox.StandardButton.Yes).setText(self.tr("Delete for good"))
        box.button(QMessageBox.StandardButton.Cancel).setText(self.tr("Cancel"))
        # Enter after Delete must not empty the trash: the focused default was "Delete for good".
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.finished.connect(lambda result: result == QMessageBox.StandardButton.Yes and self.empty_trash())
        self.empty_box = box
        box.open()

    def empty_trash(self) -> None:
        self._w.save_queue.submit(lambda lib: lib.empty_trash(), self._trash_emptied)

    def _trash_emptied(self, count: int) -> None:
        self._w.statusBar().showMessage(self.tr("%n note(s) deleted for good.", "", count), 5000)
        self._w.notes.reload_notes()
