"""The window and other processes (I12, I13): following CLI changes, conflicts, saving on
close, text offered back after a failed save, backups in Settings."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from test_gui_support import gui_marks, open_window

from desktop_kb import recovery
from desktop_kb.library import Library
from desktop_kb.store.backup import create_backup, list_backups
from desktop_kb.ui.backups_page import BackupsDialog

pytestmark = gui_marks()
TIMEOUT = 10000  # ms; the app polls twice a second, so this is only reached when it is broken


def cli(data_dir: Path, *args: str) -> dict:
    done = subprocess.run([sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir), *args,
                           "--json"], capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _rows(window) -> dict[int, str]:  # noqa: ANN001
    model = window.note_list.model
    return {nid: model.get(nid).title for nid in model.ids()}


def test_the_window_follows_notes_and_documents_changed_by_the_cli(qtbot, data_dir: Path,
                                                                  tmp_path: Path) -> None:
    window = open_window(qtbot, data_dir)
    opened = window.editor.note_id
    assert opened is not None
    added = cli(data_dir, "note", "add", "--title", "命令行写的", "--body", "from the CLI zqgui1 #运维")["id"]
    qtbot.waitUntil(lambda: added in _rows(window), timeout=TIMEOUT)
    # Its #tag is counted and its title is a link target: the tag pane and [[ follow it too
    # (both waited for a restart).
    qtbot.waitUntil(lambda: "运维" in window.tags.pane.items, timeout=TIMEOUT)
    assert window.links.catalog.resolves("命令行写的")
    assert [m.title for m in window.links.catalog.rank("命令行", 5)] == ["命令行写的"]
    # The open note, unchanged here, follows an edit made elsewhere.
    cli(data_dir, "note", "edit", str(opened), "--body", "edited by a script zqgui2")
    qtbot.waitUntil(lambda: window.editor.body.toPlainText() == "edited by a script zqgui2",
                    timeout=TIMEOUT)
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "book.md").write_text("# 书\n\n导入的段落 zqgui3\n", encoding="utf-8")
    cli(data_dir, "import", str(folder))
    qtbot.waitUntil(lambda: _tree_has(window, "书"), timeout=TIMEOUT)
    cli(data_dir, "note", "delete", str(added), "--purge")
    qtbot.waitUntil(lambda: added not in _rows(window), timeout=TIMEOUT)
    assert not window.links.catalog.resolves("命令行写的")
    qtbot.waitUntil(lambda: "运维" not in window.tags.pane.items, timeout=TIMEOUT)


def _tree_has(window, text: str) -> bool:  # noqa: ANN001
    tree = window.tree.tree
    stack = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    while stack:
        item = stack.pop()
        if text in item.text(0):
            return True
        stack += [item.child(i) for i in range(item.childCount())]
    return False


def test_unsaved_text_is_never_replaced_and_the_other_version_is_kept(qtbot, data_dir: Path) -> None:
    window = open_window(qtbot, data_dir)
    note_id = window.editor.note_id
    assert note_id is not None
    window.notes.save_now()
    assert window.save_queue.flush(5)
    window.editor.body.setPlainText("my unsaved words zqgui4")
    window.notes._edited()  # what typing does  # noqa: SLF001
    cli(data_dir, "note", "edit", str(note_id), "--body", "their words zqgui5")
    with qtbot.waitSignal(window.save_queue.otherVersionKept, timeout=TIMEOUT):
        window.notes.save_now()
    assert window.editor.body.toPlainText() == "my unsaved words zqgui4"
    with Library(data_dir, load_model=False) as lib:
        bodies = {n.body for n in lib.list_notes()}
    assert {"my unsaved words zqgui4", "their words zqgui5"} <= bodies


def test_closing_waits_for_a_failing_save_says_why_and_the_text_comes_back(qtbot, data_dir: Path) -> None:
    window = open_window(qtbot, data_dir)
    note_id = window.editor.note_id
    library = window.library
    pages = library.store.execute("PRAGMA page_count").fetchone()[0]
    library.store.execute(f"PRAGMA max_page_count = {pages}")  # the disk is "full"
    big = "写了很多字 a lot of words " * 3000 + "zqgui6"
    window.editor.body.setPlainText(big)
    window.notes._edited()  # noqa: SLF001
    window.close()
    assert window.isVisible()  # not closed over unsaved text
    qtbot.waitUntil(lambda: window.saving_dialog is not None and bool(window.saving_dialog.unsaved),
                    timeout=TIMEOUT)
    dialog = window.saving_dialog
    qtbot.waitUntil(dialog.isVisible, timeout=TIMEOUT)
    assert "full" in dialog.detail.text().lower() and "recovery" in dialog.detail.text()
    dialog.close_button.click()  # "Close anyway": the text is kept on disk
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=TIMEOUT)
    kept = recovery.pending(data_dir)
    assert [(k.note_id, k.body) for k in kept] == [(note_id, big)]

    again = open_window(qtbot, data_dir)
    qtbot.waitUntil(lambda: again.recovery.dialog is not None, timeout=TIMEOUT)
    with qtbot.waitSignal(again.recovery.handled, timeout=TIMEOUT) as handled:
        again.recovery.dialog.restore_button.click()
    assert handled.args == ["restore"]
    assert recovery.pending(data_dir) == []
    with Library(data_dir, load_model=False) as lib:
        assert lib.get_note(note_id).body == big


def test_backups_page_lists_makes_and_restores(qtbot, data_dir: Path) -> None:
    window = open_window(qtbot, data_dir)
    note_id = window.editor.note_id
    window.settings.open_settings()
    dialog = window.settings.dialog
    page = dialog.backups
    qtbot.waitUntil(lambda: len(list_backups(data_dir / "library.sqlite")) == 1, timeout=TIMEOUT)  # the daily one
    with qtbot.waitSignal(page.loaded, timeout=TIMEOUT):
        page.reload()
    assert page.table.rowCount() == 1
    page.back_up_now()
    qtbot.waitUntil(lambda: page.table.rowCount() == 2, timeout=TIMEOUT)
    assert "made by hand" in page.table.item(0, 1).text()
    # The daily backup chosen before another is made stays the one chosen: the highlight
    # stayed on the second row, which the new backup had pushed the daily one out of.
    page.table.selectRow(1)
    daily = page.selected()
    assert daily is not None and daily.reason == "auto"  # shown as "daily"
    page.back_up_now()
    qtbot.waitUntil(lambda: page.table.rowCount() == 3, timeout=TIMEOUT)
    still = page.selected()
    assert still is not None and still.path == daily.path
    # The question names the chosen backup as its row does, to the second (two made in one
    # minute were both "06:04").
    from PySide6.QtWidgets import QMessageBox

    page.table.selectRow(0)
    page.confirm_restore()
    question = page.findChild(QMessageBox)
    assert question is not None and page.table.item(0, 0).text() in question.text()
    question.reject()
    chosen = page.backups[0].path
    cli(data_dir, "note", "edit", str(note_id), "--body", "written after the backup zqgui7")
    with qtbot.waitSignal(page.restored, timeout=TIMEOUT):
        page.restore(chosen)
    # The window follows the restored library.
    qtbot.waitUntil(lambda: "zqgui7" not in window.editor.body.toPlainText(), timeout=TIMEOUT)
    assert any(b.reason == "restore" for b in list_backups(data_dir / "library.sqlite"))


def test_after_a_restore_the_ask_pane_shows_the_restored_chats(qtbot, data_dir: Path) -> None:
    # After Settings → Backups → Restore the Ask pane kept the replaced library's chat; asking
    # there said "Something went wrong: No chat session with id 1." and the question was gone.
    from desktop_kb.store import chats

    with Library(data_dir, load_model=False) as lib:
        lib.add_note("所有权", "每个值都有一个所有者 zqrestore")
    backup = create_backup(data_dir / "library.sqlite").path  # made before any chat
    with Library(data_dir, load_model=False) as lib:
        session = chats.create_session(lib.store, "旧对话")
    window = open_window(qtbot, data_dir)
    window.qa_dock.show()
    pane = window.qa_dock.pane
    qtbot.waitUntil(lambda: pane.session_id == session, timeout=TIMEOUT)
    window.settings.open_settings()
    page = window.settings.dialog.backups
    with qtbot.waitSignal(page.restored, timeout=TIMEOUT):
        page.restore(backup)
    qtbot.waitUntil(lambda: pane.session_id is None and pane.sessions.count() == 0, timeout=TIMEOUT)
    pane.question.setText("所有者")
    with qtbot.waitSignal(pane.answerShown, timeout=TIMEOUT):
        pane.ask_button.click()
    assert "went wrong" not in pane.status.text()


def test_a_question_that_fails_stays_in_the_field(qtbot, data_dir: Path) -> None:
    # Another program deleted the chat on screen: asking there failed, and the question typed
    # was gone with it. It waits in the field to be asked again.
    import sqlite3

    from desktop_kb.store import chats

    with Library(data_dir, load_model=False) as lib:
        lib.add_note("所有权", "每个值都有一个所有者 zqfailed")
        session = chats.create_session(lib.store, "别处删掉的对话")
    window = open_window(qtbot, data_dir)
    window.qa_dock.show()
    pane = window.qa_dock.pane
    qtbot.waitUntil(lambda: pane.session_id == session, timeout=TIMEOUT)
    with sqlite3.connect(data_dir / "library.sqlite") as other:
        chats.delete_session(other, session)
    from desktop_kb.ui import i18n

    i18n.install_language("zh_CN")
    try:
        pane.question.setText("所有者是谁？")
        pane.ask_button.click()
        # It said "出错了：No chat session with id 1." and nothing about what to do.
        qtbot.waitUntil(lambda: pane.status.text().startswith("出错了"), timeout=TIMEOUT)
        assert "新建对话" in pane.status.text() and "No chat" not in pane.status.text()
        assert pane.question.text() == "所有者是谁？"
    finally:
        i18n.install_language("en")


def test_a_damaged_library_points_to_the_backups(qtbot, data_dir: Path) -> None:
    with Library(data_dir, load_model=False) as lib:
        lib.add_note("好的", "intact zqgui8")
    create_backup(data_dir / "library.sqlite")
    for suffix in ("-wal", "-shm"):
        Path(f"{data_dir / 'library.sqlite'}{suffix}").unlink(missing_ok=True)
    (data_dir / "library.sqlite").write_bytes(b"SQLite format 3\0" + b"\xff" * 8192)
    from desktop_kb.ui.main_window import MainWindow

    window = MainWindow(data_dir, open_now=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.shutdown())
    window.show()
    with qtbot.waitSignal(window.libraryFailed, timeout=20000) as failed:
        window.open_library()
    assert "backup" in failed.args[0].lower()


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_new_dialogs_are_translated(qtbot, language: str, data_dir: Path) -> None:
    from desktop_kb.recovery import RecoveredText
    from desktop_kb.ui import i18n
    from desktop_kb.ui.recovery_dialog import RecoveryDialog

    i18n.install_language(language)
    try:
        dialog = RecoveryDialog([RecoveredText(1, "t", "b", 0.0, "disk full", data_dir / "x")])
        qtbot.addWidget(dialog)
        if language == "zh_CN":
            assert dialog.restore_button.text() != "Restore"
    finally:
        i18n.install_language("en")


def test_every_environment_message_has_a_translation(qtbot) -> None:
    from desktop_kb.store.errors import (
        DAMAGED_AND_OPEN_MESSAGE,
        DATA_DIR_MISSING_MESSAGE,
        EMPTY_LIBRARY_MESSAGE,
        ENVIRONMENT_MESSAGES,
        MISSING_LIBRARY_MESSAGE,
        NO_ROOM_FOR_BACKUP_MESSAGE,
        REPLACED_LIBRARY_MESSAGE,
    )
    from desktop_kb.ui import i18n
    from desktop_kb.ui.env_messages import localize

    i18n.install_language("zh_CN")
    try:
        for code, english in [*ENVIRONMENT_MESSAGES.items(), ("empty", EMPTY_LIBRARY_MESSAGE),
                              ("missing", MISSING_LIBRARY_MESSAGE),
                              ("open", DAMAGED_AND_OPEN_MESSAGE),
                              ("disk", DATA_DIR_MISSING_MESSAGE),
                              ("room", NO_ROOM_FOR_BACKUP_MESSAGE),
                              ("replaced", REPLACED_LIBRARY_MESSAGE)]:
            assert localize(f"Saving: {english} (x)") != f"Saving: {english} (x)", code
    finally:
        i18n.install_language("en")


def test_a_backup_listing_that_finishes_late_does_not_replace_a_newer_one(
        qtbot, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The page lists backups on two pool threads: the listing started when the dialog opened
    (before the daily backup existed) finished after a later reload and showed no backups."""
    import threading

    from PySide6.QtWidgets import QApplication

    from desktop_kb.store.backup import Backup
    from desktop_kb.tasks import backup_tasks
    from desktop_kb.tasks.library_tasks import TaskRunner
    from desktop_kb.ui.backups_page import BackupsPage

    release_first = threading.Event()
    calls: list[int] = []
    newer = Backup(path=tmp_path / "b.sqlite", created_at=1.7e9, reason="daily", size=4096)

    def load(_data_dir: Path) -> list[Backup]:
        calls.append(len(calls))
        if len(calls) == 1:
            release_first.wait(10)
            return []  # what the folder held when the first listing looked
        return [newer]

    monkeypatch.setattr(backup_tasks, "load", load)
    runner = TaskRunner(threads=2)
    page = BackupsPage(runner, tmp_path)
    qtbot.addWidget(page)
    page.reload()
    qtbot.waitUntil(lambda: len(calls) == 1, timeout=TIMEOUT)
    with qtbot.waitSignal(page.loaded, timeout=TIMEOUT):
        page.reload()
    release_first.set()
    assert runner.wait(TIMEOUT)
    # The late result's callback was queued to this thread before its task ended: deliver it
    # now (a fixed 50 ms wait said nothing about whether it ran).
    QApplication.processEvents()
    assert calls == [0, 1]
    assert page.table.rowCount() == 1 and page.backups == [newer]


