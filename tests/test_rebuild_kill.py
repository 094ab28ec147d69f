"""A rebuild killed with SIGKILL leaves the dirty flag, and the next start repairs (I5, rule 4).

Also: saves, trashes and deletions made while a rebuild runs are not undone by
the rebuild writing the copies it read earlier (I4).

The rebuild runs in a child process that reports its first progress tick on
stdout; the parent kills it right then, while batches are still being written.
A safety stop near the end (the progress callback waits on an event nobody
sets) guarantees the kill lands before the rebuild can finish, even on a slow
machine. Nothing sleeps: the parent waits on the child's pipe with a timeout.
"""

from __future__ import annotations

import json
import os
import queue
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from desktop_kb.index import rebuild as rebuild_module
from desktop_kb.index.worker import IndexEvent
from desktop_kb.library import Library
from desktop_kb.progress import Progress

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")

N_NOTES = 3000
TIMEOUT = 120  # seconds; only reached if something hangs

ZH = ["用 Docker 安装 GitLab 并配置持续集成。", "知识库的索引可以随时删除并重建。",
      "中文分词使用结巴词典，英文按单词切分。", "保存笔记时先写入数据库，再排队建立索引。",
      "检索结果需要显示引用来源和高亮片段。", "备份数据库文件之前请先关闭应用程序。"]
EN = ["The index is derived from the store and never written back.",
      "Run docker-compose.yml with the v1.2.3 image on port 8080.",
      "A crash during rebuild leaves a dirty flag behind.",
      "Search must find every saved note by its words.",
      "Python and SQLite keep the whole library on one machine."]

CHILD = textwrap.dedent("""
    import sys, threading
    from pathlib import Path
    from desktop_kb.library import Library
    from desktop_kb.progress import Progress

    lib = Library(Path(sys.argv[1]))
    assert lib.startup_rebuild is None, "the parent left a clean index"
    ticked = threading.Event()
    never = threading.Event()

    def on_change(label, done, maximum):
        if done > 0 and not ticked.is_set():
            print("TICK", done, maximum, flush=True)
            ticked.set()
        if maximum and done >= maximum - 300:
            never.wait()  # safety stop: the rebuild must not finish before the kill

    future = lib.worker.rebuild(Progress(on_change))
    if not ticked.wait(120):
        sys.exit("no progress tick")
    # A save committed while the rebuild is running must survive the kill too.
    note_id = lib.add_note("写于重建期间 saved during rebuild",
                           "这条笔记在重建进行时保存 zq99999mk durable before the kill")
    print("SAVED", note_id, flush=True)
    future.result()
    print("FINISHED", flush=True)
""")


def _body(rng: random.Random, marker: str) -> str:
    parts: list[str] = []
    while sum(map(len, parts)) < 280:
        parts.append(rng.choice(ZH) if rng.random() < 0.5 else rng.choice(EN))
    parts.insert(rng.randrange(len(parts) + 1), f" {marker} ")
    return "".join(parts)


