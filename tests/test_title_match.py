"""Title autocomplete: Chinese, English, pinyin and fuzzy typing find the note meant.

The titles are a small mixed library; the queries are what people type after
``[[`` — prefixes, words from the middle, pinyin with any reading of a
polyphonic character, initials, and characters with gaps — plus queries that
must find nothing.
"""

from __future__ import annotations

import pytest

from desktop_kb.markup.title_match import rank_titles

TITLES = [
    (1, "Docker 安装"), (2, "安装笔记"), (3, "重庆火锅"), (4, "docker compose 备份"),
    (5, "Rust 所有权"), (6, "银行卡"), (7, "GitLab backup"), (8, "ＦＵＬＬ Width"),
    (9, "行为心理学"), (10, ""),
]


def _first(query: str) -> str:
    found = rank_titles(query, TITLES)
    return found[0].title if found else ""


@pytest.mark.parametrize(("query", "expected"), [
    ("docker 安装", "Docker 安装"),  # the whole title beats a prefix
    ("DOCK", "Docker 安装"),  # prefix, any case; ties keep the given order
    ("安装", "安装笔记"),  # prefix beats a word inside
    ("comp", "docker compose 备份"),
    ("所有", "Rust 所有权"),
    ("chongqing", "重庆火锅"),  # 重 read chong, not zhong
    ("cq", "重庆火锅"),
    ("yinhang", "银行卡"),  # 行 read hang
    ("xingwei", "行为心理学"),  # 行 read xing
    ("syq", "Rust 所有权"),
    ("full width", "ＦＵＬＬ Width"),
    ("gtlb", "GitLab backup"),  # characters in order, close together
])
def test_the_note_meant_comes_first(query: str, expected: str) -> None:
    assert _first(query) == expected


def test_nothing_found_for_unrelated_or_scattered_input() -> None:
    assert rank_titles("xyz", TITLES) == []
    assert rank_titles("量子", TITLES) == []
    # "d" … "p" are both in "docker compose 备份" but 8 characters apart: too scattered.
    assert all(m.title != "docker compose 备份" for m in rank_titles("dp", TITLES))


def test_highlight_spans_point_into_the_original_title() -> None:
    (match, *_rest) = rank_titles("装", [(1, "Docker 安装")])
    assert match.title[slice(*match.spans[0])] == "装"
    (match,) = rank_titles("width", [(8, "ＦＵＬＬ Width")])
    assert match.title[slice(*match.spans[0])] == "Width"
    (match,) = rank_titles("az", [(2, "安装笔记")])
    assert match.spans == ((0, 2),)


def test_empty_query_keeps_order_and_skips_untitled() -> None:
    assert [m.note_id for m in rank_titles("", TITLES, limit=3)] == [1, 2, 3]
    assert all(m.note_id != 10 for m in rank_titles("", TITLES, limit=20))
