"""A library folder whose path is too long for SQLite says so, instead of 'check that it exists'.

SQLite opens a database only by a path of at most 504 bytes; a Chinese character takes 3, so
a library kept five folders deep under long Chinese names (~170 characters) could not be
opened, and the reason given was 'The library file could not be opened. Check that the data
folder exists and is writable.' — it existed and was writable. A library a little higher up
opened, but every backup of it failed the same way (its names are longer).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from desktop_kb.library import Library
from desktop_kb.store.backup import BackupError, create_backup
from desktop_kb.store.errors import PATH_TOO_LONG_MESSAGE, SQLITE_PATH_BYTES

TIMEOUT = 120
NAME = "关于所有权与借用检查器的学习资料"  # 16 characters, 48 bytes


def _folder_of(base: Path, total_bytes: int) -> Path:
    """A folder under ``base`` whose path is ``total_bytes`` long (in UTF-8), in Chinese names."""
    folder = base
    while len(os.fsencode(folder)) + 1 + len(NAME.encode()) * 4 < total_bytes:
        folder /= NAME * 4
    rest = total_bytes - len(os.fsencode(folder)) - 1
    folder /= NAME * (rest // 48) + "x" * (rest % 48)
    assert len(os.fsencode(folder)) == total_bytes
    folder.mkdir(parents=True)
    return folder


def test_a_library_too_deep_for_sqlite_says_its_path_is_too_long(tmp_path: Path) -> None:
    data_dir = _folder_of(tmp_path, SQLITE_PATH_BYTES)
    done = subprocess.run([sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir),
                           "note", "add", "--title", "t", "--body", "b"],
                          capture_output=True, text=True, encoding="utf-8", timeout=TIMEOUT)
    assert done.returncode == 1
    assert PATH_TOO_LONG_MESSAGE in done.stderr and "exists and is writable" not in done.stderr
    assert done.stderr.count("\n") == 1  # one line


def test_a_library_whose_backups_are_too_deep_says_so_when_backing_up(tmp_path: Path) -> None:
    data_dir = _folder_of(tmp_path, SQLITE_PATH_BYTES - 40)  # library.sqlite fits, backups do not
    with Library(data_dir, load_model=False) as lib:
        lib.add_note("t", "b")
    try:
        create_backup(data_dir / "library.sqlite")
    except BackupError as exc:
        assert PATH_TOO_LONG_MESSAGE in str(exc), exc
    else:
        raise AssertionError("the backup was made")
    assert not any((data_dir / "backups").iterdir())  # nothing half made left


def test_the_long_path_is_said_in_chinese(qtbot) -> None:  # type: ignore[no-untyped-def]
    from desktop_kb.ui import i18n
    from desktop_kb.ui.env_messages import localize

    i18n.install_language("zh_CN")
    try:
        shown = localize(f"Cannot open the library at /x: {PATH_TOO_LONG_MESSAGE} (unable to open)")
        assert "路径太长" in shown and "too long" not in shown, shown
    finally:
        i18n.install_language("en")
