"""A library on a read-only disk or mount (a write-protected stick, a read-only share).

Every command said ``[Errno 30] Read-only file system: '…/index.writer.lock'``:
true, but not what happened or what to do. Real read-only mounts (``mounts``).
"""

from __future__ import annotations

import gc
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from mounts import remount, tmpfs
from test_gui_support import QT_NOISE, open_window

from desktop_kb.library import Library

TIMEOUT = 120


def cli(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir), *args],
                          capture_output=True, text=True, encoding="utf-8", timeout=TIMEOUT)


def _library_on_a_stick(stick: Path, how: str) -> Path:
    """A library of one note (two for 'index_behind') left on ``stick`` as ``how`` says."""
    data_dir = stick / "library"
    with Library(data_dir, load_model=False) as lib:
        lib.add_note("只读", "on a write-protected stick zqro")
        assert lib.drain(60)
        if how == "index_behind":  # the index was copied before the last note was indexed
            kept = lib.paths.index.read_bytes()
            lib.add_note("后来", "written last zqlater")
            assert lib.drain(60)
        if how == "copied_while_open":  # its -wal and -shm came along (the case that said Errno 30)
            copy = stick / "copy"
            shutil.copytree(data_dir, copy, ignore=shutil.ignore_patterns("*.lock"))
        if how in ("copied_without_shm", "index_copied_without_shm"):
            # A copy tool that skips -shm (a "temporary file"): the -wal pages came along, and on a
            # read-only disk no -shm can be made to read them with (the library was refused; the
            # index rebuilt from scratch, re-embedding everything with a model).
            copy = stick / "copy"
            skip = "*.sqlite-shm" if how == "copied_without_shm" else "index.sqlite-shm"
            shutil.copytree(data_dir, copy, ignore=shutil.ignore_patterns("*.lock", skip))
            for name in ("library.sqlite-wal", "index.sqlite-wal"):
                assert (copy / name).stat().st_size > 0
    gc.collect()  # connections other threads opened close when collected
    if how == "index_behind":
        for name in ("index.sqlite-wal", "index.sqlite-shm"):
            (data_dir / name).unlink(missing_ok=True)
        (data_dir / "index.sqlite").write_bytes(kept)
    if how == "no_index":
        (data_dir / "index.sqlite").unlink()
    if how == "closed":  # as a clean close leaves it: no -wal and no -shm to read with
        for name in ("library.sqlite-wal", "library.sqlite-shm", "index.sqlite-wal", "index.sqlite-shm"):
            path = data_dir / name
            assert not path.exists() or name.endswith("-shm") or path.stat().st_size == 0
            path.unlink(missing_ok=True)
    return stick / "copy" if how.startswith("copied") or how.endswith("without_shm") else data_dir


@pytest.mark.parametrize("how", ["open", "copied_while_open", "closed", "no_index", "index_behind",
                                 "copied_without_shm", "index_copied_without_shm"])
def test_a_library_on_a_read_only_mount_is_read_and_searched_and_says_saving_is_off(
        tmp_path: Path, how: str) -> None:
    """A CD, a write-protected stick, a backup disk mounted read-only: it could not be opened at
    all ('The library file could not be opened. Check that the data folder exists and is
    writable.'). It is read as it is now, its index kept in the per-user cache (copied from the
    one beside it, caught up, or built); saving is refused in one sentence that says why."""
    with tmpfs(tmp_path / "stick", 8192) as stick:
        data_dir = _library_on_a_stick(stick, how)
        before = {p.name: p.read_bytes() for p in data_dir.iterdir() if p.is_file()}
        remount(stick, read_only=True)
        try:
            done = cli(data_dir, "note", "list")
            assert done.returncode == 0 and "只读" in done.stdout, done.stderr
            if how.endswith("without_shm"):  # its index is read as it is, not built anew
                assert "rebuilding" not in done.stderr, done.stderr
            done = cli(data_dir, "search", "zqro")
            assert done.returncode == 0 and "[note 1] 只读" in done.stdout, (done.stdout, done.stderr)
            if how == "index_behind":  # caught up, not shown as complete while short
                done = cli(data_dir, "search", "zqlater")
                assert done.returncode == 0 and "后来" in done.stdout, (done.stdout, done.stderr)
            done = cli(data_dir, "index", "status")
            sources = 2 if how == "index_behind" else 1
            assert done.stdout.startswith(f"ok: {sources} sources"), (done.stdout, done.stderr)
            done = cli(data_dir, "note", "show", "1")
            assert done.returncode == 0 and "zqro" in done.stdout, done.stderr
            for command in (["note", "add", "--title", "新", "--body", "x"], ["import", str(tmp_path)],
                            ["backup", "create"]):
                done = cli(data_dir, *command)
                assert done.returncode == 1, (command, done.stdout)
                lines = done.stderr.strip().splitlines()
                assert len(lines) == 1 and "Saving is off because the library's folder cannot be " \
                    "written" in lines[0], (command, done.stderr)
                assert "Errno" not in lines[0], lines[0]
            after = {p.name: p.read_bytes() for p in data_dir.iterdir() if p.is_file()}
            assert after == before
        finally:
            remount(stick, read_only=False)


