"""The one sentence rule: where a sentence ends in Chinese, English and mixed text.

CJK enders (。！？；…) need nothing after them; Latin ones (. ! ? ;) must be
followed by whitespace, a closing quote/bracket or the end, so "3.14",
"node.js" and "e.g.x" stay whole.  Closing quotes and brackets stay with the
sentence they close.
"""

from __future__ import annotations

import re

__all__ = [
    "CLOSERS", "SENTENCE_END", "SENTENCE_OR_LINE_END", "ends_sentence", "last_sentence_end",
    "sentence_spans", "trim_span",
]

CLOSERS = "\"'”’）)」』]"
SENTENCE_END = re.compile(r"(?:[。！？；…]+|[.!?;]+(?=[\s\"'”’）)」』\]]|$))[\"'”’）)」』\]]*")
# Snippets and packing also treat a line break as a boundary (list items, code).
SENTENCE_OR_LINE_END = re.compile(SENTENCE_END.pattern + r"|\n")
_NONSPACE = re.compile(r"\S")
_ENDS = re.compile(r"(?:[。！？；…]|[.!?;])[\"'”’）)」』\]]*\s*$")


def trim_span(source: str, start: int, end: int) -> tuple[int, int] | None:
    """Shrink [start, end) past surrounding whitespace; None if nothing is left."""
    m = _NONSPACE.search(source, start, end)
    if m is None:
        return None
    return m.start(), m.start() + len(source[m.start():end].rstrip())


def sentence_spans(source: str, start: int, end: int) -> list[tuple[int, int]]:
    """Whitespace-trimmed sentence (or line) spans of ``source[start:end]``, absolute offsets."""
    spans: list[tuple[int, int]] = []
    prev = start
    for m in SENTENCE_OR_LINE_END.finditer(source, start, end):
        span = trim_span(source, prev, m.end())
        if span is not None:
            spans.append(span)
        prev = m.end()
    span = trim_span(source, prev, end)
    if span is not None:
        spans.append(span)
    return spans


def last_sentence_end(source: str, start: int, end: int) -> int:
    """Offset just after the last sentence end in [start, end), or -1.

    One character past ``end`` is visible to the look-ahead, so a Latin full
    stop right before ``end`` counts when a space follows it.
    """
    last = -1
    for m in SENTENCE_END.finditer(source, start, min(end + 1, len(source))):
        if m.end() > end:
            break
        last = m.end()
    return last


def ends_sentence(text: str) -> bool:
    """Whether ``text`` (a line, a page's last line) ends with sentence punctuation."""
    return _ENDS.search(text) is not None
