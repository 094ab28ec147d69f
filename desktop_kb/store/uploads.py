"""The upload log (I8): one row per HTTP request that left the machine.

The row is written before the request is sent (so a crash mid-request still
leaves a trace) and its outcome is filled in afterwards. It holds hashes of the
snippets, never their text, so the log itself leaks nothing new.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from typing import Any

from desktop_kb.store.tx import transaction


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
            "snippet_hashes, verdicts, attempt, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'sending')",
            (time.time(), session_id, provider_host, model, size, len(snippet_hashes),
             json.dumps([list(s) for s in sources]), json.dumps(snippet_hashes),
             json.dumps(verdicts, sort_keys=True), attempt))
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
                   json.loads(r[9]), r[10], r[11]) for r in rows]
