"""The library's own frequent words in the segmenter's dictionary, at the frequency the library gives them.

jieba's frequencies are those of general Chinese text: 线程 (thread) 3 against 在线 (online)
1,082, so "在线程之间" is cut 在线/程/之间, and 闭包 (closure) is not a word at all ("用闭包" →
用闭/包). In the Rust book 94 of 409 occurrences of 线程 never became that token, so a
search for 线程 missed those passages. A library about programming uses 线程 far more often
than general text does, and says so in its headings.

The words are those its headings use (a chapter or section title names what the library is
about) that the library's passages hold at least :data:`RATIO` times as often as jieba's
dictionary expects of general text. Each enters the user-word set (``index/user_words.py``)
with the library's own frequency (the share of the library's tokens, rounded to a power of
two so small changes do not re-cut anything), so it wins a split its general-text frequency
loses, for the index and queries alike. The index keeps the set in ``kb_meta``
(``library_words``); the writer recomputes it when idle after documents changed, and re-cuts
the passages that hold a word whose entry changed (a library indexed before this existed
gets its words the first time the writer is idle).
"""

from __future__ import annotations

import json
import math
import sqlite3

from desktop_kb.index import db
from desktop_kb.index.lexicon import WEIGHT_SEP, CompactTokenizer, weighted
from desktop_kb.index.segment import _segmenter, han_bigrams, normalize
from desktop_kb.retrieval.fts_query import quote_fts_token
from desktop_kb.text.han import HAN_RUN_RE

META_KEY = "library_words"
PENDING_KEY = "library_words_pending"
RECUT_KEY = "library_words_recut"
#: How many times more often than jieba's dictionary expects of general text the library must
#: use a word: 线程 is ~10⁴ times as common in the Rust book; 使用 (use), which its headings say
#: too, about 5 times, and stays as jieba has it.
RATIO = 16
MIN_CHUNKS = 5  # a word in fewer passages than this says little about the library
MAX_CHARS = 4  # longer heading words are phrases (and ``cut_for_search`` keeps their parts)


def encode(words: dict[str, int]) -> frozenset[str]:
    """The words as user-word entries ("线程\\x1f65536")."""
    return frozenset(f"{w}{WEIGHT_SEP}{f}" for w, f in words.items())


def plain(entries: frozenset[str]) -> set[str]:
    """The words of user-word entries, without their frequencies."""
    return {weighted(e)[0] for e in entries}


def stored(index: sqlite3.Connection) -> dict[str, int] | None:
    """The words the index's rows were cut with (None: never computed for this index)."""
    raw = db.get_meta(index, META_KEY)
    if raw is None:
        return None
    return {w: int(f) for w, f in json.loads(raw).items()} if raw else {}


def save(index: sqlite3.Connection, words: dict[str, int]) -> None:
    """Inside the caller's transaction."""
    db.set_meta(index, META_KEY, json.dumps(dict(sorted(words.items())), ensure_ascii=False))


def pending(index: sqlite3.Connection) -> list[tuple[str, int]]:
    """Sources still to be cut again with the saved words (``Applier.refresh_library_words``)."""
    raw = db.get_meta(index, PENDING_KEY)
    return [(str(t), int(i)) for t, i in json.loads(raw)] if raw else []


def save_pending(index: sqlite3.Connection, keys: list[tuple[str, int]],
                 words: set[str] | None = None) -> None:
    """Inside the caller's transaction. ``words``: those whose entry changed (kept while
    ``keys`` are left; None keeps the saved ones)."""
    db.set_meta(index, PENDING_KEY, json.dumps(keys) if keys else "")
    if not keys:
        db.set_meta(index, RECUT_KEY, "")
    elif words is not None:
        db.set_meta(index, RECUT_KEY, json.dumps(sorted(words), ensure_ascii=False))


def recutting(index: sqlite3.Connection) -> list[str]:
    """The words whose passages are still being cut again (none once every one is).

    Until then the library is cut two ways: a passage not reached yet holds such a word as
    the old set cut it (的字/段), one reached holds it whole (字段). The query is cut with the
    new set, and as soon as one passage holds the word, keyword search no longer looked it
    up by its characters: a search for 字段 on the Rust book found 49 of the 85 passages it
    found before, until the last passage was reached. Lexical search looks these words up
    by their character pairs too (``retrieval/lexical.py``) meanwhile."""
    if not db.get_meta(index, PENDING_KEY):
        return []
    raw = db.get_meta(index, RECUT_KEY)
    if raw is None:  # left part way by a version that did not say which: all of them
        return sorted(stored(index) or {})
    return [str(w) for w in json.loads(raw)] if raw else []


