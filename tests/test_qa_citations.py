"""Citation markers in every shape models write: normalised to [n] when valid, removed and flagged when not."""

from __future__ import annotations

import pytest

from desktop_kb.qa.citations import FLAG_INVALID, FLAG_UNSUPPORTED, markers, validate_answer

VALID = {1, 2, 3}


@pytest.mark.parametrize(("answer", "expected"), [
    ("先准备文件[1]。", "先准备文件[1]。"),
    ("先准备文件［1］。", "先准备文件[1]。"),
    ("先准备文件【2】。", "先准备文件[2]。"),
    ("先准备文件［１］。", "先准备文件[1]。"),
    ("See the note[^1].", "See the note[1]."),
    ("Both say so [1, 2].", "Both say so [1][2]."),
    ("都提到了[1，3]。", "都提到了[1][3]。"),
    ("见[1][2]。", "见[1][2]。"),
    ("All three [1-3].", "All three [1][2][3]."),
    ("All three [1–3].", "All three [1][2][3]."),
    ("From the file [1†source].", "From the file [1]."),
    ("来自文件【2:0†notes.md】。", "来自文件[2]。"),
    ("Spaced [ 3 ].", "Spaced [3]."),
    # labels and trailing punctuation models add (held out: written after the shapes above passed)
    ("As the notes say [snippet 2].", "As the notes say [2]."),
    ("Per [Source: 3].", "Per [3]."),
    ("Both [Snippets 1, 2].", "Both [1][2]."),
    ("见【来源 2】。", "见[2]。"),
    ("Hash sign [#1].", "Hash sign [1]."),
    ("旧式括号〔1〕。", "旧式括号[1]。"),
    ("Trailing comma [1,].", "Trailing comma [1]."),
    ("Repeated [2][2].", "Repeated [2]."),
])
def test_valid_markers_are_normalised(answer: str, expected: str) -> None:
    checked = validate_answer(answer, VALID)
    assert checked.text == expected
    assert checked.flags == [] and checked.removed == []


@pytest.mark.parametrize(("answer", "expected", "removed"), [
    ("Yes [1] and also [^9].", "Yes [1] and also.", [9]),
    ("是的[1]，另见［9］。", "是的[1]，另见。", [9]),
    ("是的【1】【7】。", "是的[1]。", [7]),
    ("Yes [1] but [1000].", "Yes [1] but.", [1000]),
    ("Range [2-5].", "Range [2][3].", [4, 5]),
    ("Yes [1] per [4†source].", "Yes [1] per.", [4]),
    ("List [1, 8].", "List [1].", [8]),
    ("Yes [1], see [source 7].", "Yes [1], see.", [7]),
])
def test_invalid_numbers_are_removed_and_flagged_even_next_to_valid_ones(
        answer: str, expected: str, removed: list[int]) -> None:
    checked = validate_answer(answer, VALID)
    assert checked.text == expected
    assert checked.removed == removed and FLAG_INVALID in checked.flags
    assert FLAG_UNSUPPORTED not in checked.flags


def test_no_valid_marker_is_unsupported() -> None:
    checked = validate_answer("I think so [9].", VALID)
    assert checked.text == "I think so." and checked.flags == [FLAG_INVALID, FLAG_UNSUPPORTED]
    assert validate_answer("No markers at all.", VALID).flags == [FLAG_UNSUPPORTED]


def test_code_and_links_are_not_citations() -> None:
    answer = "Index it with `arr[7]`[1]:\n```python\nx = rows[9]\n```\nSee [2](https://example.org)."
    checked = validate_answer(answer, VALID)
    assert checked.text == answer and checked.removed == [] and checked.cited == [1]
    assert markers(answer) == [1]


def test_a_huge_range_is_not_expanded() -> None:
    checked = validate_answer("All [1-100000].", VALID)
    assert checked.text == "All [1]." and checked.removed == [100000]
