"""The CLI: every command with --json, changes visible to the next command, clean errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def run(data_dir: Path, *args: str, stdin: str | None = None, ok: bool = True) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir), *args],
        input=stdin, capture_output=True, text=True, timeout=120,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    if ok:
        assert proc.returncode == 0, proc.stderr
    return proc


def js(data_dir: Path, *args: str) -> dict:
    return json.loads(run(data_dir, *args, "--json").stdout)


def test_note_add_search_show_delete_roundtrip(data_dir: Path, tmp_path: Path) -> None:
    note_id = int(run(data_dir, "note", "add", "--title", "部署", "--body", "用 Docker 安装 GitLab").stdout)
    body_file = tmp_path / "b.md"
    body_file.write_text("# Python\n\n列表推导式 list comprehension", encoding="utf-8")
    other = js(data_dir, "note", "add", "--title", "py", "--body-file", str(body_file))["id"]
    # search straight after add: the command drained the worker
    result = js(data_dir, "search", "gitlab")
    assert result["query"] == "gitlab" and result["mode"] == "lexical"
    top = result["results"][0]
    assert (top["rank"], top["source_type"], top["source_id"], top["title"]) == (1, "note", note_id, "部署")
    s, e = top["highlights"][0]
    assert "用 Docker 安装 GitLab"[s:e].lower() == "gitlab"
    assert set(top) == {"rank", "source_type", "source_id", "title", "snippet", "highlights",
                        "start", "end", "score"}
    assert js(data_dir, "search", "推导式")["results"][0]["source_id"] == other
    assert js(data_dir, "note", "show", str(other))["body"].startswith("# Python")
    assert {n["id"] for n in js(data_dir, "note", "list")["notes"]} == {note_id, other}
    run(data_dir, "note", "delete", str(note_id))
    assert js(data_dir, "search", "gitlab")["results"] == []
    assert [n["id"] for n in js(data_dir, "note", "list", "--trash")["notes"]] == [note_id]
    run(data_dir, "note", "restore", str(note_id))
    assert js(data_dir, "search", "gitlab")["results"][0]["source_id"] == note_id
    run(data_dir, "note", "delete", "--purge", str(note_id))
    assert js(data_dir, "search", "gitlab")["results"] == []


def test_import_search_and_index_commands(data_dir: Path, tmp_path: Path) -> None:
    src = tmp_path / "material"
    (src / ".git").mkdir(parents=True)
    (src / ".git" / "secret.md").write_text("zqxhidden", encoding="utf-8")
    (src / "guide.md").write_text("# 安装\n\n用 Docker 安装 GitLab。\n\n# 备份\n\n每天备份。", encoding="utf-8")
    (src / "conf.yaml").write_text("server:\n  port: 8080\nzqxyaml: true\n", encoding="utf-8")
    summary = js(data_dir, "import", str(src))
    assert summary["added"] == 2 and summary["per_format"] == {"md": 1, "yaml": 1}
    assert summary["quiet_skipped"].get("hidden", 0) >= 1
    hit = js(data_dir, "search", "gitlab")["results"][0]
    assert hit["source_type"] == "fragment" and "安装" in hit["title"]
    # A fragment hit names its document and file, so a script can open it.
    guide = next(d for d in js(data_dir, "document", "list")["documents"]
                 if d["path"].endswith("guide.md"))
    assert (hit["document_id"], hit["path"]) == (guide["id"], guide["path"])
    assert Path(hit["path"]) == (src / "guide.md").resolve()
    assert js(data_dir, "search", "zqxhidden")["results"] == []
    assert js(data_dir, "import", str(src))["unchanged"] == 2
    (src / "conf.yaml").unlink()
    pruned = js(data_dir, "import", str(src), "--prune")
    assert pruned["removed"] == 1
    assert js(data_dir, "search", "zqxyaml")["results"] == []
    # `index status` answers at once, and a fresh process's own start-up (its first look at
    # the feed, its model) is not "indexing": only changes not applied yet are.
    status = js(data_dir, "index", "status")
    assert status["state"] == "ok" and status["failures"] == [] and status["sources"] == 2
    assert js(data_dir, "index", "verify")["drift"] == 0
    rebuilt = js(data_dir, "index", "rebuild")
    assert rebuilt["sources"] == 2 and rebuilt["cancelled"] is False
    assert js(data_dir, "search", "备份")["results"]


def test_json_flag_before_the_command_and_env_data_dir(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "desktop_kb", "--json", "note", "add", "--title", "t", "--body", "b"],
        capture_output=True, text=True, timeout=120, env={**__import__("os").environ,
                                                          "DESKTOP_KB_DATA_DIR": str(data_dir)})
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["id"] == 1
    assert (data_dir / "library.sqlite").exists()


@pytest.mark.parametrize("args, message", [
    (("note", "show", "999"), "No note with id 999"),
    (("note", "delete", "999"), "No note with id 999"),
    (("note", "add", "--title", "t", "--body-file", "/nonexistent/file.md"), "Cannot read"),
    (("search", "x", "--limit", "0"), "--limit"),
])
def test_errors_are_one_line_without_traceback(data_dir: Path, args: tuple[str, ...], message: str) -> None:
    proc = run(data_dir, *args, ok=False)
    assert proc.returncode != 0
    assert message in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_newer_library_is_refused_with_a_clear_message(data_dir: Path) -> None:
    import sqlite3

    run(data_dir, "note", "add", "--title", "t", "--body", "b")
    conn = sqlite3.connect(data_dir / "library.sqlite")
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    proc = run(data_dir, "note", "list", ok=False)
    assert proc.returncode == 1 and "newer version of Desktop KB" in proc.stderr



def test_an_empty_question_is_refused_in_one_line(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``ask " "`` made a chat session for an empty question and answered it. (An empty
    ``search`` stays a plain "no results", exit 0: scripts pass unset variables.)"""
    from desktop_kb.cli.entry import main
    from desktop_kb.library import Library

    assert main(["--data-dir", str(data_dir), "ask", " \t"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "question is empty" in err
    with Library(data_dir, load_model=False) as lib:
        assert lib.store_reader.execute("SELECT count(*) FROM chat_sessions").fetchone()[0] == 0


def test_search_prints_each_hit_as_a_title_and_one_clean_line(data_dir: Path, tmp_path: Path) -> None:
    """A hit's snippet printed as stored broke the list: its second line started at the margin
    with "## `Rc<T>` …" or "<span class=…>", and repeated the heading its title names ("Rc<T>
    引用计数 Rc<T> 引用计数 …", as the window does not); --json keeps the stored text."""
    (tmp_path / "rc.md").write_text(
        "# `Rc<T>` 引用计数\n\n<span class=\"caption\">示例 15-19</span>\n\n每次 **克隆** 引用计数加一。\n",
        encoding="utf-8")
    run(data_dir, "import", str(tmp_path / "rc.md"))
    out = run(data_dir, "search", "引用计数", "--mode", "lexical").stdout.splitlines()
    assert out[0].endswith("] Rc<T> 引用计数")
    assert out[1] == "   示例 15-19 每次 克隆 引用计数加一。"  # the heading is the title above
    assert len(out) == 2
    assert "**克隆**" in js(data_dir, "search", "引用计数", "--mode", "lexical")["results"][0]["snippet"]


def test_a_weak_keyword_search_lists_its_hits_under_a_line_that_says_so(data_dir: Path) -> None:
    """Keyword search used to print 'nothing in the library is close to this' for a question in
    everyday words that holds few of its words, though the right note held them."""
    run(data_dir, "note", "add", "--title", "Weak 引用", "--body",
        "树的子节点用 Rc 持有，指向父节点用 Weak，这样父子节点之间不会形成引用循环，内存可以释放。")
    run(data_dir, "note", "add", "--title", "所有权", "--body", "每个值都有一个所有者，所有者离开作用域时值被丢弃。")
    question = "做一棵树，下面的节点要能找到上一级，又不想上下两级互相拽着谁都释放不了"
    out = run(data_dir, "search", question).stdout.splitlines()
    assert out[0].startswith("(weak matches: only some of these words are in the library")
    assert out[1].endswith("] Weak 引用")
    found = js(data_dir, "search", question)
    assert found["weak_matches"] is True and found["results"][0]["title"] == "Weak 引用"
    assert js(data_dir, "search", "所有者")["weak_matches"] is False


def test_prune_leaves_an_empty_folder_s_documents_alone_unless_asked(data_dir: Path, tmp_path: Path) -> None:
    """A stick or network drive that is not mounted leaves its mount point as an empty folder:
    `import /mnt/stick --prune` removed every document imported from it (and the links and
    dismissals that pointed into them) as if each file had been deleted."""
    stick = tmp_path / "mnt-stick"
    stick.mkdir()
    for i in range(3):
        (stick / f"章节{i}.md").write_text(f"# 第 {i} 章\n\n优盘上的笔记 zqstick{i}\n", encoding="utf-8")
    assert js(data_dir, "import", str(stick))["added"] == 3
    away = tmp_path / "files-while-unmounted"
    stick.rename(away)
    stick.mkdir()  # the empty mount point
    refused = run(data_dir, "import", str(stick), "--prune", "--json", ok=False)
    assert refused.returncode != 0
    summary = json.loads(refused.stdout)
    assert summary["removed"] == 0 and summary["prune_kept"] == [str(stick.resolve())]
    assert "empty" in refused.stderr and "--prune-empty" in refused.stderr
    assert len(js(data_dir, "document", "list")["documents"]) == 3
    assert js(data_dir, "search", "zqstick1")["results"]
    text = run(data_dir, "import", str(stick), "--prune", ok=False)
    assert "nothing removed under" in text.stdout
    # A folder that still holds something is pruned as before; so is an empty one when asked.
    (stick / "notes.txt").write_text("另一个文件 zqother\n", encoding="utf-8")
    assert js(data_dir, "import", str(stick), "--prune")["removed"] == 3
    (stick / "notes.txt").unlink()
    assert js(data_dir, "import", str(stick), "--prune", "--prune-empty")["removed"] == 1
    assert js(data_dir, "document", "list")["documents"] == []
