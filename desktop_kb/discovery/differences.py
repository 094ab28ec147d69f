"""What differs between two nearly identical texts, for the side-by-side comparison.

A near-duplicate hint says "66 % of the text is the same"; comparing them is
finding the other third. Lines are matched first (cheap on long notes), then
the characters of each changed block, so a sentence added to a paragraph is
marked as that sentence, not the whole paragraph. Blocks too long to compare
character by character are marked whole.
"""

from __future__ import annotations

from difflib import SequenceMatcher

Span = tuple[int, int]

CHAR_BLOCK_LIMIT = 4000  # characters per side compared one by one; longer blocks are marked whole


def _line_starts(lines: list[str]) -> list[int]:
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    return starts


def _add(spans: list[Span], start: int, end: int) -> None:
    if end <= start:
        return
    if spans and spans[-1][1] >= start:
        spans[-1] = (spans[-1][0], max(spans[-1][1], end))
    else:
        spans.append((start, end))


def differences(left: str, right: str) -> tuple[list[Span], list[Span]]:
    """Character spans of ``left`` and of ``right`` that the other text does not have."""
    a_lines, b_lines = left.splitlines(keepends=True), right.splitlines(keepends=True)
    a_at, b_at = _line_starts(a_lines), _line_starts(b_lines)
    only_left: list[Span] = []
    only_right: list[Span] = []
    lines = SequenceMatcher(None, a_lines, b_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in lines.get_opcodes():
        if tag == "equal":
            continue
        a0, a1, b0, b1 = a_at[i1], a_at[i2], b_at[j1], b_at[j2]
        if tag != "replace" or max(a1 - a0, b1 - b0) > CHAR_BLOCK_LIMIT:
            _add(only_left, a0, a1)
            _add(only_right, b0, b1)
            continue
        chars = SequenceMatcher(None, left[a0:a1], right[b0:b1], autojunk=False)
        for ctag, k1, k2, m1, m2 in chars.get_opcodes():
            if ctag != "equal":
                _add(only_left, a0 + k1, a0 + k2)
                _add(only_right, b0 + m1, b0 + m2)
    return only_left, only_right
