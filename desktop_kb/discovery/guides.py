"""The app's own welcome note, told apart from the person's notes while it is as the app wrote it.

The welcome note is about the app (Ctrl+K, 搜索, 状态栏, 标签, 文件…), so it shares a word or
two with almost any note of a new library: among twenty notes of one's own it was suggested
beside five (停止 and Ctrl beside Docker commands, 搜索 and Ctrl beside Vim keys, 状态 beside
HTTP status codes) and, beside it, the person's notes for the same words. Until the person
edits it, it is neither suggested nor given suggestions; once edited it is theirs like any other.

The window records which note it wrote and a fingerprint of its text (``ui.welcome_note``);
discovery reads that setting and never the UI's translations (no Qt here).
"""

from __future__ import annotations

import hashlib
import sqlite3

from desktop_kb.store.settings import get_setting

SETTING = "ui.welcome_note"


def fingerprint(title: str, body: str) -> str:
    return hashlib.sha256(f"{title}\n\0{body}".encode()).hexdigest()


def welcome_record(note_id: int, title: str, body: str) -> dict[str, object]:
    """The setting's value: the window wrote ``note_id`` as the welcome note with this text."""
    return {"id": note_id, "text": fingerprint(title, body)}


def untouched_welcome(store: sqlite3.Connection) -> int | None:
    """The welcome note's id while it is live and as the app wrote it, else None."""
    recorded = get_setting(store, SETTING)
    if not isinstance(recorded, dict) or not isinstance(recorded.get("id"), int):
        return None
    row = store.execute("SELECT title, body FROM notes WHERE id = ? AND trashed_at IS NULL",
                        (recorded["id"],)).fetchone()
    if row is None or fingerprint(row[0], row[1]) != recorded.get("text"):
        return None
    return int(recorded["id"])


def find_welcome(store: sqlite3.Connection, title: str, body: str) -> int | None:
    """A note that is exactly the welcome note (a library whose window wrote it before the
    setting existed): the oldest with this title and text."""
    row = store.execute("SELECT id FROM notes WHERE title = ? AND body = ? ORDER BY id LIMIT 1",
                        (title, body)).fetchone()
    return None if row is None else int(row[0])
