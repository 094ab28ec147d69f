"""The split lexical query scores exactly what the full OR query scores, on fewer rows."""

from __future__ import annotations

import random
import sqlite3

import pytest

from desktop_kb.index.segment import FTS5_TOKENIZE_SQL, analyse_query, segment_for_index
from desktop_kb.retrieval.fts_query import alternatives, join_match
from desktop_kb.retrieval.lexical import (
    _RANKED,
    _RANKED_SPLIT,
    CERTAIN_TOP,
    prune,
    ranked_rows,
    split_match,
    upper_bound,
)

# Zipf-like: a few words in most rows, many in few. Identifiers and a phrase so
# that phrase branches (``"docker compose.yml"``-style parts) are split too.
_WORDS = ["数据", "系统", "时候", "学习", "rust", "所有权", "借用", "生命周期", "编译器",
          "docker-compose.yml", "main.py", "gitlab", "安装", "镜像", "内存", "指针",
          "线程", "并发", "迭代器", "闭包", "trait", "泛型", "模式匹配", "宏", "测试"]
_QUERIES = ["rust 所有权 借用", "数据 系统 生命周期", "时候 学习 编译器 内存",
            "docker-compose.yml 安装 镜像", "main.py 测试 数据", '"生命周期 编译器" 时候',
            "gitlab 系统 安装 时候 数据", "闭包 trait 泛型 系统", "宏 模式匹配 学习 数据 时候",
            "所有权 OR 借用 NOT rust", "指针 线程 并发 数据 系统 时候 学习"]


@pytest.fixture(scope="module")
def db() -> sqlite3.Connection:
    rng = random.Random(7)
    conn = sqlite3.connect(":memory:")
    conn.execute(f"CREATE VIRTUAL TABLE kb_fts USING fts5(body, title, tokenize={FTS5_TOKENIZE_SQL})")
    weights = [1.0 / (i + 1) ** 1.1 for i in range(len(_WORDS))]
    for rowid in range(1, 1501):
        body = " ".join(rng.choices(_WORDS, weights, k=rng.randint(3, 40)))
        title = " ".join(rng.choices(_WORDS, weights, k=rng.randint(0, 3)))
        conn.execute("INSERT INTO kb_fts(rowid, body, title) VALUES (?, ?, ?)",
                     (rowid, segment_for_index(body), segment_for_index(title)))
    return conn


def _doc_freq(db: sqlite3.Connection, tokens: set[str]) -> dict[str, int]:
    return {t: db.execute("SELECT count(*) FROM kb_fts WHERE kb_fts MATCH ?",
                          ('"' + t.replace('"', '""') + '"',)).fetchone()[0] for t in tokens}


@pytest.mark.parametrize("query", _QUERIES)
@pytest.mark.parametrize("budget", [1, 150, 600])
def test_split_scores_are_the_full_query_scores(db: sqlite3.Connection, query: str, budget: int) -> None:
    branches = alternatives(analyse_query(query))
    df = _doc_freq(db, {t for b in branches for t in b.tokens})
    full = join_match(branches)
    parts = split_match(branches, df, budget)
    assert full is not None and parts is not None
    scored, both = parts
    everything = dict(db.execute(_RANKED, (full, 10_000)).fetchall())
    limit = 50
    got = (db.execute(_RANKED, (scored, limit)) if both is None
           else db.execute(_RANKED_SPLIT, (scored, both, limit))).fetchall()
    # Rows holding a scored branch, ranked by their full-query score, are what comes back.
    holding = {r for (r,) in db.execute("SELECT rowid FROM kb_fts WHERE kb_fts MATCH ?", (scored,))}
    # Phrases are summed in another order, so equal scores may differ in the last
    # bits and swap places among themselves: compare the score sequence, then rows.
    want = sorted(everything[r] for r in holding)[:limit]
    assert [s for _, s in got] == pytest.approx(want, abs=1e-9)
    for rowid, score in got:
        assert rowid in holding
        assert score == pytest.approx(everything[rowid], rel=1e-12, abs=1e-12)
    if both is None:  # nothing common: the full query itself
        assert holding == set(everything)


