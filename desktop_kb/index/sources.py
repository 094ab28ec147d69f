"""What the index indexes, read from the store through a read-only connection (I2).

A *source* is a live note (not trashed) or a fragment of an imported document.
Its ``version`` hashes exactly the text that gets indexed, so verify can spot
stale rows by comparing hashes.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

SourceKey = tuple[str, int]  # ("note" | "fragment", id)


@dataclass(frozen=True)
class SourceText:
    source_type: str
    source_id: int
    title: str  # note title, or "document title > heading path" for a fragment
    text: str  # note body or fragment text; chunk offsets point into this
    fmt: str  # "md" for notes; the document format for fragments

    @property
    def key(self) -> SourceKey:
        return (self.source_type, self.source_id)

    @property
    def version(self) -> str:
        return source_version(self.title, self.text)


def text_hash(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def source_version(title: str, text: str) -> str:
    return text_hash(f"{title}\x00{text}")


def fragment_title(document_title: str, heading_path: str) -> str:
    """"Doc > Section"; a heading path that starts with the document's own H1 skips the repeat."""
    parts = heading_path.split(" > ") if heading_path else []
    if parts and parts[0].strip() == document_title.strip():
        parts = parts[1:]
    return " > ".join([document_title, *parts])


_NOTE_SQL = "SELECT id, title, body FROM notes WHERE trashed_at IS NULL"
_FRAGMENT_SQL = (
    "SELECT f.id, d.title, f.heading_path, f.text, d.format "
    "FROM fragments f JOIN documents d ON d.id = f.document_id"
)


def _note(row: sqlite3.Row | tuple) -> SourceText:
    return SourceText("note", row[0], row[1], row[2], "md")


def _fragment(row: sqlite3.Row | tuple) -> SourceText:
    return SourceText("fragment", row[0], fragment_title(row[1], row[2]), row[3], row[4])


def load_source(store: sqlite3.Connection, key: SourceKey) -> SourceText | None:
    """The source's current text, or None when it is gone (deleted or trashed)."""
    kind, source_id = key
    if kind == "note":
        row = store.execute(f"{_NOTE_SQL} AND id = ?", (source_id,)).fetchone()
        return None if row is None else _note(row)
    if kind == "fragment":
        row = store.execute(f"{_FRAGMENT_SQL} WHERE f.id = ?", (source_id,)).fetchone()
        return None if row is None else _fragment(row)
    raise ValueError(f"unknown source type {kind!r}")


def load_sources(store: sqlite3.Connection, keys: Iterable[SourceKey]) -> list[SourceText]:
    found = []
    for key in keys:
        source = load_source(store, key)
        if source is not None:
            found.append(source)
    return found


def live_keys(store: sqlite3.Connection) -> list[SourceKey]:
    keys: list[SourceKey] = [("note", r[0]) for r in store.execute(
        "SELECT id FROM notes WHERE trashed_at IS NULL ORDER BY id")]
    keys += [("fragment", r[0]) for r in store.execute("SELECT id FROM fragments ORDER BY id")]
    return keys


#: The kinds of indexed source, in the order verify walks them.
SOURCE_KINDS = ("note", "fragment")


def live_versions(store: sqlite3.Connection, kind: str) -> Iterator[tuple[int, str]]:
    """(id, version) of every live source of ``kind``, in id order (verify merges them with
    the index's rows, which its primary key keeps in that order)."""
    if kind == "note":
        for row in store.execute(f"{_NOTE_SQL} ORDER BY id"):
            yield row[0], _note(row).version
    elif kind == "fragment":
        for row in store.execute(f"{_FRAGMENT_SQL} ORDER BY f.id"):
            yield row[0], _fragment(row).version
    else:
        raise ValueError(f"unknown source type {kind!r}")
