"""The one place that turns user input into FTS5 MATCH text (house rule 6).

Every term is emitted as a double-quoted FTS5 string (sqlite-utils
``quote_fts`` style), so operators (AND/OR/NOT/NEAR), ``*``, ``^``, ``:``,
``-``, parentheses and quotes typed by the user are inert and no FTS5 syntax
error can reach the user.
"""

from __future__ import annotations

from desktop_kb.index.segment import analyse_query, identifier_parts

__all__ = ["build_match", "quote_fts_token"]


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
    analysis = analyse_query(query)
    alternatives: list[str] = []
    for phrase in analysis.phrases:
        alternatives.append(quote_fts_token(" ".join(phrase)))
    for term in analysis.terms:
        alternatives.append(quote_fts_token(term))
        if term in analysis.identifiers:
            parts = identifier_parts(term)
            if len(parts) >= 2:
                alternatives.append(quote_fts_token(" ".join(parts)))
    if not alternatives:
        return None
    return " OR ".join(dict.fromkeys(alternatives))
