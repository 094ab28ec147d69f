"""Following changes other programs make to the library (a CLI import, a script, a restore).

The watcher (``tasks/library_watcher.py``) reports only what changed; this
controller updates just that: changed notes' rows, the titles ``[[`` completes
and the tag pane's counts, the library tree when documents changed, the open
note when its text changed and the editor holds nothing unsaved. When the person has unsaved text, it is never replaced: their
save keeps it, and the other version is kept as a separate note (the save queue
sees the conflict in the store, whatever the timing).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QMessageBox

from desktop_kb.importer.journal import CutShort
from desktop_kb.library import Library
from desktop_kb.tasks import note_tasks
from desktop_kb.tasks.library_watcher import LibraryWatcher
from desktop_kb.tasks.note_tasks import NoteRow
from desktop_kb.ui.env_messages import localize
from desktop_kb.watch import OutsideChanges

if TYPE_CHECKING:
    from desktop_kb.ui.main_window import MainWindow

TREE_RELOAD_MS = 1000


class OutsideChangesController(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._w = window
        self.watcher = LibraryWatcher(self)
        self.watcher.changed.connect(self.apply)
        self._tree_timer = QTimer(self, singleShot=True, interval=TREE_RELOAD_MS)
        self._tree_timer.timeout.connect(window.documents.reload_tree)
        self.replaced_box: QMessageBox | None = None  # library.sqlite was swapped under us
        self.other_versions_box: QMessageBox | None = None  # a sync client's conflicted copies
        self.cut_short_box: QMessageBox | None = None  # an import stopped by force since
        window.libraryOpened.connect(self._opened)

    def _opened(self, library: Library) -> None:
        self.watcher.start(library.paths.store, library.paths.models)
        self._w.runner.run(library.other_versions, self._other_versions)
        self._w.runner.run(library.cut_short_imports, self._cut_short)

    def _cut_short(self, imports: list[CutShort]) -> None:
        """An import stopped by force since (the app killed, a crash): told once, with what to do."""
        if not imports:
            return
        text = "\n\n".join(self.tr(
            "An import of {0} was cut short (the program importing it was stopped by force, "
            "crashed, or the computer went off): what it saved is kept, and the rest is missing. "
            "Import the same files again to finish; the ones already imported are skipped.").format(
                cut.what) for cut in imports)
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Desktop KB"), text,
                          QMessageBox.StandardButton.Close, self._w)
        self.cut_short_box = box
        box.open()

    def _other_versions(self, paths: list[Path]) -> None:
        """Another computer's version of the whole library, kept beside it by a sync client."""
        if not paths:
            return
        text = self.tr(
            "A sync client (Dropbox, OneDrive, Syncthing…) kept another computer's version of "
            "this library beside it: {0}. What was written there is not in this library. To see "
            "it, copy that file into an empty folder as library.sqlite and open that folder with "
            "desktop-kb --data-dir; then move it out of this folder.").format(
                ", ".join(p.name for p in paths))
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Desktop KB"), text,
                          QMessageBox.StandardButton.Close, self._w)
        self.other_versions_box = box
        box.open()

    def stop(self) -> None:
        self._tree_timer.stop()
        self.watcher.stop()

    def apply(self, changes: OutsideChanges) -> None:
        w = self._w
        if w.library is None:
            return
        if changes.other_versions:
            self._other_versions(changes.other_versions)
        if changes.file_replaced:
            w.save_queue.submit(lambda lib: lib.let_go_of_a_replaced_file(), self._file_replaced)
            return
        if changes.history:  # the store was replaced (a backup restored): everything anew
            w.notes.reload_notes()
            w.save_queue.submit(lambda lib: note_tasks.load_rows(lib, False, []),
                                lambda rows: w.links.set_titles([(r.id, r.title) for r in rows]))
            w.tags.refresh_soon()
            w.documents.reload_tree()
            w.qa_dock.pane.library_replaced()
            self._reopen_current()
            w.index.refresh()
            return
        model = w.note_list.model
        titles = w.links.catalog
        showing_trash = w.note_list.showing_trash
        # A list filtered by #tags is read again: whether a changed note carries them is the
        # store's to say (another program's note without the tag was listed under it).
        filtered = bool(w.note_list.tag_filter)
        for note in changes.notes:
            if filtered:
                pass  # read again below
            elif note.trashed == showing_trash:
                model.upsert(NoteRow.from_note(note))
            else:
                model.remove(note.id)
            # A note another program wrote is a link target like any other (``[[`` offers it).
            if note.trashed:
                titles.drop(note.id)
            else:
                titles.put(note.id, note.title)
        for note_id in changes.deleted_notes:
            model.remove(note_id)
            titles.drop(note_id)
        if changes.notes or changes.deleted_notes:
            w.tags.refresh_soon()  # its #tags came or went with it
            if filtered:
                w.notes.reload_notes()
        self._follow_open_note(changes)
        if changes.documents and not self._tree_timer.isActive():
            # A CLI import changes documents for minutes: the tree reloads at most every
            # TREE_RELOAD_MS, not on every poll.
            self._tree_timer.start()
        if changes.settings or changes.models:
            library = w.library
            w.runner.run(library.follow_model_choice, lambda _changed: w.index.refresh(),
                         lambda _exc: w.index.refresh())

    def _file_replaced(self, replaced: str | None) -> None:
        """Said at once, not at the next save: what is typed from now on is kept for later."""
        if not replaced:
            return
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Desktop KB"),
                          localize(replaced), QMessageBox.StandardButton.Close, self._w)
        self.replaced_box = box
        box.open()

    def _follow_open_note(self, changes: OutsideChanges) -> None:
        w = self._w
        note_id = w.editor.note_id
        if note_id is None or w.centre.currentWidget() is not w.editor:
            return
        unsaved = w.notes.dirty or w.save_queue.pending_text(note_id) is not None
        if note_id in changes.deleted_notes:
            if not unsaved:
                w.show_placeholder()
                w.statusBar().showMessage(self.tr("The open note was deleted outside this window."),
                                          10000)
            return  # unsaved text: the next save keeps it as a new note
        note = next((n for n in changes.notes if n.id == note_id), None)
        if note is None or unsaved:
            return  # unchanged, or the person's text wins (the other version is kept on save)
        if note.change_seq <= w.save_queue.base_seq(note_id):
            return  # read before the editor's own latest save landed: older than the screen
        snapshot = w.editor.snapshot()
        if snapshot is not None and snapshot[1:] == (note.title, note.body):
            w.save_queue.set_base(note.id, note.change_seq, note.title, note.body,
                                  local_only=note.local_only)
            return  # our own save coming back, or nothing visible changed
        if note.trashed and not w.note_list.showing_trash:
            w.show_placeholder()
            w.statusBar().showMessage(self.tr("The open note was moved to the trash outside this "
                                              "window."), 10000)
            return
        w.save_queue.set_base(note.id, note.change_seq, note.title, note.body,
                                  local_only=note.local_only)
        w.editor.refresh(note, read_only=note.trashed or w.notes.library_read_only())
        w.statusBar().showMessage(self.tr("The open note was updated by another program."), 5000)

    def _reopen_current(self) -> None:
        w = self._w
        note_id = w.editor.note_id
        if note_id is not None and not w.notes.dirty and w.save_queue.pending_text(note_id) is None:
            w.notes.open_note(note_id)
