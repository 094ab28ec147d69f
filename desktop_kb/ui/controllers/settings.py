"""Settings surface: the settings dialog (opened once, reloaded on reopen) and the language."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

from desktop_kb.ui import i18n
from desktop_kb.ui.settings_dialog import SettingsDialog

if TYPE_CHECKING:
    from desktop_kb.ui.main_window import MainWindow


class SettingsController(QObject):
    def __init__(self, window: MainWindow, language_choice: str) -> None:
        super().__init__(window)
        self._w = window
        self.language_choice = language_choice
        self.dialog: SettingsDialog | None = None

    def open_settings(self) -> None:
        w = self._w
        if w.library is None:
            return
        if self.dialog is None:
            self.dialog = SettingsDialog(w.runner, w.library, w.save_queue.submit, w.data_dir,
                                         self.language_choice, w)
            self.dialog.languageChosen.connect(self.set_language)
            self.dialog.modelInstalled.connect(lambda _name: w.index.refresh())
            self.dialog.discovery.toggled.connect(w.related_panel.controller.set_enabled)
            self.dialog.ocr_page.ocrInstalled.connect(w.ocr.start_waiting)
        else:
            self.dialog.reload()
        self.dialog.open()

    def set_language(self, choice: str) -> None:
        self.language_choice = choice
        i18n.install_language(choice)
        self._w.state.set("ui/language", choice)
        stored = None if choice == i18n.SYSTEM else choice
        if self._w.library is not None:
            self._w.save_queue.submit(lambda lib: lib.set_setting("ui.language", stored))
