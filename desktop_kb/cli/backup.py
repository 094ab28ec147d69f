"""``desktop-kb backup list | create | restore``: the library's rolling backups (I13)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from desktop_kb.cli.common import CliError, add_common_options
from desktop_kb.cli.output import emit
from desktop_kb.paths import LibraryPaths, read_only_folder, resolve_data_dir
from desktop_kb.store.backup import Backup, BackupError, create_backup, list_backups
from desktop_kb.store.errors import READ_ONLY_LIBRARY_MESSAGE
from desktop_kb.text.sizes import human_size


def _line(b: Backup) -> str:
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(b.created_at))
    return f"{b.path.name}\t{when}\t{b.reason}\t{human_size(b.size, 'B')}"


def _find(paths: LibraryPaths, name: str) -> Path:
    """A backup by its file name (as listed), or a path to any backup file."""
    for b in list_backups(paths.store):
        if b.path.name == name:
            return b.path
    candidate = Path(name).expanduser()
    if candidate.is_file():
        return candidate
    raise CliError(f"No backup named {name!r}. `desktop-kb backup list` shows the backups.")


def cmd_backup(args: argparse.Namespace) -> int:
    paths = LibraryPaths(resolve_data_dir(args.data_dir))
    if args.backup_cmd != "list" and read_only_folder(paths.data_dir) and paths.store.exists():
        raise CliError(f"Nothing was {'backed up' if args.backup_cmd == 'create' else 'restored'}: "
                       f"{READ_ONLY_LIBRARY_MESSAGE}")
    try:
        if args.backup_cmd == "list":
            found = list_backups(paths.store)
            emit(args, {"backups": [b.as_json() for b in found]},
                  lambda: "\n".join(_line(b) for b in found) or "(no backups yet)")
        elif args.backup_cmd == "create":
            if not paths.store.exists():
                raise CliError(f"There is no library in {paths.data_dir} yet.")
            made = create_backup(paths.store, reason="manual")
            emit(args, made.as_json(), f"backed up to {made.path}")
        elif args.backup_cmd == "restore":
            from desktop_kb.store.restore import restore_backup

            source = _find(paths, args.name)
            safety = restore_backup(paths.store, source)
            emit(args, {"restored": str(source),
                        "previous_state": str(safety.path) if safety else None},
                 f"restored {source.name}; the library as it was is kept in {safety.path.name}"
                 if safety else f"restored {source.name} (there was no library file to keep)")
    except BackupError as exc:
        raise CliError(str(exc)) from exc
    return 0


def register(sub: Any) -> None:
    backup = sub.add_parser("backup", help="list, create and restore backups of the library")
    backup_sub = backup.add_subparsers(dest="backup_cmd", required=True)
    p = backup_sub.add_parser("list", help="the backups, newest first")
    add_common_options(p)
    p = backup_sub.add_parser("create", help="back the library up now")
    add_common_options(p)
    p = backup_sub.add_parser(
        "restore", help="replace the library with a backup (the current state is backed up first)")
    p.add_argument("name", help="a name from `backup list`, or the path of a backup file")
    add_common_options(p)
    backup.set_defaults(func=cmd_backup)
