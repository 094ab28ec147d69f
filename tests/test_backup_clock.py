"""Backups when the system clock goes backwards (a flat RTC battery, a wrong time zone fixed,
a dual boot that keeps local time).

The seven backups kept were the seven with the latest time in their names. After the clock
went back, those were the ones made while it was ahead: a new backup was the "oldest" and
was deleted as it was made (and ``create_backup`` then failed on the file it had just
deleted), and the daily backup stopped until the clock caught up again. The clock is the
one thing a test cannot set for real on a shared machine, so it is patched here.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from desktop_kb.library import Library
from desktop_kb.store import backup as backups
from desktop_kb.store.backup import KEEP, backup_due, create_backup, list_backups

YEAR_S = 365 * 24 * 3600


@pytest.fixture
def store(data_dir: Path) -> Path:
    with Library(data_dir, load_model=False) as lib:
        lib.add_note("时钟", "clock zqclock")
    return data_dir / "library.sqlite"


def _made_while_the_clock_was_ahead(store: Path, monkeypatch: pytest.MonkeyPatch,
                                    count: int) -> list[Path]:
    real = time.time
    made: list[Path] = []
    for day in range(count):
        monkeypatch.setattr(time, "time", lambda day=day: real() + YEAR_S + day * 86400)
        made.append(create_backup(store, reason="auto").path)
    monkeypatch.setattr(time, "time", real)
    return made


def test_a_backup_made_after_the_clock_went_back_is_kept_and_listed_first(
        store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ahead = _made_while_the_clock_was_ahead(store, monkeypatch, KEEP)
    made = create_backup(store, reason="manual")
    assert made.path.exists()
    listed = list_backups(store)
    assert [b.path for b in listed] == [made.path, *reversed(ahead[1:])]
    assert not ahead[0].exists()  # the first one made goes, not the one just made


def test_the_daily_backup_goes_on_after_the_clock_went_back(
        store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _made_while_the_clock_was_ahead(store, monkeypatch, 2)
    assert backup_due(store)  # the newest is "from the future": its age says nothing
    with Library(store.parent, load_model=False) as lib:
        made = lib.daily_upkeep()
    assert made is not None and made.path.exists()
    assert not backup_due(store)  # one made now is a day's backup like any other


def test_backups_named_before_the_order_was_kept_sort_below_new_ones(store: Path) -> None:
    """Names without the making order (older versions) are older than any with it."""
    old = backups.backups_dir(store) / "library-20991231T235959000Z-auto.sqlite"
    first = create_backup(store, reason="manual")
    old.write_bytes(first.path.read_bytes())
    second = create_backup(store, reason="manual")
    assert [b.path for b in list_backups(store)] == [second.path, first.path, old]


def test_the_daily_backup_does_not_take_the_room_the_notes_need(tmp_path: Path) -> None:
    """On a nearly full disk the daily backup (a copy of the whole library) took the last free
    space, and the next save of a note failed with "the disk is full": a backup made the
    library unusable. It is skipped, saying why, when it would leave less free space than the
    library itself takes."""
    from mounts import tmpfs

    from desktop_kb.store.backup import BackupError

    with tmpfs(tmp_path / "disk", 65536) as disk:
        data_dir = disk / "library"
        with Library(data_dir, load_model=False) as lib:
            for i in range(60):
                lib.add_note(f"笔记 {i}", f"正文 zqroom{i} " + "字" * 12000)
        size = (data_dir / "library.sqlite").stat().st_size
        import shutil

        free = shutil.disk_usage(disk).free
        assert free > size * 2
        # Leave room for one backup and a half.
        (disk / "filler").write_bytes(b"\0" * (free - int(size * 1.5)))
        with Library(data_dir, load_model=False) as lib:
            with pytest.raises(BackupError) as skipped:
                lib.daily_upkeep()
            assert "skipped" in str(skipped.value), skipped.value
            assert list_backups(lib.paths.store) == []
            lib.add_note("之后", "saved after the skipped backup zqroom " + "字" * (size // 16))
