"""Split notes into retrievable chunks with exact offsets into the source.

Offsets are the contract: search hits, snippets and citations all point back
into the stored note by ``source[start:end]``, so nothing here ever rewrites
text — whitespace is trimmed by moving offsets, never by stripping strings.
Sections come from the shared heading model (``text.headings``: a bare heading
is context for the section below, never a chunk of its own) and pieces from
the shared cutter (``text.cutting``), so notes and imported documents split
alike.  A piece that is nothing but markup (link definitions, ``{{#include}}``
directives, bare code fences: ``text.markup_only``) rides with its neighbour,
up to ``MARKUP_GLUE_FACTOR`` times the size cap, instead of being a chunk of its
own.  Everything is a single forward pass with bounded look-back windows,
so a 10 MB note chunks in linear time.
"""

from __future__ import annotations

from dataclasses import dataclass

from desktop_kb.text.cutting import cut_span
from desktop_kb.text.headings import Section, markdown_headings, sections
from desktop_kb.text.markup_only import glue_markup_only

__all__ = ["CHUNKER_VERSION", "Chunk", "chunk_markdown", "chunk_plain"]

# Part of the index's signature (index/segment.py): a new value re-chunks existing
# indexes on their next start.  "2": markup-only pieces ride with their neighbour.
# "3": Rust's `?` operator ("f()? 会提前返回") no longer ends a sentence (text/sentences.py).
CHUNKER_VERSION = "3"
DEFAULT_MAX_CHARS = 800
# How far a chunk may grow past max_chars by taking in markup-only neighbours.
# Embedders truncate the tail, where such markup sits, so what they read is unchanged.
MARKUP_GLUE_FACTOR = 4


@dataclass(frozen=True)
class Chunk:
    """One chunk; invariant: ``text == source[start:end]``."""

    ord: int
    start: int
    end: int
    heading_path: str
    text: str


def _make_chunks(source: str, parts: list[Section], max_chars: int) -> list[Chunk]:
    if max_chars < 1:
        raise ValueError("max_chars must be >= 1")
    chunks: list[Chunk] = []
    for sec in parts:
        spans = cut_span(source, sec.start, sec.end, max_chars)
        for cs, ce in glue_markup_only(source, spans, MARKUP_GLUE_FACTOR * max_chars):
            chunks.append(Chunk(len(chunks), cs, ce, sec.heading_path, source[cs:ce]))
    return chunks


def chunk_markdown(source: str, max_chars: int = DEFAULT_MAX_CHARS) -> list[Chunk]:
    """Heading-aware chunks: never across headings, so heading_path stays true."""
    return _make_chunks(source, sections(source, markdown_headings(source)), max_chars)


def chunk_plain(
    source: str, max_chars: int = DEFAULT_MAX_CHARS, heading_path: str = ""
) -> list[Chunk]:
    """Chunks for text without structure: paragraphs, then lines, then sentences."""
    return _make_chunks(source, [Section(0, len(source), heading_path)], max_chars)
