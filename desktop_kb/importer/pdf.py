"""PDF import with pypdfium2 (PDFium's text layer, Apache-2.0/BSD-3-Clause).

Pages are read one at a time and closed, so a 1,000-page book stays within a
bounded amount of memory; progress ticks per page and Cancel is honoured
between pages.  Pages without a text layer (scans) are listed for OCR rather
than imported as nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from desktop_kb.importer.formats import generic_name
from desktop_kb.importer.model import PageProgress, SplitResult, UnreadableFile
from desktop_kb.importer.ocr import RENDER_DPI, OcrEngine
from desktop_kb.importer.pdf_layout import OutlineEntry, PageLine, PageText, blocks_from_pages
from desktop_kb.importer.structured import Block, build_document
from desktop_kb.text.fold import ideographs
from desktop_kb.text.sentences import sentence_spans

__all__ = ["MAX_PDF_PAGES", "PageProgress", "read_pdf"]

MAX_PDF_PAGES = 20_000

_MIN_TEXT_CHARS = 8  # fewer visible characters than this: treat the page as a scan
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_TITLE_CHARS = 80  # a first line longer than this is cut at a word for the title
_FILE_LIKE_TITLE = re.compile(r"(?i)^(microsoft (word|powerpoint) - )|\.(docx?|pdf|tex|pptx?|odt)$")



def _open(path: Path) -> pdfium.PdfDocument:
    try:
        return pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        message = str(exc)
        if "password" in message.lower():
            raise UnreadableFile("the PDF is password-protected; import an unprotected copy") from None
        raise UnreadableFile(f"not a readable PDF ({message.rstrip('.')})") from None
    except OSError as exc:
        raise UnreadableFile(f"the file cannot be read ({exc.strerror or exc})") from None


def _page_lines(page: pdfium.PdfPage) -> list[PageLine]:
    textpage = page.get_textpage()
    try:
        count = textpage.count_chars()
        if count <= 0:
            return []
        text = textpage.get_text_range(0, count)
        if len(text) != count:  # astral-plane text: offsets no longer map to char indices
            return [PageLine(ideographs(line.strip()), 0.0, 0.0, 0.0, 0.0, 0.0)
                    for line in _LINE_BREAK.split(text) if line.strip()]
        spans: list[tuple[int, int]] = []  # [first, last] char index of each text line
        pos = 0
        for m in [*_LINE_BREAK.finditer(text), None]:
            end = m.start() if m is not None else len(text)
            raw = text[pos:end]
            if raw.strip():
                spans.append((pos + len(raw) - len(raw.lstrip()), pos + len(raw.rstrip()) - 1))
            if m is None:
                break
            pos = m.end()
        # Loose boxes span a font's ascent to descent, so every glyph of a line has the
        # same height and gaps between lines can be compared (a tight box around "。"
        # says nothing about its line).
        boxes = [(textpage.get_charbox(a, loose=True), textpage.get_charbox(b, loose=True))
                 for a, b in spans]
        heights = sorted(min(t0, t1) - max(b0, b1) for (_, b0, _, t0), (_, b1, _, t1) in boxes)
        typical = heights[len(heights) // 2] if heights else 0.0
        lines: list[PageLine] = []
        left_edge, bottom_edge, right_edge, top_edge = page.get_cropbox()
        for (a, b), ((l0, b0, r0, t0), (l1, b1, r1, t1)) in zip(spans, boxes, strict=True):
            if min(b0, b1) >= top_edge or max(t0, t1) <= bottom_edge or \
                    min(l0, l1) >= right_edge or max(r0, r1) <= left_edge:
                continue  # off the visible page: text a writer clipped away (Qt repeats lines)
            if typical > 0 and max(t0, t1) - min(b0, b1) > 1.6 * typical:
                # PDFium put two visual lines in one (no break between them): split
                # where the characters' baseline moves.
                lines.extend(_split_visual_lines(textpage, text, a, b, typical))
                continue
            size = float(pdfium_c.FPDFText_GetFontSize(textpage.raw, a))
            lines.append(PageLine(ideographs(text[a:b + 1].strip()), min(l0, l1), max(r0, r1),
                                  max(t0, t1), min(b0, b1), size))
        return lines
    finally:
        textpage.close()


def _split_visual_lines(textpage: pdfium.PdfTextPage, text: str, first: int, last: int,
                        typical: float) -> list[PageLine]:
    out: list[PageLine] = []
    group_start = first
    box = textpage.get_charbox(first, loose=True)
    left, bottom, right, top = box

    def close(end: int) -> None:
        chunk = text[group_start:end + 1].strip()
        if chunk:
            size = float(pdfium_c.FPDFText_GetFontSize(textpage.raw, group_start))
            out.append(PageLine(ideographs(chunk), left, right, top, bottom, size))

    for i in range(first + 1, last + 1):
        if text[i].isspace():
            continue
        lft, b, r, t = textpage.get_charbox(i, loose=True)
        if abs(b - bottom) > 0.5 * typical:
            close(i - 1)
            group_start, left, bottom, right, top = i, lft, b, r, t
        else:
            left, right, top, bottom = min(left, lft), max(right, r), max(top, t), min(bottom, b)
    close(last)
    return out


def _outline(pdf: pdfium.PdfDocument, n_pages: int) -> list[OutlineEntry]:
    entries: list[OutlineEntry] = []
    try:
        for item in pdf.get_toc(max_depth=6):
            title = ideographs(" ".join((item.get_title() or "").split()))
            dest = item.get_dest()
            index = dest.get_index() if dest is not None else None
            if index is None or not (0 <= index < n_pages) or not title:
                continue
            top = None
            mode, pos = dest.get_view()
            if mode == pdfium_c.PDFDEST_VIEW_XYZ and len(pos) >= 2 and pos[1]:
                top = float(pos[1])
            entries.append(OutlineEntry(item.level + 1, title, index + 1, top))
    except (pdfium.PdfiumError, ValueError, TypeError):
        return []  # a broken outline is not worth losing the text for
    return entries


def _title(pdf: pdfium.PdfDocument, stem: str, blocks: list[Block], generic: bool) -> str:
    """The PDF's own title (metadata) when it is a real one, else the file's name.

    Not the first heading: in a book that is "Chapter 1", which names a chapter,
    not the book a person saved under a name of their choosing. But a name that says
    nothing ("notes.pdf", listed as "课程/notes") gives way to the first heading, else the
    first line, as a Word file's or a web page's does.
    """
    try:
        meta = " ".join((pdf.get_metadata_value("Title") or "").split())
    except (pdfium.PdfiumError, KeyError, ValueError):
        meta = ""
    if meta and not _FILE_LIKE_TITLE.search(meta) and len(meta) <= 200:
        return ideographs(meta)
    if generic:
        return _first_line(blocks) or stem
    return stem


def _first_line(blocks: list[Block]) -> str | None:
    """The first heading's text, else the first sentence of the text, cut at a word."""
    text = next((b.text for b in blocks if b.level and b.text.strip()), None) \
        or next((b.text for b in blocks if b.text.strip()), "")
    spans = sentence_spans(text, 0, len(text))
    if not spans:
        return None
    line = " ".join(text[spans[0][0]:spans[0][1]].split())
    if len(line) > _TITLE_CHARS:
        cut = line.rfind(" ", 0, _TITLE_CHARS)
        line = line[:cut if cut > _TITLE_CHARS // 2 else _TITLE_CHARS].rstrip() + "…"
    return line


def read_pdf(
    path: Path, stem: str, *, on_page: PageProgress | None = None, ocr: OcrEngine | None = None,
    ocr_ready: bool = False,
) -> SplitResult:
    """Text, headings and page numbers of a PDF.

    Without ``ocr``, pages with no text layer are listed in ``ocr_pages`` and
    left out; with it, they are recognised and joined in page order.  Raises
    UnreadableFile for encrypted or malformed files, and when no page has text
    and OCR is not installed (``ocr_ready``): an empty document helps nobody.
    ``on_page(done, total)`` may raise ``Cancelled`` to stop between pages.
    """
    pdf = _open(path)
    try:
        n_pages = len(pdf)
        if n_pages > MAX_PDF_PAGES:
            raise UnreadableFile(f"the PDF has {n_pages} pages; the limit is {MAX_PDF_PAGES}")
        pages: list[PageText] = []
        scanned: list[int] = []
        broken: list[int] = []
        for index in range(n_pages):
            try:
                page = pdf[index]
            except pdfium.PdfiumError:
                broken.append(index + 1)
                continue
            try:
                height = float(page.get_height())
                lines = _page_lines(page)
                if sum(len(ln.text) for ln in lines) < _MIN_TEXT_CHARS and _has_image(page):
                    if ocr is None:
                        scanned.append(index + 1)
                    else:
                        lines = _recognise(page, height, ocr) or lines
            except pdfium.PdfiumError:
                broken.append(index + 1)
                continue
            finally:
                page.close()
            pages.append(PageText(index + 1, height, lines))
            if on_page is not None:
                on_page(index + 1, n_pages)
        outline = _outline(pdf, n_pages)
        blocks = blocks_from_pages(pages, outline)
        title = _title(pdf, stem, blocks, generic_name(path))
    finally:
        pdf.close()
    if not any(b.text.strip() for b in blocks) and scanned and not ocr_ready:
        raise UnreadableFile(
            f"no text layer on any of its {n_pages} page(s) (a scan); install OCR to read it "
            "(desktop-kb ocr install, or Settings)")
    notes = []
    if broken:
        shown = ", ".join(map(str, broken[:5])) + (", …" if len(broken) > 5 else "")
        notes.append(f"{len(broken)} damaged page(s) could not be read (p. {shown})")
    if scanned:
        notes.append(f"{len(scanned)} page(s) without a text layer wait for OCR")
    return build_document(blocks, title, notes, ocr_pages=scanned)


def _has_image(page: pdfium.PdfPage) -> bool:
    """A page with pictures but (almost) no text is a scan; a blank page is just blank."""
    return next(iter(page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=2)),
                None) is not None


def _recognise(page: pdfium.PdfPage, height: float, ocr: OcrEngine) -> list[PageLine]:
    scale = RENDER_DPI / 72
    bitmap = page.render(scale=scale)
    try:
        image = bitmap.to_numpy()
        if image.ndim == 3 and image.shape[2] == 4:
            image = image[:, :, :3]
        lines = ocr.page_lines(image, height, scale)
    finally:
        bitmap.close()
    return [PageLine(ideographs(ln.text), ln.left, ln.right, ln.top, ln.bottom, ln.size)
            for ln in lines]
