"""Settings → Backups: the library's rolling backups, "back up now" and restore (I13).

Works from the data folder alone, so it can also be shown when the library
itself cannot be opened (a damaged file): then restoring a backup is the way out.
"""

from __future__ import annotations

import datetime
from pathlib import Path

from PySide6.QtCore import QEvent, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_kb.store.backup import KEEP, Backup, backups_dir
from desktop_kb.tasks import backup_tasks
from desktop_kb.tasks.library_tasks import TaskRunner, describe_error
from desktop_kb.text.sizes import human_size
from desktop_kb.ui.env_messages import localize


def _when(backup: Backup) -> str:
    """When a backup was made, to the second, as its row shows it: the question before a
    restore said "06:04" of two backups made at 06:04:20 and 06:04:33."""
    return datetime.datetime.fromtimestamp(backup.created_at).strftime("%Y-%m-%d %H:%M:%S")

class BackupsPage(QWidget):
    loaded = Signal(int)  # how many backups are listed
    restored = Signal(str)  # the backup restored
    failed = Signal(str)

    def __init__(self, runner: TaskRunner, data_dir: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._data_dir = Path(data_dir)
        self._keys_were: QWidget | None = None  # where the keys were when work started
        self.backups: list[Backup] = []
        self._listing = 0  # the newest reload; an older one finishing late must not win
        self.busy = False
        self.intro = QLabel(wordWrap=True)
        self.table = QTableWidget(0, 3, objectName="backupList")
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.status = QLabel(wordWrap=True)
        self.create_button = QPushButton()
        self.restore_button = QPushButton()
        # A copy kept anywhere else (a stick, another machine, a copy made by hand): the way out
        # when the library is damaged and no backup is beside it.
        self.restore_file_button = QPushButton()
        self.folder_button = QPushButton()
        self.create_button.clicked.connect(self.back_up_now)
        self.restore_button.clicked.connect(self.confirm_restore)
        self.restore_file_button.clicked.connect(self.choose_file)
        self.folder_button.clicked.connect(self._open_folder)
        row = QHBoxLayout()
        row.addWidget(self.create_button)
        row.addWidget(self.restore_button)
        row.addWidget(self.restore_file_button)
        row.addStretch(1)
        row.addWidget(self.folder_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(14, 14, 14, 14)
        layout.addWidget(self.intro)
        layout.addWidget(self.table, 1)
        layout.addLayout(row)
        layout.addWidget(self.status)
        self.retranslateUi()
        self._update_buttons()

    def title(self) -> str:
        return self.tr("Backups")

    # ----- work -----------------------------------------------------------------

    def reload(self) -> None:
        # Two pool threads: a listing started earlier (before a backup was made) can finish
        # after this one, and showed the older list.
        self._listing += 1
        listing = self._listing
        self._runner.run(lambda: (listing, backup_tasks.load(self._data_dir)), self._listed, self._failed)

    def _listed(self, result: tuple[int, list[Backup]]) -> None:
        listing, backups = result
        if listing == self._listing:
            self._loaded(backups)

    def _loaded(self, backups: list[Backup]) -> None:
        # The chosen backup stays chosen: a new one (made by hand, or the copy a restore keeps)
        # comes in at the top, and the highlight stayed on the row, now an older backup.
        chosen = self.selected()
        self.backups = backups
        self.table.clearSelection()
        self.table.setRowCount(len(backups))
        for i, b in enumerate(backups):
            cells = [_when(b), self._reason(b.reason), human_size(b.size, "B")]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(str(b.path))
                self.table.setItem(i, col, item)
            if chosen is not None and b.path == chosen.path:
                self.table.selectRow(i)
        self._update_buttons()
        if not backups and not self.busy:
            self.status.setText(self.tr(
                "There are no backups in this folder. If you kept a copy of library.sqlite "
                "elsewhere, choose it with “Restore from a file…”."))
        self.loaded.emit(len(backups))

    def back_up_now(self) -> None:
        self._start(self.tr("Backing up…"))
        self._runner.run(lambda: backup_tasks.back_up_now(self._data_dir), self._made, self._failed)

    def _made(self, backup: Backup) -> None:
        self._stop(self.tr("Backed up to {0}.").format(backup.path.name))
        self.reload()

    def selected(self) -> Backup | None:
        rows = self.table.selectionModel().selectedRows()
        return self.backups[rows[0].row()] if rows else None

    def confirm_restore(self) -> None:
        backup = self.selected()
        if backup is None:
            return
        self._confirm(backup.path, self.tr(
            "The library will be replaced by the backup from {0}. Everything written since then "
            "leaves the library — but the library as it is now is backed up first, so this can "
            "be undone by restoring that copy.").format(_when(backup)))

    def choose_file(self) -> None:
        dialog = QFileDialog(self, self.tr("Restore from a file"))
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.setNameFilters([self.tr("Desktop KB libraries (*.sqlite *.db)"), self.tr("All files (*)")])
        dialog.fileSelected.connect(lambda name: self.confirm_restore_file(Path(name)))
        dialog.open()

    def confirm_restore_file(self, path: Path) -> None:
        """Any copy of a library; it is checked before anything is replaced (``check_backup``)."""
        self._confirm(path, self.tr(
            "The library will be replaced by the copy in {0}. Everything not in that copy leaves "
            "the library — but the library as it is now is backed up first (or, if it is "
            "damaged, set aside whole in the backups folder), so this can be undone.").format(path))

    def _confirm(self, path: Path, text: str) -> None:
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Restore this backup?"), text,
                          QMessageBox.StandardButton.Cancel, self)
        restore = box.addButton(self.tr("Restore"), QMessageBox.ButtonRole.DestructiveRole)
        # Replacing the library takes a click or the button's own key, never a stray Enter.
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.finished.connect(lambda _r: box.clickedButton() is restore and self.restore(path))
        box.open()

    def restore(self, path: Path) -> None:
        self._start(self.tr("Restoring…"))
        self._runner.run(lambda: backup_tasks.restore(self._data_dir, path),
                         lambda safety: self._restored(path, safety), self._failed)

    def _restored(self, path: Path, safety: Backup | None) -> None:
        if safety is None:  # the library file was missing: nothing to keep
            self._stop(self.tr("Restored {0}.").format(path.name))
        else:
            self._stop(self.tr("Restored {0}. The library as it was is kept as {1}.")
                       .format(path.name, safety.path.name))
        self.reload()
        self.restored.emit(str(path))

    def _failed(self, exc: BaseException) -> None:
        message = localize(describe_error(exc))
        self._stop(self.tr("Failed: {0}").format(message))
        self.failed.emit(message)

    def _start(self, text: str) -> None:
        self.busy = True
        self.status.setText(text)
        # The button pressed is disabled while it works, and the keys moved on to "Open folder":
        # after "Back up now", Enter opened a file manager. They come back when it is done.
        self._keys_were = self.focusWidget()
        self._update_buttons()

    def _stop(self, text: str) -> None:
        self.busy = False
        self.status.setText(text)
        self._update_buttons()
        was = self._keys_were
        if was is not None and was.isEnabled() and was.isVisible():
            was.setFocus()

    def _update_buttons(self) -> None:
        self.create_button.setEnabled(not self.busy)
        self.restore_button.setEnabled(not self.busy and self.selected() is not None)
        self.restore_file_button.setEnabled(not self.busy)

    def _open_folder(self) -> None:
        folder = backups_dir(self._data_dir / "library.sqlite")
        folder.mkdir(parents=True, exist_ok=True)
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))

    # ----- language ---------------------------------------------------------------

    def _reason(self, reason: str) -> str:
        return {
            "auto": self.tr("daily"),
            "manual": self.tr("made by hand"),
            "upgrade": self.tr("before an upgrade"),
            "restore": self.tr("before a restore"),
        }.get(reason, reason)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        self.intro.setText(self.tr(
            "Desktop KB backs the library up once a day and before every upgrade, and keeps the "
            "newest {0}. A backup is one file you can also copy elsewhere.").format(KEEP))
        self.table.setHorizontalHeaderLabels([self.tr("Made at"), self.tr("Kind"), self.tr("Size")])
        self.create_button.setText(self.tr("Back up now"))
        self.restore_button.setText(self.tr("Restore…"))
        self.restore_file_button.setText(self.tr("Restore from a file…"))
        self.folder_button.setText(self.tr("Open folder"))
        if self.backups:
            self._loaded(self.backups)


class BackupsDialog(QDialog):
    """The backups page on its own, for when the library cannot be opened at all."""

    def __init__(self, runner: TaskRunner, data_dir: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMinimumSize(560, 380)
        self.page = BackupsPage(runner, data_dir)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        self.close_button = buttons.button(QDialogButtonBox.StandardButton.Close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.page, 1)
        layout.addWidget(buttons)
        # Shown for a damaged library: Enter must not back up the damage (the first button,
        # "Back up now", was the default) nor start a restore. It closes; a focused button
        # still answers its own Enter. (Set once the button is inside this dialog.)
        self.close_button.setDefault(True)
        self.page.reload()
        self.retranslateUi()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        self.setWindowTitle(self.page.title())
        self.close_button.setText(self.tr("Close"))
