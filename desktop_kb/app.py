"""GUI composition root: one instance per data folder, language, then the window.

The window is shown before the library opens; opening (SQLite, the index
worker, jieba, models) happens on a background thread, so the first frame
never waits for it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from desktop_kb.paths import resolve_data_dir
from desktop_kb.store.errors import StoreError


def _show_refusal(message: str) -> None:
    """A second instance explains itself; a blocking box is fine, no window exists yet."""
    from PySide6.QtWidgets import QMessageBox

    box = QMessageBox(QMessageBox.Icon.Warning, "Desktop KB", message)
    box.exec()


def _ask_take_over(refusal: Exception) -> bool:
    """A lock another computer left: open the library here? Cancel is the default (Enter)."""
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtWidgets import QMessageBox

    box = QMessageBox(QMessageBox.Icon.Warning, "Desktop KB", str(refusal))
    open_here = box.addButton(QCoreApplication.translate("SingleInstance", "Open here"),
                              QMessageBox.ButtonRole.AcceptRole)
    cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(cancel)
    box.exec()
    return box.clickedButton() is open_here


def run_gui(data_dir: str | None) -> int:
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    from desktop_kb.assets import APP_ICON
    from desktop_kb.ui import i18n
    from desktop_kb.ui.single_instance import AlreadyRunning, acquire_instance_lock
    from desktop_kb.ui.ui_state import UiState

    app = QApplication.instance() or QApplication(sys.argv)
    app.setApplicationName("Desktop KB")
    app.setOrganizationName("desktop-kb")
    app.setDesktopFileName("desktop-kb")  # Wayland app id: packaging/desktop-kb.desktop
    app.setWindowIcon(QIcon(str(APP_ICON)))
    try:
        folder: Path = resolve_data_dir(data_dir)
    except StoreError as exc:  # the chosen folder's disk is not there
        from desktop_kb.ui.env_messages import localize

        i18n.install_language(i18n.SYSTEM)
        print(str(exc), file=sys.stderr)
        _show_refusal(localize(str(exc)))
        return 1
    folder.mkdir(parents=True, exist_ok=True)
    choice = language_choice(folder, UiState(folder).text("ui/language", i18n.SYSTEM))
    i18n.install_language(choice)
    try:
        lock = acquire_instance_lock(folder, take_over=_ask_take_over)
    except AlreadyRunning as exc:
        print(str(exc), file=sys.stderr)
        if exc.other_computer is None:  # otherwise the question was the message
            _show_refusal(str(exc))
        return 1

    from desktop_kb.ui.main_window import MainWindow
    from desktop_kb.ui.quit_signals import CloseOnSignals

    window = MainWindow(folder, language_choice=choice)
    window.show()
    signals = CloseOnSignals(window)  # logout, a closed terminal, Ctrl+C: close as the button does
    try:
        return app.exec()
    finally:
        window.shutdown()
        signals.uninstall()
        lock.unlock()


def language_choice(folder: Path, window_choice: str) -> str:
    """The language the window starts in: the library's ``ui.language`` setting when it names
    one (``desktop-kb settings set ui.language zh_CN`` changes the app), else the window's own
    last choice (``ui.ini``; "system" there follows the system locale)."""
    from desktop_kb.paths import LibraryPaths
    from desktop_kb.store.settings import UI_LANGUAGES, read_stored_setting

    stored = read_stored_setting(LibraryPaths(folder).store, "ui.language")
    return stored if stored in UI_LANGUAGES else window_choice


__all__ = ["language_choice", "run_gui"]
