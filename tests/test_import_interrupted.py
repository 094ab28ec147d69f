"""An import stopped with Ctrl+C (a real SIGINT to a real ``desktop-kb import``) and started
again: what was saved stays saved and searchable, the person is told so and how to go on,
and the second run imports the rest (nothing twice, nothing missing, zero drift)."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

from desktop_kb.library import Library

TIMEOUT = 120  # seconds; only reached when something hangs


def _documents(data_dir: Path) -> int:
    try:
        conn = sqlite3.connect(f"{(data_dir / 'library.sqlite').as_uri()}?mode=ro", uri=True)
        try:
            return int(conn.execute("SELECT count(*) FROM documents").fetchone()[0])
        finally:
            conn.close()
    except sqlite3.Error:
        return 0  # not made yet


def test_ctrl_c_ends_an_import_with_its_summary_and_the_next_one_goes_on(tmp_path: Path) -> None:
    data_dir = tmp_path / "library"
    folder = tmp_path / "study"
    folder.mkdir()
    for i in range(300):
        (folder / f"m{i:03d}.md").write_text(
            f"# 文件 {i}\n\n{'一些文字 some words ' * 40}zqctrlc{i:03d}\n", encoding="utf-8")
    importer = subprocess.Popen(
        [sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir), "import", str(folder),
         "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")
    tick = threading.Event()
    for _ in range(2400):
        if _documents(data_dir) >= 30 or importer.poll() is not None:
            break
        tick.wait(0.05)
    importer.send_signal(signal.SIGINT)
    out, err = importer.communicate(timeout=TIMEOUT)
    assert importer.returncode == 130, err
    assert "run the same import again" in err, err
    summary = json.loads(out)  # before: nothing on stdout, 'desktop-kb: interrupted' on stderr
    saved = _documents(data_dir)
    assert summary["cancelled"] and summary["added"] == saved and 30 <= saved < 300, (summary, saved)
    with Library(data_dir, load_model=False) as lib:
        status = lib.index_status()
        assert (status.state, status.sources) == ("ok", saved), status  # searchable, as it said
        again = lib.import_paths([folder])
        assert (again.added, again.unchanged, again.failed) == (300 - saved, saved, []), again
        assert lib.drain(TIMEOUT)
        assert lib.verify(repair=False).drift == 0
        assert len(lib.list_documents()) == 300
        assert lib.search("zqctrlc299", mode="lexical").results