def test_after_the_window_closes_the_library_file_alone_holds_what_was_typed(
        qtbot, data_dir: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A person closes the app and copies library.sqlite (without -wal) elsewhere: it opened
    as an empty library, the typed words only in the WAL the copy left behind."""
    import shutil
    import sqlite3

    window = open_window(qtbot, data_dir)
    note_id = window.editor.note_id
    window.editor.body.setPlainText("typed then closed zqgui9")
    window.notes._edited()  # what typing does  # noqa: SLF001
    window.close()
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=TIMEOUT)
    qtbot.waitUntil(lambda: window.library is None, timeout=TIMEOUT)
    wal = data_dir / "library.sqlite-wal"
    assert not wal.exists() or wal.stat().st_size == 0  # nothing left to replay onto a copy
    copy = tmp_path / "stick" / "library.sqlite"
    copy.parent.mkdir()
    shutil.copyfile(data_dir / "library.sqlite", copy)
    conn = sqlite3.connect(copy)
    try:
        assert conn.execute("SELECT body FROM notes WHERE id = ?", (note_id,)).fetchone() == (
            "typed then closed zqgui9",)
    finally:
        conn.close()


def test_a_half_copied_library_is_restored_from_the_window_and_opens(
        qtbot, data_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """'Restore a backup…' on a damaged library failed: the restore first backed the damaged
    file up, and that failed on the damage."""
    with Library(data_dir, load_model=False) as lib:
        note_id = lib.add_note("好的", "intact zqgui10")
    made = create_backup(data_dir / "library.sqlite")
    store = data_dir / "library.sqlite"
    store.write_bytes(store.read_bytes()[:20000])  # a copy cut short
    from desktop_kb.ui.main_window import MainWindow

    window = MainWindow(data_dir, open_now=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.shutdown())
    window.show()
    with qtbot.waitSignal(window.libraryFailed, timeout=20000):
        window.open_library()
    window.show_backups()
    dialog = window.findChild(BackupsDialog)
    assert dialog is not None
    with qtbot.waitSignal(dialog.page.loaded, timeout=TIMEOUT):
        dialog.page.reload()
    assert [b.path for b in dialog.page.backups] == [made.path]
    with qtbot.waitSignal(window.libraryOpened, timeout=20000):
        dialog.page.restore(made.path)
    assert window.library is not None
    assert window.library.get_note(note_id).body == "intact zqgui10"
    assert list((data_dir / "backups").glob("damaged-library-*.sqlite"))


def test_an_export_onto_a_full_disk_says_so_in_the_ui_language(
        qtbot, data_dir: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from mounts import tmpfs

    from desktop_kb.ui import i18n

    with Library(data_dir, load_model=False) as lib:
        for i in range(4):
            lib.add_note(f"长笔记 {i}", "很长的正文 " * 3000)
    window = open_window(qtbot, data_dir)
    i18n.install_language("zh_CN")
    try:
        with tmpfs(tmp_path / "stick", 64) as stick:
            with qtbot.waitSignal(window.statusBar().messageChanged, timeout=TIMEOUT,
                                  check_params_cb=lambda text: "导出到" in text) as shown:
                window.import_export.export_to(stick / "notes")
            assert "磁盘已满" in shown.args[0] and "之前导出的文件保持不变" in shown.args[0]
            assert not [p for p in (stick / "notes").iterdir() if p.name.endswith(".tmp")]
    finally:
        i18n.install_language("en")


def test_a_window_left_open_for_days_still_backs_up_daily(qtbot, data_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """The daily backup was made on start only: a window kept open for weeks (suspended, never
    quit) made one backup and then none, however old it grew."""
    import os
    from datetime import UTC, datetime, timedelta

    window = open_window(qtbot, data_dir)
    store = data_dir / "library.sqlite"
    qtbot.waitUntil(lambda: window.upkeep_finished, timeout=20000)
    [first] = list_backups(store)
    # Two days pass with the window open: the backup's name says when it was made.
    then = datetime.now(UTC) - timedelta(days=2)
    aged = first.path.with_name(f"library-{then:%Y%m%dT%H%M%S}000Z-auto-n1.sqlite")
    os.replace(first.path, aged)
    window.upkeep_timer.setInterval(50)  # the hourly look, made short for the test
    qtbot.waitUntil(lambda: len(list_backups(store)) == 2, timeout=20000)
    assert list_backups(store)[0].path != aged  # a new one, made today
    count = len(list_backups(store))
    for _look in range(3):  # three more looks, counted, not 300 ms that may hold none under load
        with qtbot.waitSignal(window.upkeepFinished, timeout=20000):
            pass
    assert len(list_backups(store)) == count  # one a day, not one per look


def test_why_the_library_could_not_be_opened_is_said_in_the_ui_language(
        qtbot, data_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """The window put the core's English sentence inside its Chinese frame: '无法打开资料库：
    Cannot open the library at …: The library file is empty (0 bytes)…'."""
    from desktop_kb.ui import i18n
    from desktop_kb.ui.main_window import MainWindow

    with Library(data_dir, load_model=False) as lib:
        lib.add_note("好的", "intact zqgui11")
    create_backup(data_dir / "library.sqlite")
    (data_dir / "library.sqlite").write_bytes(b"")  # a copy cut short
    i18n.install_language("zh_CN")
    try:
        window = MainWindow(data_dir, open_now=False)
        qtbot.addWidget(window, before_close_func=lambda w: w.shutdown())
        window.show()
        with qtbot.waitSignal(window.libraryFailed, timeout=20000) as failed:
            window.open_library()
        assert "资料库文件是空的" in failed.args[0], failed.args[0]
        assert "The library file is empty" not in failed.args[0]
    finally:
        i18n.install_language("en")


def test_a_damaged_library_without_backups_is_restored_from_a_kept_copy(
        qtbot, data_dir: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A damaged library with no backups beside it (a folder copied without them, backups
    deleted) could only be restored with `desktop-kb backup restore PATH`: the window showed the
    message and offered nothing. It now offers "Restore from a file…" for a copy kept anywhere,
    and once the library opens the failure is no longer in the status bar."""
    kept = tmp_path / "usb" / "library-copy"
    with Library(kept, load_model=False) as lib:
        note_id = lib.add_note("好的", "intact zqgui11")
    with Library(data_dir, load_model=False) as lib:
        lib.add_note("坏了", "lost")
    store = data_dir / "library.sqlite"
    for suffix in ("-wal", "-shm"):
        Path(f"{store}{suffix}").unlink(missing_ok=True)
    store.write_bytes(b"SQLite format 3\0" + b"\xff" * 8192)
    assert list_backups(store) == []
    from PySide6.QtWidgets import QMessageBox

    from desktop_kb.ui.main_window import MainWindow

    window = MainWindow(data_dir, open_now=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.shutdown())
    window.show()
    with qtbot.waitSignal(window.libraryFailed, timeout=20000):
        window.open_library()
    box = window.failure_box
    assert box is not None and box.isVisible()
    offer = next(b for b in box.buttons() if box.buttonRole(b) == QMessageBox.ButtonRole.ActionRole)
    offer.click()
    dialog = window.findChild(BackupsDialog)
    assert dialog is not None
    qtbot.waitUntil(dialog.isVisible, timeout=TIMEOUT)
    page = dialog.page
    assert page.restore_file_button.isEnabled()
    page.confirm_restore_file(kept / "library.sqlite")
    confirm = page.findChild(QMessageBox)
    assert confirm is not None and "library-copy" in confirm.text()
    restore = next(b for b in confirm.buttons()
                   if confirm.buttonRole(b) == QMessageBox.ButtonRole.DestructiveRole)
    with qtbot.waitSignal(window.libraryOpened, timeout=20000):
        restore.click()
    assert window.library.get_note(note_id).body == "intact zqgui11"
    assert list((data_dir / "backups").glob("damaged-library-*.sqlite"))
    assert "could not be opened" not in window.statusBar().currentMessage()


def test_a_busy_library_is_never_offered_a_restore(qtbot, data_dir: Path) -> None:  # type: ignore[no-untyped-def]
    from desktop_kb.store.errors import StoreError
    from desktop_kb.ui.main_window import MainWindow

    window = MainWindow(data_dir, open_now=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.shutdown())
    window._library_failed(StoreError("Cannot open the library: The disk is full."))
    assert window.failure_box is None


def _damaged(data_dir: Path) -> None:
    with Library(data_dir, load_model=False) as lib:
        lib.add_note("好的", "intact zqgui12")
    create_backup(data_dir / "library.sqlite")
    store = data_dir / "library.sqlite"
    for suffix in ("-wal", "-shm"):
        Path(f"{store}{suffix}").unlink(missing_ok=True)
    store.write_bytes(b"SQLite format 3\0" + b"\xff" * 8192)


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_badge_says_the_library_is_not_open_after_it_failed(
        qtbot, data_dir: Path, language: str) -> None:  # type: ignore[no-untyped-def]
    """The status badge kept saying 'Opening the library…' (正在打开资料库…) for ever after the
    library had failed to open, and its popup said 'The library is still opening.'"""
    from desktop_kb.ui import i18n
    from desktop_kb.ui.main_window import MainWindow

    _damaged(data_dir)
    i18n.install_language(language)
    try:
        window = MainWindow(data_dir, open_now=False)
        qtbot.addWidget(window, before_close_func=lambda w: w.shutdown())
        window.show()
        opening = window.badge.text()
        with qtbot.waitSignal(window.libraryFailed, timeout=20000) as failed:
            window.open_library()
        window.failure_box.close()
        assert window.badge.text() != opening
        assert window.badge.state == "not_open"
        assert window.badge.text() == ("资料库未打开 ⚠" if language == "zh_CN" else "Library not open ⚠")
        window.badge.click()
        popup = window.status_popup
        qtbot.waitUntil(popup.isVisible, timeout=TIMEOUT)
        assert popup.headline.text() == failed.args[0]
        assert not popup.rebuild_button.isVisible() and not popup.verify_button.isVisible()
    finally:
        i18n.install_language("en")


def test_enter_in_the_backups_of_a_damaged_library_starts_nothing(
        qtbot, data_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """'Back up now' was the default button of the backups dialog shown for a damaged library:
    Enter started a backup of the damage (which can push a good backup out of the seven kept).
    Enter now closes the dialog; and in the restore confirmation Enter cancels."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QMessageBox

    from desktop_kb.ui.main_window import MainWindow

    _damaged(data_dir)
    window = MainWindow(data_dir, open_now=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.shutdown())
    window.show()
    with qtbot.waitSignal(window.libraryFailed, timeout=20000):
        window.open_library()
    window.failure_box.close()
    window.show_backups()
    dialog = window.findChild(BackupsDialog)
    qtbot.waitUntil(dialog.isVisible, timeout=TIMEOUT)
    page = dialog.page
    qtbot.waitUntil(lambda: page.backups != [], timeout=TIMEOUT)
    assert not page.create_button.isDefault()
    assert dialog.close_button.isDefault()
    page.table.selectRow(0)
    page.restore_button.click()
    confirm = page.findChild(QMessageBox)
    qtbot.waitUntil(confirm.isVisible, timeout=TIMEOUT)
    assert confirm.buttonRole(confirm.defaultButton()) == QMessageBox.ButtonRole.RejectRole
    qtbot.keyClick(confirm, Qt.Key.Key_Return)
    assert not page.busy  # no restore started
    qtbot.waitUntil(lambda: not confirm.isVisible(), timeout=TIMEOUT)
    qtbot.keyClick(page.table, Qt.Key.Key_Return)
    assert not page.busy  # no backup started
    assert not dialog.isVisible()
    assert len(list_backups(data_dir / "library.sqlite")) == 1


def test_a_library_file_a_sync_client_swapped_in_takes_no_save_and_the_text_is_kept(
        qtbot, data_dir: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Syncthing renamed another device's copy over library.sqlite while the window was open:
    the window said the note was saved, and the words were gone at the next start."""
    import os

    from desktop_kb.store.errors import REPLACED_LIBRARY_MESSAGE
    from desktop_kb.ui import i18n
    from desktop_kb.ui.env_messages import localize

    window = open_window(qtbot, data_dir)
    note_id = window.editor.note_id
    assert note_id is not None
    with Library(tmp_path / "laptop", load_model=False) as laptop:
        laptop.add_note("别处写的", "written on the laptop zqlaptop")
    tmp = data_dir / ".syncthing.library.sqlite.tmp"
    tmp.write_bytes((tmp_path / "laptop" / "library.sqlite").read_bytes())
    os.replace(tmp, data_dir / "library.sqlite")
    window.editor.body.setPlainText("typed after the swap zqswap")
    with qtbot.waitSignal(window.save_queue.saveFailed, timeout=TIMEOUT) as failed:
        window.notes._edited()  # noqa: SLF001
        window.notes.save_now()
    assert REPLACED_LIBRARY_MESSAGE in failed.args[1]
    assert [(k.note_id, k.body) for k in recovery.pending(data_dir)] == [(note_id, "typed after the swap zqswap")]
    i18n.install_language("zh_CN")
    try:
        assert "同步软件" in localize(failed.args[1])
    finally:
        i18n.install_language("en")
    window.close()
    qtbot.waitUntil(lambda: window.saving_dialog is not None and window.saving_dialog.isVisible(),
                    timeout=TIMEOUT)
    window.saving_dialog.close_button.click()  # "Close anyway": the text stays in its recovery file
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=TIMEOUT)
    with Library(data_dir, load_model=False) as lib:
        assert [n.title for n in lib.list_notes()] == ["别处写的"]  # the laptop's file, whole
        laptop_note = lib.list_notes()[0].id
    assert laptop_note == note_id  # another note under the same id: restoring must not write over it
    again = open_window(qtbot, data_dir)
    qtbot.waitUntil(lambda: again.recovery.dialog is not None, timeout=TIMEOUT)
    with qtbot.waitSignal(again.recovery.handled, timeout=TIMEOUT):
        again.recovery.dialog.restore_button.click()
    with Library(data_dir, load_model=False) as lib:
        bodies = {n.title: n.body for n in lib.list_notes()}
    assert bodies["别处写的"] == "written on the laptop zqlaptop"
    assert "typed after the swap zqswap" in bodies.values()


def test_a_library_file_swapped_in_while_the_window_is_idle_is_said_at_once_and_left_whole(
        qtbot, data_dir: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Nothing typed after the swap: the window said nothing, and its pages in -wal (found by
    name) were read as the new file's by the next command, which wrote them into it — the
    laptop's notes were replaced by this computer's."""
    import os

    from desktop_kb.store.errors import REPLACED_LIBRARY_MESSAGE

    window = open_window(qtbot, data_dir)
    for i in range(3):
        window.library.add_note(f"本机 {i}", f"written here zqhere{i}")  # pages in -wal
    with Library(tmp_path / "laptop", load_model=False) as laptop:
        laptop.add_note("别处写的", "written on the laptop zqlaptop")
    tmp = data_dir / ".syncthing.library.sqlite.tmp"
    tmp.write_bytes((tmp_path / "laptop" / "library.sqlite").read_bytes())
    os.replace(tmp, data_dir / "library.sqlite")
    qtbot.waitUntil(lambda: window.outside.replaced_box is not None
                    and window.outside.replaced_box.isVisible(), timeout=TIMEOUT)
    assert REPLACED_LIBRARY_MESSAGE in window.outside.replaced_box.text()
    listed = cli(data_dir, "note", "list")
    assert [n["title"] for n in listed["notes"]] == ["别处写的"]


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_window_points_to_its_own_restore_not_the_command_line(
        qtbot, data_dir: Path, language: str) -> None:  # type: ignore[no-untyped-def]
    """A damaged library's message told the person to run `desktop-kb backup list` then
    `desktop-kb backup restore NAME` while the box under it offered “Restore a backup…”; the
    first-run offer told an offline learner to run `desktop-kb models install --from FILE.whl`
    where Settings has “Install from file…”."""
    from desktop_kb.store.errors import (
        DAMAGED_AND_OPEN_MESSAGE,
        EMPTY_LIBRARY_MESSAGE,
        ENVIRONMENT_MESSAGES,
        MISSING_LIBRARY_MESSAGE,
    )
    from desktop_kb.ui import i18n
    from desktop_kb.ui.env_messages import localize
    from desktop_kb.ui.main_window import MainWindow

    _damaged(data_dir)
    i18n.install_language(language)
    try:
        window = MainWindow(data_dir, open_now=False)
        qtbot.addWidget(window, before_close_func=lambda w: w.shutdown())
        window.show()
        with qtbot.waitSignal(window.libraryFailed, timeout=20000) as failed:
            window.open_library()
        offer = next(b for b in window.failure_box.buttons()
                     if window.failure_box.buttonRole(b).name == "ActionRole")
        assert "desktop-kb" not in failed.args[0]
        assert offer.text() in failed.args[0], (offer.text(), failed.args[0])
        for english in (ENVIRONMENT_MESSAGES[11], ENVIRONMENT_MESSAGES[26], EMPTY_LIBRARY_MESSAGE,
                        MISSING_LIBRARY_MESSAGE, DAMAGED_AND_OPEN_MESSAGE):
            assert "desktop-kb backup" not in localize(f"Cannot open the library at x: {english}")
        assert "desktop-kb models install" not in window.meaning.offer_text()
    finally:
        i18n.install_language("en")


def test_another_computer_s_version_of_the_library_beside_it_is_pointed_out(
        qtbot, data_dir: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Dropbox kept the laptop's version as 'library (conflicted copy 2026-12-06).sqlite' in
    the data folder: the notes written on the laptop were in no library the app showed, and
    neither the window nor any command said so."""
    import shutil

    from desktop_kb.ui import i18n

    with Library(tmp_path / "laptop", load_model=False) as laptop:
        laptop.add_note("别处写的", "written on the laptop zqlaptop")
    with Library(data_dir, load_model=False) as lib:
        lib.add_note("本机", "written here zqhere")
    name = "library (conflicted copy 2026-12-06).sqlite"
    shutil.copy(tmp_path / "laptop" / "library.sqlite", data_dir / name)
    done = subprocess.run([sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir), "note", "list"],
                          capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert done.returncode == 0 and f"{name}: a sync client kept another computer's version" in done.stderr
    i18n.install_language("zh_CN")
    try:
        window = open_window(qtbot, data_dir)
        qtbot.waitUntil(lambda: window.outside.other_versions_box is not None, timeout=TIMEOUT)
        text = window.outside.other_versions_box.text()
        assert name in text and "另一台电脑上的版本" in text
    finally:
        i18n.install_language("en")


def test_a_library_folder_renamed_while_open_is_said_and_loses_nothing(
        qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The library's folder renamed (or moved on its disk) with the window open: it said 'Another
    program replaced or removed the library file … (a sync client …)', and the text typed next
    was kept in a recovery folder that made the old folder again — with a new index and ui.ini
    in it, where the next start began an empty library — while the renamed library never
    offered it back."""
    import os

    from desktop_kb.store.errors import MOVED_LIBRARY_MESSAGE
    from desktop_kb.ui import i18n
    from desktop_kb.ui.env_messages import localize

    data_dir, moved = tmp_path / "学习库", tmp_path / "学习库-旧"
    data_dir.mkdir()
    window = open_window(qtbot, data_dir)
    note_id = window.editor.note_id
    assert note_id is not None
    os.rename(data_dir, moved)
    said = MOVED_LIBRARY_MESSAGE.format(moved, data_dir)
    qtbot.waitUntil(lambda: window.outside.replaced_box is not None
                    and window.outside.replaced_box.isVisible(), timeout=TIMEOUT)
    assert window.outside.replaced_box.text() == said  # at once, naming where it went
    window.editor.body.setPlainText("typed after the rename zqmoved")
    with qtbot.waitSignal(window.save_queue.saveFailed, timeout=TIMEOUT) as failed:
        window.notes._edited()  # noqa: SLF001
        window.notes.save_now()
    assert said in failed.args[1]
    i18n.install_language("zh_CN")
    try:
        shown = localize(failed.args[1])
        assert f"被移动或改名了（现在位于 {moved}）" in shown and f"移回 {data_dir}" in shown, shown
    finally:
        i18n.install_language("en")
    window.close()
    qtbot.waitUntil(lambda: window.saving_dialog is not None and window.saving_dialog.isVisible(),
                    timeout=TIMEOUT)
    window.saving_dialog.close_button.click()  # "Close anyway": the text stays kept
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=TIMEOUT)
    assert not data_dir.exists()  # nothing made again where the library was

    again = open_window(qtbot, moved)  # opened where it is now
    qtbot.waitUntil(lambda: again.recovery.dialog is not None, timeout=TIMEOUT)
    with qtbot.waitSignal(again.recovery.handled, timeout=TIMEOUT):
        again.recovery.dialog.restore_button.click()
    with Library(moved, load_model=False) as lib:
        assert lib.get_note(note_id).body == "typed after the rename zqmoved"


def test_another_computer_s_version_put_beside_the_open_library_is_said_at_once(
        qtbot, data_dir: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Syncthing kept the laptop's version as 'library.sync-conflict-….sqlite' while the window
    was open: the laptop's notes were in no library shown, and it was said only at the next
    start (or never, for a window left open for days)."""
    import shutil

    with Library(tmp_path / "laptop", load_model=False) as laptop:
        laptop.add_note("别处写的", "written on the laptop zqlaptop")
    window = open_window(qtbot, data_dir)
    name = "library.sync-conflict-20261207-061500-ABCDEF1.sqlite"
    shutil.copy(tmp_path / "laptop" / "library.sqlite", data_dir / f".{name}.tmp")
    (data_dir / f".{name}.tmp").rename(data_dir / name)  # as a sync client puts a file in place
    qtbot.waitUntil(lambda: window.outside.other_versions_box is not None
                    and window.outside.other_versions_box.isVisible(), timeout=TIMEOUT)
    assert name in window.outside.other_versions_box.text()
    window.outside.other_versions_box.close()
    (data_dir / "todo.txt").write_text("another file", encoding="utf-8")  # not a copy: nothing said
    with Library(data_dir, load_model=False) as other:  # a change the window shows once it looked again
        later = other.add_note("后来", "after the file zqlater")
    qtbot.waitUntil(lambda: later in window.note_list.model.ids(), timeout=TIMEOUT)
    assert not window.outside.other_versions_box.isVisible()


def test_the_keys_return_to_back_up_now_when_the_backup_is_made(qtbot, data_dir: Path) -> None:
    # "Back up now" is disabled while it works, and the keys moved on to "Open folder": the
    # next Enter opened a file manager instead of making another backup.
    window = open_window(qtbot, data_dir)
    window.settings.open_settings()
    dialog = window.settings.dialog
    page = dialog.backups
    dialog.tabs.setCurrentWidget(page)
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow, timeout=TIMEOUT)
    page.create_button.setFocus()
    qtbot.waitUntil(page.create_button.hasFocus, timeout=TIMEOUT)
    # The backups already there, read from disk: the page lists them in its own time (and the
    # day's first backup may be made as the window opens), so its row count is no baseline.
    before = {b.path for b in list_backups(data_dir / "library.sqlite")}
    qtbot.keyClick(page.create_button, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: not page.busy and page.table.rowCount() == len(page.backups)
                    and any(b.path not in before for b in page.backups), timeout=TIMEOUT)
    assert page.create_button.hasFocus()


def test_a_note_another_program_writes_joins_a_tag_filtered_list_only_with_the_tag(
        qtbot, data_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """With the list filtered to #rust, a note the CLI (a script, a sync) wrote without that tag
    was put into the list all the same: every note another program changed was added to the
    rows shown, whatever the filter (the flaky wait of test_tags_fill_the_pane_and_filter_the_list
    under load: the poll that saw its own notes landed after the filter)."""
    with Library(data_dir, load_model=False) as lib:
        tagged = lib.add_note("所有权", "#rust 所有权规则")
        lib.add_note("部署", "#docker compose")
    window = open_window(qtbot, data_dir)
    qtbot.waitUntil(lambda: "rust" in window.tags.pane.items, timeout=TIMEOUT)
    window.tags.pane.items["rust"].setSelected(True)
    qtbot.waitUntil(lambda: window.note_list.model.ids() == [tagged], timeout=TIMEOUT)
    untagged = cli(data_dir, "note", "add", "--title", "命令行写的", "--body", "no tag here zqnotag")["id"]
    also = cli(data_dir, "note", "add", "--title", "借用", "--body", "#rust 借用规则 zqtagged")["id"]
    qtbot.waitUntil(lambda: also in window.note_list.model.ids(), timeout=TIMEOUT)
    assert untagged not in window.note_list.model.ids()
    assert set(window.note_list.model.ids()) == {tagged, also}
    cli(data_dir, "note", "edit", str(tagged), "--body", "the tag was taken out zqedited")
    qtbot.waitUntil(lambda: window.note_list.model.ids() == [also], timeout=TIMEOUT)
    window.note_list.tag_clear.click()
    qtbot.waitUntil(lambda: untagged in window.note_list.model.ids(), timeout=TIMEOUT)
