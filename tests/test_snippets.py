"""Snippets: sentence choice, exact offsets and highlight spans."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from desktop_kb.index.segment import query_terms
from desktop_kb.retrieval.snippets import Snippet, make_snippet, sentence_spans


def check(source: str, sn: Snippet, max_chars: int) -> None:
    assert source[sn.start : sn.end] == sn.text
    assert len(sn.text) <= max_chars
    prev = sn.start
    for a, b in sn.highlights:
        assert prev <= a < b <= sn.end
        prev = b + 1  # merged: disjoint and not touching


def texts(source: str, sn: Snippet) -> list[str]:
    return [source[a:b] for a, b in sn.highlights]


def test_sentence_spans_exact_and_trimmed() -> None:
    src = "  第一句。第二句！ Third one? Pi is 3.14 ok.\n  last line ；尾 "
    spans = sentence_spans(src, 0, len(src))
    assert [src[a:b] for a, b in spans] == [
        "第一句。",
        "第二句！",
        "Third one?",
        "Pi is 3.14 ok.",
        "last line ；",
        "尾",
    ]
    assert sentence_spans(src, 2, 6) == [(2, 6)]
    assert sentence_spans("   \n ", 0, 5) == []


def test_picks_sentence_with_most_distinct_terms_chinese() -> None:
    src = "数据库很重要。我们用 Docker 安装 GitLab，然后配置 GitLab 备份。天气不错。"
    terms = query_terms("如何用 docker 安装 gitlab")
    sn = make_snippet(src, 0, len(src), terms, max_chars=40)
    check(src, sn, 40)
    assert "Docker 安装 GitLab" in sn.text
    assert texts(src, sn) == ["用", "Docker", "安装", "GitLab", "GitLab"]


def test_extends_with_neighbours_within_budget() -> None:
    src = "Alpha one. Beta two. Gamma target here. Delta four. Epsilon five."
    sn = make_snippet(src, 0, len(src), ["target"], max_chars=35)
    check(src, sn, 35)
    assert sn.text == "Gamma target here. Delta four."  # next first, then previous
    sn = make_snippet(src, 0, len(src), ["target"], max_chars=40)
    assert sn.text == "Beta two. Gamma target here. Delta four."
    big = make_snippet(src, 0, len(src), ["target"], max_chars=500)
    assert big.text == src


def test_respects_chunk_bounds() -> None:
    src = "target outside. Inside chunk has target too. After target."
    start = src.index("Inside")
    end = src.index(" After")
    sn = make_snippet(src, start, end, ["target"], max_chars=200)
    assert (sn.start, sn.end) == (start, end)
    assert sn.highlights == [(src.index("target too"), src.index("target too") + 6)]


def test_multi_occurrence_and_overlap_merge() -> None:
    src = "中华人民共和国成立了。中华人民共和国万岁。"
    terms = query_terms("中华人民共和国")  # overlapping sub-terms
    sn = make_snippet(src, 0, len(src), terms, max_chars=100)
    assert texts(src, sn) == ["中华人民共和国", "中华人民共和国"]


def test_latin_terms_match_whole_words_only() -> None:
    src = "Google uses Go. We go home."
    sn = make_snippet(src, 0, len(src), ["go"], max_chars=100)
    assert texts(src, sn) == ["Go", "go"]


def test_identifier_terms() -> None:
    src = "Edit the file.\nThen run docker compose -f docker-compose.yml up."
    sn = make_snippet(src, 0, len(src), query_terms("docker-compose.yml"), max_chars=100)
    assert texts(src, sn) == ["docker-compose.yml"]


def test_length_changing_case_folds_keep_offsets() -> None:
    src = "前言。İİ İstanbul STRAßE ﬁle ＧｉｔＬａｂ end"
    terms = query_terms("istanbul straße file gitlab")
    sn = make_snippet(src, 0, len(src), terms, max_chars=100)
    check(src, sn, 100)
    assert texts(src, sn) == ["İstanbul", "STRAßE", "ﬁle", "ＧｉｔＬａｂ"]
    dotted = make_snippet(src, 0, len(src), ["i"], max_chars=100)
    assert texts(src, dotted) == []  # "i" is not a whole word anywhere


def test_no_terms_falls_back_to_first_sentence_or_best_sentence() -> None:
    src = "First sentence. Second sentence. Third sentence."
    assert make_snippet(src, 0, len(src), [], max_chars=20).text == "First sentence."
    assert make_snippet(src, 0, len(src), ["absent"], max_chars=20).text == "First sentence."
    best = (src.index("Third"), len(src))
    sn = make_snippet(src, 0, len(src), [], max_chars=20, best_sentence=best)
    assert sn.text == "Third sentence." and sn.highlights == []
    assert make_snippet(src, 0, len(src), ["", "  "], max_chars=20).highlights == []


def test_long_sentence_window_around_first_hit() -> None:
    src = "没有标点的长句" * 40 + "关键词" + "继续没有标点" * 40
    sn = make_snippet(src, 0, len(src), ["关键词"], max_chars=50)
    check(src, sn, 50)
    assert len(sn.text) == 50 and "关键词" in sn.text
    assert texts(src, sn) == ["关键词"]


def test_empty_chunk() -> None:
    sn = make_snippet("   ", 0, 3, ["x"])
    assert sn.text == "" and sn.highlights == []


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet=st.sampled_from(list("ab İßﬁẞΣς中文。.!？\n\r\x00😀e\u0301")), max_size=80),
    st.lists(st.sampled_from(["a", "b", "中文", "i", "ß", "ss", "σ", "e\u0301", "é"]), max_size=4),
    st.integers(min_value=1, max_value=60),
)
def test_snippet_invariants_property(source: str, terms: list[str], max_chars: int) -> None:
    sn = make_snippet(source, 0, len(source), terms, max_chars=max_chars)
    check(source, sn, max_chars)


CHAPTER_END = (
    "## 总结\n\n你做到了！这是一个大章节：你学习了变量、函数、注释、`if` 表达式和循环！\n\n"
    "当你准备好继续前进时，我们将讨论所有权（ownership）。\n\n"
    "[comparing-the-guess-to-the-secret-number]: ch02-00-guessing-game-tutorial.html#比较猜测的数字和秘密数字\n"
    "[quitting-after-a-correct-guess]: ch02-00-guessing-game-tutorial.html#猜测正确后退出\n"
    "[stack-only-data-copy]:\nch04-01-what-is-ownership.html#比较猜测的数字\n")


def test_link_reference_lines_are_never_the_snippet() -> None:
    """The Rust book's chapters end in link definitions whose anchors are other chapters'
    headings: '比较猜测的数字' showed '[comparing-…]: ch02-00-….html#比较猜测的数字和秘密数字
    [quitting-…]: …' as the hit's text."""
    terms = query_terms("比较猜测的数字")
    sn = make_snippet(CHAPTER_END, 0, len(CHAPTER_END), terms)
    check(CHAPTER_END, sn, 200)
    assert "]:" not in sn.text and ".html" not in sn.text
    assert "你做到了" in sn.text
    # A chunk of nothing but link definitions still says what it holds.
    links = CHAPTER_END[CHAPTER_END.index("[comparing"):]
    only = make_snippet(links, 0, len(links), terms)
    assert only.text.startswith("[comparing")


def test_search_and_related_never_show_link_reference_lines(tmp_path) -> None:  # noqa: ANN001
    from desktop_kb.library import Library

    docs = tmp_path / "book"
    docs.mkdir()
    (docs / "ch03-05-control-flow.md").write_text("# 控制流\n\n" + CHAPTER_END, encoding="utf-8")
    (docs / "ch02-00-guessing-game-tutorial.md").write_text(
        "# 编写猜数游戏\n\n## 比较猜测的数字和秘密数字\n\n现在有了用户输入和一个随机数，我们可以比较它们。\n",
        encoding="utf-8")
    with Library(tmp_path / "lib", load_model=False) as lib:
        if lib.startup_rebuild is not None:
            lib.startup_rebuild.result()
        lib.import_paths([docs])
        note = lib.add_note("猜数游戏笔记", "怎么比较猜测的数字和秘密数字？控制流的总结说了什么？")
        lib.drain()
        hits = lib.search("比较猜测的数字").results
        assert any("控制流" in h.title for h in hits)  # the chapter is found, by its anchors
        assert all(".html#" not in h.snippet for h in hits), [h.snippet for h in hits]
        cards = lib.related(note).suggestions
        assert cards and all(".html#" not in c.snippet for c in cards), [c.snippet for c in cards]


def test_a_snippet_does_not_grow_across_an_included_listing() -> None:
    """'ownership' on the Rust book showed '错误如下： {{#include ../listings/ch04-understanding-
    ownership/…/output.txt}} 哇哦！…' with the path highlighted: the snippet grew over the fence."""
    src = ("## 可变引用\n\n错误如下：\n\n```console\n"
           "{{#include ../listings/ch04-understanding-ownership/no-listing-12/output.txt}}\n```\n\n"
           "哇哦！我们也不能在拥有不可变引用的同时拥有可变引用。")
    for terms in (["ownership"], query_terms("可变引用")):
        sn = make_snippet(src, 0, len(src), terms)
        check(src, sn, 200)
        assert "{{#include" not in sn.text and "```" not in sn.text, sn.text


