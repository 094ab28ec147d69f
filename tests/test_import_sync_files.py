"""A folder a sync client keeps (Dropbox, Nextcloud, OneDrive, Syncthing) holds files of its own
beside the person's: conflicted copies, its temporary files, Office owner files it synced along."""

from __future__ import annotations

from pathlib import Path

from test_gui_support import gui_marks

from desktop_kb.library import Library

pytestmark = gui_marks()


def _synced_folder(root: Path) -> Path:
    folder = root / "Dropbox" / "学习"
    folder.mkdir(parents=True)
    (folder / "note.md").write_text("# 笔记\n\n这台电脑写的 zqmine\n", encoding="utf-8")
    (folder / "note (conflicted copy 2026-12-06).md").write_text(
        "# 笔记\n\n另一台电脑写的 zqtheirs\n", encoding="utf-8")
    (folder / "note.sync-conflict-20261206-101010-ABCDEFG.md").write_text(
        "# 笔记\n\nSyncthing 留下的 zqsyncthing\n", encoding="utf-8")
    (folder / ".syncthing.note.md.tmp").write_bytes(b"# half a fi")  # being written now
    (folder / "~$报告.docx").write_bytes(b"\x0bAnn Author" + b"\x00" * 40)  # Word's owner file
    return folder


def test_conflicted_copies_are_imported_and_named_and_sync_files_are_not_called_damaged(
        tmp_path: Path) -> None:
    folder = _synced_folder(tmp_path)
    with Library(tmp_path / "library", load_model=False) as lib:
        summary = lib.import_paths([folder])
        assert summary.added == 3 and summary.failed == []
        # The owner file was listed as "not a valid Word document file (the zip container is
        # damaged)": the person went looking for a broken document that does not exist.
        assert summary.skipped == [], summary.skipped
        assert summary.quiet_skipped["hidden"] == 1
        assert sorted(summary.conflicted) == sorted([
            (str(folder / "note (conflicted copy 2026-12-06).md"), "note.md"),
            (str(folder / "note.sync-conflict-20261206-101010-ABCDEFG.md"), "note.md")])
        assert lib.drain(60)
        for marker in ("zqmine", "zqtheirs", "zqsyncthing"):  # every version's words are found
            assert lib.search(marker).results, marker


def test_the_import_summary_names_a_conflicted_copy_in_the_ui_language(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from desktop_kb.ui import i18n
    from desktop_kb.ui.import_dialog import ImportSummaryDialog

    folder = _synced_folder(tmp_path)
    with Library(tmp_path / "library", load_model=False) as lib:
        summary = lib.import_paths([folder])
    i18n.install_language("zh_CN")
    try:
        dialog = ImportSummaryDialog(summary)
        qtbot.addWidget(dialog)
        rows = [dialog.skipped.topLevelItem(i).text(1) for i in range(dialog.skipped.topLevelItemCount())]
        assert rows == ["“note.md”的冲突副本：两台设备都改过这个文件，同步软件把两份都留下了。请比较两者，保留其中一份"] * 2
    finally:
        i18n.install_language("en")
