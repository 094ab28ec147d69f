"""QA chat sessions and their messages; a message's metadata is one JSON object.

The metadata holds what makes an answer checkable later: citations (n, source,
span, title, snippet), gate verdicts, hashes of the snippets sent, provider,
timings. ``approved_host`` (schema v2) is no longer written or read: "send for
this session" lives in the running app's memory only (desktop_kb.qa.approvals),
so no other process can inherit an approval.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass, field
from typing import Any

from desktop_kb.store.tx import transaction


class SessionNotFound(LookupError):
    def __init__(self, session_id: int) -> None:
        super().__init__(f"No chat session with id {session_id}.")
        self.session_id = session_id


@dataclass(frozen=True)
class ChatSession:
    id: int
    title: str
    created_at: float
    updated_at: float
    approved_host: str | None


@dataclass(frozen=True)
class ChatMessage:
    id: int
    session_id: int
    role: str
    content: str
    created_at: float
    meta: dict[str, Any] = field(default_factory=dict)


def create_session(conn: sqlite3.Connection, title: str = "") -> int:
    now = time.time()
    with transaction(conn):
        cur = conn.execute(
            "INSERT INTO chat_sessions(title, created_at, updated_at) VALUES (?, ?, ?)", (title, now, now))
    return int(cur.lastrowid or 0)


def _session(row: sqlite3.Row) -> ChatSession:
    return ChatSession(row[0], row[1], row[2], row[3], row[4])


def get_session(conn: sqlite3.Connection, session_id: int) -> ChatSession:
    row = conn.execute("SELECT id, title, created_at, updated_at, approved_host FROM chat_sessions "
                       "WHERE id = ?", (session_id,)).fetchone()
    if row is None:
        raise SessionNotFound(session_id)
    return _session(row)


def list_sessions(conn: sqlite3.Connection) -> list[ChatSession]:
    rows = conn.execute("SELECT id, title, created_at, updated_at, approved_host FROM chat_sessions "
                        "ORDER BY updated_at DESC, id DESC")
    return [_session(r) for r in rows]


def rename_session(conn: sqlite3.Connection, session_id: int, title: str) -> None:
    with transaction(conn):
        cur = conn.execute("UPDATE chat_sessions SET title = ? WHERE id = ?", (title, session_id))
    if cur.rowcount == 0:
        raise SessionNotFound(session_id)


def delete_session(conn: sqlite3.Connection, session_id: int) -> None:
    with transaction(conn):
        cur = conn.execute("DELETE FROM chat_sessions WHERE id = ?", (session_id,))
    if cur.rowcount == 0:
        raise SessionNotFound(session_id)


def add_message(conn: sqlite3.Connection, session_id: int, role: str, content: str,
                meta: dict[str, Any] | None = None) -> int:
    now = time.time()
    with transaction(conn):
        if conn.execute("SELECT 1 FROM chat_sessions WHERE id = ?", (session_id,)).fetchone() is None:
            raise SessionNotFound(session_id)
        cur = conn.execute(
            "INSERT INTO chat_messages(session_id, role, content, meta, created_at) VALUES (?, ?, ?, ?, ?)",
            (session_id, role, content, json.dumps(meta or {}, ensure_ascii=False), now))
        conn.execute("UPDATE chat_sessions SET updated_at = ? WHERE id = ?", (now, session_id))
    return int(cur.lastrowid or 0)


def list_messages(conn: sqlite3.Connection, session_id: int) -> list[ChatMessage]:
    rows = conn.execute("SELECT id, session_id, role, content, created_at, meta FROM chat_messages "
                        "WHERE session_id = ? ORDER BY id", (session_id,))
    return [ChatMessage(r[0], r[1], r[2], r[3], r[4], json.loads(r[5])) for r in rows]
