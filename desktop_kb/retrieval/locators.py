"""Where a passage lives in its document, in words: "p. 42", "pp. 41–42".

Fragments of paged documents (PDF) carry page numbers; every other fragment is
located by its heading path, which is already part of its title ("Book >
Chapter > Section").  Resolving a hit (I6) appends the page, so search
results, QA citations, related suggestions and every ``--json`` output show
"线性代数 > 第二章 · p. 42" without each of them knowing about pages.
"""

from __future__ import annotations

import re

__all__ = ["page_locator", "split_locator", "with_locator"]

SEPARATOR = " · "
_LOCATOR_RE = re.compile(r" · (?:p\. (\d+)|pp\. (\d+)–(\d+))$")


def page_locator(page: int | None, page_end: int | None = None) -> str:
    if page is None:
        return ""
    if page_end is not None and page_end != page:
        return f"pp. {page}–{page_end}"
    return f"p. {page}"


def with_locator(title: str, page: int | None, page_end: int | None = None) -> str:
    locator = page_locator(page, page_end)
    return f"{title}{SEPARATOR}{locator}" if locator else title


def split_locator(title: str) -> tuple[str, int | None, int | None]:
    """``with_locator`` undone: the title and its pages, so a window can say them in its language."""
    match = _LOCATOR_RE.search(title)
    if match is None:
        return title, None, None
    if match.group(1):
        return title[:match.start()], int(match.group(1)), None
    return title[:match.start()], int(match.group(2)), int(match.group(3))
