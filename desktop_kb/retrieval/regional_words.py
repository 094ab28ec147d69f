"""Taiwan and mainland words for the same thing: ask in the words the library uses.

Folding to one script (text/fold.py) lets 執行緒 match 执行绪, but a learner in
Taipei calls a thread 執行緒 and a book from Beijing calls it 线程; memory is
記憶體 / 内存, a macro 巨集 / 宏, a file 檔案 / 文件. No script conversion joins
those. OpenCC's phrase tables do (``tw2sp``: Taiwan → mainland words,
``s2twp``: mainland → Taiwan words, the same maintained tables the folding
uses), but they are context-free and sometimes wrong (Taiwan's 程序 is a
mainland 进程, yet 程序 is a mainland word too).

So a word of the question is replaced only when the library does not hold it
at all and does hold the other region's word: the question keeps every word
the library knows, and nothing changes for a library that speaks the
person's own variety. Both sides are compared in the index's folded
(Simplified) form; whether a word is present is a capped lookup of its
character pairs (kb_grams) or, for one character, of the word itself. Where
OpenCC's tables list several counterparts (運算子: 操作符 and 运算符), the one
more chunks hold is asked for (retrieval/regional_alternatives.py).
"""

from __future__ import annotations

import functools
import sqlite3

from desktop_kb.index.segment import HAN_RUN_RE, han_bigrams, normalize
from desktop_kb.retrieval.fts_query import quote_fts_token
from desktop_kb.text.fold import opencc_converter, to_simplified
from desktop_kb.text.han import has_han

__all__ = ["in_library_words", "load_tables"]

#: OpenCC configurations: Traditional (Taiwan) → Simplified with mainland
#: phrases, and Simplified → Traditional with Taiwan phrases.
_CONFIGS = ("tw2sp.json", "s2twp.json")

#: The longest word looked up (OpenCC's regional phrases are 2 to 5 characters).
_LONGEST = 5

#: How many chunks are counted at most when two counterparts are both in the library.
_COUNT_CAP = 200


@functools.lru_cache(maxsize=16384)
def _other_word(config: str, word: str) -> str:
    """``word`` in the other region's vocabulary, folded to Simplified like the index."""
    return to_simplified(opencc_converter(config).convert(word))


@functools.cache
def _alternatives() -> dict[str, tuple[str, ...]]:
    """Folded word → every folded counterpart OpenCC's tables list (its converter returns
    only the first: 運算子 → 操作符, where a Beijing book says 运算符)."""
    from desktop_kb.retrieval.regional_alternatives import TO_MAINLAND, TO_TAIWAN

    out: dict[str, dict[str, None]] = {}
    for table in (TO_MAINLAND, TO_TAIWAN):
        for word, others in table.items():
            key = to_simplified(word)
            out.setdefault(key, {}).update(dict.fromkeys(o for v in others if (o := to_simplified(v)) != key))
    return {key: tuple(others) for key, others in out.items() if others}


def load_tables() -> None:
    """Load OpenCC's regional converters and the alternatives table now (the app does it before
    its first search, which otherwise waited ~0.8 s for them on its first Chinese question)."""
    for config in _CONFIGS:
        opencc_converter(config)
    _alternatives()


def _counterparts(word: str) -> tuple[str, ...]:
    """Every other-region word for ``word`` (2–5 ideographs), converters' choices first."""
    folded = to_simplified(word)
    out = dict.fromkeys(o for config in _CONFIGS if (o := _other_word(config, word)) != folded)
    out.update(dict.fromkeys(_alternatives().get(folded, ())))
    return tuple(out)


def _regional_words(query: str) -> list[tuple[int, int, tuple[str, ...]]]:
    """(start, end, other words): every stretch of 2–5 ideographs that a table words differently."""
    out: list[tuple[int, int, tuple[str, ...]]] = []
    table = _alternatives()
    for run in HAN_RUN_RE.finditer(query):
        text, base = run.group(), run.start()
        folded = to_simplified(text)
        if all(_other_word(config, text) == folded for config in _CONFIGS) and not any(
            key in folded for key in table
        ):
            continue  # nothing in this run is worded differently: skip the probes
        for i in range(len(text) - 1):
            for j in range(min(len(text), i + _LONGEST), i + 1, -1):
                if others := _counterparts(text[i:j]):
                    out.append((base + i, base + j, others))
    return out


def _held(index: sqlite3.Connection, word: str, cache: dict[str, int]) -> int:
    """How many chunks hold ``word`` (folded form; counted up to a cap): its character
    pairs as a phrase, or for one character the word itself."""
    known = cache.get(word)
    if known is None:
        folded = normalize(word)
        grams = han_bigrams(folded)
        if grams:
            sql, match = "SELECT 1 FROM kb_grams WHERE kb_grams MATCH ? LIMIT ?", " ".join(grams)
        else:
            sql, match = "SELECT 1 FROM kb_fts WHERE kb_fts MATCH ? LIMIT ?", folded
        try:
            known = len(index.execute(sql, (quote_fts_token(match), _COUNT_CAP)).fetchall())
        except sqlite3.OperationalError:  # an index without the tables: nothing to compare
            known = 1
        cache[word] = known
    return known


def in_library_words(index: sqlite3.Connection, query: str) -> str:
    """``query`` with each regional word the library lacks replaced by the one it holds.

    Longer words are tried first at each position (物件導向 → 面向对象 before
    物件 → 对象). Where the tables list several counterparts (運算子 → 操作符,
    运算符), the one most chunks hold wins. Returns ``query`` itself (the same
    object) when nothing is replaced.
    """
    if not has_han(query):
        return query
    candidates = _regional_words(query)
    if not candidates:
        return query
    cache: dict[str, int] = {}
    chosen: list[tuple[int, int, str]] = []
    taken = 0
    for start, end, others in sorted(candidates, key=lambda c: (c[0], -(c[1] - c[0]))):
        if start < taken or _held(index, to_simplified(query[start:end]), cache):
            continue
        held = [(count, -order, other) for order, other in enumerate(others)
                if (count := _held(index, other, cache))]
        if not held:
            continue
        chosen.append((start, end, max(held)[2]))
        taken = end
    if not chosen:
        return query
    parts: list[str] = []
    pos = 0
    for start, end, other in chosen:
        parts += [query[pos:start], other]
        pos = end
    parts.append(query[pos:])
    return "".join(parts)
