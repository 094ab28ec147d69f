"""Shared helpers for the GUI tests (imported by test_gui_*.py; holds no tests itself)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import keyring
import keyring.backend
import pytest

QT_NOISE = (
    "This plugin does not support",  # offscreen platform: raise(), propagateSizeHints()
    "QFont::setPointSizeF: Point size <= 0",
)


def gui_marks() -> list[pytest.MarkDecorator]:
    """Qt warnings fail the test, except the offscreen platform's own notes."""
    return [pytest.mark.qt_log_level_fail("WARNING"),
            pytest.mark.qt_log_ignore(*QT_NOISE)]


class MemoryKeyring(keyring.backend.KeyringBackend):
    """The OS keyring is outside the machine's control in tests (house rule 10)."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.store: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.store.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.store[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if (service, username) not in self.store:
            import keyring.errors

            raise keyring.errors.PasswordDeleteError(username)
        del self.store[(service, username)]


class GuiThreadSql:
    """Records every SQL statement run on the GUI thread by connections opened after install."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.statements: list[str] = []
        self.recording = False
        real_connect = sqlite3.connect
        gui_thread = threading.main_thread()

        def trace(statement: str) -> None:
            if self.recording and threading.current_thread() is gui_thread:
                self.statements.append(statement)

        def connect(*args, **kwargs):  # noqa: ANN002, ANN003 - same signature as sqlite3.connect
            conn = real_connect(*args, **kwargs)
            conn.set_trace_callback(trace)
            return conn

        monkeypatch.setattr(sqlite3, "connect", connect)


def use_memory_keyring() -> MemoryKeyring:
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    return backend


def open_window(qtbot, data_dir: Path, **kwargs):  # noqa: ANN001, ANN201 - test helper
    """A MainWindow on ``data_dir``, shown, with its library open."""
    from desktop_kb.ui.main_window import MainWindow

    window = MainWindow(data_dir, open_now=False, **kwargs)
    qtbot.addWidget(window, before_close_func=lambda w: w.shutdown())
    window.resize(1280, 800)
    window.show()
    with qtbot.waitSignal(window.libraryOpened, timeout=20000):
        window.open_library()
    if window.note_list.model.rowCount():  # the first note opens by itself; let it
        qtbot.waitUntil(lambda: window.editor.note_id is not None, timeout=5000)
    qtbot.waitUntil(lambda: window.index.last_status is not None, timeout=5000)
    return window


def wait_index_idle(qtbot, window) -> None:  # noqa: ANN001
    """The index worker has handled everything so far (the test thread may block).

    First the start-up upkeep: it asks the worker for a verify (with repair) some
    moments after the library opened, and a verify that lands after a test made
    drift on purpose repairs it before the test's own verify looks.
    """
    qtbot.waitUntil(lambda: window.upkeep_finished, timeout=20000)
    assert window.library.drain(20)
