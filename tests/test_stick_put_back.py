"""A library on a stick, pulled and put back (or another stick mounted at the same place) while
the app has it open, and the CLI writing to the one that is there now.

The new file system numbers its files as the old one did (tmpfs here; FAT derives the numbers
from where an entry sits in its folder, so a copy of the folder on another stick does too). The
app's last connection to the old ``library.sqlite`` deleted ``library.sqlite-wal`` and ``-shm``
*by name* as it closed — the new stick's, with the CLI's committed note in it — because SQLite
tells a moved file by its inode number alone.
"""

from __future__ import annotations

import contextlib
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


def test_a_lock_file_swapped_between_open_and_lock_is_not_taken_for_the_lock(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """flock locks the open file, not the name. The stick is pulled and put back between the
    command's open of ``index.writer.lock`` and its lock: the file it locked is the old stick's,
    which guards nothing on the new one — yet the new stick's lock file has the same inode
    number, and the lock compared inode numbers only: two processes wrote one index."""
    from desktop_kb.index import writer_lock
    from desktop_kb.index.writer_lock import LOCK_NAME, WriterLock

    stick = tmp_path / "STICK"
    data_dir = stick / "library"
    contents = tmp_path / "lock-contents"
    contents.write_bytes(b"{}")
    real_try_lock = writer_lock._try_lock
    swapped: list[os.stat_result] = []

    def pulled_and_put_back_then_lock(fh):  # type: ignore[no-untyped-def]
        if not swapped:
            held = os.fstat(fh.fileno())
            assert subprocess.run(["umount", "-l", str(stick)], capture_output=True).returncode == 0
            stack.enter_context(tmpfs(stick, 1024))
            data_dir.mkdir()
            _make_with_inode(data_dir / LOCK_NAME, held.st_ino, contents)
            swapped.append((data_dir / LOCK_NAME).stat())
        return real_try_lock(fh)

    with contextlib.ExitStack() as stack, tmpfs(stick, 1024):
        data_dir.mkdir()
        (data_dir / LOCK_NAME).write_bytes(b"{}")
        monkeypatch.setattr(writer_lock, "_try_lock", pulled_and_put_back_then_lock)
        lock = WriterLock(data_dir, "cli")
        try:
            assert not lock.try_acquire(), "a lock on the pulled stick's file was taken for the new stick's"
            assert swapped and swapped[0].st_ino == os.stat(data_dir / LOCK_NAME).st_ino
            assert lock.try_acquire()  # the next try locks the file that is there now
            assert lock._fh is not None
            held = os.fstat(lock._fh.fileno())
            assert (held.st_dev, held.st_ino) == (swapped[0].st_dev, swapped[0].st_ino)
            assert not lock.another_file_in_its_place()
        finally:
            lock.release()


def test_a_library_reached_through_a_bind_mount_or_a_link_takes_its_lock(tmp_path: Path) -> None:
    """The lock tells a replaced file by the kernel's name for the file it holds: a library
    reached through a symbolic link or a bind mount (another path to the same file) is still
    the same lock, held once."""
    from desktop_kb.index.writer_lock import WriterLock

    real = tmp_path / "disk"
    with tmpfs(real, 1024):
        (real / "library").mkdir()
        link = tmp_path / "linked"
        link.symlink_to(real)
        bound = tmp_path / "bound"
        bound.mkdir()
        assert subprocess.run(["mount", "--bind", str(real), str(bound)], capture_output=True).returncode == 0
        try:
            for where in (link / "library", bound / "library", real / "library"):
                lock = WriterLock(where, "cli")
                try:
                    assert lock.try_acquire(), where
                    assert not lock.another_file_in_its_place(), where
                    assert not WriterLock(real / "library", "cli").try_acquire()  # one holder
                finally:
                    lock.release()
        finally:
            subprocess.run(["umount", "-l", str(bound)], capture_output=True)
