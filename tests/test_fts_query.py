"""FTS5 MATCH building: user input can never produce an FTS5 syntax error."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from desktop_kb.index.segment import FTS5_TOKENIZE_SQL, segment_for_index
from desktop_kb.retrieval.fts_query import build_match, quote_fts_token

DOCS = {
    1: "用 Docker 安装 GitLab",
    2: "services are defined in docker-compose.yml at the repo root",
    3: "把 src/app/main.py 里的 user_id 改成 account_id",
    4: "The quick brown fox jumps over the lazy dog. NEAR and NOT are words too.",
    5: "数据库的备份策略：每天凌晨三点全量备份。",
    6: "C++ and C# are different languages; node.js is a runtime (v1.2.3).",
}


@pytest.fixture(scope="module")
def db() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.execute(f"CREATE VIRTUAL TABLE t USING fts5(body, tokenize={FTS5_TOKENIZE_SQL})")
    conn.executemany(
        "INSERT INTO t(rowid, body) VALUES (?, ?)",
        [(rowid, segment_for_index(text)) for rowid, text in DOCS.items()],
    )
    return conn


def search(db: sqlite3.Connection, query: str) -> set[int]:
    match = build_match(query)
    if match is None:
        return set()
    return {r[0] for r in db.execute("SELECT rowid FROM t WHERE t MATCH ?", (match,))}


def test_quote_fts_token() -> None:
    assert quote_fts_token("abc") == '"abc"'
    assert quote_fts_token('a"b') == '"a""b"'
    assert quote_fts_token("") == '""'


@pytest.mark.parametrize("query", ["", "   ", "\n\t", "😀", "!!! ??? ...", "()", '""', "*", "-"])
def test_nothing_searchable_is_none(query: str) -> None:
    assert build_match(query) is None


def test_gitlab_finds_mixed_text(db: sqlite3.Connection) -> None:
    assert search(db, "gitlab") == {1}
    assert search(db, "GitLab") == {1}
    assert search(db, "ＧｉｔＬａｂ") == {1}
    assert search(db, "如何用 docker 安装 gitlab？") >= {1}


def test_identifiers_whole_and_by_parts(db: sqlite3.Connection) -> None:
    assert build_match("docker-compose.yml") == '"docker-compose.yml" OR "docker compose yml"'
    assert search(db, "docker-compose.yml") == {2}
    assert search(db, "compose") == {2}
    assert search(db, "main.py") == {3}
    assert search(db, "user_id") == {3}
    assert search(db, "c++") == {6}
    assert search(db, "node.js") == {6}
    assert search(db, "v1.2.3") == {6}


@pytest.mark.parametrize(
    "query",
    [
        '"unbalanced',
        'say "hi" there "',
        "fox NEAR dog",
        "NEAR(fox dog, 2)",
        "fox AND dog",
        "fox OR",
        "NOT fox",
        "AND",
        "fox*",
        "body:fox",
        "-fox",
        "^fox",
        "(fox",
        "fox)",
        "{body}: fox",
        "😀 fox 😀",
        "col:val AND (x OR y) NOT z*",
        "'single quotes'",
        "a\x00b",
    ],
)
def test_fts_syntax_in_user_input_is_inert(db: sqlite3.Connection, query: str) -> None:
    search(db, query)  # must not raise


def test_operator_words_are_plain_terms(db: sqlite3.Connection) -> None:
    assert search(db, "NEAR") == {4}
    assert search(db, "fox*") == {4}
    assert search(db, "NOT fox") == {4}  # NOT is a word, not an operator


def test_phrases(db: sqlite3.Connection) -> None:
    match = build_match('"quick brown" fox')
    assert match == '"quick brown" OR "quick" OR "brown" OR "fox"'
    rows = db.execute(
        "SELECT rowid FROM t WHERE t MATCH ?", (build_match('"quick brown"').split(" OR ")[0],)
    ).fetchall()
    assert rows == [(4,)]
    assert search(db, '"brown quick"') == {4}  # words still OR'ed, phrase just scores higher


def test_chinese_questions(db: sqlite3.Connection) -> None:
    assert search(db, "数据库怎么备份？") == {5}
    assert search(db, "什么时候全量备份") == {5}
    match = build_match("什么是数据库？")
    assert match is not None and '"什么"' not in match


@settings(max_examples=400, deadline=None)
@given(st.text())
def test_any_string_never_raises(query: str) -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute(f"CREATE VIRTUAL TABLE t USING fts5(body, tokenize={FTS5_TOKENIZE_SQL})")
    conn.execute("INSERT INTO t VALUES (?)", (segment_for_index(query),))
    match = build_match(query)
    if match is None:
        return
    rows = conn.execute("SELECT rowid FROM t WHERE t MATCH ?", (match,)).fetchall()
    # A document made of the query itself is always found (index/query agreement).
    assert rows == [(1,)]


_SYNTAXY = st.lists(
    st.sampled_from(
        [
            '"',
            "'",
            "(",
            ")",
            "*",
            ":",
            "-",
            "^",
            "+",
            "{",
            "}",
            "NEAR",
            "AND",
            "OR",
            "NOT",
            " ",
            "fox",
            "用",
            "数据",
            "😀",
            ",",
            ".",
            "/",
            "@",
            "#",
            "_",
            "\x00",
            "\n",
        ]
    ),
    max_size=25,
).map("".join)


@settings(max_examples=400, deadline=None)
@given(_SYNTAXY)
def test_syntax_heavy_strings_never_raise(query: str) -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute(f"CREATE VIRTUAL TABLE t USING fts5(body, tokenize={FTS5_TOKENIZE_SQL})")
    conn.execute("INSERT INTO t VALUES (?)", (segment_for_index("fox 用 数据"),))
    match = build_match(query)
    if match is not None:
        conn.execute("SELECT rowid FROM t WHERE t MATCH ?", (match,)).fetchall()


def test_prune_keeps_the_rarest_branches_within_the_budget() -> None:
    from desktop_kb.index.segment import analyse_query
    from desktop_kb.retrieval.fts_query import alternatives
    from desktop_kb.retrieval.lexical import prune

    branches = alternatives(analyse_query('rust 所有权 借用 "生命 周期"'))
    df = {"rust": 900, "所有": 700, "有权": 100, "所有权": 40, "借用": 300, "生命": 500, "周期": 20}
    kept = [b.match for b in prune(branches, df, budget=400)]
    # the phrase costs what its rarest token costs (20); query order is kept
    assert kept == ['"生命 周期"', '"有权"', '"所有权"', '"周期"']
    assert [b.match for b in prune(branches, df, budget=10)] == ['"生命 周期"']  # rarest stays
    assert len(prune(branches, df, budget=10_000)) == len(branches)


def test_common_terms_are_not_scanned_but_rare_ones_still_find(library, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from desktop_kb.retrieval import lexical

    for i in range(40):
        library.add_note(f"笔记 {i}", f"rust 的第 {i} 篇笔记，讲 rust 的语法。")
    target = library.add_note("所有权", "rust 的所有权规则：每个值都有一个所有者。")
    library.drain()
    monkeypatch.setattr(lexical, "POSTINGS_BUDGET", 10)
    monkeypatch.setattr(lexical, "POSTINGS_CAP", 10)  # no room to widen
    index = library.index_reader
    # "rust" is in 41 chunks, over the budget: only "所有权" is scored ...
    hits = lexical.lexical_search(index, "rust 所有权", limit=50)
    assert [library.worker.call(lambda c, h=h: c.execute(
        "SELECT source_id FROM kb_chunks WHERE id = ?", (h,)).fetchone()[0]).result()
        for h, _ in hits] == [target]
    # ... while a query of common terms only still answers (its rarest branch).
    assert len(lexical.lexical_search(index, "rust", limit=50)) == 41


def test_words_the_segmenter_splits_are_found_by_their_ideograph_pairs(library, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A domain term cut into pieces ("零/成本/抽象") must still find the passage that
    uses it, ahead of one that merely repeats the pieces."""
    from desktop_kb.retrieval import lexical

    term = library.add_note("", "零成本抽象的意思是高级特性没有额外开销。")
    pieces = library.add_note("", "这个抽象画的成本是零，成本很低，抽象，抽象。")
    checker = library.add_note("", "Rust 的借用检查器会在编译时报错。")
    library.add_note("", "检查一下这个容器，借用的东西要归还，检查，检查。")
    library.drain()

    def top(query: str) -> int:
        return library.search(query, mode="lexical").results[0].source_id

    assert (top("零成本抽象"), top("借用检查器")) == (term, checker)
    monkeypatch.setattr(lexical, "GRAM_WEIGHT", 0.0)  # words alone: the pieces win
    assert top("零成本抽象") == pieces


