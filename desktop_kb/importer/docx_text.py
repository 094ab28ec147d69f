"""Word (.docx) import with python-docx (MIT): headings become heading paths,
list items and tables become text, in document order.

The archive is checked by ``SafeZip`` before python-docx opens it, so a zip
bomb is refused with a reason instead of filling memory.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

from desktop_kb.importer.model import SplitResult, UnreadableFile
from desktop_kb.importer.safe_zip import SafeZip
from desktop_kb.importer.structured import Block, build_document

__all__ = ["read_docx"]

_HEADING_STYLE = re.compile(r"(?i)^(?:heading|标题|標題)\s*(\d)$")
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def _level(paragraph: object) -> int:
    """Heading level from the style name ("Heading 2", "标题 2", "Title") or the
    paragraph's outline level; 0 for body text."""
    style = getattr(paragraph, "style", None)
    name = (getattr(style, "name", "") or "").strip()
    if name.lower() == "title":
        return 1
    m = _HEADING_STYLE.match(name)
    if m:
        return max(1, min(int(m.group(1)), 6))
    ppr = paragraph._p.pPr  # type: ignore[attr-defined]
    if ppr is not None:
        outline = ppr.find(f"{_W}outlineLvl")
        if outline is not None:
            try:
                value = int(outline.get(f"{_W}val", "9"))
            except ValueError:
                value = 9
            if value < 6:
                return value + 1
    return 0


def _is_list_item(paragraph: object) -> bool:
    ppr = paragraph._p.pPr  # type: ignore[attr-defined]
    return ppr is not None and ppr.find(f"{_W}numPr") is not None or (
        "list" in (getattr(getattr(paragraph, "style", None), "name", "") or "").lower())


def read_docx(path: Path, stem: str) -> SplitResult:
    with SafeZip(path, "Word document") as archive:
        if "word/document.xml" not in archive.names():
            raise UnreadableFile("not a Word document (no word/document.xml)")
    import docx  # imported here: only people who import Word files pay for it
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    try:
        document = docx.Document(str(path))
    except (ValueError, KeyError, zipfile.BadZipFile, OSError) as exc:
        raise UnreadableFile(f"not a readable Word document ({type(exc).__name__}: {exc})") from None
    except Exception as exc:  # lxml errors on damaged XML, python-docx package errors
        raise UnreadableFile(f"not a readable Word document ({type(exc).__name__})") from None
    blocks: list[Block] = []
    for item in document.iter_inner_content():
        if isinstance(item, Paragraph):
            text = item.text.strip()
            if not text:
                continue
            level = _level(item)
            if not level and _is_list_item(item):
                text = f"- {text}"
            blocks.append(Block(text, level))
        elif isinstance(item, Table):
            rows = []
            for row in item.rows:
                cells = []
                for cell in row.cells:
                    value = " ".join(cell.text.split())
                    if value and (not cells or cells[-1] != value):  # merged cells repeat
                        cells.append(value)
                if cells:
                    rows.append(" | ".join(cells))
            if rows:
                blocks.append(Block("\n".join(rows)))
    core_title = (document.core_properties.title or "").strip()
    first_heading = next((b.text for b in blocks if b.level), None)
    return build_document(blocks, core_title or first_heading or stem)
