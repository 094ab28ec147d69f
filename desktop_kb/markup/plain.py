"""Markdown markers stripped from a snippet for display, with highlight offsets carried along.

Search snippets are cut from the source text ("## 步骤\n**先**备份"); shown as
they are, the markers read as noise. This drops heading hashes, quote and
list markers, emphasis and code marks, link syntax (keeping the link text) and
``[[target|label]]`` (keeping the label), and maps every kept character back to
its offset so highlights still land on the right words.
"""

from __future__ import annotations

import re

_LINE_MARK_RE = re.compile(r"^[ \t]*(?:#{1,6}[ \t]+|>[ \t]?|(?:[-*+]|\d+[.)])[ \t]+)", re.MULTILINE)
_WIKI_RE = re.compile(r"\[\[([^\[\]\n|]*)(?:\|([^\[\]\n]*))?\]\]")
_LINK_RE = re.compile(r"!?\[([^\[\]\n]*)\]\([^()\s]*(?:\s+\"[^\"]*\")?\)")
_MARK_RE = re.compile(r"\*\*|__|~~|`+|(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])")


def strip_markdown(text: str) -> tuple[str, list[int]]:
    """(plain text, source offset of each plain character)."""
    drop = bytearray(len(text))  # 1 = not shown

    def mark(a: int, b: int) -> None:
        drop[a:b] = b"\x01" * (b - a)

    for m in _WIKI_RE.finditer(text):
        keep = m.span(2) if m.group(2) else m.span(1)
        mark(m.start(), keep[0])
        mark(keep[1], m.end())
    for m in _LINK_RE.finditer(text):
        if any(drop[m.start():m.end()]):
            continue
        mark(m.start(), m.start(1))
        mark(m.end(1), m.end())
    for m in _LINE_MARK_RE.finditer(text):
        mark(*m.span())
    for m in _MARK_RE.finditer(text):
        mark(*m.span())
    kept = [i for i in range(len(text)) if not drop[i]]
    return "".join(text[i] for i in kept), kept


def strip_with_spans(text: str, spans: list[tuple[int, int]]) -> tuple[str, list[tuple[int, int]]]:
    """Plain text and ``spans`` (offsets into ``text``) moved to offsets into the plain text."""
    import bisect

    plain, origin = strip_markdown(text)
    moved: list[tuple[int, int]] = []
    for a, b in spans:
        start = bisect.bisect_left(origin, a)
        end = bisect.bisect_left(origin, b)
        if end > start:
            moved.append((start, end))
    return plain, moved
