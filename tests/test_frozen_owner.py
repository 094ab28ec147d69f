"""Commands beside an owner of the index that is stopped: they never wait for ever (I12).

The app (or a `desktop-kb` command) that holds the index writer lock can be stopped —
Ctrl+Z in its terminal, SIGSTOP, a debugger's breakpoint. It keeps the lock and does
nothing, so no other process may index. `desktop-kb search` beside it waited for ever for
the changes to be indexed, as did `ask`, `related`, `note add`, `index rebuild|verify`.

Now a read command reads the index as it stands (a WAL reader needs no lock; deleted sources
never show, I6) and says how far behind it is and who holds it; a write command says its
changes are saved but not searchable yet and why; a rebuild handed to the stopped owner is
withdrawn. The owner here is a real process, really stopped; the commands run in this
process (``cli.main``) so the time they wait for can be short.
"""

from __future__ import annotations

import json
import os
import signal
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_processes import Actor

from desktop_kb.cli import common
from desktop_kb.cli import entry as cli
from desktop_kb.index import handoff
from desktop_kb.index.writer_lock import LOCK_NAME
from desktop_kb.library import Library
from desktop_kb.store.processes import process_stopped

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc and SIGSTOP")

HANG = 60  # seconds; a command still running then waits for ever


def run(capsys: pytest.CaptureFixture[str], data_dir: Path, *args: str) -> tuple[int, str, str]:
    """``desktop-kb ARGS`` in this process; fails (does not hang) if it waits on."""
    codes: list[int] = []
    thread = threading.Thread(
        target=lambda: codes.append(cli.main(["--data-dir", str(data_dir), *args])), daemon=True)
    thread.start()
    thread.join(HANG)
    assert not thread.is_alive(), f"desktop-kb {' '.join(args)} still waits"
    out, err = capsys.readouterr()
    return codes[0], out, err


@pytest.fixture
def stopped_app(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Actor]:
    monkeypatch.setattr(common, "STUCK_INDEX_S", 0.5)
    monkeypatch.setattr(common, "STUCK_LOOK_S", 0.1)  # a second per look made this file ~25 s
    app = Actor(data_dir, "app")
    assert app.owner
    app.ask(op="add", title="before", body="written before the freeze zqfrozen0")
    assert app.ask(op="drain")["drained"]
    os.kill(app.proc.pid, signal.SIGSTOP)
    # The signal is delivered in its own time: on a loaded machine /proc still said 'S' when
    # the first test asked, and a status read then was 'indexing', not the stopped owner.
    stopped = threading.Event()
    for _ in range(HANG * 20):
        if process_stopped(app.proc.pid):
            break
        stopped.wait(0.05)
    assert process_stopped(app.proc.pid)
    try:
        yield app
    finally:
        os.kill(app.proc.pid, signal.SIGCONT)
        app.quit()


def test_commands_beside_a_stopped_app_say_who_holds_the_index_instead_of_waiting(
    data_dir: Path, stopped_app: Actor, capsys: pytest.CaptureFixture[str],
) -> None:
    pid = stopped_app.proc.pid
    who = f"the Desktop KB app (process {pid}), which is stopped"

    code, out, err = run(capsys, data_dir, "note", "add", "--title", "during", "--body", "zqfrozen1")
    assert code == 1
    assert "Saved in the library, but not searchable yet" in err and who in err, err
    assert "resume it or close it" in err

    code, out, err = run(capsys, data_dir, "search", "zqfrozen0")
    assert code == 0, err
    assert "[note 1] before" in out  # what the index holds is read
    assert "1 change(s) behind" in err and who in err, err

    code, out, err = run(capsys, data_dir, "ask", "zqfrozen0")
    assert code == 0, err
    assert "before" in out and who in err

    code, out, err = run(capsys, data_dir, "--json", "index", "status")
    status = json.loads(out)
    assert status["state"] == "unavailable" and who in status["error"], status

    code, out, err = run(capsys, data_dir, "index", "rebuild")
    assert code == 1 and "Nothing was rebuilt" in err and who in err, err
    assert handoff.pending(data_dir / handoff.REQUESTS_DIR) == []  # withdrawn: not run later

    # Resumed, the app indexes what was saved meanwhile: nothing lost, the status tells the truth.
    os.kill(pid, signal.SIGCONT)
    assert stopped_app.ask(op="drain")["drained"]
    code, out, err = run(capsys, data_dir, "search", "zqfrozen1")
    assert code == 0 and "[note 2] during" in out and err == "", (out, err)
    code, out, err = run(capsys, data_dir, "--json", "index", "status")
    assert json.loads(out)["state"] == "ok", out


