"""Streamed copies and hashes with progress, so a large model never sits in memory."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import IO

ProgressCallback = Callable[[str, int, int], None]
"""``progress(stage, done, total)``. Raising from it aborts the work (the way to cancel)."""

CHUNK = 1 << 20


def report(progress: ProgressCallback | None, stage: str, done: int, total: int) -> None:
    if progress is not None:
        progress(stage, done, total)


def copy_hashing(
    src: IO[bytes], dest: Path, total: int, stage: str, progress: ProgressCallback | None
) -> str:
    """Stream ``src`` to ``dest`` (fsynced) and return its sha256."""
    digest = hashlib.sha256()
    done = 0
    report(progress, stage, 0, total)
    with dest.open("wb") as out:
        while chunk := src.read(CHUNK):
            digest.update(chunk)
            out.write(chunk)
            done += len(chunk)
            report(progress, stage, done, total)
        out.flush()
        os.fsync(out.fileno())
    return digest.hexdigest()


def hash_file(path: Path, stage: str, progress: ProgressCallback | None) -> str:
    digest = hashlib.sha256()
    total = path.stat().st_size
    done = 0
    report(progress, stage, 0, total)
    with path.open("rb") as src:
        while chunk := src.read(CHUNK):
            digest.update(chunk)
            done += len(chunk)
            report(progress, stage, done, total)
    return digest.hexdigest()
