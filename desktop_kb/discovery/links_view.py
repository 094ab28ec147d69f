"""A note's links in both directions, resolved to titles for display (reads only)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field

from desktop_kb.index.sources import fragment_title
from desktop_kb.markup.plain import plain_title
from desktop_kb.store import links as store_links


@dataclass(frozen=True)
class LinkEntry:
    """One end of a link as the open note sees it.

    For an outgoing link the entry is the target; for a backlink it is the
    note that links here (``target_type`` is then always ``note``).
    """

    target_type: str
    target_id: int
    title: str
    origin: str
    document_id: int | None = None  # for fragments: what the GUI needs to open it
    trashed: bool = False

    def as_json(self) -> dict[str, object]:
        return {"target_type": self.target_type, "target_id": self.target_id, "title": self.title,
                "origin": self.origin, "document_id": self.document_id, "trashed": self.trashed}


@dataclass
class NoteLinks:
    note_id: int
    outgoing: list[LinkEntry] = field(default_factory=list)
    backlinks: list[LinkEntry] = field(default_factory=list)

    def as_json(self) -> dict[str, object]:
        return {"note_id": self.note_id, "outgoing": [e.as_json() for e in self.outgoing],
                "backlinks": [e.as_json() for e in self.backlinks]}


def _describe(store: sqlite3.Connection, target_type: str, target_id: int
              ) -> tuple[str, int | None, bool] | None:
    if target_type == "note":
        row = store.execute("SELECT title, trashed_at FROM notes WHERE id = ?", (target_id,)).fetchone()
        return None if row is None else (row[0], None, row[1] is not None)
    row = store.execute(
        "SELECT d.title, f.heading_path, d.id FROM fragments f JOIN documents d ON d.id = f.document_id "
        "WHERE f.id = ?", (target_id,)).fetchone()
    return None if row is None else (plain_title(fragment_title(row[0], row[1])), row[2], False)


def note_links(store: sqlite3.Connection, note_id: int) -> NoteLinks:
    """Outgoing links and backlinks of ``note_id``; a target that vanished is left out."""
    result = NoteLinks(note_id)
    for link in store_links.outgoing_links(store, note_id):
        found = _describe(store, link.target_type, link.target_id)
        if found is not None:
            title, document_id, trashed = found
            result.outgoing.append(LinkEntry(link.target_type, link.target_id, title, link.origin,
                                             document_id, trashed))
    for link in store_links.backlinks(store, "note", note_id):
        found = _describe(store, "note", link.note_id)
        if found is not None:
            title, _doc, trashed = found
            result.backlinks.append(LinkEntry("note", link.note_id, title, link.origin, None, trashed))
    return result
