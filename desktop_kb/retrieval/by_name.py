"""Finding an imported document by its title or file name ("docker-compose.md", "第三章").

The full-text index holds passages, not file names, so a search for a file a
person remembers by name found nothing. Names are matched here, against the
store, and the matching documents lead the results (their first passage opens).
"""

from __future__ import annotations

import re
import sqlite3
import unicodedata
from dataclasses import replace
from pathlib import PurePath

from desktop_kb.markup.plain import plain_title
from desktop_kb.retrieval.results import SearchResponse, SearchResult

MIN_CHARS = 2
MAX_NAMED = 3


def _fold(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def _name_spans(text: str, query: str) -> list[tuple[int, int]]:
    """Where the query, or each of its words, stands in ``text`` (ignoring case), left to right.

    A document found by its name has no keyword hits of its own, and an unmarked snippet
    read as a result the search could not explain.
    """
    words = sorted({w for w in [query.strip(), *query.split()] if len(w) >= MIN_CHARS}, key=len, reverse=True)
    if not words:
        return []
    pattern = re.compile("|".join(re.escape(w) for w in words), re.IGNORECASE)
    return [(m.start(), m.end()) for m in pattern.finditer(text)]


def named_documents(store: sqlite3.Connection, query: str, limit: int = MAX_NAMED) -> list[SearchResult]:
    wanted = _fold(query)
    if len(wanted) < MIN_CHARS:
        return []
    found: list[tuple[int, SearchResult]] = []
    # LIKE narrows in SQL (ASCII case-insensitively); the fold below decides.
    pattern = "%" + query.strip().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    rows = store.execute(
        "SELECT d.id, d.title, d.path, d.local_only, f.id, f.text FROM documents d "
        "JOIN fragments f ON f.document_id = d.id AND f.ord = "
        "(SELECT min(ord) FROM fragments WHERE document_id = d.id) "
        "WHERE d.title LIKE ?1 ESCAPE '\\' OR d.path LIKE ?1 ESCAPE '\\' ORDER BY d.id", (pattern,))
    for doc_id, title, path, local_only, fragment_id, text in rows:
        name = PurePath(path).name
        stem = PurePath(path).stem
        folded = [_fold(x) for x in (name, stem, title)]
        if wanted not in folded[0] and wanted not in folded[2]:
            continue
        exact = wanted in (folded[0], folded[1], folded[2])
        head = text[:160]
        found.append((0 if exact else 1, SearchResult(
            rank=0, source_type="fragment", source_id=fragment_id, title=plain_title(title), snippet=head,
            highlights=_name_spans(head, query), start=0, end=len(head), score=0.0, chunk_id=0,
            chunk_start=0, chunk_end=len(head), document_id=doc_id, local_only=bool(local_only),
            path=path)))
    found.sort(key=lambda item: item[0])
    return [r for _order, r in found[:limit]]


def with_named_documents(store: sqlite3.Connection, response: SearchResponse, limit: int) -> SearchResponse:
    """Documents named by the query first, then the passages found (without repeats)."""
    named = named_documents(store, response.query)
    if not named:
        return response
    docs = {r.document_id for r in named}
    rest = [r for r in response.results if not (r.source_type == "fragment" and r.document_id in docs
                                                 and r.source_id in {n.source_id for n in named})]
    merged = (named + rest)[:limit]
    response.results = [replace(r, rank=i) for i, r in enumerate(merged, start=1)]
    response.notice = "" if response.results else response.notice
    response.weak_matches = False  # a document named by the query is no weak match
    return response
