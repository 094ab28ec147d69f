"""Shared machinery of the text splitters: trimming, paragraphs, packing, the size cap.

A *piece* is a raw ``(start, end, heading_path)`` span before trimming;
``finish`` turns pieces into numbered fragments, cutting oversized ones with
the same cutter the index uses (``text.cutting``).
"""

from __future__ import annotations

from desktop_kb.importer.model import FragmentSpec, SplitResult
from desktop_kb.text.cutting import cut_span
from desktop_kb.text.headings import with_part
from desktop_kb.text.markup_only import glue_markup_only

__all__ = [
    "MAX_FRAGMENT_CHARS", "PACK_CHARS", "Piece", "finish", "line_spans", "normalise_text",
    "paragraph_pieces", "paragraphs", "trim",
]

MAX_FRAGMENT_CHARS = 4000  # hard cap for any fragment, every format
PACK_CHARS = 1500  # short neighbours are packed together up to this size

Piece = tuple[int, int, str]


def normalise_text(text: str) -> str:
    """Strip leading BOMs and turn CRLF/CR into LF, so offsets mean one thing."""
    text = text.lstrip("\ufeff")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def line_spans(doc: str, start: int, end: int) -> list[tuple[int, int]]:
    """(line_start, line_end_excluding_newline) for lines in [start, end).

    Only ``\\n`` counts as a line break (matching Python's and YAML's view after
    normalisation; ``str.splitlines`` would also split on \\x0c, \\u2028, ...).
    """
    spans = []
    pos = start
    while pos < end:
        nl = doc.find("\n", pos, end)
        if nl < 0:
            spans.append((pos, end))
            break
        spans.append((pos, nl))
        pos = nl + 1
    return spans


def trim(doc: str, start: int, end: int) -> tuple[int, int] | None:
    """Drop leading blank lines and trailing whitespace; None if nothing is left.

    Indentation of the first real line is kept (code, and Chinese paragraphs
    indented with full-width spaces).
    """
    while end > start and doc[end - 1].isspace():
        end -= 1
    while start < end:
        nl = doc.find("\n", start, end)
        if nl < 0:
            break
        if doc[start:nl].strip():
            break
        start = nl + 1
    if start >= end or not doc[start:end].strip():
        return None
    return start, end


def paragraphs(doc: str, start: int, end: int) -> list[tuple[int, int]]:
    """Blank-line separated paragraphs in [start, end), untrimmed but non-blank."""
    paras = []
    para_start: int | None = None
    para_end = start
    for ls, le in line_spans(doc, start, end):
        if doc[ls:le].strip():
            if para_start is None:
                para_start = ls
            para_end = le
        elif para_start is not None:
            paras.append((para_start, para_end))
            para_start = None
    if para_start is not None:
        paras.append((para_start, para_end))
    return paras


def paragraph_pieces(doc: str, start: int, end: int, path: str) -> list[Piece]:
    """Paragraphs, with consecutive short ones packed up to ``PACK_CHARS``.

    Packing avoids a fragment per one-line paragraph; oversized paragraphs are
    left for the final cap to split at line/sentence boundaries.
    """
    pieces: list[Piece] = []
    group: tuple[int, int] | None = None
    for ps, pe in paragraphs(doc, start, end):
        if group is not None and pe - group[0] <= PACK_CHARS:
            group = (group[0], pe)
            continue
        if group is not None:
            pieces.append((group[0], group[1], path))
        group = (ps, pe)
    if group is not None:
        pieces.append((group[0], group[1], path))
    return pieces


def _cap(doc: str, start: int, end: int) -> list[tuple[int, int]]:
    """Cut an oversized piece; each part keeps its first line's indentation (code).

    A part that would be nothing but markup (a chapter's closing link definitions)
    stays with its neighbour instead (``text.markup_only``).
    """
    parts = []
    spans = cut_span(doc, start, end, MAX_FRAGMENT_CHARS)
    for ps, pe in glue_markup_only(doc, spans, 2 * MAX_FRAGMENT_CHARS):
        line_start = max(doc.rfind("\n", start, ps) + 1, start)
        if not doc[line_start:ps].strip() and pe - line_start <= MAX_FRAGMENT_CHARS:
            ps = line_start
        parts.append((ps, pe))
    return parts


def finish(doc: str, title: str, pieces: list[Piece], notes: list[str]) -> SplitResult:
    """Trim, drop blank pieces, cap oversized ones, and number the fragments."""
    frags: list[FragmentSpec] = []
    capped = 0
    for start, end, path in pieces:
        trimmed = trim(doc, start, end)
        if trimmed is None:
            continue
        s, e = trimmed
        parts = [(s, e)] if e - s <= MAX_FRAGMENT_CHARS else _cap(doc, s, e)
        if len(parts) > 1:
            capped += 1
        for k, (ps, pe) in enumerate(parts, 1):
            part_path = with_part(path, k) if len(parts) > 1 else path
            frags.append(FragmentSpec(len(frags), part_path, doc[ps:pe], ps, pe))
    if capped:
        notes = [*notes, f"{capped} passage(s) longer than {MAX_FRAGMENT_CHARS} "
                         "characters were split into parts"]
    return SplitResult(doc_text=doc, title=title, fragments=frags, notes=notes)
