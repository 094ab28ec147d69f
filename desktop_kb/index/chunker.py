"""Split notes into retrievable chunks with exact offsets into the source.

Offsets are the contract: search hits, snippets and citations all point back
into the stored note by ``source[start:end]``, so nothing here ever rewrites
text — whitespace is trimmed by moving offsets, never by stripping strings.
Everything is a single forward pass with bounded look-back windows, so a
10 MB note chunks in linear time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Chunk", "chunk_markdown", "chunk_plain"]

DEFAULT_MAX_CHARS = 800


@dataclass(frozen=True)
class Chunk:
    """One chunk; invariant: ``text == source[start:end]``."""

    ord: int
    start: int
    end: int
    heading_path: str
    text: str


# Break candidates, best first. Whitespace-type breaks cut where the
# whitespace begins (m.start()); sentence breaks cut after the punctuation.
_PARA_RE = re.compile(r"\n[^\S\n]*\n")
_LINE_RE = re.compile(r"\n")
# CJK enders need no following space; Latin ones do (so "3.14", "e.g.x" stay
# whole). Closing quotes/brackets stay with their sentence.
_SENT_RE = re.compile(r"(?:[。！？；…]+|[.!?;]+(?=[\s\"'”’）)」』]|$))[\"'”’）)」』]*")
_SPACE_RE = re.compile(r"\s+")
_NONSPACE_RE = re.compile(r"\S")

# Markdown structure: ATX headings and code fences (≤3 spaces indent).
_BLOCK_RE = re.compile(
    r"^ {0,3}(?:(?P<hashes>#{1,6})(?=[ \t\r]|$)(?P<title>.*)|(?P<fence>`{3,}|~{3,})(?P<info>.*))$",
    re.M,
)
_CLOSING_HASHES_RE = re.compile(r"(?:^|[ \t])#+[ \t]*$")


def _last_break(
    pattern: re.Pattern[str], source: str, p: int, lo: int, hi: int, *, after: bool
) -> int:
    """Latest break position b with lo <= b <= hi, scanning from chunk start p; -1 if none.

    ``after`` selects m.end() (cut after punctuation) vs m.start() (cut where
    whitespace begins). One extra char is scanned so look-aheads see it.
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
    """Where to end a chunk starting at p that cannot reach the section end.

    Paragraph > line > sentence breaks, latest first, but only if they leave a
    chunk of at least a quarter of the budget; otherwise any such break; only
    then a mid-sentence cut at whitespace, and finally a hard cut.
    """
    for lo in (p + max(1, max_chars // 4), p + 1):
        if lo > limit:
            continue
        for pattern, after in ((_PARA_RE, False), (_LINE_RE, False), (_SENT_RE, True)):
            b = _last_break(pattern, source, p, lo, limit, after=after)
            if b > p:
                return b
    b = _last_break(_SPACE_RE, source, p, p + 1, limit, after=False)
    return b if b > p else limit


def _split_span(source: str, start: int, end: int, max_chars: int) -> list[tuple[int, int]]:
    """Whitespace-trimmed spans ≤ max_chars covering every non-space char of [start, end)."""
    spans: list[tuple[int, int]] = []
    m = _NONSPACE_RE.search(source, start, end)
    while m is not None:
        p = m.start()
        # Trailing whitespace of the section is trimmed once, up front.
        if end - p <= max_chars:
            e = p + len(source[p:end].rstrip())
            spans.append((p, e))
            break
        b = _find_break(source, p, p + max_chars, max_chars)
        e = p + len(source[p:b].rstrip())
        spans.append((p, e))
        m = _NONSPACE_RE.search(source, b, end)
    return spans


def _heading_title(raw: str) -> str:
    """ATX heading text without the optional closing #-sequence."""
    return _CLOSING_HASHES_RE.sub("", raw.strip()).strip()


def _sections(source: str) -> list[tuple[int, int, str]]:
    """(start, end, heading_path) sections, each starting at its heading line.

    Headings inside fenced code are ignored; an unclosed fence runs to the end
    of the document, as in CommonMark.
    """
    sections: list[tuple[int, int, str]] = []
    stack: list[tuple[int, str]] = []
    sec_start = 0
    path = ""
    fence: str | None = None
    for m in _BLOCK_RE.finditer(source):
        fence_tok = m.group("fence")
        if fence is not None:
            # Closing fence: same char, at least as long, nothing but space after.
            if (
                fence_tok
                and fence_tok[0] == fence[0]
                and len(fence_tok) >= len(fence)
                and not m.group("info").strip()
            ):
                fence = None
            continue
        if fence_tok:
            if fence_tok[0] == "`" and "`" in m.group("info"):
                continue  # not a fence per CommonMark (inline code run)
            fence = fence_tok
            continue
        level = len(m.group("hashes"))
        if m.start() > sec_start:
            sections.append((sec_start, m.start(), path))
        while stack and stack[-1][0] >= level:
            stack.pop()
        title = _heading_title(m.group("title"))
        if title:
            stack.append((level, title))
        path = " > ".join(t for _, t in stack)
        sec_start = m.start()
    if len(source) > sec_start:
        sections.append((sec_start, len(source), path))
    return sections


def _make_chunks(source: str, sections: list[tuple[int, int, str]], max_chars: int) -> list[Chunk]:
    if max_chars < 1:
        raise ValueError("max_chars must be >= 1")
    chunks: list[Chunk] = []
    for s, e, path in sections:
        for cs, ce in _split_span(source, s, e, max_chars):
            chunks.append(Chunk(len(chunks), cs, ce, path, source[cs:ce]))
    return chunks


def chunk_markdown(source: str, max_chars: int = DEFAULT_MAX_CHARS) -> list[Chunk]:
    """Heading-aware chunks: never across headings, so heading_path stays true."""
    return _make_chunks(source, _sections(source), max_chars)


def chunk_plain(
    source: str, max_chars: int = DEFAULT_MAX_CHARS, heading_path: str = ""
) -> list[Chunk]:
    """Chunks for text without structure: paragraphs, then lines, then sentences."""
    return _make_chunks(source, [(0, len(source), heading_path)], max_chars)
