"""A question's word found only inside an identifier counts as much as the question names of it."""

from __future__ import annotations

from desktop_kb.library import Library
from desktop_kb.retrieval.lexical import named_share

MACROS = ("宏", "使用 `macro_rules!` 定义声明宏。`macro_rules!` 的每个分支是一个模式。"
                "`macro_rules!` 会在将来被 `macro` 关键字取代，但 `macro_rules!` 仍然常用。"
                "声明宏用 `macro_rules!` 写，过程宏另有写法。")
OWNERSHIP = ("所有权规则", "Rust 的核心功能是**所有权**（*ownership*）。所有权规则只有三条：每个值都有一个"
                        "所有者；值在任一时刻只有一个所有者；所有者离开作用域时值被丢弃。"
                        "第一次读到这些规则时，可以先记住它们，后面的例子会一一说明。")
CELLS = ("内部可变性", "内部可变性（interior mutability）是 Rust 的一种设计模式。"
                  "详见 [RefCell](ch15-05-interior-mutability.html)。")
FILLER = [(f"杂记{n}", f"第{n}篇杂记：今天读书的笔记，记录了几个生词和一段感想。明天继续复习第{n}课。")
          for n in range(12)]


def _titles(lib: Library, query: str) -> list[str]:
    return [r.title for r in lib.search(query, limit=5, mode="lexical").results]


def test_a_word_found_only_inside_an_identifier_counts_less_than_the_word_alone(library: Library) -> None:
    """"What are the ownership rules?" is not about ``macro_rules!``: 'rules' there is half of a
    name the question does not say, repeated four times in a short chunk (it ranked that chunk
    above the chapter that says 'ownership' once, keywords only, on the Rust book)."""
    for title, body in [MACROS, OWNERSHIP, CELLS, *FILLER]:
        library.add_note(title, body)
    library.drain()
    assert _titles(library, "What are the ownership rules?")[0] == "所有权规则"
    # Naming the identifier, or a word it holds alone, is found as before.
    assert _titles(library, "How do I write macro_rules?")[0] == "宏"
    assert _titles(library, "macro_rules")[0] == "宏"
    # A question naming every word of an identifier (a link's file name) keeps its full weight.
    assert _titles(library, "interior mutability pattern")[0] == "内部可变性"


def test_an_identifier_is_named_by_the_share_of_its_word_parts_the_question_holds() -> None:
    assert named_share(["macro", "rules"], {"ownership", "rules"}) == 0.5
    # Parts with digits number things (chapters, versions): they are not words to name.
    assert named_share(["ch15", "05", "interior", "mutability", "html"], {"interior", "mutability"}) == 2 / 3
    assert named_share(["ch15", "05", "interior", "mutability"], {"interior", "mutability"}) == 1.0
    assert named_share(["v1", "2"], {"v1"}) == 0.5  # all numbered: every part counts
