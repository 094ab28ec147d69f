"""Markup-only text (link definitions, mdBook directives, bare fences) is never a chunk of its own.

The shapes come from the Chinese Rust book (an mdBook): chapters end with a
block of link-reference definitions, listings are pulled in with
``{{#rustdoc_include …}}`` inside a fence.  The adversarial cases are real
paragraphs that merely contain a URL, ``{{`` or a bracketed label: they stay.
"""

from __future__ import annotations

import pytest

from desktop_kb.importer.formats import MAX_FRAGMENT_CHARS, split_document
from desktop_kb.index.chunker import chunk_markdown, chunk_plain
from desktop_kb.text.headings import markdown_headings, sections
from desktop_kb.text.markup_only import glue_markup_only, is_markup_only

LINKS = "\n".join(
    f"[ref-{i}]: https://rustwiki.org/zh-CN/std/io/struct.Stdin.html#method.read_line_{i}"
    for i in range(12))
LISTING = "```rust,ignore\n{{#rustdoc_include ../listings/ch02-guessing-game-tutorial/listing-02-01/src/main.rs:all}}\n```"
PARA = "猜数字程序的第一部分请求用户输入，处理该输入，并检查输入是否符合预期格式。" * 8  # 296 chars


@pytest.mark.parametrize("text", [
    "[prelude]: https://rustwiki.org/zh-CN/std/prelude/index.html",
    "[变量和可变性]: ch03-01-variables-and-mutability.html#变量和可变性",
    "  [handling]: #使用-result-类型来处理潜在的错误",
    '[semver]: http://semver.org "Semantic Versioning"',
    "[local]: <./some file.md>",
    "{{#include ../listings/ch02/no-listing-01-cargo-new/Cargo.toml}}",
    "{{#rustdoc_include ../listings/ch02/listing-02-01/src/main.rs:io}}",
    "{{#playground example.rs editable}}",
    "```",
    "~~~~",
    "```console\n{{#include ../listings/ch03/output.txt}}\n```",
    LINKS,
    "\n\n[a]: https://a.example\n\n\n[b]: b.html\n",
    # The destination on the next line (the Rust book wraps long definitions).
    "[stack-only-data-copy]:\nch04-01-what-is-ownership.html#stack-only-data-copy\n[macros]: ch19-06-macros.html#macros",
])
def test_markup_only_text(text: str) -> None:
    assert is_markup_only(text)


@pytest.mark.parametrize("text", [
    "",
    "   \n\t\n",
    # Real paragraphs that merely contain a URL, `{{` or a bracketed label.
    "下载地址见 https://crates.io/crates/rand ，安装后运行 cargo build。",
    "See [the prelude](https://rustwiki.org/zh-CN/std/prelude/index.html) for details.",
    "模板里写 {{#include file}} 就能把文件内容引入进来。",
    "Handlebars uses {{#each items}} blocks.",
    "{{name}}",
    # Footnotes and bracketed prose are content, not link definitions.
    "[^1]: 这里是脚注的正文，它是内容。",
    "[注意]: 请先安装 Docker。",
    "[注意]：请先安装Docker",
    "[1]: 见 https://example.com 第三章",
    "[TODO]: fix this before release",
    "[a]: b",
    "[TODO]:\nfix this before release",
    "[注意]:\n请先安装 Docker。",
    # A fenced block with code in it, and a fence plus a caption.
    "```rust\nfn main() {}\n```",
    LISTING + '\n\n<span class="caption">示例 2-1：获取用户猜测并打印的代码</span>',
    LINKS + "\n以上是本章引用的链接。",
])
def test_content_is_not_markup(text: str) -> None:
    assert not is_markup_only(text)


def test_glue_joins_markup_to_the_previous_span_or_leads_into_the_next() -> None:
    src = "AAAA\n\n[x]: http://x.org\n\nBBBB\n\n```\n\nCCCC"
    a, x, b, fence, c = (src.index(t) for t in ("AAAA", "[x]", "BBBB", "```", "CCCC"))
    spans = [(a, a + 4), (x, x + 17), (b, b + 4), (fence, fence + 3), (c, c + 4)]
    assert glue_markup_only(src, spans, limit=100) == [(a, x + 17), (b, fence + 3), (c, c + 4)]
    lead = [(x, x + 17), (b, b + 4)]
    assert glue_markup_only(src, lead, limit=100) == [(x, b + 4)]
    # Past the limit a wall of markup stays a piece of its own (bounded size).
    assert glue_markup_only(src, spans[:2], limit=10) == spans[:2]
    # All markup: that is all there is, nothing to join it to.
    assert glue_markup_only(src, [spans[1], spans[3]], limit=100) == [spans[1], spans[3]]


def _chapter() -> str:
    return (f"## 处理一次猜测\n\n{PARA}\n\n{PARA}\n\n{LISTING}\n\n{PARA}\n\n"
            f"这些代码包含很多信息，让我们一行一行地过一遍。\n\n{LINKS}\n")


