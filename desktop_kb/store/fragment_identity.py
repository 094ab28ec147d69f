"""Which stored fragment each fragment of a re-imported file *is*.

Links and dismissed suggestions point at fragment ids, so a re-import must
keep a fragment's id whenever the passage is still recognisably the same
passage; only fragments that really went away lose their id (and their links,
which the import summary lists). Matching, in order of confidence:

1. the same text (anywhere in the file: a moved paragraph keeps its id);
2. mostly the same text — character-bigram overlap (Dice) of at least
   ``SIMILAR`` — so an edited sentence, a typo fix or a retitled section
   keeps its id; bigrams work for Chinese and English alike;
3. the same heading path and the same position under it, when that section
   has as many unmatched fragments before as after (a paragraph rewritten in
   place); when the counts differ, which old paragraph became which new one
   is a guess, and a guess would move a person's link to the wrong passage.

Each old fragment is used at most once; ties prefer the same heading path and
the nearest position.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

SIMILAR = 0.5
# Only pairs within this many positions of each other are compared for
# similarity, so a rewrite of a 5,000-fragment book stays linear, not quadratic.
WINDOW = 40

_SPACE = re.compile(r"\s+")


class OldFragment(Protocol):
    @property
    def id(self) -> int: ...
    @property
    def heading_path(self) -> str: ...
    @property
    def text(self) -> str: ...


class NewFragment(Protocol):
    @property
    def heading_path(self) -> str: ...
    @property
    def text(self) -> str: ...


@dataclass(frozen=True)
class Match:
    keep: dict[int, int]  # index into the new fragments -> kept fragment id
    removed: list[int]  # old fragment ids nothing matched


def _bigrams(text: str) -> frozenset[str]:
    flat = _SPACE.sub(" ", text.strip().lower())
    if len(flat) < 2:
        return frozenset([flat]) if flat else frozenset()
    return frozenset(flat[i:i + 2] for i in range(len(flat) - 1))


def similarity(a: str, b: str) -> float:
    """Dice coefficient of character bigrams (1.0 for equal texts)."""
    x, y = _bigrams(a), _bigrams(b)
    if not x and not y:
        return 1.0
    return 2 * len(x & y) / (len(x) + len(y))


def match_fragments(old: Sequence[OldFragment], new: Sequence[NewFragment]) -> Match:
    keep: dict[int, int] = {}  # new index -> old index
    used: set[int] = set()

    # 1. Same text.
    by_text: dict[str, list[int]] = defaultdict(list)
    for j, frag in enumerate(old):
        by_text[frag.text].append(j)
    for i, spec in enumerate(new):
        candidates = [j for j in by_text.get(spec.text, []) if j not in used]
        if candidates:
            j = min(candidates, key=lambda j: (old[j].heading_path != spec.heading_path, abs(j - i)))
            keep[i] = j
            used.add(j)

    # 2. Mostly the same text (best pairs first).
    free_new = [i for i in range(len(new)) if i not in keep]
    free_old = [j for j in range(len(old)) if j not in used]
    if free_new and free_old:
        grams_old = {j: _bigrams(old[j].text) for j in free_old}
        rank_old = {j: r for r, j in enumerate(free_old)}
        pairs: list[tuple[float, bool, int, int, int]] = []
        for r, i in enumerate(free_new):
            grams = _bigrams(new[i].text)
            for j in free_old:
                if abs(rank_old[j] - r) > WINDOW:
                    continue
                other = grams_old[j]
                if not grams and not other:
                    continue
                score = 2 * len(grams & other) / (len(grams) + len(other))
                if score >= SIMILAR:
                    same_heading = old[j].heading_path == new[i].heading_path
                    pairs.append((-score, not same_heading, abs(j - i), i, j))
        for _score, _heading, _dist, i, j in sorted(pairs):
            if i not in keep and j not in used:
                keep[i] = j
                used.add(j)

    # 3. Same heading, same position among what is left, when the counts agree.
    left_new: dict[str, list[int]] = defaultdict(list)
    left_old: dict[str, list[int]] = defaultdict(list)
    for i in range(len(new)):
        if i not in keep:
            left_new[new[i].heading_path].append(i)
    for j in range(len(old)):
        if j not in used:
            left_old[old[j].heading_path].append(j)
    for heading, news in left_new.items():
        olds = left_old.get(heading, [])
        if olds and len(olds) == len(news):
            for i, j in zip(news, olds, strict=True):
                keep[i] = j
                used.add(j)

    return Match(keep={i: old[j].id for i, j in keep.items()},
                 removed=sorted(old[j].id for j in range(len(old)) if j not in used))
