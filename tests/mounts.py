"""Small real file systems for tests: a full disk and a read-only data folder.

Needs permission to mount (root in CI containers). Root ignores file
permissions, so ``chmod`` cannot make a folder read-only for these tests; a
read-only mount can. A test that mounts, run by anyone else, runs in a pytest of
its own inside a user and mount namespace (``unshare --map-root-user --mount``,
see ``run_in_namespace``), where it may mount; only where neither is permitted
are the tests that need it skipped with the reason.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

# Set in the pytest started inside the namespace: there the test runs in place.
IN_NAMESPACE = "DESKTOP_KB_TEST_IN_MOUNT_NAMESPACE"
NAMES = frozenset({"mounts", "tmpfs", "remount"})


def _names(code: types.CodeType) -> set[str]:
    found = set(code.co_names) | set(code.co_varnames)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            found |= _names(const)
    return found


def needs_namespace(function: object) -> bool:
    """Whether a test that mounts (it names ``tmpfs``/``remount``) must run in a namespace:
    this process may not mount (not root) and is not in one already."""
    code = getattr(function, "__code__", None)
    if code is None or not NAMES & _names(code):
        return False
    return os.geteuid() != 0 and not os.environ.get(IN_NAMESPACE) and shutil.which("unshare") is not None


@functools.cache
def namespace_refused() -> str:
    """Why this kernel will not give this user a user and mount namespace ('' when it will):
    user namespaces switched off (``user.max_user_namespaces`` 0, a container that forbids
    them, AppArmor's ``restrict_unprivileged_userns``)."""
    try:
        done = subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "--", "true"],
                              capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as exc:
        return str(exc)
    return "" if done.returncode == 0 else (done.stderr.strip() or f"unshare exit {done.returncode}")


def run_in_namespace(nodeid: str, rootdir: Path, basetemp: Path) -> None:
    """Run one test in its own pytest as root of a new user and mount namespace, and pass,
    fail or skip as it did; skip when the kernel refuses this user such a namespace."""
    refused = namespace_refused()
    if refused:
        pytest.skip(f"needs to mount a file system: not root, and no user namespace here ({refused})")
    done = subprocess.run(
        ["unshare", "--user", "--map-root-user", "--mount", "--", sys.executable, "-m", "pytest",
         "-q", "-rs", "-p", "no:cacheprovider", f"--basetemp={basetemp}", nodeid],
        cwd=rootdir, env=dict(os.environ, **{IN_NAMESPACE: "1"}), capture_output=True, text=True,
        timeout=1800)
    said = done.stdout + done.stderr
    if done.returncode == 0 and " passed" in said:
        return
    if done.returncode == 0 and " skipped" in said:
        pytest.skip(f"in a user and mount namespace: {said.strip().splitlines()[-2:]}")
    pytest.fail(f"in a user and mount namespace (exit {done.returncode}):\n{said[-6000:]}", pytrace=False)


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
    # With its source named, mount(8) passes no options of its own: without it, it repeated
    # the file system's 'uid=1001,gid=1001', which a user namespace cannot map (EINVAL).
    done = _run("mount", "-o", f"remount,{'ro' if read_only else 'rw'}", "tmpfs", str(path))
    if done.returncode != 0:
        pytest.skip(f"cannot remount {path}: {done.stderr.strip()}")