def test_an_owner_that_cannot_be_seen_stopped_is_read_past_after_its_silence(
    data_dir: Path, stopped_app: Actor, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An owner on another computer (a shared folder; that laptop suspended) cannot be seen
    stopped: a read command gives up once the index has not moved for OWNER_SILENT_S."""
    monkeypatch.setattr(common, "OWNER_SILENT_S", 1.0)
    lock = data_dir / LOCK_NAME
    said = json.loads(lock.read_text(encoding="utf-8"))
    lock.write_text(json.dumps({**said, "host": "other-laptop"}), encoding="utf-8")  # the flock stays held
    with Library(data_dir, load_model=False) as writer:
        writer.add_note("during", "zqfrozen1")
    code, out, err = run(capsys, data_dir, "search", "zqfrozen0")
    assert code == 0 and "[note 1] before" in out, (out, err)
    assert "1 change(s) behind" in err and "has not written to it for 1 s" in err, err


def test_a_stopped_owner_that_had_caught_up_leaves_a_complete_index_said_so(
    data_dir: Path, stopped_app: Actor, capsys: pytest.CaptureFixture[str],
) -> None:
    """The app stopped after indexing everything: status said 'unavailable' (an alarm) though
    the index held every change. It is whole, so 'ok', naming the stopped owner and that the
    next change will wait; the moment a change waits, it is 'unavailable' again."""
    pid = stopped_app.proc.pid
    code, out, err = run(capsys, data_dir, "--json", "index", "status")
    status = json.loads(out)
    assert status["state"] == "ok" and status["error"] is None and status["pending"] == 0, status
    assert status["owner_stopped"] is True
    code, out, err = run(capsys, data_dir, "index", "status")
    assert out.startswith("ok: 1 sources") and f"(process {pid}), which is stopped" in out, out
    assert "changes made now wait until it is resumed or closed" in out

    with Library(data_dir, load_model=False, role="app") as lib:  # the app started beside it
        assert lib.index_status().state == "ok"
        lib.add_note("during", "zqfrozen1")
        status_now = lib.index_status()
        assert status_now.state == "unavailable" and not status_now.owner_stopped
        assert "which is stopped" in (status_now.error or "")


def test_a_complete_index_kept_by_a_stopped_owner_is_said_in_chinese(
    qtbot, data_dir: Path, stopped_app: Actor,  # type: ignore[no-untyped-def]
) -> None:
    from desktop_kb.ui import i18n
    from desktop_kb.ui.status_badge import IndexStatusPopup, StatusBadge

    with Library(data_dir, load_model=False, role="app") as lib:
        status = lib.index_status()
    i18n.install_language("zh_CN")
    try:
        badge, popup = StatusBadge(), IndexStatusPopup()
        qtbot.addWidget(badge)
        qtbot.addWidget(popup)
        badge.set_status(status)
        popup.set_status(status)
        assert badge.text() == "已索引 ✓"
        assert f"Desktop KB 应用（进程 {stopped_app.proc.pid}）" in popup.summary.text()
        assert "已暂停" in popup.summary.text() and "stopped" not in popup.summary.text()
    finally:
        i18n.install_language("en")


def test_a_follower_s_status_names_the_stopped_owner(data_dir: Path, stopped_app: Actor) -> None:
    """The app beside a `desktop-kb` command stopped with Ctrl+Z reads its badge from here."""
    with Library(data_dir, load_model=False, role="app") as lib:
        assert not lib.worker.is_owner
        lib.add_note("during", "zqfrozen1")
        status = lib.index_status()
        assert status.state == "unavailable" and status.pending == 1
        assert f"process {stopped_app.proc.pid}), which is stopped" in (status.error or "")


def test_the_stopped_owner_is_said_in_chinese(qtbot) -> None:  # type: ignore[no-untyped-def]
    from desktop_kb.index.writer_lock import OWNER_STOPPED_MESSAGE, LockOwner
    from desktop_kb.ui import i18n
    from desktop_kb.ui.env_messages import localize

    i18n.install_language("zh_CN")
    try:
        for role, name in (("app", "Desktop KB 应用（进程 4242）"), ("cli", "（进程 4242）")):
            shown = localize(OWNER_STOPPED_MESSAGE.format(LockOwner(4242, role, "h").describe()))
            assert shown.startswith("搜索索引由") and name in shown and "stopped" not in shown, shown
    finally:
        i18n.install_language("en")


HOLDER = """
import sys
from PySide6.QtCore import QLockFile
lock = QLockFile(sys.argv[1])
lock.setStaleLockTime(0)
print(lock.tryLock(100), flush=True)
sys.stdin.read()
"""


def test_starting_the_app_again_beside_a_stopped_one_says_it_is_stopped(qtbot, data_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """'Switch to that window, or close it first' cannot be done with a stopped window."""
    import subprocess
    import sys

    from desktop_kb.ui import i18n
    from desktop_kb.ui.single_instance import LOCK_NAME as APP_LOCK
    from desktop_kb.ui.single_instance import AlreadyRunning, acquire_instance_lock

    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(data_dir / APP_LOCK)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "True"
        with pytest.raises(AlreadyRunning, match="Switch to that window"):
            acquire_instance_lock(data_dir)  # running: as before
        os.kill(holder.pid, signal.SIGSTOP)
        with pytest.raises(AlreadyRunning) as refused:
            acquire_instance_lock(data_dir)
        said = str(refused.value)
        assert f"process {holder.pid}" in said and "is stopped" in said and "Switch to" not in said
        i18n.install_language("zh_CN")
        try:
            with pytest.raises(AlreadyRunning, match="已暂停"):
                acquire_instance_lock(data_dir)
        finally:
            i18n.install_language("en")
    finally:
        os.kill(holder.pid, signal.SIGCONT)
        holder.kill()
        holder.wait()


STOPPED_IN_A_SAVE = """
import os, signal, sys
from pathlib import Path
from desktop_kb.library import Library
lib = Library(Path(sys.argv[1]), role="app", load_model=False)
lib.add_note("before", "zqfrozen0")
assert lib.drain(60)
lib.store.execute("BEGIN IMMEDIATE")  # stopped in the middle of a save (an import's file)
lib.store.execute("UPDATE notes SET title = title")
print(lib.worker.is_owner, flush=True)
os.kill(os.getpid(), signal.SIGSTOP)
"""


def test_a_save_beside_an_app_stopped_in_its_own_save_names_it(
    data_dir: Path, capsys: pytest.CaptureFixture[str], qtbot,  # type: ignore[no-untyped-def]
) -> None:
    """'The library is busy in another program … Close the other window or try again.' did
    not say which program, and trying again never helps while it stays stopped."""
    import subprocess
    import sys

    from desktop_kb.ui import i18n
    from desktop_kb.ui.env_messages import localize

    app = subprocess.Popen([sys.executable, "-c", STOPPED_IN_A_SAVE, str(data_dir)],
                           stdout=subprocess.PIPE, text=True)
    try:
        assert app.stdout is not None and app.stdout.readline().strip() == "True"
        code, _out, err = run(capsys, data_dir, "note", "add", "--title", "t", "--body", "b")
        assert code == 1 and "busy in another program" in err, err
        assert f"It may be held by the Desktop KB app (process {app.pid}), which is stopped" in err
        code, out, err = run(capsys, data_dir, "search", "zqfrozen0")  # reading needs no lock
        assert code == 0 and "[note 1] before" in out, (out, err)
        i18n.install_language("zh_CN")
        try:
            shown = localize(f"Saving to the library: The library is busy in another program (database "
                             f"locked). Close the other window or try again. It may be held by the "
                             f"Desktop KB app (process {app.pid}), which is stopped (suspended, or paused "
                             f"in a debugger): resume it or close it. (database is locked)")
            assert "已暂停" in shown and "stopped" not in shown, shown
        finally:
            i18n.install_language("en")
    finally:
        os.kill(app.pid, signal.SIGCONT)
        app.kill()
        app.wait()
