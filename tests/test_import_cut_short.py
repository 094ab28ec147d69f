"""An import stopped by force (kill -9 of a real ``desktop-kb import``, as a crash, a power cut
or the app ended from the task manager would stop it): every file it saved is kept whole, and
the next process to open the library says once that the import was cut short and how to
finish it. Nothing said so: the library simply held part of the folder."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from test_gui_support import QT_NOISE, open_window
from test_import_interrupted import _documents

from desktop_kb.cli import entry as cli
from desktop_kb.importer import journal

TIMEOUT = 120  # seconds; only reached when something hangs
pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="tells a gone process by its id")


def _killed_mid_import(tmp_path: Path) -> tuple[Path, Path, int]:
    data_dir, folder = tmp_path / "library", tmp_path / "book"
    folder.mkdir()
    for i in range(300):
        (folder / f"ch{i:03d}.md").write_text(
            f"# 第 {i} 章\n\n{'一些文字 some words ' * 40}zqcut{i:03d}\n", encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir),
                             "import", str(folder)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait = threading.Event()
    for _ in range(TIMEOUT * 20):
        if _documents(data_dir) >= 20 or proc.poll() is not None:
            break
        wait.wait(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    saved = _documents(data_dir)
    assert 20 <= saved < 300, saved
    return data_dir, folder, saved


def test_an_import_killed_half_way_is_told_once_and_finishes_when_run_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    data_dir, folder, saved = _killed_mid_import(tmp_path)
    assert cli.main(["--data-dir", str(data_dir), "note", "list"]) == 0
    err = capsys.readouterr().err
    assert f"An import of {folder} was cut short" in err and "Import the same files again" in err, err
    assert cli.main(["--data-dir", str(data_dir), "note", "list"]) == 0
    assert "cut short" not in capsys.readouterr().err  # told once

    assert cli.main(["--data-dir", str(data_dir), "--json", "import", str(folder)]) == 0
    out, err = capsys.readouterr()
    assert _documents(data_dir) == 300 and "cut short" not in err, err
    assert list((data_dir / journal.FOLDER).iterdir()) == []  # an import that ends leaves no note


@pytest.mark.qt_log_level_fail("WARNING")
@pytest.mark.qt_log_ignore(*QT_NOISE)
def test_the_window_says_an_import_was_cut_short_in_chinese(
    qtbot, tmp_path: Path,  # type: ignore[no-untyped-def]
) -> None:
    from desktop_kb.ui import i18n

    data_dir, folder, _saved = _killed_mid_import(tmp_path)
    i18n.install_language("zh_CN")
    try:
        window = open_window(qtbot, data_dir)
        qtbot.waitUntil(lambda: window.outside.cut_short_box is not None
                        and window.outside.cut_short_box.isVisible(), timeout=20000)
        text = window.outside.cut_short_box.text()
        assert f"导入 {folder} 时被中途打断了" in text and "再导入一次" in text, text
    finally:
        i18n.install_language("en")
    assert journal.take_cut_short(data_dir) == []  # said once
