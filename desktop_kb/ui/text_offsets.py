"""Python counts code points, Qt counts UTF-16 units; they differ for emoji and rare CJK.

Search highlights come from the core as code-point offsets; the editor needs
UTF-16 positions for ``QTextCursor``.
"""

from __future__ import annotations


def to_utf16(text: str, index: int) -> int:
    prefix = text[:index]
    if prefix.isascii() or all(ord(c) < 0x10000 for c in prefix):
        return len(prefix)
    return len(prefix.encode("utf-16-le")) // 2


def spans_to_utf16(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    return [(to_utf16(text, a), to_utf16(text, b)) for a, b in spans]


def from_utf16(text: str, utf16_index: int) -> int:
    """The code-point offset of a Qt (UTF-16) position in ``text``."""
    if all(ord(c) < 0x10000 for c in text[:utf16_index]):
        return min(utf16_index, len(text))
    units = 0
    for i, ch in enumerate(text):
        if units >= utf16_index:
            return i
        units += 2 if ord(ch) >= 0x10000 else 1
    return len(text)
