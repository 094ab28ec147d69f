"""Asking the library while another program holds its write lock (a long import's transaction,
a database browser left mid-edit): asking only reads, so the question is answered; the chat
that could not be written says why, naming the program, and nothing leaves unlogged (I8)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_gui_support import QT_NOISE, open_window

from desktop_kb.cli import entry as cli
from desktop_kb.library import Library
from desktop_kb.store import chats, connection, uploads
from tests.qa_server import ChatServer

pytestmark = pytest.mark.skipif(not os.path.isfile("/proc/locks"), reason="names the holder from /proc/locks")

HOLD = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")  # what a long import holds while it writes one large file
conn.execute("UPDATE notes SET title = title")
print("holding", flush=True)
sys.stdin.readline()
conn.execute("COMMIT")
"""


@pytest.fixture
def held(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[subprocess.Popen[str]]:
    """A library with a note on ownership, and another process holding its write lock."""
    with Library(data_dir, load_model=False) as lib:
        lib.add_note("所有权", "Rust 中每个值都有一个所有者 zqheld")
        assert lib.drain(60)
    monkeypatch.setattr(connection, "BUSY_TIMEOUT_MS", 300)  # each write gives up sooner
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(data_dir / "library.sqlite")],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
    try:
        yield holder
    finally:
        holder.kill()
        holder.wait()


def run(capsys: pytest.CaptureFixture[str], data_dir: Path, *args: str) -> tuple[int, str, str]:
    codes: list[int] = []
    thread = threading.Thread(
        target=lambda: codes.append(cli.main(["--data-dir", str(data_dir), *args])), daemon=True)
    thread.start()
    thread.join(120)
    assert not thread.is_alive(), f"desktop-kb {' '.join(args)} still waits"
    out, err = capsys.readouterr()
    return codes[0], out, err


def test_ask_answers_while_another_program_holds_the_library(
    data_dir: Path, held: subprocess.Popen[str], capsys: pytest.CaptureFixture[str],
) -> None:
    # It failed with 'Saving to the library: The library is busy in another program' and no answer.
    code, out, err = run(capsys, data_dir, "ask", "zqheld 所有者")
    assert code == 0, err
    assert "[1] 所有权" in out
    assert "not kept in a chat" in err and f"It is held by process {held.pid} (python" in err, err
    assert "wait for it to finish, or close it" in err

    code, out, err = run(capsys, data_dir, "--json", "ask", "zqheld 所有者")
    assert code == 0 and json.loads(out)["hits"][0]["title"] == "所有权", (out, err)

    # Asked to save the answer as a note, it still shows the answer and says it was not saved.
    code, out, err = run(capsys, data_dir, "ask", "zqheld 所有者", "--save-note")
    assert code == 1 and "[1] 所有权" in out and "not saved as a note" in err, (out, err)

    held.communicate("\n", timeout=60)  # the import finished: the next question is kept
    code, out, err = run(capsys, data_dir, "ask", "zqheld 所有者")
    assert code == 0 and err == "", err
    with Library(data_dir, load_model=False) as lib:
        sessions = chats.list_sessions(lib.store_reader)
        assert len(sessions) == 1 and len(chats.list_messages(lib.store_reader, sessions[0].id)) == 2


