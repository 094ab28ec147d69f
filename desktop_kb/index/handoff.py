"""Handing index jobs to the process that owns the index writer (I12: never two writers).

A process without the writer lock that is asked to rebuild or verify (the CLI
while the app is open) writes a request file; the owner picks it up, runs it
and writes the result next to it. Files are written under a temporary name and
renamed, so a reader never sees half of one. A request is claimed by renaming
it, so two owners in a row never run it twice; when the owner dies mid-job, the
next owner finds the claimed file (its runner cannot be alive: the lock was
free) and runs it again. Whoever owns the lock serves requests, including the
requester itself once it takes the lock over.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from desktop_kb.whole_file import write_whole

REQUESTS_DIR = "index-requests"
_REQUEST = ".request.json"
_RUNNING = ".running.json"
_RESULT = ".result.json"
STALE_RESULT_S = 24 * 3600


@dataclass(frozen=True)
class Request:
    id: str
    kind: str  # "rebuild" | "verify"
    params: dict[str, Any]
    pid: int


def _write_atomic(path: Path, payload: dict[str, Any]) -> None:
    write_whole(path, json.dumps(payload, ensure_ascii=False))


def submit(folder: Path, kind: str, **params: Any) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    request_id = uuid.uuid4().hex
    _write_atomic(folder / f"{request_id}{_REQUEST}",
                  {"id": request_id, "kind": kind, "params": params, "pid": os.getpid(),
                   "created_at": time.time()})
    return request_id


def _read(path: Path) -> Request | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Request(str(data["id"]), str(data["kind"]), dict(data.get("params") or {}),
                       int(data.get("pid", 0)))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def pending(folder: Path) -> list[Path]:
    """Unclaimed request files, oldest first (cheap when there are none: one listdir)."""
    try:
        names = [n for n in os.listdir(folder) if n.endswith(_REQUEST) and not n.startswith(".")]
    except FileNotFoundError:
        return []
    paths = [folder / n for n in names]
    with contextlib.suppress(OSError):
        paths.sort(key=lambda p: p.stat().st_mtime)
    return paths


def claim(path: Path, kinds: tuple[str, ...] | None = None) -> Request | None:
    """Take a request (rename it to running); None if another owner took it or it is unreadable,
    or, with ``kinds``, when it asks for another kind of job (left for later)."""
    if kinds is not None:
        asked = _read(path)
        if asked is None or asked.kind not in kinds:
            return None
    running = path.with_name(path.name[: -len(_REQUEST)] + _RUNNING)
    try:
        os.replace(path, running)
    except FileNotFoundError:
        return None
    request = _read(running)
    if request is None:
        with contextlib.suppress(OSError):
            running.unlink()
    return request


def release(folder: Path, request: Request) -> None:
    """Put a claimed request back, for the next run (or the next owner) to serve."""
    with contextlib.suppress(FileNotFoundError):
        os.replace(folder / f"{request.id}{_RUNNING}", folder / f"{request.id}{_REQUEST}")


def finish(folder: Path, request: Request, ok: bool, payload: Any) -> None:
    _write_atomic(folder / f"{request.id}{_RESULT}", {"ok": ok, "payload": payload})
    with contextlib.suppress(FileNotFoundError):
        (folder / f"{request.id}{_RUNNING}").unlink()


def result(folder: Path, request_id: str) -> dict[str, Any] | None:
    """The result once it exists (and removes it: each result is read once)."""
    path = folder / f"{request_id}{_RESULT}"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return None  # being replaced right now; read again on the next poll
    with contextlib.suppress(OSError):
        path.unlink()
    return dict(data)


def withdraw(folder: Path, request_id: str) -> None:
    """The requester gave up (interrupted): an unclaimed request is not run."""
    for suffix in (_REQUEST, _RESULT):
        with contextlib.suppress(OSError):
            (folder / f"{request_id}{suffix}").unlink()


def recover_after_owner_change(folder: Path) -> None:
    """On taking the lock: requests the previous owner claimed but never finished are
    put back, and results nobody collected for a day are dropped."""
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return
    now = time.time()
    for name in names:
        path = folder / name
        if name.endswith(_RUNNING):
            with contextlib.suppress(OSError):
                os.replace(path, folder / (name[: -len(_RUNNING)] + _REQUEST))
        elif name.endswith(_RESULT) or name.endswith(".tmp"):
            with contextlib.suppress(OSError):
                if now - path.stat().st_mtime > STALE_RESULT_S:
                    path.unlink()