def test_chapter_tail_of_link_definitions_rides_with_the_last_paragraph() -> None:
    src = _chapter()
    for chunks in (chunk_markdown(src), chunk_plain(src)):
        assert not [c.text for c in chunks if is_markup_only(c.text)]
        assert chunks[-1].text.endswith(LINKS.rsplit("\n", 1)[-1])
        assert "这些代码包含很多信息" in chunks[-1].text
        # Exact offsets, nothing lost: every non-space char is in some chunk.
        covered = "".join(src[c.start:c.end] for c in chunks)
        assert "".join(covered.split()) == "".join(src.split())
        assert all(src[c.start:c.end] == c.text for c in chunks)


def test_listing_cut_off_alone_joins_the_paragraph_that_introduces_it() -> None:
    # The paragraphs fill one chunk; the fenced directive at the end would be cut off alone.
    src = f"{PARA}\n\n{PARA}\n\n" + "现在使用 cargo run 命令，一步完成程序的编译和运行：" * 5 + f"\n\n{LISTING}\n"
    assert len(src) > 800
    chunks = chunk_plain(src)
    assert not [c.text for c in chunks if is_markup_only(c.text)]
    assert chunks[0].text.endswith(LISTING)
    assert len(chunks[0].text) > 800  # over the cap only by the markup it took in


def test_paragraph_with_url_or_braces_stays_a_chunk_of_its_own() -> None:
    url_para = "下载地址见 https://crates.io/crates/rand ，安装后运行 cargo build 即可。" * 6
    brace_para = "模板里写 {{#include file}} 就能把文件内容引入进来，这是 mdBook 的写法。" * 6
    src = f"{PARA}\n\n{PARA}\n\n{url_para}\n\n{brace_para}\n\n[^1]: 脚注正文，是内容。"
    chunks = chunk_plain(src, max_chars=600)
    texts = [c.text for c in chunks]
    assert any(t.startswith("下载地址见") for t in texts)
    assert any(t.startswith("模板里写") for t in texts)
    assert all(len(t) <= 600 for t in texts)  # no markup, so nothing over the cap


def test_markup_only_preamble_is_context_for_the_first_section() -> None:
    src = "[std]: https://rustwiki.org/zh-CN/std/\n\n# 简介\n\n正文在这里。\n"
    secs = sections(src, markdown_headings(src))
    assert [(s.start, s.heading_path) for s in secs] == [(0, "简介")]
    assert [c.text for c in chunk_markdown(src)] == [src.strip()]
    frags = split_document(src, "md", "intro.md").fragments
    assert [(f.text, f.heading_path) for f in frags] == [(src.strip(), "简介")]
    # A real preamble stays a section of its own.
    real = "前言：这本书写给初学者。\n\n# 简介\n\n正文。\n"
    assert [s.heading_path for s in sections(real, markdown_headings(real))] == ["", "简介"]


def test_a_note_of_nothing_but_link_definitions_keeps_them() -> None:
    chunks = chunk_markdown(LINKS * 3, max_chars=300)
    assert chunks and "".join(c.text for c in chunks).replace("\n", "") == (LINKS * 3).replace("\n", "")


def test_oversized_imported_section_keeps_its_link_definitions_in_the_last_part() -> None:
    body = "\n\n".join([PARA] * 14)  # ~4,200 chars: the importer caps it into parts
    src = f"# 第二章\n\n{body}\n\n{LINKS}\n"
    result = split_document(src, "md", "ch02.md")
    assert len(result.fragments) >= 2
    assert not [f.text for f in result.fragments if is_markup_only(f.text)]
    assert result.fragments[-1].text.endswith(LINKS)
    assert result.doc_text == src  # the reader shows the whole document
    assert all(len(f.text) <= 2 * MAX_FRAGMENT_CHARS for f in result.fragments)


def test_a_chunk_without_markup_characters_has_no_markup_sentence() -> None:
    """``may_hold_markup`` lets snippets skip judging sentences one by one: it must be True
    wherever a sentence of the chunk is markup, including a definition whose label line is in
    the chunk and whose destination is the line after it (or before the chunk starts)."""
    import random

    from desktop_kb.text.markup_only import is_markup_span, may_hold_markup
    from desktop_kb.text.sentences import sentence_spans

    lines = ["[ref]: https://example.com/a.html", "[label]:", "ch02-00.html#比较", "```rust",
             "{{#rustdoc_include ../listings/ch02/src/main.rs:all}}", "~~~", "普通的一句话。",
             "Plain words here. More words", "  ", "", "所有权（ownership）是 Rust 的核心。"]
    rng = random.Random(7)
    checked = markup_seen = 0
    for _ in range(3000):
        source = "\n".join(rng.choice(lines) for _ in range(rng.randint(1, 8)))
        start = rng.randint(0, len(source))
        end = rng.randint(start, len(source))
        may = may_hold_markup(source, start, end)
        for a, b in sentence_spans(source, start, end):
            checked += 1
            if is_markup_span(source, a, b):
                markup_seen += 1
                assert may, (source, start, end, a, b)
    assert checked > 3000 and markup_seen > 300  # the property was put to the test
