"""Turn a source into index rows: chunk, hash, segment. Pure, so it can run in a process pool."""

from __future__ import annotations

from dataclasses import dataclass

from desktop_kb.index.chunker import Chunk, chunk_markdown, chunk_plain
from desktop_kb.index.segment import gram_tokens, operator_tokens, segment_for_index, set_user_words
from desktop_kb.index.sources import SourceKey, SourceText, text_hash
from desktop_kb.index.terms import source_terms
from desktop_kb.text.fold import model_text

MAX_CHUNK_CHARS = 800


@dataclass(frozen=True)
class PreparedChunk:
    ord: int
    start: int
    end: int
    heading_path: str
    text: str
    text_hash: str
    body_tokens: str
    gram_tokens: str  # ideograph bigrams of the text and the title (kb_grams)
    embed_hash: str  # cache key of what the embedding model sees (see ``embed_text_of``)
    op_tokens: str = ""  # operators made only of punctuation (kb_ops)


@dataclass(frozen=True)
class PreparedSource:
    key: SourceKey
    title: str
    version: str
    title_hash: str
    title_tokens: str
    chunks: list[PreparedChunk]
    terms: frozenset[str] = frozenset()  # what the note names (index/user_words.py)


def chunk_source(source: SourceText) -> list[Chunk]:
    # A fragment is already one section of its document (the importer split
    # it at headings, pages or definitions); re-parsing its text as Markdown
    # would take a "# comment" line in a capped code block for a heading.
    if source.source_type == "note":
        chunks = chunk_markdown(source.text, MAX_CHUNK_CHARS)
    else:
        chunks = chunk_plain(source.text, MAX_CHUNK_CHARS)
    if not chunks and source.title.strip():
        # A title-only note must still be findable by its title.
        chunks = [Chunk(ord=0, start=0, end=0, heading_path="", text="")]
    return chunks


def prepare_source(source: SourceText) -> PreparedSource:
    chunks = []
    title_grams = gram_tokens(source.title)
    for c in chunk_source(source):
        thash = text_hash(c.text)
        embedded = embed_text_of(c.text, source.title)
        chunks.append(PreparedChunk(
            ord=c.ord, start=c.start, end=c.end, heading_path=c.heading_path, text=c.text,
            text_hash=thash, body_tokens=segment_for_index(c.text),
            gram_tokens=" ".join(filter(None, (gram_tokens(c.text), title_grams))),
            embed_hash=thash if embedded == c.text else text_hash(embedded),
            op_tokens=" ".join(operator_tokens(c.text)),
        ))
    return PreparedSource(
        key=source.key, title=source.title, version=source.version, title_hash=text_hash(source.title),
        title_tokens=segment_for_index(source.title), chunks=chunks,
        terms=frozenset(source_terms(source)),
    )


def embed_text_of(text: str, title: str) -> str:
    """What the embedding model sees for a chunk (in one script, see ``model_text``);
    a title-only note embeds its title."""
    return model_text(text if text.strip() else title)


def prepare_many(sources: list[SourceText], user_words: frozenset[str]) -> list[PreparedSource]:
    """Batch entry point for worker processes (one pickle round-trip per batch), segmenting
    with the index's own user words (``index/user_words.py``) like the process that sent it."""
    set_user_words(user_words)
    return [prepare_source(s) for s in sources]
