"""Query-focused snippets with highlight spans as exact source offsets.

A click on a hit opens the note and highlights ``source[a:b]``, so every offset
here is into the original source string. Terms are index-form (folded: NFKC,
lower-case, one script); matching happens on a folded copy of the chunk with a
map from each folded char back to its source span
(:func:`desktop_kb.text.fold.fold_map`), because ``str.lower()`` and NFKC can
change length ("İ" → "i̇", "ﬁ" → "fi") and a Simplified term must light up the
Traditional characters it stands for.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from desktop_kb.index.segment import is_operator, mask_full_width_marks, normalize, operator_spans
from desktop_kb.text.fold import fold_map
from desktop_kb.text.han import is_han
from desktop_kb.text.markup_only import is_markup_span, may_hold_markup
from desktop_kb.text.sentences import sentence_spans, trim_span

__all__ = ["Snippet", "make_snippet", "sentence_spans", "written_forms"]


@dataclass(frozen=True)
class Snippet:
    """``source[start:end] == text``; highlights are absolute, sorted, disjoint."""

    text: str
    start: int
    end: int
    highlights: list[tuple[int, int]]


@functools.lru_cache(maxsize=65536)  # a few characters, asked about at every hit of every snippet
def _is_word_char(ch: str) -> bool:
    # Han ideographs: substring matches are fine; elsewhere a term must not start
    # or end inside a word ("go" must not light up "google").
    return (ch.isalnum() or ch == "_") and not is_han(ch)


@functools.lru_cache(maxsize=4096)
def _index_form(term: str) -> str:
    """A query term's index form: a results page folds the same few terms for every
    snippet, and folding (OpenCC) costs more than finding them."""
    return normalize(term)


def _find_hits(
    source: str, start: int, end: int, terms: Sequence[str]
) -> list[tuple[int, int, str]]:
    """(src_start, src_end, term) for every occurrence of every term in the range."""
    folded, starts, ends = fold_map(source, start, end)
    forms = list(dict.fromkeys(_index_form(t) for t in terms))
    operators = frozenset(t for t in forms if is_operator(t))
    hits = _operator_hits(source, start, end, operators) if operators else []
    for term in forms:
        if not term.strip() or term in operators:
            continue
        check_left = _is_word_char(term[0])
        check_right = _is_word_char(term[-1])
        i = folded.find(term)
        while i != -1:
            j = i + len(term)
            ok = not (check_left and i > 0 and _is_word_char(folded[i - 1])) and not (
                check_right and j < len(folded) and _is_word_char(folded[j])
            )
            if ok:
                hits.append((starts[i], ends[j - 1], term))
            i = folded.find(term, i + 1)
    hits.sort()
    return hits


def _whole_words(hits: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Hits of a search fragment of a longer query word (所有 and 有权 of 所有权) only inside
    that word, where the passage holds it: "几乎所有的 Rust 类型" lit 所有 in a hit for
    "什么是所有权？", as if the passage spoke of it there."""
    spans: dict[str, list[tuple[int, int]]] = {}
    for s, e, term in hits:
        spans.setdefault(term, []).append((s, e))
    longer = {t: [u for u in spans if u != t and t in u] for t in spans}
    return [(s, e, t) for s, e, t in hits
            if not longer[t] or any(a <= s and e <= b for u in longer[t] for a, b in spans[u])]


def written_forms(source: str, terms: Sequence[str], start: int = 0, end: int | None = None) -> dict[str, str]:
    """Each index-form term as ``source[start:end]`` first writes it ("ctrl" → "Ctrl",
    "标签" → "標籤"); terms it does not hold are left out."""
    found: dict[str, str] = {}
    for a, b, term in _find_hits(source, start, len(source) if end is None else end, terms):
        found.setdefault(term, source[a:b])
    return found


