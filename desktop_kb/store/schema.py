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

# v3: the change feed (I12). Every insert or update of a note or fragment takes
# the next number from feed_state.seq inside the writing transaction; every
# deletion leaves a tombstone with its number. SQLite has one writer at a time,
# so numbers are handed out in commit order and a reader always sees a prefix
# of the feed. Triggers (not application code) do the numbering, so no writer
# (app, CLI, a script, code written later) can change indexable content unseen.
# A no-op ``UPDATE … SET change_seq = change_seq`` is how the store asks for a
# source to be indexed again ("touch").
_NOW = "(julianday('now') - 2440587.5) * 86400.0"
_NEXT = "UPDATE feed_state SET seq = seq + 1 WHERE id = 1"
_SEQ = "(SELECT seq FROM feed_state WHERE id = 1)"


def _feed_triggers(table: str, source_type: str) -> list[str]:
    return [
        f"""CREATE TRIGGER {table}_feed_insert AFTER INSERT ON {table} BEGIN
            {_NEXT};
            UPDATE {table} SET change_seq = {_SEQ} WHERE id = new.id;
        END""",
        # The WHEN clause keeps the numbering statement itself from counting as a change.
        f"""CREATE TRIGGER {table}_feed_update AFTER UPDATE ON {table}
            WHEN new.change_seq IS old.change_seq BEGIN
            {_NEXT};
            UPDATE {table} SET change_seq = {_SEQ} WHERE id = new.id;
        END""",
        f"""CREATE TRIGGER {table}_feed_delete AFTER DELETE ON {table} BEGIN
            {_NEXT};
            INSERT OR REPLACE INTO tombstones(source_type, source_id, change_seq, deleted_at)
            VALUES ('{source_type}', old.id, {_SEQ}, {_NOW});
        END""",
    ]


_V3 = [
    """CREATE TABLE feed_state(
        id INTEGER PRIMARY KEY CHECK (id = 1),
        seq INTEGER NOT NULL,
        floor INTEGER NOT NULL DEFAULT 0,
        epoch TEXT NOT NULL
    )""",
    "INSERT INTO feed_state(id, seq, floor, epoch) VALUES (1, 0, 0, lower(hex(randomblob(16))))",
    """CREATE TABLE tombstones(
        source_type TEXT NOT NULL,
        source_id INTEGER NOT NULL,
        change_seq INTEGER NOT NULL,
        deleted_at REAL NOT NULL,
        PRIMARY KEY(source_type, source_id)
    ) WITHOUT ROWID""",
    "CREATE INDEX tombstones_seq ON tombstones(change_seq)",
    "ALTER TABLE notes ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE documents ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE fragments ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0",
    "CREATE INDEX notes_change_seq ON notes(change_seq)",
    "CREATE INDEX documents_change_seq ON documents(change_seq)",
    "CREATE INDEX fragments_change_seq ON fragments(change_seq)",
    *_feed_triggers("notes", "note"),
    *_feed_triggers("documents", "document"),
    *_feed_triggers("fragments", "fragment"),
    # A fragment's indexed title is "document title > heading": renaming the
    # document (or changing its format) changes what its fragments index.
    f"""CREATE TRIGGER documents_feed_fragments AFTER UPDATE OF title, format ON documents
        WHEN new.title IS NOT old.title OR new.format IS NOT old.format BEGIN
        {_NEXT};
        UPDATE fragments SET change_seq = {_SEQ} WHERE document_id = new.id;
    END""",
]

# v4: local-only is contagious (I11). A note made from local-only material keeps the reason
# beside its flag; a local-only document's content hashes are remembered so the flag follows
# the content across rename, move and --prune.
_V4 = [
    "ALTER TABLE notes ADD COLUMN local_only_reason TEXT",
    """CREATE TABLE local_only_content(
        sha256 TEXT PRIMARY KEY,
        document_id INTEGER,
        created_at REAL NOT NULL
    )""",
    "CREATE INDEX local_only_content_document ON local_only_content(document_id)",
    """INSERT OR IGNORE INTO local_only_content(sha256, document_id, created_at)
        SELECT sha256, id, imported_at FROM documents WHERE local_only = 1""",
    # Session approvals no longer persist (approval is per act; qa/approvals.py).
    "UPDATE chat_sessions SET approved_host = NULL",
]

