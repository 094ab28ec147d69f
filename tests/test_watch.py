"""The app follows changes other processes make (I12): only what changed, from the feed."""

from __future__ import annotations

from pathlib import Path

from desktop_kb.library import Library
from desktop_kb.store.backup import create_backup
from desktop_kb.store.restore import restore_backup
from desktop_kb.watch import ChangeWatcher


def test_the_watcher_reports_exactly_what_another_process_changed(data_dir: Path, tmp_path: Path) -> None:
    app = Library(data_dir, load_model=False)
    keep = app.add_note("不变", "unchanged")
    edit = app.add_note("要改", "before")
    gone = app.add_note("要删", "doomed")
    watcher = ChangeWatcher(app.paths.store, app.paths.models)
    watcher.start()
    assert not watcher.poll()  # nothing happened yet
    with Library(data_dir, load_model=False) as cli:  # another writer
        cli.save_note(edit, body="after")
        added = cli.add_note("新的", "new")
        cli.delete_note(gone)
        cli.set_setting("qa.budget_chars", 2000)
    changes = watcher.poll()
    assert {n.id: n.body for n in changes.notes} == {edit: "after", added: "new"}
    assert keep not in {n.id for n in changes.notes}
    assert changes.deleted_notes == [gone]
    assert changes.settings and not changes.documents and not changes.history
    assert not watcher.poll()  # reported once

    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\ntext\n", encoding="utf-8")
    with Library(data_dir, load_model=False) as cli:
        cli.import_paths([folder])
    changes = watcher.poll()
    assert changes.documents and not changes.notes

    (app.paths.models / "some-model").mkdir(parents=True)
    assert watcher.poll().models

    backup = create_backup(app.paths.store)
    restore_backup(app.paths.store, backup.path)
    assert watcher.poll().history  # a restored store: everything is reloaded
    watcher.close()
    app.close()