def test_a_library_on_a_stick_that_is_not_connected_is_not_started_anew(tmp_path: Path) -> None:
    """--data-dir /media/me/STICK/library with the stick unplugged (its mount point gone):
    every command made the folders and a new, empty library on the computer's own disk —
    "(no notes)" — and the stick, mounted later, found its path taken."""
    import os

    stick = tmp_path / "media" / "STICK"  # not mounted: the folder does not exist
    data_dir = stick / "library"
    for command in (["note", "list"], ["note", "add", "--title", "t", "--body", "b"],
                    ["index", "status"], ["backup", "list"]):
        done = cli(data_dir, *command)
        assert done.returncode == 1, (command, done.stdout)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "not connected" in lines[0], (command, done.stderr)
    env = {**os.environ, "DESKTOP_KB_DATA_DIR": str(data_dir)}
    done = subprocess.run([sys.executable, "-m", "desktop_kb", "note", "list"], env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=TIMEOUT)
    assert done.returncode == 1 and "not connected" in done.stderr, done.stderr
    assert not stick.exists()
    # A new folder in a folder that exists is a new library, as always.
    fresh = tmp_path / "fresh"
    assert cli(fresh, "note", "add", "--title", "新", "--body", "zqnew").returncode == 0


@pytest.mark.qt_log_level_fail("WARNING")
@pytest.mark.qt_log_ignore(*QT_NOISE)
def test_the_window_opens_a_library_on_a_read_only_mount_and_says_saving_is_off_in_chinese(
        qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The window said '无法打开资料库：…' of a library on a CD; it opens it now, its notes shown
    but not editable, new notes and imports off, and says once, in the window's language, why."""
    from desktop_kb.ui import i18n

    with tmpfs(tmp_path / "stick", 8192) as stick:
        data_dir = _library_on_a_stick(stick, "closed")
        remount(stick, read_only=True)
        i18n.install_language("zh_CN")
        try:
            window = open_window(qtbot, data_dir)
            box = window.read_only_box
            assert box is not None and box.text().startswith("资料库所在的文件夹无法写入"), \
                box.text() if box else None
            assert "已停止保存" in box.text() and "Saving" not in box.text()
            assert window.read_only_notice.isVisible() and window.read_only_notice.text() == "只读：已停止保存"
            assert window.editor.note_id == 1 and window.editor.body.isReadOnly()
            assert not window.act_new.isEnabled() and not window.act_import_folder.isEnabled()
            window.notes.new_note()
            assert "已停止保存" in window.statusBar().currentMessage()
            assert [r.title for r in window.library.search("zqro").results] == ["只读"]
            window.meaning._model_known(None)  # no model: meaning search is not offered, it could
            assert not window.meaning.offer.isVisible()  # not be installed on the read-only disk
            box.close()
            window.close()
        finally:
            i18n.install_language("en")
            remount(stick, read_only=False)


def test_one_window_at_a_time_opens_a_library_on_a_read_only_mount(tmp_path: Path) -> None:
    """The app's single-instance lock is a file in the library's folder: on a read-only mount it
    said 'Cannot lock the library folder … Check that it exists and is writable.' and did not
    start. The lock lives with the library's index in the per-user cache, and still lets one
    window at a time open it."""
    from desktop_kb.ui.single_instance import AlreadyRunning, acquire_instance_lock

    with tmpfs(tmp_path / "stick", 8192) as stick:
        data_dir = _library_on_a_stick(stick, "closed")
        remount(stick, read_only=True)
        try:
            lock = acquire_instance_lock(data_dir)
            with pytest.raises(AlreadyRunning) as refused:
                acquire_instance_lock(data_dir)
            assert "already open" in str(refused.value)
            lock.unlock()
            acquire_instance_lock(data_dir).unlock()
        finally:
            remount(stick, read_only=False)


def test_a_read_only_library_whose_cache_folder_cannot_be_written_keeps_its_index_in_the_temporary_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A per-user cache a 'sudo' run left to root (here: on the read-only mount too): every
    command said '[Errno 30] Read-only file system: …/cache'. The index goes to the temporary
    folder; with no folder at all to keep it, the library is refused in one sentence."""
    import os
    import tempfile

    from desktop_kb.store import errors

    with tmpfs(tmp_path / "stick", 8192) as stick:
        data_dir = _library_on_a_stick(stick, "closed")
        remount(stick, read_only=True)
        temporary = tmp_path / "tmp"
        temporary.mkdir()
        try:
            env = {**os.environ, "XDG_CACHE_HOME": str(stick / "cache"), "TMPDIR": str(temporary)}
            done = subprocess.run([sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir),
                                   "search", "zqro"], capture_output=True, text=True, encoding="utf-8",
                                  timeout=TIMEOUT, env=env)
            assert done.returncode == 0 and "只读" in done.stdout, done.stderr
            assert list(temporary.glob("desktop-kb-*/read-only libraries/*/index.sqlite"))

            monkeypatch.setenv("XDG_CACHE_HOME", str(stick / "cache"))
            monkeypatch.setattr(tempfile, "tempdir", str(stick))
            with pytest.raises(errors.StoreError) as refused:
                Library(data_dir, load_model=False)
            assert errors.NO_INDEX_FOLDER_MESSAGE in str(refused.value) and "Errno" not in str(refused.value)
        finally:
            remount(stick, read_only=False)


def test_a_backup_or_restore_of_a_library_on_a_read_only_mount_says_why_in_the_ui_language(
        qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Settings → Backups → Back up now (or Restore) on a library on a CD said 'Could not back up
    the library to …/backups: [Errno 30] Read-only file system: …'; it says why saving is off."""
    from desktop_kb.store.backup import BackupError, create_backup
    from desktop_kb.store.restore import restore_backup
    from desktop_kb.ui import i18n
    from desktop_kb.ui.env_messages import localize

    with tmpfs(tmp_path / "stick", 8192) as stick:
        data_dir = _library_on_a_stick(stick, "closed")
        kept = create_backup(data_dir / "library.sqlite", reason="manual")
        remount(stick, read_only=True)
        try:
            for attempt in (lambda: create_backup(data_dir / "library.sqlite", reason="manual"),
                            lambda: restore_backup(data_dir / "library.sqlite", kept.path)):
                with pytest.raises(BackupError) as failed:
                    attempt()
                said = str(failed.value)
                assert "Saving is off because the library's folder cannot be written" in said, said
                assert "Errno" not in said
                i18n.install_language("zh_CN")
                try:
                    assert "已停止保存" in localize(said) and "Saving" not in localize(said)
                finally:
                    i18n.install_language("en")
        finally:
            remount(stick, read_only=False)


def test_a_folder_is_told_read_only_where_the_system_has_no_statvfs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows has no os.statvfs: every library open raised AttributeError there."""
    import os

    from desktop_kb.paths import read_only_folder

    monkeypatch.delattr(os, "statvfs")
    assert read_only_folder(tmp_path) is False
    with Library(tmp_path / "library", load_model=False) as lib:
        assert lib.read_only is None


@pytest.mark.qt_log_level_fail("WARNING")
@pytest.mark.qt_log_ignore(*QT_NOISE)
@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_related_panel_of_a_read_only_library_offers_nothing_it_cannot_do(
        qtbot, tmp_path: Path, language: str) -> None:  # type: ignore[no-untyped-def]
    """The panel of a library on a read-only disk said 'Keyword matches only: install an embedding
    model in Settings…' (no model can be installed there), offered ✓ and ✕ (neither a link nor a
    dismissal can be stored) and 'Suggestions update after the note is saved' (nothing is saved)."""
    from desktop_kb.ui import i18n

    with tmpfs(tmp_path / "stick", 8192) as stick:
        data_dir = stick / "library"
        with Library(data_dir, load_model=False) as lib:
            deploy = lib.add_note("用 Docker 安装 GitLab", "用 docker-compose.yml 启动 GitLab 容器。")
            lib.add_note("GitLab backup", "Back up GitLab running in Docker.")
            alone = lib.add_note("红烧肉", "红烧肉要放冰糖和酱油，小火慢炖。")
            assert lib.drain(60)
        gc.collect()
        remount(stick, read_only=True)
        i18n.install_language(language)
        try:
            window = open_window(qtbot, data_dir, language_choice=language)
            window.read_only_box.close()
            panel = window.related_panel
            window.notes.open_note(deploy)
            qtbot.waitUntil(lambda: panel.view is not None and panel.view.note_id == deploy
                            and not panel.rendering and bool(panel.cards), timeout=20000)
            assert panel.degraded.isVisible()  # keywords only, and said so ...
            said = panel.degraded.text()
            assert ("read-only" in said) if language == "en" else ("只读" in said), said
            assert "Settings" not in said and "设置" not in said  # ... with no advice that cannot be taken
            assert "✓" not in panel.status.text() and "✕" not in panel.status.text()
            # Cards are shown a turn after they are built: wait for them, then look for ✓ and ✕.
            qtbot.waitUntil(lambda: panel.cards and all(c.open_button.isVisible() for c in panel.cards),
                            timeout=10000)
            assert not any(c.accept_button.isVisible() or c.dismiss_button.isVisible() for c in panel.cards)
            window.notes.open_note(alone)
            qtbot.waitUntil(lambda: panel.view is not None and panel.view.note_id == alone
                            and not panel.rendering, timeout=20000)
            assert not panel.cards
            assert "saved" not in panel.status.text() and "保存" not in panel.status.text()
            window.close()
        finally:
            i18n.install_language("en")
            remount(stick, read_only=False)


def test_a_read_only_library_changed_elsewhere_starts_from_the_index_it_carries(
        tmp_path: Path, default_model_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """This computer reads the library on a write-protected stick; on another one the person
    switched meaning search on (and wrote more) and the index beside the library holds every
    vector. The index this computer kept for it in its cache caught up instead: every chunk
    embedded again (1,039 of the Rust book's 1,071 when its model changed, minutes under load)."""
    from desktop_kb.embed import DEFAULT_MODEL
    from desktop_kb.embed.engine import ManifestEngine

    models = default_model_root / "models"
    topics = ["猫在阳光下睡觉", "如何安装 Docker", "红烧肉的做法", "季度报税截止日期"]
    with tmpfs(tmp_path / "stick", 16384) as stick:
        data_dir = stick / "library"
        with Library(data_dir, models_dir=models, load_model=False) as lib:
            lib.set_setting("embed.model", "none")  # keyword search only, at first
            for i in range(24):
                lib.add_note(f"{topics[i % 4]} {i}", f"{topics[i % 4]}。第 {i} 篇笔记。")
            assert lib.drain(120)
        gc.collect()
        remount(stick, read_only=True)
        try:
            with Library(data_dir, models_dir=models) as lib:  # read here once: cached, no vectors
                assert lib.drain(120) and lib.engine is None
            gc.collect()  # its readers in other threads, opened on the read-only file
        finally:
            remount(stick, read_only=False)
        with Library(data_dir, models_dir=models) as lib:  # "the other computer"
            lib.use_model(DEFAULT_MODEL).result()
            later = lib.add_note("后来写的", "在另一台电脑上写的 zqlater")
            assert lib.drain(120)
            assert lib.index_status().missing_vectors == 0
        gc.collect()
        embedded: list[int] = []
        real = ManifestEngine.embed_passages

        def counted(self, texts):  # noqa: ANN001, ANN202
            embedded.append(len(texts))
            return real(self, texts)

        monkeypatch.setattr(ManifestEngine, "embed_passages", counted)
        remount(stick, read_only=True)
        try:
            with Library(data_dir, models_dir=models) as lib:
                assert lib.model_ready is not None
                lib.model_ready.result()
                assert lib.drain(120)
                status = lib.index_status()
                assert status.sources == 25 and status.missing_vectors == 0 and status.embed_model == DEFAULT_MODEL
                assert sum(embedded) == 0, f"{sum(embedded)} passages embedded again"
                hits = lib.search("zqlater").results
                assert [h.source_id for h in hits][:1] == [later]
                assert lib.search("红烧肉", mode="dense").results  # its vectors are there
        finally:
            remount(stick, read_only=False)
