"""A note-list reload that fails is never lost in a log: the list says its rows are from before."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from test_gui_support import gui_marks, open_window

from desktop_kb.library import Library
from desktop_kb.tasks import note_tasks

pytestmark = gui_marks()


def test_a_failed_reload_says_the_list_is_stale_and_try_again_loads_it(
    qtbot, data_dir: Path, monkeypatch: pytest.MonkeyPatch  # noqa: ANN001
) -> None:
    with Library(data_dir) as lib:
        kept = lib.add_note("所有权", "每个值都有一个所有者。")
        gone = lib.add_note("Borrowing", "References borrow a value.")
        lib.trash_note(gone)
    window = open_window(qtbot, data_dir)
    notes = window.note_list
    assert notes.model.ids() and gone not in notes.model.ids() and not notes.stale_bar.isVisible()

    real = note_tasks.load_rows
    failures = [sqlite3.OperationalError("disk I/O error")]  # a stick's read failing once

    def load_rows(library, trashed, tags=None):  # noqa: ANN001, ANN202
        if failures:
            raise failures.pop()
        return real(library, trashed, tags)

    monkeypatch.setattr(note_tasks, "load_rows", load_rows)
    notes.trash_button.click()  # the trash: its rows must be read
    qtbot.waitUntil(notes.stale_bar.isVisible, timeout=10000)
    # The header says "Trash" over the notes from before: the bar says they are stale, and why.
    assert kept in notes.model.ids()
    assert "out of date" in notes.stale_label.text() and "disk I/O error" in notes.stale_label.text()
    notes.retry_button.click()
    qtbot.waitUntil(lambda: not notes.stale_bar.isVisible(), timeout=10000)
    assert notes.model.ids() == [gone]
