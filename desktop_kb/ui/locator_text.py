"""Where a passage lives, in the window's language: "p. 42" → "第 42 页", "(part 2)" → "（第 2 部分）".

The core writes these locator words in English into hit titles and heading paths
(``retrieval.locators``, ``text.headings.with_part``) so the CLI and ``--json`` read the
same everywhere; every surface of the window that shows such a title passes it here.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from desktop_kb.retrieval.locators import SEPARATOR, split_locator
from desktop_kb.text.headings import split_part

__all__ = ["page_label", "shown_heading_path", "shown_title"]


def page_label(page: int | None, page_end: int | None = None) -> str:
    """"p. 42" / "pp. 41–42", in the UI language."""
    if page is None:
        return ""
    if page_end is not None and page_end != page:
        return QCoreApplication.translate("Locator", "pp. {0}–{1}").format(page, page_end)
    return QCoreApplication.translate("Locator", "p. {0}").format(page)


def shown_heading_path(path: str) -> str:
    """A heading path with its part number, if any, in the UI language."""
    base, part = split_part(path)
    if part is None:
        return path
    return QCoreApplication.translate("Locator", "{0} (part {1})").format(base, part).strip()


def shown_title(title: str) -> str:
    """A hit, citation or suggestion title with its part number and pages in the UI language."""
    base, page, page_end = split_locator(title)
    shown = shown_heading_path(base)
    return f"{shown}{SEPARATOR}{page_label(page, page_end)}" if page is not None else shown
