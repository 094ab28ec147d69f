"""GUI composition root. The full note-taking window is built in ``desktop_kb.ui``."""

from __future__ import annotations

import sys

from desktop_kb.paths import resolve_data_dir


def run_gui(data_dir: str | None) -> int:
    from PySide6.QtWidgets import QApplication

    from desktop_kb.ui.minimal_window import MinimalWindow

    app = QApplication.instance() or QApplication(sys.argv)
    app.setApplicationName("Desktop KB")
    window = MinimalWindow(resolve_data_dir(data_dir))
    window.show()
    return app.exec()
