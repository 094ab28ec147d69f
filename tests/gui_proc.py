"""The real app (``desktop_kb.app.run_gui``) in its own process, for tests that signal or kill it.

``python gui_proc.py DATA_DIR TEXT``: once the library is open and a note is in the
editor, TEXT is typed into it (as the keyboard would: the editor's own autosave
timers start) and one line ``{"typed": NOTE_ID}`` is printed. Then the app runs
as a person's would, until it is closed, signalled or killed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from PySide6.QtCore import QTimer

from desktop_kb.ui import main_window


def main() -> int:
    data_dir, text = Path(sys.argv[1]), sys.argv[2]
    show = main_window.MainWindow.show

    def show_then_type(window: main_window.MainWindow) -> None:
        show(window)

        def type_when_ready() -> None:
            if window.library is None or window.editor.note_id is None:
                QTimer.singleShot(50, type_when_ready)
                return
            window.editor.body.setFocus()
            window.editor.body.moveCursor(window.editor.body.textCursor().MoveOperation.End)
            window.editor.body.insertPlainText(text)
            print(json.dumps({"typed": window.editor.note_id}), flush=True)

        window.libraryOpened.connect(lambda _lib: QTimer.singleShot(0, type_when_ready))

    main_window.MainWindow.show = show_then_type  # type: ignore[method-assign]
    from desktop_kb.app import run_gui

    return run_gui(str(data_dir))


if __name__ == "__main__":
    sys.exit(main())
