"""The real app in its own process, ended by the system: logout (SIGTERM), a closed terminal
(SIGHUP), Ctrl+C (SIGINT). Each closes the window as its close button does."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_kb.library import Library

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX signals")

DRIVER = str(Path(__file__).with_name("gui_proc.py"))
TIMEOUT = 60  # seconds; only reached when something hangs


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT],
                         ids=["SIGTERM", "SIGHUP", "SIGINT"])
def test_the_words_typed_just_before_the_system_ends_the_app_are_saved(
        tmp_path: Path, signum: int) -> None:
    """The process ended on the spot: what was typed in the last second (autosave waits that
    long) was lost, library.sqlite-wal held every page, and the next start found the index
    writer gone uncleanly."""
    data_dir = tmp_path / "library"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    app = subprocess.Popen([sys.executable, DRIVER, str(data_dir), " 最后一句 zqterm1"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           encoding="utf-8", env=env)
    try:
        line = app.stdout.readline() if app.stdout else ""
        assert line, app.stderr.read() if app.stderr else ""
        note_id = json.loads(line)["typed"]
        app.send_signal(signum)  # within the autosave's second
        assert app.wait(TIMEOUT) == 0
    finally:
        if app.poll() is None:
            app.kill()
        app.communicate(timeout=TIMEOUT)
    conn = sqlite3.connect(data_dir / "library.sqlite")  # the file alone: the window checkpointed
    try:
        body = conn.execute("SELECT body FROM notes WHERE id = ?", (note_id,)).fetchone()[0]
    finally:
        conn.close()
    assert body.endswith(" 最后一句 zqterm1")
    assert not (data_dir / "desktop-kb.lock").exists()  # the next start is not asked about it
    with Library(data_dir, load_model=False) as lib:
        assert lib.startup_rebuild is None and lib.worker.startup_verify is None  # a clean hand-over
        assert lib.drain(TIMEOUT)
        assert [r.source_id for r in lib.search("zqterm1", mode="lexical").results] == [note_id]
