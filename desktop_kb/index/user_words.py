"""The person's own words in the segmenter's dictionary: note titles, ``[[link]]`` targets, ``#tags``.

jieba cuts names and new terms it does not know into pieces ("易烊千玺" →
易/烊/千玺), and a piece-wise match ranks a passage that merely shares the
characters as high as the one about the term. A note titled with the term,
a link to it or a tag says the person treats it as one word, so such terms go
into the dictionary (``CompactTokenizer.set_user_words``, like
``jieba.add_word``) for index and queries alike.

Index and queries must cut text the same way, so the set belongs to the index:
it is kept in ``kb_meta`` (``user_words``) and every reader and the writer make
the process's segmenter use exactly that set (:func:`sync`) before segmenting.
A note that brings a new term re-segments the chunks that already hold it
(found by their ideograph pairs in ``kb_grams``) in the same transaction. A
rebuild recomputes the whole set from the store, so terms whose notes are gone
leave it.
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading

from desktop_kb.index import db
from desktop_kb.index.segment import han_bigrams, normalize, set_user_words, user_words
from desktop_kb.index.sources import SourceKey, SourceText
from desktop_kb.retrieval.fts_query import quote_fts_token

META_KEY = "user_words"
#: Longer titles are sentences, not terms; as one token they would hide the
#: 4-character words inside them from a query (cut_for_search adds 2/3 only).
MAX_TERM_CHARS = 8
#: A new term held by more chunks than this waits for the next rebuild:
#: re-segmenting them all inside one save's transaction would hold it up.
MAX_RESEGMENT_CHUNKS = 5000

_HAN_TERM_RE = re.compile(f"[\u4e00-\u9fd5]{{2,{MAX_TERM_CHARS}}}")
_LINK_RE = re.compile(r"\[\[([^\[\]\n|#]+)[^\[\]\n]*\]\]")
# "#元宇宙", but not "C#…" or "&#…" (a "#" right after a letter, digit or "&").
_TAG_RE = re.compile(f"(?<![\\w&])#([\u4e00-\u9fd5]{{2,{MAX_TERM_CHARS}}})(?![\u4e00-\u9fd5])")

def _candidates(title: str, body: str) -> list[str]:
    out = [title]
    if "[[" in body:
        out += _LINK_RE.findall(body)
    if "#" in body:
        out += _TAG_RE.findall(body)
    return out


def terms_of(title: str, body: str) -> set[str]:
    """Terms a note names: its title, its link targets and tags, when each is a
    run of 2–8 ideographs jieba's own dictionary does not hold as a word."""
    from desktop_kb.index.segment import base_word_known

    out: set[str] = set()
    for raw in _candidates(title, body):
        term = normalize(raw).strip()
        if _HAN_TERM_RE.fullmatch(term) and not base_word_known(term):
            out.add(term)
    return out


def store_terms(store: sqlite3.Connection) -> set[str]:
    """Every live note's terms (for a rebuild); bodies are read only when they hold a link or tag."""
    out: set[str] = set()
    for title, body in store.execute(
            "SELECT title, CASE WHEN instr(body, '[[') > 0 OR instr(body, '#') > 0 "
            "THEN body ELSE '' END FROM notes WHERE trashed_at IS NULL"):
        out |= terms_of(title or "", body or "")
    return out


def sources_terms(sources: list[SourceText]) -> set[str]:
    out: set[str] = set()
    for s in sources:
        if s.source_type == "note":
            out |= terms_of(s.title, s.text)
    return out


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


def resegment_plan(index: sqlite3.Connection, terms: set[str]) -> tuple[set[str], set[SourceKey]]:
    """The new terms to take in and the indexed sources (chunk or title) that hold them.

    A term held by more than :data:`MAX_RESEGMENT_CHUNKS` chunks waits for
    the next rebuild: re-segmenting them would hold up a save.
    """
    accepted: set[str] = set()
    keys: set[SourceKey] = set()
    for term in sorted(terms):
        grams = han_bigrams(term)
        rows = index.execute(
            "SELECT c.source_type, c.source_id FROM kb_grams g JOIN kb_chunks c ON c.id = g.rowid "
            "WHERE kb_grams MATCH ? LIMIT ?",
            (quote_fts_token(" ".join(grams)), MAX_RESEGMENT_CHUNKS + 1)).fetchall()
        if len(rows) > MAX_RESEGMENT_CHUNKS:
            continue
        accepted.add(term)
        keys.update((r[0], r[1]) for r in rows)
    return accepted, keys