def test_ask_does_not_wait_for_the_programs_write_lock_to_answer(
    data_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Asking reads; only keeping its chat writes. With the app (or an import) holding the write
    lock, 'desktop-kb ask' sat out the whole busy timeout (5 s) before it printed the answer it
    already had. The busy timeout here is an hour: before, ``run`` gave up on the command."""
    with Library(data_dir, load_model=False) as lib:
        lib.add_note("所有权", "Rust 中每个值都有一个所有者 zqheld")
        assert lib.drain(60)
        session = lib.write(lambda conn: chats.create_session(conn, "earlier"))
    monkeypatch.setattr(connection, "BUSY_TIMEOUT_MS", 3_600_000)
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(data_dir / "library.sqlite")],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        for extra in ([], ["--session", str(session)]):  # a new chat, and one continued
            code, out, err = run(capsys, data_dir, "ask", "zqheld 所有者", *extra)
            assert code == 0 and "[1] 所有权" in out, (out, err)
            assert "not kept in a chat" in err and f"process {holder.pid}" in err, err
        holder.communicate("\n", timeout=60)
    finally:
        holder.kill()
        holder.wait()
    with Library(data_dir, load_model=False) as lib:
        assert [s.id for s in chats.list_sessions(lib.store_reader)] == [session]
        assert chats.list_messages(lib.store_reader, session) == []


def test_nothing_is_sent_when_the_upload_cannot_be_logged(
    data_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    with Library(data_dir, load_model=False) as lib:
        lib.add_note("所有权", "Rust 中每个值都有一个所有者 zqheld")
        assert lib.drain(60)
    with ChatServer() as server:
        assert run(capsys, data_dir, "settings", "set", "qa.cloud_enabled", "true")[0] == 0
        assert run(capsys, data_dir, "provider", "set", "--base-url", server.base_url, "--model", "m1")[0] == 0
        monkeypatch.setattr(connection, "BUSY_TIMEOUT_MS", 300)
        holder = subprocess.Popen([sys.executable, "-c", HOLD, str(data_dir / "library.sqlite")],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
            code, out, err = run(capsys, data_dir, "--json", "ask", "zqheld 所有者", "--yes")
        finally:
            holder.kill()
            holder.wait()
        assert code == 0, err
        answer = json.loads(out)
        assert answer["mode"] == "local" and answer["reason"] == "not_logged", answer
        assert f"process {holder.pid}" in answer["detail"]
        assert server.requests == []  # nothing left unlogged
    with Library(data_dir, load_model=False) as lib:
        assert uploads.list_uploads(lib.store_reader) == []


@pytest.mark.qt_log_level_fail("WARNING")
@pytest.mark.qt_log_ignore(*QT_NOISE)
def test_the_ask_pane_answers_while_a_command_holds_the_library(
    qtbot, data_dir: Path, monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
) -> None:
    with Library(data_dir, load_model=False) as lib:
        lib.add_note("所有权", "Rust 中每个值都有一个所有者 zqheld")
    monkeypatch.setattr(connection, "BUSY_TIMEOUT_MS", 300)
    window = open_window(qtbot, data_dir)
    window.qa_dock.show()
    pane = window.qa_dock.pane
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(data_dir / "library.sqlite")],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    from desktop_kb.ui import i18n

    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        i18n.install_language("zh_CN")
        pane.question.setText("zqheld 所有者")
        pane.ask_button.click()
        # It said '出错了：保存到资料库时：资料库正被另一个程序使用…' and showed no hits.
        qtbot.waitUntil(lambda: "没有保存到对话中" in pane.status.text(), timeout=20000)
        status = pane.status.text()
        assert f"占用它的是进程 {holder.pid}（python" in status and "held by" not in status, status
        assert "所有权" in pane.transcript.toPlainText()
        assert "出错了" not in status
    finally:
        i18n.install_language("en")
        holder.kill()
        holder.wait()


@pytest.mark.qt_log_level_fail("WARNING")
@pytest.mark.qt_log_ignore(*QT_NOISE)
def test_the_window_opens_a_new_library_while_its_first_import_holds_it(
    qtbot, data_dir: Path, held: subprocess.Popen[str],  # type: ignore[no-untyped-def]
) -> None:
    """`desktop-kb import` made the library and is writing a large file; the window, started
    meanwhile for the first time, said 'The library could not be opened: … busy …' (it wanted
    to write its welcome note first)."""
    window = open_window(qtbot, data_dir)
    assert [window.note_list.model.get(i).title for i in window.note_list.model.ids()] == ["所有权"]
    held.communicate("\n", timeout=60)
    with Library(data_dir, load_model=False) as lib:
        assert [n.title for n in lib.list_notes()] == ["所有权"]  # no welcome note among the person's


def test_the_daily_backup_is_made_and_said_made_while_another_program_holds_the_library(
    data_dir: Path, held: subprocess.Popen[str],
) -> None:
    """The window said 'The daily backup could not be made: … busy …' of a backup it had just
    made: the tidying after it wanted to write."""
    from desktop_kb.store.backup import list_backups

    with Library(data_dir, load_model=False, role="app") as lib:
        made = lib.daily_upkeep()
        assert made is not None and [b.path for b in list_backups(lib.paths.store)] == [made.path]
