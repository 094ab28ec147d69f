"""The writer's document counts (kb_df) equal FTS5's own (fts5vocab) after every kind of write."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from desktop_kb.index import db, term_df
from desktop_kb.index.segment import FTS5_TOKENIZE_SQL
from desktop_kb.library import Library
from desktop_kb.retrieval.term_stats import index_stats

# Written before the code: scripts with their own marks, capitals with odd lower
# cases, separators FTS5 knows and Python does not, and the reverse.
_ADVERSARIAL = [
    "Café naïve e\u0301 ÀB İstanbul ß ΣΑΣ σας x,y a'b c—d 𠀀字 ①② ½ ﬁ ǅ Ǆ a\u200bb",
    "〇々 ㄅ ア क्षि ٣ x\u0308y 🙂a ™ ©x Ⅻ ＡＢ k8s:pod foo--bar\u00adbaz 한국어 ไทย",
    "docker-compose.yml --restart=always registry-mirrors main.py C++ c# @user a/b/c",
    "MixedCase UPPER lower 1.5e10 v2.0.1 _private __init__ tab\tsep nl\nsep",
]


def _vocab(conn: sqlite3.Connection) -> dict[str, int]:
    return dict(conn.execute("SELECT term, doc FROM kb_vocab WHERE doc > 0"))


def _df(conn: sqlite3.Connection) -> dict[str, int]:
    return dict(conn.execute("SELECT term, doc FROM kb_df"))


def test_terms_are_cut_as_fts5_cuts_them() -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute(f"CREATE VIRTUAL TABLE f USING fts5(x, tokenize={FTS5_TOKENIZE_SQL})")
    conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(f, 'row')")
    for text in _ADVERSARIAL:
        conn.execute("DELETE FROM f")
        conn.execute("INSERT INTO f(x) VALUES (?)", (text,))
        assert term_df.fts_terms(text) == {t for (t,) in conn.execute("SELECT term FROM v")}, text


def test_counts_follow_saves_edits_titles_deletes_rebuild_and_verify(library: Library) -> None:
    def check() -> None:
        library.drain()
        conn = library.index_reader
        assert _df(conn) == _vocab(conn)

    a = library.add_note("Docker 笔记", "用 Docker 安装 GitLab，配置 docker-compose.yml。\n\n" + _ADVERSARIAL[0])
    b = library.add_note("ΣΑΣ Title", _ADVERSARIAL[1] + "\n\n" + _ADVERSARIAL[2])
    c = library.add_note("c", "所有权 借用 生命周期。" * 3)
    check()
    library.save_note(a, body="改用 Podman 部署 Nextcloud。\n\n" + _ADVERSARIAL[3])  # body edit
    check()
    library.save_note(c, title="Rust 所有权")  # title only: rows rewritten in place
    check()
    library.delete_note(b)
    check()
    assert "k8s:pod" not in _df(library.index_reader)
    library.rebuild()
    check()

    def tamper(conn: sqlite3.Connection) -> None:  # a row no chunk owns, counted like any other
        conn.execute("BEGIN")
        conn.execute("INSERT INTO kb_fts(rowid, body, title) VALUES (9000, 'zqxloose 所有权', '')")
        term_df.add(conn, [("zqxloose 所有权", "")])
        conn.execute("COMMIT")

    library.worker.call(tamper).result()
    assert library.verify(repair=True).repaired
    check()
    assert "zqxloose" not in _df(library.index_reader)


def test_search_reads_the_writer_counts_and_sees_each_save(library: Library) -> None:
    library.add_note("a", "借用 rustacean")
    library.drain()
    reader = library.index_reader
    assert index_stats(reader, ["借用", "rustacean", "缺席"])[1] == {"借用": 1, "rustacean": 1, "缺席": 0}
    library.add_note("b", "借用 规则")
    library.drain()
    assert index_stats(reader, ["借用"]) == (2, {"借用": 2})


@pytest.mark.parametrize("old", [7, 8])
def test_an_older_index_gains_the_counts_and_postings_without_a_rebuild(data_dir: Path, old: int) -> None:
    with Library(data_dir) as lib:
        if lib.startup_rebuild is not None:
            lib.startup_rebuild.result()
        for i in range(30):
            lib.add_note(f"第 {i} 篇", f"所有权 借用 编号{i} " + _ADVERSARIAL[i % len(_ADVERSARIAL)])
        lib.drain()
        index_path = lib.paths.index
        chunks = lib.index_status().chunks
    conn = sqlite3.connect(index_path, isolation_level=None)
    for table in ("kb_post", "kb_post_todo", "kb_vocab_inst", *(["kb_df"] if old == 7 else [])):
        conn.execute(f"DROP TABLE {table}")  # kb_df's triggers go with kb_post's tables
    for trigger in ("kb_df_update", "kb_df_insert", "kb_df_delete"):
        conn.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    conn.execute("DROP INDEX kb_vectors_code")  # schema 10's
    conn.execute(f"PRAGMA user_version = {old}")
    conn.close()

    conn = db.open_index_writer(index_path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == db.INDEX_SCHEMA_VERSION
    assert not db.is_dirty(conn)  # migrated in place: no rebuild
    assert conn.execute("SELECT count(*) FROM kb_chunks").fetchone()[0] == chunks
    assert _df(conn) == _vocab(conn) and _df(conn)["借用"] == 30
    triggers = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
    assert triggers == {"kb_df_update", "kb_df_insert", "kb_df_delete"}
    assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'kb_vectors_code'").fetchone()[0] == 1
    conn.close()