# v5: where a fragment lives in a paged document (PDF page numbers, for "p. 42"
# locators and the reader), and how many scanned pages still wait for OCR.
_V5 = [
    "ALTER TABLE fragments ADD COLUMN page INTEGER",
    "ALTER TABLE fragments ADD COLUMN page_end INTEGER",
    "ALTER TABLE documents ADD COLUMN ocr_pending INTEGER NOT NULL DEFAULT 0",
]

# v6: links typed as [[wiki links]] (origin 'wiki'), #tags, the titles each note's
# links name (resolved or not, so a note created or renamed later picks up the links
# already typed to it) and each note's title in comparable form. All derived from the
# note's text by ``store.markup_sync`` in the transaction that saves it. SQLite cannot
# alter a CHECK, so ``links`` is rebuilt; the triggers naming it are dropped first and
# recreated after.
_V6 = [
    "DROP TRIGGER notes_target_gone",
    "DROP TRIGGER fragments_target_gone",
    """CREATE TABLE links_v6(
        id INTEGER PRIMARY KEY,
        note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
        target_type TEXT NOT NULL CHECK (target_type IN ('note', 'fragment')),
        target_id INTEGER NOT NULL,
        origin TEXT NOT NULL CHECK (origin IN ('manual', 'suggestion', 'wiki')),
        created_at REAL NOT NULL,
        UNIQUE(note_id, target_type, target_id)
    )""",
    "INSERT INTO links_v6 SELECT id, note_id, target_type, target_id, origin, created_at FROM links",
    "DROP TABLE links",
    "ALTER TABLE links_v6 RENAME TO links",
    "CREATE INDEX links_target ON links(target_type, target_id)",
    """CREATE TRIGGER notes_target_gone AFTER DELETE ON notes BEGIN
        DELETE FROM links WHERE target_type = 'note' AND target_id = old.id;
        DELETE FROM dismissed_suggestions WHERE target_type = 'note' AND target_id = old.id;
    END""",
    """CREATE TRIGGER fragments_target_gone AFTER DELETE ON fragments BEGIN
        DELETE FROM links WHERE target_type = 'fragment' AND target_id = old.id;
        DELETE FROM dismissed_suggestions WHERE target_type = 'fragment' AND target_id = old.id;
    END""",
    """CREATE TABLE note_tags(
        note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
        tag TEXT NOT NULL,
        label TEXT NOT NULL,
        PRIMARY KEY(note_id, tag)
    ) WITHOUT ROWID""",
    "CREATE INDEX note_tags_tag ON note_tags(tag)",
    """CREATE TABLE wiki_refs(
        note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
        title_key TEXT NOT NULL,
        PRIMARY KEY(note_id, title_key)
    ) WITHOUT ROWID""",
    "CREATE INDEX wiki_refs_title ON wiki_refs(title_key)",
    # Each note's title in the form links compare it (markup.titles.title_key).
    """CREATE TABLE note_title_keys(
        note_id INTEGER PRIMARY KEY REFERENCES notes(id) ON DELETE CASCADE,
        title_key TEXT NOT NULL
    )""",
    "CREATE INDEX note_title_keys_key ON note_title_keys(title_key)",
]

# v7: documents by content. Every import asks for each new path whether a document with
# the same content lost its path (a rename or move, ``documents._moved_here``), and marking
# content local-only flags its copies: both scanned the whole table per file.
_V7 = [
    "CREATE INDEX documents_sha256 ON documents(sha256, format)",
]

MIGRATIONS: dict[int, list[str]] = {1: _V1, 2: _V2, 3: _V3, 4: _V4, 5: _V5, 6: _V6, 7: _V7}
SCHEMA_VERSION = max(MIGRATIONS)
