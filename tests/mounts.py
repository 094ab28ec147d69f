"""Small real file systems for tests: a full disk and a read-only data folder.

Needs permission to mount (root in CI containers). Root ignores file
permissions, so ``chmod`` cannot make a folder read-only for these tests; a
read-only mount can. Where mounting is not permitted the tests that need it
are skipped with the reason.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), capture_output=True, text=True, timeout=30)


@contextmanager
def tmpfs(path: Path, size_kb: int) -> Iterator[Path]:
    path.mkdir(parents=True, exist_ok=True)
    try:
        done = _run("mount", "-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs", str(path))
    except (OSError, subprocess.SubprocessError) as exc:
        pytest.skip(f"cannot mount a tmpfs here: {exc}")
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield path
    finally:
        _run("umount", "-l", str(path))


def remount(path: Path, *, read_only: bool) -> None:
    done = _run("mount", "-o", f"remount,{'ro' if read_only else 'rw'}", str(path))
    if done.returncode != 0:
        pytest.skip(f"cannot remount {path}: {done.stderr.strip()}")