def test_ideograph_pairs_follow_edits_and_deletes(library) -> None:  # type: ignore[no-untyped-def]
    note = library.add_note("t", "元宇宙是一个数字空间。")
    library.drain()

    def grams() -> int:
        return library.worker.call(
            lambda c: c.execute("SELECT count(*) FROM kb_grams").fetchone()[0]).result()

    assert grams() == 1
    library.save_note(note, body="没有汉字 only latin")
    library.drain()
    assert grams() == 1  # the title's pair ("t" has none) … only Latin now: no row
    library.delete_note(note)
    assert grams() == 0
    assert library.verify().drift == 0


def test_term_coverage_counts_whole_tokens_only(library) -> None:  # type: ignore[no-untyped-def]
    """Coverage asks "is the term one of the chunk's tokens" (body or title): a term that
    is only part of a token ("compose" inside "docker-compose"), spans two tokens, or
    is empty does not count."""
    from desktop_kb.retrieval.term_stats import term_coverage

    note = library.add_note("Compose 笔记", "用 docker-compose.yml 启动 gitlab-ce 服务。")
    other = library.add_note("其他", "composer 是 PHP 的包管理器。")
    library.drain()
    index = library.index_reader
    ids = dict(library.worker.call(lambda c: c.execute(
        "SELECT source_id, id FROM kb_chunks").fetchall()).result())
    weights = {"compose": 2.0, "gitlab": 1.0, "笔记": 1.0, "ocker": 5.0, "yml 启动": 3.0, "": 1.0}
    cov = term_coverage(index, weights, [ids[note], ids[other]])
    total = sum(weights.values())
    # compose (a part of the identifier), gitlab (part) and 笔记 (title) are tokens
    assert cov[ids[note]] == (2.0 + 1.0 + 1.0) / total
    assert cov[ids[other]] == 0.0


