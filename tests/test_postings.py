"""Common words' stored postings: scores equal FTS5's bm25(), and no change leaves one stale."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from desktop_kb.index import postings
from desktop_kb.index.segment import analyse_query
from desktop_kb.library import Library
from desktop_kb.retrieval import lexical
from desktop_kb.retrieval.fts_query import alternatives, join_match
from desktop_kb.retrieval.stored_scores import rank_rows
from desktop_kb.retrieval.term_stats import index_stats

_WORDS = ["所有权", "借用", "生命周期", "编译器", "rust", "数据", "系统", "时候", "学习", "内存",
          "docker-compose.yml", "main.py", "安装", "镜像", "线程", "并发", "闭包", "trait", "泛型"]
_QUERIES = ["rust 所有权 借用", "数据 系统 生命周期", "时候 学习 编译器 内存", "docker-compose.yml 安装 镜像",
            "main.py 测试 数据", '"生命周期 编译器" 时候', "闭包 trait 泛型 系统", "线程 并发 数据 系统 时候",
            "所有权 OR 借用 NOT rust", "缺席的词 数据"]


def _fill(library: Library) -> None:
    """Every word gets an entry now (the writer would do it when idle, common words only)."""
    def fill(conn: sqlite3.Connection) -> None:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT OR IGNORE INTO kb_post_todo(term) SELECT term FROM kb_df")
        while postings.refresh(conn, instances=50):
            pass
        conn.execute("COMMIT")
    library.worker.call(fill).result()


def _unsplit(index: sqlite3.Connection, query: str) -> list[tuple[int, float]]:
    """FTS5's own bm25() of every matching row, in the order keyword search lists rows."""
    match = join_match(alternatives(analyse_query(query)))
    return rank_rows([(int(r), -float(s)) for r, s in index.execute(lexical._RANKED, (match, 1000))])


def _stored_path(index: sqlite3.Connection, query: str) -> tuple[list[tuple[int, float]], int]:
    branches = alternatives(analyse_query(query))
    total, df = index_stats(index, sorted({t for b in branches for t in b.tokens}))
    common = [b.tokens[0] for b in branches if len(b.tokens) == 1]
    used = index.execute(f"SELECT count(*) FROM kb_post WHERE term IN ({','.join('?' * len(common))})",
                         common).fetchone()[0]
    return lexical.word_rows(index, branches, df, total, 1000), used


def _same(a: list[tuple[int, float]], b: list[tuple[int, float]]) -> None:
    assert [r for r, _ in a] == [r for r, _ in b]
    assert all(abs(x - y) < 1e-9 for (_, x), (_, y) in zip(a, b, strict=True))


@pytest.fixture
def words_library(library: Library, monkeypatch: pytest.MonkeyPatch) -> Library:
    monkeypatch.setattr(lexical, "MIN_DF", 1)  # every word counts as common here
    rng = random.Random(3)
    weights = [1.0 / (i + 1) for i in range(len(_WORDS))]
    for i in range(60):
        body = " ".join(rng.choices(_WORDS, weights, k=rng.randint(1, 30)))
        title = " ".join(rng.choices(_WORDS, weights, k=rng.randint(0, 3))) or f"笔记 {i}"
        library.add_note(title, body + ("\n\n" + "数据 " * 40 if i % 7 == 0 else ""))
    library.drain()
    return library


