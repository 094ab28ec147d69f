"""A hit's snippet as rich text: its Markdown marks stripped, its highlights marked.

One function for the search list and the QA pane's hits and tooltips: the QA pane's copy
set the highlight's background but not its text colour, so in the dark theme its words were
white on pale yellow, unreadable. The colours are fixed pairs, readable on either theme.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence

from desktop_kb.markup.plain import repeated_headings, strip_with_spans

HIGHLIGHT_STYLE = "background:#ffe08a;color:#111"


def marked_html(snippet: str, start: int, highlights: Iterable[Sequence[int]], title: str = "") -> str:
    """``snippet`` (the source from ``start``) as escaped rich text without Markdown marks,
    its ``highlights`` (absolute source offsets) marked.

    A snippet that opens with headings its ``title`` (a heading path) already names does not
    say them again: a hit read "什么是所有权？ > 所有权规则 — 所有权规则 首先，…".
    """
    cut = repeated_headings(snippet, title)
    snippet, start = snippet[cut:], start + cut
    relative = [(int(h[0]) - start, int(h[1]) - start) for h in highlights]
    text, spans = strip_with_spans(snippet, relative)
    parts: list[str] = []
    cursor = 0
    for a, b in sorted(spans):
        a, b = max(a, cursor), min(b, len(text))
        if b <= a:
            continue
        parts.append(html.escape(text[cursor:a]))
        parts.append(f'<span style="{HIGHLIGHT_STYLE}">{html.escape(text[a:b])}</span>')
        cursor = b
    parts.append(html.escape(text[cursor:]))
    return "".join(parts)

