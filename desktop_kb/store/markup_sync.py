"""Keeps what a note's text says — its ``[[links]]``, ``#tags`` and title — in the store's tables.

Typing ``[[Docker 安装]]`` is the person's own act of linking (I9), so the link is
stored through the one link function with origin ``wiki``; deleting the text
deletes the link (a link made another way — an accepted suggestion — stays).
Links name titles, and titles change: every note's link targets are kept in
``wiki_refs`` whether they resolve or not, so creating, renaming, trashing or
restoring a note re-resolves exactly the notes that name it.

Everything here runs inside the caller's write transaction, so the text and
what is derived from it are committed together and can never disagree.

A title resolves to the live (not trashed) note with that title (compared by
``title_key``); when several notes share a title, the oldest one wins, so a new
duplicate never steals existing links.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from desktop_kb.markup.literal import LiteralMask
from desktop_kb.markup.tags import note_tags
from desktop_kb.markup.titles import title_key
from desktop_kb.markup.wiki_links import WikiLink, parse_wiki_links
from desktop_kb.store import links as store_links
from desktop_kb.store.tx import transaction

#: Bump when the parsers' output changes: ``ensure_synced`` then re-derives every note.
MARKUP_VERSION = 2  # 2: #C++ and #C# keep their signs
_VERSION_KEY = "markup.version"


def resolve_title(conn: sqlite3.Connection, key: str, *, exclude: int | None = None) -> int | None:
    row = conn.execute(
        "SELECT k.note_id FROM note_title_keys k JOIN notes n ON n.id = k.note_id "
        "WHERE k.title_key = ? AND n.trashed_at IS NULL AND n.id IS NOT ? ORDER BY n.id LIMIT 1",
        (key, exclude)).fetchone()
    return None if row is None else int(row[0])


def resolve_link(conn: sqlite3.Connection, link: WikiLink, *, source: int | None = None) -> int | None:
    """The note a link opens: the first of its candidate titles that names a live note."""
    for key in link.candidate_keys:
        found = resolve_title(conn, key, exclude=source)
        if found is not None:
            return found
    return None


def _resolve_links(conn: sqlite3.Connection, note_id: int, links: list[WikiLink]) -> None:
    wanted = {t for t in (resolve_link(conn, link, source=note_id) for link in links) if t is not None}
    have = store_links.wiki_link_targets(conn, note_id)
    for target in have - wanted:
        store_links.remove_wiki_link_in_transaction(conn, note_id, target)
    for target in sorted(wanted - have):
        store_links.create_link_in_transaction(conn, note_id, "note", target, origin="wiki")


def _replace(conn: sqlite3.Connection, table: str, note_id: int, rows: Iterable[tuple]) -> None:
    conn.execute(f"DELETE FROM {table} WHERE note_id = ?", (note_id,))
    placeholders = {"note_tags": "(?, ?, ?)", "wiki_refs": "(?, ?)"}[table]
    conn.executemany(f"INSERT INTO {table} VALUES {placeholders}", [(note_id, *r) for r in rows])


def referrers(conn: sqlite3.Connection, keys: Iterable[str]) -> list[int]:
    """Notes whose text links to any of these title keys."""
    keys = [k for k in dict.fromkeys(keys) if k]
    if not keys:
        return []
    marks = ",".join("?" * len(keys))
    return [r[0] for r in conn.execute(
        f"SELECT DISTINCT note_id FROM wiki_refs WHERE title_key IN ({marks}) ORDER BY note_id", keys)]


def _relink(conn: sqlite3.Connection, note_id: int) -> None:
    row = conn.execute("SELECT body FROM notes WHERE id = ?", (note_id,)).fetchone()
    if row is not None:
        _resolve_links(conn, note_id, parse_wiki_links(row[0]))


def relink_referrers(conn: sqlite3.Connection, keys: Iterable[str], *, skip: int | None = None) -> None:
    """Re-resolve the links of every note naming these titles (a title appeared or went away)."""
    for note_id in referrers(conn, keys):
        if note_id != skip:
            _relink(conn, note_id)


def title_key_of(conn: sqlite3.Connection, note_id: int) -> str | None:
    row = conn.execute("SELECT title_key FROM note_title_keys WHERE note_id = ?", (note_id,)).fetchone()
    return None if row is None else str(row[0])


def sync_note(conn: sqlite3.Connection, note_id: int, *, body_changed: bool = True) -> None:
    """Re-derive one note's title key, tags, link targets and wiki links (in a transaction).

    A rename alone (``body_changed=False``) skips parsing the body: its links and tags
    are what they were, only links naming the old or new title move.
    """
    row = conn.execute("SELECT title, body FROM notes WHERE id = ?", (note_id,)).fetchone()
    if row is None:
        return
    old_key = title_key_of(conn, note_id)
    new_key = title_key(row[0])
    conn.execute("INSERT INTO note_title_keys(note_id, title_key) VALUES (?, ?) "
                 "ON CONFLICT(note_id) DO UPDATE SET title_key = excluded.title_key", (note_id, new_key))
    if not body_changed:
        if old_key != new_key:
            relink_referrers(conn, [k for k in (old_key, new_key) if k], skip=note_id)
        return
    body: str = row[1]
    mask = LiteralMask.of(body)  # one pass over code and URLs for links and tags alike
    links = parse_wiki_links(body, mask)
    _replace(conn, "note_tags", note_id, note_tags(body, mask).items())
    _replace(conn, "wiki_refs", note_id,
             [(k,) for k in dict.fromkeys(k for link in links for k in link.candidate_keys)])
    _resolve_links(conn, note_id, links)
    if old_key != new_key:
        relink_referrers(conn, [k for k in (old_key, new_key) if k], skip=note_id)


def ensure_synced(conn: sqlite3.Connection) -> int:
    """Derive every note once after an upgrade (or a parser change); returns notes synced.

    Opens its own transaction; a no-op when the library is already current.
    """
    row = conn.execute("SELECT value FROM settings WHERE key = ?", (_VERSION_KEY,)).fetchone()
    if row is not None and row[0] == str(MARKUP_VERSION):
        return 0
    with transaction(conn, "Updating links and tags"):
        ids = [r[0] for r in conn.execute("SELECT id FROM notes ORDER BY id")]
        # Title keys first, so links between these notes resolve regardless of order.
        for note_id, title in conn.execute("SELECT id, title FROM notes ORDER BY id").fetchall():
            conn.execute("INSERT OR REPLACE INTO note_title_keys(note_id, title_key) VALUES (?, ?)",
                         (note_id, title_key(title)))
        for note_id in ids:
            sync_note(conn, note_id)
        conn.execute("INSERT INTO settings(key, value) VALUES (?, ?) "
                     "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                     (_VERSION_KEY, str(MARKUP_VERSION)))
    return len(ids)


def user_words(conn: sqlite3.Connection) -> list[str]:
    """Words the person coined: note titles, the titles their links name, tag names (and their parts).

    For the segmenter's user dictionary, so "GitLab 备份" or "#间隔重复" are cut as whole
    words; distinct, in a stable order.
    """
    words: dict[str, None] = {}
    for (title,) in conn.execute("SELECT title FROM notes WHERE trashed_at IS NULL AND title != '' ORDER BY id"):
        words[title.strip()] = None
    for (key,) in conn.execute("SELECT DISTINCT title_key FROM wiki_refs ORDER BY title_key"):
        words[key] = None
    for (tag,) in conn.execute("SELECT DISTINCT label FROM note_tags ORDER BY label"):
        words[tag] = None
        for part in tag.split("/"):
            words[part] = None
    return [w for w in words if w]
