"""Is this passage the same text as that one? Character shingles, for grouping and hints.

Two texts are compared by the sets of their character 4-grams after folding
(NFKC, case) and dropping everything that is not a letter, digit or ideograph —
so Markdown markers, punctuation, spacing and line breaks never matter, and
Chinese (no spaces) and English are treated alike. Exact set overlap, not
MinHash: the panel compares a few dozen texts at a time.

* ``resemblance`` (Jaccard) says "the same text, a few edits apart";
* ``containment`` says "one text is inside the other" (a note pasted from a
  passage, with a line of its own added).

Very short texts are never called duplicates: two notes that both say "TODO"
are not worth a hint.
"""

from __future__ import annotations

import re
import unicodedata
import zlib
from dataclasses import dataclass

SHINGLE_CHARS = 4
MIN_SHINGLES = 24  # about 27 meaningful characters: shorter texts are never duplicates
SAME_PASSAGE = 0.8  # resemblance at which two suggestions are one passage shown once
NEAR_DUPLICATE = 0.6  # resemblance at which the open note is "nearly the same" as another
CONTAINED = 0.85  # containment at which one text is the other with a little added …
CONTAINED_SIZE = 0.5  # … as long as the smaller is at least half the larger (not a quote)

_DROP_RE = re.compile(r"[\W_]+")


def fold(text: str) -> str:
    return _DROP_RE.sub("", unicodedata.normalize("NFKC", text).casefold())


@dataclass(frozen=True)
class Shingles:
    grams: frozenset[int]

    @classmethod
    def of(cls, text: str) -> Shingles:
        folded = fold(text)
        k = SHINGLE_CHARS
        return cls(frozenset(zlib.crc32(folded[i:i + k].encode("utf-8"))
                             for i in range(max(0, len(folded) - k + 1))))

    @property
    def comparable(self) -> bool:
        return len(self.grams) >= MIN_SHINGLES

    def resemblance(self, other: Shingles) -> float:
        if not self.comparable or not other.comparable:
            return 0.0
        return len(self.grams & other.grams) / len(self.grams | other.grams)

    def containment(self, other: Shingles) -> float:
        """How much of the smaller text is inside the larger one."""
        if not self.comparable or not other.comparable:
            return 0.0
        return len(self.grams & other.grams) / min(len(self.grams), len(other.grams))


def same_passage(a: Shingles, b: Shingles) -> bool:
    return a.resemblance(b) >= SAME_PASSAGE


def size_ratio(a: Shingles, b: Shingles) -> float:
    small, large = sorted((len(a.grams), len(b.grams)))
    return small / large if large else 0.0


def overlap(a: Shingles, b: Shingles) -> float:
    """One figure for "how much the same text": resemblance, or containment for similar sizes."""
    contained = a.containment(b) if size_ratio(a, b) >= CONTAINED_SIZE else 0.0
    return max(a.resemblance(b), contained if contained >= CONTAINED else 0.0)


def nearly_same(a: Shingles, b: Shingles) -> bool:
    return overlap(a, b) >= NEAR_DUPLICATE
