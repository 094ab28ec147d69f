"""The search index damaged while the app keeps it: a sync client put another computer's copy
in its place beside the app's -wal, or a disk error changed its pages. Every command beside the
app said 'internal error: DatabaseError: database disk image is malformed' (exit 70), even
'index rebuild', the way out; the app's own status read failed the same way and kept showing
the last 'ok'. Real processes: the app is a Library of role 'app' in another process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from desktop_kb.library import Library

TIMEOUT = 120

OWNER = """
import sys
from pathlib import Path
from desktop_kb.library import Library
with Library(Path(sys.argv[1]), role="app", load_model=False) as lib:
    assert lib.drain(60)
    print("ready", flush=True)
    sys.stdin.readline()
"""


def cli(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir), *args],
                          capture_output=True, text=True, encoding="utf-8", timeout=TIMEOUT)


def damage(index: Path) -> None:
    """Overwrite every third page after the first two, in place (the owner notices nothing)."""
    size = index.stat().st_size
    with index.open("r+b") as fh:
        for offset in range(8192, size, 3 * 4096):
            fh.seek(offset)
            fh.write(bytes(range(256)) * 16)


def test_a_damaged_index_beside_the_app_is_said_and_rebuilt_not_an_internal_error(data_dir: Path) -> None:
    with Library(data_dir, load_model=False) as lib:
        for i in range(300):
            lib.add_note(f"笔记 {i}", f"zqdamaged{i} 所有权 借用 生命周期 第 {i} 条 " * 8)
        assert lib.drain(120)
    owner = subprocess.Popen([sys.executable, "-c", OWNER, str(data_dir)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert owner.stdout is not None and owner.stdout.readline().strip() == "ready"
        assert cli(data_dir, "index", "status").stdout.startswith("ok: 300 sources")
        damage(data_dir / "index.sqlite")

        done = cli(data_dir, "index", "status")
        assert done.returncode == 0 and "internal error" not in done.stderr, done.stderr
        assert done.stdout.startswith("unavailable:"), done.stdout  # never "ok" while damaged
        assert "is damaged" in done.stdout and "desktop-kb index rebuild" in done.stdout, done.stdout

        # A search stops waiting for the app and says why, in one line (it waited for ever);
        # asking and related material too (they said 'internal error').
        for command in (["search", "zqdamaged7"], ["ask", "zqdamaged7 所有权"], ["related", "7"]):
            done = cli(data_dir, *command)
            assert "internal error" not in done.stderr, (command, done.stderr)
            assert done.returncode == 0 or "is damaged" in done.stderr.splitlines()[-1], done.stderr

        done = cli(data_dir, "index", "rebuild")
        assert done.returncode == 0 and done.stdout.startswith("rebuilt 300 sources"), done.stderr
        assert cli(data_dir, "index", "status").stdout.startswith("ok: 300 sources")
        found = cli(data_dir, "search", "zqdamaged7")
        assert found.returncode == 0 and "笔记 7" in found.stdout, found.stderr
    finally:
        owner.communicate("\n", timeout=60)


def test_a_damaged_index_is_said_in_chinese(qtbot) -> None:  # type: ignore[no-untyped-def]
    from desktop_kb.index.db import DAMAGED_MESSAGE
    from desktop_kb.ui import i18n
    from desktop_kb.ui.env_messages import localize

    i18n.install_language("zh_CN")
    try:
        shown = localize(DAMAGED_MESSAGE.format("/d/index.sqlite"))
        assert shown.startswith("/d/index.sqlite 处的搜索索引已损坏") and "damaged" not in shown, shown
    finally:
        i18n.install_language("en")
