"""A file renamed or moved between two imports is the same document: a case-only rename
(``Note.md`` → ``note.md``), a move into a subfolder. Imported anew with ``--prune``, it
lost every link and dismissal that pointed into it, and the summary said nothing of it."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

from test_gui_support import gui_marks

from desktop_kb.library import Library
from desktop_kb.store import documents
from desktop_kb.store import links as store_links
from desktop_kb.store.schema import MIGRATIONS

pytestmark = gui_marks()


def _study(root: Path) -> Path:
    folder = root / "study"
    folder.mkdir()
    (folder / "Note.md").write_text("# Rust 笔记\n\n所有权 ownership zqmoved\n\n## 借用\n\n借用规则 zqborrow\n",
                                    encoding="utf-8")
    (folder / "other.md").write_text("# 别的\n\n别的内容 zqother\n", encoding="utf-8")
    return folder


def test_a_renamed_or_moved_file_keeps_its_links_dismissals_and_flag(tmp_path: Path) -> None:
    folder = _study(tmp_path)
    data_dir = tmp_path / "library"
    with Library(data_dir, load_model=False) as lib:
        assert lib.import_paths([folder]).added == 2
        doc = next(d for d in lib.list_documents() if d.path.endswith("Note.md"))
        owned, borrowed = (f.id for f in lib.list_fragments(doc.id))
        note = lib.add_note("读书笔记", "见所有权一节")
        assert lib.link(note, "fragment", owned, origin="manual")
        lib.dismiss(note, "fragment", borrowed)
        lib.set_document_local_only(doc.id, True)
    (folder / "Note.md").rename(folder / "note.md")  # case only
    done = subprocess.run([sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir), "import",
                           str(folder), "--prune", "--json"],
                          capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert (summary["added"], summary["removed"]) == (0, 0), summary
    assert summary["moved"] == [{"from": str(folder / "Note.md"), "to": str(folder / "note.md")}]
    (folder / "2026").mkdir()
    (folder / "note.md").rename(folder / "2026" / "rust.md")  # into a subfolder, renamed
    with Library(data_dir, load_model=False) as lib:
        summary = lib.import_paths([folder], prune=True)
        assert (summary.added, summary.removed, len(summary.moved)) == (0, 0, 1)
        moved = next(d for d in lib.list_documents() if d.id == doc.id)
        assert (moved.path, moved.local_only) == (str(folder / "2026" / "rust.md"), True)
        assert [(x.target_type, x.target_id) for x in store_links.outgoing_links(lib.store_reader, note)] \
            == [("fragment", owned)]
        assert store_links.dismissed_targets(lib.store_reader, note) == {("fragment", borrowed)}
        assert lib.drain(60)
        assert [r.source_id for r in lib.search("zqmoved").results] == [owned]
        assert lib.verify(repair=False).drift == 0
        # A copy beside a file that is still there is another document, as before.
        (folder / "copy.md").write_text((folder / "other.md").read_text(encoding="utf-8"), encoding="utf-8")
        copied = lib.import_paths([folder])
        assert (copied.added, copied.moved) == (1, [])


def test_the_import_summary_says_a_file_moved_in_the_ui_language(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from desktop_kb.ui import i18n
    from desktop_kb.ui.import_dialog import ImportSummaryDialog

    folder = _study(tmp_path)
    with Library(tmp_path / "library", load_model=False) as lib:
        lib.import_paths([folder])
        (folder / "Note.md").rename(folder / "note.md")
        summary = lib.import_paths([folder], prune=True)
    i18n.install_language("zh_CN")
    try:
        dialog = ImportSummaryDialog(summary)
        qtbot.addWidget(dialog)
        row = dialog.skipped.topLevelItem(0)
        assert (row.text(0), row.toolTip(0), row.text(1)) == (
            "note.md", str(folder / "note.md"),
            f"从“{folder / 'Note.md'}”移动或改名而来：仍是同一份文档，它的链接都保留了")
    finally:
        i18n.install_language("en")


def test_a_move_is_looked_up_by_content_through_an_index(tmp_path: Path) -> None:
    """Every new path asks for documents with its content: without an index on sha256 that
    read the whole table per file (100,000 documents: 22.7 -> 5.0 ms a save,
    benchmarks/bench_move_lookup.py). A library from before schema 7 gains it on opening."""
    from desktop_kb.store.connection import open_store

    raw = sqlite3.connect(tmp_path / "library.sqlite")
    for version in range(1, 7):
        for statement in MIGRATIONS[version]:
            raw.execute(statement)
    raw.execute("PRAGMA user_version = 6")
    raw.commit()
    raw.close()
    conn = open_store(tmp_path / "library.sqlite", backup_before_upgrade=False)
    plan = " ".join(str(row[3]) for row in conn.execute(
        "EXPLAIN QUERY PLAN SELECT id, path FROM documents WHERE sha256 = ? AND format = ? AND path != ?",
        ("0" * 64, "md", "/x.md")))
    conn.close()
    assert "documents_sha256" in plan, plan


def test_no_file_is_looked_at_while_the_library_is_locked_for_writing(
        tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Whether a same-content document's old path still exists is asked of the disk, which
    may be a sleeping USB disk or a network share taking seconds to answer: asked inside
    the write transaction (and under the library's write lock), every save of the app
    waited for it."""
    folder = _study(tmp_path)
    with Library(tmp_path / "library", load_model=False) as lib:
        assert lib.import_paths([folder]).added == 2
        (folder / "Note.md").rename(folder / "renamed.md")
        (folder / "copy.md").write_text((folder / "other.md").read_text(encoding="utf-8"),
                                        encoding="utf-8")
        seen: list[tuple[str, bool, bool]] = []
        real_lexists = os.path.lexists

        def lexists(path: str) -> bool:
            held: list[bool] = []
            probe = threading.Thread(target=lambda: held.append(not _try(lib._write_lock)))
            probe.start()
            probe.join()
            seen.append((Path(path).name, lib.store.in_transaction, held[0]))
            return real_lexists(path)

        monkeypatch.setattr(documents.os.path, "lexists", lexists)
        summary = lib.import_paths([folder])
        assert (summary.added, len(summary.moved)) == (1, 1)
        assert sorted(seen) == [("Note.md", False, False), ("other.md", False, False)], seen


def _try(lock) -> bool:  # type: ignore[no-untyped-def]
    if lock.acquire(timeout=0):
        lock.release()
        return True
    return False
