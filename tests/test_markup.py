"""Parsing what a note's Markdown means: wiki links, tags, headings, literal regions.

Cases mix the forms people type in Chinese and English notes with the text that
must *not* count: code, URLs, headings, C#, issue numbers, HTML entities.
"""

from __future__ import annotations

import pytest

from desktop_kb.markup.headings import find_heading, outline
from desktop_kb.markup.literal import code_spans
from desktop_kb.markup.tags import ancestors, parse_tags, tag_key
from desktop_kb.markup.titles import title_key
from desktop_kb.markup.wiki_links import (
    link_at,
    open_link_prefix,
    parse_wiki_links,
    retarget,
    target_keys,
)


def _links(text: str) -> list[tuple[str, str, str]]:
    return [(link.title, link.heading, link.label) for link in parse_wiki_links(text)]


def test_wiki_link_forms() -> None:
    text = "见 [[Docker 安装]]、[[GitLab 备份|备份步骤]] 和 [[Rust 所有权#借用]]。"
    assert _links(text) == [
        ("Docker 安装", "", "Docker 安装"),
        ("GitLab 备份", "", "备份步骤"),
        ("Rust 所有权", "借用", "Rust 所有权 > 借用"),
    ]
    first = parse_wiki_links(text)[0]
    assert text[first.start:first.end] == "[[Docker 安装]]"


def test_wiki_links_in_code_and_urls_are_text() -> None:
    text = (
        "`[[inline]]` and\n```md\n[[fenced]]\n```\n~~~\n[[tilde]]\n~~~\n\n    [[indented]]\n\n"
        "https://example.org/[[url]] and [[real]] and ``[[double `tick` span]]``"
    )
    assert [t for t, _h, _l in _links(text)] == ["real"]


def test_unclosed_fence_runs_to_the_end() -> None:
    assert _links("before [[a]]\n```\n[[b]]\nno closing fence") == [("a", "", "a")]


def test_escaped_bar_in_a_table_and_bad_forms() -> None:
    assert _links("| [[Note\\|label]] |") == [("Note", "", "label")]
    assert _links("[[]] [[ ]] [[a\nb]] [[x]y]]") == []
    assert _links("[[#本节]]") == [("", "本节", "本节")]
    assert target_keys("[[#本节]]") == []


def test_title_keys_fold_case_width_and_spaces() -> None:
    assert title_key("  Docker   安装 ") == title_key("docker 安装") == title_key("ＤＯＣＫＥＲ 安装")
    assert target_keys("[[Docker 安装]] [[docker  安装|x]]") == ["docker 安装"]


def test_title_with_a_hash_is_tried_whole_first() -> None:
    (link,) = parse_wiki_links("[[C# notes]]")
    assert link.candidate_keys == ("c# notes", "c")


def test_link_at_offset_and_autocomplete_prefix() -> None:
    text = "a [[Docker]] b"
    assert link_at(text, 5).title == "Docker"
    assert link_at(text, 0) is None
    assert open_link_prefix("see [[Dock") == "Dock"
    assert open_link_prefix("see [[") == ""
    assert open_link_prefix("see [[中文") == "中文"
    assert open_link_prefix("see [[Docker]] and") is None
    assert open_link_prefix("see [[Docker|lab") is None
    assert open_link_prefix("line one [[x\nline two") is None


def test_retarget_keeps_headings_labels_and_code() -> None:
    text = "[[Docker]] [[docker#安装|装]] `[[Docker]]` [[Docker\\|lbl]] [[Dockerfile]]"
    new, n = retarget(text, "Docker", "Docker 安装")
    assert n == 3
    assert new == "[[Docker 安装]] [[Docker 安装#安装|装]] `[[Docker]]` [[Docker 安装\\|lbl]] [[Dockerfile]]"
    whole, n = retarget("[[C# notes]] [[C# notes|x]]", "C# notes", "C sharp")
    assert (whole, n) == ("[[C sharp]] [[C sharp|x]]", 2)


@pytest.mark.parametrize(("text", "expected"), [
    ("#docker 和 #中文标签，下一句", ["docker", "中文标签"]),
    ("#学习/Rust/所有权 ok", ["学习/Rust/所有权"]),
    ("# Heading\n## 步骤\n###### six", []),
    ("C# 与 F# 和 issue#12", []),
    ("#123 #2024-05-01 #v2", ["v2"]),
    ("https://x.org/page#part www.x.org/#a <http://y.org/#b>", []),
    ("[see](#usage) ![img](a.png#x)", []),
    ("`#include` and\n```c\n#include <stdio.h>\n#define X 1\n```", []),
    ("&#39; &#x27; \\#escaped ##double", []),
    ("（#括号）「#引号」、#顿号。#句号", ["括号", "引号", "顿号", "句号"]),
    ("#trailing/ #-dash #x-", ["trailing", "x"]),
    ("# Title #tag-in-heading", ["tag-in-heading"]),
    ("#C++ 与 #Notepad++，#C# 和 #F#。#c+b #a#b #学习+ #话题#", ["C++", "Notepad++", "C#", "F#", "c", "a", "学习", "话题"]),
])
def test_tags(text: str, expected: list[str]) -> None:
    assert [t.name for t in parse_tags(text)] == expected


def test_tag_keys_and_nesting() -> None:
    assert tag_key("#Docker") == tag_key("docker") == tag_key("ｄｏｃｋｅｒ") == "docker"
    assert ancestors("a/b/c") == ["a", "a/b"]
    assert ancestors("a") == []


def test_outline_atx_setext_and_code() -> None:
    text = "# 标题\n正文\n## Steps ##\n```\n# not a heading\n```\nSetext\n===\n- item\n---\n"
    assert [(h.level, h.title) for h in outline(text)] == [(1, "标题"), (2, "Steps"), (1, "Setext")]
    found = find_heading(text, "steps")
    assert found is not None and text[found.start:].startswith("## Steps")
    assert find_heading(text, "not a heading") is None


def test_code_spans_unmatched_backticks_are_text() -> None:
    text = "a ` b ``c`` d"
    (span,) = code_spans(text)
    assert text[span[0]:span[1]] == "``c``"
