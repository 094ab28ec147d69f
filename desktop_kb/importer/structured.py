"""Documents that arrive as a sequence of blocks: PDF, DOCX, EPUB, HTML.

Their parsers produce headings and paragraphs (with page numbers for PDF);
this module writes them into one document text — blocks separated by a blank
line, headings on their own line — and cuts fragments from it with the shared
heading model: a fragment never spans two sections, short paragraphs are
packed together, and a PDF fragment does not run past its page unless one
paragraph does.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

from desktop_kb.importer.model import FragmentSpec, SplitResult
from desktop_kb.importer.pieces import PACK_CHARS, Piece, finish
from desktop_kb.text.headings import Heading, sections

__all__ = ["Block", "build_document"]


@dataclass(frozen=True)
class Block:
    """A paragraph (``level`` 0) or a heading (``level`` 1–6); ``page`` is 1-based."""

    text: str
    level: int = 0
    page: int | None = None
    page_end: int | None = None  # a paragraph that runs onto the next page


def build_document(
    blocks: Sequence[Block], title: str, notes: Sequence[str] = (),
    ocr_pages: Sequence[int] = (),
) -> SplitResult:
    parts: list[str] = []
    spans: list[tuple[int, int, Block]] = []
    pos = 0
    for block in blocks:
        text = block.text.strip()
        if not text:
            continue
        if parts:
            parts.append("\n\n")
            pos += 2
        spans.append((pos, pos + len(text), block))
        parts.append(text)
        pos += len(text)
    doc = "".join(parts)
    headings = [Heading(s, e, min(max(b.level, 1), 6), " ".join(doc[s:e].split()))
                for s, e, b in spans if b.level]
    pieces: list[Piece] = []
    starts = [s for s, _, _ in spans]
    for sec in sections(doc, headings):
        lo = bisect.bisect_left(starts, sec.start)
        hi = bisect.bisect_left(starts, sec.end)
        pieces.extend(_pack(spans[lo:hi], sec.heading_path))
    result = finish(doc, title, pieces, list(notes))
    pages = [b.page for _, _, b in spans]
    if any(p is not None for p in pages):
        result = SplitResult(result.doc_text, result.title,
                             [_with_pages(f, starts, spans) for f in result.fragments],
                             result.notes)
    return SplitResult(result.doc_text, result.title, result.fragments, result.notes,
                       tuple(sorted(set(ocr_pages))))


def _pack(spans: Sequence[tuple[int, int, Block]], path: str) -> list[Piece]:
    """Consecutive blocks packed up to PACK_CHARS; a new page starts a new piece.

    Headings never end a piece: they stay with the text that follows them.
    """
    pieces: list[Piece] = []
    group: list[tuple[int, int, Block]] = []
    for span in spans:
        if group:
            has_body = any(not b.level for _, _, b in group)
            too_long = span[1] - group[0][0] > PACK_CHARS
            new_page = span[2].page != group[-1][2].page
            if has_body and (too_long or new_page):
                pieces.append((group[0][0], group[-1][1], path))
                group = []
        group.append(span)
    if group:
        pieces.append((group[0][0], group[-1][1], path))
    return pieces


def _with_pages(
    frag: FragmentSpec, starts: list[int], spans: list[tuple[int, int, Block]],
) -> FragmentSpec:
    first = spans[max(bisect.bisect_right(starts, frag.start) - 1, 0)][2].page
    block = spans[max(bisect.bisect_right(starts, frag.end - 1) - 1, 0)][2]
    last = block.page_end or block.page
    return FragmentSpec(frag.ord, frag.heading_path, frag.text, frag.start, frag.end,
                        page=first, page_end=last if last is not None else first)
