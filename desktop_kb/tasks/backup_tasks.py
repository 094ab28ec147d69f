"""Backups from the window: list, create and restore off the GUI thread (``store.backup``)."""

from __future__ import annotations

from pathlib import Path

from desktop_kb.paths import LibraryPaths
from desktop_kb.store.backup import Backup, create_backup, list_backups
from desktop_kb.store.restore import restore_backup


def load(data_dir: Path) -> list[Backup]:
    return list_backups(LibraryPaths(data_dir).store)


def back_up_now(data_dir: Path) -> Backup:
    return create_backup(LibraryPaths(data_dir).store, reason="manual")


def restore(data_dir: Path, backup: Path) -> Backup | None:
    """Returns the copy kept of the library as it was, so the restore can be undone (None
    when the library file was missing)."""
    return restore_backup(LibraryPaths(data_dir).store, backup)
