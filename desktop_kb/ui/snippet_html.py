"""A hit's snippet as rich text: its Markdown marks stripped, its highlights marked.

One function for the search list and the QA pane's hits and tooltips: the QA pane's copy
set the highlight's background but not its text colour, so in the dark theme its words were
white on pale yellow, unreadable. The colours are fixed pairs, readable on either theme.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence

from desktop_kb.markup.plain import repeated_headings, strip_with_spans

HIGHLIGHT_STYLE = "background:#ffe08a;color:#111"
CODE_STYLE = "font-family:monospace"

_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
# A line that reads as code outside a fence: indented like a block, or ending or opening the
# way code lines do ("impl Drop for ThreadPool {", "    }", "let x = 5;").
_CODE_LINE_RE = re.compile(r"^(?: {4}|\t)|[{};]\s*$|^\s*[})\]]")
_INDENTED_RE = re.compile(r"^(?: {4,}|\t)\S")  # Markdown's indented code block


def _marked(text: str, spans: Iterable[tuple[int, int]]) -> str:
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


def marked_html(snippet: str, start: int, highlights: Iterable[Sequence[int]], title: str = "",
                *, code_lines: bool = False) -> str:
    """``snippet`` (the source from ``start``) as escaped rich text without Markdown marks,
    its ``highlights`` (absolute source offsets) marked.

    A snippet that opens with headings its ``title`` (a heading path) already names does not
    say them again: a hit read "什么是所有权？ > 所有权规则 — 所有权规则 首先，…".

    ``code_lines``: code keeps its lines and indentation, as written (the QA pane's hits and
    citations showed "impl Drop for ThreadPool { fn drop(&mut self) { for worker in …" as
    one line of prose); prose lines still flow together.
    """
    cut = repeated_headings(snippet, title)
    snippet, start = snippet[cut:], start + cut
    relative = [(int(h[0]) - start, int(h[1]) - start) for h in highlights]
    if not code_lines:
        return _marked(*strip_with_spans(snippet, relative))
    out: list[str] = []
    for kind, a, b in _runs(snippet):
        spans = [(x - a, y - a) for x, y in relative if y > a and x < b]
        if kind == "code":
            lines = _marked(snippet[a:b].rstrip("\n"), spans).split("\n")
            body = "<br>".join(re.sub(r"^ +", lambda m: "&nbsp;" * len(m.group()), line.replace("\t", "    "))
                               for line in lines)
            out.append(f'<span style="{CODE_STYLE}">{body}</span>')
        else:
            text = _marked(*strip_with_spans(snippet[a:b], spans)).strip()
            if text:
                out.append(re.sub(r"[ \t]*\n\s*", " ", text))
    return "<br>".join(out)


def _runs(snippet: str) -> list[tuple[str, int, int]]:
    """(``"code"`` or ``"prose"``, start, end) runs of whole lines; fence lines belong to neither.

    A snippet may begin inside a fence: when its first fence line opens nothing (no language
    after it) and the fences are odd in number, what comes before it is code.
    """
    lines: list[tuple[int, int, str]] = []
    pos = 0
    for line in snippet.splitlines(keepends=True):
        lines.append((pos, pos + len(line), line.rstrip("\n")))
        pos += len(line)
    fences = [i for i, (_a, _b, text) in enumerate(lines) if _FENCE_RE.match(text)]
    inside = bool(fences) and len(fences) % 2 == 1 and not _FENCE_RE.match(lines[fences[0]][2]).group(2).strip()
    kinds: list[str | None] = []
    for text in (t for _a, _b, t in lines):
        if _FENCE_RE.match(text):
            inside = not inside
            kinds.append(None)
        elif inside:
            kinds.append("code")
        else:
            kinds.append("prose")
    # Outside fences, a block of lines (between blank lines) that reads as code is code.
    i = 0
    while i < len(lines):
        if kinds[i] != "prose" or not lines[i][2].strip():
            i += 1
            continue
        j = i
        while j < len(lines) and kinds[j] == "prose" and lines[j][2].strip():
            j += 1
        indented = any(_INDENTED_RE.match(lines[k][2]) for k in range(i, j))
        if indented or (j - i >= 2 and any(_CODE_LINE_RE.search(lines[k][2]) for k in range(i, j))):
            kinds[i:j] = ["code"] * (j - i)
        i = j
    # A lone code-shaped line beside code is code too ("use std::thread;" above a struct).
    def alone(i: int) -> bool:
        return all(not lines[j][2].strip() or kinds[j] is None for j in (i - 1, i + 1) if 0 <= j < len(lines))

    def beside(i: int, step: int) -> str | None:
        j = i + step
        while 0 <= j < len(lines) and (kinds[j] is None or not lines[j][2].strip()):
            j += step
        return kinds[j] if 0 <= j < len(lines) else None

    for order in (range(len(lines)), range(len(lines) - 1, -1, -1)):
        for i in order:
            text = lines[i][2]
            if (kinds[i] == "prose" and text.strip() and _CODE_LINE_RE.search(text) and alone(i)
                    and "code" in (beside(i, -1), beside(i, 1))):
                kinds[i] = "code"
    # A blank line between two code lines is the code's own.
    shown = [k for k, (_a, _b, t) in zip(kinds, lines, strict=True) if k is not None and t.strip()]
    seen = 0
    for i, (_a, _b, text) in enumerate(lines):
        if kinds[i] is None:
            continue
        if text.strip():
            seen += 1
        elif 0 < seen < len(shown) and shown[seen - 1] == shown[seen] == "code":
            kinds[i] = "code"
        else:
            kinds[i] = None
    runs: list[tuple[str, int, int]] = []
    for (a, b, _text), kind in zip(lines, kinds, strict=True):
        if kind is None:
            continue
        # Paragraphs of prose flow together as before; code keeps its blocks apart.
        if runs and runs[-1][0] == kind and (kind == "prose" or runs[-1][2] == a):
            runs[-1] = (kind, runs[-1][1], b)
        else:
            runs.append((kind, a, b))
    return runs
