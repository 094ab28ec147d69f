"""A library on a stick, pulled and put back (or another stick mounted at the same place) while
the app has it open, and the CLI writing to the one that is there now.

The new file system numbers its files as the old one did (tmpfs here; FAT derives the numbers
from where an entry sits in its folder, so a copy of the folder on another stick does too). The
app's last connection to the old ``library.sqlite`` deleted ``library.sqlite-wal`` and ``-shm``
*by name* as it closed — the new stick's, with the CLI's committed note in it — because SQLite
tells a moved file by its inode number alone.
"""

from __future__ import annotations

import gc
import os
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from mounts import tmpfs

from desktop_kb.library import Library
from desktop_kb.store.errors import LibraryReplacedError

TIMEOUT = 120

# "The CLI": saves a note into the library that is on the stick now, then is killed before it
# closes (its committed pages are in -wal; the next process to open the library reads them).
WRITER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from desktop_kb.library import Library
    lib = Library(Path(sys.argv[1]), load_model=False)
    lib.store.execute("PRAGMA wal_autocheckpoint = 0")
    note = lib.add_note("写在U盘上", "saved by the command while the app had the old stick zqcli")
    print(note, flush=True)
    time.sleep(600)
""")


def _make_with_inode(target: Path, inode: int, content: Path) -> None:
    """Create ``target`` with ``content``'s bytes as inode number ``inode`` (a fresh tmpfs numbers
    new files one after another)."""
    spare = []
    for i in range(1000):
        probe = target.with_name(f".probe-{i}")
        probe.touch()
        if probe.stat().st_ino == inode:
            probe.rename(target)
            break
        spare.append(probe)
    else:
        raise AssertionError(f"no file got inode {inode}")
    for probe in spare:
        probe.unlink()
    with open(target, "r+b") as out:
        out.write(content.read_bytes())


def test_closing_the_pulled_sticks_library_deletes_nothing_of_the_one_put_back(tmp_path: Path) -> None:
    stick = tmp_path / "STICK"
    data_dir = stick / "library"
    contents = tmp_path / "stick-contents"
    with tmpfs(stick, 16384):
        app = Library(data_dir, load_model=False)
        closed = False
        try:
            note = app.add_note("在U盘上", "before the stick went zqbefore")
            assert app.drain(60)
            opened = app.store.opened
            assert opened is not None
            app.store.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the stick's file holds the note
            shutil.copytree(data_dir, contents, ignore=shutil.ignore_patterns("*-wal", "*-shm", "*.lock"))
            assert subprocess.run(["umount", "-l", str(stick)], capture_output=True).returncode == 0
            with tmpfs(stick, 16384):  # put back at the same place: the same inode numbers
                data_dir.mkdir()
                _make_with_inode(data_dir / "library.sqlite", opened[1], contents / "library.sqlite")
                new = (data_dir / "library.sqlite").stat()
                assert new.st_ino == opened[1] and new.st_dev != opened[0]
                cli = subprocess.Popen([sys.executable, "-c", WRITER, str(data_dir)], stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, text=True, cwd=Path(__file__).parents[1])
                try:
                    line = cli.stdout.readline() if cli.stdout else ""
                    assert line.strip().isdigit(), cli.stderr.read() if cli.stderr else line
                    assert (data_dir / "library.sqlite-wal").stat().st_size > 0
                    # The window goes on: it reads a note (its readers move to the new file, so the
                    # write connection is the old file's last) and tries to save (refused).
                    assert app.get_note(note).body == "before the stick went zqbefore"
                    with pytest.raises(LibraryReplacedError):
                        app.save_note(note, body="typed after it came back zqafter")
                    app.close()  # the window closed (or switched library)
                    closed = True
                    gc.collect()
                    assert (data_dir / "library.sqlite-wal").exists()
                    assert (data_dir / "library.sqlite-shm").exists()
                finally:
                    os.kill(cli.pid, signal.SIGKILL)  # then the command was killed (or the power went)
                    cli.wait(TIMEOUT)
                with Library(data_dir, load_model=False) as again:
                    bodies = [again.get_note(n.id).body for n in again.list_notes()]
                    assert "saved by the command while the app had the old stick zqcli" in bodies
        finally:
            if not closed:
                app.close()


# "The CLI" on the stick put back: it keeps that library's index (the lock file there is free).
OWNER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from desktop_kb.library import Library
    lib = Library(Path(sys.argv[1]), load_model=False)
    assert lib.drain(60)
    print(int(lib.worker.is_owner), flush=True)
    time.sleep(600)
""")


def test_the_pulled_sticks_index_owner_leaves_the_index_of_the_stick_put_back_alone(tmp_path: Path) -> None:
    """The app kept the index of the library on the stick; pulled and put back, the folder at the
    path is another one, whose index a command now keeps. The app's index worker saw an index
    file that was not its own and 'recreated' it — deleting the command's index under it — and
    its status went on saying all was well."""
    import threading

    from desktop_kb.index.apply import IndexEvent
    from desktop_kb.paths import file_identity
    from desktop_kb.store.errors import REPLACED_LIBRARY_MESSAGE

    stick = tmp_path / "STICK"
    data_dir = stick / "library"
    contents = tmp_path / "stick-contents"
    with tmpfs(stick, 16384):
        app = Library(data_dir, load_model=False)
        try:
            app.add_note("在U盘上", "before the stick went zqbefore")
            assert app.drain(60) and app.worker.is_owner
            said = threading.Event()

            def listen(event: IndexEvent) -> None:
                if event.kind == "failed" and REPLACED_LIBRARY_MESSAGE in event.detail:
                    said.set()

            shutil.copytree(data_dir, contents)
            assert subprocess.run(["umount", "-l", str(stick)], capture_output=True).returncode == 0
            with tmpfs(stick, 16384):  # put back at the same place
                shutil.copytree(contents, data_dir)
                cli = subprocess.Popen([sys.executable, "-c", OWNER, str(data_dir)], stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, text=True, cwd=Path(__file__).parents[1])
                try:
                    line = cli.stdout.readline() if cli.stdout else ""
                    assert line.strip() == "1", cli.stderr.read() if cli.stderr else line
                    kept = file_identity(data_dir / "index.sqlite")
                    app.worker.add_listener(listen)
                    assert said.wait(60), "the app's index status never said the library was replaced"
                    assert app.worker.error is not None and REPLACED_LIBRARY_MESSAGE in app.worker.error
                    assert file_identity(data_dir / "index.sqlite") == kept  # the command's index
                    assert cli.poll() is None
                finally:
                    os.kill(cli.pid, signal.SIGKILL)
                    cli.wait(TIMEOUT)
        finally:
            app.close()
