"""The one sentence rule: where a sentence ends in Chinese, English and mixed text.

CJK enders (。！？；…) need nothing after them; Latin ones (. ! ? ;) must be
followed by whitespace, a closing quote/bracket or the end, so "3.14",
"node.js" and "e.g.x" stay whole.  Closing quotes and brackets stay with the
sentence they close.
"""

from __future__ import annotations

import re

from desktop_kb.text.han import HAN_CHARS

__all__ = [
    "CLOSERS", "SENTENCE_END", "SENTENCE_OR_LINE_END", "ends_sentence", "last_sentence_end",
    "sentence_spans", "trim_span",
]

CLOSERS = "\"'”’）)」』]"
# Rust's `?` operator is not a question mark (code talk: "File::open(path)? 会提前返回",
# "use x? to propagate the error", "加 ? 就行"): a `?` after a space, or after an
# identifier or a closing bracket with lower-case code or text going on after a space,
# or after a closing bracket with Chinese going on. "What is x? It is…", "你学过 Rust? 我学过"
# and a `?` at the end of a line still end their sentence.
_OPERATOR_QUESTION = (
    r"(?<=\s)\?(?=[ \t])"
    r"|(?<=[A-Za-z0-9_)\]>])\?(?=[ \t]+[a-z_.;=&|/{(\[])"
    rf"|(?<=[)\]>])\?(?=[ \t]+[{HAN_CHARS}])"
)
SENTENCE_END = re.compile(
    rf"(?:[。！？；…]+|(?!{_OPERATOR_QUESTION})[.!?;]+(?=[\s\"'”’）)」』\]]|$))[\"'”’）)」』\]]*")
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
    first_text = _NONSPACE.search
    for m in SENTENCE_OR_LINE_END.finditer(source, start, end):
        # trim_span, inline: every shown snippet cuts its chunk into sentences first.
        stop = m.end()
        text = first_text(source, prev, stop)
        if text is not None:
            a = text.start()
            spans.append((a, a + len(source[a:stop].rstrip())))
        prev = stop
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
