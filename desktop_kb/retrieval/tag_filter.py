"""``tag:`` in a search: ``tag:docker 备份`` searches notes tagged #docker (or #docker/…).

Several ``tag:`` terms must all hold. A query of tags alone lists the tagged
notes, newest first, so "what did I tag #rust" is one search. A tag filter
narrows to notes: imported passages carry no tags.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import replace

from desktop_kb.markup.tags import tag_key
from desktop_kb.retrieval.results import SearchResponse, SearchResult
from desktop_kb.store.tags import notes_with_tags

# "tag:x" or "tag：x" (full-width colon, as typed with a Chinese IME), at a word start.
_TAG_TERM_RE = re.compile(r"(?:(?<=\s)|^)tag[:：]\s*(#?[^\s]+)", re.IGNORECASE)
#: How many unfiltered results to look through for the tagged ones.
WIDEN = 20
PREVIEW_CHARS = 160


def split_tag_terms(query: str) -> tuple[str, list[str]]:
    """(the query without its ``tag:`` terms, the tag keys)."""
    tags = [tag_key(m.group(1)) for m in _TAG_TERM_RE.finditer(query)]
    rest = " ".join(_TAG_TERM_RE.sub(" ", query).split())
    return rest, [t for t in tags if t]


def _listing(store: sqlite3.Connection, query: str, ids: set[int], limit: int) -> SearchResponse:
    response = SearchResponse(query=query, mode="tags")
    if not ids:
        return response
    marks = ",".join("?" * len(ids))
    rows = store.execute(
        f"SELECT id, title, body, local_only FROM notes WHERE id IN ({marks}) "
        "ORDER BY updated_at DESC, id DESC LIMIT ?", (*sorted(ids), limit)).fetchall()
    for rank, (note_id, title, body, local_only) in enumerate(rows, start=1):
        head = body[:PREVIEW_CHARS]
        response.results.append(SearchResult(
            rank=rank, source_type="note", source_id=note_id, title=title, snippet=head,
            highlights=[], start=0, end=len(head), score=0.0, chunk_id=0, chunk_start=0,
            chunk_end=len(head), local_only=bool(local_only)))
    return response


def search_with_tags(
    store: sqlite3.Connection, query: str, limit: int,
    run: Callable[[str, int], SearchResponse],
) -> SearchResponse:
    """``run(query, limit)`` is the ordinary search; it is called only when words remain."""
    rest, tags = split_tag_terms(query)
    if not tags:
        return run(query, limit)
    allowed = notes_with_tags(store, tags)
    if not rest:
        return _listing(store, query, allowed, limit)
    response = run(rest, max(limit, 1) * WIDEN)
    kept: Sequence[SearchResult] = [
        r for r in response.results if r.source_type == "note" and r.source_id in allowed][:limit]
    response.results = [replace(r, rank=i) for i, r in enumerate(kept, start=1)]
    response.query = query
    response.settle_weak_matches()
    return response