def _meta(index_path: Path, key: str) -> str | None:
    conn = sqlite3.connect(index_path)
    try:
        row = conn.execute("SELECT value FROM kb_meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]
    finally:
        conn.close()


def _read_lines(stream, out: queue.Queue[str | None]) -> None:
    for line in stream:
        out.put(line)
    out.put(None)


def _wait_for(child: subprocess.Popen[str], lines: queue.Queue[str | None], prefix: str,
              seen: list[str]) -> str:
    while True:
        line = lines.get(timeout=TIMEOUT)
        if line is None:
            child.wait(timeout=TIMEOUT)
            err = child.stderr.read() if child.stderr else ""
            raise AssertionError(f"child exited before {prefix!r}; output: {seen}; stderr: {err}")
        seen.append(line)
        if line.startswith(prefix):
            return line


def test_sigkill_during_rebuild_sets_dirty_and_next_start_rebuilds(tmp_path: Path) -> None:
    data_dir = tmp_path / "library"
    rng = random.Random(20240601)
    written: dict[int, tuple[str, str, str]] = {}  # id -> (title, body, marker)
    with Library(data_dir) as lib:
        if lib.startup_rebuild is not None:
            lib.startup_rebuild.result()
        for i in range(N_NOTES):
            marker = f"zq{i:05d}mk"
            title = f"笔记 {i} note about {rng.choice(['docker', 'gitlab', '索引', '备份'])}"
            body = _body(rng, marker)
            written[lib.add_note(title, body)] = (title, body, marker)
        assert lib.drain(timeout=TIMEOUT)
        assert lib.verify(repair=False).drift == 0
    assert _meta(data_dir / "index.sqlite", "dirty") == "0"

    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(data_dir)], stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")
    lines: queue.Queue[str | None] = queue.Queue()
    threading.Thread(target=_read_lines, args=(child.stdout, lines), daemon=True).start()
    seen: list[str] = []
    try:
        tick = _wait_for(child, lines, "TICK", seen)
        during_id = int(_wait_for(child, lines, "SAVED", seen).split()[1])
        os.kill(child.pid, signal.SIGKILL)
        assert child.wait(timeout=TIMEOUT) == -signal.SIGKILL
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        for stream in (child.stdin, child.stdout, child.stderr):
            if stream is not None:
                stream.close()
    done, maximum = map(int, tick.split()[1:3])
    assert 0 < done < maximum == N_NOTES
    assert not any(line.startswith("FINISHED") for line in seen)
    written[during_id] = ("写于重建期间 saved during rebuild",
                          "这条笔记在重建进行时保存 zq99999mk durable before the kill", "zq99999mk")

    # The killed rebuild left its flag: the index is known to be incomplete.
    assert _meta(data_dir / "index.sqlite", "dirty") == "1"

    with Library(data_dir) as lib:
        assert lib.startup_rebuild is not None
        result = lib.startup_rebuild.result(timeout=TIMEOUT)
        assert not result.cancelled and result.sources == len(written)
        assert lib.drain(timeout=TIMEOUT)

        notes = {n.id: n for n in lib.list_notes()}
        assert sorted(notes) == sorted(written)
        for note_id, (title, body, marker) in written.items():
            assert (notes[note_id].title, notes[note_id].body) == (title, body)
            hits = lib.search(marker).results
            assert [(r.source_type, r.source_id) for r in hits] == [("note", note_id)], marker
        report = lib.verify(repair=False)
        assert report.drift == 0, report.as_dict()
        assert not lib.index_status().dirty
    assert _meta(data_dir / "index.sqlite", "dirty") == "0"

    # The CLI sees the repaired index too.
    marker_id = next(i for i, w in written.items() if w[2] == "zq01234mk")
    cli = subprocess.run(
        [sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir), "search", "zq01234mk",
         "--json"], capture_output=True, text=True, encoding="utf-8", timeout=TIMEOUT)
    assert cli.returncode == 0, cli.stderr
    payload = json.loads(cli.stdout)
    assert [(r["source_type"], r["source_id"]) for r in payload["results"]] == [("note", marker_id)]


def _fts_hits(data_dir: Path, marker: str) -> int:
    conn = sqlite3.connect(data_dir / "index.sqlite")
    try:
        return conn.execute("SELECT count(*) FROM kb_fts WHERE kb_fts MATCH ?",
                            (f'"{marker}"',)).fetchone()[0]
    finally:
        conn.close()


