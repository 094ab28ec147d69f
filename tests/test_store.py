"""The store: schema versions, durability settings, links whitelist, settings."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from desktop_kb.store import SchemaTooNewError, StoreError, links, notes, open_store, settings
from desktop_kb.store import documents as docs
from desktop_kb.store.schema import SCHEMA_VERSION


@pytest.fixture
def store(tmp_path: Path) -> sqlite3.Connection:
    conn = open_store(tmp_path / "library.sqlite")
    yield conn
    conn.close()


def test_new_store_is_wal_with_foreign_keys_and_current_version(store: sqlite3.Connection) -> None:
    assert store.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert store.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL: durable saves
    assert store.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_newer_schema_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "library.sqlite"
    open_store(path).close()
    raw = sqlite3.connect(path)
    raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    raw.close()
    before = path.read_bytes()
    with pytest.raises(SchemaTooNewError, match="newer version of Desktop KB"):
        open_store(path)
    assert path.read_bytes() == before


def test_not_a_database_is_an_environment_error(tmp_path: Path) -> None:
    path = tmp_path / "library.sqlite"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="not a Desktop KB library|damaged"):
        open_store(path)


def test_reopening_keeps_data(tmp_path: Path) -> None:
    path = tmp_path / "library.sqlite"
    conn = open_store(path)
    note_id = notes.create_note(conn, "标题", "正文 body")
    conn.close()
    conn = open_store(path)
    assert notes.get_note(conn, note_id).body == "正文 body"
    conn.close()


def test_note_lifecycle(store: sqlite3.Connection) -> None:
    note_id = notes.create_note(store, "T", "B", local_only=True)
    note = notes.get_note(store, note_id)
    assert (note.title, note.body, note.local_only, note.trashed) == ("T", "B", True, False)
    assert notes.update_note(store, note_id, body="B") is False  # unchanged: no save hook
    assert notes.update_note(store, note_id, body="B2") is True
    notes.set_trashed(store, note_id, True)
    assert [n.id for n in notes.list_notes(store, trashed=True)] == [note_id]
    assert notes.list_notes(store) == []
    notes.delete_note(store, note_id)
    with pytest.raises(notes.NoteNotFound):
        notes.get_note(store, note_id)


def _fragment_ids(store: sqlite3.Connection, texts: list[str], doc_id: int | None = None) -> int:
    from desktop_kb.importer.formats import FragmentSpec

    specs = [FragmentSpec(ord=i, heading_path="", text=t, start=0, end=len(t)) for i, t in enumerate(texts)]
    return docs.save_document(store, path="/x/doc.md", fmt="md", sha256="h" + "".join(texts),
                              title="Doc", specs=specs).document_id


def test_links_whitelist_idempotence_and_cascade(store: sqlite3.Connection) -> None:
    a = notes.create_note(store, "A", "a")
    b = notes.create_note(store, "B", "b")
    doc_id = _fragment_ids(store, ["one", "two"])
    frag = docs.list_fragments(store, doc_id)[0]
    assert links.create_link(store, a, "note", b) is True
    assert links.create_link(store, a, "note", b, origin="suggestion") is False  # no-op
    assert links.create_link(store, a, "fragment", frag.id, origin="suggestion") is True
    assert len(links.outgoing_links(store, a)) == 2
    for bad in ("document", "url", "NOTE", ""):
        with pytest.raises(links.InvalidLinkTarget):
            links.create_link(store, a, bad, b)
    # Even raw SQL cannot store a target type outside the whitelist.
    with pytest.raises(sqlite3.IntegrityError):
        store.execute("INSERT INTO links(note_id, target_type, target_id, origin, created_at) "
                      "VALUES (?, 'document', 1, 'manual', 0)", (a,))
    with pytest.raises(links.InvalidLinkTarget):
        links.create_link(store, a, "note", 9999)
    links.dismiss_suggestion(store, a, "note", b)
    assert links.dismissed_targets(store, a) == {("note", b)}
    notes.delete_note(store, b)  # a deleted target takes its links and dismissals along
    assert [lk.target_type for lk in links.outgoing_links(store, a)] == ["fragment"]
    assert links.dismissed_targets(store, a) == set()
    docs.delete_document(store, doc_id)
    assert links.outgoing_links(store, a) == []


def test_reimport_keeps_ids_of_unchanged_and_rewritten_in_place_fragments(store: sqlite3.Connection) -> None:
    doc_id = _fragment_ids(store, ["alpha", "beta", "gamma"])
    before = {f.text: f.id for f in docs.list_fragments(store, doc_id)}
    _fragment_ids(store, ["alpha", "BETA changed", "gamma"], doc_id)
    after = {f.text: f.id for f in docs.list_fragments(store, doc_id)}
    assert after["alpha"] == before["alpha"] and after["gamma"] == before["gamma"]
    # Rewritten in place (same heading, same position): still the same passage.
    assert after["BETA changed"] == before["beta"]
    _fragment_ids(store, ["alpha", "gamma"], doc_id)
    assert {f.text: f.id for f in docs.list_fragments(store, doc_id)} == {
        "alpha": before["alpha"], "gamma": before["gamma"]}


def test_settings_defaults_and_roundtrip(store: sqlite3.Connection) -> None:
    assert settings.get_setting(store, "qa.cloud_enabled") is False
    settings.set_setting(store, "qa.cloud_enabled", True)
    settings.set_setting(store, "ui.language", "zh_CN")
    assert settings.get_setting(store, "qa.cloud_enabled") is True
    assert settings.all_settings(store)["ui.language"] == "zh_CN"


def test_save_over_keeps_text_saved_elsewhere_as_a_private_copy_when_the_note_is_private(
        tmp_path: Path) -> None:
    editor = open_store(tmp_path / "library.sqlite")
    other = open_store(tmp_path / "library.sqlite")  # another process's connection
    note_id = notes.create_note(editor, "私密", "v1", local_only=True)
    loaded = notes.get_note(editor, note_id)
    base = notes.Base(loaded.change_seq, loaded.title, loaded.body)
    notes.update_note(other, note_id, body="written elsewhere")
    outcome = notes.save_over(editor, note_id, "私密", "typed in the editor", base, "私密 (other)")
    assert outcome.changed and outcome.other_version is not None
    kept = notes.get_note(editor, outcome.other_version)
    assert (kept.title, kept.body, kept.local_only) == ("私密 (other)", "written elsewhere", True)
    assert notes.get_note(editor, note_id).body == "typed in the editor"
    # Saving again from the new base finds nothing to keep aside.
    again = notes.save_over(editor, note_id, "私密", "typed more", outcome.base, "x")
    assert again.other_version is None
    editor.close()
    other.close()
