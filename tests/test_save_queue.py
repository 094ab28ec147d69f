"""No lost words (I13): failing saves keep the text, say why, retry, and come back after a restart.

Real file systems: a tiny tmpfs that fills up, a data folder remounted
read-only (see ``mounts``), and SQLite's ``max_page_count`` for a full library
on any machine.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from mounts import remount, tmpfs

from desktop_kb import recovery
from desktop_kb.library import Library
from desktop_kb.tasks.save_queue import UNFINISHED_SAVE_MESSAGE, SaveQueue

pytestmark = pytest.mark.usefixtures("qapp")

BIG = "很长的一段文字 a long paragraph of text. " * 2000


@pytest.fixture
def queue(qtbot) -> SaveQueue:  # type: ignore[no-untyped-def]
    q = SaveQueue()
    yield q
    q.stop(timeout=5)


def _stored(data_dir: Path, note_id: int) -> str:
    with Library(data_dir, load_model=False) as lib:
        return lib.get_note(note_id).body


def test_a_full_library_keeps_the_text_says_why_and_saves_when_there_is_room(
    qtbot, queue: SaveQueue, data_dir: Path,  # type: ignore[no-untyped-def]
) -> None:
    lib = Library(data_dir, load_model=False)
    try:
        note_id = lib.add_note("满了", "short")
        queue.set_library(lib)
        pages = lib.store.execute("PRAGMA page_count").fetchone()[0]
        lib.store.execute(f"PRAGMA max_page_count = {pages}")
        with qtbot.waitSignal(queue.saveFailed, timeout=10000) as failed:
            queue.save(note_id, "满了", BIG + "zqlost1")
        assert failed.args[0] == note_id and "full" in failed.args[1].lower()
        kept = recovery.pending(data_dir)
        assert [(k.note_id, k.body) for k in kept] == [(note_id, BIG + "zqlost1")]
        assert kept[0].path.parent == data_dir / "recovery"
        assert queue.pending_text(note_id) == ("满了", BIG + "zqlost1")
        # Typing on while it fails: the newest text is the one retried.
        queue.save(note_id, "满了", BIG + "zqlost2")
        assert not queue.flush(0.5)
        lib.store.execute("PRAGMA max_page_count = 1073741823")
        with qtbot.waitSignal(queue.saved, timeout=10000):
            queue.retry_now()
        assert queue.flush(5)
        assert recovery.pending(data_dir) == []
        assert lib.get_note(note_id).body == BIG + "zqlost2"
    finally:
        queue.set_library(None)
        lib.close()


def test_text_that_never_saved_is_offered_after_a_restart(qtbot, data_dir: Path) -> None:  # type: ignore[no-untyped-def]
    lib = Library(data_dir, load_model=False)
    queue = SaveQueue()
    note_id = lib.add_note("关闭", "short")
    queue.set_library(lib)
    pages = lib.store.execute("PRAGMA page_count").fetchone()[0]
    lib.store.execute(f"PRAGMA max_page_count = {pages}")
    with qtbot.waitSignal(queue.saveFailed, timeout=20000):  # (a fixed 1.5 s raced it under load)
        queue.save(note_id, "关闭", BIG + "zqlost3")
    assert queue.stop(timeout=1.5) is False  # close: not saved, and says so
    assert [u.note_id for u in queue.unsaved()] == [note_id]
    lib.close()
    kept = recovery.pending(data_dir)
    assert [(k.note_id, k.title, k.body) for k in kept] == [(note_id, "关闭", BIG + "zqlost3")]
    assert "full" in kept[0].reason.lower()


@pytest.mark.parametrize("private", [False, True])
def test_a_note_purged_by_another_process_keeps_its_words_as_a_new_note(
    qtbot, queue: SaveQueue, data_dir: Path, private: bool,  # type: ignore[no-untyped-def]
) -> None:
    lib = Library(data_dir, load_model=False)
    try:
        note_id = lib.add_note("会被删掉", "old", local_only=private)
        loaded = lib.get_note(note_id)
        queue.set_base(note_id, loaded.change_seq, loaded.title, loaded.body,
                       local_only=loaded.local_only)
        queue.set_library(lib)
        other = Library(data_dir, load_model=False)  # "the CLI"
        other.delete_note(note_id)
        other.close()
        with qtbot.waitSignal(queue.noteRecreated, timeout=10000) as recreated:
            queue.save(note_id, "会被删掉", "typed after it was purged zqlost4")
        old, new = recreated.args
        assert old == note_id  # (SQLite may hand the freed id out again)
        assert lib.get_note(new).body == "typed after it was purged zqlost4"
        assert lib.get_note(new).local_only is private  # a private note's words stay private (I11)
        assert recovery.pending(data_dir) == []
    finally:
        queue.set_library(None)
        lib.close()


def fill_the_rest(filler: Path) -> None:
    """Write zeros until the disk refuses; an open that already fails means it is full."""
    try:
        with open(filler, "wb") as fh:
            while True:
                fh.write(b"\0" * 65536)
                fh.flush()
    except OSError:
        pass
    assert filler.exists()


def test_a_real_full_disk(qtbot, queue: SaveQueue, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # 16 MB: the library's own files (WAL, lexicon cache) must fit before the filler takes
    # the rest; at 3 MB they sometimes filled the disk themselves and the filler's open failed.
    with tmpfs(tmp_path / "disk", 16384) as disk:
        data_dir = disk / "library"
        lib = Library(data_dir, load_model=False)
        try:
            note_id = lib.add_note("磁盘", "short")
            queue.set_library(lib)
            filler = disk / "filler"
            fill_the_rest(filler)
            with qtbot.waitSignal(queue.saveFailed, timeout=20000) as failed:
                queue.save(note_id, "磁盘", BIG + "zqlost5")
            assert failed.args[0] == note_id
            kept = recovery.pending(data_dir)
            assert [(k.note_id, k.body) for k in kept] == [(note_id, BIG + "zqlost5")]
            assert kept[0].path.parent != data_dir / "recovery"  # the full disk could not take it
            filler.unlink()
            with qtbot.waitSignal(queue.saved, timeout=20000):
                queue.retry_now()
            assert recovery.pending(data_dir) == []
            assert lib.get_note(note_id).body == BIG + "zqlost5"
        finally:
            queue.set_library(None)
            lib.close()


def test_a_read_only_data_folder(qtbot, queue: SaveQueue, data_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """The library refuses writes (SQLITE_READONLY) and the folder next to it is a read-only
    mount: the text goes to the fallback folder and is saved once writing works again.

    (A mount cannot be switched to read-only while SQLite holds its files open
    for writing, so the library's refusal comes from ``query_only``, which
    fails writes with the same error a read-only file gives.)
    """
    lib = Library(data_dir, load_model=False)
    with tmpfs(data_dir / "recovery", 256) as folder:
        remount(folder, read_only=True)
        try:
            note_id = lib.add_note("只读", "short")
            queue.set_library(lib)
            lib.store.execute("PRAGMA query_only = ON")
            with qtbot.waitSignal(queue.saveFailed, timeout=20000) as failed:
                queue.save(note_id, "只读", "typed while read-only zqlost6")
            assert failed.args[0] == note_id and "read-only" in failed.args[1].lower()
            kept = recovery.pending(data_dir)
            assert [(k.note_id, k.body) for k in kept] == [(note_id, "typed while read-only zqlost6")]
            assert kept[0].path.parent != folder  # the read-only folder could not take it
            lib.store.execute("PRAGMA query_only = OFF")
            with qtbot.waitSignal(queue.saved, timeout=20000):
                queue.retry_now()
            assert lib.get_note(note_id).body == "typed while read-only zqlost6"
            assert recovery.pending(data_dir) == []
        finally:
            queue.set_library(None)
            lib.close()


def test_text_saved_elsewhere_meanwhile_is_kept_as_another_note(
    qtbot, queue: SaveQueue, data_dir: Path,  # type: ignore[no-untyped-def]
) -> None:
    lib = Library(data_dir, load_model=False)
    try:
        note_id = lib.add_note("两处编辑", "original")
        loaded = lib.get_note(note_id)
        queue.set_library(lib)
        queue.set_base(note_id, loaded.change_seq, loaded.title, loaded.body)
        queue.other_title = lambda title: f"{title}（另一版本）"
        with Library(data_dir, load_model=False) as cli:  # another process edits the same note
            cli.set_note_local_only(note_id, True)  # not a text change: no conflict from this
            cli.save_note(note_id, body="their words zqother")
        with qtbot.waitSignal(queue.otherVersionKept, timeout=10000) as kept:
            queue.save(note_id, "两处编辑", "my words zqmine")
        assert kept.args[0] == note_id
        other = lib.get_note(kept.args[1])
        assert (other.title, other.body, other.local_only) == ("两处编辑（另一版本）", "their words zqother", True)
        assert lib.get_note(note_id).body == "my words zqmine"
        # The next save replaces my own last version: no second copy.
        with qtbot.assertNotEmitted(queue.otherVersionKept, wait=200), \
                qtbot.waitSignal(queue.saved, timeout=10000):
            queue.save(note_id, "两处编辑", "my words again")
    finally:
        queue.set_library(None)
        lib.close()


def test_text_kept_while_the_stick_was_gone_comes_back_when_it_mounts_elsewhere(
        qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A library on a USB stick: pulled while typing, the words went to the per-user fallback
    folder, keyed by the library's path. Plugged back in while the old mount was still busy,
    the stick came up at another path (/media/me/STICK1), and the words were never offered."""
    import shutil

    data_dir = tmp_path / "STICK" / "library"
    lib = Library(data_dir, load_model=False)
    queue = SaveQueue()
    # The stick refuses writes: the library (query_only: SQLite holds its files open, so the
    # mount itself cannot be switched) and the folder beside it (a read-only mount).
    with tmpfs(data_dir / "recovery", 256) as folder:
        remount(folder, read_only=True)
        try:
            note_id = lib.add_note("在U盘上", "short")
            queue.set_library(lib)
            lib.store.execute("PRAGMA query_only = ON")
            with qtbot.waitSignal(queue.saveFailed, timeout=20000):
                queue.save(note_id, "在U盘上", "typed as the stick went zqstick")
            assert queue.stop(timeout=1.5) is False
        finally:
            queue.set_library(None)
            lib.close()
        assert [k.body for k in recovery.pending(data_dir)] == ["typed as the stick went zqstick"]
        assert recovery.pending(data_dir)[0].path.parent != folder
    elsewhere = tmp_path / "STICK1" / "library"  # the same stick, mounted at another path
    shutil.copytree(data_dir, elsewhere)
    shutil.rmtree(data_dir)
    with Library(elsewhere, load_model=False) as again:
        kept = recovery.pending(elsewhere, library_id=again.library_id)
        assert [(k.note_id, k.body) for k in kept] == [(note_id, "typed as the stick went zqstick")]
        recovery.discard(elsewhere, note_id)
        assert recovery.pending(elsewhere, library_id=again.library_id) == []


