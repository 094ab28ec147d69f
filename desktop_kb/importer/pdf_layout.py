"""From the lines on PDF pages to paragraphs and headings (pure; no PDF library here).

PDF text layers hold positioned lines, not paragraphs.  This module drops the
lines that repeat at the top or bottom of pages (running headers, footers,
page numbers), finds paragraph breaks from the geometry (a larger gap, an
indented first line, a short line ending a sentence, a change of font size),
joins lines — undoing end-of-line hyphenation in Latin text and joining CJK
lines without a space — and places headings from the outline (bookmarks),
or, when the PDF has none, from clearly larger type.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from desktop_kb.importer.structured import Block
from desktop_kb.text.han import HAN_CHARS
from desktop_kb.text.sentences import ends_sentence

__all__ = ["OutlineEntry", "PageLine", "PageText", "blocks_from_pages", "join_lines"]


@dataclass(frozen=True)
class PageLine:
    """One text line; coordinates in PDF units with y growing upwards."""

    text: str
    left: float
    right: float
    top: float
    bottom: float
    size: float = 0.0  # font size of the line's first character, 0 if unknown


@dataclass(frozen=True)
class PageText:
    number: int  # 1-based
    height: float
    lines: list[PageLine]


@dataclass(frozen=True)
class OutlineEntry:
    """A bookmark: ``level`` 1 is top level; ``top`` is where it points on the page, if known."""

    level: int
    title: str
    page: int
    top: float | None = None


_EDGE_FRACTION = 0.12  # headers and footers live in the top/bottom 12 % of a page
_PAGE_NUMBER = re.compile(
    r"[-–—·\s]*(?:(?:page|p\.)\s*)?(?:\d{1,4}|[ivxlcdm]{1,7})(?:\s*(?:/|of)\s*\d{1,4})?[-–—·\s]*"
    r"|第\s*\d{1,4}\s*页(?:\s*/?\s*共\s*\d{1,4}\s*页)?",
    re.IGNORECASE,
)
_DIGITS = re.compile(r"\d+")
# Text that is written without spaces: radicals, CJK punctuation, kana, Han, full-width forms.
_CJK = re.compile(f"[\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff{HAN_CHARS}\uff00-\uffef]")
_LATIN_LETTER = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿ]")


def _gap(a: PageLine, b: PageLine) -> float:
    """White space between two lines, whichever is above."""
    upper, lower = (a, b) if a.top >= b.top else (b, a)
    return upper.bottom - lower.top


def _apart(pages: Sequence[PageText]) -> float:
    """How much white space sets a margin line apart from the body.

    Measured on the body's own line spacing (pairs of lines outside the margins) over
    the whole document: a page with three lines has no spacing of its own, and the gaps
    under the running heads themselves must not count as "normal" spacing.
    """
    gaps: list[float] = []
    heights: list[float] = []
    for page in pages:
        band = page.height * _EDGE_FRACTION
        body = [ln for ln in sorted(page.lines, key=lambda ln: -ln.top)
                if ln.top < page.height - band and ln.bottom > band]
        gaps.extend(g for a, b in zip(body, body[1:], strict=False) if (g := _gap(a, b)) >= 0)
        heights.extend(ln.top - ln.bottom for ln in body)
    spacing = statistics.median(gaps) if gaps else 0.0
    return max(2 * spacing, 0.6 * statistics.median(heights)) if heights else 0.0


def _edge_lines(page: PageText, apart: float) -> list[PageLine]:
    """The top-most and bottom-most lines that sit in the page margins, set apart from the
    body by more than ``apart`` (a running head has white space under it; the first line
    of body text does not)."""
    if not page.lines:
        return []
    by_top = sorted(page.lines, key=lambda ln: -ln.top)
    band = page.height * _EDGE_FRACTION
    picked: list[PageLine] = []
    for lines in (by_top[:3], by_top[::-1][:3]):  # from the top down, from the bottom up
        for i, line in enumerate(lines[:2]):
            in_margin = line.top >= page.height - band or line.bottom <= band
            inner = lines[i + 1] if i + 1 < len(lines) else None
            if not in_margin or (inner is not None and not _is_page_number(line.text)
                                 and _gap(line, inner) < apart):
                break
            picked.append(line)
    return list(dict.fromkeys(picked))


def _is_page_number(text: str) -> bool:
    return _PAGE_NUMBER.fullmatch(text.strip()) is not None


def _key(text: str) -> str:
    return _DIGITS.sub("#", " ".join(text.split())).casefold()


def running_lines(pages: Sequence[PageText], body_size: float = 0.0) -> set[tuple[int, int]]:
    """(page number, line index) of headers, footers and page numbers to drop.

    A margin line is dropped when it is a bare page number, or when the same
    text (digits ignored) sits in the margins of at least three pages and
    either of a third of all pages or of a neighbouring page (running chapter
    titles change every few dozen pages).  Lines set larger than the body text
    are headings ("Chapter 3 …" at the top of each chapter), not running heads.
    """
    seen: dict[str, set[int]] = {}
    edges: list[tuple[PageText, PageLine]] = []
    apart = _apart(pages)
    for page in pages:
        for line in _edge_lines(page, apart):
            edges.append((page, line))
            seen.setdefault(_key(line.text), set()).add(page.number)
    drop: set[tuple[int, int]] = set()
    n_pages = max(len(pages), 1)
    for page, line in edges:
        on = seen[_key(line.text)]
        near = any(abs(other - page.number) <= 2 and other != page.number for other in on)
        heading_sized = bool(body_size and line.size > body_size * 1.15)
        repeated = len(on) >= 3 and (len(on) >= n_pages / 3 or near) and not heading_sized
        if repeated or _is_page_number(line.text):
            drop.add((page.number, page.lines.index(line)))
    return drop


def join_lines(prev: str, nxt: str) -> str:
    """Join two lines of one paragraph.

    "func-" + "tion" → "function" (a Latin word broken at the line end; PDFium
    marks such breaks with U+FFFE); CJK + CJK → no space; otherwise one space.
    """
    if not prev:
        return nxt
    if not nxt:
        return prev
    a, b = prev[-1], nxt[0]
    if a in "-\u00ad\ufffe" and len(prev) >= 2 and _LATIN_LETTER.match(prev[-2]) and b.islower():
        return prev[:-1] + nxt
    if _CJK.match(a) and _CJK.match(b):
        return prev + nxt
    return prev + " " + nxt


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _clean(text: str) -> str:
    # PDFium reports a hyphen it already joined across a line break as U+FFFE.
    text = re.sub(r"(?<=[A-Za-z])\ufffe(?=[a-z])", "", text)
    # Control characters come from broken font maps: nothing a reader could use.
    text = _CONTROL.sub("", text)
    return " ".join(text.replace("\ufffe", "-").split())


@dataclass
class _Para:
    lines: list[PageLine]
    page: int
    heading: int = 0


def _median(values: list[float], default: float) -> float:
    return statistics.median(values) if values else default


def _paragraphs(page: PageText, lines: list[PageLine], body_size: float) -> list[_Para]:
    if not lines:
        return []
    heights = [ln.top - ln.bottom for ln in lines if ln.top > ln.bottom]
    line_h = _median(heights, 10.0)
    gaps = [a.bottom - b.top for a, b in zip(lines, lines[1:], strict=False)
            if 0 <= a.bottom - b.top < 3 * line_h]
    gap = _median(gaps, line_h * 0.3)
    left = _median([ln.left for ln in lines], 0.0)
    right = max(ln.right for ln in lines)
    paras: list[_Para] = []
    for i, line in enumerate(lines):
        if i == 0:
            paras.append(_Para([line], page.number))
            continue
        prev = lines[i - 1]
        space = prev.bottom - line.top
        breaks = (
            space > max(gap * 1.8, gap + 0.5 * line_h)
            or space < -line_h  # moved up: a new column or a new flow
            or line.left > left + 1.2 * line_h  # indented first line
            or (ends_sentence(prev.text) and prev.right < right - 2.5 * line_h)
            or _size_changed(prev, line, body_size)
        )
        if breaks:
            paras.append(_Para([line], page.number))
        else:
            paras[-1].lines.append(line)
    return paras


def _size_changed(a: PageLine, b: PageLine, body: float) -> bool:
    if not (a.size and b.size and body):
        return False
    return (a.size > body * 1.2) != (b.size > body * 1.2) or abs(a.size - b.size) > body * 0.25


def _text(para: _Para) -> str:
    text = ""
    for line in para.lines:
        text = join_lines(text, _clean(line.text))
    return text


def blocks_from_pages(
    pages: Sequence[PageText], outline: Sequence[OutlineEntry] = (),
) -> list[Block]:
    """Paragraph and heading blocks in reading order, page numbers kept."""
    sizes = [ln.size for p in pages for ln in p.lines if ln.size]
    body_size = Counter(round(s, 1) for s in sizes).most_common(1)[0][0] if sizes else 0.0
    drop = running_lines(pages, body_size)
    by_page: dict[int, list[OutlineEntry]] = {}
    for entry in outline:
        by_page.setdefault(entry.page, []).append(entry)
    heading_sizes = _heading_sizes(pages, body_size) if not outline else {}
    blocks: list[Block] = []
    for page in pages:
        lines = [ln for i, ln in enumerate(page.lines) if (page.number, i) not in drop]
        paras = _paragraphs(page, lines, body_size)
        if heading_sizes:
            for para in paras:
                size = para.lines[0].size
                level = heading_sizes.get(round(size, 1), 0)
                if level and len(para.lines) <= 3 and len(_text(para)) <= 80:
                    para.heading = level
        entries = by_page.get(page.number, [])
        blocks.extend(_place_outline(paras, entries, page.number))
    return _join_across_pages(blocks)


def _heading_sizes(pages: Sequence[PageText], body: float) -> dict[float, int]:
    """Font sizes clearly above the body size, largest first → levels 1, 2, 3."""
    if not body:
        return {}
    bigger = sorted({round(ln.size, 1) for p in pages for ln in p.lines
                     if ln.size >= body * 1.2}, reverse=True)
    return {size: min(i + 1, 3) for i, size in enumerate(bigger[:3])}


def _norm(text: str) -> str:
    return re.sub(r"\s+", "", text).casefold()


def _place_outline(paras: list[_Para], entries: list[OutlineEntry], page: int) -> list[Block]:
    """Headings from bookmarks: the paragraph that *is* the bookmark's title becomes the
    heading; otherwise the title is inserted where the bookmark points (top of page if unknown)."""
    blocks = [Block(_text(p), p.heading, p.page) for p in paras]
    tops = [p.lines[0].top for p in paras]
    inserted = 0
    for entry in entries:
        target = _norm(entry.title)
        match = next((i for i, b in enumerate(blocks)
                      if not b.level and target and _norm(b.text) == target), None)
        if match is not None:
            blocks[match] = Block(blocks[match].text, entry.level, page)
            continue
        at = 0
        if entry.top is not None:
            at = sum(1 for t in tops if t > entry.top + 1)
        blocks.insert(min(at + inserted, len(blocks)), Block(entry.title, entry.level, page))
        inserted += 1
    return blocks


def _join_across_pages(blocks: list[Block]) -> list[Block]:
    """A paragraph cut by a page break continues on the next page: join them,
    keeping the first page (a citation points where the passage starts)."""
    out: list[Block] = []
    for block in blocks:
        if (out and not block.level and not out[-1].level and block.page != out[-1].page
                and out[-1].page_end in (None, out[-1].page)  # one page break per paragraph
                and out[-1].text and not ends_sentence(out[-1].text)
                and block.text and not block.text[0].isupper()):
            prev = out.pop()
            out.append(Block(join_lines(prev.text, block.text), 0, prev.page,
                             page_end=block.page_end or block.page))
            continue
        out.append(block)
    return out
