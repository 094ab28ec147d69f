"""Study files on a case-insensitive disk (a FAT or exFAT stick, macOS, Windows) renamed in case
only: 'Rust.md' -> 'rust.md'. Imported again with --prune, the file became a second document and
the first was never pruned: the old name still opens the file there. Where each spelling gets an
inode number of its own (FUSE file systems), the samefile test behind move detection missed it.

A real FAT file system, mounted with fusefat (apt: fusefat dosfstools); skipped without it. The
library itself stays on the normal disk: fusefat cannot grow a file with ftruncate, which
SQLite's WAL index needs, so a library cannot live on it (the kernel's vfat can; not here).
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_kb.library import Library

pytestmark = pytest.mark.skipif(
    not (shutil.which("fusefat") and shutil.which("mkfs.vfat") and shutil.which("fusermount")
         and Path("/dev/fuse").exists()), reason="needs fusefat, mkfs.vfat and /dev/fuse")


@pytest.fixture
def fat(tmp_path: Path) -> Iterator[Path]:
    image, mount = tmp_path / "stick.img", tmp_path / "stick"
    subprocess.run(["truncate", "-s", "32M", str(image)], check=True)
    subprocess.run(["mkfs.vfat", "-n", "STICK", str(image)], check=True, capture_output=True)
    mount.mkdir()
    mounted = subprocess.run(["fusefat", "-o", "rw+", str(image), str(mount)], capture_output=True, text=True)
    if mounted.returncode:  # /dev/fuse present but not usable here (a container without the right)
        pytest.skip(f"fusefat could not mount: {mounted.stderr.strip()[:200]}")
    try:
        (mount / "Probe.txt").write_text("x")
        if not (mount / "PROBE.TXT").exists():
            pytest.skip("this FAT mount is not case-insensitive")
        (mount / "Probe.txt").unlink()
        yield mount
    finally:
        subprocess.run(["fusermount", "-u", str(mount)], check=False, capture_output=True)


def test_a_case_only_rename_on_a_case_insensitive_disk_is_one_document(data_dir: Path, fat: Path) -> None:
    study = fat / "study"
    study.mkdir()
    (study / "Rust.md").write_text("# 所有权\n\nzqfatcase1 所有权规则\n", encoding="utf-8")
    (study / "Trait.md").write_text("# 特征\n\nzqfatcase2 特征对象\n", encoding="utf-8")
    with Library(data_dir, load_model=False) as lib:
        assert lib.import_paths([study]).added == 2
        note = lib.add_note("读书笔记", "见所有权")
        rust = next(d for d in lib.list_documents() if d.path.endswith("Rust.md"))
        fragment = lib.list_fragments(rust.id)[0]
        assert lib.link(note, "fragment", fragment.id)

        (study / "Rust.md").rename(study / "rust.md")  # same content: a move
        (study / "Trait.md").rename(study / "trait.md")
        (study / "trait.md").write_text("# 特征\n\nzqfatcase3 改过的特征对象\n", encoding="utf-8")
        summary = lib.import_paths([study], prune=True)
        assert [(Path(a).name, Path(b).name) for a, b in summary.moved] == [("Rust.md", "rust.md")]
        assert summary.added == 1 and summary.removed == 1, summary.as_json()
        assert sorted(Path(d.path).name for d in lib.list_documents()) == ["rust.md", "trait.md"]
        assert [t.target_id for t in lib.note_links(note).outgoing] == [fragment.id]  # the link kept
        assert lib.drain(120)
        assert [r.source_id for r in lib.search("zqfatcase2").results] == []  # the old text gone
