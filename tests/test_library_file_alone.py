"""``library.sqlite`` alone is the whole library once no process has it open.

People copy "the one SQLite file" to a stick, another machine or a sync
folder after closing the app. In WAL mode the newest pages live in
``library.sqlite-wal`` until a checkpoint; the library closed its write
connection before its read connections, and a read-only connection cannot
checkpoint, so every closed library left its content in the WAL: a copy of
``library.sqlite`` alone opened as an empty library (4 KB, no tables).
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from desktop_kb.library import Library


def _notes_in_file_alone(store: Path, elsewhere: Path) -> list[str]:
    """Copy only ``library.sqlite`` (as a person does) and read its notes with plain SQLite."""
    elsewhere.mkdir()
    copy = elsewhere / "library.sqlite"
    shutil.copyfile(store, copy)
    conn = sqlite3.connect(copy)
    try:
        return [r[0] for r in conn.execute("SELECT body FROM notes ORDER BY id")]
    finally:
        conn.close()


def test_a_closed_library_is_whole_in_its_one_file(data_dir: Path, tmp_path: Path) -> None:
    with Library(data_dir, load_model=False) as lib:
        lib.add_note("一", "第一条 zqalone1")
        lib.add_note("二", "第二条 zqalone2")
        lib.search("zqalone1")  # this thread's read connections are open at close
        assert lib.drain(60)
    assert _notes_in_file_alone(data_dir / "library.sqlite", tmp_path / "copy") == [
        "第一条 zqalone1", "第二条 zqalone2"]
    _wal_is_empty(data_dir)


def _wal_is_empty(data_dir: Path) -> None:
    """Pages left in -wal would be replayed onto an older copy put back by hand."""
    wal = data_dir / "library.sqlite-wal"
    assert not wal.exists() or wal.stat().st_size == 0, wal.stat().st_size


def test_an_older_copy_put_back_by_hand_opens_as_itself(data_dir: Path, tmp_path: Path) -> None:
    """README: "to restore, put the copy back as library.sqlite with the app closed"."""
    with Library(data_dir, load_model=False) as lib:
        lib.add_note("旧", "before the copy zqalone4")
    kept = tmp_path / "kept.sqlite"
    shutil.copyfile(data_dir / "library.sqlite", kept)
    with Library(data_dir, load_model=False) as lib:
        for i in range(40):
            lib.add_note(f"新 {i}", f"after the copy zqalone5 {i} " + "字" * 400)
        lib.search("zqalone5")
    shutil.copyfile(kept, data_dir / "library.sqlite")
    (data_dir / "index.sqlite").unlink()
    with Library(data_dir, load_model=False) as lib:
        assert [n.body for n in lib.list_notes()] == ["before the copy zqalone4"]
        assert lib.store.execute("PRAGMA quick_check").fetchone()[0] == "ok"


def test_after_a_cli_command_the_file_alone_holds_the_note(data_dir: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir), "note", "add",
         "--title", "命令行", "--body", "written by the CLI zqalone3"],
        capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert done.returncode == 0, done.stderr
    assert _notes_in_file_alone(data_dir / "library.sqlite", tmp_path / "copy") == [
        "written by the CLI zqalone3"]
    _wal_is_empty(data_dir)
