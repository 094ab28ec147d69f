"""The CLI's side of issue 10, run as a real subprocess against a real loopback provider.

Approval per act (--yes on that very command), the capped question, keys that
never land in output, file "keyrings" refused without --allow-insecure-keyring,
citations and escape sequences from a provider, and local-only saved answers.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.qa_server import ChatServer, Reply

KEY = "sk-proj-Zq8LmN3vX5bT2kW9pR7yD4fH6jS1aG0cE-T3BlbkFJ"
GITLAB = "用 Docker 安装 GitLab。先写 docker-compose.yml。第一次启动要等几分钟。"


def run(data_dir: Path, *args: str, stdin: str | None = None, ok: bool = True,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full_env = dict(os.environ, PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring",
                    DESKTOP_KB_API_KEY=KEY)
    full_env.update(env or {})
    proc = subprocess.run([sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir), *args],
                          input=stdin, capture_output=True, text=True, timeout=120, env=full_env)
    assert "Traceback" not in proc.stderr, proc.stderr
    if ok:
        assert proc.returncode == 0, proc.stderr
    return proc


def js(data_dir: Path, *args: str, **kwargs: Any) -> dict[str, Any]:
    return json.loads(run(data_dir, *args, "--json", **kwargs).stdout)


def _setup(data_dir: Path, server: ChatServer, *notes: tuple[str, str], local: tuple[str, ...] = ()) -> None:
    """The library is prepared in-process (each CLI start costs seconds on a loaded machine)."""
    from desktop_kb.library import Library

    with Library(data_dir) as lib:
        for title, body in notes or (("GitLab", GITLAB),):
            lib.add_note(title, body, local_only=title in local)
        lib.set_setting("qa.cloud_enabled", True)
        lib.set_setting("qa.provider.base_url", server.base_url)
        lib.set_setting("qa.provider.model", "m1")
        lib.drain()


def test_a_session_approved_in_the_app_approves_nothing_on_the_command_line(data_dir: Path) -> None:
    from desktop_kb.library import Library
    from desktop_kb.qa.approvals import SessionApprovals
    from desktop_kb.qa.engine import QaEngine

    with ChatServer() as server:
        _setup(data_dir, server)
        with Library(data_dir) as lib:  # the app, approving "send for this session"
            app = QaEngine(lib, key_lookup=lambda _n: KEY, session_approvals=SessionApprovals())
            session = app.new_session("t")
            server.replies.append(Reply.stream("先写 compose[1]。"))
            plan = app.prepare("怎么安装 GitLab", session_id=session)
            assert app.send(plan, approved=True, approve_session=True).mode == "generated"
        assert len(server.requests) == 1

        local = js(data_dir, "ask", "怎么安装 GitLab", "--session", str(session))
        assert local["mode"] == "local" and local["reason"] == "not_approved"
        assert len(server.requests) == 1  # nothing left without --yes on this command
        server.replies.append(Reply.stream("先写 compose[1]。"))
        assert js(data_dir, "ask", "怎么安装 GitLab", "--session", str(session), "--yes")["mode"] == "generated"
        assert len(server.requests) == 2


def test_a_question_over_the_cap_is_one_clear_line(data_dir: Path) -> None:
    with ChatServer() as server:
        _setup(data_dir, server)
        proc = run(data_dir, "ask", "GitLab " * 500, "--yes", ok=False)
        assert proc.returncode == 1 and server.requests == []
        assert "3,500 characters" in proc.stderr and "2,000" in proc.stderr and len(proc.stderr.splitlines()) == 1
        bad = run(data_dir, "settings", "set", "qa.max_answer_tokens", "0", ok=False)
        assert bad.returncode == 1 and "qa.max_answer_tokens" in bad.stderr


def test_a_provider_error_echoing_the_key_never_reaches_the_terminal(data_dir: Path) -> None:
    with ChatServer() as server:
        _setup(data_dir, server)
        echo = json.dumps({"error": {"message": f"Invalid key {KEY} (Authorization: Bearer {KEY})"}})
        server.replies.append(Reply(status=400, body=echo))
        text = run(data_dir, "ask", "怎么安装 GitLab", "--yes")
        for out in (text.stdout, text.stderr):
            assert KEY not in out and KEY[:16] not in out
        assert "Invalid key" in text.stdout


def test_citations_and_escape_sequences_from_the_provider(data_dir: Path) -> None:
    with ChatServer() as server:
        _setup(data_dir, server, ("GitLab \x1b]0;owned\x07安装", GITLAB))
        server.replies.append(Reply.stream("先写 compose［1］，另见 [^9]\x1b]52;c;ZXZpbA==\x07\x1b[31m 【1-2】。"))
        proc = run(data_dir, "ask", "怎么安装 GitLab", "--yes")
        assert "\x1b" not in proc.stdout and "\x07" not in proc.stdout
        first = proc.stdout.splitlines()[0]
        assert first.startswith("先写 compose[1]，另见") and "[^9]" not in first and "［1］" not in first
        assert "invalid_citations_removed" in proc.stdout
        assert "GitLab 安装" in proc.stdout  # the citation's title, its OSC sequence removed


def test_a_file_keyring_is_refused_unless_allowed(data_dir: Path, tmp_path: Path) -> None:
    env = {"PYTHON_KEYRING_BACKEND": "keyrings.alt.file.PlaintextKeyring", "DESKTOP_KB_API_KEY": "",
           "XDG_DATA_HOME": str(tmp_path / "xdg")}
    refused = run(data_dir, "provider", "key", stdin=KEY + "\n", ok=False, env=env)
    assert refused.returncode == 1 and "PlaintextKeyring" in refused.stderr
    assert "--allow-insecure-keyring" in refused.stderr and "keyring_pass.cfg" in refused.stderr
    assert KEY not in refused.stderr + refused.stdout
    assert not list((tmp_path / "xdg").rglob("keyring_pass.cfg"))

    stored = run(data_dir, "provider", "key", "--allow-insecure-keyring", stdin=KEY + "\n", env=env)
    assert "keyring_pass.cfg" in stored.stdout and "not a system keyring" in stored.stdout
    assert KEY not in stored.stdout
    shown = js(data_dir, "provider", "show", env=env)
    assert shown["has_key"] and shown["keyring"]["kind"] == "insecure"


def test_no_keyring_explains_what_to_do(data_dir: Path) -> None:
    proc = run(data_dir, "provider", "key", stdin=KEY + "\n", ok=False, env={"DESKTOP_KB_API_KEY": ""})
    assert proc.returncode == 1 and "DESKTOP_KB_API_KEY" in proc.stderr and "GNOME Keyring" in proc.stderr


def test_ask_save_note_from_a_local_only_source_is_local_only(data_dir: Path) -> None:
    with ChatServer() as server:
        _setup(data_dir, server, ("GitLab", GITLAB), ("内网 GitLab", "GitLab 安装在内网 10.0.0.5，用 Docker 安装。"),
               local=("内网 GitLab",))
        server.replies.append(Reply.stream("先写 compose[1]。"))
        saved = js(data_dir, "ask", "怎么用 Docker 安装 GitLab", "--yes", "--save-note")
        text = run(data_dir, "note", "show", str(saved["note_id"])).stdout
        assert "local only: made from note" in text and "内网 GitLab" in text
        assert "10.0.0.5" not in json.dumps(server.requests, ensure_ascii=False)
