"""Markdown: one fragment per section, sections from the shared heading model.

The title is the front-matter ``title:``, else the first level-1 heading, else
the first heading of any level (book chapters often start at ``##``), else the
file stem — so results from twenty chapters are not all called "summary".
"""

from __future__ import annotations

from desktop_kb.importer.model import SplitResult
from desktop_kb.importer.pieces import Piece, finish
from desktop_kb.importer.yaml_text import yaml_title
from desktop_kb.text.headings import front_matter_end, markdown_headings, sections

__all__ = ["split_markdown"]


def split_markdown(doc: str, stem: str) -> SplitResult:
    front_end = front_matter_end(doc)
    front_title = yaml_title(doc[:front_end]) if front_end else None
    headings = markdown_headings(doc, front_end)
    pieces: list[Piece] = [(s.start, s.end, s.heading_path) for s in sections(doc, headings)]
    h1 = next((h.title for h in headings if h.level == 1 and h.title), None)
    first = next((h.title for h in headings if h.title), None)
    return finish(doc, front_title or h1 or first or stem, pieces, [])
