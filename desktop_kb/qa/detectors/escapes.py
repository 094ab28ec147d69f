"""Values written in escape sequences: ``\\u0031\\u0033…`` (JSON written with ASCII only, Python's
``json.dumps`` default), ``\\x41\\x49…`` (a "hidden" key in JavaScript), ``ohhpgl029\\u0040qq.com``.

A secret spelled in escapes matches no pattern, and neither does its neighbourhood (``"\\u5f20\\u4f1f"``
is a name, ``"\\u624b\\u673a"`` the word 手机). So the stretch of a line around the escapes is read again
with every escape decoded, labels and all, and each finding there is mapped back onto the characters
that spell it (a decoded escape's finding withholds its six characters).
Text without a backslash-u or backslash-x costs one substring test.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence

from desktop_kb.qa.detectors.base import Finding
from desktop_kb.qa.detectors.normalize import normalize

# (\" too: JSON kept as a string inside JSON or a log line, "{\"password\": \"…\"}", reads as JSON again)
_ESCAPE_RE = re.compile(r"\\(?:u(?P<u>[0-9a-fA-F]{4})|x(?P<x>[0-9a-fA-F]{2})|(?P<q>\"))")
_AROUND = 100  # characters read on each side of a cluster of escapes (a label, the rest of the value)
_GAP = 64  # escapes closer than this share one stretch


def _stretches(text: str, escapes: list[re.Match[str]]) -> Iterator[tuple[int, int]]:
    start = end = -1
    for m in escapes:
        if start < 0 or m.start() - end > _GAP:
            if end > start:
                yield start, end
            start = m.start()
        end = m.end()
    if end > start:
        yield start, end


def escaped_findings(text: str, detect_excerpt: Callable[[str], Sequence[Finding]]) -> Iterator[Finding]:
    if "\\u" not in text and "\\x" not in text and '\\"' not in text:
        return
    escapes = list(_ESCAPE_RE.finditer(text))
    for first, last in _stretches(text, escapes):
        line_start = text.rfind("\n", 0, first) + 1
        line_end = text.find("\n", last)
        start = max(line_start, first - _AROUND)
        end = min(len(text) if line_end < 0 else line_end, last + _AROUND)
        pieces: list[str] = []
        origin: list[tuple[int, int]] = []  # per decoded character: its span in ``text``
        pos = start
        for m in _ESCAPE_RE.finditer(text, start, end):
            for i in range(pos, m.start()):
                pieces.append(text[i])
                origin.append((i, i + 1))
            code = ord('"') if m.group("q") else int(m.group("u") or m.group("x"), 16)
            pieces.append(chr(code) if not 0xD800 <= code <= 0xDFFF else "\ufffd")
            origin.append((m.start(), m.end()))
            pos = m.end()
        for i in range(pos, end):
            pieces.append(text[i])
            origin.append((i, i + 1))
        decoded = "".join(pieces)
        norm = normalize(decoded)  # (an escaped full-width digit reads as a digit, as typed text does)
        for f in detect_excerpt(norm.text):
            a, b = norm.span(f.start, f.end)
            if b > a:  # (a plain value under an escaped label "\u624b\u673a" counts too)
                yield Finding(f.kind, origin[a][0], origin[b - 1][1])
