"""Polls the library for changes made by anyone (``desktop_kb.watch``) off the GUI thread.

Every ``POLL_MS`` a background thread asks the watcher what changed; when
something did, one signal carries the changed rows to the GUI thread, which
updates just those. Idle cost: a pragma and a ``stat`` twice a second.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from desktop_kb.watch import ChangeWatcher, OutsideChanges

log = logging.getLogger(__name__)

POLL_MS = 500  # well inside the "within 2 s" promise, and nothing to notice when idle


class LibraryWatcher(QObject):
    changed = Signal(object)  # OutsideChanges

    def __init__(self, parent: QObject | None = None, poll_ms: int = POLL_MS) -> None:
        super().__init__(parent)
        self._poll_s = poll_ms / 1000
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, store_path: Path, models_dir: Path) -> None:
        self.stop()
        self._stop = threading.Event()
        watcher = ChangeWatcher(store_path, models_dir)
        self._thread = threading.Thread(target=self._run, args=(watcher, self._stop),
                                        name="library-watcher", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None

    def _run(self, watcher: ChangeWatcher, stop: threading.Event) -> None:
        try:
            watcher.start()
            while not stop.wait(self._poll_s):
                try:
                    changes: OutsideChanges = watcher.poll()
                except Exception:  # noqa: BLE001 - a busy or vanished file: look again next time
                    log.debug("library watcher poll failed", exc_info=True)
                    continue
                if changes:
                    with contextlib.suppress(RuntimeError):  # the window is gone
                        self.changed.emit(changes)
        except Exception:  # noqa: BLE001 - the window still works; it just stops following
            log.exception("the library watcher stopped")
        finally:
            watcher.close()
