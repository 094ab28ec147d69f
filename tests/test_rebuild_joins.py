"""A rebuild asked for while one runs joins it: it does not wait for a second whole rebuild.

'desktop-kb index rebuild' beside the app rebuilding (the app's own Rebuild, or the rebuild a
damaged index starts) waited for the app's rebuild and then another of the whole library; the
rebuild that replaced a damaged file queued a second one for the new (dirty) file, whose dirty
flag made 'index status' read 'incomplete' just after 'rebuilt 300 sources'. Counted by the
index's generation: one per whole rebuild started.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

from desktop_kb.index import db
from desktop_kb.library import Library

TIMEOUT = 180


def generation(data_dir: Path) -> int:
    conn = sqlite3.connect(data_dir / "index.sqlite")
    try:
        return int(db.get_meta(conn, "generation") or 0)
    finally:
        conn.close()


def fill(lib: Library, n: int) -> None:
    for i in range(n):
        lib.add_note(f"笔记 {i}", f"zqjoin{i} 所有权 借用 生命周期 第 {i} 条 " * 4)
    assert lib.drain(TIMEOUT)


def damage(index: Path) -> None:
    """Overwrite every third page after the first two, in place (the owner notices nothing).
    Its -wal is copied in first, or the damage may land only on pages the -wal holds."""
    conn = sqlite3.connect(index)
    try:
        assert conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0] == 0
    finally:
        conn.close()
    size = index.stat().st_size
    with index.open("r+b") as fh:
        for offset in range(8192, size, 3 * 4096):
            fh.seek(offset)
            fh.write(bytes(range(256)) * 16)


def test_two_rebuilds_asked_together_are_one(data_dir: Path) -> None:
    with Library(data_dir, load_model=False) as lib:
        fill(lib, 140)  # two batches: the second request arrives between them at the latest
        before = generation(data_dir)
        held, release = threading.Event(), threading.Event()

        def hold(_conn: sqlite3.Connection) -> None:
            held.set()
            release.wait(TIMEOUT)

        lib.worker.call(hold)
        assert held.wait(TIMEOUT)
        first, second = lib.worker.rebuild(), lib.worker.rebuild()
        release.set()
        assert first.result(TIMEOUT).sources == 140
        assert second.result(TIMEOUT).sources == 140
        assert lib.drain(TIMEOUT)
        assert generation(data_dir) == before + 1
        assert lib.index_status().state == "ok"


def test_a_damaged_index_is_rebuilt_once(data_dir: Path) -> None:
    with Library(data_dir, load_model=False) as lib:
        fill(lib, 140)
        damage(data_dir / "index.sqlite")
        assert lib.worker.rebuild().result(TIMEOUT).sources == 140
        # The new file's rebuild is this one: nothing queued after it, the status whole at once.
        assert lib.index_status().state == "ok", lib.index_status()
        assert lib.drain(TIMEOUT)
        assert generation(data_dir) == 1  # a new file, rebuilt once


OWNER = """
import sys, time
from pathlib import Path
from desktop_kb.library import Library
from desktop_kb.progress import Progress

requests = Path(sys.argv[1]) / "index-requests"

class WaitForRequest(Progress):
    # The app's rebuild is under way (its first batch written) when the CLI asks for one.
    def tick(self, n=1):
        super().tick(n)
        if self.done == n:
            print("rebuilding", flush=True)
            deadline = time.monotonic() + 120
            while not list(requests.glob("*.request.json")) and time.monotonic() < deadline:
                time.sleep(0.05)

with Library(Path(sys.argv[1]), role="app", load_model=False) as lib:
    assert lib.drain(60)
    result = lib.worker.rebuild(WaitForRequest()).result(300)
    assert lib.drain(60)
    print("rebuilt", result.sources, flush=True)
    sys.stdin.readline()
"""


def test_index_rebuild_beside_the_app_rebuilding_joins_its_rebuild(data_dir: Path) -> None:
    with Library(data_dir, load_model=False) as lib:
        fill(lib, 140)
    before = generation(data_dir)
    owner = subprocess.Popen([sys.executable, "-c", OWNER, str(data_dir)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert owner.stdout is not None and owner.stdout.readline().strip() == "rebuilding"
        done = subprocess.run([sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir),
                               "index", "rebuild"], capture_output=True, text=True,
                              encoding="utf-8", timeout=TIMEOUT)
        assert done.returncode == 0 and done.stdout.startswith("rebuilt 140 sources"), done.stderr
        assert owner.stdout.readline().strip() == "rebuilt 140"
        assert generation(data_dir) == before + 1  # one whole rebuild, not two
        status = subprocess.run([sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir),
                                 "index", "status"], capture_output=True, text=True,
                                encoding="utf-8", timeout=TIMEOUT)
        assert status.stdout.startswith("ok: 140 sources"), status.stdout
    finally:
        owner.communicate("\n", timeout=60)


OWNER_CANCELS = """
import sys, time
from pathlib import Path
from desktop_kb.library import Library
from desktop_kb.progress import Progress

requests = Path(sys.argv[1]) / "index-requests"

class CancelOnRequest(Progress):
    # The person presses Cancel on the app's rebuild just after the CLI asked for one.
    def tick(self, n=1):
        super().tick(n)
        if self.done == n:
            print("rebuilding", flush=True)
            deadline = time.monotonic() + 120
            while not list(requests.glob("*.request.json")) and time.monotonic() < deadline:
                time.sleep(0.05)
            self.cancel()

with Library(Path(sys.argv[1]), role="app", load_model=False) as lib:
    assert lib.drain(60)
    result = lib.worker.rebuild(CancelOnRequest()).result(300)
    print("cancelled", result.cancelled, flush=True)
    sys.stdin.readline()
    assert lib.drain(60)
"""


def test_a_joined_rebuild_that_is_cancelled_is_not_said_rebuilt(data_dir: Path) -> None:
    with Library(data_dir, load_model=False) as lib:
        fill(lib, 140)
    owner = subprocess.Popen([sys.executable, "-c", OWNER_CANCELS, str(data_dir)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert owner.stdout is not None and owner.stdout.readline().strip() == "rebuilding"
        done = subprocess.run([sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir),
                               "index", "rebuild"], capture_output=True, text=True,
                              encoding="utf-8", timeout=TIMEOUT)
        assert owner.stdout.readline().strip() == "cancelled True"
        # The command's rebuild ran after the cancelled one: 'rebuilt' is true when it is said.
        assert done.returncode == 0 and done.stdout.startswith("rebuilt 140 sources"), done.stderr
        status = subprocess.run([sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir),
                                 "index", "status"], capture_output=True, text=True,
                                encoding="utf-8", timeout=TIMEOUT)
        assert status.stdout.startswith("ok: 140 sources"), status.stdout
    finally:
        owner.communicate("\n", timeout=60)
