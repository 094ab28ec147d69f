"""Exporting notes as Markdown files, again and again into the same folder."""

from __future__ import annotations

import unicodedata
from dataclasses import replace
from pathlib import Path

from desktop_kb.store.notes import Note
from desktop_kb.tasks.export_notes import export_notes, render_note

T0 = 1_780_000_000.0


def _note(note_id: int, title: str, body: str, created: float) -> Note:
    return Note(id=note_id, title=title, body=body, created_at=created, updated_at=created + 60,
                local_only=False, trashed_at=None)


def test_exporting_again_rewrites_the_earlier_files_instead_of_adding_copies(tmp_path: Path) -> None:
    # File → Export notes twice into one folder left "超长笔记 (2).md" beside every note.
    notes = [_note(1, "Rust 所有权笔记", "第一版", T0), _note(2, "t2", "x", T0 + 5),
             _note(3, "t2", "another note with the same title", T0 + 9)]
    folder = tmp_path / "vault"
    folder.mkdir()
    (folder / "读我.md").write_text("my own file\n", encoding="utf-8")  # not ours: never touched
    export_notes(notes, folder)
    first = sorted(p.name for p in folder.iterdir())
    assert first == ["Rust 所有权笔记.md", "t2 (2).md", "t2.md", "读我.md"]

    notes[0] = replace(notes[0], body="第二版", updated_at=T0 + 999)
    assert export_notes(notes, folder).written == 3
    assert sorted(p.name for p in folder.iterdir()) == first
    assert (folder / "Rust 所有权笔记.md").read_text(encoding="utf-8").endswith("第二版\n")
    assert (folder / "t2.md").read_text(encoding="utf-8").endswith("x\n")
    assert (folder / "t2 (2).md").read_text(encoding="utf-8").endswith("another note with the same title\n")
    assert (folder / "读我.md").read_text(encoding="utf-8") == "my own file\n"


def test_a_file_of_the_same_name_that_is_not_an_export_is_kept(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "t2.md").write_text("---\ntitle: \"t2\"\ncreated: 2020-01-01T00:00:00+00:00\n---\nmine\n",
                                  encoding="utf-8")
    export_notes([_note(2, "t2", "x", T0)], folder)
    assert (folder / "t2.md").read_text(encoding="utf-8").endswith("mine\n")
    assert (folder / "t2 (2).md").read_text(encoding="utf-8").endswith("x\n")


def test_a_full_disk_keeps_the_earlier_export_whole_and_says_how_far_it_got(tmp_path: Path) -> None:
    """Exporting again onto a nearly full stick truncated the earlier export of a note, then
    failed writing it: the copy a person kept (and maybe relied on) was lost, with a raw
    "[Errno 28] No space left on device" as the only word."""
    import pytest
    from mounts import tmpfs

    from desktop_kb.tasks.export_notes import ExportError

    notes = [_note(i, f"笔记 {i}", f"第一版 {i} " + "字" * 2000, T0 + i) for i in range(1, 6)]
    with tmpfs(tmp_path / "stick", 256) as stick:
        folder = stick / "notes"
        export_notes(notes, folder)
        before = {p.name: p.read_bytes() for p in folder.iterdir()}
        (stick / "filler").write_bytes(b"\0" * (256 * 1024 - 5 * 8192 - sum(map(len, before.values()))))
        longer = [replace(n, body=n.body * 4, updated_at=T0 + 999) for n in notes]
        with pytest.raises(ExportError) as failed:
            export_notes(longer, folder)
        message = str(failed.value)
        assert "full" in message and str(folder) in message and "unchanged" in message, message
        after = {p.name: p.read_bytes() for p in folder.iterdir()}
        assert set(after) == set(before)  # no half-written or temporary file left behind
        whole_new = {render_note(n).encode("utf-8") for n in longer}
        for name, data in after.items():  # each file is the old export or the new one, whole
            assert data == before[name] or data in whole_new, name
        assert any(data == before[name] for name, data in after.items())


def test_long_titles_in_chinese_or_emoji_are_exported_under_names_the_disk_takes(tmp_path: Path) -> None:
    """A title of 80 Chinese characters is 240 bytes in UTF-8, and the file is first written as
    '.TITLE.md.PID.tmp': past the 255 bytes a Linux or macOS disk allows in a name, so the
    export stopped at that note ('[Errno 36] File name too long'); 80 emoji or rarer
    ideographs (four bytes each) failed as '.😀😀….md' too."""
    titles = ["关于所有权与借用检查器如何在编译期保证内存安全的详细学习笔记" * 3,
              "关于所有权与借用检查器如何在编译期保证内存安全的详细学习笔记" * 3,  # a second one: "(2)"
              "😀" * 100, "𠀀𠀁" * 50, "e\u0301" * 150]
    notes = [_note(i, title, f"正文 {i}", T0 + i) for i, title in enumerate(titles, 1)]
    folder = tmp_path / "out"
    assert export_notes(notes, folder).written == len(notes)
    names = sorted(p.name for p in folder.iterdir())
    assert len(names) == len(notes) and all(len(n.encode("utf-8")) <= 230 for n in names), names
    for note in notes:
        found = [p for p in folder.iterdir() if render_note(note) == p.read_text(encoding="utf-8")]
        assert len(found) == 1, note.title
        assert found[0].name.startswith(unicodedata.normalize("NFC", note.title)[:20])  # its title
    assert export_notes(notes, folder).written == len(notes)  # again: the same files, rewritten
    assert sorted(p.name for p in folder.iterdir()) == names
