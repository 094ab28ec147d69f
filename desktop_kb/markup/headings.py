"""A note's headings, for the outline and for following ``[[title#heading]]``.

ATX headings (``# …`` to ``###### …``) and Setext headings (a line underlined
with ``===`` or ``---``) outside code fences, with the offset where each starts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from desktop_kb.markup.literal import LiteralMask, code_spans
from desktop_kb.markup.titles import title_key

_ATX_RE = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT_RE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_LIST_OR_QUOTE_RE = re.compile(r"^ {0,3}(?:[-*+>]|\d+[.)])(?:\s|$)")


@dataclass(frozen=True)
class Heading:
    level: int  # 1..6
    title: str
    start: int  # offset of the heading line in the text


def outline(text: str) -> list[Heading]:
    code = LiteralMask(code_spans(text))
    headings: list[Heading] = []
    pos = 0
    previous: tuple[int, str] | None = None  # (offset, line) of a paragraph line
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        in_code = code.covers(pos)
        atx = None if in_code else _ATX_RE.match(body)
        setext = None if in_code else _SETEXT_RE.match(body)
        if atx and (atx.group(2) or "").strip():
            headings.append(Heading(len(atx.group(1)), atx.group(2).strip(), pos))
            previous = None
        elif setext and previous is not None:
            headings.append(Heading(1 if setext.group(1)[0] == "=" else 2, previous[1].strip(), previous[0]))
            previous = None
        elif body.strip() and not in_code and not _LIST_OR_QUOTE_RE.match(body) and not body.startswith(("    ", "\t")):
            previous = (pos, body) if previous is None else previous
        else:
            previous = None
        pos += len(line)
    return headings


def find_heading(text: str, heading: str) -> Heading | None:
    """The first heading whose title matches (case- and width-insensitively)."""
    wanted = title_key(heading)
    return next((h for h in outline(text) if title_key(h.title) == wanted), None)
