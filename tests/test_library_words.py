"""The library's own frequent words in the segmenter's dictionary (index/library_words.py)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest
from test_backfill_yields import embedding, library_to_embed, slow_backfill  # noqa: F401 (a fixture)

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
# 字段 (a field) alone is 字/段 to jieba, found by its characters while no passage holds it whole.
FIELDS = {
    "结构体的字段": "结构体的字段各有名字，这个字段存放用户名，那个字段存放邮箱。",
    "字段初始化简写": "参数与字段同名时，可以只写一次字段名。",
    "访问字段": "用点号访问结构体的字段，可变实例的字段才能修改。",
    "元组结构体": "元组结构体的字段没有名字，只有类型。",
    "字段的所有权": "结构体拥有它所有字段的数据，字段里的引用需要生命周期。",
    "打印字段": "派生 Debug 之后，可以打印结构体的每个字段。",
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


def _book_indexed_before_library_words(data_dir: Path, tmp_path: Path, *more_sql: str) -> None:
    """The book imported, then its index made as a version before the library's own words left
    it: no saved words, and the user words without their frequency entries."""
    with Library(data_dir) as lib:
        lib.import_paths([_book(tmp_path)])
        assert lib.drain(60)
    raw = sqlite3.connect(data_dir / "index.sqlite")
    stored = uw.stored(raw)
    raw.execute("DELETE FROM kb_meta WHERE key = ?", (lw.META_KEY,))
    raw.execute("UPDATE kb_meta SET value = ? WHERE key = ?",
                (uw._encode(frozenset(e for e in stored if "\x1f" not in e)), uw.META_KEY))
    for sql in more_sql:
        raw.execute(sql)
    raw.commit()
    raw.close()
    uw.forget()
    set_user_words(frozenset())


def test_an_index_written_before_gets_the_words_when_the_writer_is_idle(
    data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A library indexed by an earlier version has no such words: the writer's idle moments find
    # them and cut again only the passages that hold one, a few sources a transaction (here 2).
    from desktop_kb.index import apply

    _book_indexed_before_library_words(data_dir, tmp_path)
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

    _book_indexed_before_library_words(data_dir, tmp_path,
                                       "INSERT OR IGNORE INTO kb_post_todo(term) VALUES ('线程')")  # a word waiting for postings
    monkeypatch.setattr(apply, "RECUT_BATCH", 2)
    seen: list[tuple[bool, int]] = []
    fill = postings.refresh

    def watched(conn: sqlite3.Connection, *args: object, **kwargs: object) -> int:
        seen.append((lw.stored(conn) is not None, len(lw.pending(conn))))
        return fill(conn, *args, **kwargs)  # type: ignore[arg-type]

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


def _hits(lib: Library, query: str) -> set[int]:
    from desktop_kb.retrieval.lexical import lexical_search

    return {cid for cid, _ in lexical_search(lib.index_reader, query, limit=200)}


def test_a_search_while_the_passages_are_cut_again_finds_what_it_found_before(
    data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Words found, passages cut again one source a turn, and the writer stopped after its first
    # turn: some passages hold 字段 whole, the others as jieba cut it (字/段). The question is
    # cut with the new words; keyword search looked a word up by its characters only while no
    # passage held it, so from the first turn on it missed every passage not reached yet (on
    # the Rust book 字段 found 49 of the 85 passages it found before the words changed).
    from desktop_kb.index import apply

    folder = tmp_path / "docs"
    folder.mkdir()
    for i, (heading, text) in enumerate((SECTIONS | FIELDS).items()):  # one source each: one a turn
        (folder / f"{i:02d}.md").write_text(f"# {heading}\n\n{text}\n", encoding="utf-8")
    real = lw.compute
    monkeypatch.setattr(lw, "compute", lambda index, store: {})  # as an earlier version indexed it:
    with Library(data_dir) as lib:
        lib.import_paths([folder])
        assert lib.drain(60)
        assert lw.stored(lib.index_reader) == {}
        queries = ["字段", "结构体的字段", "闭包", "线程", "用闭包", "在线程中"]
        before = {q: _hits(lib, q) for q in queries}
    raw = sqlite3.connect(data_dir / "index.sqlite")
    with raw:
        raw.execute("DELETE FROM kb_meta WHERE key = ?", (lw.META_KEY,))
    raw.close()
    uw.forget()
    set_user_words(frozenset())
    monkeypatch.setattr(lw, "compute", real)
    monkeypatch.setattr(apply, "RECUT_BATCH", 1)
    turns: list[int] = []
    refresh = apply.Applier.refresh_library_words

    def one_turn(self: apply.Applier) -> bool:
        if turns:  # the writer stops part way (till the test lets it go on)
            self.library_words_due = False
            return False
        done = refresh(self)
        turns.append(1)
        return done

    monkeypatch.setattr(apply.Applier, "refresh_library_words", one_turn)
    with Library(data_dir) as lib:
        assert lib.drain(60, backfill=False)
        deadline = time.monotonic() + 30
        while not turns and time.monotonic() < deadline:
            time.sleep(0.05)
        assert turns and len(lw.pending(lib.index_reader)) >= 5  # part way
        assert {"线程", "闭包", "字段"} <= set(lw.stored(lib.index_reader) or {})
        assert len(before["字段"]) == len(FIELDS)
        for q in queries:
            assert before[q] <= _hits(lib, q), q
        monkeypatch.setattr(apply.Applier, "refresh_library_words", refresh)
        lib.worker._applier().library_words_due = True
        assert lib.drain(60)
        assert lw.pending(lib.index_reader) == [] and lw.recutting(lib.index_reader) == []
        for q in queries:
            assert before[q] <= _hits(lib, q), q


def test_a_note_renamed_to_name_a_word_makes_it_one_of_the_library_words(
        data_dir: Path, tmp_path: Path) -> None:
    # Notes' titles are headings too (``heading_words``), but only a passage that came or went
    # made the writer look at the words again: renaming a note (its text unchanged) did not.
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "fields.md").write_text("# Notes\n\n" + "\n\n".join(
        f"## Part {i}\n\n{text}" for i, text in enumerate(FIELDS.values())) + "\n", encoding="utf-8")
    with Library(data_dir) as lib:
        lib.import_paths([folder])
        note = lib.add_note("随手记", "结构体")
        assert lib.drain(60)
        assert "字段" not in (lw.stored(lib.index_reader) or {})
        assert lib.save_note(note, title="字段的所有权")  # jieba: 字段/的/所有权
        assert lib.drain(60)
        assert "字段" in (lw.stored(lib.index_reader) or {})
        # The passages are cut again with it: each holds the word 字段, not 字/段.
        held = lib.index_reader.execute("SELECT count(*) FROM kb_fts WHERE kb_fts MATCH '\"字段\"'").fetchone()[0]
        assert held >= len(FIELDS)


@pytest.mark.usefixtures("slow_backfill")
def test_the_words_follow_an_import_while_the_app_embeds_the_library(data_dir: Path, tmp_path: Path) -> None:
    # The writer looked at the words only when nothing was queued, and a backfill (e5 on a large
    # library: an hour) is queued work: a book imported meanwhile was searched without its words
    # (and a re-cut under way stayed part way) until the last vector was made.
    library_to_embed(data_dir, tmp_path)
    folder = tmp_path / "fields"
    folder.mkdir()
    (folder / "fields.md").write_text("# 字段\n\n" + "\n\n".join(
        f"## {heading}\n\n{text}" for heading, text in FIELDS.items()) + "\n", encoding="utf-8")
    with Library(data_dir, role="app") as app:
        embedding(app)
        assert "字段" not in (lw.stored(app.index_reader) or {})
        app.import_paths([folder])
        assert app.drain(60, backfill=False)
        deadline = time.monotonic() + 30
        while "字段" not in (lw.stored(app.index_reader) or {}) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert "字段" in (lw.stored(app.index_reader) or {})
        assert app.index_status().missing_vectors > 0  # while vectors were still being made
