"""What changed in a library since the last look, for a window that shows it (I12).

``ChangeWatcher.poll()`` is cheap when nothing changed (one ``PRAGMA
data_version`` on an idle read-only connection, a ``stat`` of the models
folder) and, when something did, returns only what changed — read from the
store's change feed — so the window updates those rows and reloads nothing
else. It sees every writer alike: this app's own saves, a CLI import, a script.
Qt-free: ``tasks/library_watcher.py`` runs it on a thread.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from desktop_kb.importer.files import conflicted_copies
from desktop_kb.paths import file_identity
from desktop_kb.store import feed
from desktop_kb.store.connection import open_store
from desktop_kb.store.notes import Note, notes_by_ids


@dataclass
class OutsideChanges:
    notes: list[Note] = field(default_factory=list)  # current state of notes that changed
    deleted_notes: list[int] = field(default_factory=list)
    documents: bool = False  # documents or fragments were added, changed or removed
    settings: bool = False
    models: bool = False
    history: bool = False  # the store was replaced (a backup restored): reload everything
    # Another file was put at library.sqlite's path (a sync client's copy) or it went away:
    # this process's writes would go into the old file (see store.connection.StoreConnection).
    file_replaced: bool = False
    # A sync client's conflicted copy of library.sqlite that appeared beside it since.
    other_versions: list[Path] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.notes or self.deleted_notes or self.documents or self.settings
                    or self.models or self.history or self.file_replaced or self.other_versions)


class ChangeWatcher:
    def __init__(self, store_path: Path, models_dir: Path) -> None:
        self._store_path = store_path
        self._models_dir = models_dir
        self._conn: sqlite3.Connection | None = None
        self._version: int | None = None
        self._position: feed.FeedPosition | None = None
        self._settings = ""
        self._models = ""
        self._file: tuple[int, int] | None = None  # library.sqlite's (device, inode) at start
        self._file_reported = False
        self._folder = ""  # the data folder's listing's stamp: a copy beside the file changes it
        self._others: set[Path] = set()

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            self._conn = open_store(self._store_path, readonly=True)
        return self._conn

    def start(self) -> None:
        """Remember the present state: later polls report what changes after it."""
        conn = self._connection()
        self._file = file_identity(self._store_path)
        self._version = conn.execute("PRAGMA data_version").fetchone()[0]
        with feed.snapshot(conn):
            self._position = feed.position(conn)
            self._settings = self._settings_digest(conn)
        self._models = self._models_signature()
        self._folder = self._folder_stamp()
        self._others = set(conflicted_copies(self._store_path))  # the window says these at open

    def _folder_stamp(self) -> str:
        try:
            st = os.stat(self._store_path.parent)
        except OSError:
            return ""
        return f"{st.st_mtime_ns}:{st.st_ino}"

    def _new_other_versions(self) -> list[Path]:
        """Conflicted copies a sync client put beside the library while it is open: the other
        computer's notes are in no library shown, and it was said only at the next start."""
        stamp = self._folder_stamp()
        if stamp == self._folder:
            return []
        self._folder = stamp
        now = set(conflicted_copies(self._store_path))
        new, self._others = sorted(now - self._others), now
        return new

    def poll(self) -> OutsideChanges:
        changes = OutsideChanges()
        if not self._file_reported and self._file is not None \
                and file_identity(self._store_path) != self._file:
            self._file_reported = True  # once: the window says it and lets go of the old file
            changes.file_replaced = True
            return changes
        changes.other_versions = self._new_other_versions()
        models = self._models_signature()
        if models != self._models:
            self._models = models
            changes.models = True
        conn = self._connection()
        version = conn.execute("PRAGMA data_version").fetchone()[0]
        if version == self._version and self._position is not None:
            return changes
        self._version = version
        before = self._position
        with feed.snapshot(conn):
            now = feed.position(conn)
            if before is None or now.epoch != before.epoch or now.seq < before.seq \
                    or before.seq < now.floor:
                changes.history = True
                changed: list[feed.Change] = []
            else:
                _pos, changed = feed.changes_since(conn, before.seq)
            note_ids = [c.id for c in changed if c.kind == "note" and not c.deleted]
            changes.deleted_notes = [c.id for c in changed if c.kind == "note" and c.deleted]
            changes.documents = any(c.kind in ("document", "fragment") for c in changed)
            changes.notes = notes_by_ids(conn, note_ids)
            settings = self._settings_digest(conn)
        self._position = now
        if settings != self._settings:
            self._settings = settings
            changes.settings = True
        # A note deleted and its id handed out again shows up as changed, not deleted.
        alive = {n.id for n in changes.notes}
        changes.deleted_notes = [i for i in changes.deleted_notes if i not in alive]
        return changes

    @staticmethod
    def _settings_digest(conn: sqlite3.Connection) -> str:
        rows = conn.execute("SELECT key, value FROM settings ORDER BY key").fetchall()
        return hashlib.sha256(json.dumps([tuple(r) for r in rows]).encode()).hexdigest()

    def _models_signature(self) -> str:
        try:
            entries = sorted((e.name, e.stat().st_mtime_ns) for e in os.scandir(self._models_dir))
        except OSError:
            return ""
        return json.dumps(entries)
