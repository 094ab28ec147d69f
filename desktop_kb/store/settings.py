"""Settings: JSON values by key, stored in the library so they travel with it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from desktop_kb.store.tx import transaction

UI_LANGUAGES = ("en", "zh_CN")  # the translations shipped (ui/i18n.py installs them)

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


def read_stored_setting(store: Path, key: str) -> Any:
    """One setting read straight from the library file, read-only, without opening the library.

    The window needs its language before the library opens (on a worker); the default comes
    back when the file is missing, busy or too old to have the setting.
    """
    if not store.is_file():
        return DEFAULTS.get(key)
    try:
        conn = sqlite3.connect(f"{store.resolve().as_uri()}?mode=ro", uri=True, timeout=0.5)
        try:
            return get_setting(conn, key)
        finally:
            conn.close()
    except (sqlite3.Error, ValueError):
        return DEFAULTS.get(key)


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
