"""The GUI thread only draws: a walk through every surface runs no SQL on it (house rule 2).

Every SQLite connection opened during the test traces its statements; any statement
run on the GUI thread while the person opens the library, writes, searches, imports,
reads a passage, trashes and restores, checks the index, opens Settings, asks the
library and exports is a failure. The test itself never queries the library while
recording, so whatever is recorded came from the window.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from test_gui_support import GuiThreadSql, gui_marks, open_window

import desktop_kb.ui

pytestmark = gui_marks()
WAIT_MS = 20000
UI = Path(desktop_kb.ui.__file__).parent


def test_ui_modules_hold_no_sql_and_no_work_functions() -> None:
    """Work that touches the library is a function in tasks/, never a function in ui/."""
    offenders = []
    for path in sorted(UI.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if re.search(r"sqlite3|\.execute\(", text):
            offenders.append(f"{path.name}: SQL")
        for node in ast.parse(text).body:
            if isinstance(node, ast.FunctionDef) and any(
                    a.arg in ("library", "lib") for a in node.args.args + node.args.kwonlyargs):
                offenders.append(f"{path.name}: {node.name}() takes the library")
    assert offenders == []


def test_no_surface_runs_sql_on_the_gui_thread(qtbot, data_dir: Path, tmp_path: Path,  # noqa: ANN001
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "material"
    folder.mkdir()
    (folder / "docker.md").write_text("# 安装\n\n用 Docker 安装 GitLab runner。\n\n# 备份\n\n每天备份 GitLab。",
                                      encoding="utf-8")
    gui_sql = GuiThreadSql(monkeypatch)
    gui_sql.recording = True
    window = open_window(qtbot, data_dir)  # opening: welcome note, lists, first note shown

    # Notes: create, type, save, local only.
    with qtbot.waitSignal(window.notes.noteCreated, timeout=WAIT_MS) as created:
        window.notes.new_note()
    note_id = created.args[0]
    window.editor.title.setText("部署笔记")
    with qtbot.waitSignal(window.save_queue.saved, timeout=WAIT_MS):
        qtbot.keyClicks(window.editor.body, "GitLab runner deploy")
        qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    window.editor.local_button.click()

    # Import, the library tree and the reader.
    with qtbot.waitSignal(window.import_export.importFinished, timeout=WAIT_MS):
        window.import_export.import_paths([folder])
    window.import_export.import_summary.close()
    qtbot.waitUntil(lambda: len(window.tree.documents) == 1, timeout=WAIT_MS)
    doc_id = next(iter(window.tree.documents))
    window.tree.documentActivated.emit(doc_id)
    qtbot.waitUntil(lambda: window.centre.currentWidget() is window.reader, timeout=WAIT_MS)
    window.tree.localOnlyRequested.emit(doc_id, True)

    # Search (Ctrl+K) and opening a hit, once the index has caught up (the test's own wait).
    gui_sql.recording = False
    assert window.library.drain(WAIT_MS / 1000)
    gui_sql.recording = True
    window.global_search.open_search_text("GitLab runner")
    qtbot.waitUntil(lambda: any(r.source_id == note_id for r in window.search.results), timeout=WAIT_MS)
    hit = next(r for r in window.search.results if r.source_type == "note" and r.source_id == note_id)
    with qtbot.waitSignal(window.notes.noteOpened, timeout=WAIT_MS):
        window.search.resultChosen.emit(hit)
    window.search.hide()

    # Related material for the open note.
    qtbot.waitUntil(lambda: window.related_panel.view is not None, timeout=WAIT_MS)

    # Trash, undo, the trash view, restore, empty.
    with qtbot.waitSignal(window.trash.noteTrashed, timeout=WAIT_MS):
        window.trash.trash_current_note()
    with qtbot.waitSignal(window.trash.noteRestored, timeout=WAIT_MS):
        window.undo_button.click()
    with qtbot.waitSignal(window.notes.noteOpened, timeout=WAIT_MS):
        window.note_list.noteSelected.emit(note_id)
    with qtbot.waitSignal(window.trash.noteTrashed, timeout=WAIT_MS):
        window.trash.trash_current_note()
    with qtbot.waitSignal(window.notes.notesLoaded, timeout=WAIT_MS):
        window.note_list.trash_button.setChecked(True)
    with qtbot.waitSignal(window.trash.noteRestored, timeout=WAIT_MS):
        window.note_list.restoreRequested.emit(note_id)
    with qtbot.waitSignal(window.notes.notesLoaded, timeout=WAIT_MS):
        window.note_list.trash_button.setChecked(False)

    # Index status and verify.
    window.index_status.show_index_status()
    with qtbot.waitSignal(window.index_status.verifyFinished, timeout=WAIT_MS):
        window.index_status.verify_index()
    window.status_popup.hide()

    # Settings, its privacy page, a switch.
    window.settings.open_settings()
    dialog = window.settings.dialog
    qtbot.waitUntil(lambda: dialog.snapshot is not None, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: dialog.privacy.message.text() != "", timeout=WAIT_MS)
    dialog.discovery.setChecked(not dialog.discovery.isChecked())
    dialog.close()

    # Ask the library (cloud off: the local cited answer).
    window.qa_dock.show()
    pane = window.qa_dock.pane
    pane.question.setText("怎么安装 GitLab？")
    with qtbot.waitSignal(pane.answerShown, timeout=WAIT_MS):
        pane.ask_button.click()

    # Export.
    with qtbot.waitSignal(window.import_export.exportFinished, timeout=WAIT_MS):
        window.import_export.export_to(tmp_path / "export")

    assert window.save_queue.flush(WAIT_MS / 1000)
    with qtbot.waitSignal(window.shutdownFinished, timeout=WAIT_MS):
        window.close()
    gui_sql.recording = False
    # Closing the connections at shutdown is allowed; statements are not. Closing includes
    # what SQLite itself does when the last connection closes: optimize, and the checkpoint
    # that leaves the library whole in library.sqlite (store.connection.close_writer).
    closing = r"\s*PRAGMA (optimize|busy_timeout = 0$|wal_checkpoint\(TRUNCATE\)$)"
    statements = [s for s in gui_sql.statements if not re.match(closing, s)]
    assert statements == [], f"SQL on the GUI thread: {statements[:8]}"
