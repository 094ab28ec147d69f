"""Regions of Markdown that are literal text: code fences, inline code, URLs, link targets.

Nothing inside them is a wiki link or a tag (``#include`` in a C listing,
``https://x.org/#section``, ``[see](#usage)``). The rules follow CommonMark
closely enough for notes: fenced blocks open with three or more backticks or
tildes and close with a fence of the same character at least as long (an
unclosed fence runs to the end); an inline code span is closed by a backtick
run of exactly the same length; indented code needs a blank line before it.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable

Span = tuple[int, int]

_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_BACKTICKS_RE = re.compile(r"`+")
_URL_RE = re.compile(r"(?:\b[a-zA-Z][a-zA-Z0-9+.-]*://|\bwww\.)[^\s<>\"'\u3000-\u303f\uff01-\uff0f\uff1a-\uff20]+")
_AUTOLINK_RE = re.compile(r"<[a-zA-Z][a-zA-Z0-9+.-]*:[^\s<>]*>")
# The destination of an inline Markdown link or image: "](…)".
_LINK_DEST_RE = re.compile(r"\]\([^()\s]*(?:\s+\"[^\"]*\")?\)")
_HTML_ENTITY_RE = re.compile(r"&#?[a-zA-Z0-9]+;")


_FENCE_LINE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$", re.MULTILINE)
_INDENTED_RUN_RE = re.compile(r"^(?:(?: {4}|\t)[^\n]*\S[^\n]*(?:\n|$)(?:[ \t]*(?:\n|$))*)+", re.MULTILINE)
_LIST_ITEM_RE = re.compile(r" {0,3}(?:[-*+]|\d+[.)])\s")


def _fenced_blocks(text: str) -> list[Span]:
    """Only fence lines are visited (a regex finds them), so a 10 MB note stays fast."""
    spans: list[Span] = []
    open_start: int | None = None
    fence = ""
    for m in _FENCE_LINE_RE.finditer(text):
        marker, info = m.group(1), m.group(2)
        if open_start is None:
            # A backtick fence's info string may not contain backticks.
            if not (marker[0] == "`" and "`" in info):
                open_start, fence = m.start(), marker
        elif marker[0] == fence[0] and len(marker) >= len(fence) and not info.strip():
            spans.append((open_start, m.end()))
            open_start = None
    if open_start is not None:
        spans.append((open_start, len(text)))
    return spans


def _previous_text_line(text: str, start: int) -> str | None:
    """The nearest non-blank line before ``start``, or None at the top of the text."""
    end = start
    while end > 0:
        line_start = text.rfind("\n", 0, end - 1) + 1
        line = text[line_start:end - 1] if text[end - 1] == "\n" else text[line_start:end]
        if line.strip():
            return line
        end = line_start
    return None


def _indented_blocks(text: str, fenced: list[Span]) -> list[Span]:
    """Runs of lines indented four spaces or a tab after a blank line (not list continuations)."""
    in_fence = LiteralMask(fenced)
    spans: list[Span] = []
    for m in _INDENTED_RUN_RE.finditer(text):
        start = m.start()
        if in_fence.covers(start):
            continue
        if start > 0:
            i = start
            while i > 0 and text[i - 1] in " \t":
                i -= 1
            if i > 0 and text[max(0, i - 2):i] != "\n\n":
                continue  # directly under a paragraph or item: a continuation, not code
            previous = _previous_text_line(text, start)
            if previous is not None and (_LIST_ITEM_RE.match(previous)
                                         or previous.startswith(("    ", "\t"))):
                continue  # inside a list
        spans.append((start, m.end() - (len(m.group()) - len(m.group().rstrip()))))
    return spans


def _inline_code(text: str, blocked: list[Span]) -> list[Span]:
    """Backtick runs closed by the next run of the same length (linear-ish on huge notes)."""
    in_block = LiteralMask(blocked)
    runs = [m.span() for m in _BACKTICKS_RE.finditer(text) if not in_block.covers(m.start())]
    by_length: dict[int, list[int]] = {}  # run length -> indexes into runs, ascending
    for i, (a, b) in enumerate(runs):
        by_length.setdefault(b - a, []).append(i)
    spans: list[Span] = []
    i = 0
    while i < len(runs):
        start, end = runs[i]
        if start > 0 and text[start - 1] == "\\":
            i += 1
            continue
        same = by_length[end - start]
        k = bisect.bisect_right(same, i)
        if k == len(same):
            i += 1
            continue
        closer = same[k]
        spans.append((start, runs[closer][1]))
        i = closer + 1
    return spans


def merge(spans: Iterable[Span]) -> list[Span]:
    merged: list[Span] = []
    for a, b in sorted(spans):
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    return merged


def code_spans(text: str) -> list[Span]:
    """Fenced blocks, indented blocks and inline code spans, sorted and merged."""
    fenced = _fenced_blocks(text)
    blocks = merge(fenced + _indented_blocks(text, fenced))
    return merge(blocks + _inline_code(text, blocks))


def literal_spans(text: str) -> list[Span]:
    """Everything no link or tag may start in: code, URLs, link destinations, HTML entities."""
    spans = code_spans(text)
    for pattern in (_URL_RE, _AUTOLINK_RE, _LINK_DEST_RE, _HTML_ENTITY_RE):
        spans += [m.span() for m in pattern.finditer(text)]
    return merge(spans)


class LiteralMask:
    """Answers "is this offset literal?" in O(log n) for a list of merged spans."""

    def __init__(self, spans: list[Span]) -> None:
        self._spans = spans
        self._starts = [a for a, _ in spans]

    @classmethod
    def of(cls, text: str) -> LiteralMask:
        return cls(literal_spans(text))

    def covers(self, offset: int) -> bool:
        i = bisect.bisect_right(self._starts, offset) - 1
        return i >= 0 and offset < self._spans[i][1]

    def overlaps(self, start: int, end: int) -> bool:
        i = bisect.bisect_right(self._starts, end - 1) - 1
        return i >= 0 and self._spans[i][1] > start
