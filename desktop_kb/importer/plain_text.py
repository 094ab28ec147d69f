"""Plain text: blank-line paragraphs, short ones packed together."""

from __future__ import annotations

from desktop_kb.importer.model import SplitResult
from desktop_kb.importer.pieces import finish, paragraph_pieces

__all__ = ["split_text", "text_fallback"]


def split_text(doc: str, stem: str) -> SplitResult:
    return finish(doc, stem, paragraph_pieces(doc, 0, len(doc), ""), [])


def text_fallback(doc: str, stem: str, why: str) -> SplitResult:
    """A file malformed for its format is still text: split it into paragraphs, say why."""
    result = split_text(doc, stem)
    return SplitResult(result.doc_text, stem, result.fragments, [why, *result.notes])
