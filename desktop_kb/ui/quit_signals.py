"""The system asking the app to end closes the window the usual way.

At logout or shutdown the session sends SIGTERM, a closed terminal sends SIGHUP,
Ctrl+C sends SIGINT. Python's defaults end the process on the spot: the words
typed in the last second (autosave waits that long) were lost, and the library's
-wal and the index writer were left as after a crash. Here each of them closes
the window as its close button does — the text is saved (or kept for recovery),
the library is checkpointed, the index writer is handed back.

Python runs a signal handler only between bytecodes, and the Qt event loop runs
none while idle, so the signal is carried by ``signal.set_wakeup_fd`` into a
socket the event loop watches.
"""

from __future__ import annotations

import contextlib
import signal
import socket

from PySide6.QtCore import QObject, QSocketNotifier
from PySide6.QtWidgets import QApplication, QWidget

SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGINT")
                if hasattr(signal, name))


class CloseOnSignals(QObject):
    """Installed for the life of ``window`` (main thread only, as Python requires)."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._window = window
        self._read, self._write = socket.socketpair()
        self._read.setblocking(False)
        self._write.setblocking(False)
        self._previous_fd = signal.set_wakeup_fd(self._write.fileno(), warn_on_full_buffer=False)
        # A Python handler must be set for the wakeup byte to be written; the work is done
        # in _woken, on the event loop, where closing the window is allowed.
        self._previous = {sig: signal.signal(sig, lambda _signum, _frame: None) for sig in SIGNALS}
        self._notifier = QSocketNotifier(self._read.fileno(), QSocketNotifier.Type.Read, self)
        self._notifier.activated.connect(self._woken)
        window.destroyed.connect(self.uninstall)

    def _woken(self) -> None:
        with contextlib.suppress(OSError):
            while self._read.recv(64):
                pass
        if self._window.close():
            app = QApplication.instance()
            if app is not None:
                app.quit()  # other top-level windows (the reader, a dialog) end with it
        # Not closed yet: the window waits for a save in flight and closes itself after it.

    def uninstall(self) -> None:
        if self._read.fileno() < 0:
            return
        self._notifier.setEnabled(False)
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)
        signal.set_wakeup_fd(self._previous_fd)
        self._read.close()
        self._write.close()
