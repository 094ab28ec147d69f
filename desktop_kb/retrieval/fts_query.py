"""The one place that turns user input into FTS5 MATCH text (house rule 6).

Every term is emitted as a double-quoted FTS5 string (sqlite-utils
``quote_fts`` style), so operators (AND/OR/NOT/NEAR), ``*``, ``^``, ``:``,
``-``, parentheses and quotes typed by the user are inert and no FTS5 syntax
error can reach the user.
"""

from __future__ import annotations

from dataclasses import dataclass

from desktop_kb.index.segment import QueryAnalysis, analyse_query, identifier_parts

__all__ = ["Alternative", "alternatives", "build_match", "join_match", "quote_fts_token"]


@dataclass(frozen=True)
class Alternative:
    """One OR branch of a MATCH: its quoted FTS5 text and the index tokens it needs."""

    match: str
    tokens: tuple[str, ...]


def quote_fts_token(token: str) -> str:
    """Quote ``token`` as an FTS5 string; an internal ``"`` is doubled."""
    return '"' + token.replace('"', '""') + '"'


def build_match(query: str) -> str | None:
    """An OR of quoted terms for ``query``, or None when nothing is searchable.

    Quoted phrases become one quoted phrase of their index tokens; an
    identifier is matched whole or as the phrase of its parts, so
    ``main.py`` also finds ``src/main.py`` (indexed as its whole plus parts).
    None lets callers skip the SQL instead of running a query that cannot hit.
    """
    return join_match(alternatives(analyse_query(query)))


def alternatives(analysis: QueryAnalysis) -> list[Alternative]:
    """The OR branches for an analysed query, without repeats, in query order."""
    out: dict[str, Alternative] = {}

    def add(tokens: list[str]) -> None:
        match = quote_fts_token(" ".join(tokens))
        out.setdefault(match, Alternative(match, tuple(tokens)))

    for phrase in analysis.phrases:
        add(phrase)
    for term in analysis.terms:
        add([term])
        if term in analysis.identifiers:
            parts = identifier_parts(term)
            if len(parts) >= 2:
                add(parts)
    return list(out.values())


def join_match(branches: list[Alternative]) -> str | None:
    """The MATCH text for ``branches`` (None when there is nothing to search)."""
    return " OR ".join(b.match for b in branches) or None
