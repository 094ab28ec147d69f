"""Finding a note by a few typed characters of its title, for ``[[`` autocomplete and "go to note".

Chinese and English alike, best first:

1. the whole title, then a title that starts with what was typed;
2. the typed text at a word start ("安装" in "Docker 安装", "comp" in "docker compose");
3. anywhere in the title;
4. pinyin — full syllables or initials, any reading of a character
   ("anzhuang", "az", "chongqing" for 重庆);
5. the typed characters in order with gaps ("dkr" → "Docker", "装笔" → "安装笔记"),
   as long as they stay close together.

Ties keep the caller's order (most recently edited first). Case, full-width
forms and repeated spaces never matter. Every match says which characters of
the title matched, for highlighting.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from desktop_kb.markup import pinyin
from desktop_kb.text.han import has_han, is_han

Span = tuple[int, int]
_PINYIN_QUERY_RE = re.compile(r"[a-z']+")
_LATIN_WORD_RE = re.compile(r"[a-z0-9]+")
MAX_GAP_RATIO = 3  # a subsequence match may span at most this many times the query's length


@dataclass(frozen=True)
class TitleMatch:
    note_id: int
    title: str
    score: float
    spans: tuple[Span, ...]  # matched characters of ``title``, merged


def _fold_char(ch: str) -> str:
    if ch.isspace():
        return " "
    return unicodedata.normalize("NFKC", ch).casefold()


@dataclass(frozen=True)
class _Folded:
    """A title folded per character, with a map from folded offsets back to the original."""

    text: str
    origin: tuple[int, ...]  # origin[i] = offset in the original title of folded char i

    @classmethod
    def of(cls, title: str) -> _Folded:
        chars: list[str] = []
        origin: list[int] = []
        for i, ch in enumerate(title):
            for folded in _fold_char(ch):
                chars.append(folded)
                origin.append(i)
        return cls("".join(chars), tuple(origin))

    def spans(self, positions: Sequence[int]) -> tuple[Span, ...]:
        merged: list[Span] = []
        for p in sorted({self.origin[i] for i in positions}):
            if merged and merged[-1][1] == p:
                merged[-1] = (merged[-1][0], p + 1)
            else:
                merged.append((p, p + 1))
        return tuple(merged)


def _subsequence(query: str, text: str) -> list[int] | None:
    """Positions of ``query``'s characters in ``text`` in order, preferring tight runs."""
    best: list[int] | None = None
    for first in (i for i, ch in enumerate(text) if ch == query[0]):
        positions = [first]
        at = first + 1
        for ch in query[1:]:
            found = text.find(ch, at)
            if found < 0:
                break
            positions.append(found)
            at = found + 1
        else:
            if best is None or positions[-1] - positions[0] < best[-1] - best[0]:
                best = positions
    if best is None or best[-1] - best[0] + 1 > MAX_GAP_RATIO * len(query):
        return None
    return best


@dataclass(frozen=True)
class _Unit:
    """A Han character (its readings) or a Latin word, for pinyin matching."""

    start: int  # folded offsets
    end: int
    readings: tuple[str, ...]
    latin: bool


def _units(text: str) -> list[_Unit]:
    units: list[_Unit] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if is_han(ch):
            units.append(_Unit(i, i + 1, pinyin.readings(ch), False))
            i += 1
            continue
        m = _LATIN_WORD_RE.match(text, i)
        if m:
            units.append(_Unit(i, m.end(), (m.group(),), True))
            i = m.end()
        else:
            i += 1
    return units


def _pinyin(query: str, units: list[_Unit]) -> tuple[float, list[int]] | None:
    """(quality, folded positions) of the best match of ``query`` as consecutive units' pinyin.

    Quality 1.0 when every Han unit was typed as a whole syllable, 0.5 for initials.
    """
    q = query.replace("'", "")

    @functools.cache
    def walk(u: int, j: int) -> tuple[int, int] | None:
        """(units used, whole syllables) for the rest of q from unit u, or None."""
        if j == len(q):
            return (0, 0)
        if u == len(units):
            return None
        unit = units[u]
        best: tuple[int, int] | None = None
        for r in unit.readings:
            options: list[tuple[int, int]] = []  # (next j, whole syllable?)
            if q.startswith(r, j):
                options.append((j + len(r), 1))
            if r.startswith(q[j:]):
                options.append((len(q), 1 if unit.latin else 0))
            if not unit.latin:
                options.append((j + 1, 0) if q[j] == r[0] else (j, -1))
                if len(r) > 2 and r[:2] in ("zh", "ch", "sh") and q.startswith(r[:2], j):
                    options.append((j + 2, 0))
            for nj, whole in options:
                if whole < 0:
                    continue
                rest = walk(u + 1, nj)
                if rest is not None:
                    cand = (rest[0] + 1, rest[1] + whole)
                    if best is None or cand[1] > best[1]:
                        best = cand
        return best

    for start in range(len(units)):
        if units[start].latin and not any(not u.latin for u in units[start:]):
            break
        found = walk(start, 0)
        if found is not None and any(not u.latin for u in units[start:start + found[0]]):
            used = units[start:start + found[0]]
            han = sum(1 for u in used if not u.latin) or 1
            positions = [p for u in used for p in range(u.start, u.end)]
            return min(1.0, found[1] / han) * 0.5 + 0.5 - start * 0.01, positions
    return None


