"""Documents built by the tests themselves: PDFs (Qt's QPdfWriter, a CJK font, an
outline added with pypdf), image-only PDF pages, Word files (python-docx) and
EPUBs (zipfile).  Nothing here is downloaded or copied from elsewhere."""

from __future__ import annotations

import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

# A Latin font first: Qt falls back to a CJK font for Chinese (its PDFs then carry
# Kangxi radicals for 一, 页, 里 — as the issue saw), while Latin digits written with the
# CJK font itself get broken ToUnicode maps in Qt's PDFs.
FONT_FAMILY = "DejaVu Sans"


@dataclass(frozen=True)
class Para:
    text: str
    size: float = 11.0  # points; bigger for headings
    indent: bool = False


def _app() -> object:
    from PySide6.QtWidgets import QApplication

    return QApplication.instance() or QApplication([])


def write_pdf(
    path: Path, pages: Sequence[Sequence[Para | str]], *, header: str | None = None,
    page_numbers: bool = True, title: str | None = None,
) -> Path:
    """A text PDF, one list of paragraphs per page, with a running header and
    page numbers in the margins (what real books have and the importer drops)."""
    from PySide6.QtCore import QMarginsF, QRectF, Qt
    from PySide6.QtGui import QFont, QPageLayout, QPageSize, QPainter, QPdfWriter

    _app()
    writer = QPdfWriter(str(path))
    writer.setResolution(72)
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4),
                                     QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0)))
    if title:
        writer.setTitle(title)
    painter = QPainter(writer)
    width, height = 595.0, 842.0
    for number, paras in enumerate(pages, 1):
        if number > 1:
            writer.newPage()
        if header:
            painter.setFont(QFont(FONT_FAMILY, 8))
            painter.drawText(QRectF(60, 25, width - 120, 14), Qt.AlignmentFlag.AlignLeft, header)
        y = 70.0
        for item in paras:
            para = Para(item) if isinstance(item, str) else item
            painter.setFont(QFont(FONT_FAMILY, para.size))
            left = 60.0 + (22.0 if para.indent else 0.0)
            rect = QRectF(left, y, width - 60.0 - left, height - y - 60)
            flags = Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextWordWrap
            bounds = painter.boundingRect(rect, flags, para.text)
            painter.drawText(rect, flags, para.text)
            y += bounds.height() + para.size * 0.9
        if page_numbers:
            painter.setFont(QFont(FONT_FAMILY, 9))
            painter.drawText(QRectF(0, height - 40, width, 14), Qt.AlignmentFlag.AlignHCenter,
                             str(number))
    painter.end()
    return path


def write_flowed_pdf(path: Path, blocks: Sequence[tuple[str, str]]) -> Path:
    """Headings and paragraphs ((\"h2\" | \"p\", text)) flowed over A4 pages by Qt's own
    pagination (QTextDocument.print_), which also puts page numbers in the footer: the
    layout a word processor's PDF export has, paragraphs running across page breaks."""
    import html

    from PySide6.QtCore import QMarginsF
    from PySide6.QtGui import QFont, QPageLayout, QPageSize, QPdfWriter, QTextDocument

    _app()
    writer = QPdfWriter(str(path))
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4),
                                     QPageLayout.Orientation.Portrait, QMarginsF(20, 20, 20, 20)))
    doc = QTextDocument()
    doc.setDefaultFont(QFont(FONT_FAMILY, 10))
    doc.setHtml("".join(f"<{tag}>{html.escape(text)}</{tag}>" for tag, text in blocks))
    doc.print_(writer)
    return path


def write_image_pdf(path: Path, lines: Sequence[str], pages: int = 1) -> Path:
    """Pages that show text only as a picture (a scan): no text layer at all."""
    from PySide6.QtCore import QMarginsF, QRectF, Qt
    from PySide6.QtGui import QColor, QFont, QImage, QPageLayout, QPageSize, QPainter, QPdfWriter

    _app()
    image = QImage(1240, 1754, QImage.Format.Format_RGB32)  # A4 at 150 dpi
    image.fill(QColor("white"))
    img_painter = QPainter(image)
    img_painter.setPen(QColor("black"))
    img_painter.setFont(QFont(FONT_FAMILY, 28))
    y = 150
    for line in lines:
        img_painter.drawText(QRectF(120, y, 1000, 80), Qt.AlignmentFlag.AlignLeft, line)
        y += 90
    img_painter.end()
    writer = QPdfWriter(str(path))
    writer.setResolution(72)
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4),
                                     QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0)))
    painter = QPainter(writer)
    for n in range(pages):
        if n:
            writer.newPage()
        painter.drawImage(QRectF(0, 0, 595, 842), image)
    painter.end()
    return path


