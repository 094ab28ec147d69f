"""The person's own terms in the segmenter's dictionary, kept identical for index and queries.

jieba cuts names and new terms it does not know into pieces ("易烊千玺" →
易/烊/千玺), and a piece-wise match ranks a passage that merely shares the
characters as high as the one about the term. A note titled with the term, a
link to it or a tag (``index/terms.py``) says the person treats it as one
word, so it goes into the dictionary (``CompactTokenizer.set_user_words``,
like ``jieba.add_word``).

Index and queries must cut text the same way, so the set belongs to the
index: ``kb_terms`` records which note names which term, ``kb_meta``
(``user_words``) holds their distinct set, and every reader and the writer
make the process's segmenter use exactly that set (:func:`sync`) before
segmenting. When a save brings a term in or takes the last one out, the
chunks that hold it (found by their ideograph pairs in ``kb_grams``) are cut
again in the same transaction (``Applier._update_terms``).
"""

from __future__ import annotations

import json
import sqlite3
import threading

from desktop_kb.index import db
from desktop_kb.index.segment import han_bigrams, set_user_words, user_words
from desktop_kb.index.sources import SourceKey
from desktop_kb.retrieval.fts_query import quote_fts_token

META_KEY = "user_words"


def _encode(words: frozenset[str]) -> str:
    return json.dumps(sorted(words), ensure_ascii=False) if words else ""


_lock = threading.Lock()
_last_raw: str | None = None  # the kb_meta value the process's segmenter now follows


def sync(index: sqlite3.Connection) -> frozenset[str]:
    """Make this process's segmenter use the set ``index`` was written with; returns it.

    One small ``kb_meta`` read; the dictionary changes only when the stored
    value does (another process, or another library in this one, changed it).
    """
    global _last_raw
    raw = db.get_meta(index, META_KEY) or ""
    with _lock:
        if raw != _last_raw:
            set_user_words(frozenset(json.loads(raw)) if raw else frozenset())
            _last_raw = raw
        return user_words()


def take(words: frozenset[str]) -> None:
    """The writer grew the set: segment with it now; :func:`save` stores it with the rows."""
    global _last_raw
    with _lock:
        set_user_words(words)
        _last_raw = _encode(words)


def forget() -> None:
    """The rows (and the set saved with them) were rolled back: the next sync reloads."""
    global _last_raw
    with _lock:
        _last_raw = None


def stored(index: sqlite3.Connection) -> frozenset[str]:
    raw = db.get_meta(index, META_KEY)
    return frozenset(json.loads(raw)) if raw else frozenset()


def save(index: sqlite3.Connection, words: frozenset[str]) -> None:
    """Inside the caller's transaction: the set the index's rows are segmented with."""
    db.set_meta(index, META_KEY, _encode(words))


def terms_elsewhere(index: sqlite3.Connection, keys: list[SourceKey]) -> set[str]:
    """Distinct terms of the indexed notes other than ``keys`` (whose rows are being replaced)."""
    ids = [i for t, i in keys if t == "note"]
    if not ids:
        return {r[0] for r in index.execute("SELECT DISTINCT term FROM kb_terms")}
    marks = ",".join("?" * len(ids))
    return {r[0] for r in index.execute(
        "SELECT DISTINCT term FROM kb_terms "
        f"WHERE NOT (source_type = 'note' AND source_id IN ({marks}))", ids)}


def holders(index: sqlite3.Connection, terms: set[str]) -> set[SourceKey]:
    """Indexed sources with a chunk (or title) that holds one of ``terms``: their rows
    must be cut again when a term enters or leaves the dictionary."""
    keys: set[SourceKey] = set()
    for term in sorted(terms):
        keys.update((r[0], r[1]) for r in index.execute(
            "SELECT DISTINCT c.source_type, c.source_id FROM kb_grams g "
            "JOIN kb_chunks c ON c.id = g.rowid WHERE kb_grams MATCH ?",
            (quote_fts_token(" ".join(han_bigrams(term))),)))
    return keys
