"""Operators made only of punctuation (``?``, ``//!``, ``::``, ``..=``, ``'a``) are matched in
their own table (``kb_ops``), with highlights on the original text, and every other
question scores as before."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from desktop_kb.index import db
from desktop_kb.index.segment import analyse_query, index_tokens, operator_tokens
from desktop_kb.library import Library


def test_operators_are_read_apart_from_the_words() -> None:
    assert operator_tokens("//! 和 /// 都是文档注释") == ["//!", "///"]
    assert operator_tokens('let f = File::open("hello.txt")?;') == ["=", "::", "?"]
    assert {"::", "..=", "=>", "'a", "#[", "{:?}"} <= set(
        operator_tokens("std::vec 与 1..=5 => x; fn f<'a>() #[derive(Debug)] {:?}"))
    # Sentence marks, emphasis, ellipses, flags and quoted words are not operators.
    assert operator_tokens("所有权是什么？！……好!! 'hello' docker run --rm -v") == []
    # The words are what they were: an operator never enters kb_fts.
    assert index_tokens("//! 和 /// 都是文档注释") == ["和", "都", "是", "文档", "注释"]


def test_a_question_keeps_its_operators_but_not_its_question_mark() -> None:
    assert analyse_query("what does the ? operator do?").operators == ["?"]
    assert analyse_query("Rust 的 ? 运算符").operators == ["?"]
    assert analyse_query("what is ownership?").operators == []
    assert analyse_query("所有权是什么？").operators == []
    assert analyse_query("How do I declare a virtual destructor in C++?").operators == []
    assert analyse_query("C# 和 C++ 哪个快?").operators == []
    assert analyse_query("//! 和 /// 的区别").operators == ["//!", "///"]
    assert analyse_query("生命周期 'a 是什么意思").operators == ["'a"]
    # A question naming an identifier means the identifier, not every `::` in the library.
    assert analyse_query("std::vec 是什么").operators == []


def test_an_operator_question_finds_its_passage_and_lights_up_the_operator(library: Library) -> None:
    library.add_note("文档注释", "文档注释 /// 写在函数前，说明其后的项。")
    inner = library.add_note("包注释", "文档注释 //! 写在文件开头，说明包含它的项。")
    assert library.drain()
    for mode in ("lexical", "hybrid"):
        response = library.search("//! 注释", mode=mode)
        assert response.results[0].source_id == inner
    body = library.get_note(inner).body
    assert "//!" in {body[a:b] for a, b in response.results[0].highlights}
    only = library.search("{:?}", mode="lexical")
    assert not only.results
    debug = library.add_note("调试输出", "用 {:?} 打印调试信息。")
    assert library.drain()
    assert library.search("{:?}", mode="lexical").results[0].source_id == debug


def test_an_older_index_gains_the_operators_table_and_is_rebuilt(data_dir: Path) -> None:
    with Library(data_dir, load_model=False) as lib:
        note = lib.add_note("错误传播", "在函数末尾写 ? 把错误返回给调用者：File::open(p)?;")
        lib.add_note("别的", "函数返回错误")
        assert lib.drain()
        index_path = lib.paths.index
    # The index as schema 10 left it: no kb_ops, the segmenter of then.
    conn = sqlite3.connect(index_path, isolation_level=None)
    conn.execute("DROP TABLE kb_ops")
    conn.execute("UPDATE kb_meta SET value = 'old' WHERE key = 'segmenter'")
    conn.execute("PRAGMA user_version = 10")
    rows = conn.execute("SELECT count(*) FROM kb_fts").fetchone()[0]
    conn.close()
    with Library(data_dir, load_model=False) as lib:
        # Keyword search works while the index is old (no kb_ops: the operator counts for nothing).
        assert lib.search("函数", mode="lexical").results
    conn = db.open_index_writer(index_path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == db.INDEX_SCHEMA_VERSION
        assert conn.execute("SELECT count(*) FROM kb_fts").fetchone()[0] == rows
    finally:
        conn.close()
    with Library(data_dir, load_model=False) as lib:
        if lib.startup_rebuild is not None:
            lib.startup_rebuild.result()
        assert lib.search("? 返回错误", mode="lexical").results[0].source_id == note
        assert lib.index_status().state == "ok"


def test_a_question_made_only_of_an_operator_is_not_a_weak_match(library: Library) -> None:
    # An operator counts in keyword evidence like a word: the passage holding it holds all
    # that was asked (it was listed under the weak-matches notice, and QA refused).
    debug = library.add_note("调试输出", "用 {:?} 打印调试信息。")
    inner = library.add_note("包注释", "//! 写在文件开头，说明包含它的项。")
    library.add_note("别的", "函数把错误返回给调用者。")
    assert library.drain()
    for question, expected in (("{:?}", debug), ("//!", inner)):
        response = library.search(question, mode="lexical")
        assert response.results[0].source_id == expected
        assert not response.weak_matches, question


def test_an_operator_lights_up_only_where_the_index_found_it(library: Library) -> None:
    # Folding makes ？ a "?", and the ? inside {:?} is another operator: neither is the ? asked about.
    body = "什么是错误传播？在调用末尾写 ? 把错误返回：File::open(p)?; 用 {:?} 打印。明白了吗？"
    note = library.add_note("错误传播", body)
    assert library.drain()
    result = library.search("? 错误", mode="lexical").results[0]
    assert result.source_id == note
    lit = [(a, body[a:b]) for a, b in result.highlights]
    assert [a for a, text in lit if text == "?"] == [body.index(" ? ") + 1, body.index(")?;") + 1]
    assert {text for _, text in lit} == {"?", "错误"}


def test_the_qa_pane_packs_the_sentence_holding_the_operator_asked_about(library: Library) -> None:
    from desktop_kb.qa.engine import QaEngine

    # Two sentences hold 运算符 (one ends in ？, which folding makes a "?"); only one holds
    # the ? operator asked about, and a small budget has room for a sentence or two.
    body = ("运算符有很多种，加号和减号都是运算符。你知道取余也是一种运算符吗？错误处理很常见。"
            "在调用末尾写 File::open(p)?; 会把错误返回给调用者。其他内容与此无关，这里只是凑够长度的一句话。")
    library.add_note("运算符", body)
    assert library.drain()
    library.set_setting("qa.budget_chars", 60)
    plan = QaEngine(library).prepare("? 运算符怎么用")
    packed = plan.packed.render()
    assert "在调用末尾写 File::open(p)?;" in packed
    assert "你知道取余也是一种运算符吗？" not in packed


def test_a_search_reads_its_hits_from_one_moment_of_the_index(library: Library, monkeypatch) -> None:
    # A rebuild (the first start after an upgrade) or a save may rewrite a chunk between the
    # keyword query and reading the hits' rows: every hit was dropped, and the search showed
    # nothing (test_an_older_index_gains_the_operators_table_and_is_rebuilt, 1 run in 40).
    from desktop_kb.qa import retrieve as qa_retrieve
    from desktop_kb.retrieval import search as search_module

    note = library.add_note("错误传播", "函数把错误返回给调用者。")
    assert library.drain()
    ranked = search_module.rank_chunks
    bodies = iter(["函数把错误返回给调用者，调用者再决定怎么处理它。",
                   "函数把错误返回给调用者，调用者再决定怎么处理它：返回、重试或者放弃。"])

    def rank_then_save(*args: object, **kwargs: object) -> object:
        ranking = ranked(*args, **kwargs)
        assert library.save_note(note, body=next(bodies))  # longer: the old spans still fit
        assert library.drain()
        return ranking

    monkeypatch.setattr(search_module, "rank_chunks", rank_then_save)
    monkeypatch.setattr(qa_retrieve, "rank_chunks", rank_then_save)
    response = library.search("函数", mode="lexical")
    assert [r.source_id for r in response.results] == [note]
    assert response.dropped == 0
    got = qa_retrieve.retrieve(library, "函数")  # the QA pane's search
    assert [h.result.source_id for h in got.hits] == [note]
    assert not got.nothing


def test_an_operator_is_counted_once_per_index_state_not_on_every_question(library: Library) -> None:
    """Each operator question counted the library's chunks and every chunk holding the operator,
    twice (its weight for coverage, its count for keyword evidence): at 10⁶ chunks a walk of
    kb_chunks and of the operator's posting list on every question. The counts change only when
    the index does, so they are read once per index state, like the words' counts."""
    note = library.add_note("错误传播", "在函数末尾写 ? 把错误返回给调用者：File::open(p)?;")
    library.add_note("调试输出", "用 {:?} 打印调试信息。")
    library.drain()
    first = library.search("? 返回错误", mode="lexical")
    statements: list[str] = []
    library.index_reader.set_trace_callback(statements.append)
    try:
        again = library.search("? 把错误返回", mode="lexical")
    finally:
        library.index_reader.set_trace_callback(None)
    assert first.results[0].source_id == note and again.results[0].source_id == note
    assert [r.score for r in again.results] == [r.score for r in library.search("? 把错误返回", mode="lexical").results]
    counts = [s for s in statements if "count(" in s.lower()]
    assert counts == [], counts
    library.add_note("更多", "再写一个 ? 运算符的例子。")
    library.drain()
    statements.clear()
    library.index_reader.set_trace_callback(statements.append)
    try:
        library.search("? 把错误返回", mode="lexical")
    finally:
        library.index_reader.set_trace_callback(None)
    assert any("FROM kb_ops WHERE kb_ops MATCH" in s for s in statements)  # counted again after a change
