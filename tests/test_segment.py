"""Segmentation: index/query agreement, identifiers, and FTS5 round-trips."""

from __future__ import annotations

import sqlite3
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from desktop_kb.index import segment
from desktop_kb.index.segment import (
    FTS5_TOKENIZE,
    FTS5_TOKENIZE_SQL,
    SEGMENTER_VERSION,
    STOPWORDS,
    analyse_query,
    index_tokens,
    query_terms,
    segment_for_index,
)


def fts_db() -> sqlite3.Connection:
    db = sqlite3.connect(":memory:")
    db.execute(f"CREATE VIRTUAL TABLE t USING fts5(body, tokenize={FTS5_TOKENIZE_SQL})")
    db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
    return db


def fts_terms(db: sqlite3.Connection, text: str) -> list[str]:
    """The tokens FTS5 actually stored for ``text``, in order."""
    db.execute("DELETE FROM t")
    db.execute("INSERT INTO t(rowid, body) VALUES (1, ?)", (text,))
    return [r[0] for r in db.execute("SELECT term FROM v ORDER BY offset")]


def test_version_is_a_nonempty_string() -> None:
    assert isinstance(SEGMENTER_VERSION, str) and SEGMENTER_VERSION


def test_mixed_chinese_english() -> None:
    assert index_tokens("用 Docker 安装 GitLab") == ["用", "docker", "安装", "gitlab"]
    assert index_tokens("用Docker安装GitLab") == ["用", "docker", "安装", "gitlab"]


def test_cut_for_search_granularity() -> None:
    toks = index_tokens("我爱中华人民共和国")
    assert {"中华", "人民", "共和国", "中华人民共和国"} <= set(toks)


@pytest.mark.parametrize(
    ("ident", "parts"),
    [
        ("docker-compose.yml", ["docker", "compose", "yml"]),
        ("user_id", ["user", "id"]),
        ("node.js", ["node", "js"]),
        ("v1.2.3", ["v1", "2", "3"]),
        ("c++", ["c"]),
        ("a/b/c.py", ["a", "b", "c", "py"]),
        ("foo@bar", ["foo", "bar"]),
        ("c#", ["c"]),
        ("--restart=always", ["restart", "always"]),
        ("registry-mirrors", ["registry", "mirrors"]),
        ("daemon.json", ["daemon", "json"]),
        ("localhost:8080", ["localhost", "8080"]),
        ("std::vec::vec", ["std", "vec", "vec"]),
        ("--rm", ["rm"]),
        ("-v", ["v"]),
    ],
)
def test_identifier_whole_and_parts(ident: str, parts: list[str]) -> None:
    toks = index_tokens(f"请看 {ident.upper()}。")
    assert toks == ["请", "看", ident, *parts]


def test_punctuation_dropped_numbers_kept_fullwidth_normalised() -> None:
    assert index_tokens("ＧｉｔＬａｂ，２０２４年！！ (ok) ... ??") == [
        "gitlab",
        "2024",
        "年",
        "ok",
    ]
    assert index_tokens("  \n\t，。！") == []
    assert index_tokens("😀 ___ --") == []
    assert segment_for_index("Hello,World 3.14") == "hello world 3.14 3 14"


def test_dotted_capital_i_is_searchable_as_plain_i() -> None:
    assert index_tokens("İstanbul") == ["istanbul"]


SAMPLES = [
    "用 Docker 安装 GitLab",
    "docker-compose.yml user_id node.js v1.2.3 C++ a/b/c.py foo@bar C# #tag .env",
    "基于《跑跑卡丁车》与《泡泡堂》上所开发的游戏，由韩国Nexon开发与发行。",
    "Straße café ΣΊΣΥΦΟΣ naïve 2024-01-01 10:30 https://gitlab.com/a/b?x=1",
    "__init__.py  e.g. 1,000 50% $HOME ~/notes",
]


@pytest.mark.parametrize("text", SAMPLES)
def test_tokens_survive_fts5_unchanged(text: str) -> None:
    db = fts_db()
    # FTS5 folds final sigma to σ; everything else must arrive verbatim.
    expected = [t.replace("ς", "σ") for t in index_tokens(text)]
    assert fts_terms(db, segment_for_index(text)) == expected


_ALPHABET = st.sampled_from(
    list("abcXYZ019_-./+@#=用安装中文数据库的了是，。！？ \n\t\"'()*:^{}")
    + ["Docker", "GitLab", "Ｆｕｌｌ", "２０", "😀"]
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_ALPHABET, max_size=40).map("".join))
def test_tokens_survive_fts5_property(text: str) -> None:
    db = fts_db()
    assert fts_terms(db, segment_for_index(text)) == index_tokens(text)


