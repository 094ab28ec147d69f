"""Saved web pages (and EPUB chapters): the main content as headings and paragraphs.

Uses the standard library's tolerant ``html.parser`` (no dependency, never
raises on broken markup).  Scripts, styles, navigation, headers, footers,
asides and forms are dropped; when the page marks its main content
(``<main>``, ``<article>``, ``role="main"``) only that is kept.  Headings keep
their levels; list items, table rows and preformatted text keep their lines.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

from desktop_kb.importer.model import SplitResult
from desktop_kb.importer.structured import Block, build_document

__all__ = ["html_blocks", "html_title", "split_html"]

_SKIP = frozenset({"script", "style", "noscript", "template", "svg", "math", "nav", "header",
                   "footer", "aside", "form", "button", "select", "textarea", "iframe", "object",
                   "canvas", "head", "dialog"})
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                   "param", "source", "track", "wbr"})
_BLOCK = frozenset({"p", "div", "section", "article", "main", "li", "dt", "dd", "blockquote",
                    "figcaption", "caption", "tr", "table", "ul", "ol", "dl", "body", "html",
                    "address", "details", "summary", "center", "hr", "br", "figure"})
# Page furniture that is marked by role, class or id instead of by element: landmark
# roles, and the names documentation generators and wikis give their navigation bars
# (texinfo "nav-panel", DocBook "navheader", Sphinx "sphinxsidebar"/"related",
# MkDocs "md-sidebar", MediaWiki "mw-editsection"'s "[edit]" links).
_SKIP_ROLES = frozenset({"navigation", "banner", "contentinfo", "complementary", "search"})
_SKIP_NAMES = frozenset({
    "nav", "navbar", "navigation", "nav-panel", "navheader", "navfooter", "breadcrumb",
    "breadcrumbs", "sidebar", "sphinxsidebar", "related", "site-header", "site-footer",
    "skip-link", "skiplink", "md-header", "md-sidebar", "md-footer", "mw-editsection",
    "mw-navigation", "mw-panel", "navbox", "catlinks", "printfooter", "cookie-banner",
    "headerlink",
})
_HEADING = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_MAIN_HINT = re.compile(r"<(?:main|article)\b|role\s*=\s*[\"']?main", re.IGNORECASE)


def _is_furniture(attrs: list[tuple[str, str | None]]) -> bool:
    for key, value in attrs:
        if key == "hidden" or (key == "aria-hidden" and value == "true"):
            return True
        if not value:
            continue
        if key == "role" and value.strip().lower() in _SKIP_ROLES:
            return True
        if key in ("class", "id") and not _SKIP_NAMES.isdisjoint(value.lower().split()):
            return True
    return False


class _Extractor(HTMLParser):
    def __init__(self, main_only: bool) -> None:
        super().__init__(convert_charrefs=True)
        self.main_only = main_only
        self.blocks: list[Block] = []
        self.title = ""
        self._in_title = False
        self._skip_stack: list[str] = []  # open skipped elements
        self._main_depth = 0  # open main-content elements
        self._open: list[str] = []
        self._buf: list[str] = []
        self._level = 0
        self._pre = 0
        self._cells: list[str] | None = None

    # -- helpers -------------------------------------------------------------
    def _collecting(self) -> bool:
        return not self._skip_stack and (not self.main_only or self._main_depth > 0)

    def _flush(self) -> None:
        raw = "".join(self._buf)
        self._buf = []
        text = raw.strip("\n") if self._pre else " ".join(raw.split())
        if text.strip():
            self.blocks.append(Block(text, self._level))
        self._level = 0

    # -- parser callbacks ------------------------------------------------------
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title" and not self.title:
            self._in_title = True
        if tag in _VOID:
            if tag == "br" and self._collecting():
                self._buf.append("\n" if self._pre else " ")
            return
        self._open.append(tag)
        is_main = tag in ("main", "article") or any(k == "role" and v == "main" for k, v in attrs)
        # A <header> inside the main content is the article's own (its title), not the site's.
        own_header = tag == "header" and self._main_depth > 0
        skipped = (tag in _SKIP and not own_header) or _is_furniture(attrs)
        if self._skip_stack or (not is_main and skipped):
            self._skip_stack.append(tag)
            return
        if is_main:
            self._main_depth += 1
        if not self._collecting():
            return
        if tag in _HEADING:
            self._flush()
            self._level = _HEADING[tag]
        elif tag == "pre":
            self._flush()
            self._pre += 1
        elif tag == "tr":
            self._flush()
            self._cells = []
        elif tag in ("td", "th") and self._cells is not None:
            self._buf = []
        elif tag == "li":
            self._flush()
            self._buf.append("- ")
        elif tag in _BLOCK:
            self._flush()

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        if tag in _VOID or tag not in self._open:
            return  # stray end tag
        while self._open:  # close implicitly-closed children too
            top = self._open.pop()
            self._close(top)
            if top == tag:
                break

    def _close(self, tag: str) -> None:
        if self._skip_stack:
            self._skip_stack.pop()
            return
        collecting = self._collecting()
        if tag in ("main", "article"):
            if collecting:
                self._flush()
            self._main_depth = max(0, self._main_depth - 1)
            return
        if not collecting:
            return
        if tag in ("td", "th") and self._cells is not None:
            self._cells.append(" ".join("".join(self._buf).split()))
            self._buf = []
        elif tag == "tr" and self._cells is not None:
            row = " | ".join(c for c in self._cells if c)
            self._cells = None
            self._buf = [row]
            self._flush()
        elif tag == "pre":
            self._flush()
            self._pre = max(0, self._pre - 1)
        elif tag in _HEADING or tag in _BLOCK:
            self._flush()

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data
            return
        if self._collecting():
            self._buf.append(data)

    def close(self) -> None:
        super().close()
        self._flush()


def html_blocks(markup: str) -> tuple[list[Block], str]:
    """(blocks, <title>) of an HTML document; never raises on broken markup."""
    main_only = _MAIN_HINT.search(markup) is not None
    blocks, title = _extract(markup, main_only)
    if main_only and not blocks:  # a "main" that held nothing: take the whole body
        blocks, title = _extract(markup, False)
    return blocks, title


def _extract(markup: str, main_only: bool) -> tuple[list[Block], str]:
    parser = _Extractor(main_only)
    parser.feed(markup)
    parser.close()
    return parser.blocks, " ".join(html.unescape(parser.title).split())


def html_title(blocks: list[Block], page_title: str, stem: str) -> str:
    h1 = next((b.text for b in blocks if b.level == 1), None)
    return page_title or h1 or next((b.text for b in blocks if b.level), None) or stem


def split_html(doc: str, stem: str) -> SplitResult:
    blocks, page_title = html_blocks(doc)
    return build_document(blocks, html_title(blocks, page_title, stem))
