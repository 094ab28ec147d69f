"""Settings: JSON values by key, stored in the library so they travel with it."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from desktop_kb.store.tx import transaction

# Defaults live here so CLI and GUI agree; unknown keys are allowed for forward compatibility.
DEFAULTS: dict[str, Any] = {
    "import.formats": ["md", "txt", "yaml", "json", "py", "pdf", "docx", "epub", "html", "code"],
    "embed.model": None,
    "embed.threads": 2,
    "discovery.enabled": True,
    "qa.cloud_enabled": False,
    "qa.sensitive": "block",
    "qa.budget_chars": 1200,
    "qa.max_question_chars": 2000,
    "qa.max_answer_tokens": 1024,
    "qa.provider.base_url": None,
    "qa.provider.model": None,
    "qa.timeout.connect_s": 10,
    "qa.timeout.read_s": 60,
    "ui.language": None,
}


def get_setting(conn: sqlite3.Connection, key: str) -> Any:
    row = conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
    if row is None:
        return DEFAULTS.get(key)
    return json.loads(row[0])


def set_setting(conn: sqlite3.Connection, key: str, value: Any) -> None:
    with transaction(conn):
        conn.execute(
            "INSERT INTO settings(key, value) VALUES (?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, json.dumps(value, ensure_ascii=False)),
        )


def all_settings(conn: sqlite3.Connection) -> dict[str, Any]:
    values = dict(DEFAULTS)
    for key, value in conn.execute("SELECT key, value FROM settings ORDER BY key"):
        values[key] = json.loads(value)
    return values
