"""Recovery surface: on start, offer back text that could not be saved last time (I13)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from desktop_kb import recovery
from desktop_kb.library import Library
from desktop_kb.recovery import RecoveredText
from desktop_kb.tasks import recovery_tasks
from desktop_kb.tasks.library_tasks import describe_error
from desktop_kb.ui.recovery_dialog import DISCARD, RESTORE, RecoveryDialog

if TYPE_CHECKING:
    from desktop_kb.ui.main_window import MainWindow


class RecoveryController(QObject):
    offered = Signal(int)  # how many texts were offered
    handled = Signal(str)  # "restore" | "later" | "discard"

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._w = window
        self.dialog: RecoveryDialog | None = None
        window.libraryOpened.connect(self._opened)

    def _opened(self, library: Library) -> None:
        data_dir, library_id = library.paths.data_dir, library.library_id
        self._w.runner.run(lambda: recovery.pending(data_dir, library_id=library_id), self._found)

    def _found(self, items: list[RecoveredText]) -> None:
        if not items or self._w.library is None:
            return
        self.dialog = RecoveryDialog(items, self._w)
        self.dialog.finished.connect(lambda _code: self._chosen(items))
        self.dialog.open()
        self.offered.emit(len(items))

    def _chosen(self, items: list[RecoveredText]) -> None:
        dialog, self.dialog = self.dialog, None
        choice = dialog.choice if dialog is not None else None
        w = self._w
        if choice == RESTORE:
            title = self.tr("{0} (recovered)")
            w.save_queue.submit(
                lambda lib: recovery_tasks.restore_all(lib, items, lambda t: title.format(t)),
                self._restored, self._failed)
        elif choice == DISCARD:
            w.save_queue.submit(lambda lib: recovery_tasks.discard_all(lib, items),
                                lambda _r: self.handled.emit("discard"), self._failed)
        else:
            self.handled.emit("later")

    def _restored(self, result: recovery_tasks.Restored) -> None:
        w = self._w
        w.notes.reload_notes()
        opened = (result.into_note + result.as_new_note)[:1]
        if opened:
            w.notes.open_note(opened[0])
        w.statusBar().showMessage(self.tr("Restored %n text(s).", "",
                                          len(result.into_note) + len(result.as_new_note)), 10000)
        self.handled.emit("restore")

    def _failed(self, exc: BaseException) -> None:
        self._w.statusBar().showMessage(self.tr("Could not restore the text: {0}. It is still kept.")
                                        .format(describe_error(exc)), 15000)
        self.handled.emit("failed")
