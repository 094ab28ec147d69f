"""Notes surface: the note list and the editor — open, autosave, create, local-only.

Every read and write goes through the ordered note queue, so what the editor shows
is never older than what it last saved and two quick changes land in click order.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal

from desktop_kb.store.notes import Note
from desktop_kb.tasks import note_tasks
from desktop_kb.tasks.library_tasks import describe_error
from desktop_kb.tasks.note_tasks import NoteRow, preview_of
from desktop_kb.ui.centre_focus import show_page
from desktop_kb.ui.env_messages import localize

if TYPE_CHECKING:
    from desktop_kb.ui.main_window import MainWindow

AUTOSAVE_IDLE_MS = 1000  # after typing stops
AUTOSAVE_MAX_MS = 1000  # while typing continues: never lose more than about a second

Spans = list[tuple[int, int]] | None


class NotesController(QObject):
    noteOpened = Signal(int)
    noteCreated = Signal(int)
    notesLoaded = Signal()

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._w = window
        self.dirty = False  # the editor holds text not yet handed to the save queue
        self._open_generation = 0
        self._idle_timer = QTimer(self, singleShot=True, interval=AUTOSAVE_IDLE_MS)
        self._idle_timer.timeout.connect(self.save_now)
        self._max_timer = QTimer(self, singleShot=True, interval=AUTOSAVE_MAX_MS)
        self._max_timer.timeout.connect(self.save_now)
        window.note_list.noteSelected.connect(self.open_note)
        window.note_list.newNoteRequested.connect(self.new_note)
        window.note_list.trashViewChanged.connect(lambda _on: self.reload_notes())
        window.note_list.reloadRequested.connect(self.reload_notes)
        window.editor.edited.connect(self._edited)
        window.editor.focusLost.connect(self.save_now)
        window.editor.localOnlyToggled.connect(self.set_note_local_only)
        window.reader.newNoteFromSelection.connect(self.new_note_from_selection)
        window.save_queue.saved.connect(self._saved)
        window.save_queue.saveFailed.connect(self._save_failed)
        window.save_queue.otherVersionKept.connect(self._other_version_kept)
        window.save_queue.noteRecreated.connect(self._recreated)
        window.save_queue.other_title = lambda title: self.tr("{0} (other version)").format(title)

    # ----- the list ------------------------------------------------------------------

    def show_opened(self, rows: list[NoteRow], welcome_id: int | None) -> None:
        """The library has just opened: list its notes, open the welcome or last-read note."""
        self._w.note_list.set_rows(rows)
        last = welcome_id or self._w.state.int("session/last_note")
        if last is not None and any(r.id == last for r in rows):
            self.open_note(last)
        elif rows:
            self.open_note(rows[0].id)

    def reload_notes(self) -> None:
        if self._w.library is None:
            return
        trashed = self._w.note_list.showing_trash
        tags = list(self._w.note_list.tag_filter)
        self._w.save_queue.submit(lambda lib: note_tasks.load_rows(lib, trashed, tags),
                                  lambda rows: self._notes_loaded(trashed, tags, rows),
                                  lambda exc: self._notes_failed(trashed, tags, exc))

    def _notes_failed(self, trashed: bool, tags: list[str], exc: BaseException) -> None:
        """Not lost in a log: the rows on screen are from before (another view's, after a
        switch to the trash), so the list says so and offers to try again."""
        if trashed != self._w.note_list.showing_trash or tags != self._w.note_list.tag_filter:
            return  # a newer reload for the view now shown is on its way
        self._w.note_list.show_reload_failed(localize(describe_error(exc)))

    def _notes_loaded(self, trashed: bool, tags: list[str], rows: list[NoteRow]) -> None:
        if trashed != self._w.note_list.showing_trash or tags != self._w.note_list.tag_filter:
            return  # the view changed again meanwhile
        self._w.note_list.set_rows(rows)
        if tags and not trashed and self._w.editor.note_id is not None:
            # A tag filter narrows the list; the open note stays open even if it is not listed.
            self.notesLoaded.emit()
            return
        if trashed or self._w.editor.note_id not in {r.id for r in rows}:
            self._w.show_placeholder()
        self.notesLoaded.emit()

    # ----- opening -------------------------------------------------------------------

    def open_note(self, note_id: int, highlights: Spans = None, scroll_to: int | None = None) -> None:
        if self._w.library is None:
            return
        if note_id != self._w.editor.note_id:
            self.save_now()
        self._open_generation += 1
        generation = self._open_generation
        self._w.save_queue.submit(lambda lib: lib.get_note(note_id),
                                  lambda note: self._show_note(generation, note, highlights, scroll_to),
                                  lambda exc: self._w.statusBar().showMessage(describe_error(exc), 5000))

    def library_read_only(self) -> bool:
        """Whether the open library is on a read-only disk: its notes are shown, not edited."""
        return self._w.library is not None and self._w.library.read_only is not None

    def _show_note(self, generation: int, note: Note, highlights: Spans, scroll_to: int | None) -> None:
        if generation != self._open_generation:
            return
        if self.dirty and self._w.editor.note_id == note.id:
            return  # the person typed after asking; what is on screen is newer
        editor = self._w.editor
        unsaved = self._w.save_queue.pending_text(note.id)
        read_only = note.trashed or self.library_read_only()
        if unsaved is None:
            self._w.save_queue.set_base(note.id, note.change_seq, note.title, note.body,
                                        local_only=note.local_only)
            editor.load(note, read_only=read_only)
        else:  # a save of this note is still failing: show the newer, unsaved text
            editor.load(replace(note, title=unsaved[0], body=unsaved[1]), read_only=read_only)
            editor.set_save_state(self.tr("Not saved"))
        if read_only and not note.trashed:
            editor.set_save_state(self.tr("Read-only"))
        if note.trashed:
            # Opened from a citation, a link or a search: it looked like any note, and typing did
            # nothing, without a word why.
            editor.set_save_state(self.tr("In the trash"))
            self._w.statusBar().showMessage(self.tr(
                "“{0}” is in the trash, so it cannot be edited. To edit it, show the trash (the bin "
                "above the note list) and restore it.").format(note.title or self.tr("Untitled")), 10000)
        show_page(self._w.centre, editor, editor.body)
        self._w.note_list.select(note.id, notify=False)
        self._w.tree.tree.clearSelection()  # the selection shows what is open, nothing else
        if highlights:
            editor.highlight(highlights, scroll_to)
        if not note.trashed:
            self._w.state.set("session/last_note", note.id)
        self._w.update_actions()
        self.noteOpened.emit(note.id)

    def close_editor(self) -> None:
        """Empty the editor, dropping unsaved state (the caller saved or discards it)."""
        self._w.editor.clear()
        self.dirty = False

    # ----- saving --------------------------------------------------------------------

    def _edited(self) -> None:
        self.dirty = True
        self._w.editor.set_save_state(self.tr("Edited"))
        self._idle_timer.start()
        if not self._max_timer.isActive():
            self._max_timer.start()

    def save_now(self) -> None:
        """Queue the editor's text (the store, then the save hook, on the saver thread)."""
        self._idle_timer.stop()
        self._max_timer.stop()
        if not self.dirty:
            return
        snapshot = self._w.editor.snapshot()
        self.dirty = False
        if snapshot is None:
            return
        note_id, title, body = snapshot
        self._w.save_queue.save(note_id, title, body)
        self._w.links.catalog.put(note_id, title)
        self._w.editor.set_save_state(self.tr("Saving…"))
        model = self._w.note_list.model
        row = model.get(note_id)
        if row is not None:
            model.upsert(NoteRow(note_id, title, time.time(), row.local_only, preview_of(body, title)))

    def _saved(self, note_id: int, _changed: bool) -> None:
        if note_id == self._w.editor.note_id and not self.dirty:
            self._w.editor.set_save_state(self.tr("Saved"))

    def _save_failed(self, note_id: int, reason: str) -> None:
        if note_id == self._w.editor.note_id and not self.dirty:
            self._w.editor.set_save_state(self.tr("Not saved — retrying"))
        self._w.statusBar().showMessage(self.tr(
            "Could not save the note: {0}. Your text is kept and saving is retried.").format(localize(reason)),
            10000)

    def _other_version_kept(self, note_id: int, other_id: int) -> None:
        """Someone else changed the open note meanwhile: their text became another note."""
        self._w.statusBar().showMessage(self.tr(
            "This note was also changed outside this window; the other version is kept as a "
            "separate note."), 15000)
        self.reload_notes()

    def _recreated(self, old_id: int, new_id: int) -> None:
        """The note was deleted by another program while being edited: its text is a new note."""
        if self._w.editor.note_id == old_id:
            self._w.editor.note_id = new_id
        self._w.statusBar().showMessage(self.tr(
            "This note was deleted outside this window; your text was saved as a new note."), 15000)
        self.reload_notes()

    # ----- creating and flags --------------------------------------------------------

    def new_note(self, _checked: bool = False, *, title: str | None = None, body: str = "",
                 derived_from: tuple[tuple[str, int], ...] = (), focus_body: bool = False) -> None:
        if self._w.library is None:
            return
        if self.library_read_only():
            self._w.statusBar().showMessage(localize(self._w.library.read_only or ""), 10000)
            return
        if self._w.note_list.showing_trash:
            self._w.note_list.trash_button.setChecked(False)
        self.save_now()
        title = self.tr("Untitled") if title is None else title
        self._w.save_queue.submit(lambda lib: note_tasks.create_note(lib, title, body, derived_from),
                                  lambda note: self._created(note, focus_body))

    def _created(self, note: Note, focus_body: bool = False) -> None:
        self._w.note_list.model.upsert(NoteRow.from_note(note))
        self._w.links.catalog.put(note.id, note.title)
        self._open_generation += 1
        self._show_note(self._open_generation, note, None, None)
        if focus_body:  # a note created from a link already has its title
            self._w.editor.body.setFocus()
        else:
            # All selected, to type over, with the cursor at the start: selectAll() left it at
            # the end, and a long title ("关于“《Rust 所有权讲义》第 1 页”的笔记") showed its tail.
            title = self._w.editor.title
            title.setFocus()
            title.setSelection(len(title.text()), -len(title.text()))
        self.noteCreated.emit(note.id)

    def new_note_from_selection(self, _document_id: int, fragment_id: int, source_label: str,
                                text: str) -> None:
        """Quote the reader's selection in a new note linked to its passage (local-only follows)."""
        if self._w.library is None:
            return
        if self.library_read_only():
            self._w.statusBar().showMessage(localize(self._w.library.read_only or ""), 10000)
            return
        if self._w.note_list.showing_trash:
            self._w.note_list.trash_button.setChecked(False)
        self.save_now()
        quoted = "\n".join(f"> {line}" if line else ">" for line in text.splitlines())
        source = self.tr("Source: {0}").format(source_label)
        body = f"{quoted}\n\n{source}\n\n"
        title = self.tr("Notes on {0}").format(source_label)
        self._w.save_queue.submit(
            lambda lib: note_tasks.create_note_from_passage(lib, title, body, fragment_id),
            self._created)

    def set_note_local_only(self, on: bool) -> None:
        note_id = self._w.editor.note_id
        if note_id is None:
            return
        self._w.save_queue.set_local_only(note_id, on)
        self._w.save_queue.submit(lambda lib: lib.set_note_local_only(note_id, on))
        self._w.note_list.model.patch(note_id, local_only=on)