def test_the_question_mark_operator_does_not_end_a_sentence() -> None:
    # "File::open(path)? 会在出错时提前返回" was cut after the `?`: the snippet for 提前返回 began
    # at 会在 and lost what returns early. A real question mark still ends its sentence.
    cases = {
        "调用 File::open(path)? 会在出错时提前返回。然后读文件。":
            ["调用 File::open(path)? 会在出错时提前返回。", "然后读文件。"],
        "The call file.read()? returns early on an error. Next.":
            ["The call file.read()? returns early on an error.", "Next."],
        "Write x? to pass the error up.": ["Write x? to pass the error up."],
        "在表达式后面加 ? 就行。下一句。": ["在表达式后面加 ? 就行。", "下一句。"],
        "What is ownership? It is a set of rules.": ["What is ownership?", "It is a set of rules."],
        "你学过 Rust? 我学过。": ["你学过 Rust?", "我学过。"],
        "Is it 3.14? Yes.": ["Is it 3.14?", "Yes."],
    }
    for text, sentences in cases.items():
        assert [text[a:b] for a, b in sentence_spans(text, 0, len(text))] == sentences, text
    text = "先看第一句话，它和问题无关，只是为了占位置。调用 File::open(path)? 会在出错时提前返回。"
    snip = make_snippet(text, 0, len(text), ["提前返回"], max_chars=40)
    assert snip.text == "调用 File::open(path)? 会在出错时提前返回。"


def test_a_fragment_of_a_query_word_is_lit_only_inside_that_word_where_the_passage_holds_it() -> None:
    # "什么是所有权？" is searched as 所有, 有权 and 所有权: the hit for "拥有所有权" lit 所有 in
    # "几乎所有的 Rust 类型" as well, as if the passage spoke of ownership there.
    terms = query_terms("什么是所有权？")
    assert {"所有", "所有权"} <= set(terms)
    src = "几乎所有的 Rust 类型都是 Send 的，拥有所有权的值可以转移。"
    sn = make_snippet(src, 0, len(src), terms)
    check(src, sn, 200)
    assert texts(src, sn) == ["所有权"]
    # Where the passage never writes the whole word, the fragment is why it was found.
    src = "几乎所有的 Rust 类型都是 Send 的。"
    assert texts(src, make_snippet(src, 0, len(src), terms)) == ["所有"]