def heading_words(store: sqlite3.Connection) -> set[str]:
    """Words of 2 to :data:`MAX_CHARS` ideographs that the library's headings use (imported
    passages' heading paths, documents' and notes' titles), cut with jieba's dictionary alone
    (so the result does not depend on the set in use)."""
    runs: set[str] = set()
    for (path,) in store.execute(
            "SELECT DISTINCT heading_path FROM fragments UNION SELECT title FROM documents "
            "UNION SELECT title FROM notes WHERE trashed_at IS NULL"):
        runs.update(m.group() for m in HAN_RUN_RE.finditer(normalize(path or "")))
    ordered = sorted(runs)
    tok = _segmenter()
    seen: dict[str, int] = {}
    for tokens in tok.cut_base_many(ordered):
        for t in set(tokens):
            if 2 <= len(t) <= MAX_CHARS and HAN_RUN_RE.fullmatch(t):
                seen[t] = seen.get(t, 0) + 1
    # A word jieba does not know was guessed from one heading's characters ("闭包会捕获其环境"
    # → 闭包会): taken only when headings say it more than once (闭包 in many).
    return {t for t, n in seen.items() if n >= 2 or tok.base_freq(t) > 0}


def title_may_add(index: sqlite3.Connection, title: str) -> bool:
    """Whether a note's new title names a word that would join the saved words (a heading word
    the library uses :data:`RATIO` times as often as general text), looked up without reading
    every heading: a new note or a renamed one is common, and :func:`compute` reads them all."""
    runs = [m.group() for m in HAN_RUN_RE.finditer(normalize(title or ""))]
    if not runs:
        return False
    saved = stored(index) or {}
    tok = _segmenter()
    words = {t for tokens in tok.cut_base_many(runs) for t in tokens
             if 2 <= len(t) <= MAX_CHARS and HAN_RUN_RE.fullmatch(t) and t not in saved
             and tok.base_freq(t) > 0}
    if not words:
        return False
    library = _library_tokens(index)
    return library > 0 and any(_frequency(index, word, library, tok) is not None for word in sorted(words))


def compute(index: sqlite3.Connection, store: sqlite3.Connection) -> dict[str, int]:
    """word -> frequency (on jieba's scale) for the library's own frequent words."""
    library = _library_tokens(index)
    if library <= 0:
        return {}
    tok = _segmenter()
    out: dict[str, int] = {}
    for word in sorted(heading_words(store)):
        freq = _frequency(index, word, library, tok)
        if freq is not None:
            out[word] = 2 ** round(math.log2(freq))
    return _without_overlaps(index, out)


def _library_tokens(index: sqlite3.Connection) -> float:
    """The library's tokens (passages × their mean length as FTS5 counts it); 0 when empty."""
    chunks = index.execute("SELECT count(*) FROM kb_chunks").fetchone()[0]
    if not chunks:
        return 0.0
    from desktop_kb.index.postings import averages

    rows, tokens = averages(index)
    per_chunk = tokens / rows if rows else 0.0
    return chunks * per_chunk if per_chunk > 0 else 0.0


def _frequency(index: sqlite3.Connection, word: str, library: float, tok: CompactTokenizer) -> float | None:
    """``word``'s frequency on jieba's scale when the library uses it as its own (held by
    :data:`MIN_CHUNKS` passages and :data:`RATIO` times as often as jieba expects), else None.
    ``library``: :func:`_library_tokens`."""
    held = _held(index, word)
    if held < MIN_CHUNKS:
        return None
    # The share of the library's tokens this word is (a passage holding it once, which
    # undercounts a word used often, as the words that matter are).
    freq = held / library * tok.total
    return freq if freq >= RATIO * max(tok.base_freq(word), 1) else None


def _held(index: sqlite3.Connection, text: str) -> int:
    """How many passages hold the text (their character bigrams in a row)."""
    return index.execute("SELECT count(*) FROM kb_grams WHERE kb_grams MATCH ?",
                         (quote_fts_token(" ".join(han_bigrams(text))),)).fetchone()[0]


def _without_overlaps(index: sqlite3.Connection, words: dict[str, int]) -> dict[str, int]:
    """Leave out a word that is mostly a mis-cut beside a stronger one: 程间 is in the Rust
    book's headings as jieba cuts "在线程间" (在线/程间), and nearly every 程间 of the book is
    the end of 线程间; made strong, it would fight 线程 for its character."""
    out = dict(words)
    for w in sorted(words):
        held = None
        for v in words:
            if v == w or words[v] < words[w]:
                continue
            for k in range(1, min(len(v), len(w))):
                joined = (v + w[k:]) if v.endswith(w[:k]) else (w + v[k:]) if w.endswith(v[:k]) else None
                if joined is None:
                    continue
                held = _held(index, w) if held is None else held
                if 2 * _held(index, joined) >= held:
                    out.pop(w, None)
                    break
            if w not in out:
                break
    return out
