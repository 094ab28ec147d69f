"""The library's own frequent words in the segmenter's dictionary (index/library_words.py)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from desktop_kb.index import library_words as lw
from desktop_kb.index import user_words as uw
from desktop_kb.index.segment import set_user_words
from desktop_kb.library import Library

# A learner's material on threads: its headings say 线程, its passages use it often, and one
# passage says it only where jieba's general-text frequencies cut it away (在线/程, 在线/程中).
SECTIONS = {
    "创建线程": "用 spawn 创建一个新线程，新线程会运行传入的闭包。",
    "等待线程结束": "调用 join 等待线程结束，主线程会阻塞。",
    "线程与所有权": "把值移动进线程之前，要先考虑所有权。",
    "线程池": "线程池里有固定数量的线程，任务排队等待空闲的线程。",
    "多个线程": "多个线程同时运行时，执行顺序无法保证，每个线程都可能先结束。",
    "共享数据": "数据在线程之间传递时要用通道，或者在线程中加锁。",
    "闭包": "用闭包捕获环境里的值；这个闭包可以被调用多次，闭包也可以移动值。",
    "闭包与迭代器": "迭代器的方法常常接受闭包，闭包决定怎样处理每个元素。",
    "闭包的类型": "每个闭包都有自己的类型，闭包实现 Fn、FnMut 或 FnOnce。",
    "返回闭包": "函数可以返回闭包，闭包需要放在 Box 里。",
    "闭包捕获": "闭包捕获变量的方式有三种，闭包会尽量借用。",
}
DOC = "# 并发笔记\n\n" + "\n\n".join(f"## {h}\n\n{t}" for h, t in SECTIONS.items()) + "\n"


@pytest.fixture(autouse=True)
def _no_words_left_behind():  # type: ignore[no-untyped-def]
    yield
    uw.forget()
    set_user_words(frozenset())


def _book(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "concurrency.md").write_text(DOC, encoding="utf-8")
    return folder


def _found(lib: Library, query: str) -> set[str]:
    titles = set()
    for r in lib.search(query, limit=30, mode="lexical").results:
        titles.add(r.title.split(" > ")[-1])
    return titles


def test_a_word_the_library_uses_often_is_found_where_jieba_cuts_it_away(data_dir: Path, tmp_path: Path) -> None:
    # 线程 has frequency 3 in jieba's dictionary against 在线 1,082: "数据在线程之间传递" was cut
    # 在线/程/之间, and a search for 线程 missed the passage. 闭包 is no word to jieba (用闭/包).
    with Library(data_dir) as lib:
        lib.import_paths([_book(tmp_path)])
        assert lib.drain(60)
        words = lw.stored(lib.index_reader)
        assert words is not None and {"线程", "闭包"} <= set(words)
        assert "共享数据" in _found(lib, "线程")
        assert "闭包" in _found(lib, "闭包") and "闭包捕获" in _found(lib, "闭包")
        # The question is cut the way the passages were: 在线程中 asks about threads too.
        assert "共享数据" in _found(lib, "在线程中加锁")


def test_an_index_written_before_gets_the_words_when_the_writer_is_idle(
    data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A library indexed by an earlier version has no such words: the writer's idle moments find
    # them and cut again only the passages that hold one, a few sources a transaction (here 2).
    from desktop_kb.index import apply

    with Library(data_dir) as lib:
        lib.import_paths([_book(tmp_path)])
        assert lib.drain(60)
    raw = sqlite3.connect(data_dir / "index.sqlite")
    stored = uw.stored(raw)
    raw.execute("DELETE FROM kb_meta WHERE key = ?", (lw.META_KEY,))
    raw.execute("UPDATE kb_meta SET value = ? WHERE key = ?",
                (uw._encode(frozenset(e for e in stored if "\x1f" not in e)), uw.META_KEY))
    raw.commit()
    raw.close()
    uw.forget()
    set_user_words(frozenset())
    monkeypatch.setattr(apply, "RECUT_BATCH", 2)
    with Library(data_dir) as lib:
        assert lib.drain(60)
        assert lw.pending(lib.index_reader) == []
        assert {"线程", "闭包"} <= set(lw.stored(lib.index_reader) or {})
        assert "共享数据" in _found(lib, "线程")
        # Nothing else changed: the same chunks, no passage indexed twice.
        assert lib.index_reader.execute("SELECT count(*) FROM kb_chunks").fetchone()[0] == len(SECTIONS)


def test_a_heading_word_the_library_seldom_uses_stays_as_jieba_has_it(data_dir: Path, tmp_path: Path) -> None:
    # 共享 and 数据 are in a heading but in one passage each: nothing says the library uses them
    # more than general text does.
    with Library(data_dir) as lib:
        lib.import_paths([_book(tmp_path)])
        assert lib.drain(60)
        words = lw.stored(lib.index_reader) or {}
        assert "共享" not in words and "数据" not in words


def test_common_words_postings_wait_until_the_words_are_cut_again(
    data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Each re-cut turn rewrites rows holding the commonest words, which drops their stored
    # postings again: filled in between, they were refilled turn after turn (an upgraded
    # 10⁵-chunk library re-cut ~15 sources a second). The writer fills them once, after.
    from desktop_kb.index import apply, postings

    with Library(data_dir) as lib:
        lib.import_paths([_book(tmp_path)])
        assert lib.drain(60)
    raw = sqlite3.connect(data_dir / "index.sqlite")
    stored = uw.stored(raw)
    raw.execute("DELETE FROM kb_meta WHERE key = ?", (lw.META_KEY,))
    raw.execute("UPDATE kb_meta SET value = ? WHERE key = ?",
                (uw._encode(frozenset(e for e in stored if "\x1f" not in e)), uw.META_KEY))
    raw.execute("INSERT OR IGNORE INTO kb_post_todo(term) VALUES ('线程')")  # a word waiting for postings
    raw.commit()
    raw.close()
    uw.forget()
    set_user_words(frozenset())
    monkeypatch.setattr(apply, "RECUT_BATCH", 2)
    seen: list[tuple[bool, int]] = []
    fill = postings.refresh

    def watched(conn: sqlite3.Connection, *args: object) -> int:
        seen.append((lw.stored(conn) is not None, len(lw.pending(conn))))
        return fill(conn, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(postings, "refresh", watched)
    with Library(data_dir) as lib:
        assert lib.drain(60)
        for _ in range(200):  # each idle turn writes one slice
            lib.drain(5)
            if not lib.worker.call(postings.pending).result():
                break
        assert not postings.pending(lib.index_reader)
        assert lib.index_reader.execute("SELECT 1 FROM kb_post WHERE term = '线程'").fetchone()
    assert seen and all(computed and left == 0 for computed, left in seen), seen
