"""Small files written whole or not at all: under a temporary name beside the real one, then
renamed over it, so a reader never sees half of one.

A write the disk refuses (full, read-only) leaves no temporary file behind; one left by a
process killed mid-write is swept by the next process that owns the data folder's index.
Temporary names carry the writer's process id, and readers only ever open the real names.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from pathlib import Path

# ".NAME.<pid>.tmp" (this module), "index.vectors.tmp-<pid>" (index/vector_file.py) and
# the fixed ".index-error.json.tmp" older versions wrote.
_TEMPORARY = re.compile(r"^(?:\..+\.(\d+)\.tmp|index\.vectors\.tmp-(\d+)|\.index-error\.json\.tmp)$")
# A file whose writer cannot be asked (another computer) and that was not touched for this
# long is not being written.
STALE_AFTER_S = 3600.0


def temporary_name(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def write_whole(path: Path, text: str | bytes, *, durable: bool = False) -> None:
    """Replace ``path`` with ``text`` (UTF-8) or with bytes the caller encoded (JSON holding
    lone surrogates, say); ``durable`` also waits for the disk (fsync)."""
    tmp = temporary_name(path)
    data = text.encode("utf-8") if isinstance(text, str) else text
    try:
        with tmp.open("wb") as handle:
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def sweep(folder: Path, names: re.Pattern[str] = _TEMPORARY) -> list[Path]:
    """Remove the temporary files in ``folder`` whose writer is gone; returns them. ``names``
    matches a temporary file's name, its writer's process id in group 1 or 2 (if any)."""
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        match = names.match(entry.name)
        if match is None or not entry.is_file(follow_symlinks=False):
            continue
        pid = match.group(1) or match.group(2)
        if being_written(Path(entry.path), int(pid) if pid else None):
            continue
        with contextlib.suppress(OSError):
            os.unlink(entry.path)
            removed.append(Path(entry.path))
    return removed


def being_written(path: Path, pid: int | None) -> bool:
    """Whether the process that writes ``path`` may still be at it: it is alive (POSIX) or,
    where that cannot be asked (no id, another computer), the file was touched within the hour."""
    from desktop_kb.store.processes import process_running  # the store package imports this module

    running = process_running(pid) if pid is not None else None
    if running is not None:
        return running
    try:
        return time.time() - path.stat().st_mtime < STALE_AFTER_S
    except OSError:
        return False
