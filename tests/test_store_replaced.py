"""A sync client (Dropbox, OneDrive, Syncthing) puts another device's copy of
``library.sqlite`` in place while the library is open here: it writes
``.syncthing.library.sqlite.tmp`` and renames it over the file.

The open write connection went on saving into the old file, which nobody sees
again: a note saved after the swap was reported saved and was gone on the next
start. And ``-wal`` is found by name, so the old file's pages in it were read
(and checkpointed) as pages of the new file by the next process to open it: the
other device's notes were replaced by this one's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_kb.library import Library
from desktop_kb.store.errors import REPLACED_LIBRARY_MESSAGE, LibraryReplacedError, StoreError


def _other_device(tmp_path: Path) -> Path:
    """The copy another computer wrote: its own notes, closed cleanly (one file)."""
    folder = tmp_path / "other-device"
    with Library(folder, load_model=False) as other:
        other.add_note("别处写的", "written on the laptop zqlaptop")
    return folder / "library.sqlite"


def _sync_in(copy: Path, data_dir: Path) -> None:
    """What Syncthing does: a hidden temporary file beside the target, renamed over it."""
    tmp = data_dir / ".syncthing.library.sqlite.tmp"
    tmp.write_bytes(copy.read_bytes())
    os.replace(tmp, data_dir / "library.sqlite")


def _note_titles(data_dir: Path) -> list[str]:
    done = subprocess.run([sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir),
                           "note", "list", "--json"],
                          capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    notes = payload["notes"] if isinstance(payload, dict) else payload
    return sorted(n["title"] for n in notes)


def test_a_save_after_the_file_was_replaced_is_refused_and_the_new_file_stays_whole(
        tmp_path: Path) -> None:
    data_dir = tmp_path / "library"
    copy = _other_device(tmp_path)
    lib = Library(data_dir, load_model=False)
    try:
        for i in range(5):  # pages of this file in -wal (no checkpoint yet)
            lib.add_note(f"本机 {i}", f"written here zqhere{i}")
        _sync_in(copy, data_dir)
        with pytest.raises(LibraryReplacedError) as refused:
            lib.add_note("交换之后", "saved after the swap zqafter")
        assert isinstance(refused.value, StoreError)  # shown like a full disk: text kept, retried
        assert REPLACED_LIBRARY_MESSAGE in str(refused.value)
        # Another process opening the folder now reads the file that is there, not this
        # file's pages out of -wal.
        assert _note_titles(data_dir) == ["别处写的"]
    finally:
        lib.close()
    assert _note_titles(data_dir) == ["别处写的"]
    with Library(data_dir, load_model=False) as again:
        assert [n.title for n in again.list_notes()] == ["别处写的"]
        assert again.add_note("再次打开", "the library opened again takes saves zqagain")


def test_a_reader_holding_an_older_snapshot_does_not_leave_old_pages_for_the_new_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """CI failed once: right after the refused save another process read this file's notes out of
    -wal as the new file's. The index worker held a snapshot older than the last saves, so the one
    checkpoint stopped short of them and gave up after the busy timeout on a loaded machine."""
    import sqlite3
    import threading
    import time
    import types

    from desktop_kb.store import connection, tx

    # One checkpoint try gives up after the busy timeout: shorter here, so the reader can hold
    # past it without the test waiting 6 s.
    monkeypatch.setattr(connection, "BUSY_TIMEOUT_MS", 300)
    gave_up = threading.Event()  # a checkpoint try stopped short of the reader's snapshot
    monkeypatch.setattr(tx, "time", types.SimpleNamespace(
        monotonic=time.monotonic, sleep=lambda s: (gave_up.set(), time.sleep(s))))
    data_dir = tmp_path / "library"
    copy = _other_device(tmp_path)
    lib = Library(data_dir, load_model=False)
    reader = sqlite3.connect(data_dir / "library.sqlite", check_same_thread=False)
    try:
        for i in range(3):
            lib.add_note(f"本机 {i}", f"written here zqhere{i}")
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM notes").fetchone()  # a snapshot before the last saves
        for i in range(3, 6):
            lib.add_note(f"本机 {i}", f"written here zqhere{i}")
        _sync_in(copy, data_dir)
        # The reader lets go once a try has given up (a timer of busy timeout + 1 s could end
        # before the first try did, under load, and test nothing).
        release = threading.Thread(target=lambda: (gave_up.wait(60), reader.rollback()))
        release.start()
        with pytest.raises(LibraryReplacedError):
            lib.add_note("交换之后", "saved after the swap zqafter")
        release.join()
        assert gave_up.is_set()
        assert _note_titles(data_dir) == ["别处写的"]
    finally:
        reader.close()
        lib.close()
