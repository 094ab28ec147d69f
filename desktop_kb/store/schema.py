"""Store schema as forward-only migrations; ``PRAGMA user_version`` records the step reached."""

from __future__ import annotations

_V1 = [
    """CREATE TABLE notes(
        id INTEGER PRIMARY KEY,
        title TEXT NOT NULL DEFAULT '',
        body TEXT NOT NULL DEFAULT '',
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        local_only INTEGER NOT NULL DEFAULT 0,
        trashed_at REAL
    )""",
    "CREATE INDEX notes_updated ON notes(updated_at)",
    """CREATE TABLE documents(
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,
        format TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        title TEXT NOT NULL,
        imported_at REAL NOT NULL,
        local_only INTEGER NOT NULL DEFAULT 0
    )""",
    """CREATE TABLE fragments(
        id INTEGER PRIMARY KEY,
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        ord INTEGER NOT NULL,
        heading_path TEXT NOT NULL DEFAULT '',
        text TEXT NOT NULL,
        start INTEGER NOT NULL,
        end INTEGER NOT NULL
    )""",
    "CREATE INDEX fragments_document ON fragments(document_id, ord)",
    """CREATE TABLE links(
        id INTEGER PRIMARY KEY,
        note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
        target_type TEXT NOT NULL CHECK (target_type IN ('note', 'fragment')),
        target_id INTEGER NOT NULL,
        origin TEXT NOT NULL CHECK (origin IN ('manual', 'suggestion')),
        created_at REAL NOT NULL,
        UNIQUE(note_id, target_type, target_id)
    )""",
    "CREATE INDEX links_target ON links(target_type, target_id)",
    """CREATE TABLE dismissed_suggestions(
        note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
        target_type TEXT NOT NULL CHECK (target_type IN ('note', 'fragment')),
        target_id INTEGER NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY(note_id, target_type, target_id)
    )""",
    # Links and dismissals point at targets by (type, id); a deleted target takes
    # them along so nothing dangles.
    """CREATE TRIGGER notes_target_gone AFTER DELETE ON notes BEGIN
        DELETE FROM links WHERE target_type = 'note' AND target_id = old.id;
        DELETE FROM dismissed_suggestions WHERE target_type = 'note' AND target_id = old.id;
    END""",
    """CREATE TRIGGER fragments_target_gone AFTER DELETE ON fragments BEGIN
        DELETE FROM links WHERE target_type = 'fragment' AND target_id = old.id;
        DELETE FROM dismissed_suggestions WHERE target_type = 'fragment' AND target_id = old.id;
    END""",
    "CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT NOT NULL)",
]

# v2: QA chats and the upload log (I8: every request that left the machine).
_V2 = [
    """CREATE TABLE chat_sessions(
        id INTEGER PRIMARY KEY,
        title TEXT NOT NULL DEFAULT '',
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        approved_host TEXT
    )""",
    """CREATE TABLE chat_messages(
        id INTEGER PRIMARY KEY,
        session_id INTEGER NOT NULL REFERENCES chat_sessions(id) ON DELETE CASCADE,
        role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
        content TEXT NOT NULL,
        meta TEXT NOT NULL DEFAULT '{}',
        created_at REAL NOT NULL
    )""",
    "CREATE INDEX chat_messages_session ON chat_messages(session_id, id)",
    """CREATE TABLE uploads(
        id INTEGER PRIMARY KEY,
        created_at REAL NOT NULL,
        session_id INTEGER,
        provider_host TEXT NOT NULL,
        model TEXT NOT NULL DEFAULT '',
        bytes INTEGER NOT NULL,
        n_snippets INTEGER NOT NULL,
        sources TEXT NOT NULL,
        snippet_hashes TEXT NOT NULL,
        verdicts TEXT NOT NULL,
        attempt INTEGER NOT NULL DEFAULT 1,
        outcome TEXT NOT NULL DEFAULT 'sent'
    )""",
    "CREATE INDEX uploads_time ON uploads(created_at)",
]

MIGRATIONS: dict[int, list[str]] = {1: _V1, 2: _V2}
SCHEMA_VERSION = max(MIGRATIONS)
