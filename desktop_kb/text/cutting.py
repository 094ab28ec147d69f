"""Cutting a span of text into pieces of bounded size at the best available break.

Used for index chunks (≤800 chars) and for capping imported fragments, so both
prefer the same breaks: paragraph, then line, then sentence end (the one rule
in ``sentences``), then whitespace, and only then a hard cut.
"""

from __future__ import annotations

import re

from desktop_kb.text.sentences import SENTENCE_END

__all__ = ["cut_span"]

_PARA_RE = re.compile(r"\n[^\S\n]*\n")
_LINE_RE = re.compile(r"\n")
_SPACE_RE = re.compile(r"\s+")
_NONSPACE_RE = re.compile(r"\S")


def _last_break(
    pattern: re.Pattern[str], source: str, p: int, lo: int, hi: int, *, after: bool,
) -> int:
    """Latest break b with lo <= b <= hi, scanning from p; -1 if none.

    ``after`` selects m.end() (cut after punctuation) vs m.start() (cut where
    whitespace begins).  One extra char is scanned so look-aheads see it.
    """
    best = -1
    for m in pattern.finditer(source, p, min(hi + 1, len(source))):
        b = m.end() if after else m.start()
        if b > hi:
            break
        if b >= lo:
            best = b
    return best


def _find_break(source: str, p: int, limit: int, max_chars: int) -> int:
    """Where to end a piece starting at p that cannot reach the span end.

    Paragraph > line > sentence breaks, latest first, but only if they leave a
    piece of at least a quarter of the budget; otherwise any such break; then
    whitespace, and finally a hard cut.
    """
    for lo in (p + max(1, max_chars // 4), p + 1):
        if lo > limit:
            continue
        for pattern, after in ((_PARA_RE, False), (_LINE_RE, False), (SENTENCE_END, True)):
            b = _last_break(pattern, source, p, lo, limit, after=after)
            if b > p:
                return b
    b = _last_break(_SPACE_RE, source, p, p + 1, limit, after=False)
    return b if b > p else limit


def cut_span(source: str, start: int, end: int, max_chars: int) -> list[tuple[int, int]]:
    """Whitespace-trimmed spans ≤ max_chars covering every non-space char of [start, end)."""
    if max_chars < 1:
        raise ValueError("max_chars must be >= 1")
    spans: list[tuple[int, int]] = []
    m = _NONSPACE_RE.search(source, start, end)
    while m is not None:
        p = m.start()
        if end - p <= max_chars:
            spans.append((p, p + len(source[p:end].rstrip())))
            break
        b = _find_break(source, p, p + max_chars, max_chars)
        spans.append((p, p + len(source[p:b].rstrip())))
        m = _NONSPACE_RE.search(source, b, end)
    return spans
