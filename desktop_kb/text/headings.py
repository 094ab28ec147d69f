"""The one heading model: headings, heading paths and sections.

Markdown notes, imported Markdown and the structured formats (PDF outlines,
DOCX heading styles, EPUB chapters, HTML ``<h1>``–``<h6>``) all describe a
document as headings with levels; this module turns them into heading paths
("Install > Docker > Compose") and sections with exact offsets.

A heading with no text under it before the next heading is never a section of
its own: it is context for the section below, so it is folded into that
section (or, at the very end of a document, into the one above).  A bare
heading as a search hit or citation tells the reader nothing.  So does a
preamble of nothing but markup (link definitions, ``{{#include}}`` directives:
``text.markup_only``): it is folded into the first section too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from desktop_kb.text.markup_only import is_markup_only

__all__ = [
    "PATH_SEPARATOR", "Heading", "HeadingStack", "Section", "front_matter_end", "heading_title",
    "below_title", "markdown_headings", "sections", "split_part", "with_part",
]

PATH_SEPARATOR = " > "
# A section too long for one passage is cut into numbered parts; the number ends its path.
# Stored words, not display: the window shows them in its language (``ui/locator_text``).
_PART_RE = re.compile(r"(?:^| )\(part (\d+)\)$")


def with_part(path: str, k: int) -> str:
    """The heading path of part ``k`` of a section cut into parts."""
    return f"{path} (part {k})".strip()


def split_part(path: str) -> tuple[str, int | None]:
    """``("A > B", 2)`` for ``"A > B (part 2)"``; a path without a part number comes back whole."""
    match = _PART_RE.search(path)
    if match is None:
        return path, None
    return path[:match.start()], int(match.group(1))

def below_title(title: str, path: str) -> str:
    """``path`` without a first heading that only repeats the document's ``title`` (a book
    chapter's H1 is its title): "附录 A：关键字 > 原始标识符" under "附录 A：关键字" is
    "原始标识符". A part number stays at the end."""
    base, part = split_part(path)
    parts = base.split(PATH_SEPARATOR) if base else []
    if parts and parts[0].strip() == title.strip():
        parts = parts[1:]
    rest = PATH_SEPARATOR.join(parts)
    return with_part(rest, part) if part is not None else rest


# ATX headings and code fences at ≤3 spaces of indent, one regex pass.
_BLOCK_RE = re.compile(
    r"^ {0,3}(?:(?P<hashes>#{1,6})(?=[ \t\r]|$)(?P<title>.*)|(?P<fence>`{3,}|~{3,})(?P<info>.*))$",
    re.M,
)
_FRONT_OPEN = re.compile(r"---[ \t]*\r?")
_FRONT_CLOSE = re.compile(r"(?:---|\.\.\.)[ \t]*\r?")


@dataclass(frozen=True)
class Heading:
    """A heading line: ``source[start:end]`` is the whole line (no newline)."""

    start: int
    end: int
    level: int
    title: str


@dataclass(frozen=True)
class Section:
    """``source[start:end]``, starting at its heading line (or at 0 for a preamble)."""

    start: int
    end: int
    heading_path: str


class HeadingStack:
    """Running heading path: pushing a level-n heading pops every heading at level ≥ n."""

    def __init__(self) -> None:
        self._stack: list[tuple[int, str]] = []

    def push(self, level: int, title: str) -> str:
        while self._stack and self._stack[-1][0] >= level:
            self._stack.pop()
        if title:
            self._stack.append((level, title))
        return self.path

    @property
    def path(self) -> str:
        return PATH_SEPARATOR.join(t for _, t in self._stack)


def heading_title(raw: str) -> str:
    """ATX heading text without its optional closing ``#`` run.

    String operations, not a regex: a line of 10^5 '#' and spaces must not
    backtrack.
    """
    text = raw.strip(" \t\r")
    if text.endswith("#"):
        bare = text.rstrip("#")
        if not bare or bare[-1] in " \t":
            text = bare.rstrip(" \t")
    return text.strip()


def markdown_headings(source: str, start: int = 0) -> list[Heading]:
    """ATX headings outside fenced code, from ``start`` on.

    Fences follow CommonMark: closed by the same character at least as long
    with nothing after it; a backtick fence whose info string holds a backtick
    is inline code, not a fence; an unclosed fence runs to the end.
    """
    headings: list[Heading] = []
    fence: str | None = None
    for m in _BLOCK_RE.finditer(source, start):
        fence_tok = m.group("fence")
        if fence is not None:
            if (fence_tok and fence_tok[0] == fence[0] and len(fence_tok) >= len(fence)
                    and not m.group("info").strip()):
                fence = None
            continue
        if fence_tok:
            if fence_tok[0] == "`" and "`" in m.group("info"):
                continue
            fence = fence_tok
            continue
        headings.append(Heading(m.start(), m.end(), len(m.group("hashes")),
                                heading_title(m.group("title"))))
    return headings


def front_matter_end(source: str) -> int:
    """Offset just past a leading YAML front-matter block (``---`` … ``---``), or 0."""
    first_nl = source.find("\n")
    if first_nl < 0 or not _FRONT_OPEN.fullmatch(source[:first_nl]):
        return 0
    pos = first_nl + 1
    while pos < len(source):
        nl = source.find("\n", pos)
        line_end = len(source) if nl < 0 else nl
        if _FRONT_CLOSE.fullmatch(source[pos:line_end]):
            return line_end
        pos = line_end + 1
    return 0  # unclosed: a thematic break, not front matter


def _blank(source: str, start: int, end: int) -> bool:
    return start >= end or source[start:end].isspace()


def sections(
    source: str, headings: Sequence[Heading], start: int = 0, end: int | None = None,
) -> list[Section]:
    """Sections of ``source[start:end]`` split at ``headings`` (sorted, inside the range).

    The text before the first heading is a section with an empty path (if it
    is neither blank nor markup only).  Heading-only sections are folded into the next section, or
    into the previous one at the end of the document.
    """
    end = len(source) if end is None else end
    out: list[Section] = []
    if not headings:
        return [Section(start, end, "")] if not _blank(source, start, end) else []
    pending: int | None = None  # start of heading-only sections waiting for a body
    if not _blank(source, start, headings[0].start):
        if is_markup_only(source[start:headings[0].start]):
            pending = start
        else:
            out.append(Section(start, headings[0].start, ""))
    stack = HeadingStack()
    for i, h in enumerate(headings):
        path = stack.push(h.level, h.title)
        sec_end = headings[i + 1].start if i + 1 < len(headings) else end
        sec_start = h.start if pending is None else pending
        if _blank(source, h.end, sec_end):
            if pending is None:
                pending = h.start
            continue
        out.append(Section(sec_start, sec_end, path))
        pending = None
    if pending is not None:
        if out and out[-1].end == pending:
            last = out.pop()
            out.append(Section(last.start, end, last.heading_path))
        else:  # nothing but headings: keep them, they are all there is
            out.append(Section(pending, end, stack.path))
    return out
