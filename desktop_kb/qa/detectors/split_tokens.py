"""A key written in pieces on neighbouring lines ("前半段：ghp_9lBh…" / "后半段：PLTq…").

People split a key to fit a line, or copy it in two halves; the half with the
prefix is found by its shape, the other is just a random string. A random
string alone on the line next to a found key, after at most a short label,
is the rest of that key.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from desktop_kb.qa.detectors.base import API_KEY, Finding, line_bounds, looks_random

_LABEL = r"(?:[^\n:：=]{0,12}[:：=][ \t]*)?"
_QUOTES = "\"'`"
# A line that holds only a token, perhaps after a label and inside quotes (a Python string
# continued on the next line: ``"sk-proj-…"`` / ``"…"``).
_TOKEN_LINE_RE = re.compile(rf"^[ \t]*{_LABEL}[{_QUOTES}]?(?P<v>[A-Za-z0-9+/=_-]{{12,200}})[{_QUOTES},)]*[ \t]*$")
_ONLY_LABEL_RE = re.compile(rf"^[ \t]*{_LABEL}[{_QUOTES}]?$")


def _token_on_line(text: str, start: int, end: int) -> Finding | None:
    m = _TOKEN_LINE_RE.match(text[start:end])
    if m is None or not looks_random(m.group("v"), min_len=12):
        return None
    return Finding(API_KEY, start + m.start("v"), start + m.end("v"))


def continued_tokens(text: str, findings: Iterable[Finding]) -> Iterator[Finding]:
    for f in findings:
        if f.kind != API_KEY:
            continue
        line_start, line_end = line_bounds(text, f.start)
        if not text[f.end:line_end].strip(" \t,)" + _QUOTES) and line_end < len(text):
            next_end = line_bounds(text, line_end + 1)[1]
            if (found := _token_on_line(text, line_end + 1, next_end)) is not None:
                yield found
        if _ONLY_LABEL_RE.match(text[line_start:f.start]) and line_start > 0:
            prev_start = line_bounds(text, line_start - 1)[0]
            if (found := _token_on_line(text, prev_start, line_start - 1)) is not None:
                yield found
