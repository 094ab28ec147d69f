"""What every format produces: the document's text and its fragments with exact offsets.

Fragments are what the library shows, what links point at and what citations
highlight, so every fragment is an exact slice of the document text
(``text == doc_text[start:end]``).  Splitting is deterministic: a re-import of
unchanged input yields identical fragments, which keeps fragment ids (and the
links to them) stable.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["FragmentSpec", "PageProgress", "SplitResult", "UnreadableFile"]

PageProgress = Callable[[int, int], None]  # (pages done, pages in the file); may raise Cancelled


@dataclass(frozen=True)
class FragmentSpec:
    ord: int
    heading_path: str
    text: str
    start: int
    end: int
    # 1-based page numbers for paged formats (PDF); None elsewhere.
    page: int | None = None
    page_end: int | None = None


@dataclass(frozen=True)
class SplitResult:
    doc_text: str
    title: str
    fragments: list[FragmentSpec]
    notes: list[str]
    # Pages that have no text layer and wait for OCR (PDF only), 1-based.
    ocr_pages: tuple[int, ...] = field(default=())


class UnreadableFile(Exception):
    """A file that cannot be imported; ``reason`` is one line shown to the person."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
