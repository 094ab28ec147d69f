"""Taiwan and mainland words for one thing (執行緒 / 线程): the library's own word is searched."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_kb.library import Library
from desktop_kb.retrieval.regional_words import in_library_words


@pytest.fixture
def lib(data_dir: Path) -> Iterator[Library]:
    with Library(data_dir, load_model=False) as library:
        if library.startup_rebuild is not None:
            library.startup_rebuild.result()
        yield library


def _index(lib: Library) -> sqlite3.Connection:
    return lib.index_reader


def test_a_taiwan_question_finds_mainland_material_with_highlights(lib: Library) -> None:
    book = lib.add_note("并发", "使用消息传递在线程间传送数据：通道的发送端和接收端。")
    lib.add_note("执行计划", "数据库的执行计划与索引。")
    lib.drain()
    response = lib.search("執行緒之間如何傳遞訊息", mode="lexical")
    assert response.results and response.results[0].source_id == book
    assert "线程" in response.searched_as and "消息" in response.searched_as
    body = lib.get_note(book).body
    marked = {body[a:b] for a, b in response.results[0].highlights}
    assert "线程" in marked and any("消息" in m for m in marked)
    assert response.as_json()["searched_as"] == response.searched_as


def test_a_mainland_question_finds_taiwan_material(lib: Library) -> None:
    notes = lib.add_note("作業系統筆記", "每個執行緒都有自己的堆疊，記憶體由作業系統配置。")
    lib.drain()
    response = lib.search("线程 内存", mode="lexical")
    assert response.results and response.results[0].source_id == notes
    body = lib.get_note(notes).body
    assert {"執行緒", "記憶體"} <= {body[a:b] for a, b in response.results[0].highlights}


def test_a_word_the_library_holds_is_never_replaced(lib: Library) -> None:
    # Taiwan's 程序 is a mainland 进程, but 程序 is a mainland word too: a library
    # that holds it is asked for it, even when it also holds 进程.
    program = lib.add_note("程序", "编写一个程序，然后编译运行。")
    lib.add_note("进程", "操作系统为每个进程分配内存。")
    lib.drain()
    response = lib.search("程序", mode="lexical")
    assert response.searched_as == ""
    assert response.results[0].source_id == program
    assert in_library_words(_index(lib), "程序巨集") == "程序巨集"  # 宏 is not in this library


def test_only_the_missing_word_of_a_phrase_is_replaced(lib: Library) -> None:
    lib.add_note("宏", "过程宏有三种：自定义派生宏、类属性宏和类函数宏。每个程序都可以用宏。")
    lib.drain()
    assert in_library_words(_index(lib), "程序巨集有哪幾種？") == "程序宏有哪幾種？"


def test_nothing_to_replace_returns_the_query_itself(lib: Library) -> None:
    lib.add_note("ownership", "所有权规则")
    lib.drain()
    for query in ("ownership rules", "所有权是什么", "執行緒"):  # 线程 is not in this library either
        assert in_library_words(_index(lib), query) is query


def test_qa_packs_the_library_words(lib: Library) -> None:
    from desktop_kb.qa.retrieve import retrieve

    book = lib.add_note("内存", "栈上的数据必须有已知的固定大小；堆上的内存在运行时分配。")
    lib.drain()
    got = retrieve(lib, "堆上的記憶體是怎麼配置的？")
    assert not got.nothing
    assert got.hits and got.hits[0].result.source_id == book
    assert "内存" in got.terms


def test_the_counterpart_the_library_holds_most_is_searched(lib: Library) -> None:
    # OpenCC's converter turns 運算子 into 操作符, but its table lists 运算符 too, and a
    # book from Beijing says 运算符 where it names the operators (操作符 once in passing).
    ops = lib.add_note("运算符", "? 运算符用于传播错误；加法运算符 + 可以重载。比较运算符返回布尔值。")
    lib.add_note("运算符重载", "标准库中的运算符可以通过 trait 重载。")
    lib.add_note("宏", "宏在语法中操作符不同于函数。")
    lib.drain()
    assert in_library_words(_index(lib), "運算子可以重載嗎") == "运算符可以重載嗎"
    response = lib.search("預設的運算子", mode="lexical")
    assert "运算符" in response.searched_as
    assert response.results[0].source_id == ops


def test_a_word_the_converter_keeps_is_replaced_by_a_counterpart_the_library_holds(lib: Library) -> None:
    # 預設 is a Taiwan word OpenCC's converter leaves as it is (its table also lists 默认, 缺省).
    book = lib.add_note("配置", "默认情况下变量是不可变的。")
    lib.drain()
    assert in_library_words(_index(lib), "變數預設不可變") == "变量默认不可變"
    assert lib.search("預設", mode="lexical").results[0].source_id == book
