"""'desktop-kb index status' after an unclean exit, with nobody else keeping the index, gives a
true answer: it finishes the check it starts and says what the check found.

It used to start the full check, answer "checking" after its settle time, and drop the check
at exit: every later status (a script polling it) said "checking" again, on a large library
until the app or 'index verify' ran, while nobody was checking. The keeper here is a real
process killed with SIGKILL; the status runs in this process so that the check can be made
as slow as a large library's (a 10^6-chunk check takes about a minute: here the real check
is held past the settle time) without building one.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from test_processes import Actor

from desktop_kb.cli import entry as cli
from desktop_kb.cli import index as cli_index
from desktop_kb.index import db, postings, worker
from desktop_kb.index.writer import remove_source
from desktop_kb.library import WORKER_LEFT_MESSAGE, Library

HANG = 120


def run(capsys: pytest.CaptureFixture[str], data_dir: Path, *args: str) -> tuple[int, str]:
    codes: list[int] = []
    thread = threading.Thread(
        target=lambda: codes.append(cli.main(["--data-dir", str(data_dir), *args])), daemon=True)
    thread.start()
    thread.join(HANG)
    assert not thread.is_alive(), f"desktop-kb {' '.join(args)} still runs"
    out, err = capsys.readouterr()
    assert codes == [0], err
    return codes[0], out


def meta(data_dir: Path, key: str) -> str | None:
    conn = sqlite3.connect(data_dir / "index.sqlite")
    try:
        return db.get_meta(conn, key)
    finally:
        conn.close()


def test_a_status_after_kill_9_finishes_the_check_and_says_what_it_found(
    data_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = Actor(data_dir, "app")
    assert app.owner
    ids = [app.ask(op="add", title=f"笔记 {i}", body=f"zqunclean{i} 所有权 借用 " * 8)["id"]
           for i in range(12)]
    assert app.ask(op="drain")["drained"]
    app.kill()
    # What a crash between I4's two steps leaves (index rows gone, the note still live), which
    # only the full check finds: the feed had nothing left to apply.
    conn = sqlite3.connect(data_dir / "index.sqlite", isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    for note_id in ids[:3]:
        remove_source(conn, ("note", note_id))
    conn.execute("COMMIT")
    conn.close()
    assert meta(data_dir, "owner_clean") == "0"

    real = worker.repair_drift
    checks: list[float] = []

    def as_slow_as_a_large_library(applier):  # noqa: ANN001, ANN202
        time.sleep(cli_index.STATUS_SETTLE_S + 1.5)
        checks.append(time.monotonic())
        return real(applier)

    monkeypatch.setattr(worker, "repair_drift", as_slow_as_a_large_library)
    _, out = run(capsys, data_dir, "index", "status")
    first = out.splitlines()[0]
    assert first.startswith("ok: 12 sources, 12 chunks"), out
    assert "checked after an unclean exit: found 3 missing" in out and "repaired" in out, out
    assert "checking" not in first
    assert len(checks) == 1
    assert meta(data_dir, "verify_needed") == "0"

    # The next status has nothing left to check, and says so in JSON too.
    _, out = run(capsys, data_dir, "index", "status", "--json")
    payload = json.loads(out)
    assert payload["state"] == "ok" and payload["checking"] is False, payload
    assert payload["checked_after_unclean_exit"] is None
    assert len(checks) == 1
    _, out = run(capsys, data_dir, "search", "zqunclean1")
    assert "笔记 1" in out


# The writer's idle work at exit: filling common words' postings begins with every row's length,
# longer than a command's wait at exit on a large library (10^5 rows at load 10: >10 s). Here
# each length is made slow instead of the library large; the stop wait is 3 s.
CLOSE_WHILE_FILLING = textwrap.dedent("""
    import sys, threading, time
    from pathlib import Path
    from desktop_kb.index import postings
    from desktop_kb.index.worker import IndexWorker
    from desktop_kb.library import Library

    IndexWorker.stop.__defaults__ = (3.0,)
    inside = threading.Event()
    real = postings._varint_sum

    def slow_length(blob):
        inside.set()
        time.sleep(0.02)
        return real(blob)

    postings._varint_sum = slow_length
    lib = Library(Path(sys.argv[1]), load_model=False)
    assert inside.wait(120)
    started = time.monotonic()
    lib.close()
    print("closed in", round(time.monotonic() - started, 2), flush=True)
""")


def test_a_command_closing_while_the_writer_fills_postings_leaves_the_index_clean(
    data_dir: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    with Library(data_dir, load_model=False) as lib:
        for i in range(300):  # every word of these is in >= 256 passages: postings are kept
            lib.add_note(f"所有权 {i}", f"zqfill{i} 所有权 借用 生命周期 trait 引用")
        assert lib.drain(HANG)
    conn = sqlite3.connect(data_dir / "index.sqlite", isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    postings.queue_all(conn)  # as after a migration or an import: every common word waits
    conn.execute("COMMIT")
    conn.close()

    done = subprocess.run([sys.executable, "-c", CLOSE_WHILE_FILLING, str(data_dir)],
                          capture_output=True, text=True, timeout=300, cwd=Path(__file__).parents[1])
    assert done.returncode == 0, done.stderr[-2000:]
    assert WORKER_LEFT_MESSAGE not in done.stderr, done.stdout + done.stderr
    assert meta(data_dir, "owner_clean") == "1"  # closed cleanly: nothing for the next one to check
    _, out = run(capsys, data_dir, "index", "status")
    assert out.startswith("ok: 300 sources") and "unclean" not in out, out
