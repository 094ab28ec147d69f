"""A half-copied or emptied ``library.sqlite`` (a person restoring a folder a copy cut short).

The way out the message names — restore a backup — must work on exactly
that library: the restore used to back the damaged file up first, which
failed on the damage ("Could not back up the library: database disk image
is malformed"), so the person was told to restore and could not. A 0-byte
``library.sqlite`` was silently taken for a new, empty library, and each
day's backup of nothing then pushed one good backup out of the seven kept.
Real processes and real files throughout.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from desktop_kb.library import Library
from desktop_kb.store.backup import list_backups

TIMEOUT = 120


def cli(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir), *args],
                          capture_output=True, text=True, encoding="utf-8", timeout=TIMEOUT)


def _library_with_a_backup(data_dir: Path, tmp_path: Path) -> str:
    folder = tmp_path / "book"
    folder.mkdir()
    for i in range(30):
        (folder / f"c{i:02d}.md").write_text(
            f"# 第 {i} 章\n\n{'一段正文 body text ' * 60}zqdmg{i:02d}\n", encoding="utf-8")
    assert cli(data_dir, "import", str(folder)).returncode == 0
    done = cli(data_dir, "note", "add", "--title", "笔记", "--body", "my own words zqdmgnote")
    assert done.returncode == 0, done.stderr
    made = cli(data_dir, "backup", "create", "--json")
    assert made.returncode == 0, made.stderr
    return str(json.loads(made.stdout)["name"])


def _cut_short(store: Path) -> bytes:
    """What an interrupted copy leaves: the first half of the file, no -wal or -shm."""
    whole = store.read_bytes()
    assert len(whole) > 100_000  # the closed library is whole in its one file
    for suffix in ("-wal", "-shm"):
        Path(f"{store}{suffix}").unlink(missing_ok=True)
    half = whole[: len(whole) // 2]
    store.write_bytes(half)
    return half


def test_a_half_copied_library_is_restored_by_the_way_the_message_names(
        data_dir: Path, tmp_path: Path) -> None:
    name = _library_with_a_backup(data_dir, tmp_path)
    store = data_dir / "library.sqlite"
    half = _cut_short(store)
    opened = cli(data_dir, "note", "list")
    assert opened.returncode == 1 and "backup restore" in opened.stderr, opened.stderr
    restored = cli(data_dir, "backup", "restore", name, "--json")
    assert restored.returncode == 0, restored.stderr
    kept = Path(json.loads(restored.stdout)["previous_state"])
    assert kept.read_bytes() == half  # the damaged file is set aside, never thrown away
    assert kept.parent == data_dir / "backups"
    assert [b.path.name for b in list_backups(store)] == [name]  # not offered as a backup
    listed = cli(data_dir, "note", "list", "--json")
    assert listed.returncode == 0, listed.stderr
    found = cli(data_dir, "search", "zqdmg17", "--json")
    assert found.returncode == 0, found.stderr
    assert [r["source_type"] for r in json.loads(found.stdout)["results"]] == ["fragment"]
    found = cli(data_dir, "search", "zqdmgnote", "--json")
    assert [r["source_type"] for r in json.loads(found.stdout)["results"]] == ["note"]
    status = cli(data_dir, "index", "verify", "--no-repair", "--json")
    assert json.loads(status.stdout)["drift"] == 0, status.stdout


def test_an_empty_library_file_beside_backups_is_not_taken_for_a_new_library(
        data_dir: Path, tmp_path: Path) -> None:
    name = _library_with_a_backup(data_dir, tmp_path)
    store = data_dir / "library.sqlite"
    for suffix in ("-wal", "-shm"):
        Path(f"{store}{suffix}").unlink(missing_ok=True)
    store.write_bytes(b"")
    before = sorted(p.name for p in (data_dir / "backups").iterdir())
    for command in (["note", "list"], ["index", "status"], ["search", "zqdmg03"]):
        opened = cli(data_dir, *command)
        assert opened.returncode == 1, (command, opened.stdout)
        assert "empty" in opened.stderr and "backup restore" in opened.stderr, opened.stderr
    assert store.stat().st_size == 0  # not turned into a new library
    assert sorted(p.name for p in (data_dir / "backups").iterdir()) == before
    restored = cli(data_dir, "backup", "restore", name)
    assert restored.returncode == 0, restored.stderr
    found = cli(data_dir, "search", "zqdmgnote", "--json")
    assert [r["source_type"] for r in json.loads(found.stdout)["results"]] == ["note"]


def test_an_empty_file_in_a_new_folder_is_a_new_library(data_dir: Path) -> None:
    """A 0-byte file where nothing was ever kept (someone ran ``touch``) stays a fine start."""
    (data_dir / "library.sqlite").write_bytes(b"")
    done = cli(data_dir, "note", "add", "--title", "新", "--body", "a fresh start zqdmgnew")
    assert done.returncode == 0, done.stderr


def test_a_deleted_library_file_beside_its_backups_is_restored_not_started_over(
        data_dir: Path, tmp_path: Path) -> None:
    name = _library_with_a_backup(data_dir, tmp_path)
    store = data_dir / "library.sqlite"
    store.unlink()  # a person tidying up, another program, a sync client
    opened = cli(data_dir, "note", "list")
    assert opened.returncode == 1 and "missing" in opened.stderr, opened.stdout
    assert not store.exists()  # no new, empty library made in its place
    restored = cli(data_dir, "backup", "restore", name, "--json")
    assert restored.returncode == 0, restored.stderr
    assert json.loads(restored.stdout)["previous_state"] is None
    found = cli(data_dir, "search", "zqdmg05", "--json")
    assert [r["source_type"] for r in json.loads(found.stdout)["results"]] == ["fragment"]


def _damage_a_page_inside(store: Path) -> None:
    """A damaged page deep in the file: the library still opens, a backup of it fails."""
    data = bytearray(store.read_bytes())
    page = 4096
    at = (data.index(b"zqdmg15") // page) * page  # a page of one passage's text
    data[at + 8: at + page] = b"\xa5" * (page - 8)
    store.write_bytes(bytes(data))


def test_a_damaged_library_another_process_has_open_is_not_swapped_under_it(
        data_dir: Path, tmp_path: Path) -> None:
    """Setting the damaged file aside is only safe when nobody has it open: the app would go
    on saving into the file set aside, and those notes would be gone from the library."""
    from test_processes import Actor

    name = _library_with_a_backup(data_dir, tmp_path)
    store = data_dir / "library.sqlite"
    _damage_a_page_inside(store)
    app = Actor(data_dir, "app")
    try:
        assert app.owner
        inode = store.stat().st_ino
        refused = cli(data_dir, "backup", "restore", name)
        assert refused.returncode == 1, refused.stdout
        assert "damaged" in refused.stderr and "app" in refused.stderr, refused.stderr
        assert store.stat().st_ino == inode  # not moved under the app
        assert not list((data_dir / "backups").glob("damaged-library-*"))
    finally:
        app.quit()
    restored = cli(data_dir, "backup", "restore", name)
    assert restored.returncode == 0, restored.stderr
    found = cli(data_dir, "search", "zqdmgnote", "--json")
    assert [r["source_type"] for r in json.loads(found.stdout)["results"]] == ["note"]


def test_an_import_that_fills_the_disk_says_how_far_it_got(tmp_path: Path) -> None:
    """The disk filled during 'desktop-kb import': 375 of 600 files were saved, and the only
    line printed was the index's 'Saved in the library, but not searchable yet … catches up by
    itself': no summary, nothing about the 225 files never imported."""
    from mounts import tmpfs

    folder = tmp_path / "many"
    folder.mkdir()
    for i in range(400):
        (folder / f"f{i:03d}.md").write_text(
            f"# 文件 {i}\n\n{'正文 body text ' * 300}zqfill{i:03d}\n", encoding="utf-8")
    with tmpfs(tmp_path / "disk", 3072) as disk:
        data_dir = disk / "library"
        done = cli(data_dir, "import", str(folder))
        assert done.returncode == 1
        saved = [line for line in done.stdout.splitlines() if line.startswith("added ")]
        assert saved, (done.stdout, done.stderr)
        added = int(saved[0].split()[1].rstrip(","))
        assert "stopped early" in done.stdout and "full" in done.stdout, done.stdout
        with Library(data_dir, load_model=False) as lib:
            assert len(lib.list_documents()) == added < 400