@pytest.mark.parametrize("read_slice", [postings._SLICE, 7])
def test_stored_scores_are_fts5_bm25_for_every_row(words_library: Library, read_slice: int,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # 7: entries and row lengths read from SQLite in many slices (a big library's case).
    monkeypatch.setattr(postings, "_SLICE", read_slice)
    monkeypatch.setattr(postings._Lengths, "_cache", None)
    _fill(words_library)
    index = words_library.index_reader
    for query in _QUERIES:
        rows, used = _stored_path(index, query)
        assert used > 0, query
        _same(rows, _unsplit(index, query))


def test_a_change_drops_the_entries_of_its_words_and_search_stays_exact(words_library: Library) -> None:
    _fill(words_library)
    index = words_library.index_reader
    assert index.execute("SELECT count(*) FROM kb_post WHERE term = '借用'").fetchone()[0] == 1
    note = words_library.add_note("新 借用", "借用 借用 生命周期 rust")
    words_library.drain()
    gone = {t for (t,) in index.execute("SELECT term FROM kb_post")}
    assert not gone & {"借用", "生命周期", "rust", "新"}  # every word the new rows hold
    assert "闭包" in gone  # untouched words keep theirs
    for query in _QUERIES:
        _same(_stored_path(index, query)[0], _unsplit(index, query))
    words_library.save_note(note, title="改名 闭包")  # title only: rows rewritten in place
    words_library.drain()
    assert index.execute("SELECT count(*) FROM kb_post WHERE term = '闭包'").fetchone()[0] == 0
    _fill(words_library)
    words_library.delete_note(note)
    words_library.drain()
    for query in _QUERIES:
        _same(_stored_path(index, query)[0], _unsplit(index, query))
    note2 = words_library.add_note("旧 标题", "借用 闭包")
    words_library.drain()
    _fill(words_library)
    words_library.save_note(note2, title="新 标题")
    words_library.drain()  # the same words, rewritten in place: lengths changed, counts did not
    assert index.execute("SELECT count(*) FROM kb_post WHERE term IN ('借用', '闭包')").fetchone()[0] == 0
    for query in _QUERIES:
        _same(_stored_path(index, query)[0], _unsplit(index, query))
    _fill(words_library)
    words_library.rebuild()  # every row rewritten under a new id, every count the same
    # The writer's idle work after a rebuild (the library's own words, re-cut) may drop entries:
    # wait for it, or the fill below can be undone before the stored path is read.
    words_library.drain()
    for query in _QUERIES:
        _same(_stored_path(index, query)[0], _unsplit(index, query))
    assert index.execute("SELECT count(*) FROM kb_post").fetchone()[0] == 0
    _fill(words_library)
    for query in _QUERIES:
        rows, used = _stored_path(index, query)
        assert used > 0
        _same(rows, _unsplit(index, query))


def test_the_writer_fills_waiting_words_when_idle(words_library: Library) -> None:
    index = words_library.index_reader

    def queue(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT OR IGNORE INTO kb_post_todo(term) SELECT term FROM kb_df")
    words_library.worker.call(queue).result()
    for _ in range(200):  # each turn writes one slice
        words_library.drain()
        if not words_library.worker.call(postings.pending).result():
            break
    assert not postings.pending(index)
    assert index.execute("SELECT count(*) FROM kb_post").fetchone()[0] > 10


def test_lengths_and_averages_are_the_ones_fts5_scores_with() -> None:
    conn = sqlite3.connect(":memory:", isolation_level=None)  # committed rows, as a reader sees them
    conn.execute("CREATE VIRTUAL TABLE kb_fts USING fts5(body, title)")
    rows = [("a " * 130, "b " * 3), ("a b c", ""), ("x " * 20000, "y")]  # multi-byte varints
    for i, (body, title) in enumerate(rows, start=1):
        conn.execute("INSERT INTO kb_fts(rowid, body, title) VALUES (?, ?, ?)", (i, body, title))
    sizes = dict(conn.execute("SELECT id, sz FROM kb_fts_docsize"))
    assert [postings._varint_sum(sizes[i]) for i in (1, 2, 3)] == [133, 3, 20001]
    assert postings.averages(conn) == (3, 133 + 3 + 20001)


def test_rows_that_tie_keep_their_order_whichever_path_scores_them(library: Library,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows with equal BM25 are listed by chunk id whether FTS5 or the stored postings score
    them. The two add a row's per-word terms in different orders, so a tie could come out one
    ulp apart in one path only (0.414002208764781 against …094 here): the hits swapped places
    once the idle writer had stored the postings (a saved hypothesis example of
    test_postings_random.py did the same with 所有权)."""
    monkeypatch.setattr(lexical, "MIN_DF", 1)
    words = ["借用", "闭包", "线程", "泛型"]
    for twice in range(4):  # every word once, one of them twice: one score, four ways to add it
        library.add_note("笔记", " ".join(words + [words[twice]]))
    for a, b in [(0, 1), (0, 2), (1, 2), (2, 3), (0, 3), (1, 3)]:
        library.add_note("笔记", " ".join(words + [words[a], words[b]]))
    for i in range(11):
        library.add_note("其他", "数据 系统 时候" + " 数据" * (i % 5))
    assert library.drain()
    query = " ".join(words)

    def order() -> list[int]:
        return [r.source_id for r in library.search(query, mode="lexical", limit=20).results]
    before = order()  # scored by FTS5 alone: nothing is stored yet
    assert library.worker.call(lambda index: _stored_path(index, query)[1]).result() == 0
    _fill(library)
    assert library.worker.call(lambda index: _stored_path(index, query)[1]).result() > 0
    assert order() == before
    rows = library.worker.call(lambda index: (_stored_path(index, query)[0],
                                              _unsplit(index, query))).result()
    _same(*rows)
    assert [r for r, _ in rows[0][:6]] == sorted(r for r, _ in rows[0][:6])  # the tie, by chunk id


def test_stop_words_get_entries_and_an_index_without_them_queues_them(
        data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # "What do you do?" is all stop words: searched as they are, they were scored by FTS5 over
    # every row that holds one (no entry); now they are stored like any common word.
    monkeypatch.setattr(lexical, "MIN_DF", 1)  # every word counts as common here
    monkeypatch.setattr(postings, "MIN_DF", 1)
    lib = Library(data_dir)
    rng = random.Random(5)
    for i in range(40):
        words = rng.choices(["the", "you", "do", "what", "的", "在", "妈祖", "马祖", "rust"], k=20)
        lib.add_note(f"n{i}", " ".join(words))
    lib.drain()
    _fill(lib)
    index = lib.index_reader
    stored = {t for (t,) in index.execute("SELECT term FROM kb_post")}
    assert {"you", "do", "what", "的", "在"} <= stored
    for query in ["What do you do?", "「妈祖在马祖」", "the rust"]:
        rows, used = _stored_path(index, query)
        assert used > 0, query
        _same(rows, _unsplit(index, query))

    def forget(conn: sqlite3.Connection) -> None:  # as an index written before this change
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("DELETE FROM kb_post WHERE term IN ('you', 'do', 'what', '的', '在')")
        conn.execute("DELETE FROM kb_post_todo")
        conn.execute("DELETE FROM kb_meta WHERE key = 'postings_stopwords'")
        conn.execute("COMMIT")

    lib.worker.call(forget).result()
    lib.close()
    with sqlite3.connect(data_dir / "index.sqlite") as conn:
        assert conn.execute("SELECT count(*) FROM kb_post_todo").fetchone()[0] == 0
    lib = Library(data_dir)  # the writer queues the common words without an entry, fills them when idle
    try:
        for _ in range(200):
            lib.drain()
            if not lib.worker.call(postings.pending).result():
                break
        assert {"you", "do", "what", "的", "在"} <= {t for (t,) in lib.index_reader.execute("SELECT term FROM kb_post")}
    finally:
        lib.close()


@pytest.mark.parametrize("limit", [1, 3, 10])
def test_the_top_k_stop_lists_what_scoring_every_row_lists(words_library: Library, limit: int,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # The commonest words' lists are looked up for the rows that can reach the top instead of
    # scored over all their rows (stored_scores.combined_top): the same rows, the same scores to
    # the last bit, and FTS5's own order, whether or not a word was spared.
    from desktop_kb.retrieval import stored_scores

    _fill(words_library)
    index = words_library.index_reader
    spared = []
    lookup = stored_scores._subset_scores

    def counted(*args: object) -> object:
        spared.append(1)
        return lookup(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(stored_scores, "_subset_scores", counted)
    for query in [*_QUERIES, "数据 系统 时候 学习", "rust 数据 数据 系统 内存 时候"]:
        monkeypatch.setattr(stored_scores, "STOP_POSTINGS", 0)
        branches = alternatives(analyse_query(query))
        total, df = index_stats(index, sorted({t for b in branches for t in b.tokens}))
        stopped = lexical.word_rows(index, branches, df, total, limit)
        monkeypatch.setattr(stored_scores, "STOP_POSTINGS", 1 << 62)
        assert stopped == lexical.word_rows(index, branches, df, total, limit), query
        _same(stopped, _unsplit(index, query)[:limit])
    assert spared  # some word was looked up rather than scored whole
