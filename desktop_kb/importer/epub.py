"""EPUB import: chapters in spine order, chapter titles as headings.

An EPUB is a zip of XHTML chapters plus a package file (OPF) that lists them
in reading order (the spine) and a table of contents (EPUB 3 ``nav`` or
EPUB 2 NCX) that names them.  zipfile + ElementTree + the HTML extractor is
all it takes (no ebooklib: AGPL).  Every member is read through ``SafeZip``.
"""

from __future__ import annotations

import posixpath
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import unquote

from desktop_kb.importer.html_text import html_blocks
from desktop_kb.importer.model import SplitResult, UnreadableFile
from desktop_kb.importer.safe_zip import SafeZip
from desktop_kb.importer.structured import Block, build_document

__all__ = ["read_epub"]

_CONTAINER = "META-INF/container.xml"
_XHTML_TYPES = ("application/xhtml+xml", "text/html", "application/x-dtbook+xml")


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _xml(data: bytes, what: str) -> ET.Element:
    try:
        return ET.fromstring(data)
    except ET.ParseError as exc:
        raise UnreadableFile(f"EPUB {what} is not valid XML ({exc})") from None


def _decode(data: bytes) -> str:
    for codec in ("utf-8-sig", "utf-16"):
        try:
            return data.decode(codec)
        except UnicodeDecodeError:
            continue
    return data.decode("utf-8", "replace")


def _toc_titles(book: SafeZip, opf_dir: str, manifest: dict[str, tuple[str, str, str]],
                nav_href: str | None, ncx_href: str | None) -> dict[str, str]:
    """Chapter file → title from the table of contents (first entry per file wins)."""
    titles: dict[str, str] = {}
    try:
        if nav_href:
            root = _xml(book.read(nav_href), "navigation")
            base = posixpath.dirname(nav_href)
            for a in root.iter():
                if _local(a.tag) == "a" and a.get("href"):
                    target = _resolve(base, a.get("href", ""))
                    text = " ".join("".join(a.itertext()).split())
                    if text:
                        titles.setdefault(target, text)
        elif ncx_href:
            root = _xml(book.read(ncx_href), "table of contents")
            base = posixpath.dirname(ncx_href)
            for point in root.iter():
                if _local(point.tag) != "navPoint":
                    continue
                label = next((" ".join("".join(e.itertext()).split()) for e in point.iter()
                              if _local(e.tag) == "text"), "")
                content = next((e.get("src", "") for e in point if _local(e.tag) == "content"), "")
                if label and content:
                    titles.setdefault(_resolve(base, content), label)
    except UnreadableFile:
        return {}  # a broken table of contents only costs chapter titles
    return titles


def _resolve(base: str, href: str) -> str:
    return posixpath.normpath(posixpath.join(base, unquote(href.split("#", 1)[0])))


def read_epub(path: Path, stem: str) -> SplitResult:
    with SafeZip(path, "EPUB") as book:
        if _CONTAINER not in book.names():
            raise UnreadableFile("not an EPUB (no META-INF/container.xml)")
        container = _xml(book.read(_CONTAINER), "container")
        opf_path = next((e.get("full-path", "") for e in container.iter()
                         if _local(e.tag) == "rootfile"), "")
        if not opf_path:
            raise UnreadableFile("EPUB names no package file")
        opf = _xml(book.read(opf_path), "package file")
        opf_dir = posixpath.dirname(opf_path)
        manifest: dict[str, tuple[str, str, str]] = {}  # id -> (href, media type, properties)
        spine: list[str] = []
        ncx_id = None
        title = ""
        for el in opf.iter():
            name = _local(el.tag)
            if name == "item" and el.get("id") and el.get("href"):
                manifest[el.get("id", "")] = (_resolve(opf_dir, el.get("href", "")),
                                              el.get("media-type", ""), el.get("properties", ""))
            elif name == "itemref" and el.get("idref") and el.get("linear", "yes") != "no":
                spine.append(el.get("idref", ""))
            elif name == "spine":
                ncx_id = el.get("toc")
            elif name == "title" and not title:
                title = " ".join("".join(el.itertext()).split())
        nav_href = next((h for h, _, props in manifest.values() if "nav" in props.split()), None)
        ncx_href = manifest[ncx_id][0] if ncx_id in manifest else None
        toc = _toc_titles(book, opf_dir, manifest, nav_href, ncx_href)
        blocks: list[Block] = []
        for idref in spine:
            if idref not in manifest:
                continue
            href, media, _ = manifest[idref]
            if media not in _XHTML_TYPES or href not in book.names():
                continue
            chapter, chapter_title = html_blocks(_decode(book.read(href)))
            if not chapter:
                continue
            name = toc.get(href) or chapter_title
            if name and not any(b.level for b in chapter):
                blocks.append(Block(name, 1))
            blocks.extend(chapter)
    if not blocks:
        raise UnreadableFile("the EPUB has no readable chapters")
    return build_document(blocks, title or stem)