def test_a_small_budget_splits_and_a_large_one_does_not(db: sqlite3.Connection) -> None:
    branches = alternatives(analyse_query("指针 线程 并发 数据 系统 时候 学习"))
    df = _doc_freq(db, {t for b in branches for t in b.tokens})
    scored, both = split_match(branches, df, 1) or ("", None)
    rarest = min(branches, key=lambda b: df[b.tokens[0]])
    assert scored == rarest.match and both is not None and both.startswith(f"({scored}) AND (")
    assert split_match(branches, df, 10**9) == (join_match(branches), None)
    assert split_match([], df, 1) is None


@pytest.mark.parametrize("query", _QUERIES)
@pytest.mark.parametrize("budget", [1, 150])
def test_widened_split_keeps_the_unsplit_top(db: sqlite3.Connection, query: str, budget: int) -> None:
    branches = alternatives(analyse_query(query))
    df = _doc_freq(db, {t for b in branches for t in b.tokens})
    full = join_match(branches)
    assert full is not None
    unsplit = [(r, -s) for r, s in db.execute(_RANKED, (full, 50)).fetchall()]
    got = ranked_rows(db, branches, df, 1500, 50, budget, cap=10**9)
    top = CERTAIN_TOP
    assert [s for _, s in got[:top]] == pytest.approx([s for _, s in unsplit[:top]], abs=1e-9)
    # With no room to widen it is the first split alone (rows holding a rare branch).
    narrow = ranked_rows(db, branches, df, 1500, 50, budget, cap=0)
    scored = join_match(prune(branches, df, budget))
    holding = {r for (r,) in db.execute("SELECT rowid FROM kb_fts WHERE kb_fts MATCH ?", (scored,))}
    assert {r for r, _ in narrow} <= holding


def test_a_phrase_never_adds_more_than_its_bound() -> None:
    """bm25() saturates: a short row repeating a rare word (body and title) stays under
    (k1 + 1)·IDF, the bound the widening relies on."""
    conn = sqlite3.connect(":memory:")
    conn.execute(f"CREATE VIRTUAL TABLE kb_fts USING fts5(body, title, tokenize={FTS5_TOKENIZE_SQL})")
    rows = [("借用 " * 60, "借用 " * 20), ("借用", ""), ("数据 " * 30 + "借用", "借用")]
    rows += [("数据 系统", "") for _ in range(200)]
    for i, (body, title) in enumerate(rows, start=1):
        conn.execute("INSERT INTO kb_fts(rowid, body, title) VALUES (?, ?, ?)", (i, body, title))
    branch = alternatives(analyse_query("借用"))[0]
    best = -conn.execute(_RANKED, (branch.match, 1)).fetchone()[1]
    bound = upper_bound(branch, len(rows), 3)
    assert best < bound < best * 1.5  # and near: not a bound that never prunes


def test_the_widening_cap_grows_with_the_library(db: sqlite3.Connection, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from desktop_kb.retrieval import lexical

    monkeypatch.setattr(lexical, "POSTINGS_CAP", 0)
    narrowed = 0
    for query in _QUERIES:
        branches = alternatives(analyse_query(query))
        df = _doc_freq(db, {t for b in branches for t in b.tokens})
        full = join_match(branches)
        assert full is not None
        unsplit = pytest.approx([-s for _, s in db.execute(_RANKED, (full, CERTAIN_TOP)).fetchall()],
                                abs=1e-9)
        monkeypatch.setattr(lexical, "CAP_SHARE", 0.0)
        narrow = ranked_rows(db, branches, df, 1500, 50, 1)
        monkeypatch.setattr(lexical, "CAP_SHARE", 1.0)  # the whole library: room for every branch
        wide = ranked_rows(db, branches, df, 1500, 50, 1)
        assert [s for _, s in wide[:CERTAIN_TOP]] == unsplit
        narrowed += [s for _, s in narrow[:CERTAIN_TOP]] != unsplit
    assert narrowed  # without room, the rarest branch alone misses the top (so this test can fail)