def test_tokenize_constant_is_usable_single_quoted_too() -> None:
    db = sqlite3.connect(":memory:")
    quoted = "'" + FTS5_TOKENIZE.replace("'", "''") + "'"
    db.execute(f"CREATE VIRTUAL TABLE t USING fts5(body, tokenize={quoted})")
    db.execute("INSERT INTO t VALUES (?)", (segment_for_index("run docker-compose.yml"),))
    hits = db.execute("SELECT count(*) FROM t WHERE t MATCH ?", ('"docker-compose.yml"',))
    assert hits.fetchone()[0] == 1


def test_stopwords_cover_both_languages() -> None:
    assert {"的", "什么", "如何", "为什么", "the", "what", "how"} <= STOPWORDS


def test_query_terms_drop_stopwords_in_order() -> None:
    assert query_terms("如何用 Docker 安装 GitLab？") == ["用", "docker", "安装", "gitlab"]
    assert query_terms("What is the best way to install GitLab") == [
        "best",
        "way",
        "install",
        "gitlab",
    ]
    assert query_terms("GitLab gitlab GITLAB") == ["gitlab"]


def test_query_terms_keep_stopwords_when_nothing_else() -> None:
    assert query_terms("what is the") == ["what", "is", "the"]
    assert query_terms("的") == ["的"]
    assert query_terms("  ，。😀") == []


def test_analyse_query_phrases_identifiers_and_scripts() -> None:
    a = analyse_query('"the quick fox" 在 docker-compose.yml 里')
    assert a.phrases == [["the", "quick", "fox"]]
    # quoted words are kept even when they are stopwords; identifier parts are not terms
    assert a.terms == ["the", "quick", "fox", "docker-compose.yml", "里"]
    assert a.identifiers == ["docker-compose.yml"]
    assert a.has_cjk and a.has_latin
    b = analyse_query("“中华人民共和国”")
    assert b.phrases and b.phrases[0][-1] == "中华人民共和国"
    assert not b.has_latin
    c = analyse_query('unbalanced "quote')
    assert c.terms == ["unbalanced", "quote"] and c.phrases == []


CHINESE_SENTENCES = [
    "我爱北京天安门，天安门上太阳升。",
    "小明硕士毕业于中国科学院计算所，后在日本京都大学深造。",
    "中华人民共和国成立于一九四九年。",
    "生命数耗完即算为踢爆，重生者在一定时间内为无敌状态。",
    "用Docker安装GitLab之后，需要配置邮件服务器和备份策略。",
]


@pytest.mark.parametrize("sentence", CHINESE_SENTENCES)
def test_cut_granularity_query_matches_cut_for_search_index(sentence: str) -> None:
    db = fts_db()
    db.execute("INSERT INTO t(rowid, body) VALUES (7, ?)", (segment_for_index(sentence),))
    import jieba

    for word in jieba.Tokenizer().cut(sentence):
        q_tokens = index_tokens(word)
        if not q_tokens:
            continue  # punctuation
        for q in q_tokens:
            rows = db.execute("SELECT rowid FROM t WHERE t MATCH ?", (f'"{q}"',)).fetchall()
            assert rows == [(7,)], (word, q)


def test_lazy_tokenizer_is_thread_safe(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(segment, "_lexicon", None)
    got: list[object] = []
    barrier = threading.Barrier(4)

    def worker() -> None:
        barrier.wait()
        got.append(segment._segmenter())

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert len(got) == 4 and all(g is got[0] for g in got)


def test_flags_and_settings_keep_their_punctuation_in_queries() -> None:
    from desktop_kb.retrieval.fts_query import build_match

    assert query_terms("docker run --restart=always") == ["docker", "run", "--restart=always"]
    assert build_match("--restart=always") == '"--restart=always" OR "restart always"'
    # A colon or equals sign followed by a space is punctuation, not a connector.
    assert index_tokens("key: value a = b") == ["key", "value", "a", "b"]


def test_identifier_with_punctuation_outranks_its_scattered_parts(library) -> None:  # type: ignore[no-untyped-def]
    exact = library.add_note("重启策略", "容器用 docker run --restart=always 启动。")
    library.add_note("杂记", "always restart the server; restart it always, always.")
    parts = library.add_note("参数", "the restart always policy")
    library.drain()
    ids = [r.source_id for r in library.search("--restart=always", mode="lexical").results]
    assert ids == [exact, parts]  # the whole flag, then its parts as a phrase
    ids = [r.source_id for r in library.search("registry-mirrors daemon.json").results]
    assert ids == []
    mirror = library.add_note("镜像加速", "在 /etc/docker/daemon.json 里配置 registry-mirrors。")
    library.drain()
    assert [r.source_id for r in library.search("registry-mirrors").results] == [mirror]
    assert [r.source_id for r in library.search("mirrors").results] == [mirror]
