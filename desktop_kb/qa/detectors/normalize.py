"""The form detectors read: NFKC (full-width → ASCII) with invisible characters removed.

People (and copy-paste) write ``１３８…``, ``＠`` and ``：`` as often as their
ASCII forms, and a zero-width space inside a key must not hide it. Detectors
run on the normalised text; :class:`Normalized` maps every span back to the
original, so what is withheld or redacted is the person's own characters.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

# Zero-width and other invisible format characters that split a token without showing.
INVISIBLE = frozenset(
    [0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180E, 0x200B, 0x200C, 0x200D,
     0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2060, 0x2061, 0x2062, 0x2063,
     0x2064, 0x2066, 0x2067, 0x2068, 0x2069, 0x3164, 0xFEFF, 0xFFA0]
    + list(range(0xFE00, 0xFE10))
    # enclosing marks: a keycap's 1️⃣ is "1", U+FE0F and U+20E3 (digits dressed as emoji to dodge a filter)
    + list(range(0x20DD, 0x20E5)))


@lru_cache(maxsize=8192)
def _fold(ch: str) -> str:
    if ord(ch) in INVISIBLE:
        return ""
    digit = unicodedata.decimal(ch, None)
    if digit is not None:  # ۰۹۱۲, ١٤, २०, ২০, ๑๒: a number in any script is read as one (NFKC leaves them)
        return str(digit)
    return unicodedata.normalize("NFKC", ch)


@dataclass(frozen=True)
class Normalized:
    text: str
    _origin: tuple[int, ...] | None  # origin[i] = index in the original of text[i]; None: identical
    original_length: int

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original span covering normalised ``[start, end)``."""
        if self._origin is None:
            return start, end
        if start >= end:
            pos = self._origin[start] if start < len(self._origin) else self.original_length
            return pos, pos
        # (invisible characters right after the span go with it: a keycap's U+FE0F U+20E3 after its digit)
        after = self._origin[end] if end < len(self._origin) else self.original_length
        return self._origin[start], max(self._origin[end - 1] + 1, after)


# Characters NFKC leaves alone and that are never invisible: ASCII, the unified ideographs of the
# basic plane, 。、《》「」『』【】 (a fast path: not text.han's set, whose compatibility
# ideographs NFKC rewrites).
_CHANGING_RE = re.compile("[^\x00-\x7f\u3400-\u4dbf\u4e00-\u9fff\u3001\u3002\u300a-\u3011]+")


def normalize(text: str) -> Normalized:
    if text.isascii():
        return Normalized(text, None, len(text))
    out: list[str] = []
    origin: list[int] = []
    pos = 0
    changed = False
    for m in _CHANGING_RE.finditer(text):
        out.append(text[pos:m.start()])
        origin.extend(range(pos, m.start()))
        for i in range(m.start(), m.end()):
            ch = text[i]
            folded = _fold(ch)
            changed = changed or folded != ch
            out.append(folded)
            origin.extend([i] * len(folded))
        pos = m.end()
    if not changed:
        return Normalized(text, None, len(text))
    out.append(text[pos:])
    origin.extend(range(pos, len(text)))
    return Normalized("".join(out), tuple(origin), len(text))