@dataclass
class _Entry:
    """One title, folded once; pinyin units are worked out only when a query needs them."""

    note_id: int
    title: str
    folded: _Folded
    has_han: bool
    _units: list[_Unit] | None = None
    _initials: frozenset[str] | None = None
    _readings: str | None = None

    @classmethod
    def of(cls, note_id: int, title: str) -> _Entry:
        folded = _Folded.of(title)
        return cls(note_id, title, folded, has_han(folded.text))

    @property
    def units(self) -> list[_Unit]:
        if self._units is None:
            self._units = _units(self.folded.text)
        return self._units

    @property
    def initials(self) -> frozenset[str]:
        if self._initials is None:
            self._initials = frozenset(r[0] for u in self.units for r in u.readings if r)
        return self._initials

    @property
    def readings(self) -> str:
        """Every reading of every unit, in order: a pinyin query is a subsequence of this."""
        if self._readings is None:
            self._readings = "".join("".join(u.readings) for u in self.units)
        return self._readings


def _fold_query(query: str) -> str:
    return " ".join(_Folded.of(query).text.split())


def _is_word_start(text: str, i: int) -> bool:
    if i == 0 or is_han(text[i]):
        return True
    before = text[i - 1]
    return not before.isalnum() or is_han(before)


def _score(q: str, entry: _Entry, gappy: re.Pattern[str] | None) -> tuple[float, tuple[Span, ...]] | None:
    folded = entry.folded
    text = folded.text
    compact = q.replace(" ", "")
    at = text.find(q)
    if at >= 0:
        if at == 0 and " ".join(text.split()) == q:
            return 100.0, folded.spans(range(len(text)))
        if at == 0:
            return 90.0 + 5.0 * len(q) / max(1, len(text)), folded.spans(range(len(q)))
        word_at = at
        while word_at >= 0 and not _is_word_start(text, word_at):
            word_at = text.find(q, word_at + 1)
        if word_at >= 0:
            return 80.0 - 0.1 * word_at, folded.spans(range(word_at, word_at + len(q)))
        return 70.0 - 0.1 * at, folded.spans(range(at, at + len(q)))
    if (entry.has_han and _PINYIN_QUERY_RE.fullmatch(compact) and compact[0] in entry.initials
            and (gappy is None or gappy.search(entry.readings))):
        found = _pinyin(compact, entry.units)
        if found is not None:
            quality, positions = found
            return 55.0 + 10.0 * quality, folded.spans(positions)
    if gappy is not None:
        windows = [m.group(1) for m in gappy.finditer(text)]
        if windows and min(len(w) for w in windows) <= MAX_GAP_RATIO * len(compact):
            positions = _subsequence(compact, text)
            if positions is not None:
                gaps = positions[-1] - positions[0] + 1 - len(positions)
                return 40.0 - gaps, folded.spans(positions)
    return None


def _gappy(compact: str) -> re.Pattern[str] | None:
    """A cheap C-speed pre-check for "these characters in this order"."""
    if len(compact) < 2:
        return None
    # A lookahead finds the shortest window from every start, all inside the regex engine.
    return re.compile("(?=(" + ".*?".join(re.escape(ch) for ch in compact) + "))", re.DOTALL)


class TitleIndex:
    """Titles folded once, for ranking them again and again as the person types."""

    def __init__(self, titles: Sequence[tuple[int, str]]) -> None:
        self._entries = [_Entry.of(i, t) for i, t in titles if t.strip()]

    def __len__(self) -> int:
        return len(self._entries)

    def rank(self, query: str, limit: int = 12, *, exclude: int | None = None) -> list[TitleMatch]:
        """The best ``limit`` titles for ``query``; an empty query keeps the given order."""
        q = _fold_query(query)
        entries = [e for e in self._entries if e.note_id != exclude]
        if not q:
            return [TitleMatch(e.note_id, e.title, 0.0, ()) for e in entries[:limit]]
        gappy = _gappy(q.replace(" ", ""))
        found: list[tuple[float, int, TitleMatch]] = []
        for order, entry in enumerate(entries):
            scored = _score(q, entry, gappy)
            if scored is not None:
                found.append((-scored[0], order, TitleMatch(entry.note_id, entry.title, *scored)))
        found.sort(key=lambda m: (m[0], m[1]))
        return [m[2] for m in found[:limit]]


def score_title(query: str, title: str) -> tuple[float, tuple[Span, ...]] | None:
    """How well ``title`` answers ``query`` (higher is better), or None when it does not."""
    q = _fold_query(query)
    if not q:
        return 0.0, ()
    return _score(q, _Entry.of(0, title), _gappy(q.replace(" ", "")))


def rank_titles(query: str, titles: Sequence[tuple[int, str]], limit: int = 12) -> list[TitleMatch]:
    """One-off ranking; keep a :class:`TitleIndex` when ranking the same titles repeatedly."""
    return TitleIndex(titles).rank(query, limit)
