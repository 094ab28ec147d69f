"""A hit's snippet as rich text: its Markdown marks stripped, its highlights marked.

One function for the search list and the QA pane's hits and tooltips: the QA pane's copy
set the highlight's background but not its text colour, so in the dark theme its words were
white on pale yellow, unreadable. The colours are fixed pairs, readable on either theme.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence

from desktop_kb.markup.plain import plain_title, strip_with_spans
from desktop_kb.retrieval.locators import split_locator
from desktop_kb.text.headings import split_part

HIGHLIGHT_STYLE = "background:#ffe08a;color:#111"


def marked_html(snippet: str, start: int, highlights: Iterable[Sequence[int]], title: str = "") -> str:
    """``snippet`` (the source from ``start``) as escaped rich text without Markdown marks,
    its ``highlights`` (absolute source offsets) marked.

    A snippet that opens with headings its ``title`` (a heading path) already names does not
    say them again: a hit read "什么是所有权？ > 所有权规则 — 所有权规则 首先，…".
    """
    cut = _repeated_heading(snippet, title)
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


_HEADING_LINE_RE = re.compile(r"[ \t]*(?:#{1,6}[ \t]+)?([^\n]*?)[ \t#]*(?:\n+|$)")


def _repeated_heading(snippet: str, title: str) -> int:
    """How many characters at the start of ``snippet`` only repeat headings of ``title``'s path
    (a passage keeps its bare parent headings as context: "# 什么是所有权？\n\n## 所有权规则\n\n首先")."""
    if not title:
        return 0
    base, _page, _end = split_locator(title)
    path = {plain_title(h).strip() for h in split_part(base)[0].split(" > ")} - {""}
    cut = 0
    while (m := _HEADING_LINE_RE.match(snippet, cut)) and m.end() > cut and m.end() < len(snippet.rstrip()):
        if plain_title(m.group(1)).strip() not in path:
            break
        cut = m.end()
    return cut
