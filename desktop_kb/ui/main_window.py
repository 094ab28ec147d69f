"""The note-taking window: a shell that places widgets and composes one controller per surface.

How a surface is composed (add a new one — a reader, a tag pane, a backups page — the same way):

1. Its widgets live in their own ``ui/`` module and only draw and emit signals
   (``ui/note_editor.py``, ``ui/library_tree.py``, …). The window creates and places
   them in ``_build_widgets`` (left column, centre stack, status bar) or a controller
   adds its own dock.
2. Its controller lives in ``ui/controllers/<surface>.py``: created in ``_compose``
   with the window, it connects the widgets' signals, hands work to ``tasks/`` and
   updates the widgets when the result comes back. Surfaces reach each other through
   the window's attributes (``window.notes.open_note(…)``) and the signals they
   expose (``window.notes.noteOpened``).
3. Its work (SQL, files, models, keyring, network) is a function in ``tasks/`` run by
   ``window.save_queue`` (ordered library changes and reads that must see them) or
   ``window.runner`` (everything else). Nothing in ``ui/`` touches the library on
   the GUI thread.

The window itself holds those shared services, the menus and shortcuts, the centre
stack's placeholder, the library's open/close lifecycle and the saved window state.
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QStackedWidget,
    QToolButton,
    QWidget,
)

from desktop_kb import __version__
from desktop_kb.library import Library
from desktop_kb.store.backup import list_backups
from desktop_kb.tasks.gc_tuning import freeze_long_lived_objects
from desktop_kb.tasks.index_bridge import IndexBridge
from desktop_kb.tasks.library_tasks import TaskRunner, describe_error
from desktop_kb.tasks.open_library import OpenedLibrary, open_library
from desktop_kb.tasks.progress_bridge import ProgressBridge
from desktop_kb.tasks.save_queue import SaveQueue
from desktop_kb.ui import i18n, icons
from desktop_kb.ui.accessible import name_unnamed
from desktop_kb.ui.appearance import install_appearance
from desktop_kb.ui.backups_page import BackupsDialog
from desktop_kb.ui.centre_room import CentreRoom
from desktop_kb.ui.controllers import qa, related
from desktop_kb.ui.controllers.documents import DocumentsController
from desktop_kb.ui.controllers.import_export import ImportExportController
from desktop_kb.ui.controllers.index_status import IndexStatusController
from desktop_kb.ui.controllers.notes import NotesController
from desktop_kb.ui.controllers.ocr import OcrController
from desktop_kb.ui.controllers.outside import OutsideChangesController
from desktop_kb.ui.controllers.recovery import RecoveryController
from desktop_kb.ui.controllers.search import SearchController
from desktop_kb.ui.controllers.settings import SettingsController
from desktop_kb.ui.controllers.trash import TrashController
from desktop_kb.ui.document_reader import DocumentReader
from desktop_kb.ui.drop_import import DropImport
from desktop_kb.ui.edit_menu import install_menus
from desktop_kb.ui.env_messages import localize
from desktop_kb.ui.first_run import install_meaning_search
from desktop_kb.ui.library_tree import LibraryTree
from desktop_kb.ui.link_navigation import install_link_navigation
from desktop_kb.ui.navigation import install_navigation
from desktop_kb.ui.note_editor import NoteEditor
from desktop_kb.ui.note_list import NoteListPanel
from desktop_kb.ui.outline_panel import install_outline
from desktop_kb.ui.saving_dialog import SavingDialog
from desktop_kb.ui.search_popup import SearchPopup
from desktop_kb.ui.shortcuts_first import ShortcutsFirst
from desktop_kb.ui.status_badge import IndexStatusPopup, StatusBadge, degraded_text
from desktop_kb.ui.tag_pane import install_tag_pane
from desktop_kb.ui.ui_state import UiState
from desktop_kb.ui.welcome import welcome_note

UPKEEP_EVERY_MS = 3600 * 1000  # is a daily backup due? (a directory listing when it is not)


class MainWindow(QMainWindow):
    libraryOpened = Signal(object)  # Library
    libraryFailed = Signal(str)
    # The start-up upkeep (daily backup, tombstones, a verify asked of the index worker)
    # has run; its verify may still be queued behind other indexing work.
    upkeepFinished = Signal()
    shutdownFinished = Signal()

    def __init__(self, data_dir: Path, *, language_choice: str = i18n.SYSTEM,
                 open_now: bool = True) -> None:
        super().__init__()
        self.data_dir = Path(data_dir)
        self.library: Library | None = None
        self.failure_box: QMessageBox | None = None  # why the library could not be opened
        self._failure = ""
        self._holder: dict[str, Library] = {}
        self._closed = False
        self.upkeep_finished = False  # see upkeepFinished
        self._upkeep_running = False
        self.upkeep_timer = QTimer(self)  # the daily upkeep, asked again while open
        self.upkeep_timer.setInterval(UPKEEP_EVERY_MS)
        self.upkeep_timer.timeout.connect(self._run_upkeep)
        self._saves_settled = False
        self.saving_dialog: SavingDialog | None = None
        self._progress: list[ProgressBridge] = []
        self.state = UiState(self.data_dir)

        self.runner = TaskRunner(self, threads=3)
        self.save_queue = SaveQueue(self)
        self.index = IndexBridge(self.runner, self)

        self._build_widgets()
        self._build_status_bar()
        self._compose(language_choice)
        self._build_actions()
        self.qa_dock = qa.install(self)
        self.outline_dock = install_outline(self)
        self.links = install_link_navigation(self)
        self.tags = install_tag_pane(self)
        self.navigation = install_navigation(self)
        # The light sheet first: the appearance adds the dark theme's rules to it. Set after it,
        # the window started in Dark without them (the search list's chosen row light blue under
        # white text, the suggestion reasons dim grey).
        self.setStyleSheet(icons.stylesheet())
        self.appearance = install_appearance(self)
        self.menus = install_menus(self)
        self.meaning = install_meaning_search(self)
        self.shortcuts_first = ShortcutsFirst(self, [self.act_search, self.act_preview, self.menus.act_ask])
        self._set_tab_order()
        self.setWindowIcon(icons.svg("app"))
        self._restore_state()
        self.centre_room = CentreRoom(self)
        self.retranslateUi()
        if open_now:
            QTimer.singleShot(0, self.open_library)

    # ===== construction ================================================================

    def _build_widgets(self) -> None:
        self.note_list = NoteListPanel()
        self.tree = LibraryTree()
        self.left = QSplitter(Qt.Orientation.Vertical)
        self.left.addWidget(self.note_list)
        self.left.addWidget(self.tree)
        self.left.setStretchFactor(0, 3)
        self.left.setStretchFactor(1, 2)

        self.editor = NoteEditor()
        self.reader = DocumentReader()
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
        self.status_popup = IndexStatusPopup(self)

    def _build_status_bar(self) -> None:
        status = self.statusBar()
        self.undo_bar = QFrame(objectName="undoBar")
        self.undo_label = QLabel()
        self.undo_button = QToolButton()
        row = QHBoxLayout(self.undo_bar)
        row.setContentsMargins(8, 0, 4, 0)
        row.addWidget(self.undo_label)
        row.addWidget(self.undo_button)
        self.undo_bar.hide()
        status.addWidget(self.undo_bar)
        self.degraded = QLabel(objectName="degradedNotice")
        self.degraded.hide()
        # A library on a read-only disk is read as it is: said for as long as it is open.
        self.read_only_notice = QLabel(objectName="degradedNotice")
        self.read_only_notice.hide()
        self.read_only_box: QMessageBox | None = None
        self.badge = StatusBadge()
        status.addPermanentWidget(self.read_only_notice)
        status.addPermanentWidget(self.degraded)
        status.addPermanentWidget(self.badge)

    def _compose(self, language_choice: str) -> None:
        """One controller per surface; the order only matters where one wires to another."""
        self.notes = NotesController(self)
        self.trash = TrashController(self)
        self.documents = DocumentsController(self)
        self.global_search = SearchController(self)
        self.index_status = IndexStatusController(self)
        self.import_export = ImportExportController(self)
        self.ocr = OcrController(self)
        self.drop_import = DropImport(self, self.import_export.import_paths, self._drag_hover)
        QApplication.instance().installEventFilter(self.drop_import)
        self.settings = SettingsController(self, language_choice)
        self.outside = OutsideChangesController(self)
        self.recovery = RecoveryController(self)
        self.related_dock = related.install(self)  # before the QA dock, which tabs with it
        self.related_panel = self.related_dock.panel

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
        notes, trash, transfer = self.notes, self.trash, self.import_export
        self.act_new = self._action(notes.new_note, QKeySequence.StandardKey.New, icons.standard(sp.SP_FileIcon))
        self.act_save = self._action(notes.save_now, QKeySequence.StandardKey.Save, icons.standard(sp.SP_DialogSaveButton))
        self.act_import_files = self._action(transfer.choose_import_files, None, icons.standard(sp.SP_FileDialogStart))
        self.act_import_folder = self._action(transfer.choose_import_folder, None, icons.standard(sp.SP_DirOpenIcon))
        self.act_export = self._action(transfer.choose_export_folder)
        self.act_settings = self._action(self.settings.open_settings, "Ctrl+,")
        self.act_quit = self._action(self.close, QKeySequence.StandardKey.Quit)
        self.act_search = self._action(self.global_search.open_search, "Ctrl+K", icons.svg("search"))
        self.act_preview = self._action(lambda: self.editor.preview_button.toggle(), "Ctrl+E")
        self.act_trash = self._action(trash.trash_current_note, None, icons.standard(sp.SP_TrashIcon))
        self.act_undo_trash = self._action(trash.undo_trash)
        self.act_undo_trash.setEnabled(False)
        self.act_show_trash = self._action(lambda: self.note_list.trash_button.toggle())
        self.act_status = self._action(self.index_status.show_index_status)
        self.act_rebuild = self._action(self.index_status.rebuild_index)
        self.act_verify = self._action(self.index_status.verify_index)
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

    def _set_tab_order(self) -> None:
        """Tab walks the window as it reads: the note list's buttons, filter and list, the
        tags, the library, then the open note (its header's buttons just before its title, so
        Tab from the title goes to the text: NoteEditor). It went from the note list to the
        library tree and reached the tags only after the note's text."""
        nl, ed = self.note_list, self.editor
        chain = [nl.new_button, nl.trash_button, nl.filter, nl.sort, nl.view, self.tags.pane.tree,
                 self.tree.tree, ed.local_button, ed.preview_button, ed.split_button,
                 ed.trash_button, ed.title, ed.body]
        for first, second in pairwise(chain):
            QWidget.setTabOrder(first, second)

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
        # Opened after a restore: the failure is over, and its sentence leaves the status bar.
        if self._failure and self.statusBar().currentMessage() == self._failure:
            self.statusBar().clearMessage()
        self._failure = ""
        self.failure_box = None
        self.badge.set_open_failure("")
        self.status_popup.set_open_failure("")
        self.save_queue.set_library(opened.library)
        self.index.set_library(opened.library)
        self.global_search.set_library(opened.library)
        self.tree.set_snapshot(opened.snapshot)
        self.show_placeholder()
        self.links.set_titles([(r.id, r.title) for r in opened.rows])
        self.notes.show_opened(opened.rows, opened.welcome_id)
        freeze_long_lived_objects()  # the library and its caches are loaded now
        self._say_if_read_only(opened.library)
        self.libraryOpened.emit(opened.library)
        self.notes.notesLoaded.emit()
        self._run_upkeep()

    def _say_if_read_only(self, library: Library) -> None:
        """A library on a read-only disk, share or CD opens to be searched and read; saving is
        off, and the one sentence why is shown once as it opens and stays a hover away."""
        on = library.read_only is not None
        self.read_only_notice.setVisible(on)
        for action in (self.act_new, self.act_import_files, self.act_import_folder):
            action.setEnabled(not on)
        self.note_list.new_button.setEnabled(not on)
        if on:
            box = QMessageBox(QMessageBox.Icon.Information, self.tr("Desktop KB"),
                              localize(library.read_only or ""), QMessageBox.StandardButton.Close, self)
            self.read_only_box = box
            box.open()
        self._read_only_texts()

    def _read_only_texts(self) -> None:
        library = self.library
        self.read_only_notice.setText(self.tr("Read-only: saving is off"))
        self.read_only_notice.setToolTip(
            localize(library.read_only) if library is not None and library.read_only else "")

    def _run_upkeep(self) -> None:
        """At start, then every hour while the window stays open: the daily backup was made
        only on start, so a window kept open for weeks (a laptop suspended, not quit) made
        none after the first day."""
        library = self.library
        if library is None or self._closed or self._upkeep_running:
            return
        self._upkeep_running = True
        self.runner.run(library.daily_upkeep, self._upkeep_done, self._upkeep_failed)

    def _upkeep_done(self, _made: object) -> None:
        self._upkeep_running = False
        self.upkeep_finished = True
        if not self._closed and not self.upkeep_timer.isActive():
            self.upkeep_timer.start()
        self.upkeepFinished.emit()

    def _upkeep_failed(self, exc: BaseException) -> None:
        self.statusBar().showMessage(
            self.tr("The daily backup could not be made: {0}").format(localize(describe_error(exc))),
            15000)
        self._upkeep_done(None)

    def _library_failed(self, exc: BaseException) -> None:
        message = self.tr("The library could not be opened: {0}").format(localize(describe_error(exc)))
        self.placeholder.setText(message)
        self.centre.setCurrentWidget(self.placeholder)
        self.statusBar().showMessage(message)
        self._failure = message
        self.badge.set_open_failure(message)
        self.status_popup.set_open_failure(message)
        self.libraryFailed.emit(message)
        # A damaged file with no backups beside it is restored from a copy kept elsewhere
        # (the backups dialog offers "Restore from a file…"); a busy, full or read-only disk
        # is never a reason to replace the library.
        damaged = any(getattr(e, "damaged", False) for e in (exc, exc.__cause__))
        if damaged or list_backups(self.data_dir / "library.sqlite"):
            box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Desktop KB"), message,
                              QMessageBox.StandardButton.Close, self)
            backups = box.addButton(self.tr("Restore a backup…"), QMessageBox.ButtonRole.ActionRole)
            box.finished.connect(lambda _r: box.clickedButton() is backups and self.show_backups())
            self.failure_box = box
            box.open()

    def show_backups(self) -> None:
        """The backups on their own (the library could not be opened); reopens after a restore."""
        dialog = BackupsDialog(self.runner, self.data_dir, self)
        dialog.page.restored.connect(lambda _path: (dialog.accept(), self.open_library()))
        dialog.open()

    # ===== shared by the surfaces ======================================================

    def show_placeholder(self) -> None:
        """Nothing open in the centre: the editor is emptied and the hint shown."""
        self.notes.close_editor()
        self._show_placeholder_text()
        self.centre.setCurrentWidget(self.placeholder)
        self.update_actions()

    def update_actions(self) -> None:
        editing = self.centre.currentWidget() is self.editor and not self.editor.body.isReadOnly()
        self.act_trash.setEnabled(editing)
        self.act_save.setEnabled(editing)

    def _drag_hover(self, count: int) -> None:
        self.statusBar().showMessage(self.tr("Drop to import %n file(s) or folder(s)", "", count), 3000)

    def start_progress(self) -> ProgressBridge:
        """A progress bridge for long work, cancelled if the window closes first."""
        bridge = ProgressBridge(self)
        self._progress.append(bridge)
        return bridge

    def end_progress(self, bridge: ProgressBridge) -> None:
        self._progress.remove(bridge)

    def _show_placeholder_text(self) -> None:
        if self.library is None:
            self.placeholder.setText(self.tr("Opening the library…"))
        elif self.note_list.showing_trash:
            self.placeholder.setText(self.tr("Select a note in the trash to read or restore it."))
        else:
            self.placeholder.setText(self.tr("Select a note, or press Ctrl+N to write a new one.\n"
                                             "Ctrl+K searches everything."))

    def about_text(self) -> str:
        """Which version this is matters when reporting a problem: it is the first line."""
        return self.tr("Desktop KB {0} — local-first notes and a learning library for Chinese and English.\n"
                       "Your data stays in {1}.").format(__version__, self.data_dir)

    def show_about(self) -> None:
        QMessageBox.about(self, self.tr("About Desktop KB"), self.about_text())

    # ===== language ====================================================================

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        # Icon-only buttons and hint-only fields are named for screen readers once every
        # child has its words in the new language (their own LanguageChange comes after ours).
        QTimer.singleShot(0, self, lambda: name_unnamed(self))
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
        self.degraded.setText(degraded_text(self.index.last_status))
        self.degraded.setToolTip(self.tr("Install an embedding model in Settings to also search by meaning."))
        self._read_only_texts()
        self._show_placeholder_text()

    # ===== state and shutdown ==========================================================

    def _restore_state(self) -> None:
        geometry = self.state.bytes("window/geometry")
        if geometry is None or not self.restoreGeometry(geometry):
            self._first_size()
        window_state = self.state.bytes("window/state")
        if window_state is not None:
            self.restoreState(window_state)
        for key, splitter in (("window/splitter", self.splitter), ("window/left", self.left)):
            saved = self.state.bytes(key)
            if saved is not None:
                splitter.restoreState(saved)
        self.note_list.set_order(self.state.text("notes/order", "updated"))

    def _first_size(self) -> None:
        """1200×760, or less on a small or scaled screen, centred: a 1366×768 laptop at 150 %
        has 910×512 to show, and a window larger than that opened with its edges off screen."""
        screen = self.screen() or QGuiApplication.primaryScreen()
        if screen is None:
            self.resize(1200, 760)
            return
        room = screen.availableGeometry()
        self.resize(min(1200, int(room.width() * 0.9)), min(760, int(room.height() * 0.9)))
        self.move(room.center() - self.rect().center())

    def _save_state(self) -> None:
        self.state.set("window/geometry", self.saveGeometry())
        self.state.set("window/state", self.saveState())
        self.state.set("window/splitter", self.splitter.saveState())
        self.state.set("window/left", self.left.saveState())
        self.state.set("notes/order", self.note_list.order)
        self.state.sync()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        if not self._closed:
            self.notes.save_now()
            if self.save_queue.pending and not self._saves_settled:
                # Never close over unsaved text: wait (visibly) for the save queue.
                event.ignore()
                self._wait_for_saves()
                return
            self.shutdown()
        super().closeEvent(event)

    def _wait_for_saves(self) -> None:
        if self.saving_dialog is not None:
            return
        self.saving_dialog = SavingDialog(self.save_queue, self)
        self.saving_dialog.closeNow.connect(self._saves_done)
        self.saving_dialog.rejected.connect(self._keep_working)
        self.saving_dialog.start()

    def _saves_done(self) -> None:
        self._saves_settled = True
        self.saving_dialog = None
        # Later, not now: this can run inside closeEvent (the last save landed just as the
        # dialog started), where a nested close() is ignored and the window would stay open.
        QTimer.singleShot(0, self.close)

    def _keep_working(self) -> None:
        self.saving_dialog = None

    def shutdown(self) -> None:
        """Keep the text, then close the library. The waiting is for work on other threads."""
        if self._closed:
            return
        self._closed = True
        self.upkeep_timer.stop()
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self.drop_import)
        self.notes.save_now()
        for bridge in list(self._progress):
            bridge.cancel()
        self.qa_dock.shutdown()
        self.outside.stop()
        # Whatever is still unsaved is in a recovery file by now (offered on the next start).
        self.save_queue.stop(timeout=5)
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
