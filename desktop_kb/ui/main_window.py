"""The note-taking window: note list and library on the left, editor or reader in the centre.

The window only draws. Every read and write of the library happens on the
ordered note queue (notes, settings, document flags) or the task runner
(search, listing, status, import, rebuild); results come back by signal.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QStackedWidget,
    QToolButton,
)

from desktop_kb.index.verify import VerifyReport
from desktop_kb.index.worker import RebuildResult
from desktop_kb.library import IndexStatus, Library
from desktop_kb.retrieval.results import SearchResult
from desktop_kb.store.notes import Note
from desktop_kb.tasks.export_notes import ExportResult, export_notes
from desktop_kb.tasks.gc_tuning import freeze_long_lived_objects
from desktop_kb.tasks.index_bridge import IndexBridge
from desktop_kb.tasks.library_tasks import TaskRunner, describe_error
from desktop_kb.tasks.progress_bridge import ProgressBridge
from desktop_kb.tasks.save_queue import SaveQueue
from desktop_kb.ui import i18n, icons
from desktop_kb.ui.import_dialog import ImportSummaryDialog
from desktop_kb.ui.library_tree import LibrarySnapshot, LibraryTree, load_snapshot
from desktop_kb.ui.note_editor import FragmentReader, NoteEditor
from desktop_kb.ui.note_list import NoteListPanel, NoteRow, preview_of
from desktop_kb.ui.progress_dialog import TaskProgressDialog
from desktop_kb.ui.qa_dock import install_qa_dock
from desktop_kb.ui.related_panel import install_related_panel
from desktop_kb.ui.search_popup import LIMIT, SearchPopup
from desktop_kb.ui.settings_dialog import SettingsDialog
from desktop_kb.ui.status_badge import IndexStatusPopup, StatusBadge, degraded_text
from desktop_kb.ui.ui_state import UiState
from desktop_kb.ui.welcome import welcome_note

AUTOSAVE_IDLE_MS = 1000  # after typing stops
AUTOSAVE_MAX_MS = 1000  # while typing continues: never lose more than about a second
UNDO_VISIBLE_MS = 10000


@dataclass
class OpenedLibrary:
    library: Library
    rows: list[NoteRow]
    snapshot: LibrarySnapshot
    welcome_id: int | None


def open_library(data_dir: Path, listener: Any, welcome: tuple[str, str],
                 holder: dict[str, Library]) -> OpenedLibrary:
    """Runs off the GUI thread: open, create the welcome note once, load the lists."""
    library = Library(data_dir, listener=listener, verify_on_start=True)
    holder["library"] = library  # so a window closed mid-open can still close it
    welcome_id = None
    if not library.get_setting("ui.welcome_created"):
        if not library.list_notes() and not library.list_notes(trashed=True):
            welcome_id = library.add_note(*welcome)
        library.set_setting("ui.welcome_created", True)
    rows = [NoteRow.from_note(n) for n in library.list_notes()]
    return OpenedLibrary(library, rows, load_snapshot(library), welcome_id)


class MainWindow(QMainWindow):
    libraryOpened = Signal(object)  # Library
    libraryFailed = Signal(str)
    notesLoaded = Signal()
    noteOpened = Signal(int)
    noteCreated = Signal(int)
    noteTrashed = Signal(int)
    noteRestored = Signal(int)
    importFinished = Signal(object)  # ImportSummary
    exportFinished = Signal(object)  # ExportResult
    rebuildFinished = Signal(object)  # RebuildResult
    verifyFinished = Signal(object)  # VerifyReport
    shutdownFinished = Signal()

    def __init__(self, data_dir: Path, *, language_choice: str = i18n.SYSTEM,
                 open_now: bool = True) -> None:
        super().__init__()
        self.data_dir = Path(data_dir)
        self.language_choice = language_choice
        self.library: Library | None = None
        self._holder: dict[str, Library] = {}
        self._closed = False
        self._dirty = False
        self._open_generation = 0
        self._progress: list[ProgressBridge] = []
        self._last_trashed: int | None = None
        self._settled = False
        self.settings_dialog: SettingsDialog | None = None
        self.import_summary: ImportSummaryDialog | None = None
        self.rebuild_dialog: TaskProgressDialog | None = None
        self.state = UiState(self.data_dir)

        self.runner = TaskRunner(self, threads=3)
        self.save_queue = SaveQueue(self)
        self.save_queue.saved.connect(self._saved)
        self.save_queue.saveFailed.connect(self._save_failed)
        self.index = IndexBridge(self.runner, self)
        self.index.statusChanged.connect(self._index_status)

        self._build_widgets()
        self.related_panel = install_related_panel(self)
        self._build_actions()
        self._build_status_bar()
        self.qa_dock = install_qa_dock(self)
        self._idle_timer = QTimer(self, singleShot=True, interval=AUTOSAVE_IDLE_MS)
        self._idle_timer.timeout.connect(self.save_now)
        self._max_timer = QTimer(self, singleShot=True, interval=AUTOSAVE_MAX_MS)
        self._max_timer.timeout.connect(self.save_now)
        self._undo_timer = QTimer(self, singleShot=True, interval=UNDO_VISIBLE_MS)
        self._undo_timer.timeout.connect(self.undo_bar.hide)
        self.setWindowIcon(icons.svg("app"))
        self.setStyleSheet(icons.stylesheet())
        self._restore_state()
        self.retranslateUi()
        if open_now:
            QTimer.singleShot(0, self.open_library)

    # ===== construction ================================================================

    def _build_widgets(self) -> None:
        self.note_list = NoteListPanel()
        self.note_list.noteSelected.connect(self.open_note)
        self.note_list.newNoteRequested.connect(self.new_note)
        self.note_list.trashViewChanged.connect(lambda _on: self.reload_notes())
        self.note_list.restoreRequested.connect(self.restore_note)
        self.note_list.emptyTrashRequested.connect(self.confirm_empty_trash)
        self.tree = LibraryTree()
        self.tree.fragmentActivated.connect(self.open_fragment)
        self.tree.localOnlyRequested.connect(self.set_document_local_only)
        self.tree.deleteRequested.connect(self.confirm_delete_document)
        self.left = QSplitter(Qt.Orientation.Vertical)
        self.left.addWidget(self.note_list)
        self.left.addWidget(self.tree)
        self.left.setStretchFactor(0, 3)
        self.left.setStretchFactor(1, 2)

        self.editor = NoteEditor()
        self.editor.edited.connect(self._edited)
        self.editor.focusLost.connect(self.save_now)
        self.editor.localOnlyToggled.connect(self.set_note_local_only)
        self.editor.trashRequested.connect(self.trash_current_note)
        self.reader = FragmentReader()
        self.reader.newNoteFromSelection.connect(self.new_note_from_selection)
        self.reader.localOnlyToggled.connect(self.set_document_local_only)
        self.placeholder = QLabel(objectName="emptyHint", alignment=Qt.AlignmentFlag.AlignCenter,
                                  wordWrap=True)
        self.centre = QStackedWidget()
        for widget in (self.placeholder, self.editor, self.reader):
            self.centre.addWidget(widget)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.left)
        self.splitter.addWidget(self.centre)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([300, 900])
        self.splitter.setChildrenCollapsible(False)
        self.setCentralWidget(self.splitter)
        self.search = SearchPopup(self.runner, self)
        self.search.resultChosen.connect(self.open_result)
        self.status_popup = IndexStatusPopup(self)
        self.status_popup.rebuildRequested.connect(self.rebuild_index)
        self.status_popup.verifyRequested.connect(self.verify_index)

    def _action(self, slot: Any, shortcut: QKeySequence | str | None = None,
                icon: Any = None) -> QAction:
        action = QAction(self)
        action.triggered.connect(slot)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if icon is not None:
            action.setIcon(icon)
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        sp = icons.SP
        self.act_new = self._action(self.new_note, QKeySequence.StandardKey.New, icons.standard(sp.SP_FileIcon))
        self.act_save = self._action(self.save_now, QKeySequence.StandardKey.Save, icons.standard(sp.SP_DialogSaveButton))
        self.act_import_files = self._action(self.choose_import_files, None, icons.standard(sp.SP_FileDialogStart))
        self.act_import_folder = self._action(self.choose_import_folder, None, icons.standard(sp.SP_DirOpenIcon))
        self.act_export = self._action(self.choose_export_folder)
        self.act_settings = self._action(self.open_settings, "Ctrl+,")
        self.act_quit = self._action(self.close, QKeySequence.StandardKey.Quit)
        self.act_search = self._action(self.open_search, "Ctrl+K", icons.svg("search"))
        self.act_preview = self._action(lambda: self.editor.preview_button.toggle(), "Ctrl+E")
        self.act_trash = self._action(self.trash_current_note, None, icons.standard(sp.SP_TrashIcon))
        self.act_undo_trash = self._action(self.undo_trash)
        self.act_undo_trash.setEnabled(False)
        self.act_show_trash = self._action(lambda: self.note_list.trash_button.toggle())
        self.act_status = self._action(self.show_index_status)
        self.act_rebuild = self._action(self.rebuild_index)
        self.act_verify = self._action(self.verify_index)
        self.act_about = self._action(self.show_about)

        bar = self.menuBar()
        self.menu_file = bar.addMenu("")
        for act in (self.act_new, self.act_save, None, self.act_import_files, self.act_import_folder,
                    self.act_export, None, self.act_settings, None, self.act_quit):
            self.menu_file.addSeparator() if act is None else self.menu_file.addAction(act)
        self.menu_edit = bar.addMenu("")
        for act in (self.act_search, self.act_preview, None, self.act_trash, self.act_undo_trash,
                    self.act_show_trash):
            self.menu_edit.addSeparator() if act is None else self.menu_edit.addAction(act)
        self.menu_index = bar.addMenu("")
        for act in (self.act_status, self.act_rebuild, self.act_verify):
            self.menu_index.addAction(act)
        self.menu_help = bar.addMenu("")
        self.menu_help.addAction(self.act_about)

    def _build_status_bar(self) -> None:
        status = self.statusBar()
        self.undo_bar = QFrame(objectName="undoBar")
        self.undo_label = QLabel()
        self.undo_button = QToolButton()
        self.undo_button.clicked.connect(self.undo_trash)
        row = QHBoxLayout(self.undo_bar)
        row.setContentsMargins(8, 0, 4, 0)
        row.addWidget(self.undo_label)
        row.addWidget(self.undo_button)
        self.undo_bar.hide()
        status.addWidget(self.undo_bar)
        self.degraded = QLabel(objectName="degradedNotice")
        self.degraded.hide()
        self.badge = StatusBadge()
        self.badge.clicked.connect(self.show_index_status)
        status.addPermanentWidget(self.degraded)
        status.addPermanentWidget(self.badge)

    # ===== library lifecycle ===========================================================

    def open_library(self) -> None:
        welcome = welcome_note()
        self.runner.run(
            lambda: open_library(self.data_dir, self.index.listener, welcome, self._holder),
            self._library_opened, self._library_failed)

    def _library_opened(self, opened: OpenedLibrary) -> None:
        if self._closed:
            return
        self.library = opened.library
        self.save_queue.set_library(opened.library)
        self.index.set_library(opened.library)
        self.search.set_search(lambda q: opened.library.search(q, limit=LIMIT))
        self.note_list.set_rows(opened.rows)
        self.tree.set_snapshot(opened.snapshot)
        self._show_placeholder()
        last = opened.welcome_id or self.state.int("session/last_note")
        if last is not None and any(r.id == last for r in opened.rows):
            self.open_note(last)
        elif opened.rows:
            self.open_note(opened.rows[0].id)
        freeze_long_lived_objects()  # the library and its caches are loaded now
        self.libraryOpened.emit(opened.library)
        self.notesLoaded.emit()

    def _library_failed(self, exc: BaseException) -> None:
        message = self.tr("The library could not be opened: {0}").format(describe_error(exc))
        self.placeholder.setText(message)
        self.centre.setCurrentWidget(self.placeholder)
        self.statusBar().showMessage(message)
        self.libraryFailed.emit(message)

    def reload_notes(self) -> None:
        library = self.library
        if library is None:
            return
        trashed = self.note_list.showing_trash
        self.save_queue.submit(
            lambda lib: [NoteRow.from_note(n) for n in lib.list_notes(trashed=trashed)],
            lambda rows: self._notes_loaded(trashed, rows))

    def _notes_loaded(self, trashed: bool, rows: list[NoteRow]) -> None:
        if trashed != self.note_list.showing_trash:
            return  # the view changed again meanwhile
        self.note_list.set_rows(rows)
        if trashed or self.editor.note_id not in {r.id for r in rows}:
            self._show_placeholder()
        self.notesLoaded.emit()

    def reload_tree(self) -> None:
        if self.library is not None:
            library = self.library
            self.runner.run(lambda: load_snapshot(library), self.tree.set_snapshot)

    # ===== notes =======================================================================

    def open_note(self, note_id: int, highlights: list[tuple[int, int]] | None = None,
                  scroll_to: int | None = None) -> None:
        if self.library is None:
            return
        if note_id != self.editor.note_id:
            self.save_now()
        self._open_generation += 1
        generation = self._open_generation
        self.save_queue.submit(lambda lib: lib.get_note(note_id),
                               lambda note: self._show_note(generation, note, highlights, scroll_to),
                               lambda exc: self.statusBar().showMessage(describe_error(exc), 5000))

    def _show_note(self, generation: int, note: Note, highlights: list[tuple[int, int]] | None,
                   scroll_to: int | None) -> None:
        if generation != self._open_generation:
            return
        if self._dirty and self.editor.note_id == note.id:
            return  # the person typed after asking; what is on screen is newer
        self.editor.load(note, read_only=note.trashed)
        self.centre.setCurrentWidget(self.editor)
        self.note_list.select(note.id, notify=False)
        if highlights:
            self.editor.highlight(highlights, scroll_to)
        if not note.trashed:
            self.state.set("session/last_note", note.id)
        self._update_actions()
        self.noteOpened.emit(note.id)

    def _edited(self) -> None:
        self._dirty = True
        self.editor.set_save_state(self.tr("Edited"))
        self._idle_timer.start()
        if not self._max_timer.isActive():
            self._max_timer.start()

    def save_now(self) -> None:
        """Queue the editor's text (the store, then the save hook, on the saver thread)."""
        self._idle_timer.stop()
        self._max_timer.stop()
        if not self._dirty:
            return
        snapshot = self.editor.snapshot()
        self._dirty = False
        if snapshot is None:
            return
        note_id, title, body = snapshot
        self.save_queue.save(note_id, title, body)
        self.editor.set_save_state(self.tr("Saving…"))
        row = self.note_list.model.get(note_id)
        if row is not None:
            self.note_list.model.upsert(NoteRow(note_id, title, time.time(), row.local_only,
                                                preview_of(body)))

    def _saved(self, note_id: int, _changed: bool) -> None:
        if note_id == self.editor.note_id and not self._dirty:
            self.editor.set_save_state(self.tr("Saved"))

    def _save_failed(self, note_id: int, reason: str) -> None:
        if note_id == self.editor.note_id:
            self._dirty = True  # keep the text; the next edit or Ctrl+S retries
            self.editor.set_save_state(self.tr("Not saved"))
        self.statusBar().showMessage(self.tr("Could not save the note: {0}").format(reason), 10000)

    def new_note(self, _checked: bool = False, *, title: str | None = None, body: str = "") -> None:
        if self.library is None:
            return
        if self.note_list.showing_trash:
            self.note_list.trash_button.setChecked(False)
        self.save_now()
        title = self.tr("Untitled") if title is None else title
        self.save_queue.submit(lambda lib: lib.get_note(lib.add_note(title, body)), self._created)

    def _created(self, note: Note) -> None:
        self.note_list.model.upsert(NoteRow.from_note(note))
        self._open_generation += 1
        self._show_note(self._open_generation, note, None, None)
        self.editor.title.setFocus()
        self.editor.title.selectAll()
        self.noteCreated.emit(note.id)

    def new_note_from_selection(self, source_title: str, text: str) -> None:
        quoted = "\n".join(f"> {line}" if line else ">" for line in text.splitlines())
        source = self.tr("Source: {0}").format(source_title)
        body = f"{quoted}\n\n{source}\n\n"
        self.new_note(title=self.tr("Notes on {0}").format(source_title), body=body)

    def set_note_local_only(self, on: bool) -> None:
        note_id = self.editor.note_id
        if note_id is None:
            return
        self.save_queue.submit(lambda lib: lib.set_note_local_only(note_id, on))
        self.note_list.model.patch(note_id, local_only=on)

    def trash_current_note(self) -> None:
        note_id = self.editor.note_id
        if note_id is None or self.library is None or self.centre.currentWidget() is not self.editor:
            return
        self.save_now()
        title = self.editor.title.text()
        self.save_queue.submit(lambda lib: lib.trash_note(note_id),
                               lambda _r: self._trashed(note_id, title),
                               lambda exc: self.statusBar().showMessage(describe_error(exc), 8000))

    def _trashed(self, note_id: int, title: str) -> None:
        self.note_list.model.remove(note_id)
        if self.editor.note_id == note_id:
            self.editor.clear()
            self._show_placeholder()
        self._last_trashed = note_id
        self.act_undo_trash.setEnabled(True)
        self.undo_label.setText(self.tr("“{0}” moved to the trash.").format(title or self.tr("Untitled")))
        self.undo_bar.show()
        self._undo_timer.start()
        self.noteTrashed.emit(note_id)

    def undo_trash(self) -> None:
        note_id = self._last_trashed
        if note_id is None:
            return
        self._last_trashed = None
        self.act_undo_trash.setEnabled(False)
        self.undo_bar.hide()
        self.restore_note(note_id, reopen=True)

    def restore_note(self, note_id: int, *, reopen: bool = False) -> None:
        self.save_queue.submit(lambda lib: (lib.restore_note(note_id), lib.get_note(note_id))[1],
                               lambda note: self._restored(note, reopen))

    def _restored(self, note: Note, reopen: bool) -> None:
        if self.note_list.showing_trash:
            self.note_list.model.remove(note.id)
            self._show_placeholder()
            self.statusBar().showMessage(self.tr("Restored “{0}”.").format(note.title), 5000)
        else:
            self.note_list.model.upsert(NoteRow.from_note(note))
            if reopen:
                self.open_note(note.id)
        self.noteRestored.emit(note.id)

    def confirm_empty_trash(self) -> None:
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Empty trash"),
                          self.tr("Delete every note in the trash for good? This cannot be undone."),
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel, self)
        box.button(QMessageBox.StandardButton.Yes).setText(self.tr("Delete for good"))
        box.button(QMessageBox.StandardButton.Cancel).setText(self.tr("Cancel"))
        box.finished.connect(lambda result: result == QMessageBox.StandardButton.Yes and self.empty_trash())
        box.open()

    def empty_trash(self) -> None:
        self.save_queue.submit(lambda lib: lib.empty_trash(), self._trash_emptied)

    def _trash_emptied(self, count: int) -> None:
        self.statusBar().showMessage(self.tr("%n note(s) deleted for good.", "", count), 5000)
        self.reload_notes()

    # ===== library documents ===========================================================

    def open_fragment(self, document_id: int, fragment_id: int,
                      highlights: list[tuple[int, int]] | None = None,
                      scroll_to: int | None = None) -> None:
        self.save_now()
        doc = self.tree.documents.get(document_id)
        fragment = self.tree.fragments.get(fragment_id)
        if doc is not None and fragment is not None:
            self._show_fragment(doc, fragment, highlights, scroll_to)
            return
        library = self.library
        if library is None:
            return

        def load() -> tuple[Any, Any]:
            docs = {d.id: d for d in library.list_documents()}
            frags = {f.id: f for f in library.list_fragments(document_id)}
            return docs[document_id], frags[fragment_id]

        self.runner.run(load, lambda pair: self._show_fragment(pair[0], pair[1], highlights, scroll_to),
                        lambda exc: self.statusBar().showMessage(describe_error(exc), 5000))

    def _show_fragment(self, doc: Any, fragment: Any, highlights: list[tuple[int, int]] | None,
                       scroll_to: int | None) -> None:
        from desktop_kb.ui.library_tree import fragment_label

        title = doc.title if not fragment.heading_path else f"{doc.title} — {fragment_label(fragment)}"
        self.reader.show_fragment(doc.id, fragment.id, title, doc.path, fragment.text, doc.local_only)
        self.centre.setCurrentWidget(self.reader)
        if highlights:
            self.reader.highlight(highlights, scroll_to)
        self._update_actions()

    def set_document_local_only(self, document_id: int, on: bool) -> None:
        self.save_queue.submit(lambda lib: lib.set_document_local_only(document_id, on))
        self.tree.set_local_only(document_id, on)
        if self.reader.document_id == document_id:
            self.reader.show_fragment(document_id, self.reader.fragment_id or 0, self.reader.title.text(),
                                      self.reader.path.text(), self.reader.text.toPlainText(), on)

    def confirm_delete_document(self, document_id: int) -> None:
        doc = self.tree.documents.get(document_id)
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Remove from library"),
                          self.tr("Remove “{0}” from the library? The file on disk is not touched.")
                          .format(doc.title if doc else document_id),
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel, self)
        box.button(QMessageBox.StandardButton.Yes).setText(self.tr("Remove"))
        box.button(QMessageBox.StandardButton.Cancel).setText(self.tr("Cancel"))
        box.finished.connect(lambda r: r == QMessageBox.StandardButton.Yes and self.delete_document(document_id))
        box.open()

    def delete_document(self, document_id: int) -> None:
        if self.reader.document_id == document_id:
            self._show_placeholder()
        self.save_queue.submit(lambda lib: lib.delete_document(document_id),
                               lambda _r: self.reload_tree())

    # ===== search ======================================================================

    def open_search(self) -> None:
        self.save_now()
        self.search.popup()

    def open_result(self, result: SearchResult) -> None:
        if result.source_type == "note":
            if self.note_list.showing_trash:
                self.note_list.trash_button.setChecked(False)
            self.open_note(result.source_id, result.highlights, result.start)
        elif result.document_id is not None:
            self.open_fragment(result.document_id, result.source_id, result.highlights, result.start)

    # ===== index status ================================================================

    def _index_status(self, status: IndexStatus) -> None:
        if status.state == "ok" and not self._settled:
            self._settled = True
            freeze_long_lived_objects()  # start-up indexing loaded jieba's dictionary by now
        self.badge.set_status(status)
        text = degraded_text(status)
        self.degraded.setText(text)
        self.degraded.setVisible(bool(text))
        if self.status_popup.isVisible():
            self.status_popup.set_status(status)

    def show_index_status(self) -> None:
        self.status_popup.set_status(self.index.last_status)
        self.status_popup.show()
        self.status_popup.raise_()
        self.index.refresh()

    def rebuild_index(self) -> None:
        library = self.library
        if library is None or self.rebuild_dialog is not None:
            return
        bridge = ProgressBridge(self)
        self._progress.append(bridge)
        self.rebuild_dialog = TaskProgressDialog(bridge, self.tr("Rebuilding the index…"), self)
        self.status_popup.set_busy(True)
        self.runner.run(lambda: library.rebuild(bridge.progress),
                        lambda result: self._rebuilt(bridge, result),
                        lambda exc: self._rebuilt(bridge, exc))

    def _rebuilt(self, bridge: ProgressBridge, result: RebuildResult | BaseException) -> None:
        self._progress.remove(bridge)
        if self.rebuild_dialog is not None:
            self.rebuild_dialog.finish()
            self.rebuild_dialog = None
        self.status_popup.set_busy(False)
        if isinstance(result, BaseException):
            self.statusBar().showMessage(self.tr("Rebuild failed: {0}").format(describe_error(result)), 10000)
        elif result.cancelled:
            self.statusBar().showMessage(
                self.tr("Rebuild cancelled. The index is marked incomplete and is rebuilt on the next start."), 10000)
        else:
            self.statusBar().showMessage(
                self.tr("Index rebuilt: {0} sources, {1} chunks in {2:.1f} s.").format(
                    result.sources, result.chunks, result.seconds), 10000)
        self.index.refresh()
        self.rebuildFinished.emit(result)

    def verify_index(self) -> None:
        library = self.library
        if library is None:
            return
        self.status_popup.set_busy(True)
        self.statusBar().showMessage(self.tr("Verifying the index…"))
        self.runner.run(lambda: library.verify(repair=True), self._verified,
                        lambda exc: self._verified(exc))

    def _verified(self, report: VerifyReport | BaseException) -> None:
        self.status_popup.set_busy(False)
        if isinstance(report, BaseException):
            self.statusBar().showMessage(self.tr("Verify failed: {0}").format(describe_error(report)), 10000)
            return
        self.statusBar().clearMessage()
        self.status_popup.set_verify_report(report)
        self.index.refresh()
        self.verifyFinished.emit(report)

    # ===== import / export =============================================================

    def choose_import_files(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(
            self, self.tr("Import files"), str(Path.home()),
            self.tr("Study material (*.md *.markdown *.txt *.yaml *.yml *.json *.py);;All files (*)"))
        if paths:
            self.import_paths([Path(p) for p in paths])

    def choose_import_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Import folder"), str(Path.home()))
        if folder:
            self.import_paths([Path(folder)])

    def import_paths(self, paths: list[Path]) -> None:
        library = self.library
        if library is None:
            return
        bridge = ProgressBridge(self)
        self._progress.append(bridge)
        dialog = TaskProgressDialog(bridge, self.tr("Importing files…"), self)
        self.import_progress = dialog
        self.runner.run(lambda: library.import_paths(paths, progress=bridge.progress),
                        lambda summary: self._imported(bridge, dialog, summary),
                        lambda exc: self._imported(bridge, dialog, exc))

    def _imported(self, bridge: ProgressBridge, dialog: TaskProgressDialog, summary: Any) -> None:
        self._progress.remove(bridge)
        dialog.finish()
        if isinstance(summary, BaseException):
            self.statusBar().showMessage(self.tr("Import failed: {0}").format(describe_error(summary)), 10000)
            return
        self.import_summary = ImportSummaryDialog(summary, self)
        self.import_summary.open()
        self.reload_tree()
        self.importFinished.emit(summary)

    def choose_export_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Export notes to folder"), str(Path.home()))
        if folder:
            self.export_to(Path(folder))

    def export_to(self, folder: Path) -> None:
        library = self.library
        if library is None:
            return
        self.save_now()
        bridge = ProgressBridge(self)
        self._progress.append(bridge)
        self.save_queue.submit(lambda lib: lib.list_notes(),
                               lambda notes: self.runner.run(
                                   lambda: export_notes(notes, folder, bridge.progress),
                                   lambda result: self._exported(bridge, result),
                                   lambda exc: self._exported(bridge, exc)))

    def _exported(self, bridge: ProgressBridge, result: ExportResult | BaseException) -> None:
        self._progress.remove(bridge)
        if isinstance(result, BaseException):
            self.statusBar().showMessage(self.tr("Export failed: {0}").format(describe_error(result)), 10000)
            return
        self.statusBar().showMessage(
            self.tr("Exported %n note(s) to {0}.", "", result.written).format(result.folder), 10000)
        self.exportFinished.emit(result)

    # ===== settings and language =======================================================

    def open_settings(self) -> None:
        if self.library is None:
            return
        if self.settings_dialog is None:
            self.settings_dialog = SettingsDialog(self.runner, self.library, self.save_queue.submit,
                                                  self.data_dir, self.language_choice, self)
            self.settings_dialog.languageChosen.connect(self.set_language)
            self.settings_dialog.modelInstalled.connect(lambda _name: self.index.refresh())
            self.settings_dialog.discovery.toggled.connect(self.related_panel.controller.set_enabled)
        else:
            self.settings_dialog.reload()
        self.settings_dialog.open()

    def set_language(self, choice: str) -> None:
        self.language_choice = choice
        i18n.install_language(choice)
        self.state.set("ui/language", choice)
        stored = None if choice == i18n.SYSTEM else choice
        if self.library is not None:
            self.save_queue.submit(lambda lib: lib.set_setting("ui.language", stored))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        self.setWindowTitle(self.tr("Desktop KB"))
        self.menu_file.setTitle(self.tr("&File"))
        self.menu_edit.setTitle(self.tr("&Edit"))
        self.menu_index.setTitle(self.tr("&Index"))
        self.menu_help.setTitle(self.tr("&Help"))
        texts = {
            self.act_new: self.tr("&New note"),
            self.act_save: self.tr("&Save"),
            self.act_import_files: self.tr("Import &files…"),
            self.act_import_folder: self.tr("Import f&older…"),
            self.act_export: self.tr("&Export notes as Markdown…"),
            self.act_settings: self.tr("Se&ttings…"),
            self.act_quit: self.tr("&Quit"),
            self.act_search: self.tr("&Search everything…"),
            self.act_preview: self.tr("Toggle &preview"),
            self.act_trash: self.tr("Move note to &trash"),
            self.act_undo_trash: self.tr("&Undo move to trash"),
            self.act_show_trash: self.tr("Show t&rash"),
            self.act_status: self.tr("Index &status…"),
            self.act_rebuild: self.tr("&Rebuild index"),
            self.act_verify: self.tr("&Verify index"),
            self.act_about: self.tr("&About Desktop KB"),
        }
        for action, text in texts.items():
            action.setText(text)
        self.undo_button.setText(self.tr("Undo"))
        self.badge.retranslateUi()
        text = degraded_text(self.index.last_status)
        self.degraded.setText(text)
        self.degraded.setToolTip(self.tr("Install an embedding model in Settings to also search by meaning."))
        self._show_placeholder_text()

    # ===== small helpers ===============================================================

    def _show_placeholder(self) -> None:
        self.editor.clear()
        self._dirty = False
        self._show_placeholder_text()
        self.centre.setCurrentWidget(self.placeholder)
        self._update_actions()

    def _show_placeholder_text(self) -> None:
        if self.library is None:
            self.placeholder.setText(self.tr("Opening the library…"))
        elif self.note_list.showing_trash:
            self.placeholder.setText(self.tr("Select a note in the trash to read or restore it."))
        else:
            self.placeholder.setText(self.tr("Select a note, or press Ctrl+N to write a new one.\n"
                                             "Ctrl+K searches everything."))

    def _update_actions(self) -> None:
        editing = self.centre.currentWidget() is self.editor and not self.editor.body.isReadOnly()
        self.act_trash.setEnabled(editing)
        self.act_save.setEnabled(editing)

    def open_search_text(self, text: str) -> None:
        """Open the search popup with ``text`` typed (used by demos and tests)."""
        self.open_search()
        self.search.query.setText(text)

    def show_about(self) -> None:
        QMessageBox.about(self, self.tr("About Desktop KB"), self.tr(
            "Desktop KB — local-first notes and a learning library for Chinese and English.\n"
            "Your data stays in {0}.").format(self.data_dir))

    # ===== state and shutdown ==========================================================

    def _restore_state(self) -> None:
        geometry = self.state.bytes("window/geometry")
        if geometry is None or not self.restoreGeometry(geometry):
            self.resize(1200, 760)
        window_state = self.state.bytes("window/state")
        if window_state is not None:
            self.restoreState(window_state)
        for key, splitter in (("window/splitter", self.splitter), ("window/left", self.left)):
            saved = self.state.bytes(key)
            if saved is not None:
                splitter.restoreState(saved)
        order = self.state.text("notes/order", "updated")
        self.note_list.set_order(order)

    def _save_state(self) -> None:
        self.state.set("window/geometry", self.saveGeometry())
        self.state.set("window/state", self.saveState())
        self.state.set("window/splitter", self.splitter.saveState())
        self.state.set("window/left", self.left.saveState())
        self.state.set("notes/order", self.note_list.order)
        self.state.sync()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        if not self._closed:
            self.shutdown()
        super().closeEvent(event)

    def shutdown(self) -> None:
        """Keep the text, then close the library. The waiting is for work on other threads."""
        if self._closed:
            return
        self._closed = True
        self.save_now()
        for bridge in list(self._progress):
            bridge.cancel()
        self.qa_dock.shutdown()
        self.save_queue.stop(timeout=30)
        self.runner.wait(15000)
        self._save_state()
        library = self.library or self._holder.get("library")
        self.library = None
        self.index.set_library(None)
        if library is not None:
            library.close()
        self.search.close()
        self.status_popup.close()
        self.shutdownFinished.emit()