def test_text_of_another_library_is_never_offered(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    first, second = tmp_path / "one", tmp_path / "two"
    with Library(first, load_model=False) as lib:
        (first / "recovery").write_text("")  # not a folder: the text goes to the fallback
        kept = recovery.keep(first, 1, "t", "words of the first library", "disk full",
                             library_id=lib.library_id)
        assert kept.parent != first / "recovery"
        first_id = lib.library_id
    with Library(second, load_model=False) as lib:
        assert lib.library_id != first_id
        assert recovery.pending(second, library_id=lib.library_id) == []
    assert [k.body for k in recovery.pending(first, library_id=first_id)] == [
        "words of the first library"]


def test_a_kept_text_never_overwrites_an_edit_made_after_it_whatever_the_clock_said(
    qtbot, queue: SaveQueue, data_dir: Path, monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
) -> None:
    """The text was kept while the clock ran a year ahead; the clock was put right and the
    note edited (in another program) before the restart: "restore" compared the note's time
    with the kept text's and wrote the old words over the newer edit."""
    import time as real_time

    from desktop_kb.tasks import recovery_tasks

    lib = Library(data_dir, load_model=False)
    try:
        note_id = lib.add_note("时钟", "original")
        loaded = lib.get_note(note_id)
        queue.set_library(lib)
        queue.set_base(note_id, loaded.change_seq, loaded.title, loaded.body)
        pages = lib.store.execute("PRAGMA page_count").fetchone()[0]
        lib.store.execute(f"PRAGMA max_page_count = {pages}")  # the save fails: the text is kept
        ahead = real_time.time() + 365 * 86400
        monkeypatch.setattr(recovery.time, "time", lambda: ahead)  # the clock a year ahead
        with qtbot.waitSignal(queue.saveFailed, timeout=10000):
            queue.save(note_id, "时钟", "typed while the clock ran ahead " + BIG)
        queue.set_library(None)
        monkeypatch.undo()  # the clock put right
    finally:
        lib.close()
    with Library(data_dir, load_model=False) as other:  # then edited elsewhere, before the restart
        other.save_note(note_id, body="edited later zqlater")
    with Library(data_dir, load_model=False) as again:
        kept = recovery.pending(data_dir, library_id=again.library_id)
        assert [k.note_id for k in kept] == [note_id]
        restored = recovery_tasks.restore_all(again, kept, lambda t: f"{t} (recovered)")
        assert restored.into_note == [] and len(restored.as_new_note) == 1
        assert again.get_note(note_id).body == "edited later zqlater"
        assert again.get_note(restored.as_new_note[0]).body.startswith("typed while the clock ran ahead")


def test_a_stick_pulled_and_put_back_takes_no_save_into_the_old_mount_and_keeps_the_text(
        qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The library on a stick, the app left open: the stick was pulled (the kernel keeps a
    pulled device's open files; here the mount is detached lazily) and put back at the same
    place. The open library went on saving into the detached file system — "saved" — and the
    words were not on the stick when the app opened it again."""
    import shutil
    import subprocess

    from desktop_kb.store.errors import REPLACED_LIBRARY_MESSAGE
    from desktop_kb.tasks import recovery_tasks

    stick = tmp_path / "STICK"
    data_dir = stick / "library"
    with tmpfs(stick, 16384):
        lib = Library(data_dir, load_model=False)
        queue = SaveQueue()
        try:
            note_id = lib.add_note("在U盘上", "before the stick went zqbefore")
            assert lib.drain(60)
            on_the_stick = tmp_path / "stick-contents"  # what the stick holds as it is pulled
            shutil.copytree(data_dir, on_the_stick)
            assert subprocess.run(["umount", "-l", str(stick)], capture_output=True).returncode == 0
            with tmpfs(stick, 16384):  # put back, at the same place
                shutil.copytree(on_the_stick, data_dir)
                loaded = lib.get_note(note_id)
                queue.set_library(lib)
                queue.set_base(note_id, loaded.change_seq, loaded.title, loaded.body)
                with qtbot.waitSignal(queue.saveFailed, timeout=20000) as failed:
                    queue.save(note_id, "在U盘上", "typed after it came back zqafter")
                assert REPLACED_LIBRARY_MESSAGE in failed.args[1]
                queue.set_library(None)
                lib.close()
                with Library(data_dir, load_model=False) as again:  # the app opened again
                    kept = recovery.pending(data_dir, library_id=again.library_id)
                    assert [(k.note_id, k.body) for k in kept] == [(note_id, "typed after it came back zqafter")]
                    restored = recovery_tasks.restore_all(again, kept, lambda t: f"{t} (recovered)")
                    assert restored.into_note == [note_id]
                    assert again.get_note(note_id).body == "typed after it came back zqafter"
        finally:
            queue.stop(timeout=5)
            lib.close()


def test_texts_still_queued_or_being_written_when_the_wait_ends_are_kept(data_dir: Path) -> None:
    """Closing stopped waiting for the save queue after its timeout with a save being written
    (another program held the library's write lock) and one queued behind it: stop() said
    'not saved', yet neither text was in a recovery file, and the process then ended."""
    lib = Library(data_dir, load_model=False)
    queue = SaveQueue()
    note_id = lib.add_note("关闭", "short")
    other = lib.add_note("另一篇", "short")
    queue.set_library(lib)
    blocker = sqlite3.connect(data_dir / "library.sqlite", timeout=0)
    blocker.execute("BEGIN IMMEDIATE")  # another program holds the write lock
    try:
        queue.save(note_id, "关闭", "typed while another program wrote zqslow1")
        queue.save(other, "另一篇", "queued behind it zqslow2")
        assert queue.stop(timeout=0.5) is False
        kept = {k.note_id: k.body for k in recovery.pending(data_dir)}
        assert kept == {note_id: "typed while another program wrote zqslow1",
                        other: "queued behind it zqslow2"}
        assert sorted(u.note_id for u in queue.unsaved()) == sorted([note_id, other])
        # The queued one is never tried now (the one being written may yet fail for its own reason).
        assert [k.reason for k in recovery.pending(data_dir) if k.note_id == other] == [UNFINISHED_SAVE_MESSAGE]
    finally:
        blocker.rollback()
        blocker.close()
        lib.close()


def test_closing_the_library_waits_for_a_save_being_written(data_dir: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The window closes the library once the save queue's wait ran out, with a save maybe still
    being written on the queue's thread: the connection was closed under it (the save was lost
    with 'Cannot operate on a closed database', or the process crashed in SQLite)."""
    import threading

    from desktop_kb.store import tx

    lib = Library(data_dir, load_model=False)
    note_id = lib.add_note("关闭", "short")
    inside, go = threading.Event(), threading.Event()
    checked = tx._still_the_open_file

    def held_before_commit(conn, what):  # type: ignore[no-untyped-def]
        inside.set()  # the save's statements are written, its COMMIT not yet
        assert go.wait(60)
        checked(conn, what)

    monkeypatch.setattr(tx, "_still_the_open_file", held_before_commit)
    failed: list[BaseException] = []

    def save() -> None:
        try:
            lib.save_note_over(note_id, "关闭", "written while closing zqclosing", None, lambda t: t)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            failed.append(exc)

    saver = threading.Thread(target=save)
    saver.start()
    assert inside.wait(60)
    closer = threading.Thread(target=lib.close)
    closer.start()
    closer.join(2.0)  # closed by now unless close waits for the save (as it must)
    go.set()
    saver.join(60)
    closer.join(60)
    assert not closer.is_alive() and failed == []
    with Library(data_dir, load_model=False) as again:
        assert again.get_note(note_id).body == "written while closing zqclosing"