def test_changes_during_a_read_ahead_rebuild_are_not_undone(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Worker processes read batches ahead of writing them; a note edited,
    trashed or deleted in between must not come back in its old form."""
    monkeypatch.setattr(rebuild_module, "POOL_MIN_CHARS", 0)  # the process-pool path, small library
    batch = rebuild_module.REBUILD_BATCH
    lib = Library(data_dir)
    try:
        if lib.startup_rebuild is not None:
            lib.startup_rebuild.result()
        ids = [lib.add_note(f"笔记 {i}", f"用 Docker 安装 GitLab 第 {i} 条 zq{i:05d}mk")
               for i in range(8 * batch)]
        assert lib.drain(timeout=TIMEOUT)
        # Batch 4 is read (ahead) by the time batch 0 is written, and written after batch 3.
        edited, trashed, deleted = (4 * batch + 1, 4 * batch + 2, 4 * batch + 3)

        at_tick: queue.Queue[int] = queue.Queue()
        release: queue.Queue[bool] = queue.Queue()
        stepping = threading.Event()
        stepping.set()
        last_tick = [0]
        handled_at: dict[tuple[str, int], int] = {}  # key -> rebuild progress when handled

        def on_event(event: IndexEvent) -> None:
            if event.kind in ("indexed", "removed") and event.key is not None:
                handled_at.setdefault(event.key, last_tick[0])

        def on_change(_label: str, done: int, maximum: int) -> None:
            last_tick[0] = done
            if stepping.is_set() and 0 < done < maximum:
                at_tick.put(done)
                release.get(timeout=TIMEOUT)

        future = lib.worker.rebuild(Progress(on_change))
        assert at_tick.get(timeout=TIMEOUT) == batch  # paused after batch 0
        lib.worker.add_listener(on_event)
        # Non-blocking changes first (the deleting thread below holds the write lock).
        lib.save_note(ids[edited], body="改写后的内容 rewritten zq99001mk")
        added = lib.add_note("重建期间新增", "added during the rebuild zq99002mk")
        remover = threading.Thread(
            target=lambda: (lib.trash_note(ids[trashed]), lib.delete_note(ids[deleted])))
        remover.start()
        while remover.is_alive():
            release.put(True)
            at_tick.get(timeout=TIMEOUT)
        stepping.clear()
        release.put(True)
        remover.join(timeout=TIMEOUT)
        assert not future.result(timeout=TIMEOUT).cancelled
        assert lib.drain(timeout=TIMEOUT)
        # The scenario happened: each change was handled before batch 4, read
        # earlier, was written (its tick would read 5 * batch).
        for k in (edited, trashed, deleted):
            assert handled_at[("note", ids[k])] <= 4 * batch, handled_at

        report = lib.verify(repair=False)
        assert report.drift == 0, report.as_dict()
        assert [(r.source_type, r.source_id) for r in lib.search("zq99001mk").results] == [
            ("note", ids[edited])]
        assert [(r.source_type, r.source_id) for r in lib.search("zq99002mk").results] == [
            ("note", added)]
        for gone in (edited, trashed, deleted):
            assert _fts_hits(data_dir, f"zq{gone:05d}mk") == 0, gone
        assert lib.get_note(ids[trashed]).trashed
    finally:
        lib.close()


def test_a_cancelled_rebuild_resumes_where_it_stopped(data_dir: Path) -> None:
    with Library(data_dir, load_model=False) as lib:
        if lib.startup_rebuild is not None:
            lib.startup_rebuild.result()
        ids = [lib.add_note(f"n{i}", f"第 {i} 条 zqres{i:04d}") for i in range(700)]
        assert lib.drain(TIMEOUT)
        cancel_at = 2 * rebuild_module.REBUILD_BATCH
        progress = Progress()

        def on_change(_label: str, done: int, _maximum: int) -> None:
            if done >= cancel_at:
                progress.cancel()

        progress._on_change = on_change  # noqa: SLF001 - the hook the worker calls
        assert lib.rebuild(progress).cancelled
        assert lib.index_status().dirty
        lib.save_note(1, body="changed between the two runs zqres9999")
        # Touched by the feed with its text unchanged: written before the rebuild, so the
        # resumed run must still write it (with the segmenter and words it rebuilds with).
        lib.set_note_local_only(ids[-1], True)
        # Indexed before the rebuild resumes (under load they were, at random: the resumed run
        # then wrote note 1 again and started at 255).
        assert lib.drain(TIMEOUT)
        resumed: list[tuple[int, int]] = []
        result = lib.rebuild(Progress(lambda _l, done, maximum: resumed.append((done, maximum))))
        assert not result.cancelled and result.sources == 700
        # The second run started where the first stopped, not at zero, and wrote none of the
        # first run's sources again (note 1 was written between the runs, in its generation).
        assert resumed[0] == (0, 700) and resumed[1][0] == cancel_at
        assert not lib.index_status().dirty
        assert lib.verify(repair=False).drift == 0
        assert [(r.source_type, r.source_id) for r in lib.search("zqres9999").results] == [("note", 1)]
        fresh: list[tuple[int, int]] = []
        lib.rebuild(Progress(lambda _l, done, maximum: fresh.append((done, maximum))))
        assert fresh[1][0] < cancel_at  # a rebuild of a clean index starts from the beginning
