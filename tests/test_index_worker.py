"""The derived index: save hooks, coalescing, deletion order, failures, rebuild, verify (I1–I6)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from desktop_kb.index import apply as apply_mod
from desktop_kb.index.worker import IndexEvent
from desktop_kb.library import Library
from desktop_kb.progress import Progress


def hits(lib: Library, query: str) -> list[tuple[str, int]]:
    return [(r.source_type, r.source_id) for r in lib.search(query, limit=50).results]


def chunk_ids(lib: Library, note_id: int) -> list[int]:
    return [r[0] for r in lib.index_reader.execute(
        "SELECT id FROM kb_chunks WHERE source_type = 'note' AND source_id = ? ORDER BY ord",
        (note_id,))]


def test_save_makes_note_searchable_and_edit_replaces_old_text(library: Library) -> None:
    note_id = library.add_note("Docker 笔记", "用 Docker 安装 GitLab，配置 docker-compose.yml。")
    library.drain()
    assert hits(library, "gitlab") == [("note", note_id)]
    assert hits(library, "docker-compose.yml") == [("note", note_id)]
    assert hits(library, "安装") == [("note", note_id)]
    library.save_note(note_id, body="改用 Podman 部署 Nextcloud。")
    library.drain()
    assert hits(library, "gitlab") == []
    assert hits(library, "nextcloud") == [("note", note_id)]
    assert hits(library, "笔记") == [("note", note_id)]  # the title is searchable too


def test_repeated_requests_for_one_note_coalesce(library: Library) -> None:
    events: list[IndexEvent] = []
    library.worker.add_listener(events.append)
    note_id = library.add_note("t", "body")
    library.drain()
    events.clear()
    gate = threading.Event()
    blocker = library.worker.call(lambda _conn: gate.wait(10))
    for i in range(50):
        library.save_note(note_id, body=f"version {i} zqxmarker{i}")
    gate.set()
    blocker.result()
    library.drain()
    indexed = [e for e in events if e.kind == "indexed" and e.key == ("note", note_id)]
    assert len(indexed) == 1
    assert hits(library, "zqxmarker49") == [("note", note_id)]
    assert hits(library, "zqxmarker3") == []


def test_unchanged_chunks_are_not_rewritten(library: Library) -> None:
    body = "# One\n\nFirst section text.\n\n# Two\n\nSecond section text.\n\n# Three\n\nThird section."
    note_id = library.add_note("sections", body)
    library.drain()
    before = chunk_ids(library, note_id)
    assert len(before) == 3
    library.save_note(note_id, body=body.replace("Second section text.", "Second, rewritten."))
    library.drain()
    after = chunk_ids(library, note_id)
    assert after[0] == before[0] and after[2] == before[2]
    assert after[1] not in before


def test_index_rows_go_before_the_store_row(library: Library, monkeypatch: pytest.MonkeyPatch) -> None:
    from desktop_kb import library as library_mod

    note_id = library.add_note("to delete", "ephemeral zqxgone")
    library.drain()
    seen: list[int] = []
    real_delete = library_mod.notes.delete_note

    def checking_delete(conn: sqlite3.Connection, nid: int) -> None:
        seen.append(len(chunk_ids(library, nid)))
        real_delete(conn, nid)

    monkeypatch.setattr(library_mod.notes, "delete_note", checking_delete)
    library.delete_note(note_id)
    assert seen == [0]  # the index had already forgotten the note
    assert hits(library, "zqxgone") == []


def test_trashed_note_leaves_search_and_restore_brings_it_back(library: Library) -> None:
    note_id = library.add_note("trash me", "zqxtrash content")
    library.drain()
    library.trash_note(note_id)
    assert hits(library, "zqxtrash") == []
    library.restore_note(note_id)
    library.drain()
    assert hits(library, "zqxtrash") == [("note", note_id)]


def test_failures_are_recorded_counted_and_retried(library: Library, monkeypatch: pytest.MonkeyPatch) -> None:
    real_prepare = apply_mod.prepare_source

    def flaky(source):  # type: ignore[no-untyped-def]
        if "BOOM" in source.text:
            raise RuntimeError("segmenter exploded")
        return real_prepare(source)

    monkeypatch.setattr(apply_mod, "prepare_source", flaky)
    note_id = library.add_note("fails", "BOOM zqxfail")
    library.drain()
    status = library.index_status()
    assert status.state == "failed"
    assert [(t, i) for t, i, _, _ in status.failures] == [("note", note_id)]
    assert "segmenter exploded" in status.failures[0][2]
    first_attempts = status.failures[0][3]
    library.save_note(note_id, body="BOOM again zqxfail")
    library.drain()
    # Each save is one more attempt (a feed poll on a loaded machine may add a retry of its own).
    assert library.index_status().failures[0][3] > first_attempts >= 1
    library.save_note(note_id, body="fixed zqxfail")  # retried on the next save
    library.drain()
    assert library.index_status().state == "ok"
    assert hits(library, "zqxfail") == [("note", note_id)]


def test_rebuild_sets_dirty_first_reports_progress_and_clears_it(library: Library) -> None:
    ids = [library.add_note(f"n{i}", f"笔记 {i} zqxrb{i}") for i in range(300)]
    library.drain()
    dirty_during: list[str] = []
    ticks: list[tuple[int, int]] = []

    def on_change(label: str, done: int, maximum: int) -> None:
        ticks.append((done, maximum))
        if 0 < done < maximum:
            conn = sqlite3.connect(library.paths.index)
            dirty_during.append(conn.execute("SELECT value FROM kb_meta WHERE key='dirty'").fetchone()[0])
            conn.close()

    result = library.rebuild(Progress(on_change))
    assert not result.cancelled and result.sources == 300
    assert dirty_during and set(dirty_during) == {"1"}
    assert ticks[-1] == (300, 300)
    assert library.index_status().dirty is False
    assert hits(library, "zqxrb17") == [("note", ids[17])]


def test_cancelled_rebuild_stays_dirty_and_next_start_rebuilds(data_dir: Path) -> None:
    lib = Library(data_dir)
    ids = [lib.add_note(f"n{i}", f"text zqxc{i}") for i in range(400)]
    lib.drain()
    progress = Progress()
    progress_cb = []

    def cancel_after_first(label: str, done: int, maximum: int) -> None:
        progress_cb.append(done)
        if done > 0:
            progress.cancel()

    progress._on_change = cancel_after_first  # noqa: SLF001 - wire the cancel into the callback
    result = lib.rebuild(progress)
    assert result.cancelled
    assert lib.index_status().dirty is True
    lib.close()
    lib = Library(data_dir)
    assert lib.startup_rebuild is not None
    lib.startup_rebuild.result()
    assert lib.index_status().dirty is False
    assert hits(lib, "zqxc399") == [("note", ids[399])]
    lib.close()


def test_verify_finds_and_repairs_every_kind_of_drift(library: Library) -> None:
    a = library.add_note("a", "alpha zqxa")
    b = library.add_note("b", "beta zqxb")
    c = library.add_note("c", "gamma zqxc")
    library.drain()
    assert library.verify().drift == 0

    def tamper(conn: sqlite3.Connection) -> None:
        conn.execute("BEGIN")
        conn.execute("DELETE FROM kb_sources WHERE source_type='note' AND source_id=?", (a,))
        conn.execute("UPDATE kb_sources SET version='old' WHERE source_type='note' AND source_id=?", (b,))
        conn.execute("INSERT INTO kb_sources VALUES ('note', 999, 'v', 't', 0)")
        conn.execute("INSERT INTO kb_chunks(id, source_type, source_id, ord, start, end, heading_path, text_hash) "
                     "VALUES (5000, 'note', 999, 0, 0, 5, '', 'h')")
        conn.execute("INSERT INTO kb_fts(rowid, body, title) VALUES (5000, 'zqxorphan', '')")
        conn.execute("INSERT INTO kb_fts(rowid, body, title) VALUES (6000, 'zqxloose', '')")
        conn.execute("COMMIT")

    library.worker.call(tamper).result()
    report = library.verify(repair=True)
    assert ("note", a) in report.missing
    assert ("note", b) in report.stale
    assert ("note", 999) in report.orphans
    assert report.orphan_chunks >= 2  # a's chunks lost their source row; the loose FTS row
    assert report.repaired
    assert library.verify(repair=False).drift == 0
    assert hits(library, "zqxa") == [("note", a)]
    assert hits(library, "zqxorphan") == [] and hits(library, "zqxloose") == []
    assert hits(library, "zqxc") == [("note", c)]


def test_deleted_or_corrupt_index_is_rebuilt_from_the_store(data_dir: Path) -> None:
    lib = Library(data_dir)
    note_id = lib.add_note("keep", "持久的笔记 zqxkeep")
    lib.drain()
    lib.close()
    index = data_dir / "index.sqlite"
    for suffix in ("-wal", "-shm"):
        Path(f"{index}{suffix}").unlink(missing_ok=True)
    index.write_bytes(b"garbage" * 1000)
    lib = Library(data_dir)
    assert lib.startup_rebuild is not None
    lib.startup_rebuild.result()
    assert hits(lib, "zqxkeep") == [("note", note_id)]
    lib.close()


def test_unresolvable_hits_are_dropped_and_counted(library: Library) -> None:
    note_id = library.add_note("ghost", "zqxghost text")
    library.drain()
    # Remove the note behind the index's back: the index still has its rows.
    library.store.execute("DELETE FROM notes WHERE id = ?", (note_id,))
    response = library.search("zqxghost")
    assert response.results == []
    assert response.dropped == 1


def test_segmenter_change_forces_rebuild(data_dir: Path) -> None:
    lib = Library(data_dir)
    lib.add_note("x", "y")
    lib.drain()
    lib.worker.call(lambda c: c.execute("UPDATE kb_meta SET value='0-old' WHERE key='segmenter'")).result()
    lib.close()
    lib = Library(data_dir)
    assert lib.startup_rebuild is not None
    lib.startup_rebuild.result()
    assert lib.index_status().dirty is False
    lib.close()