def _operator_hits(source: str, start: int, end: int,
                   operators: frozenset[str]) -> list[tuple[int, int, str]]:
    """The question's operators where the index found them (``operator_tokens``), not every
    substring: folding makes ？ a "?", and the ``?`` inside ``{:?}`` is not the operator."""
    folded, starts, ends = fold_map(mask_full_width_marks(source[start:end]))
    return [(start + starts[i], start + ends[j - 1], op)
            for i, j, op in operator_spans(folded) if op in operators]


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted union of overlapping or touching spans."""
    merged: list[tuple[int, int]] = []
    for s, e in sorted(spans):
        if merged and s <= merged[-1][1]:
            if e > merged[-1][1]:
                merged[-1] = (merged[-1][0], e)
        else:
            merged.append((s, e))
    return merged


def _window(
    source: str, lo: int, hi: int, focus: int, focus_len: int, max_chars: int
) -> tuple[int, int]:
    """A max_chars cut of an over-long sentence [lo, hi), centred on the focus hit."""
    s = max(lo, focus - max(0, max_chars - focus_len) // 2)
    e = min(hi, s + max_chars)
    s = max(lo, e - max_chars)
    return trim_span(source, s, e) or (s, e)


def make_snippet(
    source: str,
    chunk_start: int,
    chunk_end: int,
    terms: Sequence[str],
    max_chars: int = 200,
    best_sentence: tuple[int, int] | None = None,
) -> Snippet:
    """The chunk's sentences that carry the most distinct query terms.

    Grows by whole neighbouring sentences while within ``max_chars``; cuts a
    sentence only when it alone is too long (then a window around its first
    hit). Without term hits it starts from ``best_sentence`` (e.g. the best
    dense match) or the first sentence.
    """
    chunk_start = max(0, chunk_start)
    chunk_end = min(len(source), chunk_end)
    sentences = sentence_spans(source, chunk_start, chunk_end)
    if not sentences:
        return Snippet("", chunk_start, chunk_start, [])
    # A chapter's link-reference lines ("[x]: ch02-00.html#比较猜测的数字") and mdBook's
    # {{#include …/ch04-understanding-ownership/…}} name other sections and files, so they
    # match queries, but tell the reader nothing: never a snippet's text, and a snippet does
    # not grow across them — unless the chunk has nothing else.
    # Judged only where asked (a hit's sentence, a neighbour to grow into): reading every
    # sentence's lines took a fifth of a snippet's time, and most are never asked about.
    judged: dict[tuple[int, int], bool] = {}

    def markup(span: tuple[int, int]) -> bool:
        flag = judged.get(span)
        if flag is None:
            flag = judged[span] = is_markup_span(source, *span)
        return flag

    if not may_hold_markup(source, chunk_start, chunk_end):  # the usual chunk: judged at once

        def markup(span: tuple[int, int]) -> bool:  # noqa: F811 - no line of it can be markup
            return False

    elif all(markup(sp) for sp in sentences):  # stops at the first sentence of text

        def markup(span: tuple[int, int]) -> bool:  # noqa: F811 - nothing else: none is markup
            return False

    hits = _whole_words(_find_hits(source, chunk_start, chunk_end, terms))

    # Seed: the sentence with most distinct terms (then most hits, then earliest).
    seed: tuple[int, int] | None = None
    first_hit: tuple[int, int] | None = None
    if hits:
        best_key = (0, 0)
        for s, e in sentences:
            inside = [h for h in hits if s <= h[0] and h[1] <= e]
            key = (len({h[2] for h in inside}), len(inside))
            if key > best_key and not markup((s, e)):
                best_key, seed = key, (s, e)
                first_hit = (inside[0][0], inside[0][1] - inside[0][0])
    if seed is None and best_sentence is not None:
        seed = trim_span(source, max(chunk_start, best_sentence[0]), min(chunk_end, best_sentence[1]))
    if seed is None:
        seed = next(sp for sp in sentences if not markup(sp))

    lo, hi = seed
    if hi - lo > max_chars:
        focus, flen = first_hit if first_hit else (lo, 0)
        lo, hi = _window(source, lo, hi, focus, flen, max_chars)
    else:
        before = [sp for sp in sentences if sp[1] <= lo][::-1]
        after = [sp for sp in sentences if sp[0] >= hi]
        bi = ai = 0
        grew = True
        while grew:
            grew = False
            if ai < len(after) and after[ai][1] - lo <= max_chars and not markup(after[ai]):
                hi = after[ai][1]
                ai += 1
                grew = True
            if bi < len(before) and hi - before[bi][0] <= max_chars and not markup(before[bi]):
                lo = before[bi][0]
                bi += 1
                grew = True

    highlights = _merge([(s, e) for s, e, _ in hits if lo <= s and e <= hi])
    return Snippet(source[lo:hi], lo, hi, highlights)