def test_function_words_weigh_in_the_question_but_earn_no_coverage(library) -> None:  # type: ignore[no-untyped-def]
    """A passage is not closer to "什么是所有权？" for also holding 什么 and 是 (the Rust book's
    precise questions lost their chapter to such passages); the question's function words
    still weigh in the whole, so one shared content word is never full coverage."""
    from desktop_kb.index.segment import analyse_query
    from desktop_kb.retrieval.candidates import gather

    chapter = library.add_note("所有权", "所有权让程序无需垃圾回收即可保证内存安全。")
    chatter = library.add_note("随想", "什么时候需要所有权？这是什么意思。")
    library.drain()
    index = library.index_reader
    row = dict(library.worker.call(lambda c: c.execute(
        "SELECT source_id, id FROM kb_chunks").fetchall()).result())
    query = "什么是所有权？"
    cand = gather(index, query, analyse_query(query), query_vector=None, dense=None)
    coverage = dict(zip(cand.ids.tolist(), cand.coverage.tolist(), strict=True))
    assert coverage[row[chapter]] == pytest.approx(coverage[row[chatter]])
    assert 0.0 < coverage[row[chapter]] < 1.0
    # A question of function words only ("这是什么？") still counts them: nothing else is left.
    only = "这是什么？"
    cand = gather(index, only, analyse_query(only), query_vector=None, dense=None)
    coverage = dict(zip(cand.ids.tolist(), cand.coverage.tolist(), strict=True))
    assert coverage.get(row[chatter], 0.0) > 0.0