def add_outline(path: Path, entries: Sequence[tuple[int, str, int]]) -> Path:
    """Bookmarks (level 1.., title, 1-based page) added with pypdf (BSD), which Qt cannot write."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(str(path)))
    parents: dict[int, object] = {}
    for level, title, page in entries:
        parent = parents.get(level - 1)
        parents[level] = writer.add_outline_item(title=title, page_number=page - 1, parent=parent)
    with open(path, "wb") as fh:
        writer.write(fh)
    return path


def encrypt_pdf(path: Path, password: str) -> Path:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(str(path)))
    writer.encrypt(user_password=password, owner_password=password + "-owner")
    with open(path, "wb") as fh:
        writer.write(fh)
    return path


def write_docx(path: Path, items: Sequence[tuple[str, str]], *, title: str | None = None) -> Path:
    """items: ("h1".."h3", text) headings, ("p", text), ("li", text), ("table", "a|b;c|d")."""
    import docx

    document = docx.Document()
    if title:
        document.core_properties.title = title
    for kind, text in items:
        if kind.startswith("h"):
            document.add_heading(text, level=int(kind[1:]))
        elif kind == "li":
            document.add_paragraph(text, style="List Bullet")
        elif kind == "table":
            rows = [r.split("|") for r in text.split(";")]
            table = document.add_table(rows=len(rows), cols=len(rows[0]))
            for r, row in enumerate(rows):
                for c, cell in enumerate(row):
                    table.cell(r, c).text = cell
        else:
            document.add_paragraph(text)
    document.save(str(path))
    return path


_CONTAINER = """<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>"""


def write_epub(
    path: Path, chapters: Sequence[tuple[str, str]], *, title: str = "Book",
    spine_order: Sequence[int] | None = None, epub2: bool = False,
) -> Path:
    """chapters: (toc title, XHTML body); spine_order lists chapter indexes in reading order."""
    order = list(spine_order) if spine_order is not None else list(range(len(chapters)))
    manifest = "".join(
        f'<item id="c{i}" href="text/ch{i}.xhtml" media-type="application/xhtml+xml"/>'
        for i in range(len(chapters)))
    spine = "".join(f'<itemref idref="c{i}"/>' for i in order)
    if epub2:
        manifest += '<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>'
        spine_open = '<spine toc="ncx">'
    else:
        manifest += '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>'
        spine_open = "<spine>"
    opf = (f'<?xml version="1.0" encoding="utf-8"?><package xmlns="http://www.idpf.org/2007/opf" '
           f'version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
           f"<dc:title>{title}</dc:title></metadata><manifest>{manifest}</manifest>"
           f"{spine_open}{spine}</spine></package>")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("mimetype", "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        z.writestr("META-INF/container.xml", _CONTAINER)
        z.writestr("OEBPS/content.opf", opf)
        for i, (_, body) in enumerate(chapters):
            z.writestr(f"OEBPS/text/ch{i}.xhtml",
                       '<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml">'
                       f"<head><title>ch{i}</title></head><body>{body}</body></html>")
        if epub2:
            points = "".join(
                f'<navPoint id="p{i}"><navLabel><text>{t}</text></navLabel>'
                f'<content src="text/ch{i}.xhtml"/></navPoint>' for i, (t, _) in enumerate(chapters))
            z.writestr("OEBPS/toc.ncx", f'<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/"><navMap>{points}</navMap></ncx>')
        else:
            links = "".join(f'<li><a href="text/ch{i}.xhtml">{t}</a></li>'
                            for i, (t, _) in enumerate(chapters))
            z.writestr("OEBPS/nav.xhtml",
                       '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">'
                       f'<body><nav epub:type="toc"><ol>{links}</ol></nav></body></html>')
    return path


def zip_bomb(path: Path, member: str, size: int = 8 * 1024 * 1024) -> Path:
    """A small zip whose one member inflates to ``size`` bytes of zeros (ratio ~1000:1)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z, \
            z.open(member, "w", force_zip64=True) as fh:
        block = b"\0" * (1 << 20)
        for _ in range(size // len(block)):
            fh.write(block)
    return path
