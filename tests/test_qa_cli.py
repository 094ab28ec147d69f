"""CLI for QA: flags, settings, provider, ask (nothing sent without --yes), uploads."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.qa_server import ChatServer, Reply


def run(data_dir: Path, *args: str, stdin: str | None = None, ok: bool = True,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full_env = dict(os.environ, PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring", **(env or {}))
    proc = subprocess.run([sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir), *args],
                          input=stdin, capture_output=True, text=True, timeout=120, env=full_env)
    assert "Traceback" not in proc.stderr, proc.stderr
    if ok:
        assert proc.returncode == 0, proc.stderr
    return proc


def js(data_dir: Path, *args: str, env: dict[str, str] | None = None) -> dict:
    return json.loads(run(data_dir, *args, "--json", env=env).stdout)


def test_ask_sends_only_with_yes_and_logs_the_upload(data_dir: Path) -> None:
    gitlab = "用 Docker 安装 GitLab。先写 docker-compose.yml。第一次启动要等几分钟。"
    run(data_dir, "note", "add", "--title", "GitLab", "--body", gitlab)
    secret_id = js(data_dir, "note", "add", "--title", "私密", "--body", "GitLab 安装在内网。")["id"]
    assert js(data_dir, "note", "set", str(secret_id), "--local-only", "true")["local_only"] is True
    assert js(data_dir, "settings", "set", "qa.cloud_enabled", "true")["value"] is True
    assert js(data_dir, "settings", "get", "qa.budget_chars")["value"] == 1200
    bad = run(data_dir, "settings", "set", "qa.sensitive", "maybe", ok=False)
    assert bad.returncode == 1 and "block" in bad.stderr
    with ChatServer() as server:
        shown = js(data_dir, "provider", "set", "--base-url", server.base_url, "--model", "m1")
        assert shown["host"] == server.base_url.split("/")[2] and shown["cloud_enabled"] is True

        local = js(data_dir, "ask", "怎么安装 GitLab")
        assert local["mode"] == "local" and local["reason"] == "not_approved"
        assert server.requests == []
        assert {c["source_id"] for c in local["citations"]} >= {1}

        server.replies.append(Reply.stream("先写 compose 文件[1]。"))
        answer = js(data_dir, "ask", "怎么安装 GitLab", "--yes", env={"DESKTOP_KB_API_KEY": "k-env"})
        assert answer["mode"] == "generated", answer
        assert answer["answer"] == "先写 compose 文件[1]。"
        assert set(answer) >= {"mode", "reason", "answer", "citations", "hits", "gate", "flags"}
        cite = answer["citations"][0]
        assert set(cite) >= {"n", "source_type", "source_id", "title", "start", "end", "snippet"}
        assert gitlab[cite["start"]:cite["end"]] == cite["snippet"]
        assert answer["gate"]["blocked"] == 1  # the local-only note
        assert len(server.requests) == 1 and server.headers[0]["authorization"] == "Bearer k-env"
        assert "内网" not in json.dumps(server.requests[0], ensure_ascii=False)
    log = js(data_dir, "uploads")["uploads"]
    assert len(log) == 1 and log[0]["outcome"] == "ok" and log[0]["n_snippets"] >= 1


def test_provider_key_without_keyring_and_document_flags(data_dir: Path, tmp_path: Path) -> None:
    proc = run(data_dir, "provider", "key", stdin="sk-test\n", ok=False)
    assert proc.returncode == 1 and "keyring" in proc.stderr and "sk-test" not in proc.stderr
    (tmp_path / "a.md").write_text("# A\n\nGitLab notes", encoding="utf-8")
    run(data_dir, "import", str(tmp_path / "a.md"))
    doc = js(data_dir, "document", "list")["documents"][0]
    assert js(data_dir, "document", "set", str(doc["id"]), "--local-only", "yes")["local_only"] is True
    assert js(data_dir, "document", "list")["documents"][0]["local_only"] is True
    missing = run(data_dir, "document", "set", "999", "--local-only", "true", ok=False)
    assert missing.returncode == 1
    presets = js(data_dir, "provider", "presets")["presets"]
    assert {p["id"] for p in presets} == {"openai", "deepseek", "qwen", "moonshot", "ollama", "lmstudio"}


def test_local_answer_saved_as_a_note_links_its_hits(data_dir: Path) -> None:
    gitlab = js(data_dir, "note", "add", "--title", "GitLab", "--body", "用 Docker 安装 GitLab。")["id"]
    answer = js(data_dir, "ask", "怎么安装 GitLab？", "--save-note")
    assert answer["mode"] == "local" and answer["reason"] == "cloud_off"
    note = js(data_dir, "note", "show", str(answer["note_id"]))
    assert note["title"] == "怎么安装 GitLab？" and "[1] **GitLab**" in note["body"]
    links = js(data_dir, "links", str(answer["note_id"]))
    assert [(lk["target_type"], lk["target_id"]) for lk in links["outgoing"]] == [("note", gitlab)]


def test_a_request_whose_process_was_killed_is_listed_as_interrupted(data_dir: Path) -> None:
    """The row is written before the request leaves; a process killed mid-request left it
    'sending' for ever, as if the request were still in flight."""
    import signal

    run(data_dir, "note", "add", "--title", "GitLab", "--body", "用 Docker 安装 GitLab。先写 docker-compose.yml。")
    run(data_dir, "settings", "set", "qa.cloud_enabled", "true")
    env = dict(os.environ, PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring",
               DESKTOP_KB_API_KEY="k-env")
    with ChatServer() as server:
        run(data_dir, "provider", "set", "--base-url", server.base_url, "--model", "m1")
        server.replies.append(Reply(hang=True))
        asking = subprocess.Popen([sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir),
                                   "ask", "怎么安装 GitLab", "--yes"], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            assert server.stalled.wait(120)
            assert [u["outcome"] for u in js(data_dir, "uploads")["uploads"]] == ["sending"]
        finally:
            asking.send_signal(signal.SIGKILL)
            asking.wait(120)
    assert [u["outcome"] for u in js(data_dir, "uploads")["uploads"]] == ["interrupted"]
