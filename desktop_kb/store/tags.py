"""Reading the ``#tags`` of live notes (written by ``store.markup_sync`` with each save).

A nested tag counts under each of its parents: a note tagged ``#study/rust``
is found by ``study`` and by ``study/rust``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from desktop_kb.markup.tags import ancestors, tag_key


@dataclass(frozen=True)
class TagCount:
    key: str  # "study/rust"
    label: str  # as typed: "Study/Rust"
    notes: int  # live notes with this tag or one nested under it

    @property
    def depth(self) -> int:
        return self.key.count("/")

    @property
    def leaf(self) -> str:
        """The last part of the label, for a tree row."""
        return self.label.rsplit("/", 1)[-1]

    def as_json(self) -> dict[str, object]:
        return {"tag": self.label, "key": self.key, "notes": self.notes}


def tag_counts(conn: sqlite3.Connection) -> list[TagCount]:
    """Every tag of a live note, parents included, sorted by key (so parents precede children)."""
    members: dict[str, set[int]] = {}
    labels: dict[str, str] = {}
    rows = conn.execute(
        "SELECT t.note_id, t.tag, t.label FROM note_tags t JOIN notes n ON n.id = t.note_id "
        "WHERE n.trashed_at IS NULL ORDER BY t.tag, t.label")
    for note_id, key, label in rows:
        labels.setdefault(key, label)
        members.setdefault(key, set()).add(note_id)
        label_parts = label.split("/")
        for parent in ancestors(key):
            labels.setdefault(parent, "/".join(label_parts[: parent.count("/") + 1]))
            members.setdefault(parent, set()).add(note_id)
    return [TagCount(k, labels[k], len(members[k])) for k in sorted(members)]


def _like_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def notes_with_tags(conn: sqlite3.Connection, tags: Sequence[str], *, trashed: bool = False) -> set[int]:
    """Notes carrying every one of ``tags`` (or a tag nested under it). Tags may have a "#"."""
    found: set[int] | None = None
    state = "IS NOT NULL" if trashed else "IS NULL"
    for tag in tags:
        key = tag_key(tag)
        if not key:
            continue
        ids = {r[0] for r in conn.execute(
            "SELECT DISTINCT t.note_id FROM note_tags t JOIN notes n ON n.id = t.note_id "
            f"WHERE n.trashed_at {state} AND (t.tag = ? OR t.tag LIKE ? ESCAPE '\\')",
            (key, _like_escape(key) + "/%"))}
        found = ids if found is None else found & ids
    return found or set()


def tags_of_note(conn: sqlite3.Connection, note_id: int) -> list[str]:
    return [r[0] for r in conn.execute(
        "SELECT label FROM note_tags WHERE note_id = ? ORDER BY tag", (note_id,))]
