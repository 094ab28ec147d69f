"""The upload log (I8): one row per HTTP request that left the machine.

The row is written before the request is sent (so a crash mid-request still
leaves a trace) and its outcome is filled in afterwards. It holds hashes of the
snippets, never their text, so the log itself leaks nothing new.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import time
from dataclasses import dataclass
from typing import Any

from desktop_kb.store.processes import process_running
from desktop_kb.store.tx import transaction

# While its request is in flight a row reads "sending <pid>@<host>"; a process killed (or a
# computer switched off) mid-request leaves it so, and it is listed as "interrupted" once
# that process is gone, instead of "sending" for ever.
SENDING = "sending"
INTERRUPTED = "interrupted"


@dataclass(frozen=True)
class Upload:
    id: int
    created_at: float
    session_id: int | None
    provider_host: str
    model: str
    bytes: int
    n_snippets: int
    sources: list[list[Any]]  # [source_type, source_id] per snippet
    snippet_hashes: list[str]
    verdicts: dict[str, int]  # {"sent": …, "redacted": …, "blocked": …}
    attempt: int
    outcome: str

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "time": self.created_at, "session_id": self.session_id,
                "provider_host": self.provider_host, "model": self.model, "bytes": self.bytes,
                "n_snippets": self.n_snippets, "sources": self.sources,
                "snippet_hashes": self.snippet_hashes, "verdicts": self.verdicts,
                "attempt": self.attempt, "outcome": self.outcome}


def log_upload(conn: sqlite3.Connection, *, session_id: int | None, provider_host: str, model: str,
               size: int, sources: list[tuple[str, int]], snippet_hashes: list[str],
               verdicts: dict[str, int], attempt: int = 1) -> int:
    with transaction(conn, "Writing the upload log"):
        cur = conn.execute(
            "INSERT INTO uploads(created_at, session_id, provider_host, model, bytes, n_snippets, sources, "
            "snippet_hashes, verdicts, attempt, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (time.time(), session_id, provider_host, model, size, len(snippet_hashes),
             json.dumps([list(s) for s in sources]), json.dumps(snippet_hashes),
             json.dumps(verdicts, sort_keys=True), attempt,
             f"{SENDING} {os.getpid()}@{socket.gethostname()}"))
    return int(cur.lastrowid or 0)


def set_outcome(conn: sqlite3.Connection, upload_id: int, outcome: str) -> None:
    with transaction(conn, "Writing the upload log"):
        conn.execute("UPDATE uploads SET outcome = ? WHERE id = ?", (outcome, upload_id))


def list_uploads(conn: sqlite3.Connection, limit: int | None = None) -> list[Upload]:
    rows = conn.execute(
        "SELECT id, created_at, session_id, provider_host, model, bytes, n_snippets, sources, "
        "snippet_hashes, verdicts, attempt, outcome FROM uploads ORDER BY id DESC LIMIT ?",
        (-1 if limit is None else limit,))
    return [Upload(r[0], r[1], r[2], r[3], r[4], r[5], r[6], json.loads(r[7]), json.loads(r[8]),
                   json.loads(r[9]), r[10], _shown_outcome(r[11])) for r in rows]


def _shown_outcome(stored: str) -> str:
    """"sending" while the process that sends is running (or cannot be checked), else
    "interrupted"; any finished outcome as stored."""
    if not stored.startswith(SENDING):
        return stored
    pid, _, host = stored[len(SENDING):].strip().partition("@")
    if not pid.isdigit():
        return SENDING  # written before the sender was recorded
    return INTERRUPTED if process_running(int(pid), host or None) is False else SENDING
