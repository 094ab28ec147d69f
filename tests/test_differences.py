"""The side-by-side comparison marks what one text has and the other lacks."""

from __future__ import annotations

from desktop_kb.discovery.differences import CHAR_BLOCK_LIMIT, differences


def _marked(text: str, spans: list[tuple[int, int]]) -> list[str]:
    return [text[a:b] for a, b in spans]


def test_an_added_sentence_is_marked_not_its_paragraph() -> None:
    # The note copied from 算法小书 with a remark added, against the passage with its heading.
    note = "二分查找在有序数组中每次把范围缩小一半，时间复杂度是 O(log n)。我的补充：注意边界。"
    passage = "第一章 二分查找\n\n二分查找在有序数组中每次把范围缩小一半，时间复杂度是 O(log n)。"
    left, right = differences(note, passage)
    assert _marked(note, left) == ["我的补充：注意边界。"]
    assert _marked(passage, right) == ["第一章 二分查找\n\n"]


def test_identical_texts_mark_nothing_and_edits_on_both_sides_are_marked() -> None:
    text = "# 所有权\n\nRust 中的每一个值都有一个所有者。\n值在任一时刻有且只有一个所有者。\n"
    assert differences(text, text) == ([], [])
    edited = text.replace("每一个值", "每个值").replace("任一时刻", "任意时刻")
    left, right = differences(text, edited)
    assert _marked(text, left) == ["一", "一"]
    assert _marked(edited, right) == ["意"]


def test_a_long_changed_block_is_marked_whole() -> None:
    old = "甲" * (CHAR_BLOCK_LIMIT + 10) + "\n"
    new = "乙" * (CHAR_BLOCK_LIMIT + 10) + "\n"
    left, right = differences("同\n" + old + "尾\n", "同\n" + new + "尾\n")
    assert left == [(2, 2 + len(old))] and right == [(2, 2 + len(new))]
